//! The declarations of the methods on one open session (`session.*`): submitting, continuing
//! and aborting work, waiting, observing, reading, usage, compaction, the permission mode and
//! context edits.

use serde_json::json;

use super::code::*;
use super::{Method, entry, object, p, receipt, session, string};

/// The `session.*` methods, in the order the reference lists them.
pub(super) fn methods() -> Vec<Method> {
    vec![
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
            errors: &[
                NOT_OPEN,
                READ_ONLY,
                BUSY,
                STATE,
                REFUSED,
                CONFIG,
                STORAGE,
                SHUTTING_DOWN,
            ],
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
}
