//! The recording half of a run: admission, messages, tool results, checkpoints, deliveries
//! and the streamed response, each made durable before its end intent is emitted.

use smith::{
    ContentBlock, ContextItem, EntryId, Message, ProviderError, ProviderErrorKind, Role, Selection,
    StopReason, StreamEvent, ToolCall, ToolResult, Usage, UsageTotals,
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
    /// The id its start and deltas carried.
    pub(crate) message_id: u64,
}

impl Run<'_> {
    /// Admission: the submission, the model selection when it changed, and the user message,
    /// committed as one change (durable when this returns), then the receipt.
    pub(crate) fn admit(&mut self, model: &Selection, prompt: &str) -> Result<(), RunError> {
        // Work state before writer, always (the inbox takes them in this order too).
        let work = std::sync::Arc::clone(&self.session.work);
        let mut state = crate::inbox::lock(&work);
        if state.sealed {
            return Err(RunError::Admission(crate::AdmissionError::Closed));
        }
        // The key is checked again under the work-state lock, so two admissions with one key
        // cannot both be written.
        if let Some(key) = &self.dedup_key {
            let content = crate::submission::content_sha256(model, prompt);
            if let Some(original) = crate::submission::deduplicate(
                self.session.path(),
                self.session.id(),
                key,
                &content,
                None,
            )
            .map_err(RunError::Admission)?
            {
                return Err(RunError::Admission(crate::AdmissionError::Raced {
                    key: key.clone(),
                    original: original.submission,
                }));
            }
        }
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
            attachments: std::mem::take(&mut self.attachments),
        }))];
        let model_changed = self.session.model.as_ref() != Some(model);
        if model_changed {
            entries.push(NewEntry::from(Record::ModelChange(ModelChange {
                model: model.clone(),
            })));
        }
        let mut message = Message::user_text(prompt);
        message.content.extend(
            std::mem::take(&mut self.images)
                .into_iter()
                .map(smith::ContentBlock::Image),
        );
        entries.push(NewEntry::from(Record::Message(MessageRecord {
            message: message.clone(),
            model: None,
            stop_reason: None,
            usage: None,
            error: None,
            attempt: None,
        })));
        let reserved = writer.next_entry_id().0 + entries.len() as u64 - 1;
        let appended = writer.append_entries(&entries);
        drop(writer);
        if let Ok(ids) = &appended
            && let Some(id) = ids.first()
        {
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
            state.running = Some((*id, self.cancel.clone()));
            state.abort_recorded = None;
        }
        // Intents go out with no lock held: a sink may consult the inbox.
        drop(state);
        self.sink.emit(Intent::MessageStart {
            message_id: reserved,
            role: Role::User,
        });
        let recorded = appended.is_ok();
        self.sink.emit(Intent::MessageEnd {
            message_id: reserved,
            entry_id: recorded.then_some(reserved),
            message: message.clone(),
            stop_reason: None,
            usage: None,
            recorded,
        });
        let ids = appended?;
        if model_changed {
            self.session.model = Some(model.clone());
        }
        self.session
            .push_context(EntryId(reserved), ContextItem::Message(message));
        self.submission = ids.first().copied();
        if let Some(submission) = self.submission {
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

    /// Record the assistant message whose start and deltas carried `message_id`.
    pub(crate) fn record_message(
        &mut self,
        record: MessageRecord,
        message_id: u64,
    ) -> Result<(), RunError> {
        let role = record.message.role;
        let appended = self
            .session
            .writer
            .lock()
            .append(&[Record::Message(record.clone())]);
        let recorded = appended.is_ok();
        if let (Role::Assistant, Ok(ids)) = (role, &appended) {
            self.session.call_message = ids.first().copied();
        }
        if let Ok(ids) = &appended
            && let Some(id) = ids.first()
        {
            self.session
                .push_context(*id, ContextItem::Message(record.message.clone()));
        }
        // The end closes the started message even when it could not be recorded, so consumers
        // never see a message left open; `recorded: false` says it is not in the session.
        self.sink.emit(Intent::MessageEnd {
            message_id,
            entry_id: appended
                .as_ref()
                .ok()
                .and_then(|ids| ids.first())
                .map(|id| id.0),
            message: record.message,
            stop_reason: record.stop_reason,
            usage: record.usage,
            recorded,
        });
        appended?;
        Ok(())
    }

    /// Record `result` of `call`, with the work's `checkpoint` and the batch's change of the
    /// working tree (`vcs`) in the same committed change when the result completes the batch.
    pub(crate) fn record_result(
        &mut self,
        call: &ToolCall,
        result: ToolResult,
        checkpoint: Option<Checkpoint>,
        vcs: Option<smith_store::VcsRecord>,
    ) -> Result<(), RunError> {
        let result = bounded(result);
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
        if let Some(vcs) = vcs {
            entries.push(NewEntry {
                record: Record::Vcs(vcs),
                pair: None,
            });
        }
        // Secrets the tool's plugin handed over are registered first, so the result (and all
        // that follows) is recorded redacted against them.
        let appended = self
            .session
            .record_handed_over()
            .and_then(|()| self.session.writer.lock().append_entries(&entries));
        let entry_id = appended
            .as_ref()
            .ok()
            .and_then(|ids| ids.first())
            .map(|id| id.0);
        if let Some(id) = entry_id {
            self.session
                .push_context(EntryId(id), ContextItem::ToolResult(result.clone()));
        }
        // Every tool start gets its end, recorded or not (eval-json invariant 4).
        self.sink.emit(Intent::ToolEnd {
            call_id: call.id.clone(),
            name: call.name.clone(),
            entry_id,
            output: result.output,
            is_error: result.is_error,
            recorded: appended.is_ok(),
        });
        appended?;
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
        let items: Vec<smith::QueuedInput> = ids
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
                    attempt: None,
                }),
                pair: Some(q.submission),
            })
            .collect();
        let (first, appended) = {
            let mut writer = self.session.writer.lock();
            (writer.next_entry_id().0, writer.append_entries(&entries))
        };
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
                entry_id: recorded.then_some(message_id),
                message: message.clone(),
                stop_reason: None,
                usage: None,
                recorded,
            });
            if recorded {
                self.session
                    .push_context(EntryId(message_id), ContextItem::Message(message));
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
        model: &Selection,
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
                attempt: None,
            }),
            pair: Some(child),
        });
        let (message_id, appended) = {
            let mut writer = self.session.writer.lock();
            let id = writer.next_entry_id().0 + entries.len() as u64 - 1;
            (id, writer.append_entries(&entries))
        };
        self.sink.emit(Intent::MessageStart {
            message_id,
            role: Role::User,
        });
        self.sink.emit(Intent::MessageEnd {
            message_id,
            entry_id: appended.is_ok().then_some(message_id),
            message: message.clone(),
            stop_reason: None,
            usage: None,
            recorded: appended.is_ok(),
        });
        appended?;
        if model_changed {
            self.session.model = Some(model.clone());
        }
        self.session
            .push_context(EntryId(message_id), ContextItem::Message(message));
        Ok(())
    }

    /// End child work `child` of `owner` that never started (its owner did not succeed or
    /// was aborted): an aborted end paired with it, so it never silently detaches.
    /// The whole subtree of `child` — its own unstarted children included, deepest first —
    /// ends in one committed change.
    pub(crate) fn end_unstarted(
        &mut self,
        child: EntryId,
        owner: EntryId,
    ) -> Result<(), smith_store::Error> {
        let mut state = crate::inbox::lock(&self.session.work);
        let mut subtree = vec![child];
        let mut at = 0;
        while at < subtree.len() {
            let parent = subtree[at];
            subtree.extend(
                state
                    .live
                    .iter()
                    .filter(|(_, l)| l.owner == Some(parent))
                    .map(|(id, _)| *id),
            );
            at += 1;
        }
        let entries: Vec<NewEntry> = subtree
            .iter()
            .rev()
            .map(|id| NewEntry {
                record: Record::RunEnd(RunEnd {
                    // Its own unstarted children end in this change, before it.
                    children: subtree
                        .iter()
                        .copied()
                        .filter(|c| state.live.get(c).and_then(|l| l.owner) == Some(*id))
                        .collect(),
                    stop_reason: StopReason::Aborted,
                    usage: UsageTotals::default(),
                    error: Some(format!(
                        "not started: the work that owns it ({}) was aborted or failed before it could run",
                        if *id == child {
                            owner
                        } else {
                            state.live.get(id).and_then(|l| l.owner).unwrap_or(owner)
                        }
                    )),
                    memory: None,
                }),
                pair: Some(*id),
            })
            .collect();
        self.session.writer.lock().append_entries(&entries)?;
        for id in subtree {
            state.live.remove(&id);
        }
        Ok(())
    }

    /// Play one provider response, enforcing exactly one terminal event and observing
    /// cancellation between events.
    pub(crate) fn play(&mut self, events: smith::EventStream<'_>) -> Result<Response, RunError> {
        let message_id = self.session.writer.lock().next_entry_id().0;
        let quiet = self.quiet;
        if !quiet {
            self.sink.emit(Intent::MessageStart {
                message_id,
                role: Role::Assistant,
            });
        }
        let mut content: Vec<ContentBlock> = Vec::new();
        let mut usage = None;
        let mut terminal = None;
        for event in events {
            match event {
                StreamEvent::TextDelta { text } => {
                    push_delta(&mut content, DeltaKind::Text, &text);
                    if !quiet {
                        self.sink.emit(Intent::MessageDelta {
                            message_id,
                            kind: DeltaKind::Text,
                            text,
                        });
                    }
                }
                StreamEvent::ThinkingDelta { text } => {
                    push_delta(&mut content, DeltaKind::Thinking, &text);
                    if !quiet {
                        self.sink.emit(Intent::MessageDelta {
                            message_id,
                            kind: DeltaKind::Thinking,
                            text,
                        });
                    }
                }
                StreamEvent::ThinkingSignature { signature } => {
                    // It closes the thinking just streamed (a later delta starts a new block).
                    match content.last_mut() {
                        Some(ContentBlock::Thinking { signature: s, .. }) if s.is_none() => {
                            *s = Some(signature);
                        }
                        _ => content.push(ContentBlock::Thinking {
                            text: String::new(),
                            signature: Some(signature),
                            redacted: false,
                        }),
                    }
                }
                StreamEvent::RedactedThinking { data } => content.push(ContentBlock::Thinking {
                    text: String::new(),
                    signature: Some(data),
                    redacted: true,
                }),
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
            message_id,
        })
    }
}

/// Extend the last block of `kind`, or start one.
fn push_delta(content: &mut Vec<ContentBlock>, kind: DeltaKind, text: &str) {
    match (content.last_mut(), kind) {
        (Some(ContentBlock::Text { text: t }), DeltaKind::Text)
        | (
            Some(ContentBlock::Thinking {
                text: t,
                signature: None,
                redacted: false,
            }),
            DeltaKind::Thinking,
        ) => t.push_str(text),
        (_, DeltaKind::Text) => content.push(ContentBlock::Text {
            text: text.to_owned(),
        }),
        (_, DeltaKind::Thinking) => content.push(ContentBlock::Thinking {
            text: text.to_owned(),
            signature: None,
            redacted: false,
        }),
    }
}

/// The most bytes of tool output recorded in a session; longer output is cut with a marker
/// (a session entry holds at most 16 MiB, and a result that could not be recorded would leave
/// its call unanswered).
pub const MAX_RECORDED_OUTPUT_BYTES: usize = 1 << 20;

fn bounded(mut result: ToolResult) -> ToolResult {
    if result.output.len() > MAX_RECORDED_OUTPUT_BYTES {
        let total = result.output.len();
        let mut cut = MAX_RECORDED_OUTPUT_BYTES;
        while !result.output.is_char_boundary(cut) {
            cut -= 1;
        }
        result.output.truncate(cut);
        result.output.push_str(&format!(
            "\n[output cut at {MAX_RECORDED_OUTPUT_BYTES} bytes of {total}: the tool produced more than a session records]"
        ));
    }
    result
}
