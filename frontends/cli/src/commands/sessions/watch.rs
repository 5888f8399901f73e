//! `smith sessions watch ID`: observe a session from a committed position with no gap (spec:
//! Sessions → Observation), polling `smith_app::inspect::Follow`. Ending the observation —
//! Ctrl-C, a closed pipe, `--until-idle` — changes nothing in the session or the work writing
//! it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{Follow, FollowError};

use super::find;
use super::render::emit;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// How often the file is looked at for new commits.
const POLL: Duration = Duration::from_millis(50);

/// Arguments of `smith sessions watch`.
#[derive(Debug, Args)]
pub(crate) struct WatchArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// The first entry to print (default 1: the whole history); the next entry id to be
    /// committed prints only what is new.
    #[arg(long, value_name = "ENTRY")]
    pub(crate) from: Option<u64>,
    /// One JSON record per entry, as `get --json` prints them.
    #[arg(long)]
    pub(crate) json: bool,
    /// Stop once every committed entry is printed and no process is writing the session.
    #[arg(long)]
    pub(crate) until_idle: bool,
}

/// Watch the session from `--from` (default 1).
pub(super) fn run(store: &SessionStore, args: &WatchArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ends the observation only; a second signal is not needed.
        crate::interrupt::install();
        crate::interrupt::on_interrupt(move || stop.store(true, Ordering::SeqCst));
    }
    let mut follow = Follow::start(&path, id, args.from).map_err(|e| match e {
        FollowError::Position {
            from,
            session,
            next,
        } => CliError::usage(format!(
            "--from {from} is not a position of session {session}: positions are entry ids 1..={next} (the next entry to be committed is {next}); watch from one of them"
        )),
        FollowError::Store(e) => command_error::store(&e),
    })?;
    loop {
        let polled = follow.poll(&mut |entry| {
            let written = emit(out, &id, entry, args.json);
            out.flow(written)
        });
        out.finish();
        out.take_failure()?;
        let polled = polled.map_err(|e| command_error::store(&e))?;
        if out.closed() {
            return Ok(exit::SUCCESS); // the reader went away
        }
        if let Some((from, to)) = polled.withheld {
            // Every remaining entry is withheld as damaged.
            exit::report(&format!(
                "damaged session {id}: entries {from}..={to} lie in a damaged change and are not shown; `smith sessions verify {id}` has the details"
            ));
            return Ok(exit::DAMAGED);
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(exit::SUCCESS);
        }
        if args.until_idle && polled.idle {
            if let Some(t) = polled.torn_tail {
                exit::report(&format!(
                    "note: session {id}: {} bytes at byte {} after the last complete change were never acknowledged (a torn tail, not shown)",
                    t.len, t.offset
                ));
            }
            return Ok(exit::SUCCESS);
        }
        std::thread::sleep(POLL);
    }
}
