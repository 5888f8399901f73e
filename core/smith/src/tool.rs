//! The tool port (spec: Tools): the active tools' definitions and how a call reaches them.
//! The plugin host implements it; the agent loop calls it; neither knows the other.

use std::path::PathBuf;
use std::sync::Arc;

use crate::{Cancel, EffectJournal, EntryId, ToolCall, ToolDefinition};

/// What a tool call produced: bounded output text for the model and whether it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutput {
    /// The output shown to the model.
    pub output: String,
    /// Whether the call failed.
    pub is_error: bool,
    /// The structured result, for a tool whose manifest declares an output schema: the JSON
    /// object the tool gave, checked against that schema (`Ok`), or why there is none that
    /// fits (`Err`: none given, not JSON, or not matching). `None` for a tool that declares
    /// no output schema, or a failed call. The model never sees it; MCP clients get it as
    /// `structuredContent`.
    pub structured: Option<Result<serde_json::Value, String>>,
}

/// What a tool call runs in: its working directory, where its effects are recorded, and the
/// entry that caused it.
#[derive(Clone)]
pub struct ToolContext {
    /// The invocation's working directory; file tools resolve paths against it and their
    /// default grants are rooted in it. `None` when the run was given none.
    pub cwd: Option<PathBuf>,
    /// The journal of the run's session.
    pub journal: Arc<dyn EffectJournal>,
    /// The entry holding the tool call (the effects' causal parent).
    pub cause: Option<EntryId>,
    /// Where the call's progress messages and questions go while it runs: progress is shown
    /// as tool updates (transient, nothing recorded); a question is shown as a request the
    /// frontend answers ([`crate::ask()`]). `None` drops progress and leaves questions
    /// unanswerable ([`crate::AskError::Unavailable`]).
    pub events: Option<std::sync::mpsc::Sender<crate::ToolEvent>>,
    /// The session's branch and session state ([`crate::ScopedState`]), kept in its file;
    /// `None` when the call runs outside a session (plugins are told it is unavailable).
    pub state: Option<Arc<dyn crate::ScopedState>>,
    /// What the session keeps running for its plugins between calls ([`crate::Resident`]:
    /// programs started by an earlier call); `None` outside an open session, where nothing
    /// outlives the call.
    pub resident: Option<Arc<crate::Resident>>,
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("cwd", &self.cwd)
            .field("cause", &self.cause)
            .finish_non_exhaustive()
    }
}

/// The call id under which [`ToolRegistry::discover`]'s questions are relayed and its
/// effects recorded.
pub const DISCOVER_CALL_ID: &str = "discover";

/// The call id under which [`ToolRegistry::turn_end`]'s effects are recorded.
pub const TURN_END_CALL_ID: &str = "turn-end";

/// A turn that ended, as [`ToolRegistry::turn_end`] is told of it.
#[derive(Clone, Copy, Debug)]
pub struct TurnEnd<'a> {
    /// Why it ended (never [`crate::StopReason::Aborted`]: a cancelled turn is not told).
    pub stop_reason: crate::StopReason,
    /// The turn's tool calls that ran and did their work (not an error result), in order;
    /// each call's arguments hold only what names paths (`path`, `file_path`, `paths`).
    pub calls: &'a [ToolCall],
}

/// What the person is told about one thing done at a turn's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnEndNote {
    /// Whether it went wrong (a warning; else information).
    pub failed: bool,
    /// The text, one or more lines.
    pub text: String,
}

/// The active tools: their definitions and how to call them.
///
/// The runtime advertises [`ToolRegistry::definitions`] to the model and calls
/// [`ToolRegistry::call`] only for calls whose name is among them; any other call is answered
/// with an error result without running anything ("only active tools can be invoked", spec:
/// Security). Implementations own argument validation and effects. A call runs on a worker
/// thread while the runtime relays its progress, hence `Send + Sync`.
pub trait ToolRegistry: Send + Sync {
    /// The active tools' definitions, in a stable order.
    fn definitions(&self) -> Vec<ToolDefinition>;

    /// Run `call` (its name is one of [`ToolRegistry::definitions`]) in `context`, recording
    /// every effect through `context.journal` before and after it runs, observing `cancel`.
    /// A failure is an output with `is_error` set, worded for the model.
    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput;

    /// Find the tools that are known only at run time (an MCP client's servers' tools), in
    /// `context` — effects recorded through its journal, as a call's are — observing
    /// `cancel`. The runtime asks before each turn's first request; an implementation asks
    /// a source again only when what it finds from changed, and offers what it found in
    /// [`ToolRegistry::definitions`] from then on. Returns what the person should know (a source that failed, a tool skipped), one
    /// line each. Nothing by default.
    fn discover(&self, context: &ToolContext, cancel: &crate::Cancel) -> Vec<String> {
        let _ = (context, cancel);
        Vec::new()
    }

    /// The turn `end` describes ended (its last round recorded, its end not yet): do what the
    /// plugins do then — the user's `turn-end` hooks — in `context` (effects recorded through
    /// its journal under [`TURN_END_CALL_ID`]), observing `cancel`. Returns what the person
    /// should be told, one note each; the model sees none of it. Nothing by default.
    fn turn_end(
        &self,
        end: &TurnEnd<'_>,
        context: &ToolContext,
        cancel: &Cancel,
    ) -> Vec<TurnEndNote> {
        let _ = (end, context, cancel);
        Vec::new()
    }

    /// What the tools come from, as `plugin-id@version` labels in load order: recorded in the
    /// work's checkpoints as what continuing requires. Empty by default.
    fn provenance(&self) -> Vec<String> {
        Vec::new()
    }

    /// Whether tool `name` declares that it changes nothing (its manifest's `read-only=#true`):
    /// a batch of only such calls is not bracketed by working-tree snapshots ([`History`]).
    /// `false` by default and for an unknown name, so an undeclared tool is snapshotted.
    ///
    /// [`History`]: crate::History
    fn read_only(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Tools of active plugins that are not offered here, and why (e.g. the user's policy
    /// refuses the grant their plugin needs): never advertised, so no round is spent on a call
    /// that must fail, and a call of one is answered with the reason. Empty by default.
    fn withheld(&self) -> Vec<WithheldTool> {
        Vec::new()
    }
}

/// A tool that is not offered here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WithheldTool {
    /// The tool's name.
    pub name: String,
    /// Its plugin (`id@version`).
    pub plugin: String,
    /// Why it is withheld, with the fix.
    pub why: String,
}

/// The empty registry: no tools are active, so every call is answered as unknown. It is what a
/// run gets while no tool plugin is loaded.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTools;

impl ToolRegistry for NoTools {
    fn definitions(&self) -> Vec<ToolDefinition> {
        Vec::new()
    }

    fn call(&self, call: &ToolCall, _context: &ToolContext, _cancel: &Cancel) -> ToolOutput {
        ToolOutput {
            output: format!("tool `{}` is not active", call.name),
            is_error: true,
            structured: None,
        }
    }
}
