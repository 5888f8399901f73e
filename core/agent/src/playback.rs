//! Replay of a recorded session (spec: Replay and VCS → Replay; Interface modes → Replay):
//! the UI intents its live runs emitted, rebuilt from the file alone — no provider, no
//! credentials, nothing run, nothing written — in source order, along the selected branch.
//!
//! What a live run emitted and the file holds is emitted as it was: each turn's start, its
//! admitted input and receipt, rounds, attempts and their failures, messages, usage and cost
//! (at each attempt's recorded prices), tool calls and results, and the run's end. What a run
//! emits but never records is either re-derived or left out, and [`UNRECORDED`] lists it:
//! streamed deltas become one delta per text or thinking block of the recorded message;
//! progress, tool updates, status, notices, context use and questions are not replayed.
//! Records that are not intents (attempts' requests, effects, checkpoints, context edits,
//! snapshots…) emit nothing; a record kind this build does not know is counted in
//! [`Played::unknown`] so that a frontend can say so.

use std::collections::VecDeque;
use std::path::Path;

use smith::{ContentBlock, Price, Role, SessionId, StopReason, ToolCall};
use smith_store::{Entry, Record, SessionReader};
use smith_ui_intents::{DeltaKind, Intent, IntentSink, ReceiptStatus};

/// The intent kinds a live run emits that a replay does not, or emits re-derived: the
/// documented difference between a live run's output and its replay.
pub const UNRECORDED: &[(&str, &str)] = &[
    (
        "message_delta",
        "re-derived: one delta per text or thinking block of the recorded message",
    ),
    ("tool_update", "not recorded: a running tool's progress"),
    ("progress", "not recorded"),
    ("status", "not recorded"),
    (
        "notice",
        "not recorded: warnings said while the run went on",
    ),
    ("context_use", "not recorded"),
    (
        "confirm_request",
        "not replayed: the question and its answer are the call's recorded effect",
    ),
    (
        "select_request",
        "not replayed: the question and its answer are the call's recorded effect",
    ),
    (
        "input_request",
        "not replayed: the question and its answer are the call's recorded effect",
    ),
    ("request_refused", "not replayed"),
    ("session_change", "not replayed"),
    ("branch_change", "not replayed"),
    ("fell_behind", "not replayed: a live subscriber's own state"),
    (
        "compaction_start",
        "not replayed yet: a compaction shows as its summary (transcript_append)",
    ),
    (
        "compaction_end",
        "not replayed yet: a compaction shows as its summary (transcript_append)",
    ),
];

/// What to replay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The turns to replay, 1-based and inclusive (`None`: every turn). A turn is one
    /// submission's run, counted along the selected branch.
    pub turns: Option<(u32, u32)>,
}

/// What a replay went through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Turns on the branch (replayed or not).
    pub turns: u32,
    /// Entries on the branch.
    pub entries: u64,
    /// Entries of record kinds this build does not know: (entry id, kind).
    pub unknown: Vec<(u64, u16)>,
    /// The file's last change was cut off (a crash mid-write): what was replayed ends at the
    /// last complete change. Says where and why, in words.
    pub torn: Option<String>,
    /// Damaged changes that could not be read and were skipped.
    pub skipped: usize,
}

/// Why a session could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The session file could not be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
    /// The turn range is empty or starts at 0.
    #[error(
        "turns {first}..{last} name no turn: turns count from 1, and the first may not be after the last"
    )]
    Range {
        /// The first turn asked for.
        first: u32,
        /// The last turn asked for.
        last: u32,
    },
}

/// The state of the turn being replayed.
#[derive(Default)]
struct Turn {
    number: u32,
    /// The turn-starting submission, until its user message emitted the receipt.
    receipt: Option<(u64, Option<String>)>,
    round: u32,
    /// The prices of the attempts recorded so far in the turn, by entry id.
    prices: Vec<(u64, Option<Price>)>,
    /// The batch's calls not answered yet, in order, and why its response ended.
    pending: VecDeque<ToolCall>,
    stop: Option<StopReason>,
    cost: Option<f64>,
}

/// Replay the selected branch of session `session` (its file `path`) into `sink`: the intents its live runs
/// emitted, deterministic for the same file and options.
///
/// # Errors
/// [`ReplayError::Store`] when the file cannot be read; [`ReplayError::Range`] for an empty
/// turn range.
pub fn play(
    path: &Path,
    session: SessionId,
    options: &Options,
    sink: &mut dyn IntentSink,
) -> Result<Played, ReplayError> {
    if let Some((first, last)) = options.turns
        && (first == 0 || first > last)
    {
        return Err(ReplayError::Range { first, last });
    }
    let mut reader = SessionReader::open(path)?;
    let mut entries = match reader.state().leaf_id() {
        Some(leaf) => reader.branch(leaf, usize::MAX)?,
        None => Vec::new(),
    };
    entries.reverse();
    let mut played = Played {
        entries: entries.len() as u64,
        torn: reader.torn_tail().map(|t| {
            format!(
                "{} bytes at byte {} were never published: {}",
                t.len, t.offset, t.reason
            )
        }),
        skipped: reader.skipped().len(),
        ..Played::default()
    };
    let mut turn = Turn::default();
    let shown = |n: u32| options.turns.is_none_or(|(a, b)| (a..=b).contains(&n));
    for entry in &entries {
        if let Record::Submission(s) = &entry.record
            && s.delivery.is_none()
            && s.owner.is_none()
        {
            played.turns += 1;
            turn = Turn {
                number: played.turns,
                receipt: Some((entry.id.0, s.dedup_key.clone())),
                cost: Some(0.0),
                ..Turn::default()
            };
            if shown(turn.number) {
                sink.emit(Intent::RunStart {
                    session,
                    model: s.model.clone(),
                });
            }
            continue;
        }
        if let Record::Unknown { kind, .. } = &entry.record {
            played.unknown.push((entry.id.0, *kind));
            continue;
        }
        if turn.number == 0 || !shown(turn.number) {
            // Before the first turn, or outside the range: the state still follows.
            follow(&mut turn, entry, &mut NoSink);
        } else {
            follow(&mut turn, entry, sink);
        }
    }
    Ok(played)
}

/// A sink that drops what it is given: the turns outside the range still move the state.
struct NoSink;

impl IntentSink for NoSink {
    fn emit(&mut self, _intent: Intent) -> smith_ui_intents::Delivery {
        smith_ui_intents::Delivery::Dropped
    }
}

/// Emit what entry `entry` stands for in the live run of `turn`, and move the turn's state.
fn follow(turn: &mut Turn, entry: &Entry, sink: &mut dyn IntentSink) {
    let id = entry.id.0;
    match &entry.record {
        Record::Message(m) if m.message.role == Role::User => {
            sink.emit(Intent::MessageStart {
                message_id: id,
                role: Role::User,
            });
            sink.emit(Intent::MessageEnd {
                message_id: id,
                entry_id: Some(id),
                message: m.message.clone(),
                stop_reason: None,
                usage: None,
                recorded: true,
            });
            if let Some((submission, dedup_key)) = turn.receipt.take() {
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
            // A compaction's attempt belongs to no round (round 0).
            if a.round > 0 && a.round != turn.round {
                turn.round = a.round;
                sink.emit(Intent::RoundStart { round: a.round });
            }
            turn.prices
                .push((id, a.capabilities.as_ref().and_then(|c| c.price)));
            sink.emit(Intent::Attempt {
                entry_id: id,
                attempt: a.clone(),
            });
        }
        Record::AttemptFailed(f) => {
            sink.emit(Intent::AttemptFailed { failure: f.clone() });
        }
        Record::Message(m) => {
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
            sink.emit(Intent::MessageEnd {
                message_id: id,
                entry_id: Some(id),
                message: m.message.clone(),
                stop_reason: m.stop_reason,
                usage: m.usage,
                recorded: true,
            });
            let price = m.attempt.and_then(|a| {
                turn.prices
                    .iter()
                    .find(|(at, _)| *at == a.0)
                    .and_then(|(_, p)| *p)
            });
            let cost = m.usage.as_ref().zip(price).and_then(|(u, p)| p.cost(u));
            turn.cost = turn.cost.zip(cost).map(|(a, b)| a + b);
            sink.emit(Intent::Usage {
                message_id: id,
                attempt: m.attempt.map(|a| a.0),
                model: m.model.clone().map(Box::new),
                usage: m.usage,
                cost_usd: cost,
            });
            // The round ends with the response, or once each of its calls is answered.
            turn.pending = m.message.tool_calls().cloned().collect();
            turn.stop = m.stop_reason;
            if turn.pending.is_empty() {
                end_round(turn, sink);
            }
        }
        Record::ToolResult(r) => {
            let call = match turn.pending.iter().position(|c| c.id == r.result.call_id) {
                Some(at) => turn.pending.remove(at),
                None => None,
            };
            let arguments = call.map_or(serde_json::Value::Null, |c| c.arguments);
            sink.emit(Intent::ToolStart {
                call_id: r.result.call_id.clone(),
                name: r.result.name.clone(),
                arguments,
            });
            sink.emit(Intent::ToolEnd {
                call_id: r.result.call_id.clone(),
                name: r.result.name.clone(),
                entry_id: Some(id),
                output: r.result.output.clone(),
                is_error: r.result.is_error,
                recorded: true,
            });
            if turn.pending.is_empty() {
                end_round(turn, sink);
            }
        }
        Record::RunEnd(end) => {
            sink.emit(Intent::RunEnd {
                stop_reason: end.stop_reason,
                usage: end.usage,
                cost_usd: turn.cost,
                error: end.error.clone(),
            });
        }
        Record::Compaction(c) => {
            sink.emit(Intent::TranscriptAppend {
                entry_id: id,
                source: "compaction".to_owned(),
                text: c.summary.clone(),
            });
        }
        _ => {}
    }
}

/// The round's end, with its response's stop reason (once).
fn end_round(turn: &mut Turn, sink: &mut dyn IntentSink) {
    if let Some(stop_reason) = turn.stop.take() {
        sink.emit(Intent::RoundEnd {
            round: turn.round,
            stop_reason,
        });
    }
}
