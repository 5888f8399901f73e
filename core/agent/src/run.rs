//! The agent loop.

use smith::{
    Cancel, ContentBlock, ContextItem, EntryId, Message, ModelRef, PairingError, Provider,
    ProviderError, ProviderErrorKind, ProviderRequest, Role, StopReason, StreamEvent, ToolCall,
    ToolResult, Usage, UsageTotals, check_pairing,
};
use smith_store::{
    MessageRecord, ModelChange, NewEntry, Record, RunEnd, Submission, ToolResultRecord,
};
use smith_ui_intents::{DeltaKind, Intent, IntentSink, ReceiptStatus};

use crate::submission::{AdmissionError, Receipt, ReceiptState};
use crate::{Session, ToolContext, ToolDispatch};

/// Bounds of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// The most provider rounds one run may take before it stops with
    /// [`RunError::RoundLimit`].
    pub max_rounds: u32,
}

impl Default for RunLimits {
    fn default() -> Self {
        Self { max_rounds: 64 }
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The provider could not be reached or its response failed.
    #[error("the provider failed: {0}")]
    Provider(ProviderError),
    /// The session could not record an event; nothing further was run.
    #[error("the session could not record the run, so it was stopped: {0}")]
    Store(#[from] smith_store::Error),
    /// The context to send broke tool-call pairing (a runtime defect; nothing was sent).
    #[error("the request was not sent because its context is inconsistent: {0}")]
    Pairing(#[from] PairingError),
    /// A deduplicated submission's original work failed or did not finish (its recorded
    /// failure).
    #[error("{0}")]
    Replayed(String),
    /// The run used up its rounds.
    #[error(
        "the run stopped after {limit} provider rounds without the model ending its turn; continue it with another prompt in the same session (--session ID)"
    )]
    RoundLimit {
        /// The limit that was reached.
        limit: u32,
    },
}

/// How a run ended.
#[derive(Debug)]
pub struct RunOutcome {
    /// The submission the run's work belongs to (its entry id), once admitted; for a
    /// deduplicated submission, the original one.
    pub submission: Option<EntryId>,
    /// The input repeated an earlier submission's deduplication key and content: nothing ran,
    /// and the fields describe the original work.
    pub deduplicated: bool,
    /// The final stop reason: `end_turn` or `max_tokens` on success, `aborted` after
    /// cancellation, `error` on failure.
    pub stop_reason: StopReason,
    /// Usage summed over the run's responses.
    pub usage: UsageTotals,
    /// The failure, when `stop_reason` is `error`.
    pub error: Option<RunError>,
}

/// The agent: a provider, the active tools and the run bounds.
pub struct Agent<'a> {
    provider: &'a dyn Provider,
    tools: &'a dyn ToolDispatch,
    limits: RunLimits,
    cwd: Option<std::path::PathBuf>,
}

/// The running state of one run.
struct Run<'r> {
    session: &'r mut Session,
    sink: &'r mut dyn IntentSink,
    cancel: &'r Cancel,
    usage: UsageTotals,
    /// The caller's deduplication key for this submission.
    dedup_key: Option<String>,
    /// The admitted submission, once durable.
    submission: Option<EntryId>,
    /// Records an abort request while the admitted work runs.
    abort_watch: Option<crate::abort::AbortWatch>,
}

/// Input to submit: the model to run it with, the text, and an optional deduplication key
/// (spec: Sessions → Submission and receipts).
#[derive(Clone, Copy, Debug)]
pub struct Submit<'s> {
    /// The model the work runs with.
    pub model: &'s ModelRef,
    /// The input text.
    pub input: &'s str,
    /// A key scoped to the session: repeating it with the same content returns the original
    /// submission instead of running again.
    pub dedup_key: Option<&'s str>,
}

impl<'a> Agent<'a> {
    /// An agent that talks to `provider` and dispatches to `tools`.
    pub fn new(provider: &'a dyn Provider, tools: &'a dyn ToolDispatch, limits: RunLimits) -> Self {
        Self {
            provider,
            tools,
            limits,
            cwd: None,
        }
    }

    /// Run tools in working directory `cwd` (the invocation context file tools resolve paths
    /// against; without one they refuse file effects).
    #[must_use]
    pub fn in_dir(mut self, cwd: std::path::PathBuf) -> Self {
        self.cwd = Some(cwd);
        self
    }

    /// Run `prompt` with `model` selected in `session` until an explicit stop condition,
    /// emitting intents into `sink` and observing `cancel` at every effect edge.
    ///
    /// Order of effects: the model selection (when it changed) and the user message are
    /// recorded before the first provider request; each assistant message and each tool result
    /// is recorded (durably acknowledged) before its end intent is emitted; a `run_end` record
    /// closes the run.
    pub fn run(
        &self,
        session: &mut Session,
        model: &ModelRef,
        prompt: &str,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> RunOutcome {
        self.run_new(session, model, prompt, None, sink, cancel)
    }

    /// Submit `input` to `session` and run its work to an explicit stop condition — the
    /// blocking convenience over admission and execution.
    ///
    /// Admission comes first: a `submission` record, the model selection when it changed and
    /// the user message are committed as one change and acknowledged durably (the receipt,
    /// emitted as [`Intent::Receipt`]) before any provider request. With a deduplication key
    /// that the session has seen with the same content, nothing is written or run: the
    /// original submission's receipt and recorded answer are emitted and its outcome returned
    /// (`deduplicated`). The same key with other content fails before anything is written.
    ///
    /// ```no_run
    /// # fn demo(agent: &smith_agent::Agent<'_>, session: &mut smith_agent::Session,
    /// #         model: &smith::ModelRef, sink: &mut dyn smith_ui_intents::IntentSink) {
    /// let submit = smith_agent::Submit { model, input: "Fix the test", dedup_key: Some("ci-42") };
    /// let outcome = agent.submit(session, submit, sink, &smith::Cancel::new()).unwrap();
    /// // A retry with the same key returns the same submission without running it again.
    /// let again = agent.submit(session, submit, sink, &smith::Cancel::new()).unwrap();
    /// assert!(again.deduplicated && again.submission == outcome.submission);
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`AdmissionError`] when the key is malformed or conflicts, or the session cannot be
    /// read for deduplication; nothing was written.
    pub fn submit(
        &self,
        session: &mut Session,
        submit: Submit<'_>,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> Result<RunOutcome, AdmissionError> {
        if let Some(key) = submit.dedup_key {
            let content = crate::submission::content_sha256(submit.model, submit.input);
            let original =
                crate::submission::deduplicate(session.path(), session.id(), key, &content, None)?;
            if let Some(receipt) = original {
                return Ok(replay(session.id(), &receipt, sink));
            }
        }
        Ok(self.run_new(
            session,
            submit.model,
            submit.input,
            submit.dedup_key,
            sink,
            cancel,
        ))
    }

    fn run_new(
        &self,
        session: &mut Session,
        model: &ModelRef,
        prompt: &str,
        dedup_key: Option<&str>,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> RunOutcome {
        sink.emit(Intent::RunStart {
            session: session.id(),
            model: model.clone(),
        });
        let mut run = Run {
            session,
            sink,
            cancel,
            usage: UsageTotals::default(),
            dedup_key: dedup_key.map(str::to_owned),
            submission: None,
            abort_watch: None,
        };
        let (stop_reason, error) = match self.rounds(&mut run, model, prompt) {
            Ok(reason) => (reason, None),
            Err(e) => (StopReason::Error, Some(e)),
        };
        if let Some(watch) = run.abort_watch.take() {
            watch.stop();
        }
        let error_text = error.as_ref().map(ToString::to_string);
        // Best effort: after a store failure this append is refused too, and says so below.
        // The end pairs with the submission: its terminal receipt.
        let end = run.session.writer.lock().append_entries(&[NewEntry {
            record: Record::RunEnd(RunEnd {
                stop_reason,
                usage: run.usage,
                error: error_text.clone(),
            }),
            pair: run.submission,
        }]);
        let error = match (error, end) {
            (Some(e), _) => Some(e),
            (None, Err(e)) => Some(RunError::Store(e)),
            (None, Ok(_)) => None,
        };
        let stop_reason = if error.is_some() {
            StopReason::Error
        } else {
            stop_reason
        };
        let usage = run.usage;
        run.sink.emit(Intent::RunEnd {
            stop_reason,
            usage,
            error: error.as_ref().map(ToString::to_string),
        });
        RunOutcome {
            submission: run.submission,
            deduplicated: false,
            stop_reason,
            usage,
            error,
        }
    }

    fn rounds(
        &self,
        run: &mut Run<'_>,
        model: &ModelRef,
        prompt: &str,
    ) -> Result<StopReason, RunError> {
        run.admit(model, prompt)?;
        let definitions = self.tools.definitions();
        for turn in 1..=self.limits.max_rounds {
            if run.cancel.is_cancelled() {
                return Ok(StopReason::Aborted);
            }
            run.sink.emit(Intent::TurnStart { turn });
            let request = ProviderRequest {
                model: model.clone(),
                instructions: None,
                context: run.session.context.clone(),
                tools: definitions.clone(),
            };
            check_pairing(&request.context)?;
            let response = run.stream(self.provider, &request)?;
            let calls: Vec<ToolCall> = response.message.tool_calls().cloned().collect();
            let stop = response.stop_reason;
            let failure = response.error.clone();
            // Count the observed usage first: a failure to record cannot erase it.
            run.usage.add(response.usage.as_ref());
            let message_id = run.session.writer.lock().next_entry_id().0;
            run.record_message(MessageRecord {
                message: response.message,
                model: Some(model.clone()),
                stop_reason: Some(stop),
                usage: response.usage,
                error: failure.as_ref().map(|e| e.message.clone()),
            })?;
            run.sink.emit(Intent::Usage {
                message_id,
                usage: response.usage,
                cost_usd: None,
            });
            for call in &calls {
                run.sink.emit(Intent::ToolStart {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    arguments: call.arguments.clone(),
                });
                let result = if stop != StopReason::ToolUse {
                    not_run(
                        call,
                        "the model's response did not end for tool use, so the call was not run",
                    )
                } else if run.cancel.is_cancelled() {
                    not_run(
                        call,
                        "the run was aborted before this call started; it was not run",
                    )
                } else {
                    self.dispatch(run, call, &definitions)
                };
                run.record_result(call, result)?;
            }
            run.sink.emit(Intent::TurnEnd {
                turn,
                stop_reason: stop,
            });
            match stop {
                StopReason::ToolUse if run.cancel.is_cancelled() => return Ok(StopReason::Aborted),
                StopReason::ToolUse => {}
                StopReason::Error => {
                    return Err(RunError::Provider(failure.unwrap_or_else(|| {
                        ProviderError::new(
                            ProviderErrorKind::Other,
                            "the provider reported an error",
                        )
                    })));
                }
                other => return Ok(other),
            }
        }
        Err(RunError::RoundLimit {
            limit: self.limits.max_rounds,
        })
    }

    fn dispatch(
        &self,
        run: &mut Run<'_>,
        call: &ToolCall,
        definitions: &[smith::ToolDefinition],
    ) -> ToolResult {
        if !definitions.iter().any(|d| d.name == call.name) {
            let active = if definitions.is_empty() {
                "none".to_owned()
            } else {
                definitions
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                output: format!(
                    "unknown tool `{}`: no active plugin provides a tool of that name (active tools: {active}); the call was not run",
                    call.name
                ),
                is_error: true,
            };
        }
        let (progress, updates) = std::sync::mpsc::channel::<String>();
        let context = ToolContext {
            cwd: self.cwd.clone(),
            journal: std::sync::Arc::new(run.session.journal()),
            cause: run.session.call_message,
            progress: Some(progress),
        };
        let tools = self.tools;
        let cancel = run.cancel;
        // The call runs on a worker thread; this thread relays its progress as tool updates
        // until the call returns (and drops its context, ending the channel).
        let joined = std::thread::scope(|scope| {
            let worker = scope.spawn(move || tools.call(call, &context, cancel));
            for text in updates {
                run.sink.emit(Intent::ToolUpdate {
                    call_id: call.id.clone(),
                    text,
                });
            }
            worker.join()
        });
        let out = joined.unwrap_or_else(|_| crate::ToolOutput {
            output: format!(
                "tool `{}` failed inside Smith (a defect: the dispatcher panicked); the call's effects, if any, are in the session",
                call.name
            ),
            is_error: true,
        });
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            output: out.output,
            is_error: out.is_error,
        }
    }
}

/// Emit a deduplicated submission's receipt and recorded answer, and return its outcome:
/// nothing runs and nothing is written.
fn replay(session: smith::SessionId, receipt: &Receipt, sink: &mut dyn IntentSink) -> RunOutcome {
    sink.emit(Intent::RunStart {
        session,
        model: receipt.model.clone(),
    });
    let (stop_reason, usage, error, status) = match &receipt.state {
        ReceiptState::Terminal {
            stop_reason,
            usage,
            error,
            ..
        } => (*stop_reason, *usage, error.clone(), ReceiptStatus::Terminal),
        ReceiptState::Admitted => (
            StopReason::Aborted,
            UsageTotals::default(),
            Some(format!(
                "submission {} has not finished; its work recorded no end",
                receipt.submission
            )),
            ReceiptStatus::Admitted,
        ),
    };
    sink.emit(Intent::Receipt {
        submission: receipt.submission.0,
        dedup_key: receipt.dedup_key.clone(),
        deduplicated: true,
        state: status,
        stop_reason: matches!(status, ReceiptStatus::Terminal).then_some(stop_reason),
    });
    if let Some((id, record)) = &receipt.answer {
        let message = &record.message;
        sink.emit(Intent::MessageStart {
            message_id: id.0,
            role: Role::Assistant,
        });
        for block in &message.content {
            let (kind, text) = match block {
                ContentBlock::Text { text } => (DeltaKind::Text, text),
                ContentBlock::Thinking { text, .. } => (DeltaKind::Thinking, text),
                ContentBlock::ToolCall(_) => continue,
            };
            sink.emit(Intent::MessageDelta {
                message_id: id.0,
                kind,
                text: text.clone(),
            });
        }
        sink.emit(Intent::MessageEnd {
            message_id: id.0,
            message: message.clone(),
            stop_reason: record.stop_reason,
            usage: record.usage,
            recorded: true,
        });
    }
    sink.emit(Intent::RunEnd {
        stop_reason,
        usage,
        error: error.clone(),
    });
    RunOutcome {
        submission: Some(receipt.submission),
        deduplicated: true,
        stop_reason,
        usage,
        error: error.map(RunError::Replayed),
    }
}

fn not_run(call: &ToolCall, why: &str) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        output: why.to_owned(),
        is_error: true,
    }
}

/// One streamed response, assembled.
struct Response {
    message: Message,
    stop_reason: StopReason,
    usage: Option<Usage>,
    error: Option<ProviderError>,
}

impl Run<'_> {
    /// Admission: the submission, the model selection when it changed, and the user message,
    /// committed as one change (durable when this returns), then the receipt.
    fn admit(&mut self, model: &ModelRef, prompt: &str) -> Result<(), RunError> {
        let mut writer = self.session.writer.lock();
        let destination = writer.leaf();
        let mut entries = vec![NewEntry::from(Record::Submission(Submission {
            session: Some(self.session.id()),
            dedup_key: self.dedup_key.clone(),
            content_sha256: crate::submission::content_sha256(model, prompt),
            destination,
            explicit_destination: false,
            model: model.clone(),
            input: prompt.to_owned(),
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
        if model_changed {
            self.session.model = Some(model.clone());
        }
        self.session.context.push(ContextItem::Message(message));
        self.submission = ids.first().copied();
        if let Some(submission) = self.submission {
            self.abort_watch = Some(crate::abort::AbortWatch::start(
                self.session.writer.clone(),
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

    fn record_message(&mut self, record: MessageRecord) -> Result<(), RunError> {
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

    fn record_result(&mut self, call: &ToolCall, result: ToolResult) -> Result<(), RunError> {
        let ids = self.session.writer.lock().append_entries(&[NewEntry {
            record: Record::ToolResult(ToolResultRecord {
                result: result.clone(),
            }),
            pair: self.session.call_message,
        }])?;
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

    /// Play one provider response, enforcing exactly one terminal event and observing
    /// cancellation between events.
    fn stream(
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
