//! `smith mcp`: the Model Context Protocol over stdin and stdout for a client that spawns
//! Smith (spec: Interface modes → Model Context Protocol; DESIGN §10). Revisions 2025-11-25
//! and 2025-06-18, negotiated by `initialize`; one JSON-RPC message per LF-terminated line
//! (the framing, escaping and outbox of `smith-render-jsonrpc`); stdout carries MCP messages
//! only.
//!
//! - **Tools**: every active tool plugin's tool, under the same validation, grants, process
//!   policy and trust as a run, each call's effects recorded durably in a session this server
//!   writes (`--session`, or a new one: the `smith://server/session` resource names it).
//! - **Resources**: sessions (`smith://session/ID`), read in bounded pages of the same entry
//!   views `smith sessions get --json` prints; `resources/subscribe` → updates while one grows.
//! - **Progress and cancellation**: a tool's progress becomes `notifications/progress` for a
//!   request that sent a progress token; `notifications/cancelled` cancels the call
//!   cooperatively (a started effect is recorded as it ended, never claimed not applied).
//! - `logging/setLevel` and `notifications/message`; `ping`.
//!
//! Built on the composition root ([`smith_app`]) like every frontend. End of input ends the
//! server after the calls in flight are cancelled and have recorded how they ended.

mod client;
pub mod decl;
mod resources;
mod server;
mod tools;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Stops a running server from another thread (a signal handler): calls in flight are
/// cancelled, the session is closed and queued lines are written.
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

/// A server for one client, ready to [`Mcp::serve`].
pub struct Mcp {
    server: Arc<server::Server>,
}

impl std::fmt::Debug for Mcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Mcp")
    }
}

impl Mcp {
    /// A server on `app` whose tools run in `cwd`, recording their effects in session
    /// `session` (an id or unique prefix of an existing one) or, when `None`, in a new
    /// session created on the first call that needs one.
    pub fn new(app: smith_app::App, cwd: PathBuf, session: Option<String>) -> Self {
        Self {
            server: server::Server::new(app, cwd, session),
        }
    }

    /// Play `script` (a provider script, scripted provider only) in `smith_run` turns.
    pub fn with_script(self, script: Option<PathBuf>) -> Self {
        self.server.set_script(script);
        self
    }

    /// A handle that stops the server from another thread.
    pub fn stopper(&self) -> Stop {
        Stop(Arc::clone(&self.server))
    }

    /// Serve `input` (client messages) and `output` (server messages) until the input ends;
    /// returns after the calls in flight ended, the session was closed and every line was
    /// written.
    pub fn serve(self, input: impl BufRead, output: impl Write + Send + 'static) {
        server::run(&self.server, input, output);
    }
}
