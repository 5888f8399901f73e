//! The one mapping of recorded entries to the intents a transcript keeps of them: a message's
//! end (with its tool calls' starts), a tool result's end, a run's end, an abort request as a
//! warning, and a compaction as its end with the summary — the same intent the live run
//! emitted, so a compaction shows the same way live, read back and replayed. A replay
//! ([`super::play`]) builds its intents from these, adding what only a live run shows
//! (starts, deltas, rounds, attempts, usage); a reader of history (the terminal UI's storage
//! worker) folds [`entry_intents`] of each entry it reads.

use smith::{CompactionReason, ContentBlock, Role};
use smith_store::{Abort, Compaction, Entry, MessageRecord, Record, RunEnd, ToolResultRecord};
use smith_ui_intents::{Intent, NoticeLevel};

/// The end of message entry `id`.
pub(super) fn message_end(id: u64, m: &MessageRecord) -> Intent {
    Intent::MessageEnd {
        message_id: id,
        entry_id: Some(id),
        message: m.message.clone(),
        stop_reason: m.stop_reason,
        usage: m.usage,
        recorded: true,
    }
}

/// The end of tool result entry `id`.
pub(super) fn tool_end(id: u64, r: &ToolResultRecord) -> Intent {
    Intent::ToolEnd {
        call_id: r.result.call_id.clone(),
        name: r.result.name.clone(),
        entry_id: Some(id),
        output: r.result.output.clone(),
        is_error: r.result.is_error,
        recorded: true,
    }
}

/// A run's end, with its cost when known.
pub(super) fn run_end(end: &RunEnd, cost_usd: Option<f64>) -> Intent {
    Intent::RunEnd {
        stop_reason: end.stop_reason,
        usage: end.usage,
        cost_usd,
        error: end.error.clone(),
        memory: end.memory.map(Box::new),
    }
}

/// An abort request, as the warning a live run showed.
pub(super) fn abort_notice(a: &Abort) -> Intent {
    abort_notice_text(&a.reason)
}

/// The notice of an abort request with `reason`, shown after what the aborted work had
/// produced (just before its run end), live and resumed alike.
pub(crate) fn abort_notice_text(reason: &str) -> Intent {
    Intent::Notice {
        level: NoticeLevel::Warning,
        text: format!("abort requested: {reason}"),
    }
}

/// The intents a transcript keeps of `entries` in order ([`entry_intents`] of each), with
/// each abort request's notice moved to just before the run end that follows it: the
/// request is recorded when it is made, before the partial answer it stopped, and a
/// transcript shows the answer first, as the live run did.
pub fn transcript_intents(entries: &[Entry]) -> Vec<Intent> {
    let mut out = Vec::new();
    let mut held = Vec::new();
    for entry in entries {
        match &entry.record {
            Record::Abort(a) => held.push(abort_notice(a)),
            Record::RunEnd(_) => {
                out.append(&mut held);
                out.extend(entry_intents(entry));
            }
            _ => out.extend(entry_intents(entry)),
        }
    }
    out.append(&mut held);
    out
}

/// The end of compaction entry `id`, with its summary.
pub(super) fn compaction_end(
    id: u64,
    c: &Compaction,
    reason: CompactionReason,
    cost_usd: Option<f64>,
) -> Intent {
    Intent::CompactionEnd {
        reason,
        entry_id: Some(id),
        first_kept: c.first_kept.map(|e| e.0),
        summary: Some(c.summary.clone()),
        usage: c.usage.map(Box::new),
        cost_usd,
        error: None,
    }
}

/// The plan a `state` record sets, when it is Smith's plan ([`smith::plan_key`]): its steps,
/// or none for a removed value. A value in a shape this Smith does not write (another
/// version, damage) is no plan intent at all — never shown as a cleared plan.
pub(crate) fn plan(s: &smith_store::StateRecord) -> Option<Intent> {
    if s.owner != smith::SMITH_STATE_OWNER || s.name != smith::PLAN_SLOT {
        return None;
    }
    let items = match &s.value {
        None => Vec::new(),
        Some(value) if s.version == smith::PLAN_VERSION => smith::plan_from_value(value)?,
        Some(_) => return None,
    };
    Some(Intent::Plan { items })
}

/// The notice an undo, redo or restore of the working tree shows: the record's own words
/// ([`smith_store::VcsRecord::describe`]), the same the live run showed. None for a batch.
pub(crate) fn vcs_notice(v: &smith_store::VcsRecord) -> Option<Intent> {
    v.describe().map(|text| Intent::Notice {
        level: NoticeLevel::Info,
        text,
    })
}

/// The intents a transcript keeps of `entry` (none for records it does not show: attempts,
/// effects, checkpoints, requests): a message's end, then the start of each tool call it
/// makes; a tool result's end; a run's end; an abort request's warning; a compaction's end
/// with its summary (why it ran as recorded, else `manual`). Costs are left out: a reader of
/// one entry has no attempt prices.
pub fn entry_intents(entry: &Entry) -> Vec<Intent> {
    let id = entry.id.0;
    match &entry.record {
        Record::Message(m) => {
            let mut out = vec![message_end(id, m)];
            if m.message.role == Role::Assistant {
                for block in &m.message.content {
                    if let ContentBlock::ToolCall(call) = block {
                        out.push(Intent::ToolStart {
                            call_id: call.id.clone(),
                            name: call.name.clone(),
                            arguments: call.arguments.clone(),
                        });
                    }
                }
            }
            out
        }
        Record::ToolResult(r) => vec![tool_end(id, r)],
        Record::RunEnd(end) => vec![run_end(end, None)],
        Record::Abort(a) => vec![abort_notice(a)],
        Record::Vcs(v) => vcs_notice(v).into_iter().collect(),
        Record::Compaction(c) => {
            let reason = c.started.map_or(CompactionReason::Manual, |s| s.reason);
            vec![compaction_end(id, c, reason, None)]
        }
        Record::State(s) => plan(s).into_iter().collect(),
        _ => Vec::new(),
    }
}
