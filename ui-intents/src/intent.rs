//! The intents.

use serde::{Deserialize, Serialize};
use smith::{
    Attempt, AttemptFailure, CompactionReason, Message, ModelRef, Role, Selection, SessionId,
    StopReason, Usage, UsageTotals,
};

use crate::IntentKind;

/// Which part of a message a delta extends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaKind {
    /// Visible text.
    Text,
    /// Thinking.
    Thinking,
}

/// Severity of a notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeLevel {
    /// Informational.
    Info,
    /// Something the user should know; the work goes on.
    Warning,
    /// A failure.
    Error,
}

/// Where a submission's work stands, as a receipt reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReceiptStatus {
    /// Durably admitted; the work has not recorded an end.
    Admitted,
    /// The work ended (its stop reason is given).
    Terminal,
}

/// How a frontend holds its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// The one writer: may submit and mutate.
    Writer,
    /// A read-only observer of a session another process writes.
    Observer,
}

/// One semantic UI intent. It carries meaning only — never geometry, colour or terminal
/// types. Message and entry ids are the session's entry ids. The JSON form (serde) is an
/// object with a `type` field naming the [`IntentKind`], then the fields below.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Intent {
    /// A run began.
    RunStart {
        /// The session the run records into.
        session: SessionId,
        /// What the user selected: a model, or an alias or group name.
        model: Selection,
        /// The OS sandbox mode the run's programs start in (`read-only`, `workspace-write`,
        /// `full-access`); absent in a replay, which runs nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sandbox: Option<String>,
    },
    /// A submission's durable receipt: emitted once the input is admitted (before any work
    /// runs), or — for input whose deduplication key and content repeat an earlier
    /// submission — that submission's receipt, with `deduplicated` set and nothing run.
    Receipt {
        /// The submission's entry id: its stable identity within the session.
        submission: u64,
        /// The caller's deduplication key, if any.
        dedup_key: Option<String>,
        /// The input repeated an earlier submission; this is that submission's receipt.
        deduplicated: bool,
        /// Admitted (work pending) or terminal.
        state: ReceiptStatus,
        /// The work's stop reason, when terminal.
        stop_reason: Option<StopReason>,
    },
    /// A provider attempt was recorded (before its request is sent): the selection, the
    /// physical model and account, thinking level, routing provenance, the catalog record it
    /// was checked against and the plugin generation.
    Attempt {
        /// The attempt's entry id in the session.
        entry_id: u64,
        /// The attempt.
        attempt: Box<Attempt>,
    },
    /// An attempt ended without a response; `failure.next` says whether the round retries,
    /// fails over or stops.
    AttemptFailed {
        /// The failure.
        failure: AttemptFailure,
    },
    /// A round began: one provider request and its tool batch. Rounds count from 1 per run.
    RoundStart {
        /// The round number.
        round: u32,
    },
    /// A message begins; deltas with the same `message_id` follow, then its end.
    MessageStart {
        /// The entry id the message is committed under.
        message_id: u64,
        /// Its author.
        role: Role,
    },
    /// A piece of a streaming message.
    MessageDelta {
        /// The message being extended.
        message_id: u64,
        /// Text or thinking.
        kind: DeltaKind,
        /// The piece.
        text: String,
    },
    /// A message is complete (and, unless `recorded` is false, committed). Authoritative over
    /// the deltas.
    MessageEnd {
        /// The id its start and deltas carried: the entry id it was expected to get.
        message_id: u64,
        /// The entry id it was committed as; `None` when it was not recorded. It differs from
        /// `message_id` only when other entries (queued input, an abort request) were committed
        /// while the message streamed.
        entry_id: Option<u64>,
        /// The complete message.
        message: Message,
        /// Why the response ended (assistant messages only).
        stop_reason: Option<StopReason>,
        /// Usage reported for the response (assistant messages only; `None` when unknown).
        usage: Option<Usage>,
        /// Whether the message is committed to the session. `false` only when recording
        /// failed; the run then ends with an error.
        recorded: bool,
    },
    /// A committed transcript entry that is not a model message.
    TranscriptAppend {
        /// Its entry id.
        entry_id: u64,
        /// Who appended it (a plugin id or `smith`).
        source: String,
        /// The text, markdown.
        text: String,
    },
    /// A tool call starts running (or is about to be answered without running).
    ToolStart {
        /// The call id.
        call_id: String,
        /// The tool name the model used.
        name: String,
        /// The call arguments.
        arguments: serde_json::Value,
    },
    /// A running tool call reports partial output or progress.
    ToolUpdate {
        /// The call id.
        call_id: String,
        /// The latest partial output or progress text.
        text: String,
    },
    /// A tool call's result is committed (unless `recorded` is false).
    ToolEnd {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// The entry id of the committed result; `None` when it was not recorded.
        entry_id: Option<u64>,
        /// The output shown to the model.
        output: String,
        /// Whether the call failed or did not run.
        is_error: bool,
        /// Whether the result is committed to the session. `false` only when recording failed
        /// (a storage failure); the run then ends with an error.
        recorded: bool,
    },
    /// A compaction began: the selected model is asked to summarize the context before the
    /// boundary (spec: Compaction, cost, and secrets).
    CompactionStart {
        /// Why it runs.
        reason: CompactionReason,
        /// How many context items the summary is to stand for.
        summarized: u32,
        /// How many recent items stay verbatim.
        kept: u32,
        /// The estimated tokens of the summarized items.
        estimated_tokens: u64,
        /// The estimated tokens of the items kept verbatim (none in a replay of a record
        /// written without them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept_tokens: Option<u64>,
    },
    /// A compaction ended: its summary is committed (`entry_id`), or it failed and the
    /// context is unchanged (`error`).
    CompactionEnd {
        /// Why it ran.
        reason: CompactionReason,
        /// The `compaction` record's entry id; `None` when nothing was recorded.
        entry_id: Option<u64>,
        /// The first entry kept verbatim after the summary.
        first_kept: Option<u64>,
        /// The summary, when recorded.
        summary: Option<String>,
        /// The summary's usage, when reported.
        usage: Option<Box<Usage>>,
        /// Its cost in US dollars, when priced.
        cost_usd: Option<f64>,
        /// Why no summary was recorded.
        error: Option<String>,
    },
    /// Progress of long-running work.
    Progress {
        /// Stable id of the work; later reports with the same id supersede earlier ones.
        id: String,
        /// What is being done.
        label: String,
        /// Units done, when countable.
        done: Option<u64>,
        /// Units in all, when known.
        total: Option<u64>,
    },
    /// A named status item has a new value.
    Status {
        /// The item, e.g. `model`, `cost`, `mode`.
        key: String,
        /// Its value, plain text.
        value: String,
    },
    /// A notice for the person running Smith.
    Notice {
        /// Severity.
        level: NoticeLevel,
        /// What happened, why, and what to do.
        text: String,
    },
    /// A yes/no question.
    ConfirmRequest {
        /// Identifies the request; the answer or refusal names it.
        request_id: String,
        /// The question.
        prompt: String,
        /// The answer an empty reply means, if any.
        default: Option<bool>,
    },
    /// A choice among options.
    SelectRequest {
        /// Identifies the request.
        request_id: String,
        /// The question.
        prompt: String,
        /// The options, in display order.
        options: Vec<String>,
    },
    /// A request for a line of text.
    InputRequest {
        /// Identifies the request.
        request_id: String,
        /// The question.
        prompt: String,
        /// Whether the text is secret (never echoed or recorded in plaintext).
        secret: bool,
    },
    /// A frontend refused a request it cannot serve.
    RequestRefused {
        /// The refused request.
        request_id: String,
        /// Why, naming the frontend.
        reason: String,
    },
    /// Usage (and cost) of one response.
    Usage {
        /// The assistant message the usage belongs to.
        message_id: u64,
        /// The attempt (entry id) that produced the response, when one was recorded.
        attempt: Option<u64>,
        /// The physical model that served it (and whose prices apply); boxed to keep every
        /// intent small.
        model: Option<Box<ModelRef>>,
        /// The usage; `None` when the provider reported none.
        usage: Option<Usage>,
        /// Cost in US dollars at the attempt's recorded prices; `None` when unknown (no usage,
        /// an unknown figure, or an unpriced bucket in use).
        cost_usd: Option<f64>,
    },
    /// How much of the context window the next request uses.
    ContextUse {
        /// Tokens used, when known.
        used_tokens: Option<u64>,
        /// The model's context window, when known.
        limit_tokens: Option<u64>,
    },
    /// The frontend is attached to a session.
    SessionChange {
        /// The session.
        session: SessionId,
        /// Writer or observer.
        access: Access,
    },
    /// The selected leaf (branch) changed.
    BranchChange {
        /// The new leaf entry, `None` for an empty session.
        leaf: Option<u64>,
    },
    /// A round ended.
    RoundEnd {
        /// The round number.
        round: u32,
        /// The stop reason of its response.
        stop_reason: StopReason,
    },
    /// The run ended.
    RunEnd {
        /// Why it ended.
        stop_reason: StopReason,
        /// Usage summed over the run's responses.
        usage: UsageTotals,
        /// Cost in US dollars summed over the run's responses; `None` when any is unknown.
        cost_usd: Option<f64>,
        /// The failure, when the run failed.
        error: Option<String>,
        /// The memory the turn allocated ([`smith::TurnMemory`]), when the process accounts
        /// for it; absent (not null) otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        memory: Option<Box<smith::TurnMemory>>,
    },
    /// The session's plan was replaced: every step in order (empty: the plan was cleared). It
    /// mirrors Smith's `plan` branch state record, written by a tool through the WIT `plan`
    /// interface (package 1.7.0).
    Plan {
        /// The steps, in order.
        items: Vec<smith::PlanItem>,
    },
    /// A subscriber too slow for its bounded stream fell behind: what was queued for it was
    /// dropped (never what the session holds), and it resumes by reading the session's
    /// committed records from `next` (DESIGN §10 Backpressure).
    FellBehind {
        /// The session whose intents were dropped.
        session: SessionId,
        /// The committed position to resume from: the next entry id no dropped intent can
        /// precede (entry ids are dense and in commit order).
        next: u64,
    },
    /// A payload only for frontends that declare `capability` (a manifest-declared escape
    /// hatch); every other frontend drops it.
    Extension {
        /// The capability name, e.g. `terminal.image`.
        capability: String,
        /// The payload.
        payload: serde_json::Value,
    },
}

impl Intent {
    /// The kind of this intent; exhaustive, so a new variant cannot lack its rules.
    pub fn kind(&self) -> IntentKind {
        match self {
            Intent::RunStart { .. } => IntentKind::RunStart,
            Intent::Receipt { .. } => IntentKind::Receipt,
            Intent::Attempt { .. } => IntentKind::Attempt,
            Intent::AttemptFailed { .. } => IntentKind::AttemptFailed,
            Intent::RoundStart { .. } => IntentKind::RoundStart,
            Intent::MessageStart { .. } => IntentKind::MessageStart,
            Intent::MessageDelta { .. } => IntentKind::MessageDelta,
            Intent::MessageEnd { .. } => IntentKind::MessageEnd,
            Intent::TranscriptAppend { .. } => IntentKind::TranscriptAppend,
            Intent::ToolStart { .. } => IntentKind::ToolStart,
            Intent::ToolUpdate { .. } => IntentKind::ToolUpdate,
            Intent::ToolEnd { .. } => IntentKind::ToolEnd,
            Intent::CompactionStart { .. } => IntentKind::CompactionStart,
            Intent::CompactionEnd { .. } => IntentKind::CompactionEnd,
            Intent::Progress { .. } => IntentKind::Progress,
            Intent::Status { .. } => IntentKind::Status,
            Intent::Notice { .. } => IntentKind::Notice,
            Intent::ConfirmRequest { .. } => IntentKind::ConfirmRequest,
            Intent::SelectRequest { .. } => IntentKind::SelectRequest,
            Intent::InputRequest { .. } => IntentKind::InputRequest,
            Intent::RequestRefused { .. } => IntentKind::RequestRefused,
            Intent::Usage { .. } => IntentKind::Usage,
            Intent::ContextUse { .. } => IntentKind::ContextUse,
            Intent::SessionChange { .. } => IntentKind::SessionChange,
            Intent::BranchChange { .. } => IntentKind::BranchChange,
            Intent::RoundEnd { .. } => IntentKind::RoundEnd,
            Intent::RunEnd { .. } => IntentKind::RunEnd,
            Intent::Plan { .. } => IntentKind::Plan,
            Intent::FellBehind { .. } => IntentKind::FellBehind,
            Intent::Extension { .. } => IntentKind::Extension,
        }
    }

    /// The request id of a request intent (`confirm_request`, `select_request`,
    /// `input_request`).
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Intent::ConfirmRequest { request_id, .. }
            | Intent::SelectRequest { request_id, .. }
            | Intent::InputRequest { request_id, .. } => Some(request_id),
            _ => None,
        }
    }

    /// The key under which a newer report of a replace-coalescing kind supersedes an older
    /// one: the call id of a tool update, the id of a progress report, the key of a status
    /// item; context use has a single key.
    fn replace_key(&self) -> Option<(IntentKind, &str)> {
        match self {
            Intent::ToolUpdate { call_id, .. } => Some((IntentKind::ToolUpdate, call_id)),
            Intent::Progress { id, .. } => Some((IntentKind::Progress, id)),
            Intent::Status { key, .. } => Some((IntentKind::Status, key)),
            Intent::ContextUse { .. } => Some((IntentKind::ContextUse, "")),
            _ => None,
        }
    }

    /// Merge `newer` into `self` when both are the same kind with the same key, following the
    /// kind's [`crate::Backpressure`]: deltas of the same message and kind concatenate; tool
    /// updates, progress, status items and context use are replaced by the newer report.
    ///
    /// # Errors
    /// `newer`, unchanged, when the two do not merge.
    pub fn merge(&mut self, newer: Intent) -> Result<(), Intent> {
        if let (
            Intent::MessageDelta {
                message_id: a,
                kind: ka,
                text,
            },
            Intent::MessageDelta {
                message_id: b,
                kind: kb,
                text: more,
            },
        ) = (&mut *self, &newer)
            && *a == *b
            && *ka == *kb
        {
            text.push_str(more);
            return Ok(());
        }
        match (self.replace_key(), newer.replace_key()) {
            (Some(old), Some(new)) if old == new => {
                *self = newer;
                Ok(())
            }
            _ => Err(newer),
        }
    }
}
