//! The agent's API: the [`Agent`] and its builder, the blocking conveniences [`Agent::run`]
//! and [`Agent::submit`] over admission and execution, and what a run returns. The loop itself
//! is split by what it owns: the provider rounds (`rounds`), settling work after the work it
//! owns (`settle`), and one tool call through the tool port (`tool_call`).

use smith::{
    Cancel, EntryId, Lifecycle, NoHandlers, PairingError, Provider, ProviderError, Selection,
    StopReason, ToolRegistry, UsageTotals,
};
use smith_ui_intents::{Intent, IntentSink};

use crate::dispatch::{Dispatcher, Route};
use crate::submission::AdmissionError;
use crate::{Inbox, Session, WorkLimits};

/// Bounds of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunLimits {
    /// The most provider rounds one run may take before it stops with
    /// [`RunError::RoundLimit`].
    pub max_rounds: u32,
    /// The most the run's responses may cost, in US dollars at the catalog's prices: before
    /// each request the run stops with [`smith::StopReason::Budget`] when its cost so far plus
    /// the request's estimated input at the model's input price would pass it. `None`: no
    /// budget.
    pub max_cost: Option<f64>,
}

impl Default for RunLimits {
    fn default() -> Self {
        Self {
            max_rounds: 64,
            max_cost: None,
        }
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The provider could not be reached or its response failed.
    #[error("the provider failed: {0}")]
    Provider(ProviderError),
    /// The selection could not be dispatched: no candidate can take the request (each one's
    /// reason listed) or the agent has no route for it. Nothing was sent.
    #[error("{0}")]
    Route(String),
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
    /// The input was not admitted (a limit, a closed session); nothing was written.
    #[error("{0}")]
    Admission(AdmissionError),
    /// Automatic compaction failed too many times in a row; the run stopped so it cannot
    /// loop.
    #[error("{0}")]
    Compaction(String),
    /// The run used up its rounds.
    #[error(
        "the run stopped after {limit} provider rounds without the model finishing its answer; continue it with another prompt in the same session"
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
    /// Cost in US dollars summed over the run's responses at each attempt's recorded prices;
    /// `None` when any response's cost is unknown.
    pub cost_usd: Option<f64>,
    /// The failure, when `stop_reason` is `error`.
    pub error: Option<RunError>,
}

/// The agent: a provider, the active tools and the run bounds.
pub struct Agent<'a> {
    pub(crate) dispatcher: Dispatcher<'a>,
    pub(crate) tools: &'a dyn ToolRegistry,
    pub(crate) lifecycle: &'a dyn Lifecycle,
    pub(crate) limits: RunLimits,
    pub(crate) work_limits: WorkLimits,
    pub(crate) compaction: crate::CompactionPolicy,
    pub(crate) cwd: Option<std::path::PathBuf>,
    /// Snapshots the working tree around mutating tool batches, when set.
    pub(crate) history: Option<&'a dyn smith::History>,
    /// The OS sandbox mode `run_start` names.
    pub(crate) sandbox: Option<&'static str>,
}

/// The running state of one run.
pub(crate) struct Run<'r> {
    pub(crate) session: &'r mut Session,
    pub(crate) sink: &'r mut dyn IntentSink,
    pub(crate) cancel: &'r Cancel,
    pub(crate) usage: UsageTotals,
    /// Cost summed over the running work's responses; `None` once any is unknown.
    pub(crate) cost: Option<f64>,
    /// The caller's deduplication key for this submission.
    pub(crate) dedup_key: Option<String>,
    /// Whether the caller named the destination.
    pub(crate) explicit_destination: bool,
    /// The work running now (top-level or owned child), once admitted.
    pub(crate) submission: Option<EntryId>,
    /// Records an abort request while the admitted work runs.
    pub(crate) abort_watch: Option<crate::abort::AbortWatch>,
    /// Whether blocked queued input was already reported in this run.
    pub(crate) blocked_reported: bool,
    /// The files the input attaches, recorded in its submission.
    pub(crate) attachments: Vec<smith_store::Attachment>,
    /// The images the input attaches, after its text in the user message.
    pub(crate) images: Vec<smith::Image>,
    /// A compaction's summary is streaming: it is not shown as a message.
    pub(crate) quiet: bool,
    /// The attempt recorded last.
    pub(crate) last_attempt: Option<EntryId>,
    /// Whether a failed working-tree snapshot was already reported in this run.
    pub(crate) history_reported: bool,
    /// The queued input the lifecycle handlers were offered in this run: what arrives later
    /// — while the turn was ending — is offered before the work ends, never stranded.
    pub(crate) offered: std::collections::HashSet<EntryId>,
    /// The rounds run so far by the top-level work (numbering continues after late delivery).
    pub(crate) rounds_run: u32,
    /// A round and how many attempts of it are already recorded (a continuation sending
    /// again the request of a round cut off while it streamed): that round's attempts are
    /// numbered after them. Taken by the round's first dispatch.
    pub(crate) attempts_recorded: Option<(u32, u32)>,
    /// The work's tool calls that did their work, for its end ([`smith::TurnEnd::calls`]).
    pub(crate) calls_done: Vec<smith::ToolCall>,
    /// Continuing interrupted work: the results of the pending calls whose effects are on
    /// record, by call id — those calls are answered with them, never run again.
    pub(crate) recorded_calls: std::collections::HashMap<String, smith::ToolResult>,
    /// The turn's memory scope, innermost on this thread while the run lives (last: it
    /// closes after the rest of the run is dropped).
    pub(crate) memory: crate::memory::TurnScope,
}

impl<'r> Run<'r> {
    /// A run over `session` that has admitted nothing (yet).
    pub(crate) fn new(
        session: &'r mut Session,
        sink: &'r mut dyn IntentSink,
        cancel: &'r Cancel,
    ) -> Self {
        let memory = crate::memory::TurnScope::open(&session.memory);
        Self {
            session,
            sink,
            cancel,
            usage: UsageTotals::default(),
            cost: Some(0.0),
            dedup_key: None,
            explicit_destination: false,
            submission: None,
            abort_watch: None,
            blocked_reported: false,
            attachments: Vec::new(),
            images: Vec::new(),
            quiet: false,
            last_attempt: None,
            history_reported: false,
            offered: std::collections::HashSet::new(),
            rounds_run: 0,
            attempts_recorded: None,
            calls_done: Vec::new(),
            recorded_calls: std::collections::HashMap::new(),
            memory,
        }
    }
}

/// Input to submit: the model to run it with, the text, and an optional deduplication key
/// (spec: Sessions → Submission and receipts).
#[derive(Clone, Copy, Debug)]
pub struct Submit<'s> {
    /// The selection the work runs with: a model, or an alias or group the agent's route
    /// resolved.
    pub model: &'s Selection,
    /// The input text.
    pub input: &'s str,
    /// A key scoped to the session: repeating it with the same content returns the original
    /// submission instead of running again.
    pub dedup_key: Option<&'s str>,
    /// The entry to continue from (a branch point); `None` continues the selected leaf. With
    /// a key, repeating it with another explicit destination is a conflict.
    pub destination: Option<EntryId>,
    /// The files the input attaches (their content is in `input`), recorded in the
    /// submission with their paths, sizes and hashes.
    pub attachments: &'s [smith_store::Attachment],
    /// Images the user message carries after its text (each also among `attachments`, and
    /// named in `input`, so the content hash covers it).
    pub images: &'s [smith::Image],
}

impl<'a> Agent<'a> {
    /// An agent that talks to `provider` and calls `tools`. The selection must be a
    /// model, which `provider` serves as given: its attempts are recorded with no catalog
    /// record (unchecked, unpriced) and no retry or failover. Use [`Agent::routed`] for
    /// checked, priced and routed dispatch.
    pub fn new(provider: &'a dyn Provider, tools: &'a dyn ToolRegistry, limits: RunLimits) -> Self {
        Self::with_dispatcher(Dispatcher::Direct(provider), tools, limits)
    }

    /// An agent that dispatches through `route` — its candidates in failover order, each
    /// checked against its catalog record before any byte is sent and priced by it — and
    /// calls `tools`. Work must select `route.selection`.
    pub fn routed(route: &'a Route<'a>, tools: &'a dyn ToolRegistry, limits: RunLimits) -> Self {
        Self::with_dispatcher(Dispatcher::Routed(route), tools, limits)
    }

    fn with_dispatcher(
        dispatcher: Dispatcher<'a>,
        tools: &'a dyn ToolRegistry,
        limits: RunLimits,
    ) -> Self {
        Self {
            dispatcher,
            tools,
            lifecycle: &NoHandlers,
            limits,
            work_limits: WorkLimits::default(),
            compaction: crate::CompactionPolicy::default(),
            cwd: None,
            history: None,
            sandbox: None,
        }
    }

    /// Say in every `run_start` which OS sandbox mode the run's programs start in.
    #[must_use]
    pub fn with_sandbox(mut self, mode: &'static str) -> Self {
        self.sandbox = Some(mode);
        self
    }

    /// Compact under `policy` instead of [`crate::CompactionPolicy::default`].
    #[must_use]
    pub fn with_compaction(mut self, policy: crate::CompactionPolicy) -> Self {
        self.compaction = policy;
        self
    }

    /// Snapshot the working tree through `history` before and after every tool batch that
    /// holds a call not declared read-only, recording each pair that differs as a `vcs`
    /// record (the undo stack's steps).
    #[must_use]
    pub fn with_history(mut self, history: &'a dyn smith::History) -> Self {
        self.history = Some(history);
        self
    }

    /// Consult `lifecycle`'s handlers at the run's safe points (the queue policy among them).
    #[must_use]
    pub fn with_lifecycle(mut self, lifecycle: &'a dyn Lifecycle) -> Self {
        self.lifecycle = lifecycle;
        self
    }

    /// Admit work and queued input under `limits` instead of [`WorkLimits::default`].
    #[must_use]
    pub fn with_work_limits(mut self, limits: WorkLimits) -> Self {
        self.work_limits = limits;
        self
    }

    /// An [`Inbox`] for `session`: queue input (under this agent's queue policy), list and
    /// withdraw it, and admit child work — from any thread, also while a run holds the
    /// session.
    ///
    /// ```no_run
    /// # fn demo(agent: &smith_agent::Agent<'_>, session: &smith_agent::Session) {
    /// use smith::Delivery;
    /// use smith_agent::Enqueue;
    /// let inbox = agent.inbox(session);
    /// std::thread::spawn(move || {
    ///     // Delivered after the current tool batch; the batch's remaining calls are skipped.
    ///     let model: smith::Selection = "scripted/demo".parse().unwrap();
    ///     let id = inbox.enqueue(Enqueue { model: &model, input: "Stop: run the linter first",
    ///         delivery: Delivery::Steer, dedup_key: None }).unwrap();
    ///     # let _ = id;
    /// });
    /// # }
    /// ```
    pub fn inbox(&self, session: &Session) -> Inbox {
        Inbox {
            writer: session.writer.downgrade(),
            state: std::sync::Arc::clone(&session.work),
            session: session.id(),
            path: session.path().to_owned(),
            limits: self.work_limits,
            policy: self.lifecycle.queue_policy(),
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
        model: &Selection,
        prompt: &str,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> RunOutcome {
        let checked = crate::inbox::lock(&session.work)
            .check_work(None, &self.work_limits)
            .map(drop);
        // New input moves on from an interrupted turn held open: it is settled as aborted.
        let checked = checked.and_then(|()| Ok(session.settle_interrupted()?));
        if let Err(e) = checked {
            let error = RunError::Admission(e);
            sink.emit(Intent::RunEnd {
                stop_reason: StopReason::Error,
                usage: UsageTotals::default(),
                cost_usd: Some(0.0),
                error: Some(error.to_string()),
                memory: None,
            });
            return RunOutcome {
                submission: None,
                deduplicated: false,
                stop_reason: StopReason::Error,
                usage: UsageTotals::default(),
                cost_usd: Some(0.0),
                error: Some(error),
            };
        }
        let submit = Submit {
            model,
            input: prompt,
            dedup_key: None,
            destination: None,
            attachments: &[],
            images: &[],
        };
        self.run_new(session, submit, sink, cancel)
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
    /// #         model: &smith::Selection, sink: &mut dyn smith_ui_intents::IntentSink) {
    /// let submit = smith_agent::Submit {
    ///     model,
    ///     input: "Fix the test",
    ///     dedup_key: Some("ci-42"),
    ///     destination: None,
    ///     attachments: &[],
    ///     images: &[],
    /// };
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
            let original = crate::submission::deduplicate(
                session.path(),
                session.id(),
                key,
                &content,
                submit.destination,
            )?;
            if let Some(mut receipt) = original {
                // A retry of the interrupted turn held here: nothing runs it, so it is settled
                // as aborted, and the retry gets that terminal receipt.
                if session
                    .held
                    .as_ref()
                    .is_some_and(|t| t.submission == receipt.submission)
                {
                    session.settle_interrupted()?;
                    receipt = crate::submission::deduplicate(
                        session.path(),
                        session.id(),
                        key,
                        &content,
                        submit.destination,
                    )?
                    .unwrap_or(receipt);
                }
                return Ok(crate::replay::replay(session.id(), &receipt, sink));
            }
        }
        crate::inbox::lock(&session.work).check_work(None, &self.work_limits)?;
        // New input moves on from an interrupted turn held open: it is settled as aborted once
        // the input is found acceptable — the destination's branch checked, the input
        // serviceable with the context there — so a refusal writes nothing.
        let mut destination = match submit.destination {
            Some(leaf) => session.check_destination(leaf)?,
            None => None,
        };
        // The context is projected now, before anything is written, when opening left it to
        // the first request; with a destination, the projection checked there becomes it.
        if destination.is_none() {
            session.loaded()?;
        }
        if let Dispatcher::Routed(route) = self.dispatcher {
            let context = match &mut destination {
                Some((_, projection)) => &mut projection.items,
                None => &mut session.loaded()?.items,
            };
            self.check_serviceable(route, context, &submit)?;
        }
        session.enter_destination(destination)?;
        Ok(self.run_new(session, submit, sink, cancel))
    }

    /// Refuse input that no candidate of `route` can take — the conversation with it (images
    /// already in the history included, its estimated size, the tools, the thinking level)
    /// checked against each candidate's catalog record as dispatch would — before anything is
    /// written (spec: Model capabilities — unsupported behavior fails before dispatch).
    ///
    /// `context` is the conversation before the input (the session's, or the destination's),
    /// borrowed for the check and left as it was.
    fn check_serviceable(
        &self,
        route: &crate::dispatch::Route<'_>,
        context: &mut Vec<smith::ContextItem>,
        submit: &Submit<'_>,
    ) -> Result<(), AdmissionError> {
        if route.selection != *submit.model {
            return Ok(());
        }
        let mut message = smith::Message::user_text(submit.input);
        message.content.extend(
            submit
                .images
                .iter()
                .cloned()
                .map(smith::ContentBlock::Image),
        );
        // The context is borrowed for the check, not copied: a long history stays one copy.
        let mut items = std::mem::take(context);
        items.push(smith::ContextItem::Message(message));
        let mut request = smith::ProviderRequest {
            model: submit
                .model
                .as_model()
                .cloned()
                .unwrap_or_else(|| smith::ModelRef {
                    provider: String::new(),
                    model: String::new(),
                }),
            instructions: None,
            context: items,
            tools: self.tools.definitions(),
            thinking: route.thinking,
            max_output: None,
            cache: None,
        };
        let mut reasons = Vec::new();
        let serviceable = route.candidates().iter().any(|c| match &c.capabilities {
            None => true,
            Some(info) => {
                request.model = c.model.clone();
                request.max_output =
                    smith::OutputLimit::choose(info.output, route.max_output).tokens;
                let checked = info.check(&request);
                if let Err(e) = &checked {
                    reasons.push(e.to_string());
                }
                checked.is_ok()
            }
        });
        request.context.pop();
        *context = request.context;
        if serviceable {
            Ok(())
        } else {
            Err(AdmissionError::Unserviceable {
                selection: route.selection.to_string(),
                reasons,
            })
        }
    }

    fn run_new(
        &self,
        session: &mut Session,
        submit: Submit<'_>,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> RunOutcome {
        let Submit {
            model,
            input: prompt,
            dedup_key,
            destination,
            attachments,
            images,
        } = submit;
        sink.emit(Intent::RunStart {
            session: session.id(),
            model: model.clone(),
            sandbox: self.sandbox.map(str::to_owned),
        });
        let mut run = Run::new(session, sink, cancel);
        run.dedup_key = dedup_key.map(str::to_owned);
        run.explicit_destination = destination.is_some();
        run.attachments = attachments.to_vec();
        run.images = images.to_vec();
        let outcome = match run.admit(model, prompt) {
            Ok(()) => self.rounds(&mut run, model),
            Err(e) => Err(e),
        };
        self.finish(run, model, outcome)
    }

    /// End `run`'s work after its rounds ended with `outcome`: the turn's end answered, the
    /// work settled (late input offered first, which may run more rounds), the abort notice
    /// and `run_end` emitted.
    pub(crate) fn finish(
        &self,
        mut run: Run<'_>,
        model: &Selection,
        mut outcome: Result<StopReason, RunError>,
    ) -> RunOutcome {
        // The work settles after the work it owns: owned children run (or, when this work
        // did not succeed, are ended unstarted) before its own end is recorded. Input queued
        // while the turn was ending is offered to the queue policy first (and, delivered,
        // continues the turn).
        let (stop_reason, error, end) = loop {
            let (mut stop_reason, error) = match outcome {
                Ok(reason) => (reason, None),
                Err(e) => (StopReason::Error, Some(e)),
            };
            if run.submission.is_some() {
                let cancelled_before = run.cancel.is_cancelled();
                self.turn_end(&mut run, stop_reason);
                // Cancelled while its end was answered (a hook ran): the work ends cancelled.
                if error.is_none() && !cancelled_before && run.cancel.is_cancelled() {
                    stop_reason = StopReason::Aborted;
                }
            }
            let end = match run.submission {
                Some(work) => self.settle(&mut run, work, stop_reason, error.as_ref()),
                None => Ok(crate::settle::Settled::Ended),
            };
            match end {
                Ok(crate::settle::Settled::Reopened) => {
                    outcome = self.deliver_late(&mut run, model)
                }
                Ok(crate::settle::Settled::Ended) => break (stop_reason, error, Ok(())),
                Err(e) => break (stop_reason, error, Err(e)),
            }
        };
        if let Some(watch) = run.abort_watch.take() {
            watch.stop();
        }
        let error = match (error, end) {
            (Some(e), _) => Some(e),
            (None, Err(e)) => Some(RunError::Store(e)),
            (None, Ok(())) => None,
        };
        let stop_reason = if error.is_some() {
            StopReason::Error
        } else {
            stop_reason
        };
        let (usage, cost_usd) = (run.usage, run.cost);
        // The abort request said after what it stopped, as a resumed transcript shows it.
        if stop_reason == StopReason::Aborted
            && let Some(reason) = crate::inbox::lock(&run.session.work).abort_recorded.clone()
        {
            run.sink.emit(crate::playback::abort_notice_text(&reason));
        }
        let memory = run.memory.end(&mut run.session.memory_said);
        for text in run.memory.warnings(memory.as_ref()) {
            run.sink.emit(Intent::Notice {
                level: smith_ui_intents::NoticeLevel::Warning,
                text,
            });
        }
        run.sink.emit(Intent::RunEnd {
            stop_reason,
            usage,
            cost_usd,
            error: error.as_ref().map(ToString::to_string),
            memory: memory.map(Box::new),
        });
        RunOutcome {
            submission: run.submission,
            deduplicated: false,
            stop_reason,
            usage,
            cost_usd,
            error,
        }
    }
}
