//! Read-only access: inspecting receipts, observing committed changes from a position without
//! a gap, and waiting for settlement — none of which schedules or changes work (spec:
//! Sessions → Observation, Access ownership, Submission and receipts).

use std::path::{Path, PathBuf};
use std::time::Duration;

use smith::{Cancel, EntryId, SessionId};
use smith_store::{Entry, SessionReader};

use crate::{AdmissionError, OpenedSession, Receipt, Session};

/// A position in a session's committed order: the session and the next entry id to read.
/// Positions are durable (they name committed entries, not process-local offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The session the position belongs to.
    pub session: SessionId,
    /// The next entry to read (entry ids are dense and in commit order, from 1).
    pub next: EntryId,
}

/// Why an observation failed or ended.
#[derive(Debug, thiserror::Error)]
pub enum ObserveError {
    /// The position belongs to another session.
    #[error(
        "position of session {given} cannot continue an observation of session {session}; start from a position of this session (entry 1 for the whole history)"
    )]
    OtherSession {
        /// The observed session.
        session: SessionId,
        /// The position's session.
        given: SessionId,
    },
    /// The submission is not in the session.
    #[error("submission {0} is not in this session; list its receipts to see the submissions")]
    UnknownSubmission(EntryId),
    /// The caller cancelled the wait; the work is unchanged.
    #[error("the wait was cancelled; the work goes on unchanged")]
    Cancelled,
    /// The session file could not be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// Read-only access to a session, e.g. one another process writes. It never writes and never
/// takes writer ownership; requests that would mutate fail before any effect.
#[derive(Clone, Debug)]
pub struct Observer {
    path: PathBuf,
    id: SessionId,
}

/// What opening a session gave: writer access, or read-only observer access when another
/// writer owns it (never a wait for the writer lock).
#[derive(Debug)]
pub enum Access {
    /// This process writes the session.
    Writer(Box<OpenedSession>),
    /// Another process writes it; this one observes.
    Observer(Observer),
}

impl Session {
    /// Open the session at `path` as its writer, or — when another process holds the writer
    /// lock — as a read-only [`Observer`] (spec: Access ownership).
    ///
    /// # Errors
    /// As [`Session::open`], except [`smith_store::Error::Locked`].
    pub fn open_or_observe(path: &Path, id: SessionId) -> Result<Access, smith_store::Error> {
        match Session::open(path, id) {
            Ok(opened) => Ok(Access::Writer(Box::new(opened))),
            Err(smith_store::Error::Locked { .. }) => {
                Ok(Access::Observer(Observer::open(path, id)?))
            }
            Err(e) => Err(e),
        }
    }
}

impl Observer {
    /// Observe the session file at `path` (session `id`). Reads only.
    ///
    /// # Errors
    /// The store's read errors (missing, damaged or unknown-version file).
    pub fn open(path: &Path, id: SessionId) -> Result<Self, smith_store::Error> {
        SessionReader::open(path)?;
        Ok(Self {
            path: path.to_owned(),
            id,
        })
    }

    /// The observed session's id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// Every receipt, in admission order, from the committed file.
    ///
    /// # Errors
    /// The store's read errors.
    pub fn receipts(&self) -> Result<Vec<Receipt>, smith_store::Error> {
        crate::receipts(&self.path, self.id)
    }

    /// The receipt of `submission`.
    ///
    /// # Errors
    /// [`ObserveError::UnknownSubmission`]; read errors.
    pub fn receipt(&self, submission: EntryId) -> Result<Receipt, ObserveError> {
        self.receipts()?
            .into_iter()
            .find(|r| r.submission == submission)
            .ok_or(ObserveError::UnknownSubmission(submission))
    }

    /// Up to `limit` committed entries from `from`, and the position after them: repeated
    /// calls read the whole committed history in order with no gap, also while a writer
    /// appends.
    ///
    /// # Errors
    /// [`ObserveError::OtherSession`] for another session's position; read errors.
    pub fn changes(
        &self,
        from: Position,
        limit: usize,
    ) -> Result<(Vec<Entry>, Position), ObserveError> {
        if from.session != self.id {
            return Err(ObserveError::OtherSession {
                session: self.id,
                given: from.session,
            });
        }
        let entries = SessionReader::open(&self.path)?.range(from.next, limit.max(1))?;
        let next = entries.last().map_or(from.next, |e| EntryId(e.id.0 + 1));
        Ok((
            entries,
            Position {
                session: self.id,
                next,
            },
        ))
    }

    /// Wait until `submission` has settled — its receipt is terminal and so is every work it
    /// owns, transitively — polling the file every `poll`. Cancelling `cancel` ends only this
    /// wait ([`ObserveError::Cancelled`]); the work is unchanged.
    ///
    /// # Errors
    /// [`ObserveError::Cancelled`], [`ObserveError::UnknownSubmission`], read errors.
    pub fn wait_settled(
        &self,
        submission: EntryId,
        cancel: &Cancel,
        poll: Duration,
    ) -> Result<Receipt, ObserveError> {
        loop {
            let all = self.receipts()?;
            let Some(receipt) = all.iter().find(|r| r.submission == submission) else {
                return Err(ObserveError::UnknownSubmission(submission));
            };
            if receipt.is_terminal() && owned_settled(&all, submission) {
                return Ok(receipt.clone());
            }
            if cancel.is_cancelled() {
                return Err(ObserveError::Cancelled);
            }
            std::thread::sleep(poll);
        }
    }

    /// Submitting needs writer access: always refused, before anything is read or written.
    ///
    /// # Errors
    /// Always [`AdmissionError::ReadOnly`].
    pub fn submit(&self, _input: &str) -> Result<EntryId, AdmissionError> {
        Err(AdmissionError::ReadOnly(self.id))
    }

    /// Aborting work needs writer access: always refused, before anything is written.
    ///
    /// # Errors
    /// Always [`AdmissionError::ReadOnly`].
    pub fn abort(&self, _submission: EntryId) -> Result<(), AdmissionError> {
        Err(AdmissionError::ReadOnly(self.id))
    }
}

/// Whether every work owned by `owner`, transitively, has a terminal receipt. Iterative with
/// a visited set: a damaged file with an ownership cycle cannot recurse without end.
pub(crate) fn owned_settled(all: &[Receipt], owner: EntryId) -> bool {
    let mut seen = std::collections::HashSet::from([owner]);
    let mut todo = vec![owner];
    while let Some(o) = todo.pop() {
        for r in all.iter().filter(|r| r.owner == Some(o)) {
            if !r.is_terminal() {
                return false;
            }
            if seen.insert(r.submission) {
                todo.push(r.submission);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ReceiptState;

    fn receipt(id: u64, owner: Option<u64>, terminal: bool) -> Receipt {
        Receipt {
            session: SessionId::new_now(),
            submission: EntryId(id),
            dedup_key: None,
            model: "scripted/t".parse().unwrap(),
            state: if terminal {
                ReceiptState::Withdrawn { at: EntryId(99) }
            } else {
                ReceiptState::Admitted
            },
            answer: None,
            owner: owner.map(EntryId),
            delivery: None,
            checkpoint: None,
        }
    }

    #[test]
    fn an_ownership_cycle_in_a_damaged_file_terminates() {
        let all = vec![receipt(5, Some(6), true), receipt(6, Some(5), true)];
        assert!(owned_settled(&all, EntryId(5)));
        let all = vec![receipt(5, Some(5), true), receipt(7, Some(5), false)];
        assert!(!owned_settled(&all, EntryId(5)));
    }
}
