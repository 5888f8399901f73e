//! `session/prompt` and `session/cancel`: a prompt's content as Smith's prompt, the turn on the
//! session's runner, its intents as `session/update` notifications, and its questions as
//! `session/request_permission` requests answered through the session's inbox.

use std::sync::Arc;

use agent_client_protocol_schema::v1::{
    CancelNotification, ContentBlock, EmbeddedResourceResource, PermissionOption,
    PermissionOptionKind, PromptRequest, PromptResponse, RequestPermissionOutcome,
    RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, StopReason, ToolCallStatus,
    ToolCallUpdate, ToolCallUpdateFields,
};
use serde_json::{Map, Value};
use smith::{Answer, Cancel, Question};
use smith_app::prompt::Prompt;
use smith_app::runner::{Inbox, RunnerError, Submission};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::{INTERNAL_ERROR, INVALID_REQUEST};
use smith_ui_intents::{Delivery, Intent, IntentSink};

use crate::commands::Resolved;
use crate::server::{Server, invalid_params, lock, parse, to_value, update};
use crate::sessions::{self, Slot};

/// The text of a `file://` URI's path, percent-decoded; `None` for another scheme.
fn file_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let mut out = Vec::with_capacity(rest.len());
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A prompt's content blocks as Smith's prompt: text in order, a resource link named by its
/// path (a `file://` link) or URI, an embedded text resource inline with its URI, images
/// attached.
///
/// Also the text of the first block when it is text — where a `/command` is read — and what
/// the blocks after it came to, which a command's own text is followed by.
///
/// # Errors
/// Invalid params naming the block: audio, a binary resource that is not an image, an image
/// of a type models do not take.
fn content(blocks: &[ContentBlock]) -> Result<(Prompt, Option<String>, String), ErrorObject> {
    let first = match blocks.first() {
        Some(ContentBlock::Text(t)) => Some(t.text.clone()),
        _ => None,
    };
    let mut prompt = Prompt::literal(String::new());
    let mut push = |text: &str| {
        if !prompt.text.is_empty() && !prompt.text.ends_with('\n') {
            prompt.text.push('\n');
        }
        prompt.text.push_str(text);
    };
    let mut images = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block {
            ContentBlock::Text(t) => push(&t.text),
            ContentBlock::ResourceLink(link) => {
                let place = file_path(&link.uri).unwrap_or_else(|| link.uri.clone());
                push(&format!("[{}]({place})", link.name));
            }
            ContentBlock::Resource(resource) => match &resource.resource {
                EmbeddedResourceResource::TextResourceContents(r) => {
                    let place = file_path(&r.uri).unwrap_or_else(|| r.uri.clone());
                    push(&format!("Contents of {place}:\n````\n{}\n````", r.text));
                }
                EmbeddedResourceResource::BlobResourceContents(r) => {
                    let image = r
                        .mime_type
                        .as_deref()
                        .filter(|m| smith::Image::MEDIA_TYPES.contains(m));
                    match image {
                        Some(m) => images.push(smith::Image {
                            media_type: m.to_owned(),
                            data: r.blob.clone(),
                        }),
                        None => {
                            return Err(invalid_params(
                                &format!("prompt[{i}]"),
                                &format!(
                                    "text, a resource link, a text resource or an image: the binary resource {} is none (attach it as a resource link instead)",
                                    r.uri
                                ),
                            ));
                        }
                    }
                }
                _ => {
                    return Err(invalid_params(
                        &format!("prompt[{i}]"),
                        "a text or blob resource",
                    ));
                }
            },
            ContentBlock::Image(image) => {
                if !smith::Image::MEDIA_TYPES.contains(&image.mime_type.as_str()) {
                    return Err(invalid_params(
                        &format!("prompt[{i}].mimeType"),
                        &format!(
                            "one of {} (got {:?})",
                            smith::Image::MEDIA_TYPES.join(", "),
                            image.mime_type
                        ),
                    ));
                }
                images.push(smith::Image {
                    media_type: image.mime_type.clone(),
                    data: image.data.clone(),
                });
            }
            _ => {
                return Err(invalid_params(
                    &format!("prompt[{i}]"),
                    "text, an image, a resource link or a resource (audio is not taken: the agent's initialize answer says `audio: false`)",
                ));
            }
        }
    }
    prompt.images = images;
    let rest = match &first {
        Some(text) => prompt.text[text.len()..]
            .trim_start_matches('\n')
            .to_owned(),
        None => String::new(),
    };
    Ok((prompt, first, rest))
}

/// A turn's sink: updates to the client, questions as permission requests.
struct TurnSink<'a> {
    server: &'a Arc<Server>,
    slot: &'a Arc<Slot>,
}

impl TurnSink<'_> {
    /// Put question `request_id` to the client as a permission request for the running call.
    fn ask(&self, request_id: String, question: &Question) -> Delivery {
        let options: Vec<PermissionOption> = match question {
            Question::Select { options, .. } => options
                .iter()
                .enumerate()
                .map(|(i, label)| PermissionOption::new(i.to_string(), label.clone(), kind(label)))
                .collect(),
            Question::Confirm { .. } => vec![
                PermissionOption::new("yes", "Yes", PermissionOptionKind::AllowOnce),
                PermissionOption::new("no", "No", PermissionOptionKind::RejectOnce),
            ],
            Question::Input { .. } => {
                return Delivery::Refused {
                    reason: "smith acp cannot ask for text: ACP v1 has no request for it"
                        .to_owned(),
                };
            }
        };
        let running = lock(&self.slot.updates)
            .running_call()
            .map(|(id, _)| id.to_owned());
        // The options that let the call go on: choosing one puts it back in progress.
        let allowing: Vec<String> = options
            .iter()
            .filter(|o| {
                matches!(
                    o.kind,
                    PermissionOptionKind::AllowOnce | PermissionOptionKind::AllowAlways
                )
            })
            .map(|o| o.option_id.0.to_string())
            .collect();
        let fields = ToolCallUpdateFields::new();
        let call = match running.clone() {
            Some(id) => ToolCallUpdate::new(id, fields),
            // A question outside a tool call: a call of its own, titled by the question.
            None => ToolCallUpdate::new(
                format!("question-{request_id}"),
                fields.title(question.prompt().to_owned()),
            ),
        };
        let request = RequestPermissionRequest::new(self.slot.id.to_string(), call, options);
        let Ok(params) = to_value(&request) else {
            return Delivery::Refused {
                reason: "the permission request could not be encoded".to_owned(),
            };
        };
        let inbox = self.slot.inbox.clone();
        let confirm = matches!(question, Question::Confirm { .. });
        let session = self.slot.id;
        // A call awaiting approval is `pending` (ACP's status for it) until it is answered.
        let status = move |server: &Server, id: &str, status: ToolCallStatus| {
            server.notify(
                "session/update",
                update(
                    session,
                    SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                        id.to_owned(),
                        ToolCallUpdateFields::new().status(status),
                    )),
                ),
            );
        };
        if let Some(id) = &running {
            status(self.server, id, ToolCallStatus::Pending);
        }
        let server = Arc::clone(self.server);
        self.server.request(
            "session/request_permission",
            params,
            Box::new(move |outcome| {
                let chosen = outcome
                    .as_ref()
                    .ok()
                    .and_then(|v| v["outcome"]["optionId"].as_str().map(str::to_owned));
                settle(&inbox, &request_id, confirm, outcome);
                if let (Some(id), Some(chosen)) = (&running, chosen)
                    && allowing.contains(&chosen)
                {
                    status(&server, id, ToolCallStatus::InProgress);
                }
            }),
        );
        Delivery::Shown
    }
}

/// The kind of a permission option by its label (the permissions plugin's: `Deny`, `Allow
/// once`, `Allow … for the rest of this session`, `Allow … always in this project`): `Deny`/
/// `Reject…`/`No` reject, a choice that lasts (`always`, `for the rest of`) is remembered,
/// anything else allows once.
fn kind(label: &str) -> PermissionOptionKind {
    let l = label.to_lowercase();
    let always = l.contains("always") || l.contains("for the rest of");
    match (
        l.starts_with("deny") || l.starts_with("reject") || l == "no",
        always,
    ) {
        (true, true) => PermissionOptionKind::RejectAlways,
        (true, false) => PermissionOptionKind::RejectOnce,
        (false, true) => PermissionOptionKind::AllowAlways,
        (false, false) => PermissionOptionKind::AllowOnce,
    }
}

/// Answer question `request_id` from the client's response to its permission request.
fn settle(inbox: &Inbox, request_id: &str, confirm: bool, outcome: Result<Value, ErrorObject>) {
    let answer = outcome
        .map_err(|e| {
            format!(
                "the editor answered the permission request with an error: {}",
                e.message
            )
        })
        .and_then(|v| {
            serde_json::from_value::<RequestPermissionResponse>(v).map_err(|e| {
                format!("the editor's answer to the permission request is malformed: {e}")
            })
        })
        .and_then(|r| match r.outcome {
            RequestPermissionOutcome::Selected(s) => {
                let id = s.option_id.0.to_string();
                match (confirm, id.as_str()) {
                    (true, "yes") => Ok(Answer::Confirm(true)),
                    (true, "no") => Ok(Answer::Confirm(false)),
                    (false, n) => n.parse::<u32>().map(Answer::Select).map_err(|_| {
                        format!("the editor chose option {id:?}, which was not offered")
                    }),
                    (true, _) => Err(format!(
                        "the editor chose option {id:?}, which was not offered"
                    )),
                }
            }
            _ => Err("the editor cancelled the permission request".to_owned()),
        });
    // The call may have ended meanwhile (cancelled): then nothing waits, and nothing is owed.
    // An answer the question does not take is a refusal, so the call never waits on.
    match answer {
        Ok(a) => {
            if let Err(e) = inbox.answer(request_id, a) {
                let _ = inbox.refuse(
                    request_id,
                    &format!("the editor's answer does not fit the question: {e}"),
                );
            }
        }
        Err(why) => {
            let _ = inbox.refuse(request_id, &why);
        }
    }
}

impl IntentSink for TurnSink<'_> {
    fn emit(&mut self, intent: Intent) -> Delivery {
        match intent {
            Intent::ConfirmRequest {
                request_id,
                prompt,
                default,
            } => self.ask(request_id, &Question::Confirm { prompt, default }),
            Intent::SelectRequest {
                request_id,
                prompt,
                options,
            } => self.ask(request_id, &Question::Select { prompt, options }),
            Intent::InputRequest {
                request_id,
                prompt,
                secret,
            } => self.ask(request_id, &Question::Input { prompt, secret }),
            Intent::Notice {
                level: smith_ui_intents::NoticeLevel::Warning | smith_ui_intents::NoticeLevel::Info,
                text,
            } => {
                // The editor's agent log, not the transcript (the renderer's rule).
                self.server
                    .diagnose(&format!("session {}: {text}", self.slot.id));
                Delivery::Shown
            }
            other => {
                let behind = self.server.behind();
                let updates = lock(&self.slot.updates).update(&other, behind);
                for u in updates {
                    self.server
                        .notify("session/update", update(self.slot.id, u));
                }
                Delivery::Shown
            }
        }
    }
}

/// Reserve the session a `session/prompt` names, on the reading thread before the prompt's
/// own thread starts: a `session/cancel` read after it finds the prompt's [`Cancel`], and a
/// second prompt is refused.
///
/// # Errors
/// Invalid params without a `sessionId`; not found for a session not open here; invalid
/// request while a prompt runs.
pub(crate) fn reserve(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<(Arc<Slot>, Cancel), ErrorObject> {
    let session = params
        .get("sessionId")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_params("sessionId", "a string: a session open here"))?;
    let slot = sessions::slot(server, session)?;
    let mut running = lock(&slot.running);
    if running.is_some() {
        return Err(ErrorObject::new(
            INVALID_REQUEST,
            format!(
                "session {} is already running a prompt: wait for its answer, or send `session/cancel` first; nothing was done",
                slot.id
            ),
        ));
    }
    let cancel = Cancel::new();
    *running = Some(cancel.clone());
    drop(running);
    Ok((slot, cancel))
}

/// `session/prompt` on the session [`reserve`] gave: the turn (or the command), answered with
/// its stop reason when it settles — `cancelled` whenever the client cancelled it, whatever
/// the cancellation cut short.
pub(crate) fn prompt(
    server: &Arc<Server>,
    params: Map<String, Value>,
    slot: &Arc<Slot>,
    cancel: &Cancel,
) -> Result<Value, ErrorObject> {
    let ran = (|| {
        let request: PromptRequest = parse("session/prompt", params)?;
        let (prompt, first, rest) = content(&request.prompt)?;
        // A command is read from the first block; the resources after it follow its text.
        let command = first
            .as_deref()
            .and_then(|first| crate::commands::resolve(server, slot, first));
        match command {
            None => run(server, slot, prompt, None, cancel),
            Some(Err(e)) => Err(e),
            Some(Ok(Resolved::Prompt { text, model })) => {
                let text = if rest.is_empty() {
                    text
                } else {
                    format!("{text}\n{rest}")
                };
                let prompt = Prompt { text, ..prompt };
                run(server, slot, prompt, model.as_deref(), cancel)
            }
            Some(Ok(Resolved::Verb(verb))) => verb_run(server, slot, verb, cancel),
            Some(Ok(Resolved::Continue)) => continue_run(server, slot, cancel),
        }
    })();
    // Continued, or settled by any other turn: no longer held.
    if let Some(runner) = lock(&slot.runner).as_ref() {
        slot.interrupted.store(
            runner.interrupted().is_some(),
            std::sync::atomic::Ordering::SeqCst,
        );
    }
    *lock(&slot.running) = None;
    let cancelled = cancel.is_cancelled();
    let end = match ran {
        Err(_) if cancelled => return to_value(&PromptResponse::new(StopReason::Cancelled)),
        other => other?,
    };
    match smith_render_acp::stop_reason(end.stop_reason) {
        Some(reason) => to_value(&PromptResponse::new(reason)),
        None if cancelled => to_value(&PromptResponse::new(StopReason::Cancelled)),
        None => Err(ErrorObject::new(
            INTERNAL_ERROR,
            match end.error {
                Some(e) => format!("the turn failed: {e}"),
                None => "the turn failed".to_owned(),
            },
        )),
    }
}

fn refused(e: RunnerError) -> ErrorObject {
    match e {
        RunnerError::EmptyInput => invalid_params("prompt", "content with some text or an image"),
        other => ErrorObject::new(INTERNAL_ERROR, format!("no turn was run: {other}")),
    }
}

/// The route a prompt runs on: `model` (a prompt command's own, for this turn) or the
/// session's.
fn spec(
    server: &Server,
    slot: &Slot,
    model: Option<&str>,
) -> Result<smith_app::RunSpec, ErrorObject> {
    let selection = match model {
        Some(m) => m.parse::<smith::Selection>().map_err(|e| {
            ErrorObject::new(
                INTERNAL_ERROR,
                format!("no turn was run: the command's model {m:?} is not a selection: {e}"),
            )
        })?,
        None => sessions::selection(slot)
            .map_err(|why| ErrorObject::new(INTERNAL_ERROR, format!("no turn was run: {why}")))?,
    };
    Ok(smith_app::RunSpec {
        selection,
        thinking: sessions::thinking(server, slot),
        script: server.script(),
    })
}

/// Carry out a command's verb on the session: what it did is said as the agent's message.
fn verb_run(
    server: &Arc<Server>,
    slot: &Arc<Slot>,
    verb: smith_app::product::wit::Verb,
    cancel: &Cancel,
) -> Result<smith_app::runner::TurnEnd, ErrorObject> {
    use smith_app::product::wit::Verb;
    use smith_app::runner::{Command, CompactRequest, Done};
    let command = match verb {
        Verb::Compact(focus) => Command::Compact(CompactRequest {
            instructions: focus,
            ..CompactRequest::default()
        }),
        Verb::Undo(turn) => Command::Undo(smith_app::history::Step {
            turn,
            snapshot_first: false,
        }),
        Verb::Redo => Command::Redo(smith_app::history::Step::default()),
        _ => {
            return Err(ErrorObject::new(
                INVALID_REQUEST,
                "this command is not carried out in an editor",
            ));
        }
    };
    let spec = spec(server, slot, None)?;
    let mut guard = lock(&slot.runner);
    let Some(runner) = guard.as_mut() else {
        return Err(ErrorObject::new(INTERNAL_ERROR, "the session was closed"));
    };
    runner.prepare(spec).map_err(refused)?;
    let mut sink = TurnSink { server, slot };
    let done = runner.apply(command, &mut sink, cancel).map_err(|e| {
        ErrorObject::new(
            INTERNAL_ERROR,
            format!("the command was not carried out: {e}"),
        )
    })?;
    let said = match done {
        Done::Moved(m) => {
            let mut said = format!(
                "The working tree was put back: {} file(s) written, {} deleted.",
                m.written.len(),
                m.deleted.len()
            );
            // The editor's buffers were given the restored text; say what was not.
            for (path, why) in m.editor.iter().flat_map(|t| &t.failed) {
                said.push_str(&format!(
                    "\n{path} was restored on disk but not in the editor ({why}): reload it there."
                ));
            }
            said
        }
        Done::Compacted(_) => "The context was compacted.".to_owned(),
        _ => "Done.".to_owned(),
    };
    sink.emit(Intent::TranscriptAppend {
        entry_id: 0,
        source: "smith".to_owned(),
        text: said,
    });
    Ok(smith_app::runner::TurnEnd {
        submission: None,
        deduplicated: false,
        stop_reason: smith::StopReason::EndTurn,
        usage: smith::UsageTotals::default(),
        cost_usd: None,
        error: None,
    })
}

/// `/continue`: the held interrupted turn, continued on the model it recorded.
fn continue_run(
    server: &Arc<Server>,
    slot: &Arc<Slot>,
    cancel: &Cancel,
) -> Result<smith_app::runner::TurnEnd, ErrorObject> {
    let mut spec = spec(server, slot, None)?;
    let mut guard = lock(&slot.runner);
    let Some(runner) = guard.as_mut() else {
        return Err(ErrorObject::new(INTERNAL_ERROR, "the session was closed"));
    };
    if let Some(turn) = runner.interrupted() {
        spec.selection = turn.model.clone();
    }
    let mut sink = TurnSink { server, slot };
    runner
        .continue_interrupted(Some(spec), &mut sink, cancel)
        .map_err(|e| ErrorObject::new(INTERNAL_ERROR, format!("the turn was not continued: {e}")))
}

fn run(
    server: &Arc<Server>,
    slot: &Arc<Slot>,
    prompt: Prompt,
    model: Option<&str>,
    cancel: &Cancel,
) -> Result<smith_app::runner::TurnEnd, ErrorObject> {
    let spec = spec(server, slot, model)?;
    let mut guard = lock(&slot.runner);
    let Some(runner) = guard.as_mut() else {
        return Err(ErrorObject::new(
            INTERNAL_ERROR,
            "no turn was run: the session was closed",
        ));
    };
    runner.prepare(spec).map_err(refused)?;
    let mut sink = TurnSink { server, slot };
    runner
        .submit(
            Submission {
                prompt,
                ..Submission::default()
            },
            &mut sink,
            cancel,
        )
        .map_err(refused)
}

/// `session/cancel`: cancel the session's running prompt (nothing when none runs).
pub(crate) fn cancel(server: &Server, params: &Map<String, Value>) {
    match parse::<CancelNotification>("session/cancel", params.clone()) {
        Ok(n) => match sessions::slot(server, &n.session_id.0) {
            Ok(slot) => slot.cancel(),
            Err(e) => server.diagnose(&format!("session/cancel ignored: {}", e.message)),
        },
        Err(e) => server.diagnose(&format!("session/cancel ignored: {}", e.message)),
    }
}
