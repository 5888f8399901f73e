//! Record kinds and their CBOR bodies.

use serde::{Deserialize, Serialize};
use smith::{
    Attempt, AttemptFailure, Delivery, EffectCompletion, EffectIntent, EntryId, Message, ModelRef,
    Selection, StopReason, ToolResult, Usage, UsageTotals,
};

use crate::Error;

/// Body of record kind 1, `session_start`: the first entry of every session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionStart {
    /// The version of the Smith that created the session.
    pub smith_version: String,
    /// The working directory the session was created in, when known and valid UTF-8.
    pub cwd: Option<String>,
    /// Where the session's history came from when it was imported from another tool's file
    /// (`smith sessions import`). Absent from the body for sessions Smith started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
}

/// The provenance of an imported session, recorded in its `session_start`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// The source format: `codex` (a Codex CLI rollout), `claude-code` (a Claude Code project
    /// session) or `pi` (a pi session).
    pub format: String,
    /// The version the file names: its format version, else the writing tool's version;
    /// `None` when it names none.
    pub version: Option<String>,
    /// The file imported, as given (made absolute).
    pub source: String,
    /// SHA-256 (hex) of the file's bytes.
    pub sha256: String,
    /// What could not be carried over, each a phrase with its count (`"3 sub-agent
    /// entries"`); empty when everything was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

/// Body of record kind 2, `model_change`: the user's model selection from here on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelChange {
    /// The selection: a model, or an alias or group name.
    pub model: Selection,
}

/// Body of record kind 3, `message`: a user message, or a model response with the model that
/// produced it, its stop reason, usage and failure. For user messages `model`, `stop_reason`,
/// `usage` and `error` are absent (`None`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MessageRecord {
    /// The message (role and content).
    pub message: Message,
    /// The model that produced it (assistant only).
    pub model: Option<ModelRef>,
    /// Why the response ended (assistant only).
    pub stop_reason: Option<StopReason>,
    /// Reported usage; `None` when the provider reported none.
    pub usage: Option<Usage>,
    /// The provider failure, when the response failed.
    pub error: Option<String>,
    /// The [`Attempt`] (record kind 12) that produced it, when the run recorded one; absent
    /// for user messages and in sessions written before attempt records existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<EntryId>,
}

/// Body of record kind 4, `tool_result`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResultRecord {
    /// The result, paired to its call by `call_id`.
    pub result: ToolResult,
}

/// Body of record kind 5, `run_end`: how a run ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunEnd {
    /// Why the run ended.
    pub stop_reason: StopReason,
    /// Usage summed over the run's own responses (its child work's are not in it: they are
    /// referenced through `children`, so no response is counted twice).
    pub usage: UsageTotals,
    /// The failure, when the run failed.
    pub error: Option<String>,
    /// The child work (submission entry ids) this work owned and settled before it, whose
    /// own ends carry their usage (spec: Compaction, cost, and secrets — nested work is
    /// attributed once; plan SMH-PLAN-99TPLN9I B5). Absent from the body when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<EntryId>,
    /// The memory the run allocated, as the accounting allocator attributed it to its turn
    /// scope; absent when no accounting allocator ran it (and in older records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<smith::TurnMemory>,
}

/// Body of record kind 8, `submission`: input admitted into the session (spec: Sessions →
/// Submission and receipts). Its entry id is the submission's stable identity; the work it
/// starts ends with a `run_end` entry paired with it (its terminal receipt). It is committed
/// in one change with the user message it delivers, so admission is all or nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    /// The session the input was admitted into. A fork copies its source's submissions with
    /// the source's id: they keep their attribution and their keys stay the source's. Always
    /// written; `None` only for a record written before the field existed (then: the file's
    /// own session).
    #[serde(default)]
    pub session: Option<smith::SessionId>,
    /// The caller's deduplication key, unique within the session, when one was given.
    pub dedup_key: Option<String>,
    /// SHA-256 (hex) of the submitted content: the model reference, a NUL byte, the input.
    pub content_sha256: String,
    /// The leaf the input was admitted onto (`None`: the session had no entries on a branch).
    pub destination: Option<EntryId>,
    /// Whether the caller named the destination explicitly.
    pub explicit_destination: bool,
    /// The selection the work runs with: a model, or an alias or group name.
    pub model: Selection,
    /// The input text.
    pub input: String,
    /// The work that owns this submission's work (child work): the owner settles only after
    /// it. `None` for top-level work. Absent from the body when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<EntryId>,
    /// Queue placement: the input waits in the session's queue and is delivered into live work
    /// by the queue policy in this mode. `None`: it starts its own work at once. Absent from
    /// the body when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<Delivery>,
    /// The queue policy that will deliver queued input (`plugin-id@version`); delivery by any
    /// other policy is refused (no name-based rebinding). Absent from the body when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// Files the input attaches (`@path` mentions): what was read, so the content in the user
    /// message can be traced to the bytes it came from. Absent from the body when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// A file attached to a submission: its path as written (relative to the working directory),
/// its size in bytes and the SHA-256 (hex) of those bytes. The content itself is part of the
/// submission's input and user message, in the same committed change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The path as the mention wrote it.
    pub path: String,
    /// The file's size in bytes.
    pub bytes: u64,
    /// SHA-256 of the file's bytes, lowercase hex.
    pub sha256: String,
}

/// Body of record kind 18, `client_call`: a tool call a protocol client made directly (not a
/// model's), recorded before the tool runs so that its effects have it as their causal parent
/// (spec: Durable effect boundary; MCP's `tools/call` is the first such frontend).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClientCall {
    /// The frontend that took the call: `mcp`.
    pub frontend: String,
    /// The client's request id, as JSON text (`7`, `"abc"`): the correlation the client sees.
    pub request: String,
    /// The tool called.
    pub tool: String,
    /// Its arguments as the client sent them (secrets in them are redacted like every record).
    pub arguments: serde_json::Value,
}

/// Body of record kind 10, `withdrawal`: queued input (the `submission` it pairs with) taken
/// back before delivery. Terminal for that submission: it is never delivered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Withdrawal {
    /// Who or what withdrew it, in words.
    pub reason: String,
}

/// Body of record kind 14, `secret_registration`: a secret the session's records are redacted
/// against (spec: Sessions — entries represent secret registration; Compaction, cost, and
/// secrets). Its name, label and source — never its plaintext, which stays local in the user's
/// secret store or where its source keeps it. Records name it by its reference
/// `⟦secret:NAME⟧`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SecretRegistration {
    /// The secret's name (its reference is `⟦secret:NAME⟧`).
    pub name: String,
    /// What it is, in the user's words; `None` when none was given.
    pub label: Option<String>,
    /// Where it was registered from: `user` (the secret store), `auth:PROVIDER/ACCOUNT` (a
    /// stored credential), `env:VARIABLE` (a key variable or a variable the configuration
    /// names), `plugin:ID@VERSION` (handed over by the plugin that created it).
    pub source: String,
}

/// Body of record kind 11, `checkpoint`: where the work of the submission it pairs with stands
/// — recorded data, not a live thread (spec: Work and recovery). Committed in the same change
/// as the transition it describes (the last tool result of a batch), so state and checkpoint
/// recover together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The provider round just completed (1-based).
    pub round: u32,
    /// The phase reached: `tool_batch_complete` (the round's stream and every tool result are
    /// recorded; the next step is a provider request).
    pub phase: String,
    /// What continuing requires: the plugins (`id@version`) whose tools the round offered —
    /// the plugin generation a continuation checks against what is active then.
    pub requires: Vec<String>,
    /// The model route the work runs with: the selection (a model, alias or group) its
    /// rounds are dispatched through. `None` in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<smith::Selection>,
    /// The tool loadout: the names of the tools the round offered the model, in the order
    /// offered. Empty in files written before it was recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
}

/// Body of record kind 22, `effect_verdict`: a person's verdict on an effect whose outcome was
/// recorded `unknown` (spec: Durable effect boundary — "Unknown → Reconciled: explicit
/// reconciliation"). It pairs with the effect's `effect_completion`, which stays as recorded
/// with its evidence; a later verdict on the same effect replaces an earlier one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectVerdict {
    /// The effect's id (its intent's `effect_id`).
    pub effect_id: String,
    /// What the person found: `applied` or `not-applied`.
    pub outcome: smith::EffectOutcome,
    /// Why, in their words (may be empty).
    pub note: String,
}

/// Body of record kind 9, `abort`: a recorded request to abort the work of the submission it
/// pairs with (spec: Submission and receipts — aborting work is an authorized operation with
/// recorded cancellation intent). It does not settle the work: the work winds down at its
/// next effect edge and its `run_end` is the terminal receipt; effects already started keep
/// their own recorded outcomes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Abort {
    /// Who or what asked, in words (e.g. `interrupt signal (Ctrl-C or SIGTERM)`).
    pub reason: String,
}

/// A session record. Kinds this build does not know are kept as [`Record::Unknown`] with their
/// body bytes, so they survive a rewrite unchanged.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// Kind 1.
    SessionStart(SessionStart),
    /// Kind 2.
    ModelChange(ModelChange),
    /// Kind 3.
    Message(MessageRecord),
    /// Kind 4.
    ToolResult(ToolResultRecord),
    /// Kind 5.
    RunEnd(RunEnd),
    /// Kind 6.
    EffectIntent(EffectIntent),
    /// Kind 7.
    EffectCompletion(EffectCompletion),
    /// Kind 8.
    Submission(Submission),
    /// Kind 9.
    Abort(Abort),
    /// Kind 10.
    Withdrawal(Withdrawal),
    /// Kind 11.
    Checkpoint(Checkpoint),
    /// Kind 12: a provider attempt, recorded before its request is sent.
    Attempt(Box<Attempt>),
    /// Kind 13: an attempt that ended without a response, and what the round did next.
    AttemptFailed(AttemptFailure),
    /// Kind 14.
    SecretRegistration(SecretRegistration),
    /// Kind 15: edits to the model-visible content of earlier entries.
    ContextEdit(crate::ContextEdit),
    /// Kind 16: an input of later requests (instructions or tool definitions).
    RequestInput(crate::RequestInput),
    /// Kind 17: the request of a provider attempt.
    Request(crate::EffectiveRequest),
    /// Kind 18: a tool call a protocol client made directly.
    ClientCall(ClientCall),
    /// Kind 19: a summary standing for the context before a boundary.
    Compaction(crate::Compaction),
    /// Kind 20: a change of the working tree between two snapshots.
    Vcs(crate::VcsRecord),
    /// Kind 21: a plugin's branch or session state was set or removed.
    State(crate::StateRecord),
    /// Kind 22: a verdict on an effect whose outcome was unknown.
    EffectVerdict(EffectVerdict),
    /// A kind this build does not know.
    Unknown {
        /// Its record kind.
        kind: u16,
        /// Its body, byte for byte.
        body: Vec<u8>,
        /// Whether its entry carries the projection flag
        /// ([`crate::meta::ENTRY_PROJECTION`]): it changes what later requests see, so a
        /// request cannot be reconstructed past it by this build.
        projection: bool,
    },
}

impl Record {
    /// Record kind of [`Record::SessionStart`] in entry metadata.
    pub const SESSION_START: u16 = 1;
    /// Record kind of [`Record::ModelChange`] in entry metadata.
    pub const MODEL_CHANGE: u16 = 2;
    /// Record kind of [`Record::Message`] in entry metadata.
    pub const MESSAGE: u16 = 3;
    /// Record kind of [`Record::ToolResult`] in entry metadata.
    pub const TOOL_RESULT: u16 = 4;
    /// Record kind of [`Record::RunEnd`] in entry metadata.
    pub const RUN_END: u16 = 5;
    /// Record kind of [`Record::EffectIntent`] in entry metadata.
    pub const EFFECT_INTENT: u16 = 6;
    /// Record kind of [`Record::EffectCompletion`] in entry metadata.
    pub const EFFECT_COMPLETION: u16 = 7;
    /// Record kind of [`Record::Submission`] in entry metadata.
    pub const SUBMISSION: u16 = 8;
    /// Record kind of [`Record::Abort`] in entry metadata.
    pub const ABORT: u16 = 9;
    /// Record kind of [`Record::Withdrawal`] in entry metadata.
    pub const WITHDRAWAL: u16 = 10;
    /// Record kind of [`Record::Checkpoint`] in entry metadata.
    pub const CHECKPOINT: u16 = 11;
    /// Record kind of [`Record::Attempt`] in entry metadata.
    pub const ATTEMPT: u16 = 12;
    /// Record kind of [`Record::AttemptFailed`] in entry metadata.
    pub const ATTEMPT_FAILED: u16 = 13;
    /// Record kind of [`Record::SecretRegistration`] in entry metadata.
    pub const SECRET_REGISTRATION: u16 = 14;
    /// Record kind of [`Record::ContextEdit`].
    pub const CONTEXT_EDIT: u16 = 15;
    /// Record kind of [`Record::RequestInput`].
    pub const REQUEST_INPUT: u16 = 16;
    /// Record kind of [`Record::Request`].
    pub const REQUEST: u16 = 17;
    /// Record kind of [`Record::ClientCall`].
    pub const CLIENT_CALL: u16 = 18;
    /// Record kind of [`Record::Compaction`].
    pub const COMPACTION: u16 = 19;
    /// Record kind of [`Record::Vcs`].
    pub const VCS: u16 = 20;
    /// Record kind of [`Record::State`].
    pub const STATE: u16 = 21;
    /// Record kind of [`Record::EffectVerdict`].
    pub const EFFECT_VERDICT: u16 = 22;

    /// The record kind number written in the entry metadata.
    pub fn kind(&self) -> u16 {
        match self {
            Record::SessionStart(_) => Self::SESSION_START,
            Record::ModelChange(_) => Self::MODEL_CHANGE,
            Record::Message(_) => Self::MESSAGE,
            Record::ToolResult(_) => Self::TOOL_RESULT,
            Record::RunEnd(_) => Self::RUN_END,
            Record::EffectIntent(_) => Self::EFFECT_INTENT,
            Record::EffectCompletion(_) => Self::EFFECT_COMPLETION,
            Record::Submission(_) => Self::SUBMISSION,
            Record::Abort(_) => Self::ABORT,
            Record::Withdrawal(_) => Self::WITHDRAWAL,
            Record::Checkpoint(_) => Self::CHECKPOINT,
            Record::Attempt(_) => Self::ATTEMPT,
            Record::AttemptFailed(_) => Self::ATTEMPT_FAILED,
            Record::SecretRegistration(_) => Self::SECRET_REGISTRATION,
            Record::ContextEdit(_) => Self::CONTEXT_EDIT,
            Record::RequestInput(_) => Self::REQUEST_INPUT,
            Record::Request(_) => Self::REQUEST,
            Record::ClientCall(_) => Self::CLIENT_CALL,
            Record::Compaction(_) => Self::COMPACTION,
            Record::Vcs(_) => Self::VCS,
            Record::State(_) => Self::STATE,
            Record::EffectVerdict(_) => Self::EFFECT_VERDICT,
            Record::Unknown { kind, .. } => *kind,
        }
    }

    /// The record kind's name (`session_start`, `model_change`, `message`, `tool_result`,
    /// `run_end`, `effect_intent`, `effect_completion`, `submission`, `abort`, `withdrawal`,
    /// `checkpoint`, `attempt`, `attempt_failed`, `secret_registration`, `context_edit`,
    /// `request_input`, `request`, `client_call`, `compaction`, `vcs`, `state`, or `unknown`).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Record::SessionStart(_) => "session_start",
            Record::ModelChange(_) => "model_change",
            Record::Message(_) => "message",
            Record::ToolResult(_) => "tool_result",
            Record::RunEnd(_) => "run_end",
            Record::EffectIntent(_) => "effect_intent",
            Record::EffectCompletion(_) => "effect_completion",
            Record::Submission(_) => "submission",
            Record::Abort(_) => "abort",
            Record::Withdrawal(_) => "withdrawal",
            Record::Checkpoint(_) => "checkpoint",
            Record::Attempt(_) => "attempt",
            Record::AttemptFailed(_) => "attempt_failed",
            Record::SecretRegistration(_) => "secret_registration",
            Record::ContextEdit(_) => "context_edit",
            Record::RequestInput(_) => "request_input",
            Record::Request(_) => "request",
            Record::ClientCall(_) => "client_call",
            Record::Compaction(_) => "compaction",
            Record::Vcs(_) => "vcs",
            Record::State(_) => "state",
            Record::EffectVerdict(_) => "effect_verdict",
            Record::Unknown { .. } => "unknown",
        }
    }

    /// Encode the body as CBOR.
    ///
    /// # Errors
    /// [`Error::Encode`] when serialization fails.
    pub fn encode_body(&self) -> Result<Vec<u8>, Error> {
        // Most bodies fit: one allocation instead of a chain of doublings.
        let mut out = Vec::with_capacity(512);
        self.encode_body_into(&mut out)?;
        Ok(out)
    }

    /// Append the body's CBOR to `out`.
    ///
    /// # Errors
    /// [`Error::Encode`] when serialization fails.
    pub fn encode_body_into(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        fn cbor<T: Serialize>(value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
            ciborium::into_writer(value, out).map_err(|e| Error::Encode {
                reason: e.to_string(),
            })
        }
        match self {
            Record::SessionStart(r) => cbor(r, out),
            Record::ModelChange(r) => cbor(r, out),
            Record::Message(r) => cbor(r, out),
            Record::ToolResult(r) => cbor(r, out),
            Record::RunEnd(r) => cbor(r, out),
            Record::EffectIntent(r) => cbor(r, out),
            Record::EffectCompletion(r) => cbor(r, out),
            Record::Submission(r) => cbor(r, out),
            Record::Abort(r) => cbor(r, out),
            Record::Withdrawal(r) => cbor(r, out),
            Record::Checkpoint(r) => cbor(r, out),
            Record::Attempt(r) => cbor(r, out),
            Record::AttemptFailed(r) => cbor(r, out),
            Record::SecretRegistration(r) => cbor(r, out),
            Record::ContextEdit(r) => cbor(r, out),
            Record::RequestInput(r) => cbor(r, out),
            Record::Request(r) => cbor(r, out),
            Record::ClientCall(r) => cbor(r, out),
            Record::Compaction(r) => cbor(r, out),
            Record::Vcs(r) => cbor(r, out),
            Record::State(r) => cbor(r, out),
            Record::EffectVerdict(r) => cbor(r, out),
            Record::Unknown { body, .. } => {
                out.extend_from_slice(body);
                Ok(())
            }
        }
    }

    /// Whether an entry of this record changes what later requests see (context edits,
    /// compactions, and an unknown kind whose entry says so): its entry carries
    /// [`crate::meta::ENTRY_PROJECTION`].
    pub fn changes_projection(&self) -> bool {
        match self {
            Record::ContextEdit(_) | Record::Compaction(_) => true,
            Record::Unknown { projection, .. } => *projection,
            _ => false,
        }
    }

    /// Decode a body of `kind`. Unknown kinds become [`Record::Unknown`] (without the
    /// projection flag, which is the entry's: [`crate::decode_entry_payload`] sets it).
    ///
    /// # Errors
    /// A description of why a known kind's body is malformed.
    pub fn decode(kind: u16, body: &[u8]) -> Result<Self, crate::DecodeError> {
        Self::decode_body(kind, body).map_err(crate::DecodeError)
    }

    fn decode_body(kind: u16, body: &[u8]) -> Result<Self, String> {
        fn cbor<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, String> {
            crate::cbor::de::from_slice(body).map_err(|e| e.to_string())
        }
        Ok(match kind {
            Self::SESSION_START => Record::SessionStart(cbor(body)?),
            Self::MODEL_CHANGE => Record::ModelChange(cbor(body)?),
            Self::MESSAGE => Record::Message(cbor(body)?),
            Self::TOOL_RESULT => Record::ToolResult(cbor(body)?),
            Self::RUN_END => Record::RunEnd(cbor(body)?),
            Self::EFFECT_INTENT => Record::EffectIntent(cbor(body)?),
            Self::EFFECT_COMPLETION => Record::EffectCompletion(cbor(body)?),
            Self::SUBMISSION => Record::Submission(cbor(body)?),
            Self::ABORT => Record::Abort(cbor(body)?),
            Self::WITHDRAWAL => Record::Withdrawal(cbor(body)?),
            Self::CHECKPOINT => Record::Checkpoint(cbor(body)?),
            Self::ATTEMPT => Record::Attempt(cbor(body)?),
            Self::ATTEMPT_FAILED => Record::AttemptFailed(cbor(body)?),
            Self::SECRET_REGISTRATION => Record::SecretRegistration(cbor(body)?),
            Self::CONTEXT_EDIT => Record::ContextEdit(cbor(body)?),
            Self::REQUEST_INPUT => Record::RequestInput(cbor(body)?),
            Self::REQUEST => Record::Request(cbor(body)?),
            Self::CLIENT_CALL => Record::ClientCall(cbor(body)?),
            Self::COMPACTION => Record::Compaction(cbor(body)?),
            Self::VCS => Record::Vcs(cbor(body)?),
            Self::STATE => Record::State(cbor(body)?),
            Self::EFFECT_VERDICT => Record::EffectVerdict(cbor(body)?),
            other => Record::Unknown {
                kind: other,
                body: body.to_vec(),
                projection: false,
            },
        })
    }
}

/// One committed entry: identity, parent link, pairing, timestamp and record.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The entry id.
    pub id: EntryId,
    /// The parent entry, `None` for a root.
    pub parent: Option<EntryId>,
    /// The entry this one pairs with (a tool result's call message, an effect completion's
    /// intent), when there is one.
    pub pair: Option<EntryId>,
    /// Milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
    /// The record.
    pub record: Record,
}

/// A record to append, with the entry it pairs with.
#[derive(Clone, Debug, PartialEq)]
pub struct NewEntry {
    /// The record.
    pub record: Record,
    /// The entry it pairs with, if any.
    pub pair: Option<EntryId>,
}

impl From<Record> for NewEntry {
    fn from(record: Record) -> Self {
        Self { record, pair: None }
    }
}

/// The identity and links of an entry to encode (an [`Entry`] without its record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryHead {
    /// The entry id.
    pub id: EntryId,
    /// The parent entry, `None` for a root.
    pub parent: Option<EntryId>,
    /// The entry it pairs with, if any.
    pub pair: Option<EntryId>,
    /// Milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
}

/// Encode an entry as an entry-frame payload: fixed metadata, then the canonical CBOR body,
/// compressed when eligible. This is exactly what the writer stores.
///
/// # Errors
/// [`Error::Encode`] when the body is not canonical CBOR within the depth bound, when it or
/// the payload exceeds the frame bound, or when the pair is not an earlier entry.
pub fn entry_payload(entry: &EntryHead, record: &Record) -> Result<Vec<u8>, Error> {
    use crate::meta::ENTRY_META_LEN;
    // The metadata's 40 bytes are reserved first and filled in last, so the body is encoded
    // in place and never copied (unless it is compressed).
    let mut payload = Vec::with_capacity(512);
    payload.resize(ENTRY_META_LEN, 0);
    record.encode_body_into(&mut payload)?;
    let body = &payload[ENTRY_META_LEN..];
    if !matches!(record, Record::Unknown { .. }) {
        crate::cbor::check(body).map_err(|reason| Error::Encode {
            reason: format!("a {} record is out of bounds: {reason}", record.kind_name()),
        })?;
    }
    let size = body.len();
    let too_large = || Error::Encode {
        reason: format!(
            "a {} entry of {size} bytes exceeds the frame bound of {} bytes",
            record.kind_name(),
            crate::format::MAX_PAYLOAD
        ),
    };
    let body_len = u32::try_from(size)
        .ok()
        .filter(|&n| n <= crate::format::MAX_PAYLOAD)
        .ok_or_else(too_large)?;
    let pair = entry.pair.map_or(0, |p| p.0);
    if pair >= entry.id.0 {
        return Err(Error::Encode {
            reason: format!("entry {} cannot pair with later entry {pair}", entry.id.0),
        });
    }
    let mut flags = if record.changes_projection() {
        crate::meta::ENTRY_PROJECTION
    } else {
        0
    };
    if let Some(packed) = compress(body)? {
        payload.truncate(ENTRY_META_LEN);
        payload.extend_from_slice(&packed);
        flags |= crate::meta::ENTRY_COMPRESSED;
    }
    crate::meta::EntryMeta {
        id: entry.id.0,
        parent: entry.parent.map_or(0, |p| p.0),
        timestamp_ms: entry.timestamp_ms,
        record_kind: record.kind(),
        flags,
        body_len,
        pair,
    }
    .write_into(&mut payload[..ENTRY_META_LEN]);
    if payload.len() > crate::format::MAX_PAYLOAD as usize {
        return Err(too_large());
    }
    Ok(payload)
}

/// Encode an entry as a whole entry frame (head, payload, checksum), as the writer stores it.
///
/// # Errors
/// As [`entry_payload`].
pub fn entry_frame(entry: &EntryHead, record: &Record) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let payload = entry_payload(entry, record)?;
    crate::format::push_frame(&mut out, crate::format::KIND_ENTRY, 0, &payload);
    Ok(out)
}

/// Bodies at least this long are offered to compression (shorter ones gain too little to pay
/// for it).
const COMPRESS_MIN: usize = 1024;
/// The zstd level used for bodies; fixed, so encoding is deterministic for the pinned zstd.
const ZSTD_LEVEL: i32 = 3;

/// The stored form of a CBOR body when compression applies: bodies of at least 1 KiB are
/// zstd-compressed (level 3) and kept compressed when that makes them smaller; `None` keeps
/// the body as it is. The compression context is reused per thread: creating one costs more
/// than compressing a typical body.
///
/// # Errors
/// [`Error::Encode`] when compression fails.
fn compress(body: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    thread_local! {
        static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    if body.len() < COMPRESS_MIN {
        return Ok(None);
    }
    let packed = COMPRESSOR
        .with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                *slot = Some(zstd::bulk::Compressor::new(ZSTD_LEVEL)?);
            }
            match slot.as_mut() {
                Some(c) => c.compress(body),
                None => Err(std::io::Error::other("no compressor")),
            }
        })
        .map_err(|e| Error::Encode {
            reason: format!("compressing a record body failed: {e}"),
        })?;
    Ok((packed.len() < body.len()).then_some(packed))
}

/// Recover the CBOR body from its stored form, with the decoded length `body_len` bounded
/// before anything is allocated and enforced during decompression.
///
/// # Errors
/// A description of what is wrong: unknown flags, a length out of bounds or not matching,
/// a zstd stream that is damaged or longer than declared.
pub(crate) fn load_body(
    flags: u16,
    body_len: u32,
    stored: &[u8],
) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    if flags & !(crate::meta::ENTRY_COMPRESSED | crate::meta::ENTRY_PROJECTION) != 0 {
        return Err(format!("unknown entry flags {flags:#06x}"));
    }
    if body_len > crate::format::MAX_PAYLOAD {
        return Err(format!(
            "declared body length {body_len} exceeds the bound of {} bytes",
            crate::format::MAX_PAYLOAD
        ));
    }
    if flags & crate::meta::ENTRY_COMPRESSED == 0 {
        if stored.len() != body_len as usize {
            return Err(format!(
                "body is {} bytes but its metadata says {body_len}",
                stored.len()
            ));
        }
        return Ok(std::borrow::Cow::Borrowed(stored));
    }
    let body = zstd::bulk::decompress(stored, body_len as usize).map_err(|e| {
        format!("its compressed body does not decompress within {body_len} bytes: {e}")
    })?;
    if body.len() != body_len as usize {
        return Err(format!(
            "its compressed body decompresses to {} bytes, not the declared {body_len}",
            body.len()
        ));
    }
    Ok(std::borrow::Cow::Owned(body))
}

/// `record` with every form of every secret `redactor` holds replaced by its reference, in
/// every text and byte string of its body and in every map key, at any depth (spec: Durable
/// effect boundary — "Secret plaintext is replaced before persistence"; Shared structured data
/// — substitution across nested values and object keys). `None` when the body holds none.
///
/// # Errors
/// [`Error::Encode`] when the record cannot be encoded, or its redacted body is not a valid
/// body of its kind (a defect).
pub fn redact_record(
    record: &Record,
    redactor: &smith_secrets::Redactor,
) -> Result<Option<Record>, Error> {
    if redactor.is_empty() {
        return Ok(None);
    }
    let body = record.encode_body()?;
    if !redactor.finds(&body) {
        return Ok(None);
    }
    let defect = |what: String| Error::Encode {
        reason: format!("a {} record cannot be redacted: {what}", record.kind_name()),
    };
    let mut value: ciborium::Value =
        ciborium::from_reader(&body[..]).map_err(|e| defect(e.to_string()))?;
    redact_value(&mut value, redactor);
    let mut redacted = Vec::with_capacity(body.len());
    ciborium::into_writer(&value, &mut redacted).map_err(|e| defect(e.to_string()))?;
    let mut out = Record::decode(record.kind(), &redacted).map_err(|e| defect(e.to_string()))?;
    if let Record::Unknown { projection, .. } = &mut out {
        *projection = record.changes_projection();
    }
    Ok(Some(out))
}

fn redact_value(value: &mut ciborium::Value, redactor: &smith_secrets::Redactor) {
    use ciborium::Value;
    match value {
        Value::Text(s) => {
            if let std::borrow::Cow::Owned(new) = redactor.redact(s) {
                *s = new;
            }
        }
        Value::Bytes(b) => {
            if let std::borrow::Cow::Owned(new) = redactor.redact_bytes(b) {
                *b = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_value(v, redactor)),
        Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            redact_value(k, redactor);
            redact_value(v, redactor);
        }),
        Value::Tag(_, inner) => redact_value(inner, redactor),
        _ => {}
    }
}
