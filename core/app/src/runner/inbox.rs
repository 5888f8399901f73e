//! What works on a session from any thread while its runner runs a turn (spec: Sessions →
//! Work and queues): queueing input as steer or follow-up, listing and withdrawing it,
//! aborting work, and answering or refusing the questions a running tool call asks.

use smith::{Answer, Delivery, EntryId, QueuedInput, Selection, SessionId};
use smith_ui_intents::Intent;

use super::RunnerError;

/// The session's inbox: cheap to clone, shared by every thread of a frontend. Made by
/// [`super::Runner::inbox`]; one made before any route was prepared lists, withdraws,
/// aborts and answers, but queues nothing ([`RunnerError::Refused`]: no queue policy yet).
#[derive(Clone, Debug)]
pub struct Inbox(pub(super) smith_agent::Inbox);

/// Input to queue ([`Inbox::queue`]).
#[derive(Clone, Copy, Debug)]
pub struct QueueInput<'a> {
    /// The selection the input runs with when it becomes work.
    pub model: &'a Selection,
    /// The text.
    pub input: &'a str,
    /// Steer (delivered after the running tool batch) or follow-up (after the work ends).
    pub delivery: Delivery,
    /// A deduplication key scoped to the session.
    pub dedup_key: Option<&'a str>,
}

/// Input admitted to the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queued {
    /// Its submission (for a repeated key, the original's).
    pub submission: EntryId,
    /// The key and content repeated an earlier submission: nothing new was queued.
    pub deduplicated: bool,
}

/// A question a running tool call waits on.
#[derive(Clone, Debug)]
pub struct Waiting {
    /// The request's id, what [`Inbox::answer`] takes.
    pub request_id: String,
    /// The work whose tool call asks.
    pub work: Option<EntryId>,
    /// The request intent that offers it (what a frontend shows again to a client that
    /// reconnects).
    pub intent: Intent,
}

impl Inbox {
    /// Queue `input` durably (admitted before this returns).
    ///
    /// # Errors
    /// [`RunnerError::EmptyInput`], [`RunnerError::Refused`] (no queue policy, a key conflict, a limit),
    /// [`RunnerError::ReadOnly`], [`RunnerError::Store`]; nothing was written.
    pub fn queue(&self, input: QueueInput<'_>) -> Result<Queued, RunnerError> {
        if input.input.trim().is_empty() {
            return Err(RunnerError::EmptyInput);
        }
        let (submission, deduplicated) = self.0.enqueue_admitted(smith_agent::Enqueue {
            model: input.model,
            input: input.input,
            delivery: input.delivery,
            dedup_key: input.dedup_key,
        })?;
        Ok(Queued {
            submission,
            deduplicated,
        })
    }

    /// The input waiting in the queue, in queue order.
    pub fn queued(&self) -> Vec<QueuedInput> {
        self.0.queued()
    }

    /// Take queued input back (recorded with `reason`).
    ///
    /// # Errors
    /// [`RunnerError::NotQueued`], [`RunnerError::Closed`], [`RunnerError::Store`].
    pub fn withdraw(&self, submission: EntryId, reason: &str) -> Result<(), RunnerError> {
        Ok(self.0.withdraw(submission, reason)?)
    }

    /// Abort live work (recorded with `reason`); the run ends at its next safe point.
    ///
    /// # Errors
    /// [`RunnerError::Abort`] (not live here, owned by other work), [`RunnerError::Store`].
    pub fn abort(&self, work: EntryId, reason: &str) -> Result<(), RunnerError> {
        Ok(self.0.abort(work, reason)?)
    }

    /// The live work: each item's submission and the work owning it, if any.
    pub fn live_work(&self) -> Vec<(EntryId, Option<EntryId>)> {
        self.0.live_work()
    }

    /// The questions waiting for an answer, in the order they were asked.
    pub fn waiting(&self) -> Vec<Waiting> {
        self.0
            .asked()
            .into_iter()
            .map(|a| Waiting {
                intent: a.intent(),
                request_id: a.request_id,
                work: a.work,
            })
            .collect()
    }

    /// Answer a waiting question.
    ///
    /// # Errors
    /// [`RunnerError::NotWaiting`], [`RunnerError::BadAnswer`].
    pub fn answer(&self, request_id: &str, answer: Answer) -> Result<(), RunnerError> {
        Ok(self.0.answer(request_id, answer)?)
    }

    /// Refuse a waiting question (the tool call is told `reason`).
    ///
    /// # Errors
    /// [`RunnerError::NotWaiting`].
    pub fn refuse(&self, request_id: &str, reason: &str) -> Result<(), RunnerError> {
        Ok(self.0.refuse(request_id, reason)?)
    }

    /// Refuse every waiting question with `reason` (the frontend is going away).
    pub fn refuse_asks(&self, reason: &str) {
        self.0.refuse_asks(reason);
    }

    /// The session.
    pub fn session(&self) -> SessionId {
        self.0.session()
    }
}
