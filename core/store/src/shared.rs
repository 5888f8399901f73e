//! A session writer shared between a run and the effect journal it lends to tools: the
//! store's implementation of the [`smith::EffectJournal`] port (spec: Tools → Durable effect
//! boundary — every effect is recorded as an `effect_intent` entry before it runs and an
//! `effect_completion` entry after, in the session of the run that called the tool).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use smith::{EffectCompletion, EffectIntent, EffectJournal, EntryId, JournalError};

use crate::{NewEntry, Record, SessionWriter};

/// A [`SessionWriter`] behind a mutex, cheap to clone; every clone writes the same session
/// and keeps its writer lock alive.
#[derive(Clone, Debug)]
pub struct SharedWriter(Arc<Mutex<SessionWriter>>);

impl SharedWriter {
    /// Share `writer`.
    pub fn new(writer: SessionWriter) -> Self {
        Self(Arc::new(Mutex::new(writer)))
    }

    /// The writer. A panic while it was held cannot leave it half-written (every change is
    /// one write), so a poisoned lock is taken as is.
    pub fn lock(&self) -> MutexGuard<'_, SessionWriter> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A handle that does not keep the writer (and its file lock) alive.
    pub fn downgrade(&self) -> WeakWriter {
        WeakWriter(Arc::downgrade(&self.0))
    }

    /// Append one entry for the journal and return its id.
    fn journal(&self, record: Record, pair: Option<EntryId>) -> Result<EntryId, JournalError> {
        let ids = self
            .lock()
            .append_entries(&[NewEntry { record, pair }])
            .map_err(|e| JournalError::Storage(Box::new(e)))?;
        ids.first().copied().ok_or(JournalError::NotRecorded)
    }
}

/// A [`SharedWriter`] that does not keep the session open: a handle outliving its session
/// (an inbox held by another thread) cannot write to it.
#[derive(Clone, Debug)]
pub struct WeakWriter(Weak<Mutex<SessionWriter>>);

impl WeakWriter {
    /// The writer, while the session is still open somewhere.
    pub fn upgrade(&self) -> Option<SharedWriter> {
        self.0.upgrade().map(SharedWriter)
    }
}

impl EffectJournal for SharedWriter {
    fn intent(
        &self,
        intent: EffectIntent,
        parent: Option<EntryId>,
    ) -> Result<EntryId, JournalError> {
        self.journal(Record::EffectIntent(intent), parent)
    }

    fn complete(
        &self,
        intent: EntryId,
        completion: EffectCompletion,
    ) -> Result<EntryId, JournalError> {
        self.journal(Record::EffectCompletion(completion), Some(intent))
    }
}
