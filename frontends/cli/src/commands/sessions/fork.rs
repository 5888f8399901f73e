//! `smith sessions fork ID [--at ENTRY]`: a session's history up to an entry copied into a new
//! session, published atomically; prints the new session's id.

use clap::Args;
use smith::EntryId;
use smith_app::SessionStore;
use smith_app::inspect::{ForkView, Record};
use smith_app::runner::target::{OpenError, fork};

use super::find;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions fork`.
#[derive(Debug, Args)]
pub(crate) struct ForkArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// The fork point: the new session holds entries 1..=ENTRY with ENTRY selected
    /// (default: the selected leaf).
    #[arg(long, value_name = "ENTRY")]
    pub(crate) at: Option<u64>,
    /// Print a JSON record instead of the bare id.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(super) fn run(store: &SessionStore, args: &ForkArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    if args.at == Some(0) {
        return Err(CliError::usage(
            "--at 0 names no entry; entries are numbered from 1 (the session's start)",
        ));
    }
    let forked = fork(store, &path, id, args.at.map(EntryId)).map_err(|e| match e {
        e @ OpenError::Fork { .. } => CliError::usage(format!(
            "{e}; fork at one of them (`smith sessions get {id}` lists the entries), or leave --at out to fork at the selected leaf"
        )),
        OpenError::Store(e) => {
            let status = command_error::store_status(&e);
            let hint = if status == exit::DAMAGED {
                "; pass --at with an entry before the damage (`smith sessions verify` names it)"
            } else {
                ""
            };
            CliError::new(
                status,
                format!(
                    "cannot fork session {id}: {}{hint}",
                    command_error::store_message(&e)
                ),
            )
        }
        other => CliError::new(exit::RUN_FAILED, other.to_string()),
    })?;
    if args.json {
        out.json(&Record::Fork(ForkView {
            source: id,
            session: forked.id,
            leaf: forked.leaf,
            entries: forked.entries,
        }))?;
    } else {
        out.line(&forked.id.to_string())?;
    }
    Ok(exit::SUCCESS)
}
