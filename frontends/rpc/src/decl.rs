//! The protocol's declarations: every method (its parameters, result and errors) and every
//! notification, in one table — the source of `rpc.discover`'s OpenRPC 1.3 document
//! (<https://spec.open-rpc.org>), of the generated reference (`docs/reference/rpc.md`, under
//! the drift gate) and of parameter validation. Both documents are rendered in `render`.

mod catalog;
mod commands;
mod history;
mod queue;
mod render;
mod sessions;
mod work;

pub use render::{openrpc, reference_markdown};

use serde_json::{Value, json};

/// The protocol version `initialize` and `rpc.discover` report. A client compares it with the
/// version it was written for; a change that breaks a client raises it.
pub const PROTOCOL_VERSION: &str = "1.0.0";

/// One parameter of a method.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name.
    pub name: &'static str,
    /// Whether it must be given.
    pub required: bool,
    /// What it is.
    pub description: &'static str,
    /// Its JSON Schema.
    pub schema: Value,
}

/// One method.
#[derive(Clone, Debug)]
pub struct Method {
    /// The method name.
    pub name: &'static str,
    /// What it does, in one paragraph.
    pub summary: &'static str,
    /// Its parameters (by name).
    pub params: Vec<Param>,
    /// What the result is.
    pub result: &'static str,
    /// The result's JSON Schema.
    pub result_schema: Value,
    /// Smith's own error codes it may answer with (besides the standard ones).
    pub errors: &'static [i64],
}

/// One notification the server sends.
#[derive(Clone, Debug)]
pub struct Notification {
    /// The method name of the notification.
    pub name: &'static str,
    /// What it carries and when it is sent.
    pub summary: &'static str,
    /// Its params' JSON Schema.
    pub schema: Value,
}

/// Smith's own error codes (JSON-RPC leaves -32000..-32099 to servers).
pub mod code {
    /// The session is not open in this server.
    pub const NOT_OPEN: i64 = -32001;
    /// The session is open read-only (another process writes it): mutation is refused before
    /// anything is written.
    pub const READ_ONLY: i64 = -32002;
    /// Work is running in the session and the method needs it idle.
    pub const BUSY: i64 = -32003;
    /// No session, submission, entry or document by that name.
    pub const NOT_FOUND: i64 = -32004;
    /// Input was refused at admission (a dedup key with other content, a limit, a bad
    /// destination, no queue policy); nothing was written.
    pub const REFUSED: i64 = -32005;
    /// A position that is not one of the session's (an observation cannot start there).
    pub const POSITION: i64 = -32006;
    /// The session file could not be read or written (damaged, unreadable, full disk).
    pub const STORAGE: i64 = -32007;
    /// Configuration or plugins do not allow it (no model selected, an unknown model, a
    /// plugin that would not load).
    pub const CONFIG: i64 = -32008;
    /// The wait was cancelled (`rpc.cancel`); the work goes on unchanged.
    pub const CANCELLED: i64 = -32009;
    /// The work or queued input named is not in the state the method needs (not live, not
    /// queued).
    pub const STATE: i64 = -32010;
    /// The server is shutting down: nothing new is admitted.
    pub const SHUTTING_DOWN: i64 = -32011;

    /// Every code with its name and meaning, for the reference.
    pub const ALL: &[(i64, &str, &str)] = &[
        (
            NOT_OPEN,
            "not_open",
            "the session is not open in this server; open it with `sessions.open`",
        ),
        (
            READ_ONLY,
            "read_only",
            "the session is open read-only (another process writes it); fork it to write, or ask that process",
        ),
        (
            BUSY,
            "busy",
            "work is running in the session; wait for it (`session.wait`) or abort it first",
        ),
        (
            NOT_FOUND,
            "not_found",
            "no session, submission, entry or document by that name",
        ),
        (
            REFUSED,
            "refused",
            "input refused at admission; nothing was written",
        ),
        (
            POSITION,
            "position",
            "the position is not one of the session's",
        ),
        (
            STORAGE,
            "storage",
            "the session file could not be read or written",
        ),
        (CONFIG, "config", "configuration or plugins do not allow it"),
        (
            CANCELLED,
            "cancelled",
            "the wait was cancelled; the work goes on unchanged",
        ),
        (
            STATE,
            "state",
            "the work or queued input is not in the state the method needs",
        ),
        (
            SHUTTING_DOWN,
            "shutting_down",
            "the server is shutting down",
        ),
    ];
}

fn string() -> Value {
    json!({"type": "string"})
}

fn entry() -> Value {
    json!({"type": "integer", "minimum": 1})
}

fn object() -> Value {
    json!({"type": "object"})
}

fn p(name: &'static str, required: bool, schema: Value, description: &'static str) -> Param {
    Param {
        name,
        required,
        description,
        schema,
    }
}

fn session() -> Param {
    p(
        "session",
        true,
        string(),
        "The session id, as `sessions.create` or `sessions.open` answered it (`sessions.open` and `sessions.fork` also take a unique prefix).",
    )
}

fn session_info() -> Value {
    json!({"type": "object", "required": ["session", "access", "position"], "properties": {
        "session": {"type": "string"},
        "access": {"enum": ["writer", "observer"]},
        "position": {"type": "integer", "description": "the next entry id to be committed"},
        "path": {"type": "string"},
        "cwd": {"type": ["string", "null"]},
        "interrupted": {"type": "object", "description": "the turn an earlier process left unfinished, held until `session.continue` continues it or another change settles it as aborted", "required": ["submission"], "properties": {
            "submission": {"type": "integer"},
            "model": {"type": "string"},
            "input": {"type": "string"},
            "rounds": {"type": "integer", "description": "model responses recorded"},
            "calls_answered": {"type": "integer"},
            "calls_pending": {"type": "integer", "description": "calls of the last response without a result"},
            "unknown_effects": {"type": "array", "items": {"type": "string"}}
        }}
    }})
}

fn receipt() -> Value {
    json!({"type": "object", "required": ["session", "submission", "state"], "properties": {
        "session": {"type": "string"},
        "submission": {"type": "integer"},
        "state": {"enum": ["admitted", "queued", "delivered", "withdrawn", "terminal"]},
        "stop_reason": {"type": ["string", "null"]}
    }})
}

fn enqueue_params() -> Vec<Param> {
    vec![
        session(),
        p("input", true, string(), "The text to queue."),
        p(
            "model",
            false,
            string(),
            "The model recorded with it (PROVIDER/MODEL, alias or group; checked against the catalog); default: the session's. Delivered input runs with the model of the work it is delivered into; a session with no model prepared yet prepares this one.",
        ),
        p(
            "dedup_key",
            false,
            string(),
            "A key that makes the call safe to repeat.",
        ),
    ]
}

/// Every method, in reference order.
pub fn methods() -> Vec<Method> {
    vec![
        Method {
            name: "rpc.discover",
            summary: "This server's OpenRPC 1.3 document: every method with its parameters, result and errors, the notifications under `x-notifications`, the error codes under `x-error-codes`.",
            params: vec![],
            result: "The OpenRPC document.",
            result_schema: object(),
            errors: &[],
        },
        Method {
            name: "initialize",
            summary: "The handshake a client sends first: it says who the client is and learns the protocol version and the server's version. Optional — every method works without it — but a client should check `protocol_version`.",
            params: vec![
                p(
                    "client",
                    false,
                    json!({"type": "object", "properties": {"name": {"type": "string"}, "version": {"type": "string"}}}),
                    "The client's name and version, for diagnostics.",
                ),
                p(
                    "protocol_version",
                    false,
                    string(),
                    "The protocol version the client was written for; a different major version is refused.",
                ),
            ],
            result: "`protocol_version`, `server` (`name`, `version`), and `capabilities` (what this server does: batches false, max line bytes, positions true).",
            result_schema: json!({"type": "object", "required": ["protocol_version", "server"], "properties": {
                "protocol_version": {"type": "string"}, "server": object(), "capabilities": object()}}),
            errors: &[],
        },
    ]
    .into_iter()
    .chain(sessions::methods())
    .chain(work::methods())
    .chain(history::methods())
    .chain(commands::methods())
    .chain(queue::methods())
    .chain(catalog::methods())
    .collect()
}

/// Every notification the server sends.
pub fn notifications() -> Vec<Notification> {
    vec![
        Notification {
            name: "session.event",
            summary: "A live event of work this server runs: one UI intent (`event`, an object whose `type` names its kind — the kinds of `docs/reference/ui-intents.md`) with the `session`, the committed `position` it follows (every record it mirrors lies before it) and the `request` id of the `session.submit` that caused it. Message deltas come in order between `message_start` and `message_end`; the end event is authoritative (its content equals the deltas). A request still waiting when an observation starts is sent again with `again: true` (and `request` null), with `answerable` saying whether this server can take its answer.",
            schema: json!({"type": "object", "required": ["session", "position", "event"], "properties": {
                "session": {"type": "string"}, "position": {"type": "integer"}, "request": {}, "event": {"type": "object"},
                "again": {"type": "boolean"}, "answerable": {"type": "boolean"}}}),
        },
        Notification {
            name: "session.record",
            summary: "A committed record of an observed session (`session.observe`): the `entry` (as `smith sessions get --json` prints it), the `session`, the `subscription` and the `position` after it — resume from there after a reconnect.",
            schema: json!({"type": "object", "required": ["session", "subscription", "position", "entry"], "properties": {
                "session": {"type": "string"}, "subscription": {"type": "integer"}, "position": {"type": "integer"}, "entry": {"type": "object"}}}),
        },
        Notification {
            name: "session.fell_behind",
            summary: "The client read too slowly for the bounded outbox: the live events queued for it were dropped (never what the session holds). Read the committed records from `next` (`session.observe` or `session.entries`) to catch up; events whose position is below what you read are duplicates.",
            schema: json!({"type": "object", "required": ["session", "next"], "properties": {"session": {"type": "string"}, "next": {"type": "integer"}}}),
        },
        Notification {
            name: "session.observe_ended",
            summary: "An observation ended on its own (the session was closed, or its file can no longer be read): `subscription`, `reason`.",
            schema: json!({"type": "object", "properties": {"subscription": {"type": "integer"}, "reason": {"type": "string"}}}),
        },
    ]
}
