//! The declarations of the methods on submissions and what waits: receipts, the input queue,
//! pending requests (asks) and cancelling a wait (`receipts.*`, `queue.*`, `requests.list`,
//! `request.respond`, `rpc.cancel`).

use serde_json::json;

use super::code::*;
use super::{Method, enqueue_params, entry, p, receipt, session, string};

/// The receipt, queue and request methods, in the order the reference lists them.
pub(super) fn methods() -> Vec<Method> {
    vec![
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
    ]
}
