//! `smith acp`: the Agent Client Protocol over stdin and stdout, for an editor (Zed,
//! JetBrains, Neovim, Emacs) that spawns Smith as its agent (ACP v1,
//! <https://agentclientprotocol.com/protocol/v1>; DESIGN §13 Editors). One JSON-RPC message
//! per LF-terminated line (the framing, escaping and outbox of `smith-render-jsonrpc`); stdout
//! carries protocol messages only, diagnostics go to stderr.
//!
//! A renderer and a transport over the shared session runner, nothing more: each ACP session
//! is a Smith session owned by a [`smith_app::Runner`], a prompt is that runner's turn, its
//! intents become `session/update` notifications through `smith-render-acp`, the permission
//! policy's questions become `session/request_permission` requests, `session/load` streams
//! the recorded history through the replay's one mapping of entries to intents, and
//! `session/set_mode` sets the runner's permission mode. The MCP servers an editor passes
//! for a session are given to its runner, so the bundled MCP client connects them as it
//! connects configured ones.
//!
//! Methods: `initialize`, `authenticate`, `session/new`, `session/load`, `session/resume`,
//! `session/list`, `session/close`, `session/prompt`, `session/cancel`, `session/set_mode`,
//! `session/set_config_option` (`model`, `thought_level`). The method reference is
//! [`decl::METHODS`].

mod auth;
mod commands;
pub mod decl;
mod files;
mod mcp;
mod prompt;
mod server;
mod sessions;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Stops a running server from another thread (a signal handler): prompts in flight are
/// cancelled and end, sessions are closed and queued lines are written.
#[derive(Clone)]
pub struct Stop(Arc<server::Server>);

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stop")
    }
}

impl Stop {
    /// Cancel, close and flush (returns when done).
    pub fn stop(&self) {
        self.0.finish();
    }
}

/// A server for one client, ready to [`Acp::serve`].
pub struct Acp {
    server: Arc<server::Server>,
}

impl std::fmt::Debug for Acp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Acp")
    }
}

impl Acp {
    /// A server on `app` (each session's directory comes from the client's `session/new`).
    pub fn new(app: smith_app::App) -> Self {
        Self {
            server: server::Server::new(app),
        }
    }

    /// Play `script` (a provider script, scripted provider only) in every prompt's turn.
    pub fn with_script(self, script: Option<PathBuf>) -> Self {
        self.server.set_script(script);
        self
    }

    /// Write diagnostics (a dropped response, an ignored notification, a session that could
    /// not be closed cleanly) to `out` — stderr for the binary; by default they are dropped.
    pub fn with_diagnostics(self, out: Box<dyn Write + Send>) -> Self {
        self.server.set_diagnostics(out);
        self
    }

    /// A handle that stops the server from another thread.
    pub fn stopper(&self) -> Stop {
        Stop(Arc::clone(&self.server))
    }

    /// Serve `input` (client messages) and `output` (agent messages) until the input ends;
    /// returns after the prompts in flight ended, every session was closed and every line was
    /// written.
    pub fn serve(self, input: impl BufRead, output: impl Write + Send + 'static) {
        server::run(&self.server, input, output);
    }
}
