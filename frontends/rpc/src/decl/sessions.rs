//! The declarations of the methods that create, open, list, fork, select and close sessions
//! (`sessions.*`).

use serde_json::json;

use super::code::*;
use super::{Method, entry, p, session, session_info, string};

/// The `sessions.*` methods, in the order the reference lists them.
pub(super) fn methods() -> Vec<Method> {
    vec![
        Method {
            name: "sessions.create",
            summary: "Create a new session in the sessions directory and open it as its writer.",
            params: vec![
                p(
                    "cwd",
                    false,
                    string(),
                    "The working directory the session records and its tools run in; default: the server's.",
                ),
                p(
                    "id",
                    false,
                    string(),
                    "A UUID for the new session; default: a fresh one.",
                ),
            ],
            result: "The opened session: `session`, `access` (`writer`), `position`, `path`, `cwd`.",
            result_schema: session_info(),
            errors: &[STORAGE, REFUSED, SHUTTING_DOWN],
        },
        Method {
            name: "sessions.open",
            summary: "Open an existing session: as its writer, or — when another process writes it — as a read-only observer (never a wait for the writer). The access mode is in the result; an observer's mutations are refused with `read_only`. Opening a session this server observes again takes the writer once the other process has let it go (closed it or exited). `session` may be `last`: the session most recently written among those started in the server's directory, else in the nearest directory above it in its project.",
            params: vec![session()],
            result: "The opened session: `session`, `access` (`writer` or `observer`), `position`, `path`, `cwd`, and `interrupted` when an earlier process left its last turn unfinished (continue it with `session.continue`; any other change settles it as aborted).",
            result_schema: session_info(),
            errors: &[NOT_FOUND, STORAGE, SHUTTING_DOWN],
        },
        Method {
            name: "sessions.list",
            summary: "The sessions of the sessions directory, newest first, with summary metadata read without decoding histories.",
            params: vec![
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1, "maximum": 1000}),
                    "At most this many (default 100).",
                ),
                p(
                    "cwd",
                    false,
                    string(),
                    "Only sessions started in this directory.",
                ),
            ],
            result: "`sessions`: summaries (`id`, `created_ms`, `modified_ms`, `bytes`, `smith_version`, `cwd`, `title` — the first line of the first prompt — and `last_model`, as `smith sessions list --json` prints them), and `more` when the limit cut the list.",
            result_schema: json!({"type": "object", "required": ["sessions"], "properties": {"sessions": {"type": "array"}, "more": {"type": "boolean"}}}),
            errors: &[STORAGE],
        },
        Method {
            name: "sessions.fork",
            summary: "Fork a session (open or not, also one another process writes) at an entry into a new, independently writable session, and open the fork as its writer.",
            params: vec![
                session(),
                p(
                    "at",
                    false,
                    entry(),
                    "The entry the fork ends at; default: the selected leaf.",
                ),
            ],
            result: "The opened fork, as `sessions.create` returns it, with `forked_from`.",
            result_schema: session_info(),
            errors: &[NOT_FOUND, STORAGE],
        },
        Method {
            name: "sessions.select",
            summary: "Select the branch ending at an entry as the session's leaf (one committed change); the next submission continues it.",
            params: vec![session(), p("entry", true, entry(), "The new leaf.")],
            result: "`leaf`: the selected entry.",
            result_schema: json!({"type": "object", "properties": {"leaf": {"type": "integer"}}}),
            errors: &[NOT_OPEN, READ_ONLY, BUSY, REFUSED, STORAGE],
        },
        Method {
            name: "sessions.close",
            summary: "Close a session this server opened: admission is sealed, its observations end, and a writer's ownership is released. Refused while work runs.",
            params: vec![session()],
            result: "`closed`: true.",
            result_schema: json!({"type": "object", "properties": {"closed": {"type": "boolean"}}}),
            errors: &[NOT_OPEN, BUSY, STORAGE],
        },
    ]
}
