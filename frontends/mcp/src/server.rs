//! Reading and dispatching client messages, the lifecycle (`initialize`, `ping`,
//! `logging/setLevel`), cancellation, and the one writer thread that writes the outbox in
//! order. Long work (tool calls, resource subscriptions) runs on threads of its own, so the
//! reading thread always answers `ping` and takes `notifications/cancelled`.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use serde_json::{Map, Value, json};
use smith::Cancel;
use smith_render_jsonrpc::message::{INVALID_PARAMS, METHOD_NOT_FOUND};
use smith_render_jsonrpc::{
    Call, ErrorObject, Line, MAX_LINE_BYTES, Message, Outbox, error_response, notification,
    response,
};

use crate::client::{Capabilities, Pending};

/// The most lines waiting for the client.
pub(crate) const OUTBOX_CAPACITY: usize = 4096;

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The session tool effects are recorded in, once opened or created.
pub(crate) struct Recording {
    /// The runner that owns it.
    pub(crate) runner: smith_app::Runner,
}

/// The state of one connection, shared by its threads.
pub(crate) struct Server {
    pub(crate) app: Arc<smith_app::App>,
    /// The directory tools run in: the server's working directory, or a client root that is
    /// a trusted project.
    cwd: Mutex<PathBuf>,
    /// The provider script `smith_run` turns play, if any.
    script: Mutex<Option<PathBuf>>,
    /// What the client declared it can do (set by `initialize`).
    capabilities: Mutex<Capabilities>,
    /// Requests sent to the client, waiting for responses.
    pub(crate) outgoing: Mutex<Pending>,
    /// The number of the next request sent to the client.
    pub(crate) next_request: AtomicU64,
    pub(crate) outbox: Arc<Outbox>,
    /// The session named by `--session`, until it is opened.
    pub(crate) wanted_session: Option<String>,
    pub(crate) recording: Mutex<Option<Recording>>,
    /// The id of the recording session once it exists: read without `recording`'s lock,
    /// which a `smith_run` turn holds for as long as it runs.
    pub(crate) session: Mutex<Option<smith::SessionId>>,
    /// The server's own working directory (roots move tools from it and back).
    pub(crate) home: PathBuf,
    /// The tools, loaded on first use (or why they cannot be).
    pub(crate) tools: Mutex<Option<Result<Arc<smith_app::Loadout>, String>>>,
    /// Calls in flight by request id (its JSON text), to cancel.
    pub(crate) calls: Mutex<HashMap<String, Cancel>>,
    /// Calls the client cancelled (`notifications/cancelled`) while in flight: never answered
    /// (MCP: the receiver "SHOULD NOT send a response for the cancelled request").
    pub(crate) cancelled: Mutex<std::collections::HashSet<String>>,
    /// The recording session's effect journal once it exists: a direct tool call records
    /// through it while a `smith_run` turn holds `recording` for as long as it runs, so calls
    /// run concurrently with a turn.
    pub(crate) journal: Mutex<Option<smith_store::SharedWriter>>,
    /// What that session keeps running for its plugins between tool calls, beside it.
    pub(crate) resident: Mutex<Option<Arc<smith::Resident>>>,
    /// `initialize` was answered: requests other than `ping` are served from then on, and a
    /// second `initialize` is refused.
    initialized: AtomicBool,
    /// Resource subscriptions by URI: raising the flag ends one.
    pub(crate) subscriptions: Mutex<HashMap<String, Arc<AtomicBool>>>,
    /// The least severe log level sent (a rank in `smith_render_mcp::LEVELS`).
    pub(crate) log_level: AtomicUsize,
    pub(crate) shutting_down: AtomicBool,
    threads: Mutex<Vec<JoinHandle<()>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    closing: Mutex<()>,
}

impl Server {
    pub(crate) fn new(app: smith_app::App, cwd: PathBuf, session: Option<String>) -> Arc<Self> {
        let cwd = cwd.canonicalize().unwrap_or(cwd);
        Arc::new(Self {
            app: Arc::new(app),
            home: cwd.clone(),
            session: Mutex::new(None),
            cwd: Mutex::new(cwd),
            script: Mutex::new(None),
            capabilities: Mutex::new(Capabilities::default()),
            outgoing: Mutex::new(Pending::new()),
            next_request: AtomicU64::new(1),
            outbox: Arc::new(Outbox::new(OUTBOX_CAPACITY)),
            wanted_session: session,
            recording: Mutex::new(None),
            tools: Mutex::new(None),
            calls: Mutex::new(HashMap::new()),
            cancelled: Mutex::new(std::collections::HashSet::new()),
            journal: Mutex::new(None),
            resident: Mutex::new(None),
            initialized: AtomicBool::new(false),
            subscriptions: Mutex::new(HashMap::new()),
            log_level: AtomicUsize::new(smith_render_mcp::level_rank("info").unwrap_or(1)),
            shutting_down: AtomicBool::new(false),
            threads: Mutex::new(Vec::new()),
            writer: Mutex::new(None),
            closing: Mutex::new(()),
        })
    }

    /// The directory tools run in now.
    pub(crate) fn cwd(&self) -> PathBuf {
        lock(&self.cwd).clone()
    }

    /// Run tools in `dir` from now on: the tools are loaded again with the policy of `dir`,
    /// the client is told the tool list changed (`bash` may come or go with trust) and the
    /// move is logged. Nothing happens when tools already run there.
    pub(crate) fn move_to(&self, dir: PathBuf) {
        {
            let mut cwd = lock(&self.cwd);
            if *cwd == dir {
                return;
            }
            cwd.clone_from(&dir);
        }
        *lock(&self.tools) = None;
        let why = if dir == self.home {
            "the server's working directory"
        } else {
            "the client's root, a trusted project"
        };
        self.log(
            "info",
            &format!("tools now run in {} ({why})", dir.display()),
        );
        self.notify("notifications/tools/list_changed", json!({}));
    }

    /// Play `script` in `smith_run` turns.
    pub(crate) fn set_script(&self, script: Option<PathBuf>) {
        *lock(&self.script) = script;
    }

    /// The script `smith_run` turns play.
    pub(crate) fn script(&self) -> Option<PathBuf> {
        lock(&self.script).clone()
    }

    /// What the client declared it can do.
    pub(crate) fn capabilities(&self) -> Capabilities {
        *lock(&self.capabilities)
    }

    /// Answer request `id` (a notification, `None`, is never answered).
    pub(crate) fn answer(&self, id: Option<&Value>, result: Result<Value, ErrorObject>) {
        let Some(id) = id else { return };
        let line = match result {
            Ok(v) => response(id, v),
            Err(e) => error_response(id, &e),
        };
        self.outbox.reply(line);
    }

    /// Send notification `method` with `params` (never dropped: replies and notifications of
    /// this server are few and bounded by the work that makes them).
    pub(crate) fn notify(&self, method: &str, params: Value) {
        self.outbox.reply(notification(method, params));
    }

    /// Log `data` at `level` when the client asked for that level or a less severe one.
    pub(crate) fn log(&self, level: &str, data: &str) {
        self.log_as(level, "smith", data);
    }

    /// Log `data` at `level` from `logger` (a tool's name, or `smith`).
    pub(crate) fn log_as(&self, level: &str, logger: &str, data: &str) {
        if smith_render_mcp::level_rank(level)
            .is_some_and(|rank| rank >= self.log_level.load(Ordering::SeqCst))
        {
            self.notify(
                "notifications/message",
                json!({"level": level, "logger": logger, "data": data}),
            );
        }
    }

    /// Run `work` on a thread of its own, joined at shutdown.
    pub(crate) fn spawn(&self, work: impl FnOnce() + Send + 'static) {
        let handle = std::thread::spawn(work);
        let mut threads = lock(&self.threads);
        threads.retain(|t| !t.is_finished());
        threads.push(handle);
    }

    fn line(self: &Arc<Self>, line: Line) {
        match line {
            // A response too long to read settles the request it answers as failed; a
            // request is answered with its id when its head names one.
            Line::TooLong {
                bytes,
                lead: Some(smith_render_jsonrpc::Lead::Response(id)),
            } => {
                let why = format!(
                    "the answer to request {id} was {bytes} bytes, longer than the {MAX_LINE_BYTES} this server reads; it was skipped"
                );
                self.log("warning", &why);
                self.response(smith_render_jsonrpc::Response {
                    id,
                    outcome: Err(ErrorObject::new(smith_render_jsonrpc::message::INVALID_REQUEST, why)),
                });
            }
            Line::TooLong { bytes, lead } => self.answer(
                Some(match &lead {
                    Some(smith_render_jsonrpc::Lead::Request(id)) => id,
                    _ => &Value::Null,
                }),
                Err(ErrorObject::new(
                    smith_render_jsonrpc::message::INVALID_REQUEST,
                    format!(
                        "invalid request: a line of {bytes} bytes is longer than the {MAX_LINE_BYTES} this server reads; it was skipped — send smaller messages"
                    ),
                )),
            ),
            // Blank lines between messages are skipped (some clients end a message with CRLF
            // or an extra LF).
            Line::Text(text) if text.trim_ascii().is_empty() => {}
            Line::Text(text) => match smith_render_jsonrpc::parse_message(&text) {
                Ok(Message::Call(call)) => self.call(call),
                Ok(Message::Response(r)) => self.response(r),
                Err(refused) if refused.id.is_none() => self.log("warning", &refused.error.message),
                Err(refused) => self.answer(refused.id.as_ref(), Err(refused.error)),
            },
        }
    }

    fn call(self: &Arc<Self>, call: Call) {
        let Call { id, method, params } = call;
        let invalid = |why: String| {
            Err(ErrorObject::new(
                smith_render_jsonrpc::message::INVALID_REQUEST,
                format!("invalid request: {why}"),
            ))
        };
        match (&id, method.starts_with("notifications/")) {
            // MCP: "the ID MUST NOT be null".
            (Some(Value::Null), _) => {
                return self.answer(
                    Some(&Value::Null),
                    invalid("an MCP request id is a string or an integer, never null".to_owned()),
                );
            }
            (Some(_), true) => {
                return self.answer(
                    id.as_ref(),
                    invalid(format!(
                        "`{method}` is a notification: send it without an `id` (nothing was done)"
                    )),
                );
            }
            (None, false) => {
                self.log(
                    "warning",
                    &format!(
                        "a `{method}` without an `id` (a notification) was ignored: requests carry an id, and only then are they answered"
                    ),
                );
                return;
            }
            _ => {}
        }
        // Served methods wait for `initialize`; an unknown one is "method not found" at any
        // time (a client's `server/discover` probe falls back on it).
        let served = crate::decl::METHODS
            .iter()
            .any(|m| m.method == method && !matches!(m.method, "initialize" | "ping"));
        if served && !self.initialized.load(Ordering::SeqCst) {
            return self.answer(
                id.as_ref(),
                invalid(format!(
                    "`{method}` before `initialize`: a client initializes the connection first (MCP lifecycle), then sends requests; nothing was done"
                )),
            );
        }
        // MCP: `_meta` is an object wherever it is given.
        if params.get("_meta").is_some_and(|m| !m.is_object()) {
            return self.answer(id.as_ref(), Err(invalid_params("_meta", "an object")));
        }
        let result = match method.as_str() {
            "initialize" if self.initialized.load(Ordering::SeqCst) => invalid(
                "`initialize` was already answered on this connection; it is sent once, first (start a new connection to negotiate again)".to_owned(),
            ),
            "initialize" => check_initialize(&params).map(|()| {
                *lock(&self.capabilities) = Capabilities::of(params.get("capabilities"));
                self.initialized.store(true, Ordering::SeqCst);
                initialize(&params)
            }),
            "ping" => Ok(json!({})),
            "notifications/initialized" | "notifications/roots/list_changed" => {
                self.ask_roots();
                return;
            }
            "notifications/cancelled" => {
                self.cancel(&params);
                return;
            }
            "logging/setLevel" => self.set_level(&params),
            "tools/list" => no_cursor(&params).and_then(|()| crate::tools::list(self)),
            "tools/call" => {
                crate::tools::call(self, id, params);
                return;
            }
            "resources/list" => crate::resources::list(self, &params),
            "resources/templates/list" => {
                no_cursor(&params).map(|()| crate::resources::templates())
            }
            "resources/read" => crate::resources::read(self, &params),
            "resources/subscribe" => crate::resources::subscribe(self, &params),
            "resources/unsubscribe" => crate::resources::unsubscribe(self, &params),
            other => Err(ErrorObject {
                code: METHOD_NOT_FOUND,
                message: format!(
                    "method not found: `{other}` — smith mcp serves tools, resources, logging and ping (revisions {}); the stateless 2026-07-28 revision (`server/discover`) is not served yet, so use `initialize`",
                    smith_render_mcp::REVISIONS.join(", ")
                ),
                data: Some(json!({"method": other})),
            }),
        };
        self.answer(id.as_ref(), result);
    }

    fn set_level(&self, params: &Map<String, Value>) -> Result<Value, ErrorObject> {
        let level = params
            .get("level")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let rank = smith_render_mcp::level_rank(level).ok_or_else(|| {
            invalid_params(
                "level",
                &format!("one of {}", smith_render_mcp::LEVELS.join(", ")),
            )
        })?;
        self.log_level.store(rank, Ordering::SeqCst);
        Ok(json!({}))
    }

    fn cancel(&self, params: &Map<String, Value>) {
        let Some(id) = params.get("requestId") else {
            return;
        };
        let key = id.to_string();
        if let Some(cancel) = lock(&self.calls).get(&key) {
            lock(&self.cancelled).insert(key);
            cancel.cancel();
        }
    }

    /// End the connection: calls in flight are cancelled and end (recording how their effects
    /// ended), subscriptions stop, the session is closed, then the outbox is written out.
    pub(crate) fn finish(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        let _one_at_a_time = lock(&self.closing);
        for cancel in lock(&self.calls).values() {
            cancel.cancel();
        }
        for stop in lock(&self.subscriptions).values() {
            stop.store(true, Ordering::SeqCst);
        }
        self.settle_all();
        let threads: Vec<JoinHandle<()>> = lock(&self.threads).drain(..).collect();
        for t in threads {
            let _ = t.join();
        }
        if let Some(recording) = lock(&self.recording).take() {
            let _ = recording.runner.close(true);
        }
        self.outbox.close();
        let writer = lock(&self.writer).take();
        if let Some(w) = writer {
            let _ = w.join();
        }
    }
}

/// An invalid-params error naming `field`.
pub(crate) fn invalid_params(field: &str, expected: &str) -> ErrorObject {
    ErrorObject {
        code: INVALID_PARAMS,
        message: format!("invalid params: `{field}` must be {expected}"),
        data: Some(json!({"field": field, "expected": expected})),
    }
}

/// Check `initialize`'s params against the MCP schema: `protocolVersion` a string,
/// `capabilities` an object, `clientInfo` an object with a string `name` and `version`.
fn check_initialize(params: &Map<String, Value>) -> Result<(), ErrorObject> {
    if !params.get("protocolVersion").is_some_and(Value::is_string) {
        return Err(invalid_params(
            "protocolVersion",
            "a string: the revision the client speaks (e.g. \"2025-11-25\")",
        ));
    }
    if !params.get("capabilities").is_some_and(Value::is_object) {
        return Err(invalid_params("capabilities", "an object (`{}` for none)"));
    }
    let info = params.get("clientInfo");
    if !info.is_some_and(Value::is_object) {
        return Err(invalid_params(
            "clientInfo",
            "an object with the client's `name` and `version`",
        ));
    }
    for field in ["name", "version"] {
        if !info
            .and_then(|i| i.get(field))
            .is_some_and(Value::is_string)
        {
            return Err(invalid_params(&format!("clientInfo.{field}"), "a string"));
        }
    }
    Ok(())
}

/// `tools/list` and `resources/templates/list` are one page: a `cursor` is none this server
/// gave.
fn no_cursor(params: &Map<String, Value>) -> Result<(), ErrorObject> {
    match params.get("cursor") {
        None => Ok(()),
        Some(_) => Err(invalid_params(
            "cursor",
            "absent: this list comes in one page and gives no `nextCursor`",
        )),
    }
}

fn initialize(params: &Map<String, Value>) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    json!({
        "protocolVersion": smith_render_mcp::negotiate(requested),
        "capabilities": {
            "tools": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": false},
            "logging": {},
        },
        "serverInfo": {"name": "smith", "title": "Smith", "version": env!("CARGO_PKG_VERSION")},
        "instructions": "Smith's tools (files, shell, docs) run under the user's grants and process policy, each effect recorded in a Smith session (resource smith://server/session names it). `smith_run` runs a prompt as an agent turn. Sessions are resources: smith://session/ID.",
    })
}

/// Serve one client until its input ends. Returns when every call ended and every line was
/// written.
pub(crate) fn run(server: &Arc<Server>, input: impl BufRead, output: impl Write + Send + 'static) {
    let redactor = server.app.secrets().ok().map(|s| s.redactor);
    let writer_thread = smith_render_jsonrpc::spawn_writer(
        Arc::clone(&server.outbox),
        redactor,
        output,
        smith_render_jsonrpc::encode_lines_only,
    );
    *lock(&server.writer) = Some(writer_thread);
    smith_render_jsonrpc::read_requests(input, &server.outbox, |line| {
        server.line(line);
        !server.shutting_down.load(Ordering::SeqCst)
    });
    server.finish();
}
