//! `smith sessions select ID ENTRY`: the branch ending at ENTRY selected, as one committed
//! change under the writer lock (nothing is deleted).

use clap::Args;
use smith::EntryId;
use smith_app::SessionStore;

use super::find;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions select`.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// The session id or a unique prefix.
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// The entry to select as the leaf.
    #[arg(value_name = "ENTRY")]
    pub(crate) entry: u64,
}

pub(super) fn run(store: &SessionStore, args: &SelectArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let entry = args.entry;
    let fail = |e: smith_store::Error| {
        let status = match e {
            smith_store::Error::Encode { .. } => exit::USAGE,
            ref other => command_error::store_status(other),
        };
        CliError::new(
            status,
            format!(
                "cannot select entry {entry} in session {id}: {}",
                command_error::store_message(&e)
            ),
        )
    };
    let (mut writer, recovery) = smith_store::SessionWriter::open(&path, id).map_err(fail)?;
    if let Some(t) = &recovery.truncated {
        exit::report(&format!(
            "note: recovered session {id}: cut {} unacknowledged byte(s) at byte {} ({})",
            t.len, t.offset, t.reason
        ));
    }
    writer.select(EntryId(entry)).map_err(fail)?;
    writer.close().map_err(fail)?;
    out.line(&format!("session {id}: selected entry {entry}"))?;
    Ok(exit::SUCCESS)
}
