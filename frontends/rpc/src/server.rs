//! The server: one connection over a reader and a writer. The calling thread reads lines and
//! dispatches them (never blocked by work: a run executes on its session's own thread, waits
//! and searches on threads of their own); one writer thread owns the output and writes the
//! outbox's lines in order, every line redacted.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use serde_json::{Value, json};
use smith::{Cancel, SessionId};
use smith_render_jsonrpc::{
    Call, ErrorObject, Line, MAX_LINE_BYTES, Out, Outbox, encode_line, error_response, message,
    notification, response,
};
use smith_ui_intents::Intent;

use crate::decl::{self, Method};
use crate::errors;
use crate::params::Params;
use crate::work::WriterHandle;

/// Events and paced lines the outbox holds before a slow client falls behind.
pub(crate) const OUTBOX_CAPACITY: usize = 4096;

/// How a session is held by this server.
pub(crate) enum Held {
    /// This server writes it; its work runs on the handle's thread.
    Writer(WriterHandle),
    /// Another process writes it; this server only reads.
    Observer,
}

/// A session open in this server.
pub(crate) struct Opened {
    pub(crate) id: SessionId,
    pub(crate) path: PathBuf,
    pub(crate) cwd: Option<String>,
    pub(crate) held: Held,
}

impl Opened {
    /// The writer handle, or the read-only refusal.
    pub(crate) fn writer(&self) -> Result<&WriterHandle, ErrorObject> {
        match &self.held {
            Held::Writer(w) => Ok(w),
            Held::Observer => Err(errors::read_only(&self.id.to_string())),
        }
    }

    /// The next entry id to be committed, as this server knows it.
    pub(crate) fn position(&self) -> u64 {
        match &self.held {
            Held::Writer(w) => w.published.load(Ordering::Acquire),
            Held::Observer => {
                smith_store::SessionReader::open(&self.path).map_or(1, |r| r.state().last_id + 1)
            }
        }
    }

    /// The result `sessions.open` and `sessions.create` give.
    pub(crate) fn info(&self) -> Value {
        json!({
            "session": self.id,
            "access": match self.held { Held::Writer(_) => "writer", Held::Observer => "observer" },
            "position": self.position(),
            "path": self.path,
            "cwd": self.cwd,
        })
    }
}

/// The state of one connection, shared by its threads.
pub(crate) struct Server {
    pub(crate) app: Arc<smith_app::App>,
    pub(crate) cwd: PathBuf,
    pub(crate) outbox: Arc<Outbox>,
    pub(crate) sessions: Mutex<HashMap<SessionId, Arc<Opened>>>,
    /// Pending cancellable requests (`session.wait`) by their id's JSON text.
    pub(crate) pending: Mutex<HashMap<String, Cancel>>,
    /// Live observations by subscription id: their stop flags and sessions.
    pub(crate) observations: Mutex<HashMap<u64, (SessionId, Arc<AtomicBool>)>>,
    pub(crate) next_subscription: AtomicU64,
    pub(crate) shutting_down: AtomicBool,
    pub(crate) threads: Mutex<Vec<JoinHandle<()>>>,
    /// The thread writing the output.
    writer: Mutex<Option<JoinHandle<()>>>,
    /// Held while the connection is being closed.
    closing: Mutex<()>,
    methods: Vec<Method>,
    /// The product layer (its commands), composed on first use.
    pub(crate) product: std::sync::OnceLock<crate::commands::Product>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a handler gives back: the result now, or nothing (it answers later itself).
pub(crate) enum Answer {
    Now(Result<Value, ErrorObject>),
    Later,
}

impl Server {
    pub(crate) fn new(app: smith_app::App, cwd: PathBuf) -> Arc<Self> {
        Arc::new(Self {
            app: Arc::new(app),
            cwd,
            outbox: Arc::new(Outbox::new(OUTBOX_CAPACITY)),
            sessions: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            observations: Mutex::new(HashMap::new()),
            next_subscription: AtomicU64::new(1),
            shutting_down: AtomicBool::new(false),
            threads: Mutex::new(Vec::new()),
            writer: Mutex::new(None),
            closing: Mutex::new(()),
            methods: decl::methods(),
            product: std::sync::OnceLock::new(),
        })
    }

    /// The declaration of method `name`.
    pub(crate) fn declared(&self, name: &str) -> Option<&Method> {
        self.methods.iter().find(|m| m.name == name)
    }

    /// Answer `id` (nothing for a notification).
    pub(crate) fn answer(&self, id: Option<&Value>, result: Result<Value, ErrorObject>) {
        let Some(id) = id else { return };
        let line = match result {
            Ok(v) => response(id, v),
            Err(e) => error_response(id, &e),
        };
        self.outbox.reply(line);
    }

    /// Run `work` on a thread of its own, joined at shutdown.
    pub(crate) fn spawn(&self, work: impl FnOnce() + Send + 'static) {
        let handle = std::thread::spawn(work);
        let mut threads = lock(&self.threads);
        threads.retain(|t| !t.is_finished());
        threads.push(handle);
    }

    /// The session `name` (an id) open in this server.
    pub(crate) fn opened(&self, params: &Params) -> Result<Arc<Opened>, ErrorObject> {
        let name = params.str("session").unwrap_or_default();
        let id: SessionId = name.parse().map_err(|_| errors::not_open(name))?;
        lock(&self.sessions)
            .get(&id)
            .cloned()
            .ok_or_else(|| errors::not_open(name))
    }

    /// Handle one input line.
    pub(crate) fn line(self: &Arc<Self>, line: Line) {
        match line {
            // Answered with the request's id when its first bytes name one.
            Line::TooLong { bytes, lead } => self.answer(
                // This server sends no requests: only a request's id is answered.
                Some(match &lead {
                    Some(smith_render_jsonrpc::Lead::Request(id)) => id,
                    _ => &Value::Null,
                }),
                Err(ErrorObject::new(
                    message::INVALID_REQUEST,
                    format!(
                        "invalid request: a line of {bytes} bytes is longer than the {MAX_LINE_BYTES} this server reads; it was skipped — send smaller requests"
                    ),
                )),
            ),
            Line::Text(text) => match smith_render_jsonrpc::parse(&text) {
                Ok(call) => self.call(call),
                Err(refused) => self.answer(refused.id.as_ref(), Err(refused.error)),
            },
        }
    }

    fn call(self: &Arc<Self>, call: Call) {
        let Call { id, method, params } = call;
        let Some(decl) = self.methods.iter().find(|m| m.name == method) else {
            self.answer(
                id.as_ref(),
                Err(ErrorObject {
                    code: message::METHOD_NOT_FOUND,
                    message: format!(
                        "method not found: `{method}`; `rpc.discover` lists the methods"
                    ),
                    data: Some(json!({"method": method})),
                }),
            );
            return;
        };
        let params = match Params::check(decl, params) {
            Ok(p) => p,
            Err(e) => return self.answer(id.as_ref(), Err(e)),
        };
        self.dispatch(decl.name, id, params);
    }

    /// Run declared method `name` with checked `params`, answering `id`.
    pub(crate) fn dispatch(
        self: &Arc<Self>,
        name: &'static str,
        id: Option<Value>,
        params: Params,
    ) {
        match crate::methods::handle(self, name, id.clone(), params) {
            Answer::Now(result) => self.answer(id.as_ref(), result),
            Answer::Later => {}
        }
    }

    /// Abort the running work of every session this server writes (recorded).
    fn abort_all(&self) {
        let sessions: Vec<Arc<Opened>> = lock(&self.sessions).values().cloned().collect();
        for opened in &sessions {
            if let Held::Writer(w) = &opened.held {
                w.abort_running("the smith rpc server was asked to stop");
            }
        }
    }

    /// End the connection: nothing new is admitted; running work is aborted (`abort`) or let
    /// finish its turn; every session is closed (admission sealed, commits acknowledged,
    /// ownership released); observations and waits end; then the outbox is written out.
    /// A second call (a signal while the input's end is being handled) aborts the work the
    /// first is waiting for, then returns once the first is done.
    pub(crate) fn finish(&self, abort: bool) {
        self.shutting_down.store(true, Ordering::SeqCst);
        if abort {
            self.abort_all();
        }
        let _one_at_a_time = lock(&self.closing);
        for (_, stop) in lock(&self.observations).values() {
            stop.store(true, Ordering::SeqCst);
        }
        for cancel in lock(&self.pending).values() {
            cancel.cancel();
        }
        let sessions: Vec<Arc<Opened>> = lock(&self.sessions).values().cloned().collect();
        // Nobody is left to answer the runtime's requests: the asking calls go on without
        // an answer, so running work reaches its end.
        for opened in &sessions {
            if let Held::Writer(w) = &opened.held
                && let Ok(inbox) = w.inbox()
            {
                inbox.refuse_asks(
                    "the JSON-RPC client closed its input before answering; nobody can answer",
                );
            }
        }
        for opened in &sessions {
            if let Held::Writer(w) = &opened.held {
                w.close_and_join();
            }
        }
        lock(&self.sessions).clear();
        let threads: Vec<JoinHandle<()>> = lock(&self.threads).drain(..).collect();
        for t in threads {
            let _ = t.join();
        }
        self.outbox.close();
        let writer = lock(&self.writer).take();
        if let Some(w) = writer {
            let _ = w.join();
        }
    }
}

/// A notification serialized straight from borrowed parts (an event's intent may hold a
/// whole message: no `Value` tree of it is built).
#[derive(serde::Serialize)]
struct Note<P> {
    jsonrpc: &'static str,
    method: &'static str,
    params: P,
}

/// The params of `session.event`.
#[derive(serde::Serialize)]
struct EventParams<'a> {
    session: smith::SessionId,
    position: u64,
    request: &'a Value,
    event: &'a Intent,
}

/// The line of one outbox item.
fn encode(item: &Out) -> Result<Vec<u8>, serde_json::Error> {
    match item {
        Out::Reply(v) | Out::Paced(v) => encode_line(v),
        Out::Event(e) => match &e.intent {
            Intent::FellBehind { session, next } => encode_line(&notification(
                "session.fell_behind",
                json!({"session": session, "next": next}),
            )),
            intent => encode_line(&Note {
                jsonrpc: "2.0",
                method: "session.event",
                params: EventParams {
                    session: e.session,
                    position: e.follows,
                    request: &e.request,
                    event: intent,
                },
            }),
        },
    }
}

/// Serve one connection until its input ends (or `stop` is raised by a signal handler).
/// Returns when every session is closed and every line written.
pub(crate) fn run(server: &Arc<Server>, input: impl BufRead, output: impl Write + Send + 'static) {
    let redactor = server.app.secrets().ok().map(|s| s.redactor);
    let writer_thread =
        smith_render_jsonrpc::spawn_writer(Arc::clone(&server.outbox), redactor, output, encode);
    *lock(&server.writer) = Some(writer_thread);
    smith_render_jsonrpc::read_requests(input, &server.outbox, |line| {
        server.line(line);
        !server.shutting_down.load(Ordering::SeqCst)
    });
    server.finish(false);
}
