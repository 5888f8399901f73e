//! `smith sessions watch`: observe a session from a committed position with no gap (spec:
//! Sessions → Observation). Each poll opens a fresh snapshot of the file, which holds only
//! complete committed changes, and prints the entries after the last one printed, in id
//! (commit) order. Ending the observation — Ctrl-C, a closed pipe, `--until-idle` — changes
//! nothing in the session or the work writing it.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use smith::EntryId;
use smith_store::SessionReader;

use super::{Out, emit, find};
use crate::exit::{self, CliError};

/// How often the file is looked at for new commits.
const POLL: Duration = Duration::from_millis(50);
/// Entries read per batch.
const BATCH: usize = 256;

/// Watch the session `wanted` from entry `from` (default 1).
pub(super) fn watch(
    dir: &Path,
    wanted: &str,
    from: Option<u64>,
    json: bool,
    until_idle: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let (path, id) = find(dir, wanted)?;
    let store = |e: smith_store::Error| CliError::new(exit::store_status(&e), e.to_string());
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ends the observation only; a second signal is not needed.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    let first = SessionReader::open(&path).map_err(store)?.state().last_id;
    let mut next = match from {
        None => 1,
        Some(n) if n >= 1 && n <= first + 1 => n,
        Some(n) => {
            return Err(CliError::usage(format!(
                "--from {n} is not a position of session {id}: positions are entry ids 1..={} (the next entry to be committed is {}); watch from one of them",
                first + 1,
                first + 1
            )));
        }
    };
    loop {
        // A fresh snapshot: only complete committed changes, never a partial one.
        let mut reader = SessionReader::open(&path).map_err(store)?;
        let last = reader.state().last_id;
        while next <= last {
            let batch = reader.range(EntryId(next), BATCH).map_err(store)?;
            let Some(end) = batch.last().map(|e| e.id.0) else {
                // Every remaining entry is withheld as damaged.
                exit::report(&format!(
                    "damaged session {id}: entries {next}..={last} lie in a damaged change and are not shown; `smith sessions verify {id}` has the details"
                ));
                return Ok(exit::DAMAGED);
            };
            for entry in &batch {
                if !emit(out, &id, entry, json)? {
                    return Ok(exit::SUCCESS); // the reader went away
                }
            }
            out.finish();
            next = end + 1;
        }
        if stop.load(Ordering::SeqCst) {
            return Ok(exit::SUCCESS);
        }
        if until_idle && !reader.live_writer() {
            // Nothing is writing: everything committed has been printed.
            let again = SessionReader::open(&path).map_err(store)?;
            if again.state().last_id < next {
                if let Some(t) = again.torn_tail() {
                    exit::report(&format!(
                        "note: session {id}: {} bytes at byte {} after the last complete change were never acknowledged (a torn tail, not shown)",
                        t.len, t.offset
                    ));
                }
                return Ok(exit::SUCCESS);
            }
            continue;
        }
        std::thread::sleep(POLL);
    }
}
