//! The agent loop.

use smith::{
    Cancel, EntryId, PairingError, Provider, ProviderError, ProviderErrorKind, ProviderRequest,
    Selection, StopReason, ToolCall, ToolResult, UsageTotals, check_pairing,
};
use smith_store::{MessageRecord, NewEntry, Record, RunEnd};
use smith_ui_intents::{Intent, IntentSink, NoticeLevel};

use crate::dispatch::{Dispatcher, Route};
use crate::lifecycle::{Lifecycle, LifecycleEvent, NoHandlers, Plan};
use crate::submission::AdmissionError;
use crate::{Inbox, Session, ToolContext, ToolDispatch, WorkLimits};

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
    /// Cost in US dollars summed over the run's responses at each attempt's recorded prices;
    /// `None` when any response's cost is unknown.
    pub cost_usd: Option<f64>,
    /// The failure, when `stop_reason` is `error`.
    pub error: Option<RunError>,
}

/// The agent: a provider, the active tools and the run bounds.
pub struct Agent<'a> {
    dispatcher: Dispatcher<'a>,
    tools: &'a dyn ToolDispatch,
    lifecycle: &'a dyn Lifecycle,
    limits: RunLimits,
    work_limits: WorkLimits,
    cwd: Option<std::path::PathBuf>,
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
}

impl<'a> Agent<'a> {
    /// An agent that talks to `provider` and dispatches to `tools`. The selection must be a
    /// model, which `provider` serves as given: its attempts are recorded with no catalog
    /// record (unchecked, unpriced) and no retry or failover. Use [`Agent::routed`] for
    /// checked, priced and routed dispatch.
    pub fn new(provider: &'a dyn Provider, tools: &'a dyn ToolDispatch, limits: RunLimits) -> Self {
        Self::with_dispatcher(Dispatcher::Direct(provider), tools, limits)
    }

    /// An agent that dispatches through `route` — its candidates in failover order, each
    /// checked against its catalog record before any byte is sent and priced by it — and
    /// calls `tools`. Work must select `route.selection`.
    pub fn routed(route: &'a Route<'a>, tools: &'a dyn ToolDispatch, limits: RunLimits) -> Self {
        Self::with_dispatcher(Dispatcher::Routed(route), tools, limits)
    }

    fn with_dispatcher(
        dispatcher: Dispatcher<'a>,
        tools: &'a dyn ToolDispatch,
        limits: RunLimits,
    ) -> Self {
        Self {
            dispatcher,
            tools,
            lifecycle: &NoHandlers,
            limits,
            work_limits: WorkLimits::default(),
            cwd: None,
        }
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
    /// use smith_agent::{Delivery, Enqueue};
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
        let checked = crate::inbox::lock(&session.work).check_work(None, &self.work_limits);
        if let Err(e) = checked {
            let error = RunError::Admission(e);
            sink.emit(Intent::RunEnd {
                stop_reason: StopReason::Error,
                usage: UsageTotals::default(),
                cost_usd: Some(0.0),
                error: Some(error.to_string()),
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
            if let Some(receipt) = original {
                return Ok(crate::replay::replay(session.id(), &receipt, sink));
            }
        }
        crate::inbox::lock(&session.work).check_work(None, &self.work_limits)?;
        if let Some(destination) = submit.destination {
            session.select_destination(destination)?;
        }
        Ok(self.run_new(session, submit, sink, cancel))
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
        } = submit;
        sink.emit(Intent::RunStart {
            session: session.id(),
            model: model.clone(),
        });
        let mut run = Run {
            session,
            sink,
            cancel,
            usage: UsageTotals::default(),
            cost: Some(0.0),
            dedup_key: dedup_key.map(str::to_owned),
            explicit_destination: destination.is_some(),
            submission: None,
            abort_watch: None,
            blocked_reported: false,
        };
        let outcome = match run.admit(model, prompt) {
            Ok(()) => self.rounds(&mut run, model),
            Err(e) => Err(e),
        };
        let (stop_reason, error) = match outcome {
            Ok(reason) => (reason, None),
            Err(e) => (StopReason::Error, Some(e)),
        };
        // The work settles after the work it owns: owned children run (or, when this work
        // did not succeed, are ended unstarted) before its own end is recorded.
        let end = match run.submission {
            Some(work) => self.settle(&mut run, work, stop_reason, error.as_ref()),
            None => Ok(()),
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
        run.sink.emit(Intent::RunEnd {
            stop_reason,
            usage,
            cost_usd,
            error: error.as_ref().map(ToString::to_string),
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

    /// Run the owned children of `work` (in admission order, also those admitted meanwhile),
    /// then record `work`'s end — its terminal receipt — paired with it. The end is written
    /// under the work-state lock once no child waits, so no child can be admitted to an owner
    /// that has ended.
    fn settle(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        stop_reason: StopReason,
        error: Option<&RunError>,
    ) -> Result<(), smith_store::Error> {
        let succeeded =
            matches!(stop_reason, StopReason::EndTurn | StopReason::MaxTokens) && error.is_none();
        let settled = self.settle_inner(run, work, stop_reason, error, succeeded);
        if settled.is_err() {
            // The end could not be recorded: the work stays live in the file (settled on the
            // next open), but no run executes it any more.
            let mut state = crate::inbox::lock(&run.session.work);
            if state.running.as_ref().is_some_and(|(w, _)| *w == work) {
                state.running = None;
            }
        }
        settled
    }

    fn settle_inner(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        stop_reason: StopReason,
        error: Option<&RunError>,
        succeeded: bool,
    ) -> Result<(), smith_store::Error> {
        // Whether a child was ended without running.
        let mut cut = false;
        loop {
            let waiting = crate::inbox::lock(&run.session.work).waiting_children(work);
            if waiting.is_empty() {
                // Stop watching for cancellation (never while holding the work state: the
                // watcher takes it to record).
                if run
                    .abort_watch
                    .as_ref()
                    .is_some_and(|w| w.submission() == work)
                    && let Some(watch) = run.abort_watch.take()
                {
                    watch.stop();
                }
                let mut state = crate::inbox::lock(&run.session.work);
                let waiting = state.waiting_children(work);
                if waiting.is_empty() {
                    // A cancellation is recorded before the end of the work it aborts.
                    let mut entries = Vec::new();
                    if run.cancel.is_cancelled()
                        && !state.abort_recorded
                        && state.running.as_ref().is_some_and(|(w, _)| *w == work)
                    {
                        entries.push(NewEntry {
                            record: Record::Abort(smith_store::Abort {
                                reason: crate::abort::REASON.to_owned(),
                            }),
                            pair: Some(work),
                        });
                        state.abort_recorded = true;
                    }
                    // Cancelled while its children ran, so some never ran: the work as a
                    // whole was aborted.
                    let stop_reason = if succeeded && cut {
                        StopReason::Aborted
                    } else {
                        stop_reason
                    };
                    entries.push(NewEntry {
                        record: Record::RunEnd(RunEnd {
                            stop_reason,
                            usage: run.usage,
                            error: error.map(ToString::to_string),
                        }),
                        pair: Some(work),
                    });
                    // Best effort after a store failure: this append is refused too, and says
                    // so.
                    run.session.writer.lock().append_entries(&entries)?;
                    state.live.remove(&work);
                    if state.running.as_ref().is_some_and(|(w, _)| *w == work) {
                        state.running = None;
                    }
                    return Ok(());
                }
                drop(state);
                cut |= self.end_or_run(run, work, waiting, succeeded)?;
                continue;
            }
            cut |= self.end_or_run(run, work, waiting, succeeded)?;
        }
    }

    /// Run the waiting children of `work` when it succeeded and is not cancelled; otherwise
    /// end them unstarted. Returns whether any was ended unstarted.
    fn end_or_run(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        waiting: Vec<EntryId>,
        succeeded: bool,
    ) -> Result<bool, smith_store::Error> {
        let mut cut = false;
        for child in waiting {
            if succeeded && !run.cancel.is_cancelled() {
                self.run_child(run, child)?;
            } else {
                run.end_unstarted(child, work)?;
                cut = true;
            }
        }
        Ok(cut)
    }

    /// Run child work `child`: deliver its input (a user message paired with it), play its
    /// rounds, and settle it (its own children first).
    fn run_child(&self, run: &mut Run<'_>, child: EntryId) -> Result<(), smith_store::Error> {
        let found = crate::inbox::lock(&run.session.work)
            .live
            .get(&child)
            .map(|live| (live.model.clone(), live.input.clone()));
        let Some((model, input)) = found else {
            return Ok(());
        };
        let (parent_work, parent_usage, parent_cost) = (run.submission, run.usage, run.cost);
        run.submission = Some(child);
        run.usage = UsageTotals::default();
        run.cost = Some(0.0);
        let outcome = match run.deliver_child(child, &model, &input) {
            Ok(()) => {
                if let Some(live) = crate::inbox::lock(&run.session.work).live.get_mut(&child) {
                    live.started = true;
                }
                self.rounds(run, &model)
            }
            Err(e) => Err(e),
        };
        let (stop_reason, error) = match outcome {
            Ok(reason) => (reason, None),
            Err(e) => (StopReason::Error, Some(e)),
        };
        let settled = self.settle(run, child, stop_reason, error.as_ref());
        run.submission = parent_work;
        run.usage = parent_usage;
        run.cost = parent_cost;
        settled
    }

    /// The provider rounds of the running work, to an explicit stop condition.
    fn rounds(&self, run: &mut Run<'_>, model: &Selection) -> Result<StopReason, RunError> {
        let definitions = self.tools.definitions();
        let requires = self.tools.provenance();
        let mut turn = 0;
        loop {
            turn += 1;
            if turn > self.limits.max_rounds {
                return Err(RunError::RoundLimit {
                    limit: self.limits.max_rounds,
                });
            }
            if run.cancel.is_cancelled() {
                return Ok(StopReason::Aborted);
            }
            run.sink.emit(Intent::TurnStart { turn });
            // The model of the request is set per candidate by dispatch.
            let base = ProviderRequest {
                model: smith::ModelRef {
                    provider: String::new(),
                    model: String::new(),
                },
                instructions: None,
                context: run.session.context.clone(),
                tools: definitions.clone(),
                thinking: None,
                max_output: None,
            };
            check_pairing(&base.context)?;
            let Some(served) = run.dispatch(self.dispatcher, turn, model, &base)? else {
                // Aborted while waiting to retry: the failed attempt is on record.
                return Ok(StopReason::Aborted);
            };
            let response = served.response;
            let calls: Vec<ToolCall> = response.message.tool_calls().cloned().collect();
            let stop = response.stop_reason;
            let failure = response.error.clone();
            // Count the observed usage first: a failure to record cannot erase it. It is
            // priced at the prices the attempt recorded.
            run.usage.add(response.usage.as_ref());
            let cost = response
                .usage
                .as_ref()
                .zip(served.price)
                .and_then(|(usage, price)| price.cost(usage));
            run.cost = run.cost.zip(cost).map(|(a, b)| a + b);
            let message_id = response.message_id;
            run.record_message(
                MessageRecord {
                    message: response.message,
                    model: Some(served.model.clone()),
                    stop_reason: Some(stop),
                    usage: response.usage,
                    error: failure.as_ref().map(|e| e.message.clone()),
                    attempt: Some(served.attempt),
                },
                message_id,
            )?;
            run.sink.emit(Intent::Usage {
                message_id,
                attempt: Some(served.attempt.0),
                model: Some(Box::new(served.model)),
                usage: response.usage,
                cost_usd: cost,
            });
            let mut skip: Option<String> = None;
            for (i, call) in calls.iter().enumerate() {
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
                } else if let Some(why) = &skip {
                    not_run(call, &format!("skipped: {why}; this call was not run"))
                } else {
                    self.dispatch(run, call, &definitions)
                };
                let last = i + 1 == calls.len();
                // The batch's last result and the checkpoint are one committed change.
                let checkpoint = last.then(|| smith_store::Checkpoint {
                    round: turn,
                    phase: "tool_batch_complete".to_owned(),
                    requires: requires.clone(),
                });
                run.record_result(call, result, checkpoint)?;
                if !last && skip.is_none() && stop == StopReason::ToolUse {
                    let remaining = u32::try_from(calls.len() - i - 1).unwrap_or(u32::MAX);
                    skip = self
                        .consult(run, |queued| LifecycleEvent::ToolEnd {
                            turn,
                            remaining,
                            queued,
                        })
                        .skip;
                }
            }
            run.sink.emit(Intent::TurnEnd {
                turn,
                stop_reason: stop,
            });
            match stop {
                StopReason::ToolUse if run.cancel.is_cancelled() => return Ok(StopReason::Aborted),
                // No round is left to answer delivered input: it stays queued.
                StopReason::ToolUse if turn == self.limits.max_rounds => {}
                StopReason::ToolUse => {
                    let plan =
                        self.consult(run, |queued| LifecycleEvent::BatchEnd { turn, queued });
                    run.deliver(&plan.deliver)?;
                }
                StopReason::Error => {
                    return Err(RunError::Provider(failure.unwrap_or_else(|| {
                        ProviderError::new(
                            ProviderErrorKind::Other,
                            "the provider reported an error",
                        )
                    })));
                }
                StopReason::EndTurn if turn == self.limits.max_rounds => {
                    return Ok(StopReason::EndTurn);
                }
                StopReason::EndTurn => {
                    let plan = self.consult(run, |queued| LifecycleEvent::Idle { turn, queued });
                    if plan.deliver.is_empty() {
                        return Ok(StopReason::EndTurn);
                    }
                    run.deliver(&plan.deliver)?;
                }
                other => return Ok(other),
            }
        }
    }

    /// Consult the lifecycle handlers at a point of the run, when queued input the active
    /// queue policy may deliver is waiting; report input blocked by a missing or different
    /// policy once per run. Returns the validated plan (empty after a cancel).
    fn consult(
        &self,
        run: &mut Run<'_>,
        event: impl FnOnce(Vec<crate::QueuedInput>) -> LifecycleEvent,
    ) -> Plan {
        let active = self.lifecycle.queue_policy();
        let (eligible, blocked): (Vec<_>, Vec<_>) = crate::inbox::lock(&run.session.work)
            .queue
            .iter()
            .cloned()
            .partition(|q| Some(&q.policy) == active.as_ref());
        if !blocked.is_empty() && !run.blocked_reported {
            run.blocked_reported = true;
            let ids: Vec<String> = blocked.iter().map(|q| q.submission.to_string()).collect();
            let needed: Vec<&str> = blocked.iter().map(|q| q.policy.as_str()).collect();
            run.sink.emit(Intent::Notice {
                level: NoticeLevel::Warning,
                text: format!(
                    "queued input {} waits for queue policy {} that admitted it, but the active queue policy is {}; it stays queued and is not delivered by another policy — enable that plugin, or withdraw the input",
                    ids.join(", "),
                    needed.join(", "),
                    active.as_deref().unwrap_or("none")
                ),
            });
        }
        if eligible.is_empty() || run.cancel.is_cancelled() {
            return Plan::default();
        }
        let event = event(eligible);
        let replies = self.lifecycle.handle(&event, run.cancel);
        if run.cancel.is_cancelled() {
            // Aborted during a handler call: nothing it asked for applies.
            return Plan::default();
        }
        let plan = crate::lifecycle::validate(&event, replies);
        for problem in &plan.problems {
            run.sink.emit(Intent::Notice {
                level: NoticeLevel::Warning,
                text: problem.clone(),
            });
        }
        plan
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

fn not_run(call: &ToolCall, why: &str) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        output: why.to_owned(),
        is_error: true,
    }
}
