//! Errors of the runtime as JSON-RPC error objects: Smith's codes ([`crate::decl::code`]),
//! the core's message (what happened, why, the fix — never a command-line flag) and, in
//! `data`, the names a client can act on.

use serde_json::json;
use smith_render_jsonrpc::ErrorObject;

use crate::decl::code;

/// A store failure.
pub(crate) fn store(e: &smith_store::Error) -> ErrorObject {
    ErrorObject::new(code::STORAGE, e.to_string())
}

/// Mutation of a session open read-only.
pub(crate) fn read_only(session: &str) -> ErrorObject {
    ErrorObject {
        code: code::READ_ONLY,
        message: format!(
            "session {session} is open read-only: another process writes it, so nothing was written; fork it (`sessions.fork`) to continue in a session of your own"
        ),
        data: Some(json!({"session": session})),
    }
}

/// A method that needs an idle session.
pub(crate) fn busy(session: &str) -> ErrorObject {
    ErrorObject {
        code: code::BUSY,
        message: format!(
            "work is running in session {session}; wait for it to settle (`session.wait`), abort it (`session.abort`), or queue input (`queue.steer`, `queue.follow_up`)"
        ),
        data: Some(json!({"session": session})),
    }
}

/// A refusal or failure of the session's runner.
pub(crate) fn runner(e: &smith_app::RunnerError) -> ErrorObject {
    use smith_app::RunnerError;
    match e {
        RunnerError::Busy { session, .. } => busy(&session.to_string()),
        RunnerError::ReadOnly { session } => read_only(&session.to_string()),
        RunnerError::Store(e) => store(e),
        RunnerError::Continue(c) => match c.as_ref() {
            smith_app::ContinueError::Store(e) => store(e),
            _ => ErrorObject::new(code::REFUSED, e.to_string()),
        },
        RunnerError::Closed => ErrorObject::new(code::SHUTTING_DOWN, e.to_string()),
        RunnerError::History(e) => history(e),
        RunnerError::App(_) | RunnerError::Unprepared { .. } => config(e),
        other => ErrorObject::new(code::REFUSED, other.to_string()),
    }
}

/// A session not open in this server.
pub(crate) fn not_open(session: &str) -> ErrorObject {
    ErrorObject {
        code: code::NOT_OPEN,
        message: format!(
            "session {session} is not open in this server; open it with `sessions.open` (or create one with `sessions.create`)"
        ),
        data: Some(json!({"session": session})),
    }
}

/// The server is shutting down.
pub(crate) fn shutting_down() -> ErrorObject {
    ErrorObject::new(
        code::SHUTTING_DOWN,
        "the server is shutting down (its input ended or it was asked to stop); nothing new is admitted — start another `smith rpc`",
    )
}

/// A configuration or plugin failure of the composition root.
pub(crate) fn config(e: &dyn std::fmt::Display) -> ErrorObject {
    ErrorObject::new(code::CONFIG, e.to_string())
}

/// A working-tree history operation that did nothing (or could not be recorded).
pub(crate) fn history(e: &smith_app::history::OpError) -> ErrorObject {
    use smith_app::history::OpErrorKind;
    let (code, fix) = match e.kind() {
        OpErrorKind::NotFound => (
            code::NOT_FOUND,
            "; `session.entries` lists the session's entries and its vcs records name the snapshots",
        ),
        OpErrorKind::Nothing => (
            code::STATE,
            "; `history.diff` shows the latest change, `session.entries` the vcs records",
        ),
        OpErrorKind::Refused => (
            code::REFUSED,
            "; nothing was changed: `history.diff` from the session's latest snapshot shows changes made since, and `snapshot_first` keeps them in a snapshot and goes on",
        ),
        OpErrorKind::Config => (code::CONFIG, ""),
        OpErrorKind::Storage => (code::STORAGE, ""),
    };
    ErrorObject::new(code, format!("{e}{fix}"))
}
