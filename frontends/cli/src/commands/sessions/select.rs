//! `smith sessions select ID ENTRY`: the branch ending at ENTRY selected, as one committed
//! change under the writer lock (nothing is deleted).

use clap::Args;
use smith::EntryId;
use smith_app::runner::target::select_branch;
use smith_app::{RunnerError, SessionStore};

use super::find;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions select`.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// The entry to select as the leaf.
    #[arg(value_name = "ENTRY")]
    pub(crate) entry: u64,
}

pub(super) fn run(store: &SessionStore, args: &SelectArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let entry = args.entry;
    let notices = select_branch(&path, id, EntryId(entry)).map_err(|e| {
        let (status, why) = match e {
            RunnerError::Store(e) => {
                let status = match e {
                    smith_store::Error::Encode { .. } => exit::USAGE,
                    ref other => command_error::store_status(other),
                };
                (status, command_error::store_message(&e))
            }
            other => (exit::USAGE, other.to_string()),
        };
        CliError::new(
            status,
            format!("cannot select entry {entry} in session {id}: {why}"),
        )
    })?;
    crate::commands::eval::target::report_open_notices(&notices);
    out.line(&format!("session {id}: selected entry {entry}"))?;
    Ok(exit::SUCCESS)
}
