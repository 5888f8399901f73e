//! `watch`: following a session from a committed position with no gap (spec: Sessions →
//! Observation). Each poll opens a fresh snapshot of the file, which holds only complete
//! committed changes, and gives the entries after the last one given, in id (commit) order.
//! Following never writes, locks or schedules anything; the caller decides how often to poll
//! and when to stop.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use smith::{EntryId, SessionId};
use smith_store::{Entry, SessionReader, TornTail};

/// Entries read per batch.
const BATCH: usize = 256;

/// A position the session does not have.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    /// Positions are entry ids 1 to the next entry to be committed.
    #[error(
        "{from} is not a position of session {session}: positions are entry ids 1..={next} (the next entry to be committed is {next})"
    )]
    Position {
        /// The position given.
        from: u64,
        /// The session.
        session: SessionId,
        /// The next entry to be committed.
        next: u64,
    },
    /// The session cannot be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// What one poll found.
#[derive(Debug, Default)]
pub struct Polled {
    /// The consumer asked to stop.
    pub stopped: bool,
    /// Entries `from..=to` lie in a damaged change and cannot be given.
    pub withheld: Option<(u64, u64)>,
    /// No writer holds the session and every committed entry has been given.
    pub idle: bool,
    /// When idle: bytes after the last complete change that were never acknowledged.
    pub torn_tail: Option<TornTail>,
}

/// A follower of one session: the next position to give.
#[derive(Clone, Debug)]
pub struct Follow {
    path: PathBuf,
    session: SessionId,
    next: u64,
}

impl Follow {
    /// Follow session `session` at `path` from entry `from` (default 1: the whole history);
    /// the next entry id to be committed gives only what is new.
    ///
    /// # Errors
    /// [`FollowError::Position`] for a position outside 1 to the next entry; the store's
    /// error.
    pub fn start(path: &Path, session: SessionId, from: Option<u64>) -> Result<Self, FollowError> {
        let next = SessionReader::open(path)?.state().last_id + 1;
        let from = match from {
            None => 1,
            Some(n) if (1..=next).contains(&n) => n,
            Some(n) => {
                return Err(FollowError::Position {
                    from: n,
                    session,
                    next,
                });
            }
        };
        Ok(Self {
            path: path.to_owned(),
            session,
            next: from,
        })
    }

    /// The next entry id to give.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// Give every committed entry after the position to `on_entry`, in order, advancing the
    /// position past each batch given whole.
    ///
    /// # Errors
    /// The store's error.
    pub fn poll(
        &mut self,
        on_entry: &mut dyn FnMut(&Entry) -> ControlFlow<()>,
    ) -> Result<Polled, smith_store::Error> {
        let mut reader = SessionReader::open(&self.path)?;
        let last = reader.state().last_id;
        let mut polled = Polled::default();
        while self.next <= last {
            let batch = reader.range(EntryId(self.next), BATCH)?;
            let Some(end) = batch.last().map(|e| e.id.0) else {
                polled.withheld = Some((self.next, last));
                return Ok(polled);
            };
            for entry in &batch {
                if on_entry(entry).is_break() {
                    polled.stopped = true;
                    return Ok(polled);
                }
            }
            self.next = end + 1;
        }
        if !reader.live_writer() {
            // Nothing is writing: everything committed has been given, unless a commit
            // landed after this snapshot.
            let again = SessionReader::open(&self.path)?;
            if again.state().last_id < self.next {
                polled.idle = true;
                polled.torn_tail = again.torn_tail().cloned();
            }
        }
        Ok(polled)
    }

    /// The session followed.
    pub fn session(&self) -> SessionId {
        self.session
    }
}
