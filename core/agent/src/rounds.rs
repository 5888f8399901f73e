//! The provider rounds of running work, to an explicit stop condition: each round sends the
//! context, records the response and its usage, answers every tool call with a recorded
//! result (the batch's last result and the checkpoint in one committed change), and consults
//! the lifecycle handlers at the safe points.

use smith::{
    LifecycleEvent, ProviderError, ProviderErrorKind, ProviderRequest, Selection, StopReason,
    ToolCall, check_pairing,
};
use smith_store::MessageRecord;
use smith_ui_intents::{Intent, NoticeLevel};

use crate::lifecycle::Plan;
use crate::run::{Agent, Run, RunError};
use crate::tool_call::not_run;

impl Agent<'_> {
    /// The provider rounds of the running work, to an explicit stop condition.
    pub(crate) fn rounds(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
    ) -> Result<StopReason, RunError> {
        if run.rounds_run == 0 {
            self.discover_tools(run);
        }
        let definitions = self.tools.definitions();
        let requires = self.tools.provenance();
        // Numbered across the work (late delivery runs more rounds of the same turn).
        let mut round = run.rounds_run;
        // Whether this run already compacted after a context overflow (once per run).
        let mut overflow_retried = false;
        loop {
            round += 1;
            run.rounds_run = round;
            if round > self.limits.max_rounds {
                return Err(RunError::RoundLimit {
                    limit: self.limits.max_rounds,
                });
            }
            if run.cancel.is_cancelled() {
                return Ok(StopReason::Aborted);
            }
            run.sink.emit(Intent::RoundStart { round });
            // The instructions are asked for at this safe point, once per round; retries and
            // failover within the round send the same.
            let prepared = run.prepare(self.lifecycle, round, &definitions);
            // The model of the request is set per candidate by dispatch.
            let mut base = ProviderRequest {
                model: smith::ModelRef {
                    provider: String::new(),
                    model: String::new(),
                },
                instructions: crate::request::instructions(&prepared.pieces),
                context: run.session.loaded()?.items.clone(),
                tools: definitions.clone(),
                thinking: None,
                max_output: None,
                // Kept by dispatch only for a model whose record advertises caching.
                cache: Some(smith::PromptCache {
                    key: run.session.id().to_string(),
                }),
            };
            match self.auto_compact(run, model, &base)? {
                crate::compact::Auto::Send => {}
                crate::compact::Auto::Compacted => {
                    base.context = run.session.loaded()?.items.clone();
                }
                crate::compact::Auto::Aborted => return Ok(StopReason::Aborted),
            }
            check_pairing(&base.context)?;
            if let Some(why) = self.over_budget(run, &base) {
                run.sink.emit(Intent::Notice {
                    level: NoticeLevel::Warning,
                    text: why,
                });
                return Ok(StopReason::Budget);
            }
            let mut dispatched =
                run.dispatch(self.dispatcher, round, model, &base, &prepared.pieces, None);
            // A context that does not fit: compact once and run the round again, or say why not.
            if let Some(error) = overflow_of(&mut dispatched) {
                if !self.compaction.auto || overflow_retried {
                    self.explain_overflow(error, overflow_retried);
                } else {
                    let error = error.clone();
                    if let Some(attempt) = run.last_attempt {
                        run.record_failure(smith::AttemptFailure {
                            attempt,
                            kind: error.kind,
                            message: format!(
                                "{}; compacting the session to fit, then running the round again",
                                error.message
                            ),
                            next: smith::Next::Retry,
                        })?;
                    }
                    run.sink.emit(Intent::RoundEnd {
                        round,
                        stop_reason: StopReason::Error,
                    });
                    if !self.overflow_compact(run, model, error)? {
                        return Ok(StopReason::Aborted);
                    }
                    overflow_retried = true;
                    round -= 1;
                    continue;
                }
            }
            let Some(served) = dispatched? else {
                // Aborted while waiting to retry: the failed attempt is on record.
                return Ok(StopReason::Aborted);
            };
            let (calls, stop, failure) = self.record_response(run, served)?;
            let batch = Batch {
                round,
                stop,
                calls: &calls,
                definitions: &definitions,
                requires: &requires,
                model,
            };
            self.run_batch(run, &batch)?;
            run.sink.emit(Intent::RoundEnd {
                round,
                stop_reason: stop,
            });
            match stop {
                StopReason::ToolUse if run.cancel.is_cancelled() => return Ok(StopReason::Aborted),
                // No round is left to answer delivered input: it stays queued.
                StopReason::ToolUse if round == self.limits.max_rounds => {}
                StopReason::ToolUse => {
                    let plan =
                        self.consult(run, |queued| LifecycleEvent::BatchEnd { round, queued });
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
                StopReason::EndTurn if round == self.limits.max_rounds => {
                    return Ok(StopReason::EndTurn);
                }
                StopReason::EndTurn => {
                    let plan = self.consult(run, |queued| LifecycleEvent::Idle { round, queued });
                    if plan.deliver.is_empty() {
                        return Ok(StopReason::EndTurn);
                    }
                    run.deliver(&plan.deliver)?;
                }
                other => return Ok(other),
            }
        }
    }

    /// Answer every tool call of round `round`'s response with a recorded result — run, or
    /// not run with the reason (a response that did not end for tool use, an abort, a skip the
    /// queue policy asked for) — the batch's last result recorded with the checkpoint and the
    /// batch's working-tree change. A result that cannot be recorded ends the round with
    /// `error`.
    pub(crate) fn run_batch(&self, run: &mut Run<'_>, batch: &Batch<'_>) -> Result<(), RunError> {
        let Batch {
            round,
            stop,
            calls,
            definitions,
            requires,
            model,
        } = *batch;
        let mut skip: Option<String> = None;
        let mut before = self.snapshot_before(run, round, stop, calls);
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
            } else if let Some(recorded) = run.recorded_calls.remove(&call.id) {
                // Continuing interrupted work: this call's effects are on record, so it is
                // answered from them and never run again.
                recorded
            } else {
                self.call_tool(run, call, definitions)
            };
            let last = i + 1 == calls.len();
            // The batch's last result and the checkpoint are one committed change.
            let checkpoint = last.then(|| smith_store::Checkpoint {
                round,
                phase: "tool_batch_complete".to_owned(),
                requires: requires.to_vec(),
                model: Some(model.clone()),
                tools: definitions.iter().map(|d| d.name.clone()).collect(),
            });
            // The batch's change of the working tree is recorded with its last result.
            let vcs = if last {
                before.take().and_then(|b| self.snapshot_after(run, b))
            } else {
                None
            };
            if let Err(e) = run.record_result(call, result, checkpoint, vcs) {
                // The round ends with the failure; the run's end says why.
                run.sink.emit(Intent::RoundEnd {
                    round,
                    stop_reason: StopReason::Error,
                });
                return Err(e);
            }
            if !last && skip.is_none() && stop == StopReason::ToolUse {
                let remaining = u32::try_from(calls.len() - i - 1).unwrap_or(u32::MAX);
                skip = self
                    .consult(run, |queued| LifecycleEvent::ToolEnd {
                        round,
                        remaining,
                        queued,
                    })
                    .skip;
            }
        }
        Ok(())
    }

    /// Record a round's response: its usage counted first (a failure to record cannot erase
    /// it) and priced at the prices its attempt recorded, a warning when its cost took the run
    /// past its budget, the message, and the usage and context-use intents. Returns its tool
    /// calls, stop reason and failure.
    fn record_response(
        &self,
        run: &mut Run<'_>,
        served: crate::dispatch::Served,
    ) -> Result<(Vec<ToolCall>, StopReason, Option<ProviderError>), RunError> {
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
        let before = run.cost;
        run.cost = run.cost.zip(cost).map(|(a, b)| a + b);
        if let Some(text) = self.passed_budget(before, run.cost) {
            run.sink.emit(Intent::Notice {
                level: NoticeLevel::Warning,
                text,
            });
        }
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
        // The context meter: what this attempt reported the conversation holds, of the
        // dispatched model's window.
        if let Some(used) = response
            .usage
            .as_ref()
            .and_then(smith::Usage::context_tokens)
        {
            run.sink.emit(Intent::ContextUse {
                used_tokens: Some(used),
                limit_tokens: self.window().map(|(window, _)| window),
            });
        }
        Ok((calls, stop, failure))
    }

    /// Offer input queued while the turn was ending to the queue policy, as at the end of
    /// the last round: delivered, the turn goes on with more rounds; otherwise it ends as it
    /// was ending ([`crate::settle::Settled::Reopened`]).
    pub(crate) fn deliver_late(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
    ) -> Result<StopReason, RunError> {
        let round = run.rounds_run;
        let plan = self.consult(run, |queued| LifecycleEvent::Idle { round, queued });
        if plan.deliver.is_empty() {
            return Ok(StopReason::EndTurn);
        }
        run.deliver(&plan.deliver)?;
        self.rounds(run, model)
    }

    /// Consult the lifecycle handlers at a point of the run, when queued input the active
    /// queue policy may deliver is waiting; report input blocked by a missing or different
    /// policy once per run. Returns the validated plan (empty after a cancel).
    fn consult(
        &self,
        run: &mut Run<'_>,
        event: impl FnOnce(Vec<smith::QueuedInput>) -> LifecycleEvent,
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
        run.offered.extend(eligible.iter().map(|q| q.submission));
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
}

/// One round's tool batch: what [`Agent::run_batch`] answers and records.
#[derive(Clone, Copy)]
pub(crate) struct Batch<'b> {
    /// The round (1-based) whose response asked for the calls.
    pub(crate) round: u32,
    /// How the response ended: only `tool_use` runs the calls.
    pub(crate) stop: StopReason,
    /// The calls, in the response's order.
    pub(crate) calls: &'b [ToolCall],
    /// The tools offered in the round.
    pub(crate) definitions: &'b [smith::ToolDefinition],
    /// The plugins (`id@version`) whose tools the round offered.
    pub(crate) requires: &'b [String],
    /// The route's selection the round was dispatched through.
    pub(crate) model: &'b Selection,
}

/// The context-overflow error a dispatch ended with — refused, or played as an empty failed
/// response — for the caller to explain or answer by compacting.
fn overflow_of(
    dispatched: &mut Result<Option<crate::dispatch::Served>, RunError>,
) -> Option<&mut ProviderError> {
    match dispatched {
        Err(RunError::Provider(e)) if e.kind == ProviderErrorKind::ContextOverflow => Some(e),
        Ok(Some(served))
            if served.response.stop_reason == StopReason::Error
                && served.response.message.content.is_empty() =>
        {
            served
                .response
                .error
                .as_mut()
                .filter(|e| e.kind == ProviderErrorKind::ContextOverflow)
        }
        _ => None,
    }
}
