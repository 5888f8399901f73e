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
//! A compaction's start is shown once its outcome is read (the summary's record says what it
//! summarized); an abort request is shown as a warning notice with its recorded reason, and
//! so is each effect whose outcome is unknown (recorded `unknown`, or an intent whose run
//! stopped before its completion) — never run again.
//! Records that are not intents (attempts' requests, effects, checkpoints, context edits,
//! snapshots…) emit nothing; a record kind this build does not know is counted in
//! [`Played::unknown`] so that a frontend can say so.
//!
//! The branch is walked by its entries' metadata first (their ids only), then read one entry
//! at a time in order: memory stays flat in the session's size. A replay can be paced by the
//! entries' timestamps ([`Pace`]) and stopped between entries through a [`Cancel`].

mod follow;
mod transcript;

use std::path::Path;
use std::time::Duration;

use smith::{Cancel, EntryId, SessionId};
use smith_store::{Record, SessionReader};
use smith_ui_intents::{Intent, IntentSink};

use follow::Turn;
pub(crate) use transcript::abort_notice_text;
pub use transcript::{entry_intents, transcript_intents};

/// The version of `--json` replay output's shape: the first record of a replay says it
/// (`{"type":"replay","format":1,…}`), and the intents that follow are those of
/// [`smith_ui_intents::Intent`]'s JSON form.
pub const FORMAT: u32 = 1;

/// The longest pause between two entries when replaying at a pace, after scaling: a session
/// left idle for an hour replays the hour as this.
pub const MAX_GAP: Duration = Duration::from_secs(2);

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
        "not recorded: warnings said while the run went on (replayed: an abort request, with its recorded reason, and each effect left unknown)",
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
];

/// A turn range as written: `A..B`, `A..` (to the last turn) or `A` (one turn), counting
/// from 1, inclusive; `None` for other text.
pub fn turn_range(text: &str) -> Option<(u32, u32)> {
    let number = |t: &str| t.trim().parse::<u32>().ok();
    match text.split_once("..") {
        Some((a, "")) => Some((number(a)?, u32::MAX)),
        Some((a, b)) => Some((number(a)?, number(b)?)),
        None => number(text).map(|n| (n, n)),
    }
}

/// How fast to replay.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Pace {
    /// As fast as the sink takes it.
    #[default]
    Instant,
    /// The recorded gaps between entries divided by `factor` (1.0: real time), each at most
    /// [`MAX_GAP`].
    Scaled {
        /// How many times faster than recorded (positive and finite).
        factor: f64,
    },
}

impl Pace {
    /// The pause before an entry recorded at `ms` when the previous one shown was at
    /// `previous` (milliseconds since the Unix epoch): none when instant, for the first entry
    /// or when the clock went backwards.
    pub fn gap(self, previous: Option<i64>, ms: i64) -> Duration {
        let (Self::Scaled { factor }, Some(previous)) = (self, previous) else {
            return Duration::ZERO;
        };
        let recorded = u64::try_from(ms.saturating_sub(previous)).unwrap_or(0);
        if !(factor.is_finite() && factor > 0.0) {
            return Duration::ZERO;
        }
        // A tiny factor makes a pause too long for a Duration: it is the longest pause anyway.
        Duration::try_from_secs_f64(recorded as f64 / 1000.0 / factor)
            .map_or(MAX_GAP, |d| d.min(MAX_GAP))
    }
}

/// What to replay.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// The turns to replay, 1-based and inclusive (`None`: every turn). A turn is one
    /// submission's run, counted along the selected branch.
    pub turns: Option<(u32, u32)>,
    /// The branch: the one ending at this entry (`None`: the session's selected branch).
    pub leaf: Option<EntryId>,
    /// How fast.
    pub pace: Pace,
}

/// What a replay went through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Turns on the branch (replayed or not).
    pub turns: u32,
    /// Entries on the branch.
    pub entries: u64,
    /// The branch's last entry (`None`: an empty session).
    pub leaf: Option<u64>,
    /// Entries of record kinds this build does not know: (entry id, kind).
    pub unknown: Vec<(u64, u16)>,
    /// The file's last change was cut off (a crash mid-write): what was replayed ends at the
    /// last complete change. Says where and why, in words.
    pub torn: Option<String>,
    /// Damaged changes that could not be read and were skipped.
    pub skipped: usize,
    /// The replay was stopped (through its [`Cancel`]) before this entry.
    pub stopped: Option<u64>,
    /// The branch runs into this entry of a damaged change: what came before it on the
    /// branch cannot be found, and the replay starts after it.
    pub damaged: Option<u64>,
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
    /// The range starts after the branch's last turn.
    #[error("turn {first} is past the last: the branch has {turns} turn(s)")]
    PastLast {
        /// The first turn asked for.
        first: u32,
        /// Turns on the branch.
        turns: u32,
    },
    /// The branch's last entry is not an entry of the session.
    #[error("entry {leaf} is not an entry of the session (its entries are 1..={last})")]
    Leaf {
        /// The entry asked for.
        leaf: u64,
        /// The session's last entry id.
        last: u64,
    },
}

/// The ids of the branch ending at `leaf`, root first, from the entries' metadata alone. A
/// branch that runs into a damaged change ends there: the ids after it, and the damaged
/// entry met (its ancestors cannot be known).
///
/// # Errors
/// As [`SessionReader::parent_of`], for damage a full scan cannot delimit.
pub fn branch_ids(
    reader: &mut SessionReader,
    leaf: EntryId,
) -> Result<(Vec<EntryId>, Option<u64>), smith_store::Error> {
    let mut ids = Vec::new();
    let mut at = Some(leaf);
    let mut damaged = None;
    while let Some(id) = at {
        if reader.withheld(id.0) {
            damaged = Some(id.0);
            break;
        }
        at = match reader.parent_of(id) {
            Ok(parent) => parent,
            // Damaged: a checked read rescans the file and withholds the change it is in.
            Err(_) if reader.check(id).is_err() && reader.withheld(id.0) => {
                damaged = Some(id.0);
                break;
            }
            Err(e) => return Err(e),
        };
        ids.push(id);
    }
    ids.reverse();
    Ok((ids, damaged))
}

/// Replay the branch of session `session` (its file `path`) that `options` selects into
/// `sink`: the intents its live runs emitted, deterministic for the same file and options,
/// paced as asked, stopped between entries once `cancel` is cancelled.
///
/// # Errors
/// [`ReplayError::Store`] when the file cannot be read; [`ReplayError::Range`] for an empty
/// turn range; [`ReplayError::Leaf`] for a branch end that is no entry.
pub fn play(
    path: &Path,
    session: SessionId,
    options: &Options,
    cancel: &Cancel,
    sink: &mut dyn IntentSink,
) -> Result<Played, ReplayError> {
    if let Some((first, last)) = options.turns
        && (first == 0 || first > last)
    {
        return Err(ReplayError::Range { first, last });
    }
    let mut reader = SessionReader::open(path)?;
    let last = reader.state().last_id;
    let leaf = match options.leaf {
        Some(leaf) if leaf.0 == 0 || leaf.0 > last => {
            return Err(ReplayError::Leaf { leaf: leaf.0, last });
        }
        Some(leaf) => Some(leaf),
        None => reader.state().leaf_id(),
    };
    let (ids, damaged) = match leaf {
        Some(leaf) => branch_ids(&mut reader, leaf)?,
        None => (Vec::new(), None),
    };
    let mut played = Played {
        damaged,
        entries: ids.len() as u64,
        leaf: leaf.map(|l| l.0),
        torn: reader.torn_tail().map(|t| {
            format!(
                "{} bytes at byte {} were never published: {}",
                t.len, t.offset, t.reason
            )
        }),
        ..Played::default()
    };
    let mut turn = Turn::default();
    let shown = |n: u32| n > 0 && options.turns.is_none_or(|(a, b)| (a..=b).contains(&n));
    let mut previous = None;
    // The plan turns left out of the range set: shown when the first turn shown starts.
    let mut plan_before: Option<Intent> = None;
    for id in ids {
        let entry = match reader.entry(id) {
            Ok(entry) => entry,
            Err(_) if reader.withheld(id.0) => continue,
            Err(e) => return Err(e.into()),
        };
        if let Record::Unknown { kind, .. } = &entry.record {
            played.unknown.push((id.0, *kind));
            continue;
        }
        let starts = matches!(&entry.record, Record::Submission(s) if s.delivery.is_none() && s.owner.is_none());
        if starts {
            // A compaction or effects the last turn left open end with it.
            if shown(turn.number) {
                turn.fail_compaction(sink);
                turn.close_effects(sink);
            }
            played.turns += 1;
            let key = match &entry.record {
                Record::Submission(s) => s.dedup_key.clone(),
                _ => None,
            };
            turn = Turn::start(played.turns, id.0, key);
        }
        if !shown(turn.number) {
            // Before the first turn, or outside the range: the state still follows.
            if let Record::State(s) = &entry.record
                && let Some(plan) = transcript::plan(s)
            {
                plan_before = Some(plan);
            }
            turn.follow(&entry, &mut NoSink);
            continue;
        }
        let gap = options.pace.gap(previous, entry.timestamp_ms);
        previous = Some(entry.timestamp_ms);
        if pause(gap, cancel) {
            played.stopped = Some(id.0);
            played.skipped = reader.skipped().len();
            return Ok(played);
        }
        match &entry.record {
            Record::Submission(s) if starts => {
                sink.emit(Intent::RunStart {
                    session,
                    model: s.model.clone(),
                    sandbox: None,
                });
                if let Some(plan) = plan_before.take() {
                    sink.emit(plan);
                }
            }
            _ => turn.follow(&entry, sink),
        }
    }
    if shown(turn.number) {
        turn.fail_compaction(sink);
        turn.close_effects(sink);
    }
    // Reading may have found damage the opening did not look for.
    played.skipped = reader.skipped().len();
    Ok(played)
}

/// Wait `gap`, looking at `cancel` every few milliseconds: whether it was cancelled.
fn pause(gap: Duration, cancel: &Cancel) -> bool {
    const SLICE: Duration = Duration::from_millis(20);
    let deadline = std::time::Instant::now() + gap;
    loop {
        if cancel.is_cancelled() {
            return true;
        }
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return false;
        }
        std::thread::sleep(left.min(SLICE));
    }
}

/// A sink that drops what it is given: the turns outside the range still move the state.
struct NoSink;

impl IntentSink for NoSink {
    fn emit(&mut self, _intent: Intent) -> smith_ui_intents::Delivery {
        smith_ui_intents::Delivery::Dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_scales_recorded_gaps_and_caps_them() {
        let real = Pace::Scaled { factor: 1.0 };
        assert_eq!(real.gap(None, 5_000), Duration::ZERO);
        assert_eq!(real.gap(Some(1_000), 1_500), Duration::from_millis(500));
        assert_eq!(
            Pace::Scaled { factor: 10.0 }.gap(Some(1_000), 2_000),
            Duration::from_millis(100)
        );
        assert_eq!(real.gap(Some(0), 3_600_000), MAX_GAP);
        assert_eq!(
            real.gap(Some(2_000), 1_000),
            Duration::ZERO,
            "clock went back"
        );
        assert_eq!(Pace::Instant.gap(Some(0), 1_000), Duration::ZERO);
        assert_eq!(
            Pace::Scaled { factor: 0.0 }.gap(Some(0), 1_000),
            Duration::ZERO
        );
        assert_eq!(Pace::Scaled { factor: 1e-300 }.gap(Some(0), 1_000), MAX_GAP);
        assert_eq!(Pace::Scaled { factor: 5e-324 }.gap(Some(0), 1), MAX_GAP);
    }
}
