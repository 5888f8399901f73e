//! Abort as a recorded operation (spec: Sessions → Submission and receipts): when a run's
//! cancellation is requested, an `abort` record paired with its submission is made durable
//! at once — while a tool or the provider may still be running — and the work then winds down
//! at its next effect edge, ending with its `run_end` (the terminal receipt). The request's
//! acknowledgement does not claim the work settled or that a started effect did not happen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use smith::{Cancel, EntryId};
use smith_store::{Abort, NewEntry, Record};

use crate::work::WorkState;
use smith_store::SharedWriter;

/// How often the watcher looks at the cancellation flag.
const POLL: Duration = Duration::from_millis(10);

/// What the abort record says.
pub(crate) const REASON: &str =
    "the caller cancelled the run (an interrupt signal, or its output was closed)";

/// Watches one run's cancellation and records the abort request when it comes.
pub(crate) struct AbortWatch {
    done: Arc<AtomicBool>,
    recorded: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    writer: SharedWriter,
    work: Arc<Mutex<WorkState>>,
    cancel: Cancel,
    submission: EntryId,
}

/// Record the abort request for `submission` once: an explicit abort (through an
/// [`crate::Inbox`]) may have recorded it already, with its own reason.
fn record(writer: &SharedWriter, work: &Mutex<WorkState>, submission: EntryId) -> bool {
    let mut state = crate::inbox::lock(work);
    if state.abort_recorded.is_some() {
        return true;
    }
    let recorded = writer
        .lock()
        .append_entries(&[NewEntry {
            record: Record::Abort(Abort {
                reason: REASON.to_owned(),
            }),
            pair: Some(submission),
        }])
        .is_ok();
    if recorded {
        state.abort_recorded = Some(REASON.to_owned());
    }
    recorded
}

impl AbortWatch {
    /// Start watching `cancel` for the work of `submission`.
    pub(crate) fn start(
        writer: SharedWriter,
        work: Arc<Mutex<WorkState>>,
        cancel: Cancel,
        submission: EntryId,
    ) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let recorded = Arc::new(AtomicBool::new(false));
        let thread = {
            let (done, recorded, writer, work, cancel) = (
                Arc::clone(&done),
                Arc::clone(&recorded),
                writer.clone(),
                Arc::clone(&work),
                cancel.clone(),
            );
            std::thread::Builder::new()
                .name("smith-abort-watch".into())
                .spawn(move || {
                    while !done.load(Ordering::SeqCst) {
                        if cancel.is_cancelled() {
                            recorded.store(record(&writer, &work, submission), Ordering::SeqCst);
                            return;
                        }
                        // Parked, so `stop` can wake it at once.
                        std::thread::park_timeout(POLL);
                    }
                })
                .ok()
        };
        Self {
            done,
            recorded,
            thread,
            writer,
            work,
            cancel,
            submission,
        }
    }

    /// The submission whose work is watched.
    pub(crate) fn submission(&self) -> EntryId {
        self.submission
    }

    /// Stop watching (the work is winding down). A cancellation the watcher had not recorded
    /// yet is recorded now, so every cancelled run has its abort record before its end.
    pub(crate) fn stop(mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
        if self.cancel.is_cancelled() && !self.recorded.load(Ordering::SeqCst) {
            record(&self.writer, &self.work, self.submission);
        }
    }
}
