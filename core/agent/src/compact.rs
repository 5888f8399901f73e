//! The compaction operation (spec: Compaction, cost, and secrets; Agent behavior — abortable
//! during compaction): the selected model summarizes the context before the boundary
//! [`crate::compaction_boundary`] picks, through the normal provider path (an attempt and its
//! recorded request, retry and failover, usage counted once), with the ask a `compaction`
//! handler plugin gives; only a complete summary — the model's own end of turn, text, no tool
//! call — is recorded ([`smith_store::Compaction`]). Anything else records nothing that
//! changes the projection: the attempt's failure says why, and an abort is recorded.
//!
//! Run manually ([`Agent::compact`]) or by the rounds themselves: when the next request would
//! pass the configured share of the dispatched model's context window, and once after the
//! provider refused a request whose context does not fit ([`CompactionPolicy`]).

use smith::{
    AttemptFailure, CompactionEvent, CompactionReason, ContentBlock, ContextItem, EntryId, Next,
    PieceRole, ProviderError, ProviderErrorKind, ProviderRequest, Selection, StopReason, Usage,
    UsageTotals, check_pairing,
};
use smith_store::{NewEntry, Record};
use smith_ui_intents::{Intent, IntentSink};

use crate::Session;
use crate::request::Ask;
use crate::run::{Agent, Run, RunError};

/// When and how much the agent compacts (the `compaction.*` settings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompactionPolicy {
    /// Compact on its own: before a request that would pass `threshold` of the dispatched
    /// model's context window, and once (then retrying the round) after the provider refused
    /// a request whose context does not fit. `false`: only when asked.
    pub auto: bool,
    /// The share of the context window (0 < threshold ≤ 1) the next request's estimated
    /// input may use before an automatic compaction.
    pub threshold: f64,
    /// The estimated tokens of the most recent context kept verbatim after the summary.
    pub keep_tokens: u64,
    /// Consecutive failed compactions after which a run stops instead of trying again.
    pub max_failures: u32,
}

impl Default for CompactionPolicy {
    /// Automatic at 80 % of the window, keeping 20,000 tokens, stopping after 3 failures.
    fn default() -> Self {
        Self {
            auto: true,
            threshold: 0.8,
            keep_tokens: 20_000,
            max_failures: 3,
        }
    }
}

/// A compaction to run on its own ([`Agent::compact`]).
#[derive(Clone, Copy, Debug)]
pub struct Compact<'s> {
    /// The selection that writes the summary (the agent's route must serve it).
    pub model: &'s Selection,
    /// What the summary should focus on, passed to the `compaction` handler.
    pub instructions: Option<&'s str>,
    /// Estimated tokens of recent context kept verbatim; `None` uses the agent's policy.
    pub keep_tokens: Option<u64>,
}

/// Why a compaction did not record a summary. Nothing that changes the projection was
/// written.
#[derive(Debug, thiserror::Error)]
pub enum CompactError {
    /// There is nothing before the recent context to summarize.
    #[error(
        "there is nothing to compact: the context ({items} items, about {tokens} tokens) fits in the {keep_tokens} tokens kept verbatim"
    )]
    Nothing {
        /// Items in the context.
        items: usize,
        /// Their estimated tokens.
        tokens: u64,
        /// The tokens kept verbatim.
        keep_tokens: u64,
    },
    /// Before the recent context lie only the person's own messages — a session's first
    /// prompt, say — which a summary would not shorten.
    #[error(
        "there is nothing worth compacting: before the recent context lie only your messages (about {tokens} tokens), which a summary would not shorten"
    )]
    OnlyPrompts {
        /// Their estimated tokens.
        tokens: u64,
    },
    /// Work is running in the session; compaction waits for it to settle.
    #[error(
        "the session has running work ({0} live), so it was not compacted; compact it once the work has ended"
    )]
    Busy(usize),
    /// No `compaction` handler gave an ask.
    #[error("{0}")]
    Prompt(String),
    /// The summary's response did not end by the model's own end of turn, or was not a
    /// summary.
    #[error("the summary was not kept: {0}; the session's context is unchanged")]
    Incomplete(String),
    /// The provider failed.
    #[error("the summary's request failed: {0}; the session's context is unchanged")]
    Provider(ProviderError),
    /// Cancelled; the abort is recorded.
    #[error("the compaction was aborted; the session's context is unchanged")]
    Aborted,
    /// Dispatch, pairing or recording failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

impl From<smith_store::Error> for CompactError {
    fn from(e: smith_store::Error) -> Self {
        Self::Run(RunError::Store(e))
    }
}

/// A recorded compaction.
#[derive(Clone, Debug, PartialEq)]
pub struct Compacted {
    /// The `compaction` record's entry id.
    pub entry: EntryId,
    /// The summary.
    pub summary: String,
    /// Context items the summary stands for.
    pub summarized: usize,
    /// Items kept verbatim after it.
    pub kept: usize,
    /// The first kept entry.
    pub first_kept: EntryId,
    /// The summary's usage, when reported.
    pub usage: Option<Usage>,
    /// Its cost in US dollars at the attempt's prices, when known.
    pub cost_usd: Option<f64>,
}

/// How [`Agent::compact`] ended.
#[derive(Debug)]
pub struct CompactOutcome {
    /// The compaction, when a summary was recorded.
    pub compacted: Option<Compacted>,
    /// Usage summed over its responses.
    pub usage: UsageTotals,
    /// Why no summary was recorded.
    pub error: Option<CompactError>,
}

impl Agent<'_> {
    /// Compact `session`'s context now, emitting `compaction_start` and `compaction_end`
    /// (and the attempts) into `sink`, observing `cancel` between streamed events (an abort
    /// is recorded and leaves the context unchanged). Refused while work runs.
    pub fn compact(
        &self,
        session: &mut Session,
        compact: Compact<'_>,
        sink: &mut dyn IntentSink,
        cancel: &smith::Cancel,
    ) -> CompactOutcome {
        let live = crate::inbox::lock(&session.work).live.len();
        if live > 0 {
            return CompactOutcome {
                compacted: None,
                usage: UsageTotals::default(),
                error: Some(CompactError::Busy(live)),
            };
        }
        let mut run = Run::new(session, sink, cancel);
        let keep = compact.keep_tokens.unwrap_or(self.compaction.keep_tokens);
        let result = self.compaction(
            &mut run,
            compact.model,
            CompactionReason::Manual,
            compact.instructions,
            keep,
        );
        let usage = run.usage;
        match result {
            Ok(compacted) => CompactOutcome {
                compacted: Some(compacted),
                usage,
                error: None,
            },
            Err(e) => CompactOutcome {
                compacted: None,
                usage,
                error: Some(e),
            },
        }
    }

    /// One compaction of `run`'s session context, keeping `keep_tokens` verbatim: the
    /// start intent, the handler's ask, the request through dispatch (round 0: it belongs
    /// to no round), and the record when the summary is complete; the end intent either way.
    pub(crate) fn compaction(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
        reason: CompactionReason,
        instructions: Option<&str>,
        keep_tokens: u64,
    ) -> Result<Compacted, CompactError> {
        let result = self.try_compaction(run, model, reason, instructions, keep_tokens);
        if reason != CompactionReason::Manual
            && matches!(
                result,
                Err(CompactError::Nothing { .. } | CompactError::OnlyPrompts { .. })
            )
        {
            // Automatic, with nothing to summarize: nothing began, so nothing is said.
            return result;
        }
        let end = match &result {
            Ok(c) => Intent::CompactionEnd {
                reason,
                entry_id: Some(c.entry.0),
                first_kept: Some(c.first_kept.0),
                summary: Some(c.summary.clone()),
                usage: c.usage.map(Box::new),
                cost_usd: c.cost_usd,
                error: None,
            },
            Err(e) => Intent::CompactionEnd {
                reason,
                entry_id: None,
                first_kept: None,
                summary: None,
                usage: None,
                cost_usd: None,
                error: Some(e.to_string()),
            },
        };
        run.sink.emit(end);
        result
    }

    fn try_compaction(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
        reason: CompactionReason,
        instructions: Option<&str>,
        keep_tokens: u64,
    ) -> Result<Compacted, CompactError> {
        let context = run.session.loaded()?;
        let tokens: u64 = context
            .items
            .iter()
            .map(ContextItem::estimated_tokens)
            .sum();
        // Only the last summary before the recent context: there is nothing new to summarize.
        let chosen = crate::compaction::boundary(&context.items, keep_tokens)
            .filter(|b| !(b.index == 1 && context.summary.is_some()));
        let Some(crate::compaction::Boundary {
            index: boundary,
            kept_tokens,
            oversized,
        }) = chosen
        else {
            return Err(CompactError::Nothing {
                items: context.items.len(),
                tokens,
                keep_tokens,
            });
        };
        let first_kept = context.entries[boundary];
        let summarized_tokens: u64 = context.items[..boundary]
            .iter()
            .map(ContextItem::estimated_tokens)
            .sum();
        // A summary of the person's prompts alone says what they said, longer: nothing of
        // the model's work lies there to condense.
        let only_prompts = context.items[..boundary]
            .iter()
            .all(|item| matches!(item, ContextItem::Message(m) if m.role == smith::Role::User));
        if only_prompts {
            return Err(CompactError::OnlyPrompts {
                tokens: summarized_tokens,
            });
        }
        let kept = context.items.len() - boundary;
        let event = CompactionEvent {
            reason,
            summarized: u32::try_from(boundary).unwrap_or(u32::MAX),
            kept: u32::try_from(kept).unwrap_or(u32::MAX),
            estimated_tokens: summarized_tokens,
            instructions: instructions.map(str::to_owned),
        };
        if oversized && keep_tokens > 0 {
            run.sink.emit(Intent::Notice {
                level: smith_ui_intents::NoticeLevel::Info,
                text: format!(
                    "the recent context kept verbatim is about {kept_tokens} tokens, over 1.5 × the {keep_tokens} asked to keep: the nearest boundary keeps that much (a boundary falls only at a message, never inside a tool batch)"
                ),
            });
        }
        run.sink.emit(Intent::CompactionStart {
            reason,
            summarized: event.summarized,
            kept: event.kept,
            estimated_tokens: summarized_tokens,
            kept_tokens: Some(kept_tokens),
        });
        let piece = self
            .lifecycle
            .compaction_prompt(&event, run.cancel)
            .map_err(CompactError::Prompt)?;
        if piece.role != PieceRole::Compaction || piece.text.trim().is_empty() {
            return Err(CompactError::Prompt(format!(
                "the compaction handler {} gave no ask, so nothing was sent",
                piece.handler
            )));
        }
        if run.cancel.is_cancelled() {
            return Err(CompactError::Aborted);
        }
        let definitions = self.tools.definitions();
        // The same instructions and tools as the rounds: the request shares their prefix
        // (and a prompt cache), and a history holding tool calls stays valid for vendors
        // that require the tools it used to be advertised.
        let prepared = run.prepare(self.lifecycle, 0, &definitions);
        let mut context: Vec<ContextItem> = run.session.loaded()?.items[..boundary].to_vec();
        context.push(ContextItem::Message(smith::Message::user_text(&piece.text)));
        let base = ProviderRequest {
            model: smith::ModelRef {
                provider: String::new(),
                model: String::new(),
            },
            instructions: crate::request::instructions(&prepared.pieces),
            context,
            tools: definitions,
            thinking: None,
            max_output: None,
            cache: Some(smith::PromptCache {
                key: run.session.id().to_string(),
            }),
        };
        check_pairing(&base.context).map_err(RunError::from)?;
        let ask = Ask {
            piece,
            items: boundary,
        };
        run.quiet = true;
        let served = run.dispatch(
            self.dispatcher,
            0,
            model,
            &base,
            &prepared.pieces,
            Some(&ask),
        );
        run.quiet = false;
        let served = match served {
            Ok(Some(served)) => served,
            Ok(None) => return Err(self.aborted(run, None)),
            Err(RunError::Provider(e)) => return Err(CompactError::Provider(e)),
            Err(e) => return Err(e.into()),
        };
        let response = served.response;
        run.usage.add(response.usage.as_ref());
        let cost = response
            .usage
            .as_ref()
            .zip(served.price)
            .and_then(|(usage, price)| price.cost(usage));
        run.cost = run.cost.zip(cost).map(|(a, b)| a + b);
        let summary = response.message.text();
        match judge(&response, &summary) {
            Judged::Complete => {}
            Judged::Aborted => return Err(self.aborted(run, Some(served.attempt))),
            Judged::Failed(e) => {
                self.failed(run, served.attempt, e.kind, &e.message)?;
                return Err(CompactError::Provider(e));
            }
            Judged::Incomplete(why) => {
                self.failed(run, served.attempt, ProviderErrorKind::Other, &why)?;
                return Err(CompactError::Incomplete(why));
            }
        }
        let carried = carried(run.session);
        let entry =
            run.session
                .writer
                .lock()
                .append_entries(&[NewEntry::from(Record::Compaction(
                    smith_store::Compaction {
                        summary: summary.clone(),
                        first_kept: Some(first_kept),
                        attempt: Some(served.attempt),
                        usage: response.usage,
                        carried: Some(carried),
                        started: Some(smith_store::CompactionStarted {
                            reason,
                            summarized: event.summarized,
                            kept: event.kept,
                            estimated_tokens: event.estimated_tokens,
                            kept_tokens: Some(kept_tokens),
                        }),
                    },
                ))])?[0];
        // The context the next request sees: the summary, then what was kept — as the
        // projection of the file now gives it, without reading the file again.
        let context = run.session.loaded()?;
        context.items.splice(
            ..boundary,
            [ContextItem::Message(smith::Message::user_text(&summary))],
        );
        context.entries.splice(..boundary, [entry]);
        context.summary = Some(entry);
        Ok(Compacted {
            entry,
            summary,
            summarized: boundary,
            kept,
            first_kept,
            usage: response.usage,
            cost_usd: cost,
        })
    }

    /// Record why the summary of `attempt` was not kept (no further attempt).
    fn failed(
        &self,
        run: &mut Run<'_>,
        attempt: EntryId,
        kind: ProviderErrorKind,
        why: &str,
    ) -> Result<(), CompactError> {
        let failure = AttemptFailure {
            attempt,
            kind,
            message: format!("compaction summary not kept: {why}"),
            next: Next::Stop,
        };
        run.session
            .writer
            .lock()
            .append_entries(&[NewEntry::from(Record::AttemptFailed(failure.clone()))])?;
        run.sink.emit(Intent::AttemptFailed { failure });
        Ok(())
    }

    /// The abort of a compaction: within running work its abort watch records it; on its
    /// own, an `abort` record paired with the compaction's attempt (when one was sent).
    fn aborted(&self, run: &mut Run<'_>, attempt: Option<EntryId>) -> CompactError {
        if run.submission.is_none() {
            let record = NewEntry {
                record: Record::Abort(smith_store::Abort {
                    reason: crate::abort::REASON.to_owned(),
                }),
                pair: attempt,
            };
            if let Err(e) = run.session.writer.lock().append_entries(&[record]) {
                return e.into();
            }
        }
        CompactError::Aborted
    }
}

/// Automatic compaction's state for one session in this process.
#[derive(Debug, Default)]
pub(crate) struct AutoState {
    /// Consecutive failed automatic compactions.
    failures: u32,
    /// Whether the run was told that the window is unknown (said once per session).
    said_no_window: bool,
    /// Whether the run was told that compacting cannot bring requests under the threshold.
    said_cannot_help: bool,
}

/// What the check before a request came to.
pub(crate) enum Auto {
    /// Nothing was needed or possible; send the request as it is.
    Send,
    /// The context was compacted: build the request again.
    Compacted,
    /// Aborted meanwhile.
    Aborted,
}

impl Agent<'_> {
    /// The dispatched model's context window in tokens: the first candidate's catalog record
    /// (the one a request goes to first); `None` when unknown.
    pub(crate) fn window(&self) -> Option<(u64, String)> {
        match self.dispatcher {
            crate::dispatch::Dispatcher::Routed(route) => {
                let info = route.candidates().first()?.capabilities.as_ref()?;
                Some((info.context?, info.model.to_string()))
            }
            crate::dispatch::Dispatcher::Direct(_) => None,
        }
    }

    /// Before a round's request `base`: compact when automatic compaction is on and the
    /// request's estimated input passes the threshold share of the window. A failure is a
    /// warning until [`CompactionPolicy::max_failures`] in a row, which stop the run.
    pub(crate) fn auto_compact(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
        base: &ProviderRequest,
    ) -> Result<Auto, RunError> {
        if !self.compaction.auto {
            return Ok(Auto::Send);
        }
        let estimate = base.estimated_input_tokens();
        let Some((window, name)) = self.window() else {
            // Said once, and only when a compaction would have something to summarize; a
            // provider given directly has no catalog to say it from.
            let routed = matches!(self.dispatcher, crate::dispatch::Dispatcher::Routed(_));
            if routed
                && estimate > 2 * self.compaction.keep_tokens
                && !run.session.compaction.said_no_window
            {
                run.session.compaction.said_no_window = true;
                run.sink.emit(Intent::Notice {
                    level: smith_ui_intents::NoticeLevel::Info,
                    text: format!(
                        "`{model}` has no context window in its catalog record, so this session is not compacted automatically; compact it by hand when it grows long"
                    ),
                });
            }
            return Ok(Auto::Send);
        };
        #[allow(clippy::cast_precision_loss)] // token counts are far below 2^52
        if (estimate as f64) <= self.compaction.threshold * window as f64 {
            return Ok(Auto::Send);
        }
        let keep = self.compaction.keep_tokens;
        // What no compaction can shrink: the instructions and the tool definitions.
        let context: u64 = base.context.iter().map(ContextItem::estimated_tokens).sum();
        let fixed = estimate.saturating_sub(context);
        #[allow(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss
        )]
        let limit = (self.compaction.threshold * window as f64) as u64;
        if fixed + keep >= limit {
            if !run.session.compaction.said_cannot_help {
                run.session.compaction.said_cannot_help = true;
                run.sink.emit(Intent::Notice {
                    level: smith_ui_intents::NoticeLevel::Warning,
                    text: format!(
                        "the next request (about {estimate} tokens) passes {:.0}% of {name}'s {window}-token context window, but its instructions and tool definitions (about {fixed} tokens) and the {keep} tokens kept verbatim alone reach that, so compacting cannot help and the session is not compacted automatically; keep less verbatim (setting `compaction.keep-tokens`), disable plugins this work does not need, or choose a model with a larger window",
                        self.compaction.threshold * 100.0
                    ),
                });
            }
            return Ok(Auto::Send);
        }
        match self.compaction(run, model, CompactionReason::Threshold, None, keep) {
            Ok(_) => {
                run.session.compaction.failures = 0;
                Ok(Auto::Compacted)
            }
            Err(CompactError::Aborted) => Ok(Auto::Aborted),
            // Nothing lies before the recent context: there is nothing to do, and nothing
            // was sent.
            Err(CompactError::Nothing { .. } | CompactError::OnlyPrompts { .. }) => Ok(Auto::Send),
            Err(CompactError::Run(e)) => Err(e),
            Err(e) => self.compaction_failed(run, &e, &format!(
                "the next request (about {estimate} tokens) would pass {:.0}% of {name}'s {window}-token context window",
                self.compaction.threshold * 100.0
            )),
        }
    }

    /// Count a failed automatic compaction: a warning, or — at the cap — the run's end.
    fn compaction_failed(
        &self,
        run: &mut Run<'_>,
        error: &CompactError,
        why: &str,
    ) -> Result<Auto, RunError> {
        let state = &mut run.session.compaction;
        state.failures += 1;
        if state.failures >= self.compaction.max_failures {
            let failures = state.failures;
            state.failures = 0;
            return Err(RunError::Compaction(format!(
                "{why}, and compaction failed {failures} times in a row (last: {error}); the run was stopped so it cannot loop — compact the session by hand, keep less context verbatim (setting `compaction.keep-tokens`), or start a new session"
            )));
        }
        run.sink.emit(Intent::Notice {
            level: smith_ui_intents::NoticeLevel::Warning,
            text: format!("{why}, but compaction failed: {error}; the request is sent as it is"),
        });
        Ok(Auto::Send)
    }

    /// Why a context overflow was not answered by compacting, added to its message:
    /// automatic compaction is off, or this run compacted for it once already.
    pub(crate) fn explain_overflow(&self, error: &mut ProviderError, retried: bool) {
        let why = if retried {
            "the session was compacted once in this run and the request still did not fit — keep less context verbatim (setting `compaction.keep-tokens`) or start a new session"
        } else {
            "automatic compaction is off (setting `compaction.auto`), so the session was not compacted to fit — turn it on, or compact the session by hand"
        };
        error.message = format!("{}; {why}", error.message);
    }

    /// After the provider refused a round's request because its context does not fit (and
    /// automatic compaction is on): compact once; the caller then runs the round again.
    /// `Ok(true)`: compacted; `Ok(false)`: aborted; `Err`: the run ends with `error`, and why
    /// compacting did not help.
    pub(crate) fn overflow_compact(
        &self,
        run: &mut Run<'_>,
        model: &Selection,
        mut error: ProviderError,
    ) -> Result<bool, RunError> {
        // The context does not fit as it is: keep at most half of it verbatim, so there is
        // always something to summarize.
        let tokens: u64 = run
            .session
            .loaded()?
            .items
            .iter()
            .map(ContextItem::estimated_tokens)
            .sum();
        let keep = self.compaction.keep_tokens.min(tokens / 2);
        match self.compaction(run, model, CompactionReason::Overflow, None, keep) {
            Ok(_) => {
                run.session.compaction.failures = 0;
                Ok(true)
            }
            Err(CompactError::Aborted) => Ok(false),
            Err(CompactError::Run(e)) => Err(e),
            Err(e) => {
                error.message = format!("{}; compacting to fit failed: {e}", error.message);
                Err(RunError::Provider(error))
            }
        }
    }
}

/// What a summary's response makes of it: only one the model ended itself, with text and no
/// tool call, is complete (spec: Compaction, cost, and secrets).
enum Judged {
    /// A complete summary.
    Complete,
    /// The run was aborted while it streamed.
    Aborted,
    /// The provider reported an error.
    Failed(ProviderError),
    /// Not a complete summary, for this reason.
    Incomplete(String),
}

/// Judge the summary `response` (its text `summary`).
fn judge(response: &crate::record::Response, summary: &str) -> Judged {
    let why = match response.stop_reason {
        StopReason::Aborted => return Judged::Aborted,
        StopReason::EndTurn
            if response
                .message
                .content
                .iter()
                .any(|b| matches!(b, ContentBlock::ToolCall(_))) =>
        {
            "the model asked for a tool instead of writing a summary".to_owned()
        }
        StopReason::EndTurn if summary.trim().is_empty() => {
            "the model's answer had no text".to_owned()
        }
        StopReason::EndTurn => return Judged::Complete,
        StopReason::MaxTokens => {
            "it ended at the output limit, so it is truncated (raise the max-output setting or keep more context verbatim)".to_owned()
        }
        StopReason::Error => {
            return Judged::Failed(response.error.clone().unwrap_or_else(|| {
                ProviderError::new(ProviderErrorKind::Other, "the provider reported an error")
            }));
        }
        other => format!(
            "the response ended with stop reason `{}`, not the model's end of turn",
            serde_json::to_value(other)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        ),
    };
    Judged::Incomplete(why)
}

/// What later projections and openings take from a compaction instead of walking the
/// summarized history: the model, the secrets, the work open now and the permission mode.
fn carried(session: &Session) -> smith_store::Carried {
    smith_store::Carried {
        model: session.model.clone(),
        secrets: session.registered_names(),
        open: {
            let work = crate::inbox::lock(&session.work);
            work.live
                .keys()
                .copied()
                .chain(work.queue.iter().map(|q| q.submission))
                .collect()
        },
        permission_mode: session.permission_mode.clone(),
    }
}
