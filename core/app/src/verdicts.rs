//! Effects whose outcome is unknown, and a person's verdict on them (`smith effects`; spec:
//! Durable effect boundary — "Unknown → Reconciled: explicit reconciliation"). An effect is
//! unknown when its completion says so (the process died between intent and completion, or
//! a program's effect could not be judged), or when no completion is recorded yet (the
//! session was not opened since its writer died). A verdict — applied or not applied, with a
//! note — is an `effect_verdict` record paired with the completion, which stays as recorded
//! with its evidence; replay shows it, and re-execution compares against it.

use std::collections::HashMap;
use std::path::Path;

use smith::{EffectOutcome, EntryId, SessionId};
use smith_store::{EffectVerdict, Record, SessionReader};

/// The longest verdict note, in bytes.
pub const MAX_NOTE_BYTES: usize = 4096;

/// An effect whose outcome is unknown.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UnknownEffect {
    /// The effect's id.
    pub effect_id: String,
    /// How to name it to a reconciliation: its id, or `ID@INTENT` (the intent's entry) when
    /// another effect of unknown outcome in the session has the same id — ids repeat when a
    /// provider repeats tool call ids.
    pub address: String,
    /// Its kind (`fs.write`, `process.run`, …).
    pub effect: String,
    /// What it acted on, when recorded (a path, a program).
    pub target: Option<String>,
    /// The tool call it belonged to.
    pub call_id: String,
    /// The plugin that asked for it (`id@version#generation`).
    pub plugin: String,
    /// What it was asked to do (the command of a program, the content of a write…), as the
    /// intent recorded it.
    pub input: serde_json::Value,
    /// The intent's entry.
    pub intent: EntryId,
    /// The completion's entry, when one is recorded.
    pub completion: Option<EntryId>,
    /// What the completion says (its output, as text).
    pub output: Option<String>,
    /// The completion's evidence.
    pub evidence: serde_json::Value,
    /// The verdict recorded on it, the latest when several are.
    pub verdict: Option<Verdict>,
}

/// A verdict as recorded.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// `applied` or `not-applied`.
    pub outcome: EffectOutcome,
    /// The note.
    pub note: String,
    /// Its entry.
    pub entry: EntryId,
    /// When it was recorded: milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
}

/// The unknown effects of a session, and the damaged changes the reading skipped (an effect
/// recorded there is not known, so the list may be short of it).
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The effects, in intent order.
    pub effects: Vec<UnknownEffect>,
    /// The damaged changes skipped.
    pub skipped: Vec<smith_store::Skipped>,
}

/// Every effect of session `path` whose outcome is unknown, in intent order, on every branch,
/// with the verdict recorded on each; and the damage the reading met.
///
/// # Errors
/// The store's read errors.
pub fn list(path: &Path) -> Result<Listing, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let effects = unknown_in(&mut reader)?;
    Ok(Listing {
        effects,
        skipped: reader.skipped().to_vec(),
    })
}

/// Every effect of session `path` whose outcome is unknown (as [`list`], without the damage).
///
/// # Errors
/// The store's read errors.
pub fn unknown_effects(path: &Path) -> Result<Vec<UnknownEffect>, smith_store::Error> {
    unknown_in(&mut SessionReader::open(path)?)
}

fn unknown_in(reader: &mut SessionReader) -> Result<Vec<UnknownEffect>, smith_store::Error> {
    let last = reader.state().last_id;
    let kinds = [
        Record::EFFECT_INTENT,
        Record::EFFECT_COMPLETION,
        Record::EFFECT_VERDICT,
    ];
    let mut effects: Vec<UnknownEffect> = Vec::new();
    // A completion pairs with its intent, a verdict with the completion (or the intent): ids
    // may repeat, pairs do not. The latest intent of an id is for records without a pair.
    let mut by_intent: HashMap<EntryId, usize> = HashMap::new();
    let mut by_completion: HashMap<EntryId, usize> = HashMap::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut settled: Vec<bool> = Vec::new();
    reader.for_each_of_kinds(1..=last, &kinds, |entry| match entry.record {
        Record::EffectIntent(i) => {
            by_id.insert(i.effect_id.clone(), effects.len());
            by_intent.insert(entry.id, effects.len());
            settled.push(false);
            effects.push(UnknownEffect {
                address: String::new(),
                effect_id: i.effect_id,
                effect: i.effect,
                target: i.target,
                call_id: i.call_id,
                plugin: i.plugin,
                input: i.input,
                intent: entry.id,
                completion: None,
                output: None,
                evidence: serde_json::Value::Null,
                verdict: None,
            });
        }
        Record::EffectCompletion(c) => {
            let n = entry
                .pair
                .and_then(|p| by_intent.get(&p))
                .or_else(|| by_id.get(&c.effect_id))
                .copied();
            if let Some(n) = n {
                by_completion.insert(entry.id, n);
                let e = &mut effects[n];
                settled[n] = !c.uncertain(&e.effect);
                e.completion = Some(entry.id);
                e.output = Some(String::from_utf8_lossy(&c.output).into_owned());
                e.evidence = c.evidence;
            }
        }
        Record::EffectVerdict(v) => {
            let n = entry
                .pair
                .and_then(|p| by_completion.get(&p).or_else(|| by_intent.get(&p)))
                .or_else(|| by_id.get(&v.effect_id))
                .copied();
            if let Some(n) = n {
                effects[n].verdict = Some(Verdict {
                    outcome: v.outcome,
                    note: v.note,
                    entry: entry.id,
                    timestamp_ms: entry.timestamp_ms,
                });
            }
        }
        _ => {}
    })?;
    let mut unknown: Vec<UnknownEffect> = effects
        .into_iter()
        .zip(settled)
        .filter(|(_, settled)| !settled)
        .map(|(e, _)| e)
        .collect();
    let mut count: HashMap<String, usize> = HashMap::new();
    for e in &unknown {
        *count.entry(e.effect_id.clone()).or_default() += 1;
    }
    for e in &mut unknown {
        e.address = if count.get(&e.effect_id).copied().unwrap_or(0) > 1 {
            format!("{}@{}", e.effect_id, e.intent.0)
        } else {
            e.effect_id.clone()
        };
    }
    Ok(unknown)
}

/// Why a verdict was not recorded. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    /// The session has no effect with that id.
    #[error("session {session} has no effect `{effect_id}`{}", known_list(known))]
    NoSuchEffect {
        /// The session.
        session: SessionId,
        /// The id given.
        effect_id: String,
        /// Its unknown effects' ids (at most 5).
        known: Vec<String>,
    },
    /// Several effects of unknown outcome have this id (a provider repeated a tool call id).
    #[error(
        "`{effect_id}` names {} effects of unknown outcome (their tool call id was used again); name one of them: {}",
        addresses.len(),
        addresses.join(", ")
    )]
    Ambiguous {
        /// The id given.
        effect_id: String,
        /// The address of each effect it names.
        addresses: Vec<String>,
    },
    /// The effect's outcome is known: there is nothing to reconcile.
    #[error(
        "effect `{effect_id}` ended `{outcome}`, not unknown: only an unknown outcome takes a verdict"
    )]
    NotUnknown {
        /// The effect.
        effect_id: String,
        /// Its recorded outcome.
        outcome: &'static str,
    },
    /// A verdict is `applied` or `not-applied`.
    #[error("a verdict is `applied` or `not-applied`, not `unknown`")]
    UnknownVerdict,
    /// The note is longer than [`MAX_NOTE_BYTES`].
    #[error("the note is {0} bytes, over the bound of {MAX_NOTE_BYTES}")]
    NoteTooLong(usize),
    /// The store's error (another process writes the session, damage, I/O).
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "; it has no effect of unknown outcome".to_owned()
    } else {
        format!("; its unknown effects: {}", known.join(", "))
    }
}

/// What [`reconcile`] recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Reconciled {
    /// The effect, as it was before the verdict.
    pub effect: UnknownEffect,
    /// The verdict's entry.
    pub entry: EntryId,
    /// Whether it replaces an earlier verdict.
    pub replaced: Option<Verdict>,
}

/// Record the verdict `outcome` (with `note`) on effect `effect_id` of session `id` at
/// `path`, as its writer: refused while another process writes the session. A session whose
/// last turn was cut off is settled first, as any opening does (its open effects get their
/// `unknown` completions), so an effect without a completion can be reconciled too.
///
/// # Errors
/// [`ReconcileError`]; nothing is written then.
pub fn reconcile(
    path: &Path,
    id: SessionId,
    effect_id: &str,
    outcome: EffectOutcome,
    note: &str,
) -> Result<Reconciled, ReconcileError> {
    // Checked before the writer opens, so a refusal writes nothing.
    let found = unknown_effect(path, id, effect_id, outcome, note)?;
    // A turn the crash cut off stays interrupted (a verdict is no new input): continuing it
    // later shows the model this verdict.
    let opened = smith_agent::Session::open_holding(path, id)?;
    let mut session = opened.session;
    let done = record(&mut session, path, found, outcome, note)?;
    session.close()?;
    Ok(done)
}

/// The unknown effect `effect_id` of session `id` at `path`, once the verdict `outcome` with
/// `note` is found acceptable for it (read only; nothing written).
///
/// # Errors
/// [`ReconcileError`].
pub(crate) fn unknown_effect(
    path: &Path,
    id: SessionId,
    effect_id: &str,
    outcome: EffectOutcome,
    note: &str,
) -> Result<UnknownEffect, ReconcileError> {
    if outcome == EffectOutcome::Unknown {
        return Err(ReconcileError::UnknownVerdict);
    }
    if note.len() > MAX_NOTE_BYTES {
        return Err(ReconcileError::NoteTooLong(note.len()));
    }
    let before = unknown_effects(path)?;
    if let Some(found) = before.iter().find(|e| e.address == effect_id) {
        return Ok(found.clone());
    }
    let named: Vec<&UnknownEffect> = before.iter().filter(|e| e.effect_id == effect_id).collect();
    match named[..] {
        [] => Err(known_outcome(path, id, effect_id, &before)?),
        [found] => Ok(found.clone()),
        _ => Err(ReconcileError::Ambiguous {
            effect_id: effect_id.to_owned(),
            addresses: named.iter().map(|e| e.address.clone()).collect(),
        }),
    }
}

/// Record the verdict on `found` through `session`, the writer of the session at `path`
/// (opened holding an interrupted turn, as every writer opens: its cut-off effects have their
/// `unknown` completions, which the verdict is paired with).
///
/// # Errors
/// The store's errors; nothing is written then.
pub(crate) fn record(
    session: &mut smith_agent::Session,
    path: &Path,
    found: UnknownEffect,
    outcome: EffectOutcome,
    note: &str,
) -> Result<Reconciled, ReconcileError> {
    let completion = match found.completion {
        Some(c) => c,
        None => unknown_effects(path)?
            .into_iter()
            .find(|e| e.intent == found.intent)
            .and_then(|e| e.completion)
            .unwrap_or(found.intent),
    };
    let entry = session.record_verdict(
        completion,
        EffectVerdict {
            effect_id: found.effect_id.clone(),
            outcome,
            note: note.to_owned(),
        },
    )?;
    Ok(Reconciled {
        replaced: found.verdict.clone(),
        effect: found,
        entry,
    })
}

/// The error for an effect that is not among the unknown ones: known, or absent.
fn known_outcome(
    path: &Path,
    id: SessionId,
    effect_id: &str,
    unknown: &[UnknownEffect],
) -> Result<ReconcileError, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let last = reader.state().last_id;
    let mut outcome = None;
    reader.for_each_of_kinds(1..=last, &[Record::EFFECT_COMPLETION], |entry| {
        if let Record::EffectCompletion(c) = entry.record
            && c.effect_id == effect_id
        {
            outcome = Some(c.outcome.as_str());
        }
    })?;
    Ok(match outcome {
        Some(outcome) => ReconcileError::NotUnknown {
            effect_id: effect_id.to_owned(),
            outcome,
        },
        None => ReconcileError::NoSuchEffect {
            session: id,
            effect_id: effect_id.to_owned(),
            known: unknown.iter().take(5).map(|e| e.address.clone()).collect(),
        },
    })
}
