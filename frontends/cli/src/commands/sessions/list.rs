//! `smith sessions list`: session identities and summary metadata, oldest first — each read
//! through its index (its start, its first prompt for the title, its last selection) — with
//! `--here` keeping those started in this directory.

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{Record, format_utc, summarize};

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

    /// Only the sessions started in this directory (what `smith eval --continue` picks from
    /// first; with none here it continues the nearest directory above it in its project).
    #[arg(long)]
    pub(crate) here: bool,
}

pub(super) fn run(store: &SessionStore, args: &ListArgs, out: &mut Out) -> Result<u8, CliError> {
    let here = if args.here {
        let cwd = std::env::current_dir().map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!("--here: cannot tell the working directory: {e}; run smith from an existing directory"),
            )
        })?;
        Some(cwd.to_string_lossy().into_owned())
    } else {
        None
    };
    let mut status = exit::SUCCESS;
    let mut shown = 0usize;
    for (id, path) in sessions(store)? {
        let summary = match summarize(id, &path) {
            Ok(summary) => summary,
            Err(e) => {
                status = worst(status, unreadable(&e));
                continue;
            }
        };
        if here.is_some() && summary.cwd != here {
            continue;
        }
        let more = if args.json {
            out.json(&Record::Session(summary))?
        } else {
            out.line(&format!(
                "{id}  {}  {:>9} B  {}  {}  {}{}",
                summary
                    .created_ms
                    .map_or_else(|| "-".to_owned(), |ms| format!("{} UTC", format_utc(ms))),
                summary.bytes,
                summary.last_model.as_deref().unwrap_or("-"),
                summary.cwd.as_deref().unwrap_or("-"),
                summary
                    .title
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), |t| format!("\"{t}\"")),
                summary
                    .imported
                    .as_deref()
                    .map_or_else(String::new, |i| format!("  (imported from {i})"))
            ))?
        };
        shown += 1;
        if !more {
            break;
        }
    }
    if shown == 0 && status == exit::SUCCESS && !args.json {
        // Said on stderr, so that stdout stays empty for a script counting lines.
        exit::report(&format!(
            "no sessions{} in {}; `smith eval` starts one",
            if here.is_some() {
                " started in this directory"
            } else {
                ""
            },
            store.dir().display()
        ));
    }
    Ok(status)
}
