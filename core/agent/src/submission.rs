//! Submissions and their receipts (spec: Sessions → Submission and receipts).
//!
//! Input enters a session by *admission*: one committed change holding a `submission` record
//! (key, content hash, destination, model, input) and the user message it delivers. The
//! submission's entry id is its stable identity; once [`crate::Agent::submit`] has made it
//! durable, the work runs, and the `run_end` entry that ends the work pairs with the
//! submission — its terminal receipt. A receipt is rebuilt from the session file alone, also
//! after a restart ([`receipts`]).
//!
//! Deduplication keys are scoped to the session's stable identity: a key seen before with the
//! same content (model and input) returns the original submission's receipt and runs nothing;
//! with other content, or an explicitly different destination, admission fails and writes
//! nothing ([`AdmissionError::Conflict`]). Deduplicated admission does not promise
//! exactly-once external effects: the original work may have run its effects, or been
//! interrupted with them unknown.

use std::path::Path;

use sha2::{Digest, Sha256};
use smith::{EntryId, Selection, SessionId, StopReason, UsageTotals};
use smith_store::{MessageRecord, Record, SessionReader};

/// The longest deduplication key, in bytes.
pub const MAX_DEDUP_KEY_BYTES: usize = 256;

/// Where a submission's work stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReceiptState {
    /// Admitted; its work has not recorded an end (running, or interrupted before it could).
    Admitted,
    /// Queued input waiting for delivery.
    Queued,
    /// Queued input delivered into live work (the user message entry, and the work), which
    /// has not ended yet; when it ends, this receipt becomes terminal with it.
    Delivered {
        /// The user message that delivered it.
        message: EntryId,
        /// The work it was delivered into, when known.
        into: Option<EntryId>,
    },
    /// Queued input withdrawn before delivery (terminal: it never runs).
    Withdrawn {
        /// The `withdrawal` entry.
        at: EntryId,
    },
    /// The work ended: the `run_end` entry paired with the submission.
    Terminal {
        /// How it ended.
        stop_reason: StopReason,
        /// Its failure, when it failed.
        error: Option<String>,
        /// Usage summed over the work.
        usage: UsageTotals,
        /// The `run_end` entry.
        end: EntryId,
    },
}

/// A submission's durable receipt.
#[derive(Clone, Debug, PartialEq)]
pub struct Receipt {
    /// The session it was admitted into (a fork's inherited submissions name their source).
    pub session: SessionId,
    /// The submission's entry id: its stable identity within the session.
    pub submission: EntryId,
    /// The caller's deduplication key, if any.
    pub dedup_key: Option<String>,
    /// The model the work runs with.
    pub model: Selection,
    /// Pending or terminal.
    pub state: ReceiptState,
    /// The work's last assistant message as recorded (with its stop reason and usage) and its
    /// entry id, once it has one.
    pub answer: Option<(EntryId, MessageRecord)>,
    /// The work that owns this one (child work), if any.
    pub owner: Option<EntryId>,
    /// The queue placement of queued input.
    pub delivery: Option<smith_store::Delivery>,
    /// The work's last checkpoint and its entry, if it recorded one.
    pub checkpoint: Option<(EntryId, smith_store::Checkpoint)>,
}

impl Receipt {
    /// Whether the receipt is final: the work ended, or the queued input was withdrawn.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self.state,
            ReceiptState::Terminal { .. } | ReceiptState::Withdrawn { .. }
        )
    }
}

/// Why input was not admitted. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum AdmissionError {
    /// The key was used before for other content or another destination.
    #[error(
        "deduplication key `{key}` was already used in session {session} for submission {original} with {why}; nothing was run — use a new key for new input, or repeat the original input to get its receipt"
    )]
    Conflict {
        /// The session.
        session: SessionId,
        /// The key.
        key: String,
        /// The original submission.
        original: EntryId,
        /// What differs.
        why: String,
    },
    /// Another admission with the same key was written first (a concurrent retry).
    #[error(
        "deduplication key `{key}` was admitted concurrently as submission {original}; nothing was run — inspect that submission's receipt"
    )]
    Raced {
        /// The key.
        key: String,
        /// The submission admitted first.
        original: EntryId,
    },
    /// The key is empty, too long or holds control characters.
    #[error(
        "deduplication key `{key}` is not usable: {why}; use 1 to {MAX_DEDUP_KEY_BYTES} bytes of printable text"
    )]
    BadKey {
        /// The key (cut for display).
        key: String,
        /// What is wrong.
        why: String,
    },
    /// A limit on live work or active queue state would be exceeded.
    #[error(
        "admission refused: {what} would reach {current}, over the limit of {limit}; nothing was written — wait for work to settle or withdraw queued input, then submit again"
    )]
    Limit {
        /// What is limited (`live work`, `ownership depth`, `queued inputs`, `queued input
        /// bytes`).
        what: &'static str,
        /// The limit.
        limit: u64,
        /// The total the admission would have reached.
        current: u64,
    },
    /// Child work named an owner that is not live work in this session.
    #[error(
        "submission {owner} is not live work in this session (it ended, was never admitted, or is queued input), so it cannot own new work; nothing was written"
    )]
    UnknownOwner {
        /// The named owner.
        owner: EntryId,
    },
    /// The explicit destination cannot take new input.
    #[error("entry {entry} cannot be the destination of new input: {why}; nothing was written")]
    Destination {
        /// The destination asked for.
        entry: EntryId,
        /// Why it was refused.
        why: String,
    },
    /// Input was queued while no queue policy plugin is active.
    #[error(
        "input cannot be queued: no queue policy plugin is active (the bundled `queue` plugin may be disabled); enable it, or submit the input when the work has stopped"
    )]
    NoQueuePolicy,
    /// No candidate of the selection can take the conversation with this input (each
    /// candidate's catalog record says why).
    #[error("`{selection}` cannot take this input, so nothing was written: {}", reasons.join("; "))]
    Unserviceable {
        /// The selection.
        selection: String,
        /// Each candidate's reason.
        reasons: Vec<String>,
    },
    /// The session was closed: admission is sealed.
    #[error("the session was closed, so it admits no more input; open it again to submit")]
    Closed,
    /// The session is open read-only (another process writes it).
    #[error(
        "session {0} is open read-only because another Smith process writes it; nothing was submitted or aborted — run the request in that process, or fork the session (smith sessions fork ID) to get a writable copy"
    )]
    ReadOnly(SessionId),
    /// The session could not be read or written.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// SHA-256 (hex) of a submission's content: the model reference, a NUL byte, the input.
pub fn content_sha256(model: &Selection, input: &str) -> String {
    let mut h = Sha256::new();
    h.update(model.to_string().as_bytes());
    h.update([0u8]);
    h.update(input.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Check a deduplication key's shape.
///
/// # Errors
/// [`AdmissionError::BadKey`].
pub fn check_key(key: &str) -> Result<(), AdmissionError> {
    let why = if key.is_empty() {
        Some("it is empty")
    } else if key.len() > MAX_DEDUP_KEY_BYTES {
        Some("it is too long")
    } else if key.chars().any(char::is_control) {
        Some("it holds a control character")
    } else {
        None
    };
    match why {
        Some(why) => Err(AdmissionError::BadKey {
            key: key.chars().take(40).flat_map(char::escape_debug).collect(),
            why: why.to_owned(),
        }),
        None => Ok(()),
    }
}

/// Every submission in the session file at `path` (of session `session`), in admission order, with its receipt
/// rebuilt from the file alone (all branches). Reads every entry (a bounded batch at a time).
///
/// # Errors
/// The store's read errors.
pub fn receipts(path: &Path, session: SessionId) -> Result<Vec<Receipt>, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let mut out: Vec<Receipt> = Vec::new();
    // The submission whose work each entry belongs to: a submission owns itself, any other
    // entry belongs to its parent's owner (parents precede children in id order).
    let mut owner: std::collections::HashMap<EntryId, usize> = std::collections::HashMap::new();
    // Queued input delivered into each work (by receipt index).
    let mut hosted: std::collections::HashMap<usize, Vec<usize>> = std::collections::HashMap::new();
    // Receipt index by submission id: pairs resolve in constant time.
    let mut index: std::collections::HashMap<EntryId, usize> = std::collections::HashMap::new();
    let mut next = EntryId(1);
    loop {
        let batch = reader.range(next, 512)?;
        let Some(last) = batch.last() else { break };
        next = EntryId(last.id.0 + 1);
        for entry in batch {
            let inherited = entry.parent.and_then(|p| owner.get(&p).copied());
            match &entry.record {
                Record::Submission(s) => {
                    // Queued input and child work do not start work here (child work starts
                    // at its delivery): entries after them still belong to the work they
                    // followed.
                    if s.delivery.is_none() && s.owner.is_none() {
                        owner.insert(entry.id, out.len());
                    } else if let Some(i) = inherited {
                        owner.insert(entry.id, i);
                    }
                    index.insert(entry.id, out.len());
                    out.push(Receipt {
                        session: s.session.unwrap_or(session),
                        submission: entry.id,
                        dedup_key: s.dedup_key.clone(),
                        model: s.model.clone(),
                        state: if s.delivery.is_some() {
                            ReceiptState::Queued
                        } else {
                            ReceiptState::Admitted
                        },
                        answer: None,
                        owner: s.owner,
                        delivery: s.delivery,
                        checkpoint: None,
                    });
                    continue;
                }
                Record::RunEnd(end) => {
                    if let Some(i) = entry.pair.and_then(|p| index.get(&p).copied()) {
                        let state = ReceiptState::Terminal {
                            stop_reason: end.stop_reason,
                            error: end.error.clone(),
                            usage: end.usage,
                            end: entry.id,
                        };
                        for d in hosted.remove(&i).unwrap_or_default() {
                            out[d].state = state.clone();
                        }
                        out[i].state = state;
                    }
                    // Entries after a work's end belong to no work until the next submission.
                    continue;
                }
                Record::Withdrawal(_) => {
                    if let Some(r) = entry.pair.and_then(|p| index.get(&p)).map(|i| &mut out[*i]) {
                        r.state = ReceiptState::Withdrawn { at: entry.id };
                    }
                }
                Record::Checkpoint(c) => {
                    if let Some(r) = entry.pair.and_then(|p| index.get(&p)).map(|i| &mut out[*i]) {
                        r.checkpoint = Some((entry.id, c.clone()));
                    }
                }
                Record::Message(m)
                    if m.message.role == smith::Role::User && entry.pair.is_some() =>
                {
                    // A delivery: queued input (or child work's input) entering its work.
                    let target = entry.pair.and_then(|p| index.get(&p).copied());
                    if let Some(t) = target
                        && out[t].delivery.is_some()
                    {
                        out[t].state = ReceiptState::Delivered {
                            message: entry.id,
                            into: inherited.map(|i| out[i].submission),
                        };
                        if let Some(i) = inherited {
                            hosted.entry(i).or_default().push(t);
                        }
                    } else if let Some(t) = target {
                        // Child work starts: what follows belongs to it.
                        owner.insert(entry.id, t);
                        continue;
                    }
                }
                Record::Message(m) if m.message.role == smith::Role::Assistant => {
                    if let Some(r) = inherited.and_then(|i| out.get_mut(i))
                        && r.state == ReceiptState::Admitted
                    {
                        r.answer = Some((entry.id, m.clone()));
                    }
                }
                _ => {}
            }
            if let Some(i) = inherited {
                owner.insert(entry.id, i);
            }
        }
    }
    Ok(out)
}

/// The decision for a submission with `key`: `None` to admit it, `Some(receipt)` when it
/// repeats an earlier one.
///
/// # Errors
/// [`AdmissionError::Conflict`] when the key was used for other content or destination.
pub(crate) fn deduplicate(
    path: &Path,
    session: SessionId,
    key: &str,
    content: &str,
    destination: Option<EntryId>,
) -> Result<Option<Receipt>, AdmissionError> {
    check_key(key)?;
    let mut reader = SessionReader::open(path)?;
    let mut next = EntryId(1);
    let mut original = None;
    'scan: loop {
        let batch = reader.range(next, 512)?;
        let Some(last) = batch.last() else { break };
        next = EntryId(last.id.0 + 1);
        for entry in batch {
            // Keys are scoped to this session's identity: a fork's inherited submissions
            // (admitted into its source) do not answer for it.
            if let Record::Submission(s) = &entry.record
                && s.session.unwrap_or(session) == session
                && s.dedup_key.as_deref() == Some(key)
            {
                original = Some((entry.id, s.clone()));
                break 'scan;
            }
        }
    }
    let Some((id, first)) = original else {
        return Ok(None);
    };
    let why = if first.content_sha256 != content {
        Some("different content (model or input)".to_owned())
    } else if let Some(wanted) = destination
        && first.destination != Some(wanted)
    {
        Some(format!(
            "a different destination (entry {} then, entry {wanted} now)",
            first
                .destination
                .map_or_else(|| "none".to_owned(), |d| d.to_string())
        ))
    } else {
        None
    };
    if let Some(why) = why {
        return Err(AdmissionError::Conflict {
            session,
            key: key.to_owned(),
            original: id,
            why,
        });
    }
    let all = receipts(path, session)?;
    Ok(all.into_iter().find(|r| r.submission == id))
}
