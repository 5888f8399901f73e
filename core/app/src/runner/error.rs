//! Why the session runner or its inbox refused or failed a command. Every refusal names the
//! value it refuses and is made before anything is written; each frontend words it in its own
//! way (an exit status and a flag, a JSON-RPC error code, a notice in the terminal UI) by
//! matching these variants — never the agent's own error types.

use smith::{EntryId, SessionId};

/// A command of the [`super::Runner`] or its [`super::Inbox`] that did not run, or failed.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The command waits for idle, and work is live in the session (admitted, not ended).
    #[error(
        "session {session} has running work ({live} live), so {what} was refused; nothing was written — do it once the work has ended, or abort the work first"
    )]
    Busy {
        /// The session.
        session: SessionId,
        /// The live work items.
        live: usize,
        /// What was refused ("the compaction", "undo", …).
        what: &'static str,
    },
    /// No route is prepared (the model could not be), so nothing that asks a model can run.
    #[error("{what} cannot run: the model could not be prepared ({why}); nothing was written")]
    Unprepared {
        /// What was refused ("no turn", "the compaction").
        what: &'static str,
        /// Why preparing failed, as it failed.
        why: String,
    },
    /// The input is empty, or only white space (and attaches no image).
    #[error(
        "the input is empty (or only white space), so nothing was admitted and nothing was written; give the model something to answer"
    )]
    EmptyInput,
    /// The session is open read-only here (another process writes it).
    #[error(
        "session {session} is open read-only here (another process writes it); nothing was written"
    )]
    ReadOnly {
        /// The session.
        session: SessionId,
    },
    /// The session's admission rules refused the input or the selection: a branch that would
    /// split a tool batch, an entry past the tip, queued input on another branch, a
    /// deduplication conflict, a limit, a model that cannot take the input.
    #[error(transparent)]
    Refused(Box<smith_agent::AdmissionError>),
    /// A context edit was refused (its checks name the offending entry).
    #[error(transparent)]
    Edit(Box<smith_agent::EditError>),
    /// The selected branch cannot be projected (it runs into damage, or an edit's target is
    /// not on it); nothing was written.
    #[error("{0}")]
    Unprojectable(String),
    /// There is nothing before the recent context to summarize.
    #[error(transparent)]
    NothingToCompact(Box<smith_agent::CompactError>),
    /// The compaction was cancelled; the abort is recorded and the context is unchanged.
    #[error("the compaction was aborted; the session's context is unchanged")]
    CompactionAborted,
    /// The compaction recorded no summary (no prompt, an incomplete summary, a provider
    /// failure); the context is unchanged.
    #[error(transparent)]
    Compact(Box<smith_agent::CompactError>),
    /// The submission is not waiting in the queue (delivered, withdrawn, or never queued).
    #[error(
        "submission {submission} is not waiting in the queue (it was delivered, withdrawn, or never queued); list the queue to see what can be withdrawn"
    )]
    NotQueued {
        /// The submission named.
        submission: EntryId,
    },
    /// The session holds an interrupted turn, which `what` cannot go past: it is continued
    /// or settled first. Nothing was written.
    #[error(
        "session {session} holds interrupted turn {turn}, so {what} was refused; nothing was written — continue the turn, or settle it as aborted, first"
    )]
    Interrupted {
        /// The session.
        session: SessionId,
        /// The interrupted turn's submission.
        turn: EntryId,
        /// What was refused.
        what: &'static str,
    },
    /// An interrupted turn was not continued: none is held, or a prerequisite it recorded
    /// is missing (each named with what would satisfy it); nothing was written.
    #[error(transparent)]
    Continue(Box<smith_agent::ContinueError>),
    /// An abort was refused: the work is not live here, or owned by other work.
    #[error(transparent)]
    Abort(Box<smith_agent::AbortError>),
    /// No question with that id is waiting.
    #[error(
        "request {request:?} is not waiting for an answer (it was answered, its tool call ended, or it was never asked); list the waiting requests to see what can be answered"
    )]
    NotWaiting {
        /// The request id named.
        request: String,
    },
    /// The answer does not fit the question.
    #[error("request {request:?} cannot take that answer: {why}")]
    BadAnswer {
        /// The request id.
        request: String,
        /// What answer was expected.
        why: smith::AnswerMismatch,
    },
    /// The session was closed.
    #[error("the session was closed; open it again")]
    Closed,
    /// The working-tree history refused or failed the operation (nothing changed).
    #[error(transparent)]
    History(#[from] crate::history::OpError),
    /// A plugin switch named no plugin.
    #[error(transparent)]
    Plugin(#[from] crate::registry::UnknownPlugin),
    /// Preparing a route or the policy failed.
    #[error(transparent)]
    App(Box<crate::Error>),
    /// The session file could not be written.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

impl From<crate::Error> for RunnerError {
    fn from(e: crate::Error) -> Self {
        Self::App(Box::new(e))
    }
}

impl From<smith_agent::AdmissionError> for RunnerError {
    fn from(e: smith_agent::AdmissionError) -> Self {
        match e {
            smith_agent::AdmissionError::Store(e) => Self::Store(e),
            smith_agent::AdmissionError::ReadOnly(session) => Self::ReadOnly { session },
            smith_agent::AdmissionError::Closed => Self::Closed,
            other => Self::Refused(Box::new(other)),
        }
    }
}

impl From<smith_agent::WithdrawError> for RunnerError {
    fn from(e: smith_agent::WithdrawError) -> Self {
        match e {
            smith_agent::WithdrawError::NotQueued(submission) => Self::NotQueued { submission },
            smith_agent::WithdrawError::Closed => Self::Closed,
            smith_agent::WithdrawError::Store(e) => Self::Store(e),
        }
    }
}

impl RunnerError {
    /// Whether an abort was refused because the work was no longer live: it ended (or was
    /// never admitted) before the request came — a race a frontend need not report.
    pub fn work_not_live(&self) -> bool {
        matches!(self, Self::Abort(e) if matches!(**e, smith_agent::AbortError::NotLive(_)))
    }
}

impl From<smith_agent::AbortError> for RunnerError {
    fn from(e: smith_agent::AbortError) -> Self {
        match e {
            smith_agent::AbortError::Store(e) => Self::Store(e),
            other => Self::Abort(Box::new(other)),
        }
    }
}

impl From<smith_agent::AnswerError> for RunnerError {
    fn from(e: smith_agent::AnswerError) -> Self {
        match e {
            smith_agent::AnswerError::NotWaiting(request) => Self::NotWaiting { request },
            smith_agent::AnswerError::Mismatch { request_id, why } => Self::BadAnswer {
                request: request_id,
                why,
            },
        }
    }
}

impl RunnerError {
    /// The error of a refused context edit of `session`.
    pub(crate) fn edit(e: smith_agent::EditError, session: SessionId) -> Self {
        match e {
            smith_agent::EditError::Store(e) => Self::Store(e),
            smith_agent::EditError::Busy => Self::Busy {
                session,
                live: 1,
                what: "the context edit",
            },
            smith_agent::EditError::Projection(e) => Self::Unprojectable(e.to_string()),
            other => Self::Edit(Box::new(other)),
        }
    }

    /// The error of a compaction that recorded no summary.
    pub(crate) fn compaction(e: smith_agent::CompactError, session: SessionId) -> Self {
        match e {
            smith_agent::CompactError::Busy(live) => Self::Busy {
                session,
                live,
                what: "the compaction",
            },
            smith_agent::CompactError::Run(smith_agent::RunError::Store(e)) => Self::Store(e),
            smith_agent::CompactError::Aborted => Self::CompactionAborted,
            e @ (smith_agent::CompactError::Nothing { .. }
            | smith_agent::CompactError::OnlyPrompts { .. }) => Self::NothingToCompact(Box::new(e)),
            other => Self::Compact(Box::new(other)),
        }
    }
}
