//! The recording half of a run: admission, messages, tool results, checkpoints, deliveries
//! and the streamed response, each made durable before its end intent is emitted.

use smith::{
    ContentBlock, ContextItem, EntryId, Message, ModelRef, Provider, ProviderError,
    ProviderErrorKind, ProviderRequest, Role, StopReason, StreamEvent, ToolCall, ToolResult, Usage,
    UsageTotals,
};
use smith_store::{
    Checkpoint, MessageRecord, ModelChange, NewEntry, Record, RunEnd, Submission, ToolResultRecord,
};
use smith_ui_intents::{DeltaKind, Intent, ReceiptStatus};

use crate::RunError;
use crate::run::Run;
use crate::work::Live;

/// One streamed response, assembled.
pub(crate) struct Response {
    pub(crate) message: Message,
    pub(crate) stop_reason: StopReason,
    pub(crate) usage: Option<Usage>,
    pub(crate) error: Option<ProviderError>,
}

impl Run<'_> {
    /// Admission: the submission, the model selection when it changed, and the user message,
    /// committed as one change (durable when this returns), then the receipt.
    pub(crate) fn admit(&mut self, model: &ModelRef, prompt: &str) -> Result<(), RunError> {
        // Work state before writer, always (the inbox takes them in this order too).
        let work = std::sync::Arc::clone(&self.session.work);
        let mut state = crate::inbox::lock(&work);
        let mut writer = self.session.writer.lock();
        let destination = writer.leaf();
        let mut entries = vec![NewEntry::from(Record::Submission(Submission {
            session: Some(self.session.id()),
            dedup_key: self.dedup_key.clone(),
            content_sha256: crate::submission::content_sha256(model, prompt),
            destination,
            explicit_destination: self.explicit_destination,
            model: model.clone(),
            input: prompt.to_owned(),
            owner: None,
            delivery: None,
            policy: None,
        }))];
        let model_changed = self.session.model.as_ref() != Some(model);
        if model_changed {
            entries.push(NewEntry::from(Record::ModelChange(ModelChange {
                model: model.clone(),
            })));
        }
        let message = Message::user_text(prompt);
        entries.push(NewEntry::from(Record::Message(MessageRecord {
            message: message.clone(),
            model: None,
            stop_reason: None,
            usage: None,
            error: None,
        })));
        let reserved = writer.next_entry_id().0 + entries.len() as u64 - 1;
        let appended = writer.append_entries(&entries);
        drop(writer);
        self.sink.emit(Intent::MessageStart {
            message_id: reserved,
            role: Role::User,
        });
        let recorded = appended.is_ok();
        self.sink.emit(Intent::MessageEnd {
            message_id: reserved,
            message: message.clone(),
            stop_reason: None,
            usage: None,
            recorded,
        });
        let ids = appended?;
        if let Some(id) = ids.first() {
            state.live.insert(
                *id,
                Live {
                    owner: None,
                    depth: 1,
                    started: true,
                    model: model.clone(),
                    input: prompt.to_owned(),
                },
            );
        }
        drop(state);
        if model_changed {
            self.session.model = Some(model.clone());
        }
        self.session.context.push(ContextItem::Message(message));
        self.submission = ids.first().copied();
        if let Some(submission) = self.submission {
            {
                let mut state = crate::inbox::lock(&self.session.work);
                state.running = Some((submission, self.cancel.clone()));
                state.abort_recorded = false;
            }
            self.abort_watch = Some(crate::abort::AbortWatch::start(
                self.session.writer.clone(),
                std::sync::Arc::clone(&self.session.work),
                self.cancel.clone(),
                submission,
            ));
        }
        self.sink.emit(Intent::Receipt {
            submission: ids.first().map_or(0, |id| id.0),
            dedup_key: self.dedup_key.clone(),
            deduplicated: false,
            state: ReceiptStatus::Admitted,
            stop_reason: None,
        });
        Ok(())
    }

    pub(crate) fn record_message(&mut self, record: MessageRecord) -> Result<(), RunError> {
        let role = record.message.role;
        if role == Role::User {
            self.sink.emit(Intent::MessageStart {
                message_id: self.session.writer.lock().next_entry_id().0,
                role,
            });
        }
        let reserved = self.session.writer.lock().next_entry_id().0;
        let appended = self
            .session
            .writer
            .lock()
            .append(&[Record::Message(record.clone())]);
        let recorded = appended.is_ok();
        if let (Role::Assistant, Ok(ids)) = (role, &appended) {
            self.session.call_message = ids.first().copied();
        }
        if recorded {
            self.session
                .context
                .push(ContextItem::Message(record.message.clone()));
        }
        // The end closes the started message even when it could not be recorded, so consumers
        // never see a message left open; `recorded: false` says it is not in the session.
        self.sink.emit(Intent::MessageEnd {
            message_id: appended
                .as_ref()
                .ok()
                .and_then(|ids| ids.first())
                .map_or(reserved, |id| id.0),
            message: record.message,
            stop_reason: record.stop_reason,
            usage: record.usage,
            recorded,
        });
        appended?;
        Ok(())
    }

    /// Record `result` of `call`, with the work's `checkpoint` in the same committed change
    /// when the result completes the batch.
    pub(crate) fn record_result(
        &mut self,
        call: &ToolCall,
        result: ToolResult,
        checkpoint: Option<Checkpoint>,
    ) -> Result<(), RunError> {
        let mut entries = vec![NewEntry {
            record: Record::ToolResult(ToolResultRecord {
                result: result.clone(),
            }),
            pair: self.session.call_message,
        }];
        if let (Some(checkpoint), Some(work)) = (checkpoint, self.submission) {
            entries.push(NewEntry {
                record: Record::Checkpoint(checkpoint),
                pair: Some(work),
            });
        }
        let ids = self.session.writer.lock().append_entries(&entries)?;
        self.session
            .context
            .push(ContextItem::ToolResult(result.clone()));
        self.sink.emit(Intent::ToolEnd {
            call_id: call.id.clone(),
            name: call.name.clone(),
            entry_id: ids.first().map_or(0, |id| id.0),
            output: result.output,
            is_error: result.is_error,
        });
        Ok(())
    }

    /// Deliver queued input `ids` (validated by the lifecycle): their user messages, each
    /// paired with its submission, as one committed change at a safe point; then into the
    /// context. Input withdrawn meanwhile is skipped.
    pub(crate) fn deliver(&mut self, ids: &[EntryId]) -> Result<(), RunError> {
        if ids.is_empty() {
            return Ok(());
        }
        let work = std::sync::Arc::clone(&self.session.work);
        let mut state = crate::inbox::lock(&work);
        let items: Vec<crate::QueuedInput> = ids
            .iter()
            .filter_map(|id| state.queue.iter().find(|q| q.submission == *id).cloned())
            .collect();
        if items.is_empty() {
            return Ok(());
        }
        let entries: Vec<NewEntry> = items
            .iter()
            .map(|q| NewEntry {
                record: Record::Message(MessageRecord {
                    message: Message::user_text(&q.input),
                    model: None,
                    stop_reason: None,
                    usage: None,
                    error: None,
                }),
                pair: Some(q.submission),
            })
            .collect();
        let first = self.session.writer.lock().next_entry_id().0;
        let appended = self.session.writer.lock().append_entries(&entries);
        let recorded = appended.is_ok();
        if recorded {
            state.queue.retain(|q| !ids.contains(&q.submission));
        }
        drop(state);
        for (n, q) in items.iter().enumerate() {
            let message = Message::user_text(&q.input);
            let message_id = first + n as u64;
            self.sink.emit(Intent::MessageStart {
                message_id,
                role: Role::User,
            });
            self.sink.emit(Intent::MessageEnd {
                message_id,
                message: message.clone(),
                stop_reason: None,
                usage: None,
                recorded,
            });
            if recorded {
                self.session.context.push(ContextItem::Message(message));
            }
        }
        appended?;
        Ok(())
    }

    /// Start child work `child`: its user message paired with it (and the model selection
    /// when it differs), as one committed change.
    pub(crate) fn deliver_child(
        &mut self,
        child: EntryId,
        model: &ModelRef,
        input: &str,
    ) -> Result<(), RunError> {
        let mut entries = Vec::new();
        let model_changed = self.session.model.as_ref() != Some(model);
        if model_changed {
            entries.push(NewEntry::from(Record::ModelChange(ModelChange {
                model: model.clone(),
            })));
        }
        let message = Message::user_text(input);
        entries.push(NewEntry {
            record: Record::Message(MessageRecord {
                message: message.clone(),
                model: None,
                stop_reason: None,
                usage: None,
                error: None,
            }),
            pair: Some(child),
        });
        let message_id = self.session.writer.lock().next_entry_id().0 + entries.len() as u64 - 1;
        self.sink.emit(Intent::MessageStart {
            message_id,
            role: Role::User,
        });
        let appended = self.session.writer.lock().append_entries(&entries);
        self.sink.emit(Intent::MessageEnd {
            message_id,
            message: message.clone(),
            stop_reason: None,
            usage: None,
            recorded: appended.is_ok(),
        });
        appended?;
        if model_changed {
            self.session.model = Some(model.clone());
        }
        self.session.context.push(ContextItem::Message(message));
        Ok(())
    }

    /// End child work `child` of `owner` that never started (its owner did not succeed or
    /// was aborted): an aborted end paired with it, so it never silently detaches.
    pub(crate) fn end_unstarted(
        &mut self,
        child: EntryId,
        owner: EntryId,
    ) -> Result<(), smith_store::Error> {
        let mut state = crate::inbox::lock(&self.session.work);
        self.session.writer.lock().append_entries(&[NewEntry {
            record: Record::RunEnd(RunEnd {
                stop_reason: StopReason::Aborted,
                usage: UsageTotals::default(),
                error: Some(format!(
                    "not started: the work that owns it ({owner}) was aborted or failed before it could run"
                )),
            }),
            pair: Some(child),
        }])?;
        state.live.remove(&child);
        Ok(())
    }

    /// Play one provider response, enforcing exactly one terminal event and observing
    /// cancellation between events.
    pub(crate) fn stream(
        &mut self,
        provider: &dyn Provider,
        request: &ProviderRequest,
    ) -> Result<Response, RunError> {
        let events = provider
            .stream(request, self.cancel)
            .map_err(RunError::Provider)?;
        let message_id = self.session.writer.lock().next_entry_id().0;
        self.sink.emit(Intent::MessageStart {
            message_id,
            role: Role::Assistant,
        });
        let mut content: Vec<ContentBlock> = Vec::new();
        let mut usage = None;
        let mut terminal = None;
        for event in events {
            match event {
                StreamEvent::TextDelta { text } => {
                    push_delta(&mut content, DeltaKind::Text, &text);
                    self.sink.emit(Intent::MessageDelta {
                        message_id,
                        kind: DeltaKind::Text,
                        text,
                    });
                }
                StreamEvent::ThinkingDelta { text } => {
                    push_delta(&mut content, DeltaKind::Thinking, &text);
                    self.sink.emit(Intent::MessageDelta {
                        message_id,
                        kind: DeltaKind::Thinking,
                        text,
                    });
                }
                StreamEvent::ToolCall(call) => {
                    let repeated = content
                        .iter()
                        .any(|b| matches!(b, ContentBlock::ToolCall(c) if c.id == call.id));
                    if repeated {
                        // Recording both would break call/result pairing for every later
                        // request of the session: the response is malformed.
                        terminal = Some((
                            StopReason::Error,
                            Some(ProviderError::new(
                                ProviderErrorKind::Malformed,
                                format!(
                                    "the provider sent tool call id `{}` twice in one response; the response was recorded up to the repeat and failed — retry the prompt",
                                    call.id
                                ),
                            )),
                        ));
                        break;
                    }
                    content.push(ContentBlock::ToolCall(call));
                }
                StreamEvent::Usage(u) => usage = Some(u),
                StreamEvent::Stop { reason } => {
                    terminal = Some((reason, None));
                    break;
                }
                StreamEvent::Error(e) => {
                    terminal = Some((StopReason::Error, Some(e)));
                    break;
                }
            }
            if self.cancel.is_cancelled() {
                terminal = Some((StopReason::Aborted, None));
                break;
            }
        }
        let (stop_reason, error) = terminal.unwrap_or_else(|| {
            (
                StopReason::Error,
                Some(ProviderError::new(
                    ProviderErrorKind::Malformed,
                    "the response stream ended before its terminal event (connection cut or malformed stream); the partial response was recorded as failed — retry the prompt",
                )),
            )
        });
        Ok(Response {
            message: Message {
                role: Role::Assistant,
                content,
            },
            stop_reason,
            usage,
            error,
        })
    }
}

/// Extend the last block of `kind`, or start one.
fn push_delta(content: &mut Vec<ContentBlock>, kind: DeltaKind, text: &str) {
    match (content.last_mut(), kind) {
        (Some(ContentBlock::Text { text: t }), DeltaKind::Text)
        | (Some(ContentBlock::Thinking { text: t }), DeltaKind::Thinking) => t.push_str(text),
        (_, DeltaKind::Text) => content.push(ContentBlock::Text {
            text: text.to_owned(),
        }),
        (_, DeltaKind::Thinking) => content.push(ContentBlock::Thinking {
            text: text.to_owned(),
        }),
    }
}
