//! The record bodies of the effective request (spec: Sessions → Effective request context,
//! Context edits; Compaction, cost, and secrets): context edits (kind 15), the recorded inputs
//! of requests (kind 16), the recorded request of each provider attempt (kind 17) and
//! compactions (kind 19).

use serde::{Deserialize, Serialize};
use smith::{EntryId, ToolDefinition};

/// Largest number of edits one context-edit batch may hold.
pub const MAX_EDITS: usize = 256;

/// Largest total size, in bytes, of the replacement texts of one context-edit batch.
pub const MAX_EDIT_BYTES: usize = 1 << 20;

/// Body of record kind 15, `context_edit`: one batch of edits to the model-visible content of
/// earlier messages and tool results on this entry's branch (spec: Sessions → Context edits).
/// The targets keep their identity, role, raw content, effects and usage: only the projection
/// of later requests changes, and only on branches through this entry. Its entry carries the
/// projection flag ([`crate::meta::ENTRY_PROJECTION`]), so a reader that does not know the
/// kind refuses to reconstruct a request rather than ignore it. Validated as a whole before
/// it is appended: the targets are distinct, on the branch, and the context that results keeps
/// every tool call paired with its result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextEdit {
    /// The edits, at most [`MAX_EDITS`], each to a distinct target.
    pub edits: Vec<EditOp>,
}

/// One edit of a [`ContextEdit`] batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditOp {
    /// The message or tool result whose model-visible content changes (its entry id).
    pub target: EntryId,
    /// What the model sees instead.
    pub change: EditChange,
}

/// What an [`EditOp`] does to its target. Wire names are snake_case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EditChange {
    /// The target is left out of the context.
    Omit,
    /// The target's text is replaced: a message's text, thinking and images become this one
    /// text (its tool calls stay, so their results stay paired); a tool result's output
    /// becomes this text.
    Replace(String),
}

pub use smith::PieceRole;

/// Body of record kind 16, `request_input`: an input of later requests, recorded once and
/// referenced by every request that uses it unchanged, so an unchanged prefix is never stored
/// again per round (spec: Effective request context — accepted prompt and context
/// transformations and advertised tool definitions are durable request history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestInput {
    /// A handler's accepted output: a piece of the instructions.
    Piece {
        /// The handler plugin that gave it (`id@version`).
        handler: String,
        /// Base instructions or standing context.
        role: PieceRole,
        /// Where its text came from (a file's path), when it came from one.
        source: Option<String>,
        /// The text, as it enters the instructions.
        text: String,
    },
    /// The tool definitions advertised to the model.
    Tools(Vec<ToolDefinition>),
}

/// The rules by which [`EffectiveRequest::anchor`]'s branch projects to a request's context:
/// version 1 starts from the branch's latest compaction (kind 19; a file without one projects
/// as before compactions existed) and applies context edits (kind 15) to the branch's messages
/// and tool results.
pub const PROJECTION_VERSION: u32 = 1;

/// Body of record kind 17, `request`: the request of the provider attempt it pairs with,
/// recorded in the same committed change as that attempt, before the request is sent (spec:
/// Effective request context — recorded inputs reconstruct each request's exact ordered
/// messages, effective instructions, advertised tool definitions, model dispatch and
/// generation provenance in secret-safe form). It references immutable recorded entries only:
/// the branch up to `anchor` (its projection is the context), the `request_input` entries
/// (the instructions, then the tool definitions) and the attempt (model, thinking, output
/// limit, generation). The SHA-256 covers the provider-neutral request, not the codec options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectiveRequest {
    /// The last entry of the branch whose projection is the request's context; `None` for an
    /// empty branch.
    pub anchor: Option<EntryId>,
    /// The projection rules ([`PROJECTION_VERSION`]).
    pub projection: u32,
    /// The `request_input` pieces whose texts, joined by a blank line in this order, are the
    /// instructions (none: no instructions).
    pub instructions: Vec<EntryId>,
    /// The `request_input` entry holding the advertised tool definitions; `None`: no tools.
    pub tools: Option<EntryId>,
    /// The prompt-cache key asked for, when the dispatched model caches.
    pub cache_key: Option<String>,
    /// The codec options the provider plugin was given with the request (`api`…, from the
    /// provider's settings), so the request can be encoded again exactly. Absent when none.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub options: std::collections::BTreeMap<String, String>,
    /// SHA-256 (lowercase hex) of the provider-neutral request as handed to the provider
    /// plugin: its JSON text (`ProviderRequest`), secrets replaced by their references.
    pub sha256: String,
    /// Set on a compaction's request: its context is not the anchor's whole projection but
    /// its first [`CompactionAsk::items`] items, then the ask as a user message. Absent on
    /// every other request (so files without compactions encode as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<CompactionAsk>,
}

/// What a compaction's request sent instead of the anchor's whole projection: the items the
/// summary stands for, then the `compaction` handler's ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactionAsk {
    /// How many of the anchor's projected context items the request carried (from the
    /// first): the ones the summary stands for.
    pub items: u64,
    /// The `request_input` piece (role `compaction`) whose text is the ask, the request's
    /// last user message.
    pub ask: EntryId,
}

/// Body of record kind 19, `compaction`: a summary that stands, in later requests on branches
/// through this entry, for the branch's context before [`Compaction::first_kept`] (spec:
/// Compaction, cost, and secrets — compaction reduces provider context without deleting
/// durable history). Nothing is deleted or rewritten: the summarized entries stay in the file,
/// and a branch selected at an entry before this one projects as if it never happened. Its
/// entry carries the projection flag ([`crate::meta::ENTRY_PROJECTION`]). Only a complete
/// summary is recorded — one that ended by its model's own end of turn, never by the output
/// limit, a cut stream, an error or an abort.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compaction {
    /// The summary's text, as the model wrote it; it enters the context as a user message in
    /// place of what it stands for.
    pub summary: String,
    /// The oldest entry on this entry's branch whose message or tool result stays verbatim
    /// after the summary (it and every later one); `None` when the summary stands for the
    /// whole context before this entry. Never a tool result: a tool call and its result are
    /// never split by the boundary.
    pub first_kept: Option<EntryId>,
    /// The `attempt` entry of the provider request that produced the summary.
    pub attempt: Option<EntryId>,
    /// The usage that request reported (counted once, here), if it reported any.
    pub usage: Option<smith::Usage>,
    /// What the branch before the boundary left that later requests still need, as of this
    /// entry: with it, a projection stops walking at the boundary, so its cost does not grow
    /// with the history summarized. Absent in records written without it (the projection then
    /// walks to the root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<Carried>,
    /// Why it ran and what it summarized, as its start was shown live (a replay shows the
    /// start from it). Absent in records written without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<CompactionStarted>,
}

/// What a [`Compaction`]'s start said: why it ran and how much of the context it summarized
/// (the fields of the live `compaction_start` intent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactionStarted {
    /// `manual`, `threshold` or `overflow`.
    pub reason: smith::CompactionReason,
    /// Context items the summary stands for.
    pub summarized: u32,
    /// Context items kept verbatim after it.
    pub kept: u32,
    /// The summarized items' estimated tokens.
    pub estimated_tokens: u64,
    /// The kept items' estimated tokens. Absent in records written without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_tokens: Option<u64>,
}

/// The projection state a [`Compaction`] carries across its boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// The selection of the branch's last `model_change` before this entry, if any.
    pub model: Option<smith::Selection>,
    /// The names of the secrets registered on the branch before this entry.
    pub secrets: Vec<String>,
    /// The submissions whose work was live or whose input was queued at this entry (their
    /// entries, which may lie before the boundary): opening the session reads them directly
    /// instead of walking the summarized history. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open: Vec<smith::EntryId>,
    /// The permission mode the branch last recorded before this entry (`plan`, `ask`,
    /// `auto-edit`, `auto`), if any. Absent when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub permission_mode: Option<String>,
}
