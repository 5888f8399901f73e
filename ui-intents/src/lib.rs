//! The UI-intent vocabulary.
//!
//! The core runtime never prints: it emits a typed stream of [`Intent`]s into an
//! [`IntentSink`], and renderers (one per frontend) turn them into output. Every intent kind
//! declares statically, by exhaustive match, its [`Degradation`] rule for a frontend that cannot
//! show it and whether it is a durable transcript record ([`Durability`]) — spec: User interface
//! abstraction. Plugins never ask which frontend is active.
//!
//! This crate must not depend on terminal, rendering or vendor crates; intents carry meaning,
//! never geometry or colour.

use serde::Serialize;
use smith::{Message, ModelRef, SessionId, StopReason, Usage, UsageTotals};

/// What a frontend that cannot show an intent does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Degradation {
    /// Ignore it: transient presentation that loses nothing durable.
    Drop,
    /// Answer with a refusal event: a request for interaction the frontend cannot serve.
    Refuse,
    /// Keep it: a durable transcript record every frontend must preserve.
    Persist,
}

/// Whether an intent is also a durable session record or only presentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Durability {
    /// The intent mirrors a committed session record; it is never dropped.
    Transcript,
    /// Presentation only; may coalesce or drop under backpressure.
    Transient,
}

/// Which part of a message a delta extends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaKind {
    /// Visible text.
    Text,
    /// Thinking.
    Thinking,
}

/// Severity of a notice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeLevel {
    /// Informational.
    Info,
    /// Something the user should know; the run goes on.
    Warning,
    /// A failure.
    Error,
}

/// One semantic UI intent. Message and entry ids are the session's entry ids.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Intent {
    /// A run began in `session` with the selected `model`.
    RunStart {
        /// The session the run records into.
        session: SessionId,
        /// The model the user selected.
        model: ModelRef,
    },
    /// A message begins; deltas with the same `message_id` follow, then its end.
    MessageStart {
        /// The entry id the message is committed under.
        message_id: u64,
        /// Its author.
        role: smith::Role,
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
        /// Its entry id.
        message_id: u64,
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
    /// A tool call starts running (or is about to be answered without running).
    ToolStart {
        /// The call id.
        call_id: String,
        /// The tool name the model used.
        name: String,
        /// The call arguments.
        arguments: serde_json::Value,
    },
    /// A tool call's result is committed.
    ToolEnd {
        /// The call id.
        call_id: String,
        /// The tool name.
        name: String,
        /// The entry id of the committed result.
        entry_id: u64,
        /// The output shown to the model.
        output: String,
        /// Whether the call failed or did not run.
        is_error: bool,
    },
    /// A notice for the person running Smith.
    Notice {
        /// Severity.
        level: NoticeLevel,
        /// What happened, why, and what to do.
        text: String,
    },
    /// The run ended.
    RunEnd {
        /// Why it ended.
        stop_reason: StopReason,
        /// Usage summed over the run's responses.
        usage: UsageTotals,
        /// The failure, when the run failed.
        error: Option<String>,
    },
}

impl Intent {
    /// The snake_case name of the intent kind (the `type` field of its JSON form).
    pub fn kind(&self) -> &'static str {
        match self {
            Intent::RunStart { .. } => "run_start",
            Intent::MessageStart { .. } => "message_start",
            Intent::MessageDelta { .. } => "message_delta",
            Intent::MessageEnd { .. } => "message_end",
            Intent::ToolStart { .. } => "tool_start",
            Intent::ToolEnd { .. } => "tool_end",
            Intent::Notice { .. } => "notice",
            Intent::RunEnd { .. } => "run_end",
        }
    }

    /// The degradation rule of this kind; exhaustive, so a new kind cannot lack one.
    pub fn degradation(&self) -> Degradation {
        match self {
            Intent::MessageEnd { .. } | Intent::ToolEnd { .. } => Degradation::Persist,
            Intent::RunStart { .. }
            | Intent::MessageStart { .. }
            | Intent::MessageDelta { .. }
            | Intent::ToolStart { .. }
            | Intent::Notice { .. }
            | Intent::RunEnd { .. } => Degradation::Drop,
        }
    }

    /// Whether this kind mirrors a durable session record; exhaustive.
    pub fn durability(&self) -> Durability {
        match self {
            Intent::MessageEnd { .. } | Intent::ToolEnd { .. } => Durability::Transcript,
            Intent::RunStart { .. }
            | Intent::MessageStart { .. }
            | Intent::MessageDelta { .. }
            | Intent::ToolStart { .. }
            | Intent::Notice { .. }
            | Intent::RunEnd { .. } => Durability::Transient,
        }
    }
}

/// Where the runtime sends intents. Emitting never fails from the runtime's point of view: a
/// sink whose output went away (a closed pipe) records that and lets its owner cancel the run.
pub trait IntentSink {
    /// Receive one intent, in emission order.
    fn emit(&mut self, intent: Intent);
}

impl<F: FnMut(Intent)> IntentSink for F {
    fn emit(&mut self, intent: Intent) {
        self(intent)
    }
}

/// A frontend's renderer: consumes intents in order and writes its own output.
pub trait Renderer {
    /// Render one intent.
    ///
    /// # Errors
    /// The output failed (for example a closed pipe, `ErrorKind::BrokenPipe`); the caller
    /// stops rendering and decides what to do with the run.
    fn render(&mut self, intent: &Intent) -> std::io::Result<()>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_intents_persist() {
        let end = Intent::ToolEnd {
            call_id: "c".into(),
            name: "read".into(),
            entry_id: 3,
            output: String::new(),
            is_error: true,
        };
        assert_eq!(end.degradation(), Degradation::Persist);
        assert_eq!(end.durability(), Durability::Transcript);
        let delta = Intent::MessageDelta {
            message_id: 1,
            kind: DeltaKind::Text,
            text: "x".into(),
        };
        assert_eq!(delta.degradation(), Degradation::Drop);
        assert_eq!(serde_json::to_value(&delta).unwrap()["type"], delta.kind());
    }
}
