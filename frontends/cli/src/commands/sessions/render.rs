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

/// `YYYY-MM-DD HH:MM:SS` UTC for milliseconds since the epoch (civil-from-days, proleptic
/// Gregorian).
pub(super) fn format_utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
