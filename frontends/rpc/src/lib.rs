//! `smith rpc`: Smith's runtime over JSON-RPC 2.0 on stdin and stdout (spec: Interface modes
//! → JSON-RPC; DESIGN §10). One JSON value per LF-terminated line; stdout carries protocol
//! lines only. Built on the composition root ([`smith_app`]) and the agent's verbs — open or
//! observe, submit (the reply is the durable receipt), queue, abort, wait, observe from a
//! durable position, fork, close — with no loop of its own.
//!
//! - [`decl`]: the declarations of every method and notification: the source of the OpenRPC
//!   document (`rpc.discover`), the reference (`docs/reference/rpc.md`) and parameter checks.
//! - `server`: reading and dispatching lines; one writer thread writes the outbox in order.
//! - `work`: a session this server writes, its work on a thread of its own.
//! - `observe`: committed records from a position, then live.
//! - `methods`: the handlers.
//!
//! End of input ends the server at a durable boundary: running work finishes its turn (its
//! `run_end` is committed), every session is closed, every queued line is written. [`Stop`]
//! (a signal) aborts running work first (recorded), then does the same.

mod commands;
pub mod decl;
mod errors;
mod history;
mod methods;
mod observe;
mod params;
mod queue;
mod requests;
mod server;
mod work;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Stops a running server from another thread (a signal handler): running work is aborted
/// (recorded), sessions are closed, queued lines are written; then [`Rpc::serve`] returns once its
/// input ends, and the caller may exit at once.
#[derive(Clone)]
pub struct Stop(Arc<server::Server>);

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stop")
    }
}

impl Stop {
    /// Abort, close and flush (returns when done).
    pub fn stop(&self) {
        self.0.finish(true);
    }
}

/// A server for one connection, ready to [`Rpc::serve`].
pub struct Rpc {
    server: Arc<server::Server>,
}

impl std::fmt::Debug for Rpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rpc")
    }
}

impl Rpc {
    /// A server on `app`, whose sessions' tools run in `cwd` unless a session says otherwise.
    pub fn new(app: smith_app::App, cwd: PathBuf) -> Self {
        Self {
            server: server::Server::new(app, cwd),
        }
    }

    /// A handle that stops the server from another thread.
    pub fn stopper(&self) -> Stop {
        Stop(Arc::clone(&self.server))
    }

    /// Serve `input` (requests) and `output` (responses and notifications) until the input
    /// ends; returns after every session is closed and every line is written.
    pub fn serve(self, input: impl BufRead, output: impl Write + Send + 'static) {
        server::run(&self.server, input, output);
    }
}
