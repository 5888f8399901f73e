//! Smith's MCP renderer for `smith mcp`, grown by the MCP frontend work.
//!
//! Will map UI intents to MCP (progress to progress notifications, sessions to resources).
//! Nothing is implemented yet; no crate depends on it.
