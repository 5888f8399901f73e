//! The lifecycle port (spec: Agent behavior → Plugin event boundary): typed events the agent
//! emits at its safe points, the typed actions handlers answer with, and the queued input
//! those actions deliver. The plugin host implements [`Lifecycle`]; the agent validates the
//! replies and applies them all or nothing.

use serde::{Deserialize, Serialize};

use crate::{Cancel, EntryId};

/// How queued input enters live work (spec: Agent behavior — queued input is delivered at
/// defined lifecycle events). Recorded in `submission` records as `steer` or `follow_up`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// As soon as the current tool-result batch is complete, before the next provider request;
    /// the batch's remaining tool calls may be skipped (each gets an explicit result).
    Steer,
    /// When the work would otherwise stop (the model ended its answer, `end_turn`): the work continues with it.
    FollowUp,
}

impl Delivery {
    /// `steer` or `follow_up`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Steer => "steer",
            Self::FollowUp => "follow_up",
        }
    }
}

/// Input waiting in a session's queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedInput {
    /// Its submission's entry id (its identity).
    pub submission: EntryId,
    /// How it is to be delivered.
    pub delivery: Delivery,
    /// The text.
    pub input: String,
    /// The queue policy that admitted it and alone may deliver it (`id@version`).
    pub policy: String,
}

/// A point in a run where handlers are consulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LifecycleEvent {
    /// A tool call finished and `remaining` calls of the batch have not started.
    ToolEnd {
        /// The provider round (1-based).
        round: u32,
        /// Calls of the batch not yet started.
        remaining: u32,
        /// Input the active queue policy may deliver.
        queued: Vec<QueuedInput>,
    },
    /// The round's stream and complete tool-result batch are recorded.
    BatchEnd {
        /// The provider round.
        round: u32,
        /// Input the active queue policy may deliver.
        queued: Vec<QueuedInput>,
    },
    /// The model ended its answer (`end_turn`); the work stops unless input is delivered.
    Idle {
        /// The provider round.
        round: u32,
        /// Input the active queue policy may deliver.
        queued: Vec<QueuedInput>,
    },
}

impl LifecycleEvent {
    /// The event's name: `tool_end`, `batch_end` or `idle`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::ToolEnd { .. } => "tool_end",
            Self::BatchEnd { .. } => "batch_end",
            Self::Idle { .. } => "idle",
        }
    }

    /// The queued input the event carries.
    pub fn queued(&self) -> &[QueuedInput] {
        match self {
            Self::ToolEnd { queued, .. }
            | Self::BatchEnd { queued, .. }
            | Self::Idle { queued, .. } => queued,
        }
    }
}

/// What a handler asks the runtime to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Deliver the queued input with this submission id (at `batch_end` steering input only;
    /// at `idle` any).
    Deliver(EntryId),
    /// Skip the batch's remaining tool calls (at `tool_end` only, while steering input is
    /// queued); the text says why, and each skipped call's result carries it.
    SkipRemaining(String),
}

/// What a piece of a request's instructions is for. Wire names are snake_case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceRole {
    /// Base instructions, from a `prompt` handler.
    Instructions,
    /// Standing context (an `AGENTS.md` file), from a `context` handler.
    Context,
    /// A compaction's ask, from the `compaction` handler: sent as the last user message of
    /// the request that asks the model for a summary, never among the instructions.
    Compaction,
}

/// Why a compaction runs (spec: Compaction, cost, and secrets). Wire names are snake_case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionReason {
    /// Someone asked for it (a command, a protocol method).
    Manual,
    /// The next request would use more than the configured share of the dispatched model's
    /// context window.
    Threshold,
    /// The provider refused a request because the context does not fit its window.
    Overflow,
}

impl CompactionReason {
    /// `manual`, `threshold` or `overflow`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Manual => "manual",
            Self::Threshold => "threshold",
            Self::Overflow => "overflow",
        }
    }
}

/// What the `compaction` handler is asked before a compaction's request: the ask to append
/// after the context it summarizes (spec: plugins own prompts — the compaction prompt is a
/// plugin's, not Rust's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompactionEvent {
    /// Why the compaction runs.
    pub reason: CompactionReason,
    /// How many context items (messages and tool results) the summary stands for.
    pub summarized: u32,
    /// How many recent items stay verbatim after it.
    pub kept: u32,
    /// The estimated tokens of the summarized items
    /// ([`crate::ContextItem::estimated_tokens`]).
    pub estimated_tokens: u64,
    /// What the person asking wants the summary to focus on, when they said.
    pub instructions: Option<String>,
}

/// What the request-preparing handlers are asked before a round's request, at the safe point
/// between provider requests (spec: Agent behavior → Plugin event boundary; Sessions →
/// Effective request context — accepted prompt and context transformations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestEvent {
    /// The provider round the request opens (1-based within the run).
    pub round: u32,
    /// The names of the tools the request advertises, in order.
    pub tools: Vec<String>,
}

/// One piece of a request's instructions, as a handler gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestPiece {
    /// The handler plugin that gave it (`id@version`).
    pub handler: String,
    /// Base instructions or standing context.
    pub role: PieceRole,
    /// Where its text came from (a file's path), when it came from one.
    pub source: Option<String>,
    /// The text.
    pub text: String,
}

/// What the request-preparing handlers gave for one request: the pieces of its instructions
/// in order (the `prompt` handler's, then each `context` handler's), and why any handler
/// gave nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreparedRequest {
    /// The pieces, in order; their texts joined by a blank line are the instructions.
    pub pieces: Vec<RequestPiece>,
    /// A sentence per handler that failed or answered wrongly (the request goes on without
    /// its contribution).
    pub problems: Vec<String>,
}

/// Why a handler contributed nothing to an event.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandlerError {
    /// The handler answered with an error of its own (its text, bounded by the host).
    #[error("{0}")]
    Refused(String),
    /// The handler was stopped: it trapped, ran past its deadline or memory, or was
    /// cancelled. The text says which.
    #[error("{0}")]
    Stopped(String),
    /// The handler is out of service after an earlier failure (`why`) and was not called.
    #[error(
        "{handler} is out of service after an earlier failure ({why}); restart Smith to load it again"
    )]
    OutOfService {
        /// The handler (`plugin-id@version`).
        handler: String,
        /// The earlier failure.
        why: String,
    },
}

/// One handler's answer to one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerReply {
    /// The handler (`plugin-id@version`).
    pub handler: String,
    /// Its action batch, or why it failed (then it contributes nothing).
    pub actions: Result<Vec<Action>, HandlerError>,
}

/// The active lifecycle handlers, in the order they are consulted.
pub trait Lifecycle: Send + Sync {
    /// The active queue policy (`plugin-id@version`), if any: queued input is admitted under
    /// it and only it may deliver that input.
    fn queue_policy(&self) -> Option<String>;

    /// Consult every handler about `event`, in order, observing `cancel` (a handler still
    /// running after a short grace is stopped). Returns one reply per handler.
    fn handle(&self, event: &LifecycleEvent, cancel: &Cancel) -> Vec<HandlerReply>;

    /// Ask the `prompt` handler, then each `context` handler, for the pieces of the next
    /// request's instructions, observing `cancel`. Called once per round before its request;
    /// the agent records what they give, and history is never rebuilt by asking again. The
    /// default has no such handlers: no instructions.
    fn prepare_request(&self, event: &RequestEvent, cancel: &Cancel) -> PreparedRequest {
        let _ = (event, cancel);
        PreparedRequest::default()
    }

    /// Ask the `compaction` handler for the ask a compaction's request ends with (a piece of
    /// role [`PieceRole::Compaction`]), observing `cancel`. The agent records it with the
    /// request. `Err` says, in a sentence, why there is none (no handler holds the role, it
    /// failed or answered wrongly): the compaction does not run. The default has no handler.
    ///
    /// # Errors
    /// The sentence above.
    fn compaction_prompt(
        &self,
        event: &CompactionEvent,
        cancel: &Cancel,
    ) -> Result<RequestPiece, String> {
        let _ = (event, cancel);
        Err("no plugin holds the `compaction` handler role, so there is no compaction prompt; enable the bundled `compaction` plugin or another holding that role".to_owned())
    }
}

/// No handlers: queued input cannot be admitted and nothing is delivered.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHandlers;

impl Lifecycle for NoHandlers {
    fn queue_policy(&self) -> Option<String> {
        None
    }

    fn handle(&self, _event: &LifecycleEvent, _cancel: &Cancel) -> Vec<HandlerReply> {
        Vec::new()
    }
}
