//! Record kinds and their CBOR bodies.

use serde::{Deserialize, Serialize};
use smith::{EntryId, Message, ModelRef, StopReason, ToolResult, Usage, UsageTotals};

use crate::Error;

/// Body of record kind 1, `session_start`: the first entry of every session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionStart {
    /// The version of the Smith that created the session.
    pub smith_version: String,
    /// The working directory the session was created in, when known and valid UTF-8.
    pub cwd: Option<String>,
}

/// Body of record kind 2, `model_change`: the user's model selection from here on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelChange {
    /// The selected model.
    pub model: ModelRef,
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
    /// Usage summed over the run.
    pub usage: UsageTotals,
    /// The failure, when the run failed.
    pub error: Option<String>,
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
    /// A kind this build does not know.
    Unknown {
        /// Its record kind.
        kind: u16,
        /// Its body, byte for byte.
        body: Vec<u8>,
    },
}

impl Record {
    /// The record kind number written in the entry metadata.
    pub fn kind(&self) -> u16 {
        match self {
            Record::SessionStart(_) => 1,
            Record::ModelChange(_) => 2,
            Record::Message(_) => 3,
            Record::ToolResult(_) => 4,
            Record::RunEnd(_) => 5,
            Record::Unknown { kind, .. } => *kind,
        }
    }

    /// The record kind's name (`session_start`, `model_change`, `message`, `tool_result`,
    /// `run_end`, or `unknown`).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Record::SessionStart(_) => "session_start",
            Record::ModelChange(_) => "model_change",
            Record::Message(_) => "message",
            Record::ToolResult(_) => "tool_result",
            Record::RunEnd(_) => "run_end",
            Record::Unknown { .. } => "unknown",
        }
    }

    /// Encode the body as CBOR.
    ///
    /// # Errors
    /// [`Error::Encode`] when serialization fails.
    pub fn encode_body(&self) -> Result<Vec<u8>, Error> {
        fn cbor<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
            let mut out = Vec::new();
            ciborium::into_writer(value, &mut out).map_err(|e| Error::Encode {
                reason: e.to_string(),
            })?;
            Ok(out)
        }
        match self {
            Record::SessionStart(r) => cbor(r),
            Record::ModelChange(r) => cbor(r),
            Record::Message(r) => cbor(r),
            Record::ToolResult(r) => cbor(r),
            Record::RunEnd(r) => cbor(r),
            Record::Unknown { body, .. } => Ok(body.clone()),
        }
    }

    /// Decode a body of `kind`. Unknown kinds become [`Record::Unknown`].
    ///
    /// # Errors
    /// A description of why a known kind's body is malformed.
    pub fn decode(kind: u16, body: &[u8]) -> Result<Self, String> {
        fn cbor<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, String> {
            let mut rest = body;
            let value = ciborium::from_reader(&mut rest).map_err(|e| match e {
                ciborium::de::Error::Io(_) => "its CBOR body ends early".to_owned(),
                ciborium::de::Error::Syntax(at) => {
                    format!("its CBOR body has a syntax error at body byte {at}")
                }
                ciborium::de::Error::Semantic(_, what) => {
                    format!("its CBOR body does not have the record's shape ({what})")
                }
                ciborium::de::Error::RecursionLimitExceeded => {
                    "its CBOR body is nested too deeply".to_owned()
                }
            })?;
            if !rest.is_empty() {
                return Err(format!(
                    "{} bytes follow its CBOR body, which must fill the frame",
                    rest.len()
                ));
            }
            Ok(value)
        }
        Ok(match kind {
            1 => Record::SessionStart(cbor(body)?),
            2 => Record::ModelChange(cbor(body)?),
            3 => Record::Message(cbor(body)?),
            4 => Record::ToolResult(cbor(body)?),
            5 => Record::RunEnd(cbor(body)?),
            other => Record::Unknown {
                kind: other,
                body: body.to_vec(),
            },
        })
    }
}

/// One committed entry: identity, parent link, timestamp and record.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The entry id.
    pub id: EntryId,
    /// The parent entry, `None` for the first entry.
    pub parent: Option<EntryId>,
    /// Milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
    /// The record.
    pub record: Record,
}
