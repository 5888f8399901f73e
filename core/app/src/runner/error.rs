//! Why the session runner refused or failed a command. Every refusal names the value it
//! refuses and is made before anything is written; each frontend words it in its own way
//! (an exit status and a flag, a JSON-RPC error code, a notice in the terminal UI).

use smith::SessionId;

/// A command of the [`super::Runner`] that did not run, or failed.
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
    /// A selection or admission was refused by the session's rules: a branch that would split
    /// a tool batch, an entry that does not exist or is past the tip, queued input on
    /// another branch, a deduplication conflict, a limit.
    #[error(transparent)]
    Admission(#[from] smith_agent::AdmissionError),
    /// The compaction recorded no summary (nothing to compact, no prompt, an incomplete
    /// summary, a provider failure, an abort); the context is unchanged.
    #[error(transparent)]
    Compact(smith_agent::CompactError),
    /// A context edit was refused (its checks name the offending entry).
    #[error(transparent)]
    Edit(#[from] smith_agent::EditError),
    /// The working-tree history refused or failed the operation (nothing changed).
    #[error(transparent)]
    History(#[from] crate::history::OpError),
    /// A plugin switch named no plugin, or one that cannot be switched.
    #[error("{0}")]
    Plugin(String),
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
