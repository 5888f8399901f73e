//! `smith sessions list`: session identities and summary metadata, oldest first, each read
//! from its first committed change only.

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{Record, summarize};

use super::render::format_utc;
use super::{sessions, unreadable, worst};
use crate::command_error::CliError;
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions list`.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// One JSON record per session.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(super) fn run(store: &SessionStore, args: &ListArgs, out: &mut Out) -> Result<u8, CliError> {
    let mut status = exit::SUCCESS;
    for (id, path) in sessions(store)? {
        let summary = match summarize(id, &path) {
            Ok(summary) => summary,
            Err(e) => {
                status = worst(status, unreadable(&e));
                continue;
            }
        };
        let more = if args.json {
            out.json(&Record::Session(summary))?
        } else {
            out.line(&format!(
                "{id}  {}  {:>9} B  {}",
                summary
                    .created_ms
                    .map_or_else(|| "-".to_owned(), |ms| format!("{} UTC", format_utc(ms))),
                summary.bytes,
                summary.cwd.as_deref().unwrap_or("-")
            ))?
        };
        if !more {
            break;
        }
    }
    Ok(status)
}
