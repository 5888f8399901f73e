//! The protocol's declarations: every method (its parameters, result and errors) and every
//! notification, in one table — the source of `rpc.discover`'s OpenRPC 1.3 document
//! (<https://spec.open-rpc.org>), of the generated reference (`docs/reference/rpc.md`, under
//! the drift gate) and of parameter validation. Both documents are rendered in `render`.

mod commands;
mod history;
mod render;

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
    use code::*;
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
        Method {
            name: "session.submit",
            summary: "Submit input to an idle session. The reply is the durable admission receipt, sent only after the submission is committed and synced, before the work's events; the work then runs, streaming `session.event` notifications tagged with this request's id, and settles with a `run_end` event. A repeated `dedup_key` with the same content returns the original receipt (`deduplicated`) and runs nothing.",
            params: vec![
                session(),
                p("input", true, string(), "The prompt."),
                p(
                    "model",
                    false,
                    string(),
                    "The model (PROVIDER/MODEL, alias or group); default: the `model` setting, else the session's last.",
                ),
                p(
                    "dedup_key",
                    false,
                    string(),
                    "A key that makes the submission safe to repeat, also across restarts.",
                ),
                p(
                    "destination",
                    false,
                    entry(),
                    "Continue the branch ending at this entry instead of the selected leaf.",
                ),
                p(
                    "script",
                    false,
                    string(),
                    "A provider script file to play (the scripted provider only).",
                ),
            ],
            result: "The receipt: `session`, `submission` (its entry id, its identity), `state`, `dedup_key`, `deduplicated`, `position`.",
            result_schema: receipt(),
            errors: &[
                NOT_OPEN,
                READ_ONLY,
                BUSY,
                REFUSED,
                CONFIG,
                STORAGE,
                SHUTTING_DOWN,
            ],
        },
        Method {
            name: "session.continue",
            summary: "Continue the turn an earlier process left unfinished (`interrupted` in `sessions.open`'s result) from what is recorded: the prerequisites its checkpoint recorded (the model route, the plugins, the tool loadout) are checked first and a missing one refuses it with nothing written; calls whose effects are recorded are answered from them and never run again, an unknown outcome shown to the model as unknown. The reply is the work's receipt; its events follow as for `session.submit`.",
            params: vec![
                session(),
                p(
                    "model",
                    false,
                    string(),
                    "The model; default and required: the one the turn recorded (another is refused).",
                ),
                p(
                    "script",
                    false,
                    string(),
                    "A provider script file to play (the scripted provider only).",
                ),
            ],
            result: "The receipt, as `session.submit` answers it.",
            result_schema: receipt(),
            errors: &[NOT_OPEN, READ_ONLY, BUSY, STATE, REFUSED, CONFIG, STORAGE, SHUTTING_DOWN],
        },
        Method {
            name: "session.abort",
            summary: "Abort running work: a recorded operation, separate from cancelling an observation or a wait. The reply acknowledges that the abort is recorded; the work then ends at its next safe point, and its terminal events (`round_end`, `run_end` with `aborted`) follow — nothing of it after its `run_end`.",
            params: vec![
                session(),
                p(
                    "submission",
                    false,
                    entry(),
                    "The work to abort; default: the running work.",
                ),
                p("reason", false, string(), "Why, recorded."),
            ],
            result: "`aborted`: the work's submission id.",
            result_schema: json!({"type": "object", "properties": {"aborted": {"type": "integer"}}}),
            errors: &[NOT_OPEN, READ_ONLY, STATE, STORAGE],
        },
        Method {
            name: "session.wait",
            summary: "Wait until a submission has settled (its receipt and every work it owns are terminal). Cancelling the wait (`rpc.cancel`) ends only the wait.",
            params: vec![session(), p("submission", true, entry(), "The submission.")],
            result: "The terminal receipt, as `receipts.get` returns it.",
            result_schema: receipt(),
            errors: &[NOT_OPEN, NOT_FOUND, CANCELLED, STORAGE],
        },
        Method {
            name: "session.observe",
            summary: "Observe a session's committed records from a position: every record after it, in bounded batches, then each record committed while the observation lasts — no gap, no duplicate — as `session.record` notifications carrying the position after each. Works for sessions another process writes (reconnect): only committed records cross processes, never another process's deltas.",
            params: vec![
                session(),
                p(
                    "from",
                    false,
                    entry(),
                    "The next entry id to send (default 1: the whole history); the session's `position` sends only what is new.",
                ),
            ],
            result: "`subscription` (an id for `session.unobserve`), `from`, and `position` (the next entry to be committed now).",
            result_schema: json!({"type": "object", "required": ["subscription"], "properties": {"subscription": {"type": "integer"}, "from": {"type": "integer"}, "position": {"type": "integer"}}}),
            errors: &[NOT_OPEN, POSITION, STORAGE],
        },
        Method {
            name: "session.unobserve",
            summary: "End an observation; nothing in the session changes.",
            params: vec![p(
                "subscription",
                true,
                json!({"type": "integer", "minimum": 0}),
                "The subscription.",
            )],
            result: "`ended`: true.",
            result_schema: json!({"type": "object", "properties": {"ended": {"type": "boolean"}}}),
            errors: &[NOT_FOUND],
        },
        Method {
            name: "session.entries",
            summary: "A bounded batch of a session's committed entries (as `smith sessions get --json` prints them), with a cursor for the next batch.",
            params: vec![
                session(),
                p(
                    "cursor",
                    false,
                    json!({"type": "integer", "minimum": 1}),
                    "Continue after this entry (from the next page's `next_cursor`).",
                ),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1, "maximum": 1000}),
                    "Entries per batch (default 100).",
                ),
                p(
                    "branch",
                    false,
                    json!({"type": "boolean"}),
                    "Only the selected branch, newest first.",
                ),
            ],
            result: "`entries` and `page` (`returned`, `next_cursor`, `leaf`, `last_id`…).",
            result_schema: json!({"type": "object", "required": ["entries", "page"], "properties": {"entries": {"type": "array"}, "page": object()}}),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "session.grep",
            summary: "Search a session's recorded content with a regular expression; each match names its entry.",
            params: vec![
                session(),
                p(
                    "pattern",
                    true,
                    string(),
                    "A regular expression (Rust `regex` syntax).",
                ),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1, "maximum": 10000}),
                    "At most this many matches (default 100).",
                ),
            ],
            result: "`matches` and `more` when the limit cut them.",
            result_schema: json!({"type": "object", "properties": {"matches": {"type": "array"}, "more": {"type": "boolean"}}}),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "session.usage",
            summary: "The session's effective usage and cost: each response counted once at its attempt's recorded prices; unknown stays unknown.",
            params: vec![session()],
            result: "The usage totals and cost.",
            result_schema: object(),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "session.request",
            summary: "The recorded effective request of an attempt, reconstructed from the file alone: instructions, ordered messages, tool definitions and dispatch, secret-safe.",
            params: vec![
                session(),
                p(
                    "attempt",
                    true,
                    json!({"type": ["integer", "string"]}),
                    "The attempt's entry id, or its place `TURN.ROUND.ATTEMPT` (e.g. `\"1.2.1\"`), each from 1.",
                ),
            ],
            result: "The request view (as `smith sessions get --request --json` prints it).",
            result_schema: object(),
            errors: &[NOT_OPEN, NOT_FOUND, STORAGE],
        },
        Method {
            name: "session.compact",
            summary: "Compact an idle session now: the model summarizes the context before its most recent part (about `compaction.keep-tokens` estimated tokens, never separating a tool call from its results), which stays verbatim; later requests start from the summary. History is kept. Its `compaction_start`, `attempt` and `compaction_end` events are tagged with this request's id; the reply comes after the summary is recorded. A summary cut by the output limit, a cut stream or an error is not kept: the call fails and the context is unchanged.",
            params: vec![
                session(),
                p(
                    "instructions",
                    false,
                    string(),
                    "What the summary should focus on (given to the compaction plugin).",
                ),
                p(
                    "keep_tokens",
                    false,
                    json!({"type": "integer", "minimum": 0}),
                    "Estimated tokens of recent context kept verbatim; default: the `compaction.keep-tokens` setting.",
                ),
                p(
                    "model",
                    false,
                    string(),
                    "The model that writes the summary (PROVIDER/MODEL, alias or group); default: the `model` setting, else the session's last.",
                ),
                p(
                    "script",
                    false,
                    string(),
                    "A provider script file to play (the scripted provider only).",
                ),
            ],
            result: "`compaction` (the record's entry id), `summarized` and `kept` (context items), `first_kept` (entry id), `usage`, `cost_usd`.",
            result_schema: json!({"type": "object", "required": ["compaction", "summarized", "kept", "first_kept"], "properties": {"compaction": {"type": "integer"}, "summarized": {"type": "integer"}, "kept": {"type": "integer"}, "first_kept": {"type": "integer"}, "usage": {}, "cost_usd": {"type": ["number", "null"]}}}),
            errors: &[NOT_OPEN, READ_ONLY, BUSY, REFUSED, CONFIG, STORAGE],
        },
        Method {
            name: "session.set_permission_mode",
            summary: "Set the permission mode of an open session for its following runs (the `permissions` guide): `plan` (reads only; every write and program refused), `ask` (writes and programs ask, as `select_request`s answered with `request.respond`), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Without `mode`, the next one in that order. Every effect a policy plugin decides records the mode it was decided under.",
            params: vec![
                session(),
                p(
                    "mode",
                    false,
                    json!({"type": "string", "enum": ["plan", "ask", "auto-edit", "auto"]}),
                    "The mode; absent: the one after the current.",
                ),
            ],
            result: "`mode`: the mode the following runs use.",
            result_schema: json!({"type": "object", "required": ["mode"], "properties": {"mode": {"type": "string", "enum": ["plan", "ask", "auto-edit", "auto"]}}}),
            errors: &[NOT_OPEN, READ_ONLY],
        },
        Method {
            name: "session.edit",
            summary: "Edit what the model sees without rewriting history: omit or replace the model-visible content of earlier messages and tool results on the selected branch, validated whole (pairing kept), as one appended record.",
            params: vec![
                session(),
                p(
                    "omit",
                    false,
                    json!({"type": "array", "items": entry()}),
                    "Entries to omit.",
                ),
                p(
                    "replace",
                    false,
                    json!({"type": "array", "items": {"type": "object", "required": ["entry", "text"], "properties": {"entry": entry(), "text": {"type": "string"}}}}),
                    "Entries whose content is replaced by `text`.",
                ),
            ],
            result: "`edit`: the context edit's entry id.",
            result_schema: json!({"type": "object", "properties": {"edit": {"type": "integer"}}}),
            errors: &[NOT_OPEN, READ_ONLY, BUSY, REFUSED, STORAGE],
        },
    ]
    .into_iter()
    .chain(history::methods())
    .chain(commands::methods())
    .chain(vec![
        Method {
            name: "receipts.get",
            summary: "One submission's receipt, from the committed file (retrievable after reopen).",
            params: vec![session(), p("submission", true, entry(), "The submission.")],
            result: "The receipt view (as `smith sessions receipts --json` prints it).",
            result_schema: receipt(),
            errors: &[NOT_OPEN, NOT_FOUND, STORAGE],
        },
        Method {
            name: "receipts.list",
            summary: "Every receipt of the session, in admission order.",
            params: vec![session()],
            result: "`receipts`.",
            result_schema: json!({"type": "object", "properties": {"receipts": {"type": "array", "items": receipt()}}}),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "queue.steer",
            summary: "Queue input to be delivered into the running work at its next safe point (steering), by the queue policy.",
            params: enqueue_params(),
            result: "`submission`: the queued input's id; `deduplicated`: true when its `dedup_key` repeated earlier input with the same content (that input's id is returned, nothing was queued again).",
            result_schema: json!({"type": "object", "properties": {"submission": {"type": "integer"}, "deduplicated": {"type": "boolean"}}, "required": ["submission", "deduplicated"]}),
            errors: &[NOT_OPEN, READ_ONLY, REFUSED, CONFIG, STORAGE],
        },
        Method {
            name: "queue.follow_up",
            summary: "Queue input to be delivered when the running work would otherwise stop: it continues that work with another round (a follow-up), by the queue policy.",
            params: enqueue_params(),
            result: "`submission`: the queued input's id; `deduplicated`: true when its `dedup_key` repeated earlier input with the same content (that input's id is returned, nothing was queued again).",
            result_schema: json!({"type": "object", "properties": {"submission": {"type": "integer"}, "deduplicated": {"type": "boolean"}}, "required": ["submission", "deduplicated"]}),
            errors: &[NOT_OPEN, READ_ONLY, REFUSED, CONFIG, STORAGE],
        },
        Method {
            name: "queue.list",
            summary: "The input waiting in the session's queue, in delivery order; for an observer, as the committed file shows it (queued, not yet delivered or withdrawn).",
            params: vec![session()],
            result: "`queued`: `submission`, `delivery`, `input`.",
            result_schema: json!({"type": "object", "properties": {"queued": {"type": "array"}}}),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "queue.withdraw",
            summary: "Withdraw queued input before it is delivered (recorded).",
            params: vec![
                session(),
                p("submission", true, entry(), "The queued input."),
                p("reason", false, string(), "Why, recorded."),
            ],
            result: "`withdrawn`: the submission id.",
            result_schema: json!({"type": "object", "properties": {"withdrawn": {"type": "integer"}}}),
            errors: &[NOT_OPEN, READ_ONLY, STATE, STORAGE],
        },
        Method {
            name: "queue.clear",
            summary: "Withdraw every queued input (each recorded).",
            params: vec![session(), p("reason", false, string(), "Why, recorded.")],
            result: "`withdrawn`: the submission ids.",
            result_schema: json!({"type": "object", "properties": {"withdrawn": {"type": "array", "items": {"type": "integer"}}}}),
            errors: &[NOT_OPEN, READ_ONLY, STORAGE],
        },
        Method {
            name: "requests.list",
            summary: "The requests waiting for an answer in a session: questions a running tool call asked (`confirm_request`, `select_request`, `input_request` — e.g. the permission policy before a program in the `ask` mode). Each is `event` (the request as its event carried it), `work` (the asking submission) and `answerable` (false in a session another process writes: only that process can take the answer; its file shows the question).",
            params: vec![session()],
            result: "`requests`: `{event, work, answerable}` objects, in the order asked.",
            result_schema: json!({"type": "object", "properties": {"requests": {"type": "array", "items": {"type": "object", "properties": {"event": {"type": "object"}, "work": {"type": ["integer", "null"]}, "answerable": {"type": "boolean"}}}}}}),
            errors: &[NOT_OPEN, STORAGE],
        },
        Method {
            name: "request.respond",
            summary: "Answer a waiting request (its `request_id` from the `confirm_request`, `select_request` or `input_request` event, or `requests.list`): the asking tool call continues with the answer, which is recorded (a secret text as its length only). A request that waits when an observation starts is offered again on it, so a client that fell behind or came back is asked again; a request whose call ended (answered, aborted, or its process gone) is not waiting.",
            params: vec![
                session(),
                p("request_id", true, string(), "The request's id."),
                p(
                    "answer",
                    true,
                    json!({"type": ["boolean", "integer", "string"]}),
                    "`true`/`false` for a confirm_request, the chosen option's index (from 0) for a select_request, the text for an input_request.",
                ),
            ],
            result: "`answered`: the request's id.",
            result_schema: json!({"type": "object", "properties": {"answered": {"type": "string"}}}),
            errors: &[NOT_OPEN, READ_ONLY, NOT_FOUND],
        },
        Method {
            name: "rpc.cancel",
            summary: "Cancel a pending request of this connection (a `session.wait`): it is answered with `cancelled`. Work is never touched — abort it with `session.abort`.",
            params: vec![p(
                "id",
                true,
                json!({"type": ["string", "integer"]}),
                "The id of the request to cancel.",
            )],
            result: "`cancelled`: whether a pending request had that id.",
            result_schema: json!({"type": "object", "properties": {"cancelled": {"type": "boolean"}}}),
            errors: &[],
        },
        Method {
            name: "models.list",
            summary: "The models the installed provider plugins serve, with capabilities and provenance (as `smith models --json`).",
            params: vec![],
            result: "`models`.",
            result_schema: json!({"type": "object", "properties": {"models": {"type": "array"}}}),
            errors: &[CONFIG],
        },
        Method {
            name: "tools.list",
            summary: "The active plugins' tools as a run from the server's directory would offer them, with their schemas and why any is withheld (as `smith tools list --json`).",
            params: vec![],
            result: "`tools`.",
            result_schema: json!({"type": "object", "properties": {"tools": {"type": "array"}}}),
            errors: &[CONFIG],
        },
        Method {
            name: "plugins.list",
            summary: "The known plugins: id, version, origin, whether enabled and what disabled it.",
            params: vec![],
            result: "`plugins`.",
            result_schema: json!({"type": "object", "properties": {"plugins": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "config.show",
            summary: "The resolved settings, each with the level that set it.",
            params: vec![],
            result: "`settings`: `key`, `value`, `source`.",
            result_schema: json!({"type": "object", "properties": {"settings": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "docs.search",
            summary: "Search the built-in documentation corpus (offline).",
            params: vec![
                p("query", true, string(), "Search words."),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1, "maximum": 50}),
                    "At most this many hits (default 10).",
                ),
            ],
            result: "`hits`: `id`, `title`, `snippet`.",
            result_schema: json!({"type": "object", "properties": {"hits": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "docs.get",
            summary: "One document of the corpus, or a range of its lines.",
            params: vec![
                p(
                    "id",
                    true,
                    string(),
                    "The document id (from `docs.search`).",
                ),
                p(
                    "offset",
                    false,
                    json!({"type": "integer", "minimum": 1}),
                    "The first line (1-based; default 1).",
                ),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1}),
                    "At most this many lines (default: to the end).",
                ),
            ],
            result: "`id`, `title`, `text`, `offset` (its first line), `total` (the document's lines) and `more`.",
            result_schema: object(),
            errors: &[NOT_FOUND],
        },
    ])
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
