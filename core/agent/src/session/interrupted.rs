//! An interrupted turn (spec: Sessions → crash recovery): the work a dead process left live
//! at the end of the selected branch, held open until it is continued or settled as aborted,
//! and the tool calls it left without a result.

use smith::{ContextItem, EntryId, StopReason, ToolResult, UsageTotals};
use smith_store::{NewEntry, Record, RunEnd, ToolResultRecord};

use super::Session;

impl Session {
    /// The interrupted turn held open ([`Session::open_holding`]), until it is continued or
    /// settled.
    pub fn interrupted_turn(&self) -> Option<&crate::InterruptedTurn> {
        self.held.as_ref()
    }

    /// Settle the held interrupted turn as aborted: its calls without a result are answered
    /// as interrupted (their effects unknown, never retried) and its end recorded, in one
    /// committed change. Nothing when no turn is held.
    ///
    /// # Errors
    /// The store's write errors; the turn stays held.
    pub fn settle_interrupted(&mut self) -> Result<(), smith_store::Error> {
        if self.held.is_none() {
            return Ok(());
        }
        self.settle_interrupted_work()?;
        self.held = None;
        Ok(())
    }

    /// The selected branch ends inside work whose process died: answer its unanswered tool
    /// calls (from their effects on record and any verdict on them, else as unknown; never
    /// retried) and record its end as aborted, paired
    /// with its submission — its terminal receipt — in one committed change. The session can
    /// continue, and a repeated submission of that work finds it settled.
    pub(super) fn settle_interrupted_work(&mut self) -> Result<(), smith_store::Error> {
        self.loaded()?;
        let pending = self.pending_calls();
        // What each started work's recorded responses used — its end counts them, as the end
        // of a run that finished would — and, for a call with effects on record, its result
        // from them: their outcomes and any verdict a person gave.
        let leaf = self.writer.lock().leaf();
        let started: Vec<EntryId> = crate::inbox::lock(&self.work)
            .live
            .iter()
            .filter(|(_, l)| l.started)
            .map(|(id, _)| *id)
            .collect();
        let mut used: std::collections::HashMap<EntryId, UsageTotals> =
            std::collections::HashMap::new();
        let mut answered: std::collections::HashMap<String, ToolResult> =
            std::collections::HashMap::new();
        if let (Some(leaf), false) = (leaf, started.is_empty()) {
            let mut reader = smith_store::SessionReader::open(&self.path)?;
            for id in started {
                let recorded = crate::continuation::Recorded::read(
                    &mut reader,
                    leaf,
                    id,
                    (&pending, self.call_message),
                )?;
                for call in &pending {
                    if !answered.contains_key(&call.id)
                        && let Some(result) = recorded.result_of(call)
                    {
                        answered.insert(call.id.clone(), result);
                    }
                }
                used.insert(id, recorded.accounts.total);
            }
        }
        let results: Vec<ToolResult> = pending
            .into_iter()
            .map(|call| {
                answered.remove(&call.id).unwrap_or_else(|| ToolResult {
                    call_id: call.id,
                    name: call.name,
                    output: "interrupted: an earlier run ended before this call completed; its effect is unknown".to_owned(),
                    is_error: true,
                })
            })
            .collect();
        let mut entries: Vec<NewEntry> = results
            .iter()
            .map(|r| NewEntry {
                record: Record::ToolResult(ToolResultRecord { result: r.clone() }),
                pair: self.call_message,
            })
            .collect();
        let mut state = crate::inbox::lock(&self.work);
        // Children before their owners (a child's id is above its owner's): every end pairs
        // with its submission, and an owner ends after the work it owns.
        let mut live: Vec<(EntryId, bool)> =
            state.live.iter().map(|(id, l)| (*id, l.started)).collect();
        live.reverse();
        let end = |pair: Option<EntryId>, started: bool| NewEntry {
            record: Record::RunEnd(RunEnd {
                children: Vec::new(),
                stop_reason: StopReason::Aborted,
                usage: pair.and_then(|p| used.get(&p).copied()).unwrap_or_default(),
                error: Some(if started {
                    "interrupted: the process running this turn stopped before it finished"
                        .to_owned()
                } else {
                    "interrupted: the process stopped before this owned work started; it never ran"
                        .to_owned()
                }),
                memory: None,
            }),
            pair,
        };
        let inherited = std::mem::take(&mut state.inherited_open);
        let inherited_queued = std::mem::take(&mut state.inherited_queued);
        if self.interrupted && live.is_empty() && inherited.is_empty() {
            entries.push(end(None, true));
        }
        // Queued input inherited from a fork's source is never delivered here.
        entries.extend(inherited_queued.iter().map(|id| {
            NewEntry {
                record: Record::Withdrawal(smith_store::Withdrawal {
                    reason:
                        "not delivered here: it was queued in the source session before this fork"
                            .to_owned(),
                }),
                pair: Some(*id),
            }
        }));
        entries.extend(live.iter().map(|(id, started)| end(Some(*id), *started)));
        // Inherited work never runs in a fork: its receipt here ends, saying where it lives.
        entries.extend(inherited.iter().rev().map(|id| NewEntry {
            record: Record::RunEnd(RunEnd {
                children: Vec::new(),
                stop_reason: StopReason::Aborted,
                usage: UsageTotals::default(),
                error: Some(
                    "not continued here: this fork was taken before the work ended; it belongs to the source session"
                        .to_owned(),
                ),
                memory: None,
            }),
            pair: Some(*id),
        }));
        let ids = self.writer.lock().append_entries(&entries)?;
        state.live.clear();
        state.held = None;
        drop(state);
        for (id, result) in ids.into_iter().zip(results) {
            self.push_context(id, ContextItem::ToolResult(result));
        }
        self.interrupted = false;
        Ok(())
    }

    /// Tool calls at the end of the context that have no result (an earlier run was killed
    /// while they ran), as (call id, tool name).
    pub(crate) fn unanswered_calls(&self) -> Vec<(String, String)> {
        self.pending_calls()
            .into_iter()
            .map(|call| (call.id, call.name))
            .collect()
    }

    /// The tool calls at the end of the context that have no result, in the response's order.
    pub(crate) fn pending_calls(&self) -> Vec<smith::ToolCall> {
        let Some(context) = &self.context else {
            return Vec::new();
        };
        let context = &context.items;
        let Some(pos) = context.iter().rposition(
            |item| matches!(item, ContextItem::Message(m) if m.role == smith::Role::Assistant),
        ) else {
            return Vec::new();
        };
        let ContextItem::Message(message) = &context[pos] else {
            return Vec::new();
        };
        let answered: Vec<&ToolResult> = context[pos + 1..]
            .iter()
            .filter_map(|item| match item {
                ContextItem::ToolResult(r) => Some(r),
                ContextItem::Message(_) => None,
            })
            .collect();
        message
            .tool_calls()
            .filter(|call| !answered.iter().any(|r| r.call_id == call.id))
            .cloned()
            .collect()
    }
}

/// The submissions among `live` whose work's end (a `run_end`, or a withdrawal) is recorded
/// anywhere in the file up to entry `last` — on another branch than the selected one — read
/// from the entries' metadata alone, from the earliest of them on.
pub(super) fn ended_anywhere<V>(
    reader: &mut smith_store::SessionReader,
    live: &std::collections::BTreeMap<EntryId, V>,
    last: u64,
) -> Result<std::collections::HashSet<EntryId>, smith_store::Error> {
    let mut ended = std::collections::HashSet::new();
    let Some(first) = live.keys().next() else {
        return Ok(ended);
    };
    for id in first.0 + 1..=last {
        if reader.withheld(id) {
            continue;
        }
        let meta = reader.entry_meta(EntryId(id))?;
        if matches!(meta.record_kind, Record::RUN_END | Record::WITHDRAWAL)
            && live.contains_key(&EntryId(meta.pair))
        {
            ended.insert(EntryId(meta.pair));
        }
    }
    Ok(ended)
}
