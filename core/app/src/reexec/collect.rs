//! What a re-execution needs from the session file: the replayed turns' tool calls in order,
//! each with its recorded effects and result and the plugin state recorded when it was made,
//! the snapshot taken at the start of the range, and where the session ran.

use std::collections::HashMap;
use std::path::Path;

use smith::{EffectCompletion, EffectIntent, EntryId, Role, ToolCall, ToolResult};
use smith_agent::playback::{ReplayError, branch_ids};
use smith_store::{Record, SessionReader, VcsOp};

use super::recalled::{SessionRecords, StateAt};

/// One recorded tool call of the replayed turns.
#[derive(Debug)]
pub(super) struct RecordedCall {
    /// The turn it ran in (1-based, along the branch).
    pub(super) turn: u32,
    pub(super) call: ToolCall,
    /// Its effects, in the order their intents were recorded, each with its completion when
    /// one was recorded.
    pub(super) effects: Vec<(EffectIntent, Option<EffectCompletion>)>,
    /// Its result, when one was recorded.
    pub(super) result: Option<ToolResult>,
    /// The branch and session state recorded before the message that made the call.
    pub(super) state: StateAt,
}

/// What the branch recorded for the replayed turns.
#[derive(Debug, Default)]
pub(super) struct Recorded {
    pub(super) calls: Vec<RecordedCall>,
    /// The working directory the session started in.
    pub(super) cwd: Option<String>,
    /// The first batch snapshot of the range: (project root, snapshot before the batch).
    pub(super) snapshot: Option<(String, String)>,
    /// Turns on the branch.
    pub(super) turns: u32,
}

/// Whether an effect is the `history` plugin's working-tree snapshot around a batch rather
/// than the call's own.
pub(super) fn bookkeeping(intent: &EffectIntent) -> bool {
    intent.effect.starts_with("vcs.")
}

/// Read the branch ending at `leaf` (the selected one when `None`) of the session at `path`
/// for turns `turns` (all when `None`).
pub(super) fn read(
    path: &Path,
    leaf: Option<EntryId>,
    turns: Option<(u32, u32)>,
) -> Result<Recorded, ReplayError> {
    let mut reader = SessionReader::open(path)?;
    let last = reader.state().last_id;
    let leaf = match leaf {
        Some(l) if l.0 == 0 || l.0 > last => {
            return Err(ReplayError::Leaf { leaf: l.0, last });
        }
        Some(l) => Some(l),
        None => reader.state().leaf_id(),
    };
    let ids = match leaf {
        Some(leaf) => branch_ids(&mut reader, leaf)?.0,
        None => Vec::new(),
    };
    // Session state is the latest written anywhere in the file, also on other branches.
    let mut session = SessionRecords::default();
    // A verdict on an unknown effect stands for its outcome, wherever it was recorded (the
    // latest one).
    let mut verdicts: HashMap<String, smith::EffectOutcome> = HashMap::new();
    reader.for_each_of_kinds(
        1..=last,
        &[Record::STATE, Record::EFFECT_VERDICT],
        |entry| match entry.record {
            Record::State(r) => session.push(entry.id.0, r),
            Record::EffectVerdict(v) => {
                verdicts.insert(v.effect_id, v.outcome);
            }
            _ => {}
        },
    )?;
    let mut state = StateAt::default();
    let mut out = Recorded::default();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut effect_of: HashMap<String, (usize, usize)> = HashMap::new();
    let shown = |n: u32| n > 0 && turns.is_none_or(|(a, b)| (a..=b).contains(&n));
    for id in ids {
        let entry = match reader.entry(id) {
            Ok(entry) => entry,
            // In a damaged change: what it recorded is not known, so not compared.
            Err(_) if reader.withheld(id.0) => continue,
            Err(e) => return Err(e.into()),
        };
        session.advance(&mut state, id.0);
        match entry.record {
            Record::SessionStart(s) => out.cwd = s.cwd,
            Record::State(r) if r.scope == smith::StateScope::Branch => state.apply(&r),
            Record::Submission(s) if s.delivery.is_none() && s.owner.is_none() => {
                out.turns += 1;
            }
            _ if !shown(out.turns) => {}
            Record::Message(m) if m.message.role == Role::Assistant => {
                for call in m.message.tool_calls() {
                    at.insert(call.id.clone(), out.calls.len());
                    out.calls.push(RecordedCall {
                        turn: out.turns,
                        call: call.clone(),
                        effects: Vec::new(),
                        result: None,
                        state: state.clone(),
                    });
                }
            }
            Record::EffectIntent(i) => {
                if let Some(&n) = at.get(&i.call_id) {
                    let call = &mut out.calls[n];
                    effect_of.insert(i.effect_id.clone(), (n, call.effects.len()));
                    call.effects.push((i, None));
                }
            }
            Record::EffectCompletion(c) => {
                if let Some(&(n, e)) = effect_of.get(&c.effect_id) {
                    let intent = &out.calls[n].effects[e].0;
                    // The snapshot taken before a batch, also of one that never finished
                    // (its `vcs` record is written with the batch's last result).
                    if out.snapshot.is_none()
                        && intent.effect == "vcs.snapshot"
                        && intent.effect_id.contains("/vcs-before-")
                        && c.outcome == smith::EffectOutcome::Applied
                        && let (Some(root), Some(id)) =
                            (&intent.target, c.evidence["snapshot"].as_str())
                    {
                        out.snapshot = Some((root.clone(), id.to_owned()));
                    }
                    let mut c = c;
                    if c.outcome == smith::EffectOutcome::Unknown
                        && let Some(verdict) = verdicts.get(&c.effect_id)
                    {
                        c.outcome = *verdict;
                    }
                    out.calls[n].effects[e].1 = Some(c);
                }
            }
            Record::ToolResult(r) => {
                if let Some(&n) = at.get(&r.result.call_id) {
                    out.calls[n].result = Some(r.result);
                }
            }
            Record::Vcs(v) if v.op == VcsOp::Batch && out.snapshot.is_none() => {
                out.snapshot = Some((v.root, v.before));
            }
            _ => {}
        }
    }
    Ok(out)
}
