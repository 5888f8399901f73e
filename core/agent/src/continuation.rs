//! Continuing interrupted work (spec: Sessions → Work and recovery — "Continuation uses
//! recorded state and resolved execution prerequisites; it never re-executes effects merely to
//! reconstruct state", and "Missing or incompatible code or required authorization blocks the
//! affected continuation with a diagnostic; no silent name-based rebinding or evidence
//! deletion").
//!
//! A turn whose process died is held open by [`crate::Session::open_holding`] as an
//! [`InterruptedTurn`]: the frontend shows what it had done, then either settles it as aborted
//! ([`crate::Session::settle_interrupted`]) or continues it ([`crate::Agent::continue_interrupted`]).
//! Continuing first checks the prerequisites its latest checkpoint recorded — the route's
//! selection, the plugin generation (`id@version`), the tool loadout — against what is active
//! now; anything missing blocks it with nothing written. Then the calls of the last response
//! that have no result are answered: a call whose effects are on record is answered from them
//! (an unknown outcome shown as unknown, with its evidence, and any verdict a person gave),
//! never run again; a call with no recorded effect never started its work, and runs. The turn
//! then goes on with its next round, numbered after the rounds it had run.

use std::collections::HashMap;

use smith::{EffectOutcome, EntryId, Selection, ToolCall, ToolResult};
use smith_store::{Record, SessionReader};

/// A top-level turn a dead process left without an end, held open for a decision: continue
/// it, or settle it as aborted.
#[derive(Clone, Debug, PartialEq)]
pub struct InterruptedTurn {
    /// The turn's submission (its entry id).
    pub submission: EntryId,
    /// The selection it was submitted with.
    pub model: Selection,
    /// Its input text.
    pub input: String,
    /// Rounds whose response is recorded (since the turn's latest compaction, when it was
    /// compacted while it ran).
    pub rounds: u32,
    /// Tool calls answered with a recorded result.
    pub calls_answered: usize,
    /// Calls of the last response that have no result yet.
    pub calls_pending: usize,
    /// How the turn's last recorded message — when it is a model response — ended; `None`
    /// when none is recorded or input was delivered after it.
    pub last_stop: Option<smith::StopReason>,
    /// Effects of the turn whose outcome is unknown (their effect ids), those opening just
    /// completed as unknown included.
    pub unknown_effects: Vec<String>,
}

/// A prerequisite of a continuation that is not met now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The turn runs with `recorded`, but the route prepared now is for `now`.
    Model {
        /// The selection the turn recorded.
        recorded: String,
        /// The selection prepared now.
        now: String,
    },
    /// A plugin the turn's rounds offered tools of is not active, or active at a version
    /// that is not compatible (another major version; another minor one before 1.0).
    Plugin {
        /// `id@version` as recorded.
        required: String,
        /// `id@version` active now, when the id is active at another version.
        active: Option<String>,
    },
    /// Tools the turn offered the model, or that a pending call names, are not offered now.
    Tools {
        /// Their names, in the order the turn offered them.
        names: Vec<String>,
    },
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Model { recorded, now } => write!(
                f,
                "the turn runs with {recorded}, but {now} is selected now; select {recorded} to continue it"
            ),
            Self::Plugin {
                required,
                active: None,
            } => write!(
                f,
                "plugin {required} provided tools of the turn and is not active now; install or enable it"
            ),
            Self::Plugin {
                required,
                active: Some(active),
            } => write!(
                f,
                "plugin {required} provided tools of the turn, and {active} is active now, an incompatible version; install a compatible version"
            ),
            Self::Tools { names } => write!(
                f,
                "tool{} {} {} offered to the model in this turn and {} not offered now (a plugin missing or disabled, or the permission mode withholding {}); make {} available",
                if names.len() == 1 { "" } else { "s" },
                names.join(", "),
                if names.len() == 1 { "was" } else { "were" },
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "it" } else { "them" },
                if names.len() == 1 { "it" } else { "them" },
            ),
        }
    }
}

/// Why an interrupted turn was not continued. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ContinueError {
    /// The session has no interrupted turn held open.
    #[error(
        "the session has no interrupted turn to continue: its last turn ended (or was settled)"
    )]
    NothingToContinue,
    /// Prerequisites the turn recorded are not met now.
    #[error("the interrupted turn {submission} cannot be continued here: {}; or settle it as aborted", missing.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Blocked {
        /// The turn's submission.
        submission: EntryId,
        /// What is missing, each with what would satisfy it.
        missing: Vec<Missing>,
    },
    /// The session could not be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// What continuing needs beyond the held turn, read from its records when it continues.
#[derive(Debug)]
pub(crate) struct Recorded {
    /// The selection the latest checkpoint recorded, if any.
    pub(crate) model: Option<Selection>,
    /// The plugins (`id@version`) the latest checkpoint, or the pending calls' effects, name.
    pub(crate) plugins: Vec<String>,
    /// The tool loadout the latest checkpoint recorded.
    pub(crate) tools: Vec<String>,
    /// Per pending call id, its effects in intent order.
    pub(crate) effects: HashMap<String, Vec<Effect>>,
    /// The rounds the turn recorded a response of.
    pub(crate) rounds: u32,
    /// The usage and cost of the turn's recorded responses, at their attempts' prices.
    pub(crate) accounts: crate::Accounts,
    /// Attempts recorded for the round after the last response (its request was sent, its
    /// response cut off): the round's next attempt is numbered after them.
    pub(crate) attempts_after: u32,
}

/// One recorded effect of a call that has no result.
#[derive(Debug)]
pub(crate) struct Effect {
    pub(crate) effect_id: String,
    pub(crate) kind: String,
    pub(crate) target: Option<String>,
    pub(crate) outcome: Option<EffectOutcome>,
    pub(crate) output: String,
    /// The completion's evidence of what it changed, as compact JSON (`None` when null).
    pub(crate) evidence: Option<String>,
    /// A person's verdict on an unknown outcome, and their note.
    pub(crate) verdict: Option<(EffectOutcome, String)>,
}

/// Most bytes of one effect's recorded output quoted in the result a continuation gives its
/// call.
const QUOTED_OUTPUT_BYTES: usize = 2048;

impl Recorded {
    /// Read what the turn of `submission` recorded from the selected branch ending at `leaf`,
    /// walking back to the submission: its latest checkpoint, its responses (their rounds,
    /// usage and cost), and the effects of the calls named in `pending` — recorded after
    /// `calls`, the message that asked for them (call ids may repeat across responses).
    pub(crate) fn read(
        reader: &mut SessionReader,
        leaf: EntryId,
        submission: EntryId,
        (pending, calls): (&[ToolCall], Option<EntryId>),
    ) -> Result<Self, smith_store::Error> {
        let mut recorded = Self {
            model: None,
            plugins: Vec::new(),
            tools: Vec::new(),
            effects: HashMap::new(),
            rounds: 0,
            accounts: crate::account(std::iter::empty()),
            attempts_after: 0,
        };
        // The turn's responses and their attempts, for its usage so far.
        let mut responses = Vec::new();
        let mut checkpoint_seen = false;
        let mut intents = Vec::new();
        let mut completions: HashMap<String, smith_store::EffectCompletion> = HashMap::new();
        let mut verdicts: HashMap<String, (EffectOutcome, String)> = HashMap::new();
        let mut at = Some(leaf);
        while let Some(id) = at {
            if id <= submission {
                break;
            }
            let effects = calls.is_some_and(|c| id > c);
            let (meta, entry) = reader.entry_if(id, |m| match m.record_kind {
                Record::EFFECT_INTENT | Record::EFFECT_COMPLETION | Record::EFFECT_VERDICT => {
                    effects
                }
                Record::CHECKPOINT => !checkpoint_seen,
                Record::MESSAGE | Record::ATTEMPT | Record::COMPACTION => true,
                _ => false,
            })?;
            at = (meta.parent != 0).then_some(EntryId(meta.parent));
            let entry = match entry {
                Some(e)
                    if matches!(
                        e.record,
                        Record::Message(_) | Record::Attempt(_) | Record::Compaction(_)
                    ) =>
                {
                    if let Record::Message(m) = &e.record
                        && m.message.role == smith::Role::Assistant
                    {
                        recorded.rounds += 1;
                    }
                    responses.push(e);
                    continue;
                }
                other => other,
            };
            match entry.map(|e| e.record) {
                Some(Record::Checkpoint(c)) => {
                    checkpoint_seen = true;
                    recorded.model = c.model;
                    recorded.plugins = c.requires;
                    recorded.tools = c.tools;
                }
                Some(Record::EffectIntent(i)) if pending.iter().any(|c| c.id == i.call_id) => {
                    intents.push(i);
                }
                Some(Record::EffectCompletion(c)) => {
                    completions.insert(c.effect_id.clone(), c);
                }
                Some(Record::EffectVerdict(v)) => {
                    // Walking back, the latest verdict is met first.
                    verdicts.entry(v.effect_id).or_insert((v.outcome, v.note));
                }
                _ => {}
            }
        }
        recorded.accounts = crate::account(&responses);
        let next_round = recorded.rounds + 1;
        recorded.attempts_after = responses
            .iter()
            .filter(|e| matches!(&e.record, Record::Attempt(a) if a.round == next_round))
            .count()
            .try_into()
            .unwrap_or(u32::MAX);
        intents.reverse();
        for intent in intents {
            // An intent names its plugin with its generation (`files@0.1.0#1`); the
            // working-tree snapshots around a batch are the agent's own, whatever holds them.
            let plugin = if intent.effect.starts_with("vcs.") {
                String::new()
            } else {
                intent
                    .plugin
                    .split('#')
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            };
            if !plugin.is_empty() && !recorded.plugins.contains(&plugin) {
                recorded.plugins.push(plugin);
            }
            let completion = completions.remove(&intent.effect_id);
            let evidence = completion
                .as_ref()
                .filter(|c| !c.evidence.is_null())
                .map(|c| quoted(c.evidence.to_string().as_bytes()));
            recorded
                .effects
                .entry(intent.call_id.clone())
                .or_default()
                .push(Effect {
                    verdict: verdicts.remove(&intent.effect_id),
                    effect_id: intent.effect_id,
                    kind: intent.effect,
                    target: intent.target,
                    outcome: completion.as_ref().map(|c| c.outcome),
                    output: completion.map(|c| quoted(&c.output)).unwrap_or_default(),
                    evidence,
                });
        }
        Ok(recorded)
    }

    /// What is not met now of these prerequisites, the turn's own selection and the pending
    /// calls' tools: against `model` (the selection prepared now), `active` (the plugins
    /// offering tools, `id@version`) and `offered` (the tools offered now).
    pub(crate) fn missing(
        &self,
        turn: &InterruptedTurn,
        pending: &[ToolCall],
        model: &Selection,
        active: &[String],
        offered: &[String],
    ) -> Vec<Missing> {
        let mut missing = Vec::new();
        let recorded_model = self.model.as_ref().unwrap_or(&turn.model);
        if recorded_model != model {
            missing.push(Missing::Model {
                recorded: recorded_model.to_string(),
                now: model.to_string(),
            });
        }
        for required in &self.plugins {
            let (id, version) = split_label(required);
            let now = active.iter().find(|a| split_label(a).0 == id);
            match now {
                Some(now) if compatible(version, split_label(now).1) => {}
                now => missing.push(Missing::Plugin {
                    required: required.clone(),
                    active: now.cloned(),
                }),
            }
        }
        let mut names: Vec<String> = Vec::new();
        for name in self
            .tools
            .iter()
            .map(String::as_str)
            .chain(pending.iter().map(|c| c.name.as_str()))
        {
            if !offered.iter().any(|o| o == name) && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
        if !names.is_empty() {
            missing.push(Missing::Tools { names });
        }
        missing
    }

    /// The result a pending call gets from its recorded effects, or `None` when it has none
    /// but the working-tree snapshots taken around its batch (`vcs.*`, the agent's own): it
    /// never started its work, and runs now.
    pub(crate) fn result_of(&self, call: &ToolCall) -> Option<ToolResult> {
        let effects = self
            .effects
            .get(&call.id)
            .filter(|effects| effects.iter().any(|e| !e.kind.starts_with("vcs.")))?;
        let mut output = String::from(
            "interrupted: the process running this call ended before its result was recorded, so it is not run again. Its effects on record:",
        );
        let mut is_error = false;
        for e in effects {
            let what = match &e.target {
                Some(target) => format!("{} {target}", e.kind),
                None => e.kind.clone(),
            };
            let how = match (e.outcome, &e.verdict) {
                (Some(EffectOutcome::Unknown) | None, Some((verdict, note))) => {
                    is_error |= *verdict != EffectOutcome::Applied;
                    format!(
                        "unknown when it ran; a person found it {}{}",
                        verdict.as_str(),
                        if note.is_empty() {
                            String::new()
                        } else {
                            format!(" ({note})")
                        }
                    )
                }
                (Some(EffectOutcome::Unknown) | None, None) => {
                    is_error = true;
                    "unknown: whether it happened is not known; check before relying on it"
                        .to_owned()
                }
                (Some(outcome), _) => {
                    is_error |= outcome != EffectOutcome::Applied;
                    outcome.as_str().to_owned()
                }
            };
            output.push_str(&format!("\n- {what} (effect {}): {how}", e.effect_id));
            if let Some(evidence) = &e.evidence {
                output.push_str(&format!("; evidence: {evidence}"));
            }
            if !e.output.is_empty() {
                output.push_str(&format!("; recorded output:\n{}", e.output));
            }
        }
        Some(ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            output,
            is_error,
        })
    }
}

/// `id@version` split at its last `@` (the version empty when there is none).
fn split_label(label: &str) -> (&str, &str) {
    label.rsplit_once('@').unwrap_or((label, ""))
}

/// Whether `now` may stand in for `recorded` (SemVer's caret rule: the same major version,
/// and before 1.0 the same minor one; an unparsable version only equal to itself).
fn compatible(recorded: &str, now: &str) -> bool {
    let parts = |v: &str| -> Option<(u64, u64)> {
        let mut it = v.split(['.', '-', '+']);
        Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
    };
    match (parts(recorded), parts(now)) {
        (Some((ra, rb)), Some((na, nb))) => ra == na && (ra > 0 || rb == nb),
        _ => recorded == now,
    }
}

/// `bytes` as text of at most [`QUOTED_OUTPUT_BYTES`], cut at a character boundary and said.
fn quoted(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= QUOTED_OUTPUT_BYTES {
        return text.trim_end().to_owned();
    }
    let mut end = QUOTED_OUTPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[… {} more bytes]", &text[..end], text.len() - end)
}

/// The turn of live top-level work `submission`, as the branch's decoded `entries` (root
/// first) and opening's `unknown` effects show it.
pub(crate) fn describe(
    entries: &[smith_store::Entry],
    results: impl Fn(EntryId) -> usize,
    submission: EntryId,
    live: &crate::work::Live,
    unknown: Vec<String>,
) -> InterruptedTurn {
    let mut turn = InterruptedTurn {
        submission,
        model: live.model.clone(),
        input: live.input.clone(),
        rounds: 0,
        calls_answered: 0,
        calls_pending: 0,
        last_stop: None,
        unknown_effects: unknown,
    };
    // The first user message after the submission is its input; later ones were delivered.
    let mut input_seen = false;
    for entry in entries.iter().filter(|e| e.id > submission) {
        let Record::Message(m) = &entry.record else {
            continue;
        };
        if m.message.role == smith::Role::Assistant {
            let calls = m.message.tool_calls().count();
            let answered = results(entry.id);
            turn.rounds += 1;
            turn.calls_answered += answered;
            turn.calls_pending = calls.saturating_sub(answered);
            turn.last_stop = m.stop_reason;
        } else if std::mem::replace(&mut input_seen, true) {
            // Input delivered into the turn after its last response: the model owes it one.
            turn.calls_pending = 0;
            turn.last_stop = None;
        }
    }
    turn
}

impl crate::Agent<'_> {
    /// Continue the interrupted turn `session` holds ([`crate::Session::open_holding`]) with
    /// `model` — which must be the selection the turn recorded — to an explicit stop
    /// condition, emitting intents into `sink` as a run does.
    ///
    /// The prerequisites the turn's latest checkpoint recorded (else its submission and the
    /// effects of its pending calls) are checked first against this agent's tools; what is
    /// missing refuses the continuation with nothing written. Then the last response's calls
    /// without a result are answered — from their recorded effects when they have any (never
    /// run again), else by running them — and the turn goes on with its next round.
    ///
    /// # Errors
    /// [`ContinueError::NothingToContinue`] when no turn is held; [`ContinueError::Blocked`]
    /// naming each missing prerequisite; [`ContinueError::Store`] when the session cannot
    /// be read. Nothing was written, and the turn stays held.
    pub fn continue_interrupted(
        &self,
        session: &mut crate::Session,
        model: &Selection,
        sink: &mut dyn smith_ui_intents::IntentSink,
        cancel: &smith::Cancel,
    ) -> Result<crate::RunOutcome, ContinueError> {
        use smith_ui_intents::{Intent, NoticeLevel};

        let Some(turn) = session.held.clone() else {
            return Err(ContinueError::NothingToContinue);
        };
        session.loaded()?;
        let pending = session.pending_calls();
        let leaf = session.writer.lock().leaf().unwrap_or(turn.submission);
        let recorded = {
            let mut reader = SessionReader::open(session.path())?;
            let calls = session.call_message.filter(|_| !pending.is_empty());
            Recorded::read(&mut reader, leaf, turn.submission, (&pending, calls))?
        };
        let definitions = self.tools.definitions();
        let offered: Vec<String> = definitions.iter().map(|d| d.name.clone()).collect();
        let active = self.tools.provenance();
        let missing = recorded.missing(&turn, &pending, model, &active, &offered);
        if !missing.is_empty() {
            return Err(ContinueError::Blocked {
                submission: turn.submission,
                missing,
            });
        }
        session.held = None;
        sink.emit(Intent::RunStart {
            session: session.id(),
            model: model.clone(),
            sandbox: self.sandbox.map(str::to_owned),
        });
        sink.emit(Intent::Notice {
            level: NoticeLevel::Info,
            text: format!(
                "continuing interrupted turn {} after {} recorded round{}; recorded effects are not run again",
                turn.submission,
                turn.rounds,
                if turn.rounds == 1 { "" } else { "s" }
            ),
        });
        let mut run = crate::run::Run::new(session, sink, cancel);
        {
            let mut state = crate::inbox::lock(&run.session.work);
            state.running = Some((turn.submission, cancel.clone()));
            state.abort_recorded = None;
            state.held = None;
        }
        run.submission = Some(turn.submission);
        // Numbered, counted and budgeted after what the turn recorded before it was cut off.
        run.rounds_run = recorded.rounds;
        run.attempts_recorded = Some((recorded.rounds + 1, recorded.attempts_after));
        run.usage = recorded.accounts.total;
        run.cost = recorded.accounts.cost_usd;
        run.abort_watch = Some(crate::abort::AbortWatch::start(
            run.session.writer.clone(),
            std::sync::Arc::clone(&run.session.work),
            cancel.clone(),
            turn.submission,
        ));
        run.sink.emit(Intent::Receipt {
            submission: turn.submission.0,
            dedup_key: None,
            deduplicated: false,
            state: smith_ui_intents::ReceiptStatus::Admitted,
            stop_reason: None,
        });
        let outcome = if pending.is_empty() {
            match turn.last_stop {
                // The last response ended the turn; only its end was not recorded.
                Some(stop) if stop != smith::StopReason::ToolUse => Ok(stop),
                _ => self.rounds(&mut run, model),
            }
        } else {
            run.recorded_calls = pending
                .iter()
                .filter_map(|c| Some((c.id.clone(), recorded.result_of(c)?)))
                .collect();
            // As a fresh round does: calls of a response that did not end for tool use are
            // answered as not run, and the turn ends with that response's stop.
            let stop = turn.last_stop.unwrap_or(smith::StopReason::ToolUse);
            let batch = crate::rounds::Batch {
                round: recorded.rounds,
                stop,
                calls: &pending,
                definitions: &definitions,
                requires: &active,
                model,
            };
            self.run_batch(&mut run, &batch).and_then(|()| {
                if stop == smith::StopReason::ToolUse {
                    self.rounds(&mut run, model)
                } else {
                    Ok(stop)
                }
            })
        };
        Ok(self.finish(run, model, outcome))
    }
}

#[cfg(test)]
mod tests {
    use super::compatible;

    #[test]
    fn compatible_versions_follow_the_caret_rule() {
        assert!(compatible("0.1.0", "0.1.7"));
        assert!(!compatible("0.1.0", "0.2.0"));
        assert!(compatible("1.2.0", "1.9.1"));
        assert!(!compatible("1.2.0", "2.0.0"));
        assert!(compatible("weird", "weird"));
        assert!(!compatible("weird", "0.1.0"));
    }
}
