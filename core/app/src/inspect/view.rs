//! The inspection records: one view type per output record, borrowing what it shows.

use serde::Serialize;
use smith::{EntryId, Selection, SessionId, UsageTotals};
use smith_agent::{AttemptUsage, Receipt, ReceiptState};
use smith_store::{Entry, Record as Stored, SessionReader, SessionState};

/// One inspection record, tagged by `type` (serialized first).
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record<'a> {
    /// A session of `list`.
    Session(SessionSummary),
    /// A matching line of `grep`.
    Match(MatchView<'a>),
    /// An entry of `get` or `watch`.
    Entry(EntryView<'a>),
    /// The usage and cost over a whole session (`get`).
    Usage(UsageView<'a>),
    /// The page trailer of `get`.
    Page(PageView),
    /// A submission and its receipt (`receipts`).
    Receipt(ReceiptView),
    /// A new fork.
    Fork(ForkView),
    /// An attempt's effective request (`get --request`).
    Request(Box<super::RequestView<'a>>),
    /// An attempt's request as its provider plugin encodes it (`get --request --wire`).
    Wire(super::WireView<'a>),
}

/// The most characters of a session's title ([`SessionSummary::title`]), ellipsis included.
pub const TITLE_CHARS: usize = 72;

/// A session's identity and summary metadata: what its start records, its title and the model
/// it last selected. Read through the file's index: the start, the first few entries and the
/// selected branch back to its last selection — never the whole history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionSummary {
    /// The session id.
    pub id: SessionId,
    /// Creation time from the id, milliseconds since the Unix epoch.
    pub created_ms: Option<u64>,
    /// When the file was last written (its modification time), milliseconds since the Unix
    /// epoch.
    pub modified_ms: Option<u64>,
    /// The file's size in bytes.
    pub bytes: u64,
    /// The Smith that created it.
    pub smith_version: Option<String>,
    /// The working directory it was created in.
    pub cwd: Option<String>,
    /// The first line of the first submitted prompt, at most [`TITLE_CHARS`] characters
    /// (cut with `…`); `None` before the first submission.
    pub title: Option<String>,
    /// The selection (model, alias or group) the selected branch last recorded: its last
    /// submission or model change.
    pub last_model: Option<String>,
    /// Where its history came from, when it was imported: the source format and the version
    /// the file named (`codex 0.171.0`). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported: Option<String>,
}

/// How many entries from the start are searched for the first submission (the title).
const TITLE_SEARCH: usize = 16;

/// `input`'s first non-blank line, trimmed and bounded to [`TITLE_CHARS`] characters (how a
/// session's title is made from its first prompt); `None` when it is blank.
pub fn title_of(input: &str) -> Option<String> {
    let line = input.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.chars().count() <= TITLE_CHARS {
        return Some(line.to_owned());
    }
    let mut cut: String = line.chars().take(TITLE_CHARS - 1).collect();
    cut.push('…');
    Some(cut)
}

/// Summarize session `id` at `path`: its size, modification time, what its `session_start`
/// records, its title and last selection.
///
/// # Errors
/// The store's error when the file cannot be opened or its entries read.
pub fn summarize(
    id: SessionId,
    path: &std::path::Path,
) -> Result<SessionSummary, smith_store::Error> {
    let meta = std::fs::metadata(path).ok();
    let modified_ms = meta
        .as_ref()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| u64::try_from(d.as_millis()).ok());
    let mut reader = SessionReader::open(path)?;
    // Only the kinds a summary shows are decoded: the metadata passes over tool output.
    let mut first = Vec::new();
    let last = reader.state().last_id.min(TITLE_SEARCH as u64);
    reader.for_each_of_kinds(
        1..=last,
        &[Stored::SESSION_START, Stored::SUBMISSION],
        |e| {
            first.push(e);
        },
    )?;
    let (smith_version, cwd, imported) = match first.first().map(|e| &e.record) {
        Some(Stored::SessionStart(s)) => (
            Some(s.smith_version.clone()),
            s.cwd.clone(),
            s.imported.as_ref().map(imported_from),
        ),
        _ => (None, None, None),
    };
    let title = first.iter().find_map(|e| match &e.record {
        Stored::Submission(s) => title_of(&s.input),
        _ => None,
    });
    let last_model = last_selection(&mut reader)?.map(|s| s.to_string());
    Ok(SessionSummary {
        id,
        created_ms: id.created_ms(),
        modified_ms,
        bytes: meta.map_or(0, |m| m.len()),
        smith_version,
        cwd,
        title,
        last_model,
        imported,
    })
}

/// `FORMAT VERSION` of an import's provenance (`claude-code 2.1.332`).
pub(crate) fn imported_from(i: &smith_store::Imported) -> String {
    match &i.version {
        Some(v) => format!("{} {v}", i.format),
        None => i.format.clone(),
    }
}

/// The selection the selected branch of `reader`'s session last recorded (its newest
/// submission or model change), walking back from the leaf.
fn last_selection(reader: &mut SessionReader) -> Result<Option<Selection>, smith_store::Error> {
    let mut at = reader.state().leaf_id();
    while let Some(id) = at {
        let entry = reader.entry(id)?;
        match entry.record {
            Stored::Submission(s) => return Ok(Some(s.model)),
            Stored::ModelChange(c) => return Ok(Some(c.model)),
            _ => at = entry.parent,
        }
    }
    Ok(None)
}

/// The selection session file `path` last recorded on its selected branch (its newest
/// submission or model change), `None` when it has none: what continuing the session runs
/// with unless the caller selects another.
///
/// # Errors
/// The store's error when the file cannot be opened or an entry on the branch read.
pub fn recorded_selection(path: &std::path::Path) -> Result<Option<Selection>, smith_store::Error> {
    last_selection(&mut SessionReader::open(path)?)
}

/// One matching line of one entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchView<'a> {
    /// The session.
    pub session: SessionId,
    /// The entry.
    pub entry: EntryId,
    /// The entry's kind label ([`kind_label`]).
    pub kind: &'static str,
    /// The matching line.
    pub line: &'a str,
}

/// An entry with its fixed metadata and its record.
#[derive(Debug, Serialize)]
pub struct EntryView<'a> {
    /// The session.
    pub session: SessionId,
    /// The entry id.
    pub id: EntryId,
    /// Its parent on its branch.
    pub parent: Option<EntryId>,
    /// The entry it pairs with (a tool call's message, a submission, an effect intent).
    pub pair: Option<EntryId>,
    /// When it was recorded, milliseconds since the Unix epoch.
    pub timestamp_ms: i64,
    /// The record kind's name (`message`, `tool_result`, …).
    pub kind: &'static str,
    /// The record.
    pub record: RecordView<'a>,
}

impl<'a> EntryView<'a> {
    /// The view of `entry` of session `session`.
    pub fn new(session: SessionId, entry: &'a Entry) -> Self {
        Self {
            session,
            id: entry.id,
            parent: entry.parent,
            pair: entry.pair,
            timestamp_ms: entry.timestamp_ms,
            kind: entry.record.kind_name(),
            record: RecordView::new(&entry.record),
        }
    }
}

/// A record as inspection shows it: the record's own fields, except that an effect
/// completion's output bytes are shown as text (invalid UTF-8 replaced) and a record of an
/// unknown kind by its kind number and size.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum RecordView<'a> {
    /// A known record, as recorded.
    Known(KnownRecord<'a>),
    /// An effect completion with its output as text.
    EffectCompletion {
        /// The intent's effect id.
        effect_id: &'a str,
        /// `applied`, `not-applied` or `unknown`.
        outcome: smith::EffectOutcome,
        /// The output, as text.
        output: std::borrow::Cow<'a, str>,
        /// The evidence.
        evidence: &'a serde_json::Value,
    },
    /// A record of a kind this Smith does not know.
    Unknown {
        /// Its kind number.
        record_kind: u16,
        /// Its body's size.
        bytes: usize,
        /// Whether it changes what the model sees (its entry carries the projection flag):
        /// requests past it cannot be reconstructed by this Smith.
        projection: bool,
    },
}

/// A known record kind's body, serialized as recorded.
#[derive(Debug, Serialize)]
#[serde(untagged)]
#[allow(missing_docs)]
pub enum KnownRecord<'a> {
    SessionStart(&'a smith_store::SessionStart),
    ModelChange(&'a smith_store::ModelChange),
    Message(&'a smith_store::MessageRecord),
    ToolResult(&'a smith_store::ToolResultRecord),
    RunEnd(&'a smith_store::RunEnd),
    EffectIntent(&'a smith::EffectIntent),
    Submission(&'a smith_store::Submission),
    Abort(&'a smith_store::Abort),
    Withdrawal(&'a smith_store::Withdrawal),
    ClientCall(&'a smith_store::ClientCall),
    Checkpoint(&'a smith_store::Checkpoint),
    Attempt(&'a smith::Attempt),
    AttemptFailed(&'a smith::AttemptFailure),
    SecretRegistration(&'a smith_store::SecretRegistration),
    ContextEdit(&'a smith_store::ContextEdit),
    RequestInput(&'a smith_store::RequestInput),
    Request(&'a smith_store::EffectiveRequest),
    Compaction(&'a smith_store::Compaction),
    /// Kind 20.
    Vcs(&'a smith_store::VcsRecord),
    /// Kind 21.
    State(&'a smith_store::StateRecord),
    /// Kind 22.
    EffectVerdict(&'a smith_store::EffectVerdict),
}

impl<'a> RecordView<'a> {
    /// The view of `record`.
    pub fn new(record: &'a Stored) -> Self {
        let known = match record {
            Stored::SessionStart(r) => KnownRecord::SessionStart(r),
            Stored::ModelChange(r) => KnownRecord::ModelChange(r),
            Stored::Message(r) => KnownRecord::Message(r),
            Stored::ToolResult(r) => KnownRecord::ToolResult(r),
            Stored::RunEnd(r) => KnownRecord::RunEnd(r),
            Stored::EffectIntent(r) => KnownRecord::EffectIntent(r),
            Stored::Submission(r) => KnownRecord::Submission(r),
            Stored::Abort(r) => KnownRecord::Abort(r),
            Stored::Withdrawal(r) => KnownRecord::Withdrawal(r),
            Stored::ClientCall(r) => KnownRecord::ClientCall(r),
            Stored::Checkpoint(r) => KnownRecord::Checkpoint(r),
            Stored::Attempt(r) => KnownRecord::Attempt(r),
            Stored::AttemptFailed(r) => KnownRecord::AttemptFailed(r),
            Stored::SecretRegistration(r) => KnownRecord::SecretRegistration(r),
            Stored::ContextEdit(r) => KnownRecord::ContextEdit(r),
            Stored::RequestInput(r) => KnownRecord::RequestInput(r),
            Stored::Request(r) => KnownRecord::Request(r),
            Stored::Compaction(r) => KnownRecord::Compaction(r),
            Stored::Vcs(r) => KnownRecord::Vcs(r),
            Stored::State(r) => KnownRecord::State(r),
            Stored::EffectVerdict(r) => KnownRecord::EffectVerdict(r),
            Stored::EffectCompletion(r) => {
                return Self::EffectCompletion {
                    effect_id: &r.effect_id,
                    outcome: r.outcome,
                    output: String::from_utf8_lossy(&r.output),
                    evidence: &r.evidence,
                };
            }
            Stored::Unknown {
                kind,
                body,
                projection,
            } => {
                return Self::Unknown {
                    record_kind: *kind,
                    bytes: body.len(),
                    projection: *projection,
                };
            }
        };
        Self::Known(known)
    }
}

/// The kind label inspection shows: a message's role (`user`, `assistant`), else the record
/// kind's name.
pub fn kind_label(record: &Stored) -> &'static str {
    match record {
        Stored::Message(m) => m.message.role.as_str(),
        other => other.kind_name(),
    }
}

/// Usage and cost over a whole session: per attempt and in total.
#[derive(Debug, Serialize)]
pub struct UsageView<'a> {
    /// The session.
    pub session: SessionId,
    /// Each attempt's usage and cost.
    pub attempts: &'a [AttemptUsage],
    /// Usage summed over every response, each counted once; unknown stays unknown.
    pub total: &'a UsageTotals,
    /// Cost in US dollars; `None` when any response's cost is unknown.
    pub cost_usd: Option<f64>,
    /// The memory each turn allocated, where its `run_end` recorded it; absent when none did.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub memory: &'a [smith_agent::TurnMemoryUsage],
}

/// The trailer of a page of entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageView {
    /// The session.
    pub session: SessionId,
    /// Entries on this page.
    pub returned: usize,
    /// The cursor of the next page, when there is one.
    pub next_cursor: Option<u64>,
    /// The selected leaf.
    pub leaf: Option<u64>,
    /// The largest entry id.
    pub last_id: u64,
    /// Commits up to this sequence number are durably acknowledged.
    pub acknowledged_through_commit: u64,
    /// The sequence number of the last complete commit.
    pub last_commit: u64,
}

impl PageView {
    /// The trailer of a page of `returned` entries of session `session` in `state`.
    pub fn new(
        session: SessionId,
        returned: usize,
        next_cursor: Option<u64>,
        state: &SessionState,
    ) -> Self {
        Self {
            session,
            returned,
            next_cursor,
            leaf: state.leaf_id().map(|l| l.0),
            last_id: state.last_id,
            acknowledged_through_commit: state.durable_through,
            last_commit: state.sequence,
        }
    }
}

/// A submission with its receipt, rebuilt from the file alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReceiptView {
    /// The session inspected.
    pub session: SessionId,
    /// The submission's entry id (its identity).
    pub submission: EntryId,
    /// The session it was admitted in (a fork's source for inherited work).
    pub admitted_in: SessionId,
    /// The caller's deduplication key.
    pub dedup_key: Option<String>,
    /// The selection.
    pub model: String,
    /// `admitted`, `queued`, `delivered`, `withdrawn` or `terminal`.
    pub state: &'static str,
    /// How the work ended (terminal only).
    pub stop_reason: Option<smith::StopReason>,
    /// The entry of its end, delivery or withdrawal.
    pub end: Option<EntryId>,
    /// The failure (terminal only).
    pub error: Option<String>,
    /// The entry of the recorded answer.
    pub answer: Option<EntryId>,
    /// The work owning it.
    pub owner: Option<EntryId>,
    /// Queued input's delivery mode.
    pub delivery: Option<&'static str>,
    /// The latest checkpoint.
    pub checkpoint: Option<CheckpointView>,
}

/// A work checkpoint as inspection shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckpointView {
    /// The checkpoint's entry.
    pub entry: EntryId,
    /// The round completed.
    pub round: u32,
    /// The phase reached.
    pub phase: String,
    /// What continuing requires.
    pub requires: Vec<String>,
}

impl ReceiptView {
    /// The view of `receipt` read from session `session`.
    pub fn new(session: SessionId, receipt: &Receipt) -> Self {
        let (state, stop_reason, end, error) = match &receipt.state {
            ReceiptState::Admitted => ("admitted", None, None, None),
            ReceiptState::Queued => ("queued", None, None, None),
            ReceiptState::Delivered { message, .. } => ("delivered", None, Some(*message), None),
            ReceiptState::Withdrawn { at } => ("withdrawn", None, Some(*at), None),
            ReceiptState::Terminal {
                stop_reason,
                end,
                error,
                ..
            } => ("terminal", Some(*stop_reason), Some(*end), error.clone()),
        };
        Self {
            session,
            submission: receipt.submission,
            admitted_in: receipt.session,
            dedup_key: receipt.dedup_key.clone(),
            model: receipt.model.to_string(),
            state,
            stop_reason,
            end,
            error,
            answer: receipt.answer.as_ref().map(|(entry, _)| *entry),
            owner: receipt.owner,
            delivery: receipt.delivery.map(smith::Delivery::as_str),
            checkpoint: receipt
                .checkpoint
                .as_ref()
                .map(|(entry, c)| CheckpointView {
                    entry: *entry,
                    round: c.round,
                    phase: c.phase.clone(),
                    requires: c.requires.clone(),
                }),
        }
    }
}

/// A new fork of a session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ForkView {
    /// The source session.
    pub source: SessionId,
    /// The new session.
    pub session: SessionId,
    /// Its selected leaf.
    pub leaf: Option<EntryId>,
    /// How many entries it holds.
    pub entries: u64,
}

/// `YYYY-MM-DD HH:MM:SS` UTC for milliseconds since the epoch (civil-from-days, proleptic
/// Gregorian).
pub fn format_utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
