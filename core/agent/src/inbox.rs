//! The inbox: admitting input into a session while its work runs, from any thread — queued
//! input (steer or follow-up), listing and withdrawing it, and child work owned by live work
//! (spec: Agent behavior, Sessions → Submission and receipts, Work and recovery).
//!
//! Every admission is one committed change, durable when the call returns, checked against
//! the [`WorkLimits`] first: excess admission fails and writes nothing.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use smith::{Delivery, QueuedInput};
use smith::{EntryId, Selection, SessionId};
use smith_store::{Record, SharedWriter, Submission, WeakWriter, Withdrawal};

use crate::work::{Live, WorkState};
use crate::{AdmissionError, WorkLimits};

/// Input to queue.
#[derive(Clone, Copy, Debug)]
pub struct Enqueue<'s> {
    /// The model the session runs with (recorded with the submission; delivered input runs
    /// with the model of the work it is delivered into).
    pub model: &'s Selection,
    /// The text.
    pub input: &'s str,
    /// When it is delivered.
    pub delivery: Delivery,
    /// A key scoped to the session: repeating it with the same content returns the original
    /// submission.
    pub dedup_key: Option<&'s str>,
}

/// Admits input into one session from any thread while its work runs. Cheap to clone; made
/// by [`crate::Agent::inbox`], which fixes the queue policy and the limits. It does not keep
/// the session open: once the session is closed (or dropped), every call fails with
/// "closed" and writes nothing.
#[derive(Clone, Debug)]
pub struct Inbox {
    pub(crate) writer: WeakWriter,
    pub(crate) state: Arc<Mutex<WorkState>>,
    pub(crate) session: SessionId,
    pub(crate) path: PathBuf,
    pub(crate) limits: WorkLimits,
    pub(crate) policy: Option<String>,
}

/// Why queued input could not be withdrawn. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum WithdrawError {
    /// The id names no input waiting in the queue (never queued, delivered or withdrawn).
    #[error(
        "submission {0} is not waiting in the queue (it was delivered, withdrawn, or never queued); list the queue to see what can be withdrawn"
    )]
    NotQueued(EntryId),
    /// The session was closed.
    #[error("the session was closed; open it again to withdraw queued input")]
    Closed,
    /// The session could not record the withdrawal.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// Why an abort request was refused. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum AbortError {
    /// The work is not live (it ended, was never admitted, or is queued input).
    #[error(
        "submission {0} is not live work in this session (it ended, was never admitted, or is queued input — withdraw queued input instead); nothing was aborted"
    )]
    NotLive(EntryId),
    /// The work is owned by other work: aborting is done to the top-level work.
    #[error(
        "submission {work} is owned by work {top}; abort {top} instead — owned work ends with the work that owns it"
    )]
    Owned {
        /// The work named.
        work: EntryId,
        /// The top-level work that owns it.
        top: EntryId,
    },
    /// The work is live but no run executes it in this process.
    #[error(
        "submission {0} is not running in this process; it is settled when the session is next opened"
    )]
    NotRunning(EntryId),
    /// The work is an interrupted turn held for a decision: nothing runs it to abort.
    #[error(
        "submission {0} is an interrupted turn that nothing runs; continue it, or settle it as aborted"
    )]
    Interrupted(EntryId),
    /// The session was closed.
    #[error("the session was closed; no work of it runs here")]
    Closed,
    /// The abort request could not be recorded, so it was not sent.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

pub(crate) fn lock(state: &Mutex<WorkState>) -> MutexGuard<'_, WorkState> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inbox {
    /// Queue `enqueue` for delivery by the active queue policy; returns its submission id (the
    /// original one when the key repeats earlier input with the same content).
    ///
    /// # Errors
    /// [`AdmissionError::NoQueuePolicy`] without an active queue policy;
    /// [`AdmissionError::Limit`] over the queue's item or byte limit; [`AdmissionError::Closed`]
    /// after the session was closed; key errors and store errors. Nothing was written.
    pub fn enqueue(&self, enqueue: Enqueue<'_>) -> Result<EntryId, AdmissionError> {
        self.enqueue_admitted(enqueue).map(|(id, _)| id)
    }

    /// As [`Inbox::enqueue`], saying also whether the input was deduplicated (`true`: its key
    /// repeated earlier input with the same content, and that input's submission id is
    /// returned; nothing was written).
    ///
    /// # Errors
    /// As [`Inbox::enqueue`].
    pub fn enqueue_admitted(
        &self,
        enqueue: Enqueue<'_>,
    ) -> Result<(EntryId, bool), AdmissionError> {
        let Some(policy) = self.policy.clone() else {
            return Err(AdmissionError::NoQueuePolicy);
        };
        let content = crate::submission::content_sha256(enqueue.model, enqueue.input);
        // The key check and the write happen under one work-state lock, so a concurrent
        // admission with the same key cannot slip between them.
        let mut state = lock(&self.state);
        let shared = self.open_writer(&state)?;
        if let Some(key) = enqueue.dedup_key
            && let Some(original) =
                crate::submission::deduplicate(&self.path, self.session, key, &content, None)?
        {
            return Ok((original.submission, true));
        }
        state.check_queue(enqueue.input, &self.limits)?;
        let mut writer = shared.lock();
        let destination = writer.leaf();
        let ids = writer.append(&[Record::Submission(Submission {
            session: Some(self.session),
            dedup_key: enqueue.dedup_key.map(str::to_owned),
            content_sha256: content,
            destination,
            explicit_destination: false,
            model: enqueue.model.clone(),
            input: enqueue.input.to_owned(),
            owner: None,
            delivery: Some(enqueue.delivery),
            policy: Some(policy.clone()),
            attachments: Vec::new(),
        })])?;
        drop(writer);
        let id = ids[0];
        state.queue.push(QueuedInput {
            submission: id,
            delivery: enqueue.delivery,
            input: enqueue.input.to_owned(),
            policy,
        });
        Ok((id, false))
    }

    /// The input waiting in the queue, in queue order.
    pub fn queued(&self) -> Vec<QueuedInput> {
        lock(&self.state).queue.clone()
    }

    /// Withdraw queued input `submission` before delivery: a `withdrawal` record paired with
    /// it, durable when this returns; it is never delivered.
    ///
    /// # Errors
    /// [`WithdrawError::NotQueued`]; store errors (the input then stays queued).
    pub fn withdraw(&self, submission: EntryId, reason: &str) -> Result<(), WithdrawError> {
        let mut state = lock(&self.state);
        let shared = self
            .open_writer(&state)
            .map_err(|_| WithdrawError::Closed)?;
        let Some(at) = state.queue.iter().position(|q| q.submission == submission) else {
            return Err(WithdrawError::NotQueued(submission));
        };
        shared.lock().append_entries(&[smith_store::NewEntry {
            record: Record::Withdrawal(Withdrawal {
                reason: reason.to_owned(),
            }),
            pair: Some(submission),
        }])?;
        state.queue.remove(at);
        Ok(())
    }

    /// Admit child work owned by live work `owner`: it runs after the owner's own rounds, and
    /// the owner settles only after it. Returns the child's submission id.
    ///
    /// # Errors
    /// [`AdmissionError::UnknownOwner`] when `owner` is not live work;
    /// [`AdmissionError::Limit`] over the live-work or ownership-depth limit;
    /// [`AdmissionError::Closed`]; store errors. Nothing was written.
    pub fn submit_child(
        &self,
        owner: EntryId,
        model: &Selection,
        input: &str,
    ) -> Result<EntryId, AdmissionError> {
        let mut state = lock(&self.state);
        let shared = self.open_writer(&state)?;
        let depth = state.check_work(Some(owner), &self.limits)?;
        let mut writer = shared.lock();
        let destination = writer.leaf();
        let ids = writer.append(&[Record::Submission(Submission {
            session: Some(self.session),
            dedup_key: None,
            content_sha256: crate::submission::content_sha256(model, input),
            destination,
            explicit_destination: false,
            model: model.clone(),
            input: input.to_owned(),
            owner: Some(owner),
            delivery: None,
            policy: None,
            attachments: Vec::new(),
        })])?;
        drop(writer);
        state.live.insert(
            ids[0],
            Live {
                owner: Some(owner),
                depth,
                started: false,
                model: model.clone(),
                input: input.to_owned(),
            },
        );
        Ok(ids[0])
    }

    /// Abort running top-level work `work`: an `abort` record (with `reason`) paired with it,
    /// durable when this returns, then the run's cancellation. The work winds down at its
    /// next effect edge and records its end; the acknowledgement does not mean it has settled
    /// or that a started effect did not happen (spec: Submission and receipts).
    ///
    /// # Errors
    /// [`AbortError`]; nothing was written.
    pub fn abort(&self, work: EntryId, reason: &str) -> Result<(), AbortError> {
        let mut state = lock(&self.state);
        let shared = self.open_writer(&state).map_err(|_| AbortError::Closed)?;
        let Some(live) = state.live.get(&work) else {
            return Err(AbortError::NotLive(work));
        };
        if state.held == Some(work) {
            return Err(AbortError::Interrupted(work));
        }
        if live.owner.is_some() {
            let mut top = work;
            while let Some(owner) = state.live.get(&top).and_then(|l| l.owner) {
                top = owner;
            }
            return Err(AbortError::Owned { work, top });
        }
        let Some((running, cancel)) = state.running.clone() else {
            return Err(AbortError::NotRunning(work));
        };
        if running != work {
            return Err(AbortError::NotRunning(work));
        }
        if state.abort_recorded.is_none() {
            shared.lock().append_entries(&[smith_store::NewEntry {
                record: Record::Abort(smith_store::Abort {
                    reason: reason.to_owned(),
                }),
                pair: Some(work),
            }])?;
            state.abort_recorded = Some(reason.to_owned());
        }
        cancel.cancel();
        Ok(())
    }

    /// The session's writer, unless the session was closed or dropped.
    fn open_writer(&self, state: &WorkState) -> Result<SharedWriter, AdmissionError> {
        if state.sealed {
            return Err(AdmissionError::Closed);
        }
        self.writer.upgrade().ok_or(AdmissionError::Closed)
    }

    /// The session's id.
    pub fn session(&self) -> SessionId {
        self.session
    }

    /// The session file's path.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The live work (admitted, no terminal receipt yet), in admission order, with its owner.
    pub fn live_work(&self) -> Vec<(EntryId, Option<EntryId>)> {
        let state = lock(&self.state);
        state
            .live
            .iter()
            .filter(|(id, _)| state.held != Some(**id))
            .map(|(id, l)| (*id, l.owner))
            .collect()
    }
}
