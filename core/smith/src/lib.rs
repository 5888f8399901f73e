//! Smith's shared vocabulary.
//!
//! This crate owns the data every part of Smith speaks: [`SessionId`] and [`EntryId`],
//! [`ModelRef`] (`provider/model`), [`Message`] and its [`ContentBlock`]s, [`ToolCall`] and
//! [`ToolResult`], [`Usage`], [`StopReason`], the normalized [`ProviderRequest`], the
//! [`StreamEvent`]s a provider emits, the [`Provider`] trait that is the provider boundary, and
//! the cooperative [`Cancel`] token.
//!
//! It also holds the other **ports** every adapter implements, beside [`Provider`]: the tool
//! port ([`ToolRegistry`], called with a [`ToolContext`]), the durable effect boundary
//! ([`EffectJournal`], recording [`EffectIntent`]s and [`EffectCompletion`]s) and the
//! lifecycle port ([`Lifecycle`]: [`LifecycleEvent`]s out, [`Action`]s back, delivering
//! [`QueuedInput`]). The agent loop calls them and the plugin host implements them; the two
//! meet only here (`ARCHITECTURE.md`).
//!
//! It must never perform I/O, print, or know any vendor's wire format (spec: Product
//! boundaries — "provider details do not enter the agent, session, tool, plugin, or interface
//! contracts").

mod ask;
mod attempt;
mod cancel;
mod catalog;
mod content_de;
mod editor;
mod effect;
mod history;
mod ids;
mod lifecycle;
mod message;
mod model;
mod plan;
mod provider;
mod resident;
mod state;
mod tool;
mod usage;

pub use ask::{Answer, AnswerMismatch, AskError, Question, ToolEvent, ask};
pub use attempt::{
    Attempt, AttemptFailure, Next, OutputLimit, OutputLimitSource, RouteSource, Routing,
};
pub use cancel::Cancel;
pub use catalog::{
    CacheInfo, CapabilityError, Conflict, ModelInfo, Price, Provenance, Source, ThinkingLevel,
};
pub use editor::{Editor, EditorFiles};
pub use effect::{EffectCompletion, EffectIntent, EffectJournal, EffectOutcome, JournalError};
pub use history::{
    History, HistoryError, HistoryErrorKind, Mark, SnapshotPhase, SnapshotRequest, TreeDiff,
    TreeRestore, WorkingTree,
};
pub use ids::{EntryId, SessionId, SessionIdError};
pub use lifecycle::{
    Action, CompactionEvent, CompactionReason, Delivery, HandlerError, HandlerReply, Lifecycle,
    LifecycleEvent, NoHandlers, PieceRole, PreparedRequest, QueuedInput, RequestEvent,
    RequestPiece,
};
pub use message::{ContentBlock, Image, Message, Role, ToolCall, ToolResult};
pub use model::{ModelRef, ModelRefError, Selection};
pub use plan::{
    MAX_PLAN_ITEM_BYTES, MAX_PLAN_ITEMS, PLAN_SLOT, PLAN_VERSION, PlanError, PlanItem, PlanStatus,
    SMITH_STATE_OWNER, check_plan, plan_from_value, plan_key, plan_text,
};
pub use provider::{
    BYTES_PER_TOKEN, ContextItem, EventStream, PairingError, PromptCache, Provider, ProviderError,
    ProviderErrorKind, ProviderRequest, StopReason, StreamEvent, TOKENS_PER_IMAGE, ToolDefinition,
    check_pairing,
};
pub use resident::Resident;
pub use state::{ScopedState, StateError, StateKey, StateScope, StateValue};
pub use tool::{
    DISCOVER_CALL_ID, NoTools, TURN_END_CALL_ID, ToolContext, ToolOutput, ToolRegistry, TurnEnd,
    TurnEndNote, WithheldTool,
};
pub use usage::{TurnMemory, Usage, UsageTotals};
