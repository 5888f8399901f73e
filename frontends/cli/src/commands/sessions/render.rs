//! The readable rendering of inspection records: one line per entry, times in UTC.

use smith::SessionId;
use smith_app::inspect::{EntryView, Record, entry_line};
use smith_store::Entry;

use crate::command_error::CliError;
use crate::output::Out;

/// Print `entry` of session `id`: its JSON record, or one readable line.
pub(super) fn emit(
    out: &mut Out,
    id: &SessionId,
    entry: &Entry,
    json: bool,
) -> Result<bool, CliError> {
    if json {
        out.json(&Record::Entry(EntryView::new(*id, entry)))
    } else {
        out.line(&entry_line(entry))
    }
}
