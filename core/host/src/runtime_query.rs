//! The `smith:plugin/runtime` import (package 1.7.0; `reconnect-mcp-server` 1.8.0, `memory`
//! 1.9.0): what a product plugin's `handler` command may ask of the session the person is in —
//! its usage by model, where it stands, the process's memory accounting — and the one thing it
//! may change there, an MCP server reconnected.
//! The frontend running the command answers through a [`RuntimeQuery`]; without one (no
//! session open, or a caller that offers none) `usage` fails and `status` is empty.

use std::sync::Arc;

use crate::runtime::State;

/// Usage and cost of one physical model in a session (the WIT `model-usage`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelUsage {
    /// The physical model, `PROVIDER/MODEL`.
    pub model: String,
    /// The child session whose attempts these are; `None`: the session's own.
    pub child: Option<String>,
    /// Attempts made, failed ones included.
    pub attempts: u32,
    /// Responses that came back.
    pub responses: u32,
    /// Input tokens summed; `None` when any response left it unknown.
    pub input_tokens: Option<u64>,
    /// Output tokens summed; `None` when unknown.
    pub output_tokens: Option<u64>,
    /// Cache-read tokens summed; `None` when unknown.
    pub cache_read_tokens: Option<u64>,
    /// Cache-write tokens summed; `None` when unknown.
    pub cache_write_tokens: Option<u64>,
    /// Cost in US dollars at the attempts' recorded prices; `None` when any is unknown.
    pub cost_usd: Option<f64>,
}

/// Where a session stands (the WIT `status-report`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeStatus {
    /// The session's id, when one is open.
    pub session: Option<String>,
    /// The model the next run uses.
    pub model: Option<String>,
    /// Context tokens the last request used.
    pub context_tokens: Option<u64>,
    /// The model's context window, in tokens.
    pub context_window: Option<u64>,
    /// The permission mode the next run uses.
    pub permission_mode: Option<String>,
    /// The sandbox mode programs run in.
    pub sandbox: Option<String>,
    /// The plugins, one line each.
    pub plugins: Vec<String>,
    /// The MCP servers the user added, one line each.
    pub mcp_servers: Vec<String>,
}

/// What a frontend answers a product handler's runtime questions with.
pub trait RuntimeQuery: Send + Sync {
    /// The session's usage by model (and child), the session's own first.
    ///
    /// # Errors
    /// Why there is none to give: no session open, or its file cannot be read.
    fn usage(&self) -> Result<Vec<ModelUsage>, String>;

    /// Where the session stands.
    fn status(&self) -> RuntimeStatus;

    /// Reconnect MCP server `name` in the session (the WIT `reconnect-mcp-server`, 1.8.0):
    /// its kept program stopped, what it listed forgotten; what was done, in words.
    ///
    /// # Errors
    /// Why not: no such server, or this frontend cannot reach the session's programs (the
    /// default).
    fn reconnect_mcp_server(&self, name: &str) -> Result<String, String> {
        Err(format!(
            "MCP server `{name}` cannot be reconnected from here: no session of this frontend keeps its program"
        ))
    }
}

/// A shared [`RuntimeQuery`], as a command's call holds it.
pub type SharedQuery = Arc<dyn RuntimeQuery>;

use crate::product::bindings::smith::plugin::runtime as wit;

impl wit::Host for State {
    fn usage(&mut self) -> Result<Vec<wit::ModelUsage>, String> {
        let Some(query) = &self.call.query else {
            return Err("no session is open here, so there is no usage to report".to_owned());
        };
        Ok(query
            .usage()?
            .into_iter()
            .map(|u| wit::ModelUsage {
                model: u.model,
                child: u.child,
                attempts: u.attempts,
                responses: u.responses,
                input_tokens: u.input_tokens,
                output_tokens: u.output_tokens,
                cache_read_tokens: u.cache_read_tokens,
                cache_write_tokens: u.cache_write_tokens,
                cost_usd: u.cost_usd,
            })
            .collect())
    }

    fn memory(&mut self) -> String {
        smith_memory::report().to_string()
    }

    fn reconnect_mcp_server(&mut self, name: String) -> Result<String, String> {
        let Some(query) = &self.call.query else {
            return Err(format!(
                "MCP server `{name}` cannot be reconnected: no session is open here"
            ));
        };
        query.reconnect_mcp_server(&name)
    }

    fn status(&mut self) -> wit::StatusReport {
        let s = self
            .call
            .query
            .as_ref()
            .map(|q| q.status())
            .unwrap_or_default();
        wit::StatusReport {
            session: s.session,
            model: s.model,
            context_tokens: s.context_tokens,
            context_window: s.context_window,
            permission_mode: s.permission_mode,
            sandbox: s.sandbox,
            plugins: s.plugins,
            mcp_servers: s.mcp_servers,
        }
    }
}
