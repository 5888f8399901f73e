//! The tool registry boundary.

use smith::{Cancel, ToolCall, ToolDefinition};

use crate::ToolContext;

/// What a tool call produced: bounded output text for the model and whether it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolOutput {
    /// The output shown to the model.
    pub output: String,
    /// Whether the call failed.
    pub is_error: bool,
}

/// The active tools: their definitions and how to call them.
///
/// The runtime advertises [`ToolDispatch::definitions`] to the model and calls
/// [`ToolDispatch::call`] only for calls whose name is among them; any other call is answered
/// with an error result without running anything ("only active tools can be invoked", spec:
/// Security). Implementations own argument validation and effects. A call runs on a worker
/// thread while the runtime relays its progress, hence `Send + Sync`.
pub trait ToolDispatch: Send + Sync {
    /// The active tools' definitions, in a stable order.
    fn definitions(&self) -> Vec<ToolDefinition>;

    /// Run `call` (its name is one of [`ToolDispatch::definitions`]) in `context`, recording
    /// every effect through `context.journal` before and after it runs, observing `cancel`.
    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput;

    /// What the tools come from, as `plugin-id@version` labels in load order: recorded in the
    /// work's checkpoints as what continuing requires. Empty by default.
    fn provenance(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The empty registry: no tools are active, so every call is answered as unknown. It is what a
/// run gets while no tool plugin is loaded.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTools;

impl ToolDispatch for NoTools {
    fn definitions(&self) -> Vec<ToolDefinition> {
        Vec::new()
    }

    fn call(&self, call: &ToolCall, _context: &ToolContext, _cancel: &Cancel) -> ToolOutput {
        ToolOutput {
            output: format!("tool `{}` is not active", call.name),
            is_error: true,
        }
    }
}
