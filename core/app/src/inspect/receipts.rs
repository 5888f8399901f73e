//! Submissions and their receipts read from the file alone (spec: Sessions → Submission and
//! receipts): every receipt, the queue as committed, the cost of a set of entries, and a wait
//! for a submission to settle — what an observer, a protocol client or the UI's idle-time
//! summary reads, with no writer and nothing written.

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use smith::{Cancel, EntryId, SessionId};

use super::ReceiptView;

/// Every submission of session `id` at `path`, in admission order, with its receipt.
///
/// # Errors
/// The store's read errors.
pub fn receipts(path: &Path, id: SessionId) -> Result<Vec<ReceiptView>, smith_store::Error> {
    Ok(smith_agent::receipts(path, id)?
        .iter()
        .map(|r| ReceiptView::new(id, r))
        .collect())
}

/// Input waiting in a session's queue, as the committed file shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueuedView {
    /// Its submission.
    pub submission: EntryId,
    /// `steer` or `follow_up`.
    pub delivery: Option<&'static str>,
    /// The input text.
    pub input: String,
}

/// The queue of session `id` at `path` as committed: each input admitted as queued and
/// neither delivered nor withdrawn yet, in admission order.
///
/// # Errors
/// The store's read errors.
pub fn queued(path: &Path, id: SessionId) -> Result<Vec<QueuedView>, smith_store::Error> {
    let waiting: Vec<ReceiptView> = receipts(path, id)?
        .into_iter()
        .filter(|r| r.state == "queued")
        .collect();
    if waiting.is_empty() {
        return Ok(Vec::new());
    }
    let entries = smith_store::read_session(path)?.entries;
    Ok(waiting
        .into_iter()
        .map(|r| {
            let input = entries.iter().find_map(|e| match &e.record {
                smith_store::Record::Submission(s) if e.id == r.submission => Some(s.input.clone()),
                _ => None,
            });
            QueuedView {
                submission: r.submission,
                delivery: r.delivery,
                input: input.unwrap_or_default(),
            }
        })
        .collect())
}

/// The cost in US dollars of the responses among `entries`, at each attempt's recorded
/// prices; `None` when one response's cost is unknown (or there is none).
pub fn cost_usd<'e>(entries: impl IntoIterator<Item = &'e smith_store::Entry>) -> Option<f64> {
    smith_agent::account(entries).cost_usd
}

/// Why [`wait_settled`] ended without a settled receipt.
#[derive(Debug, thiserror::Error)]
pub enum WaitError {
    /// The submission is not in the session.
    #[error("submission {0} is not in this session; list its receipts to see the submissions")]
    Unknown(EntryId),
    /// The caller cancelled the wait; the work is unchanged.
    #[error("the wait was cancelled; the work goes on unchanged")]
    Cancelled,
    /// The session file could not be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
    /// The observation failed otherwise.
    #[error("{0}")]
    Observe(String),
}

/// Wait until `submission` of session `id` at `path` has settled — its receipt is terminal
/// and so is every work it owns — reading the file every `poll` (a reader: any process may
/// write it). Cancelling `cancel` ends only this wait.
///
/// # Errors
/// [`WaitError`].
pub fn wait_settled(
    path: &Path,
    id: SessionId,
    submission: EntryId,
    cancel: &Cancel,
    poll: Duration,
) -> Result<ReceiptView, WaitError> {
    let observer = smith_agent::Observer::open(path, id)?;
    observer
        .wait_settled(submission, cancel, poll)
        .map(|r| ReceiptView::new(id, &r))
        .map_err(|e| match e {
            smith_agent::ObserveError::UnknownSubmission(s) => WaitError::Unknown(s),
            smith_agent::ObserveError::Cancelled => WaitError::Cancelled,
            smith_agent::ObserveError::Store(e) => WaitError::Store(e),
            other => WaitError::Observe(other.to_string()),
        })
}
