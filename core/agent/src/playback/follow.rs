//! One turn's replay state: what each record of the branch stands for in the live run that
//! wrote it, and the intents that run emitted for it.

use std::collections::VecDeque;

use smith::{CompactionReason, ContentBlock, Price, ProviderErrorKind, Role, StopReason, ToolCall};
use smith_store::{Entry, Record};

use super::transcript;
use smith_ui_intents::{DeltaKind, Intent, IntentSink, NoticeLevel, ReceiptStatus};

/// The state of the turn being replayed.
#[derive(Default)]
pub(super) struct Turn {
    /// The turn's number along the branch (0: before the first turn).
    pub(super) number: u32,
    /// Between the turn's submission and its run end.
    open: bool,
    /// The turn-starting submission, until its user message emitted the receipt.
    receipt: Option<(u64, Option<String>)>,
    round: u32,
    /// The prices of the attempts recorded so far in the turn, by entry id.
    prices: Vec<(u64, Option<Price>)>,
    /// The batch's calls not answered yet, in order, and why its response ended.
    pending: VecDeque<ToolCall>,
    stop: Option<StopReason>,
    cost: Option<f64>,
    /// A compaction under way: its start is shown once its outcome is known (the summary's
    /// record says what it summarized), so what it emitted meanwhile waits here.
    compaction: Option<Compacting>,
    /// The last attempt failure's kind in the turn (an overflow makes the next compaction's).
    last_failure: Option<ProviderErrorKind>,
    /// Effects whose intent is recorded and whose completion is not (yet).
    open_effects: Vec<smith::EffectIntent>,
    /// An abort request's notice, shown just before the run end (after what it stopped).
    abort: Option<Intent>,
    /// Plan changes a running call recorded, shown after that call's start as the live run
    /// showed them (the record comes before the call's result, which starts it here).
    plans: Vec<Intent>,
}

/// A compaction's intents held until its outcome.
struct Compacting {
    /// Context items its request carried (from the request record), while not recorded
    /// with the summary.
    summarized: u32,
    held: Vec<Intent>,
    /// Why it failed, when an attempt failure said so.
    failure: Option<String>,
}

impl Turn {
    /// The turn started by submission entry `id`.
    pub(super) fn start(number: u32, id: u64, dedup_key: Option<String>) -> Self {
        Self {
            number,
            open: true,
            receipt: Some((id, dedup_key)),
            cost: Some(0.0),
            ..Self::default()
        }
    }

    /// Emit what `entry` stands for in the live run, and move the state.
    pub(super) fn follow(&mut self, entry: &Entry, sink: &mut dyn IntentSink) {
        if self.compaction.is_some() && !self.compacting(entry, sink) {
            return;
        }
        let id = entry.id.0;
        match &entry.record {
            Record::Message(m) if m.message.role == Role::User => {
                sink.emit(Intent::MessageStart {
                    message_id: id,
                    role: Role::User,
                });
                sink.emit(transcript::message_end(id, m));
                if let Some((submission, dedup_key)) = self.receipt.take() {
                    sink.emit(Intent::Receipt {
                        submission,
                        dedup_key,
                        deduplicated: false,
                        state: ReceiptStatus::Admitted,
                        stop_reason: None,
                    });
                }
            }
            Record::Attempt(a) => {
                self.prices
                    .push((id, a.capabilities.as_ref().and_then(|c| c.price)));
                let intent = Intent::Attempt {
                    entry_id: id,
                    attempt: a.clone(),
                };
                // A compaction's attempt belongs to no round (round 0).
                if a.round == 0 {
                    self.compaction = Some(Compacting {
                        summarized: 0,
                        held: vec![intent],
                        failure: None,
                    });
                    return;
                }
                if a.round != self.round {
                    self.round = a.round;
                    sink.emit(Intent::RoundStart { round: a.round });
                }
                sink.emit(intent);
            }
            Record::AttemptFailed(f) => {
                self.last_failure = Some(f.kind);
                sink.emit(Intent::AttemptFailed { failure: f.clone() });
            }
            Record::Message(m) => self.message(id, m, sink),
            Record::ToolResult(r) => {
                let call = match self.pending.iter().position(|c| c.id == r.result.call_id) {
                    Some(at) => self.pending.remove(at),
                    None => None,
                };
                let arguments = call.map_or(serde_json::Value::Null, |c| c.arguments);
                sink.emit(Intent::ToolStart {
                    call_id: r.result.call_id.clone(),
                    name: r.result.name.clone(),
                    arguments,
                });
                for plan in self.plans.drain(..) {
                    sink.emit(plan);
                }
                sink.emit(transcript::tool_end(id, r));
                if self.pending.is_empty() {
                    self.end_round(sink);
                }
            }
            Record::RunEnd(end) => {
                self.open = false;
                // A change whose call's result was never recorded still shows, as live.
                for plan in self.plans.drain(..) {
                    sink.emit(plan);
                }
                self.close_effects(sink);
                if let Some(notice) = self.abort.take() {
                    sink.emit(notice);
                }
                sink.emit(transcript::run_end(end, self.cost));
            }
            Record::EffectIntent(i) => self.open_effects.push(i.clone()),
            Record::EffectCompletion(c) => {
                if let Some(at) = self
                    .open_effects
                    .iter()
                    .position(|i| i.effect_id == c.effect_id)
                {
                    let intent = self.open_effects.remove(at);
                    if c.uncertain(&intent.effect) {
                        sink.emit(unknown(&intent, "ended `unknown`"));
                    }
                }
            }
            Record::Abort(a) => {
                self.abort = Some(transcript::abort_notice(a));
            }
            Record::EffectVerdict(v) => {
                sink.emit(verdict(v));
            }
            Record::Vcs(v) => {
                if let Some(notice) = transcript::vcs_notice(v) {
                    sink.emit(notice);
                }
            }
            Record::State(s) => {
                if let Some(plan) = transcript::plan(s) {
                    // Set by a call of the batch: after its start, as live.
                    if self.pending.is_empty() {
                        sink.emit(plan);
                    } else {
                        self.plans.push(plan);
                    }
                }
            }
            _ => {}
        }
    }

    /// An assistant message: its start, one delta per text or thinking block, its end, its
    /// usage and cost; the round ends with it unless it calls tools.
    fn message(&mut self, id: u64, m: &smith_store::MessageRecord, sink: &mut dyn IntentSink) {
        sink.emit(Intent::MessageStart {
            message_id: id,
            role: m.message.role,
        });
        for block in &m.message.content {
            let (kind, text) = match block {
                ContentBlock::Text { text } => (DeltaKind::Text, text),
                ContentBlock::Thinking { text, .. } => (DeltaKind::Thinking, text),
                ContentBlock::ToolCall(_) | ContentBlock::Image(_) => continue,
            };
            if !text.is_empty() {
                sink.emit(Intent::MessageDelta {
                    message_id: id,
                    kind,
                    text: text.clone(),
                });
            }
        }
        sink.emit(transcript::message_end(id, m));
        let cost = self.cost_of(m.attempt, m.usage.as_ref());
        sink.emit(Intent::Usage {
            message_id: id,
            attempt: m.attempt.map(|a| a.0),
            model: m.model.clone().map(Box::new),
            usage: m.usage,
            cost_usd: cost,
        });
        // The round ends with the response, or once each of its calls is answered.
        self.pending = m.message.tool_calls().cloned().collect();
        self.stop = m.stop_reason;
        if self.pending.is_empty() {
            self.end_round(sink);
        }
    }

    /// The cost of `usage` at attempt `attempt`'s recorded price, added to the turn's.
    fn cost_of(
        &mut self,
        attempt: Option<smith::EntryId>,
        usage: Option<&smith::Usage>,
    ) -> Option<f64> {
        let price = attempt.and_then(|a| {
            self.prices
                .iter()
                .find(|(at, _)| *at == a.0)
                .and_then(|(_, p)| *p)
        });
        let cost = usage.zip(price).and_then(|(u, p)| p.cost(u));
        self.cost = self.cost.zip(cost).map(|(a, b)| a + b);
        cost
    }

    /// An entry while a compaction is under way: whether it is past the compaction (and is
    /// to be followed as any other).
    fn compacting(&mut self, entry: &Entry, sink: &mut dyn IntentSink) -> bool {
        let Some(c) = self.compaction.as_mut() else {
            return true;
        };
        match &entry.record {
            Record::Request(r) => {
                if let Some(ask) = &r.compaction {
                    c.summarized = u32::try_from(ask.items).unwrap_or(u32::MAX);
                }
                false
            }
            Record::RequestInput(_) => false,
            Record::AttemptFailed(f) => {
                c.failure = Some(f.message.clone());
                c.held.push(Intent::AttemptFailed { failure: f.clone() });
                false
            }
            Record::Attempt(a) if a.round == 0 => {
                self.prices
                    .push((entry.id.0, a.capabilities.as_ref().and_then(|c| c.price)));
                c.held.push(Intent::Attempt {
                    entry_id: entry.id.0,
                    attempt: a.clone(),
                });
                false
            }
            Record::Compaction(done) => {
                let c = self.compaction.take().unwrap_or_else(|| unreachable!());
                let cost = self.cost_of(done.attempt, done.usage.as_ref());
                let started = done.started.unwrap_or(smith_store::CompactionStarted {
                    reason: self.reason(),
                    summarized: c.summarized,
                    kept: 0,
                    estimated_tokens: 0,
                    kept_tokens: None,
                });
                let end = transcript::compaction_end(entry.id.0, done, started.reason, cost);
                self.compacted(started, c.held, end, sink);
                false
            }
            _ => {
                // The compaction recorded no summary: it failed (or was cut off).
                self.fail_compaction(sink);
                true
            }
        }
    }

    /// Close a compaction that recorded no summary: its start (what its request carried),
    /// what it emitted, and its end with the failure.
    pub(super) fn fail_compaction(&mut self, sink: &mut dyn IntentSink) {
        let Some(c) = self.compaction.take() else {
            return;
        };
        let reason = self.reason();
        let started = smith_store::CompactionStarted {
            reason,
            summarized: c.summarized,
            kept: 0,
            estimated_tokens: 0,
            kept_tokens: None,
        };
        let end = Intent::CompactionEnd {
            reason,
            entry_id: None,
            first_kept: None,
            summary: None,
            usage: None,
            cost_usd: None,
            error: Some(c.failure.unwrap_or_else(|| {
                "the compaction recorded no summary (it failed or was stopped)".to_owned()
            })),
        };
        self.compacted(started, c.held, end, sink);
    }

    /// A compaction's intents where the live run emitted them: one at the threshold ran
    /// after its round started (before the round's request); one after an overflow ended
    /// the round with an error, and the round then started again.
    fn compacted(
        &mut self,
        started: smith_store::CompactionStarted,
        held: Vec<Intent>,
        end: Intent,
        sink: &mut dyn IntentSink,
    ) {
        match started.reason {
            CompactionReason::Threshold => {
                self.round += 1;
                sink.emit(Intent::RoundStart { round: self.round });
            }
            CompactionReason::Overflow => {
                sink.emit(Intent::RoundEnd {
                    round: self.round,
                    stop_reason: StopReason::Error,
                });
            }
            CompactionReason::Manual => {}
        }
        sink.emit(Intent::CompactionStart {
            reason: started.reason,
            summarized: started.summarized,
            kept: started.kept,
            estimated_tokens: started.estimated_tokens,
            kept_tokens: started.kept_tokens,
        });
        for intent in held {
            sink.emit(intent);
        }
        sink.emit(end);
        if started.reason == CompactionReason::Overflow {
            // The round runs again: its next attempt starts it anew.
            self.round = 0;
        }
    }

    /// Say which effects recorded an intent and no completion: the run stopped while they
    /// ran (a crash, a kill), so whether they happened is not known.
    pub(super) fn close_effects(&mut self, sink: &mut dyn IntentSink) {
        for intent in std::mem::take(&mut self.open_effects) {
            sink.emit(unknown(
                &intent,
                "recorded no completion (the run stopped while it ran)",
            ));
        }
    }

    /// Why a compaction that did not record its reason ran: asked for outside a run, after
    /// an overflow, or at the threshold.
    fn reason(&self) -> CompactionReason {
        if !self.open {
            CompactionReason::Manual
        } else if self.last_failure == Some(ProviderErrorKind::ContextOverflow) {
            CompactionReason::Overflow
        } else {
            CompactionReason::Threshold
        }
    }

    /// The round's end, with its response's stop reason (once).
    fn end_round(&mut self, sink: &mut dyn IntentSink) {
        if let Some(stop_reason) = self.stop.take() {
            sink.emit(Intent::RoundEnd {
                round: self.round,
                stop_reason,
            });
        }
    }
}

/// The warning that effect `intent` is unknown, `how` saying why.
/// A person's verdict on an unknown effect, where it was recorded.
fn verdict(v: &smith_store::EffectVerdict) -> Intent {
    Intent::Notice {
        level: NoticeLevel::Info,
        text: format!(
            "effect {} reconciled: {}{}",
            v.effect_id,
            match v.outcome {
                smith::EffectOutcome::Applied => "it happened (applied)",
                _ => "it did not happen (not applied)",
            },
            if v.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", v.note.trim().replace('\n', " ⏎ "))
            }
        ),
    }
}

fn unknown(intent: &smith::EffectIntent, how: &str) -> Intent {
    let target = intent
        .target
        .as_deref()
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    Intent::Notice {
        level: NoticeLevel::Warning,
        text: format!(
            "effect {} ({}{target}) of call {} ({}) {how}: unknown — whether it happened is not known, and it is never run again",
            intent.effect_id, intent.effect, intent.call_id, intent.tool
        ),
    }
}
