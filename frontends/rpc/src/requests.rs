//! The runtime's requests — questions a running tool call asks (`confirm_request`,
//! `select_request`, `input_request`, e.g. the permission policy before a program in the `ask` mode) — for the
//! client: `requests.list`, `request.respond`, and the offer made again to every observation
//! that starts while one waits (so a client that fell behind, or that observes again after a
//! reconnect, is asked again). A session another process writes lists the questions its file
//! holds without an answer; only the process running the call can take the answer.

use serde_json::{Value, json};
use smith::{Answer, SessionId};
use smith_render_jsonrpc::{ErrorObject, message::INVALID_PARAMS, notification};
use smith_ui_intents::Intent;

use crate::decl::code;
use crate::errors;
use crate::params::Params;
use crate::server::{Held, Opened, Server};

/// One waiting request: its request intent, and whether this server can take its answer.
pub(crate) struct Waiting {
    intent: Intent,
    work: Option<u64>,
    answerable: bool,
}

/// The requests waiting in `opened`: the running call's (writer), or those its file holds
/// without an answer (observer).
pub(crate) fn waiting(opened: &Opened) -> Result<Vec<Waiting>, ErrorObject> {
    match &opened.held {
        Held::Writer(w) => Ok(w.inbox().map_or_else(
            |_| Vec::new(),
            |inbox| {
                inbox
                    .waiting()
                    .into_iter()
                    .map(|a| Waiting {
                        intent: a.intent,
                        work: a.work.map(|w| w.0),
                        answerable: true,
                    })
                    .collect()
            },
        )),
        Held::Observer => {
            // Only a live writer can still be asking: a question left by a process that died
            // is settled as interrupted when the session is next opened for writing.
            let live = smith_store::SessionReader::open(&opened.path)
                .map(|r| r.live_writer())
                .map_err(|e| errors::store(&e))?;
            if !live {
                return Ok(Vec::new());
            }
            let open =
                smith_app::inspect::open_questions(&opened.path).map_err(|e| errors::store(&e))?;
            Ok(open
                .into_iter()
                .filter_map(|q| {
                    let prompt = q.question["prompt"].as_str().unwrap_or_default().to_owned();
                    let request_id = q.request_id;
                    let intent = match q.kind {
                        "confirm_request" => Intent::ConfirmRequest {
                            request_id,
                            prompt,
                            default: q.question["default"].as_bool(),
                        },
                        "select_request" => Intent::SelectRequest {
                            request_id,
                            prompt,
                            options: q.question["options"]
                                .as_array()
                                .map(|o| {
                                    o.iter()
                                        .filter_map(|v| v.as_str().map(str::to_owned))
                                        .collect()
                                })
                                .unwrap_or_default(),
                        },
                        "input_request" => Intent::InputRequest {
                            request_id,
                            prompt,
                            secret: q.question["secret"].as_bool().unwrap_or(true),
                        },
                        _ => return None,
                    };
                    Some(Waiting {
                        intent,
                        work: None,
                        answerable: false,
                    })
                })
                .collect())
        }
    }
}

fn view(w: &Waiting) -> Value {
    json!({"event": w.intent, "work": w.work, "answerable": w.answerable})
}

/// `requests.list`.
pub(crate) fn list(server: &Server, p: &Params) -> Result<Value, ErrorObject> {
    let o = server.opened(p)?;
    let requests: Vec<Value> = waiting(&o)?.iter().map(view).collect();
    Ok(json!({"requests": requests}))
}

/// The `session.event` lines that offer the waiting requests again, to an observation that
/// starts at `position`.
pub(crate) fn offers(opened: &Opened, position: u64) -> Vec<Value> {
    waiting(opened)
        .unwrap_or_default()
        .iter()
        .map(|w| offer(opened.id, position, w))
        .collect()
}

fn offer(session: SessionId, position: u64, w: &Waiting) -> Value {
    notification(
        "session.event",
        json!({"session": session, "position": position, "request": null, "event": w.intent, "again": true, "answerable": w.answerable}),
    )
}

/// `request.respond`.
pub(crate) fn respond(server: &Server, p: &Params) -> Result<Value, ErrorObject> {
    let o = server.opened(p)?;
    let inbox = o.writer()?.inbox().map_err(|_| not_waiting(p))?;
    let request_id = p.str("request_id").unwrap_or_default();
    let answer = match p.value("answer") {
        Some(Value::Bool(b)) => Answer::Confirm(*b),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|i| i <= u64::from(u32::MAX)) => {
            Answer::Select(u32::try_from(n.as_u64().unwrap_or_default()).unwrap_or(u32::MAX))
        }
        Some(Value::String(s)) => Answer::Text(s.clone()),
        _ => {
            return Err(bad_answer(
                request_id,
                "it is answered with true or false, an option's index (from 0), or a string",
            ));
        }
    };
    match inbox.answer(request_id, answer) {
        Ok(()) => Ok(json!({"answered": request_id})),
        Err(smith_app::RunnerError::BadAnswer { why, .. }) => {
            Err(bad_answer(request_id, &why.to_string()))
        }
        Err(_) => Err(not_waiting(p)),
    }
}

fn not_waiting(p: &Params) -> ErrorObject {
    let request_id = p.str("request_id").unwrap_or_default();
    ErrorObject {
        code: code::NOT_FOUND,
        message: format!(
            "request {request_id:?} is not waiting for an answer in session {} (it was answered, its tool call ended, or it was never asked); `requests.list` lists the waiting ones",
            p.str("session").unwrap_or_default()
        ),
        data: Some(json!({"field": "request_id", "request_id": request_id})),
    }
}

fn bad_answer(request_id: &str, why: &str) -> ErrorObject {
    ErrorObject {
        code: INVALID_PARAMS,
        message: format!(
            "`answer` does not answer request {request_id:?}: {why}; `requests.list` shows the question"
        ),
        data: Some(json!({"field": "answer", "expected": why})),
    }
}
