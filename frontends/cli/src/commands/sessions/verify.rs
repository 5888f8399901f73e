//! `smith sessions verify ID`: the full check of one session — every frame, record and index
//! — reporting all damage (exit 3) without changing anything.

use clap::Args;
use smith_app::SessionStore;

use super::{find, report_skipped};
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions verify`.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
}

pub(super) fn run(store: &SessionStore, args: &VerifyArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let v = smith_app::inspect::verify(&path).map_err(|e| command_error::store(&e))?;
    let tail = match &v.torn_tail {
        Some(t) if v.live_writer => format!(
            "; {} bytes after the last complete change at byte {} are a writer's change in progress",
            t.len, t.offset
        ),
        Some(t) => format!(
            "; {} unacknowledged bytes after the last complete change at byte {} ({}) — not published; the next writer cuts them",
            t.len, t.offset, t.reason
        ),
        None => String::new(),
    };
    let ack = if v.unacknowledged > 0 {
        format!(
            "; the last {} change(s) with entries are complete but not recorded as acknowledged (the next writer syncs and records them)",
            v.unacknowledged
        )
    } else {
        String::new()
    };
    let mut status = exit::SUCCESS;
    if report_skipped(&id, &v.skipped, false) {
        status = exit::DAMAGED;
    }
    for problem in &v.index_problems {
        exit::report(&format!("damaged index in session {id}: {problem}"));
        status = exit::DAMAGED;
    }
    let verdict = if status == exit::SUCCESS {
        "intact"
    } else {
        "damaged"
    };
    out.line(&format!(
        "session {id}: {verdict} — {} entries in {} committed changes, leaf {}{ack}{tail}",
        v.entries, v.state.sequence, v.state.leaf
    ))?;
    Ok(status)
}
