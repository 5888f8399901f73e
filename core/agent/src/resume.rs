//! What opening a session needs from its selected branch, read without the bulky bodies: only
//! the kinds the work state, the request ledger and recovery read are decoded — the outputs of
//! tool results and effect completions are passed over (their metadata, kind and pair, is
//! enough here) — and the context itself is projected from the file only when a request
//! first needs it ([`crate::Session::context`]), taking the heads and messages read here
//! instead of reading them again. Spec: Working sets — opening,
//! browsing and resuming do not require a whole-session payload arena; owned content is
//! materialized at the consumer boundary that requires it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use smith::{EntryId, Selection};
use smith_store::{EffectCompletion, EffectOutcome, Entry, NewEntry, Record, SessionReader};

/// The selected branch as opening reads it.
#[derive(Debug, Default)]
pub(crate) struct Resume {
    /// The branch's decoded entries, root first: submissions, messages, ends and withdrawals,
    /// secret registrations, the last model change, intents without a completion, the last
    /// request and the inputs it names, and records of unknown kinds that change the
    /// projection.
    pub(crate) entries: Vec<Entry>,
    /// Intents that have a completion on the branch.
    completed: HashSet<EntryId>,
    /// How many tool results pair with each message.
    results: HashMap<EntryId, usize>,
    /// A message or tool result follows the branch's last run end (a process died in a run).
    pub(crate) interrupted: bool,
    /// The selection the branch's last `model_change` recorded.
    pub(crate) model: Option<Selection>,
    /// The branch's last assistant message, and how many tool calls it holds.
    pub(crate) call_message: Option<(EntryId, usize)>,
    /// Names of the secrets registered on the branch.
    pub(crate) registered: BTreeSet<String>,
    /// Submissions an `abort` record on the branch pairs with (their abort was requested).
    pub(crate) aborted: HashSet<EntryId>,
    /// The permission mode the branch last recorded ([`crate::Session::record_permission_mode`]).
    pub(crate) permission_mode: Option<String>,
    /// The head of every entry walked, from the leaf: the first projection walks the same
    /// ones ([`crate::projection::Walked`]).
    pub(crate) heads: Vec<crate::projection::Head>,
    /// The decoded body bytes of the messages walked (their heads' `body_len`, summed).
    pub(crate) message_bytes: u64,
}

impl Resume {
    /// Walk the branch ending at `leaf` of the session file at `path` (read by `reader`), from
    /// the leaf to the root, validating what it decodes.
    ///
    /// # Errors
    /// The store's read errors; [`smith_store::Error::Unprojectable`] for a record this build
    /// does not know that changes what the model sees.
    pub(crate) fn read(
        reader: &mut SessionReader,
        leaf: EntryId,
        path: &Path,
    ) -> Result<Self, smith_store::Error> {
        let mut resume = Self::default();
        let mut ended = false;
        // The inputs the branch's last request names, once it is met.
        let mut inputs: Option<HashSet<EntryId>> = None;
        let mut at = Some(leaf);
        // Set at the branch's latest compaction when it carries what lies before it: the
        // walk ends at its boundary, and what it names is read directly.
        let mut floor: Option<(EntryId, smith_store::Carried)> = None;
        while let Some(id) = at {
            if let Some((boundary, _)) = &floor
                && id < *boundary
            {
                break;
            }
            let (meta, entry) = reader.entry_if(id, |m| match m.record_kind {
                Record::TOOL_RESULT | Record::EFFECT_COMPLETION => false,
                Record::SUBMISSION
                | Record::MESSAGE
                | Record::RUN_END
                | Record::WITHDRAWAL
                | Record::SECRET_REGISTRATION => true,
                Record::MODEL_CHANGE => resume.model.is_none(),
                Record::STATE => resume.permission_mode.is_none(),
                // A completion comes after its intent: walking back, it was met first.
                Record::EFFECT_INTENT => !resume.completed.contains(&EntryId(m.id)),
                Record::REQUEST => inputs.is_none(),
                Record::REQUEST_INPUT => {
                    inputs.as_ref().is_some_and(|i| i.contains(&EntryId(m.id)))
                }
                _ => m.flags & smith_store::meta::ENTRY_PROJECTION != 0,
            })?;
            at = (meta.parent != 0).then_some(EntryId(meta.parent));
            resume.heads.push(crate::projection::Head {
                id,
                parent: at,
                kind: meta.record_kind,
                flags: meta.flags,
            });
            let pair = (meta.pair != 0).then_some(EntryId(meta.pair));
            match meta.record_kind {
                Record::MESSAGE => resume.message_bytes += u64::from(meta.body_len),
                Record::EFFECT_COMPLETION => resume.completed.extend(pair),
                Record::TOOL_RESULT => {
                    if let Some(pair) = pair {
                        *resume.results.entry(pair).or_default() += 1;
                    }
                }
                Record::RUN_END => ended = true,
                Record::ABORT => resume.aborted.extend(pair),
                _ => {}
            }
            if !ended && matches!(meta.record_kind, Record::MESSAGE | Record::TOOL_RESULT) {
                resume.interrupted = true;
            }
            let Some(entry) = entry else { continue };
            match &entry.record {
                Record::Compaction(c) if floor.is_none() => {
                    if let Some(carried) = &c.carried {
                        floor = Some((c.first_kept.unwrap_or(entry.id), carried.clone()));
                    }
                }
                Record::ModelChange(c) if resume.model.is_none() => {
                    resume.model = Some(c.model.clone());
                }
                Record::State(s) if resume.permission_mode.is_none() => {
                    resume.permission_mode = crate::session::recorded_mode(s);
                }
                Record::SecretRegistration(r) => {
                    resume.registered.insert(r.name.clone());
                }
                Record::Request(r) => {
                    inputs = Some(r.instructions.iter().copied().chain(r.tools).collect());
                }
                Record::Message(m)
                    if m.message.role == smith::Role::Assistant
                        && resume.call_message.is_none() =>
                {
                    resume.call_message = Some((entry.id, m.message.tool_calls().count()));
                }
                Record::Unknown {
                    kind,
                    projection: true,
                    ..
                } => {
                    return Err(crate::ProjectionError::Unsupported {
                        entry: entry.id,
                        kind: *kind,
                    }
                    .into_store(path));
                }
                _ => {}
            }
            resume.entries.push(entry);
        }
        resume.entries.reverse();
        if let Some((_, carried)) = floor {
            resume.carry(reader, carried, inputs.as_ref())?;
        }
        Ok(resume)
    }

    /// What a walk that ended at a compaction's boundary takes from the compaction instead:
    /// the model and secrets as of it, and — read directly — the open submissions and the
    /// last request's inputs that lie before the boundary.
    fn carry(
        &mut self,
        reader: &mut SessionReader,
        carried: smith_store::Carried,
        inputs: Option<&HashSet<EntryId>>,
    ) -> Result<(), smith_store::Error> {
        if self.model.is_none() {
            self.model = carried.model;
        }
        if self.permission_mode.is_none() {
            self.permission_mode = carried.permission_mode;
        }
        self.registered.extend(carried.secrets);
        let have: HashSet<EntryId> = self.entries.iter().map(|e| e.id).collect();
        let wanted: BTreeSet<EntryId> = carried
            .open
            .iter()
            .copied()
            .chain(inputs.into_iter().flatten().copied())
            .filter(|id| !have.contains(id))
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        for id in wanted {
            self.entries.push(reader.entry(id)?);
        }
        self.entries.sort_by_key(|e| e.id);
        Ok(())
    }

    /// How many tool results the branch pairs with message `message`.
    pub(crate) fn results_of(&self, message: EntryId) -> usize {
        self.results.get(&message).copied().unwrap_or(0)
    }

    /// The last assistant message holds tool calls that have no result yet.
    pub(crate) fn unanswered(&self) -> bool {
        self.call_message
            .is_some_and(|(id, calls)| calls > self.results.get(&id).copied().unwrap_or(0))
    }

    /// Completions for the effects whose process died between intent and completion: their
    /// outcome is unknown (a question's is not applied), recorded as such and never retried.
    pub(crate) fn unknown_effects(&self) -> Vec<NewEntry> {
        self.entries
            .iter()
            .filter_map(|e| match &e.record {
                Record::EffectIntent(i) if !self.completed.contains(&e.id) => {
                    let question = i.effect.starts_with("ask.");
                    Some(NewEntry {
                        record: Record::EffectCompletion(EffectCompletion {
                            effect_id: i.effect_id.clone(),
                            outcome: if question {
                                EffectOutcome::NotApplied
                            } else {
                                EffectOutcome::Unknown
                            },
                            output: if question {
                                b"interrupted: the process ended before this question was answered; it is not asked again".to_vec()
                            } else {
                                b"interrupted: the process ended between this effect's intent and its completion; whether it happened is unknown, and it is not retried".to_vec()
                            },
                            evidence: serde_json::Value::Null,
                        }),
                        pair: Some(e.id),
                    })
                }
                _ => None,
            })
            .collect()
    }
}
