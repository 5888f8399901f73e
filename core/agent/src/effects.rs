//! The durable effect boundary (spec: Tools → Durable effect boundary): every effect a tool
//! performs is recorded as an `effect_intent` entry before it runs and an `effect_completion`
//! entry after, in the session of the run that called the tool.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use smith::EntryId;
use smith_store::{EffectCompletion, EffectIntent, NewEntry, Record, SessionWriter};

/// Where a tool's effects are recorded. Implementations make each record durable (fsync
/// returned) before they return `Ok`.
pub trait EffectJournal: Send + Sync {
    /// Record `intent` durably, caused by entry `parent` (the message holding the tool call).
    /// `Err` means the intent is not recorded and the effect must not run.
    ///
    /// # Errors
    /// A description of the storage failure.
    fn intent(&self, intent: EffectIntent, parent: Option<EntryId>) -> Result<EntryId, String>;

    /// Record how the effect of intent entry `intent` ended.
    ///
    /// # Errors
    /// A description of the storage failure (terminal for the effect: its outcome stays as
    /// recorded elsewhere, e.g. in the tool result).
    fn complete(&self, intent: EntryId, completion: EffectCompletion) -> Result<EntryId, String>;
}

/// What a tool call runs in: its working directory, where its effects are recorded, and the
/// entry that caused it.
#[derive(Clone)]
pub struct ToolContext {
    /// The invocation's working directory; file tools resolve paths against it and their
    /// default grants are rooted in it. `None` when the run was given none.
    pub cwd: Option<PathBuf>,
    /// The journal of the run's session.
    pub journal: Arc<dyn EffectJournal>,
    /// The entry holding the tool call (the effects' causal parent).
    pub cause: Option<EntryId>,
    /// Where the tool's progress messages go while it runs (shown as tool updates); `None`
    /// drops them. Transient: nothing is recorded.
    pub progress: Option<std::sync::mpsc::Sender<String>>,
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("cwd", &self.cwd)
            .field("cause", &self.cause)
            .finish_non_exhaustive()
    }
}

/// A session writer shared between the run and the effect journal it lends to tools.
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
    pub(crate) fn downgrade(&self) -> WeakWriter {
        WeakWriter(Arc::downgrade(&self.0))
    }
}

/// A [`SharedWriter`] that does not keep the session open: an [`crate::Inbox`] outliving its
/// session cannot write to it.
#[derive(Clone, Debug)]
pub(crate) struct WeakWriter(std::sync::Weak<Mutex<SessionWriter>>);

impl WeakWriter {
    /// The writer, while the session is still open somewhere.
    pub(crate) fn upgrade(&self) -> Option<SharedWriter> {
        self.0.upgrade().map(SharedWriter)
    }
}

impl EffectJournal for SharedWriter {
    fn intent(&self, intent: EffectIntent, parent: Option<EntryId>) -> Result<EntryId, String> {
        let ids = self
            .lock()
            .append_entries(&[NewEntry {
                record: Record::EffectIntent(intent),
                pair: parent,
            }])
            .map_err(|e| e.to_string())?;
        ids.first()
            .copied()
            .ok_or_else(|| "the intent was not recorded".to_owned())
    }

    fn complete(&self, intent: EntryId, completion: EffectCompletion) -> Result<EntryId, String> {
        let ids = self
            .lock()
            .append_entries(&[NewEntry {
                record: Record::EffectCompletion(completion),
                pair: Some(intent),
            }])
            .map_err(|e| e.to_string())?;
        ids.first()
            .copied()
            .ok_or_else(|| "the completion was not recorded".to_owned())
    }
}
