//! Reading and dispatching client messages, `initialize`, the requests this agent sends the
//! client and their responses, and the one writer thread that writes the outbox in order.
//! Long work (opening sessions, prompts) runs on threads of its own, so the reading thread
//! always takes `session/cancel` and the responses to permission requests.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use agent_client_protocol_schema::v1::{
    AgentCapabilities, ClientCapabilities, Implementation, InitializeRequest, InitializeResponse,
    McpCapabilities, PromptCapabilities, SessionCapabilities, SessionCloseCapabilities,
    SessionListCapabilities, SessionResumeCapabilities,
};
use agent_client_protocol_schema::{ProtocolVersion, v1};
use serde_json::{Map, Value, json};
use smith_render_jsonrpc::message::{
    INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND,
};
use smith_render_jsonrpc::{
    Call, ErrorObject, Line, MAX_LINE_BYTES, Message, Outbox, Response, error_response,
    notification, response,
};

use crate::sessions::Slot;

/// The most lines waiting for the client before a turn's message pieces wait (see
/// `smith_render_acp::Updates::update`'s `behind`): below the reading thread's own bound, so
/// a client that stops reading slows only itself.
pub(crate) const BEHIND: usize = smith_render_jsonrpc::outbox::MAX_QUEUED_REPLIES / 2;

/// ACP's "resource not found": a session that does not exist or is not open here.
pub(crate) const NOT_FOUND: i64 = -32002;

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What settles a request sent to the client when its response comes (or never will: `Err`).
pub(crate) type Settle = Box<dyn FnOnce(Result<Value, ErrorObject>) + Send>;

/// The state of one connection, shared by its threads.
pub(crate) struct Server {
    pub(crate) app: Arc<smith_app::App>,
    /// The provider script every turn plays, if any.
    script: Mutex<Option<PathBuf>>,
    pub(crate) outbox: Arc<Outbox>,
    /// What the client declared it can do (set by `initialize`).
    pub(crate) client: Mutex<ClientCapabilities>,
    initialized: AtomicBool,
    /// The sessions open here, by id.
    pub(crate) sessions: Mutex<HashMap<smith::SessionId, Arc<Slot>>>,
    /// Requests sent to the client, waiting for responses, by id (its JSON text).
    outgoing: Mutex<HashMap<String, Settle>>,
    next_request: AtomicU64,
    /// Where diagnostics go (stderr for the binary).
    diagnostics: Mutex<Box<dyn Write + Send>>,
    pub(crate) shutting_down: AtomicBool,
    threads: Mutex<Vec<JoinHandle<()>>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    closing: Mutex<()>,
}

impl Server {
    pub(crate) fn new(app: smith_app::App) -> Arc<Self> {
        Arc::new(Self {
            app: Arc::new(app),
            script: Mutex::new(None),
            outbox: Arc::new(Outbox::new(4096)),
            client: Mutex::new(ClientCapabilities::default()),
            initialized: AtomicBool::new(false),
            sessions: Mutex::new(HashMap::new()),
            outgoing: Mutex::new(HashMap::new()),
            next_request: AtomicU64::new(1),
            diagnostics: Mutex::new(Box::new(std::io::sink())),
            shutting_down: AtomicBool::new(false),
            threads: Mutex::new(Vec::new()),
            writer: Mutex::new(None),
            closing: Mutex::new(()),
        })
    }

    pub(crate) fn set_script(&self, script: Option<PathBuf>) {
        *lock(&self.script) = script;
    }

    pub(crate) fn set_diagnostics(&self, out: Box<dyn Write + Send>) {
        *lock(&self.diagnostics) = out;
    }

    /// The script every turn plays.
    pub(crate) fn script(&self) -> Option<PathBuf> {
        lock(&self.script).clone()
    }

    /// Write one diagnostic line (stderr for the binary; never stdout).
    pub(crate) fn diagnose(&self, line: &str) {
        let mut out = lock(&self.diagnostics);
        let _ = writeln!(out, "smith acp: {line}");
        let _ = out.flush();
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

    /// Send notification `method` with `params`.
    pub(crate) fn notify(&self, method: &str, params: Value) {
        self.outbox.reply(notification(method, params));
    }

    /// Whether the client is behind: lines are waiting for it to read.
    pub(crate) fn behind(&self) -> bool {
        self.outbox.replies_queued() >= BEHIND
    }

    /// Send request `method` with `params` to the client; `settle` gets its response.
    pub(crate) fn request(&self, method: &str, params: Value, settle: Settle) {
        if self.shutting_down.load(Ordering::SeqCst) {
            return settle(Err(ErrorObject::new(
                INTERNAL_ERROR,
                "the agent is shutting down",
            )));
        }
        let id = format!("smith-{}", self.next_request.fetch_add(1, Ordering::SeqCst));
        lock(&self.outgoing).insert(Value::from(id.as_str()).to_string(), settle);
        self.outbox
            .reply(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }

    /// A response from the client: it settles the request it answers.
    fn response(&self, response: Response) {
        let waiting = lock(&self.outgoing).remove(&response.id.to_string());
        match waiting {
            Some(settle) => settle(response.outcome),
            None => self.diagnose(&format!(
                "a response to request {} was dropped: no request with that id is pending (it was answered already, or never sent)",
                response.id
            )),
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
                    "the answer to request {id} was {bytes} bytes, longer than the {MAX_LINE_BYTES} this agent reads; it was skipped"
                );
                self.diagnose(&format!("warning: {why}"));
                self.response(smith_render_jsonrpc::Response {
                    id,
                    outcome: Err(ErrorObject::new(INVALID_REQUEST, why)),
                });
            }
            Line::TooLong { bytes, lead } => self.answer(
                Some(match &lead {
                    Some(smith_render_jsonrpc::Lead::Request(id)) => id,
                    _ => &Value::Null,
                }),
                Err(ErrorObject::new(
                    INVALID_REQUEST,
                    format!(
                        "invalid request: a line of {bytes} bytes is longer than the {MAX_LINE_BYTES} this agent reads; it was skipped — send smaller messages (a large file as a resource link, not embedded)"
                    ),
                )),
            ),
            Line::Text(text) if text.trim_ascii().is_empty() => {}
            Line::Text(text) => match smith_render_jsonrpc::parse_message(&text) {
                Ok(Message::Call(call)) => self.call(call),
                Ok(Message::Response(r)) => self.response(r),
                Err(refused) if refused.id.is_none() => self.diagnose(&refused.error.message),
                Err(refused) => self.answer(refused.id.as_ref(), Err(refused.error)),
            },
        }
    }

    fn call(self: &Arc<Self>, call: Call) {
        let Call { id, method, params } = call;
        let Some(id) = id else {
            return self.notification(&method, params);
        };
        let initialized = self.initialized.load(Ordering::SeqCst);
        if method != "initialize" && !initialized {
            return self.answer(
                Some(&id),
                Err(ErrorObject::new(
                    INVALID_REQUEST,
                    format!(
                        "invalid request: `{method}` before `initialize` — a client initializes the connection first, then sends requests; nothing was done"
                    ),
                )),
            );
        }
        let result = match method.as_str() {
            "initialize" if initialized => Err(ErrorObject::new(
                INVALID_REQUEST,
                "invalid request: `initialize` was already answered on this connection; it is sent once, first",
            )),
            "initialize" => self.initialize(params),
            "authenticate" => crate::auth::authenticate(self, params),
            "session/new"
            | "session/load"
            | "session/resume"
            | "session/close"
            | "session/set_mode"
            | "session/prompt"
            | "session/list"
            | "session/set_config_option" => {
                // A prompt reserves its session here, before anything later is read.
                let reserved = if method == "session/prompt" {
                    match crate::prompt::reserve(self, &params) {
                        Ok(r) => Some(r),
                        Err(e) => return self.answer(Some(&id), Err(e)),
                    }
                } else {
                    None
                };
                let server = Arc::clone(self);
                let named = params
                    .get("sessionId")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                return self.spawn(move || {
                    let result = match method.as_str() {
                        "session/new" => crate::sessions::new(&server, params),
                        "session/load" => crate::sessions::load(&server, params, true),
                        "session/resume" => crate::sessions::load(&server, params, false),
                        "session/close" => crate::sessions::close(&server, params),
                        "session/set_mode" => crate::sessions::set_mode(&server, params),
                        "session/list" => crate::sessions::list(&server, params),
                        "session/set_config_option" => {
                            crate::sessions::set_config_option(&server, params)
                        }
                        _ => match &reserved {
                            Some((slot, cancel)) => {
                                crate::prompt::prompt(&server, params, slot, cancel)
                            }
                            None => Err(ErrorObject::new(
                                INTERNAL_ERROR,
                                "the prompt's session was not reserved (a defect of smith acp)",
                            )),
                        },
                    };
                    // A session just opened: its commands, once the client knows its id.
                    let opened = match (method.as_str(), &result) {
                        ("session/new", Ok(v)) => v["sessionId"].as_str().map(str::to_owned),
                        ("session/load" | "session/resume", Ok(_)) => named,
                        _ => None,
                    };
                    server.answer(Some(&id), result);
                    if let Some(slot) = opened.and_then(|s| crate::sessions::slot(&server, &s).ok())
                    {
                        crate::commands::announce(&server, &slot);
                    }
                });
            }
            other => Err(ErrorObject {
                code: METHOD_NOT_FOUND,
                message: format!(
                    "method not found: `{other}` — smith acp serves ACP v1's agent methods: {}",
                    crate::decl::METHODS
                        .iter()
                        .map(|m| m.method)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                data: Some(json!({"method": other})),
            }),
        };
        self.answer(Some(&id), result);
    }

    fn notification(&self, method: &str, params: Map<String, Value>) {
        match method {
            "session/cancel" => crate::prompt::cancel(self, &params),
            // Extension notifications (`_…`) and unknown ones are ignored (JSON-RPC: a
            // notification is never answered).
            _ => self.diagnose(&format!("notification `{method}` ignored: not served here")),
        }
    }

    fn initialize(&self, params: Map<String, Value>) -> Result<Value, ErrorObject> {
        let request: InitializeRequest = parse("initialize", params)?;
        *lock(&self.client) = request.client_capabilities;
        self.initialized.store(true, Ordering::SeqCst);
        let capabilities = AgentCapabilities::new()
            .load_session(true)
            .prompt_capabilities(PromptCapabilities::new().image(true).embedded_context(true))
            .mcp_capabilities(McpCapabilities::new().http(true))
            .session_capabilities(
                SessionCapabilities::new()
                    .list(SessionListCapabilities::new())
                    .resume(SessionResumeCapabilities::new())
                    .close(SessionCloseCapabilities::new()),
            );
        let answer = InitializeResponse::new(ProtocolVersion::V1)
            .agent_capabilities(capabilities)
            .auth_methods(crate::auth::methods(self))
            .agent_info(
                Implementation::new("smith", env!("CARGO_PKG_VERSION")).title("Smith".to_owned()),
            );
        to_value(&answer)
    }

    /// End the connection: prompts in flight are cancelled and end (recording how their
    /// effects ended), requests to the client are settled as unanswered, every session is
    /// closed, then the outbox is written out.
    pub(crate) fn finish(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        let _one_at_a_time = lock(&self.closing);
        let slots: Vec<Arc<Slot>> = lock(&self.sessions).values().cloned().collect();
        for slot in &slots {
            slot.cancel();
        }
        let waiting: Vec<Settle> = lock(&self.outgoing).drain().map(|(_, s)| s).collect();
        for settle in waiting {
            settle(Err(ErrorObject::new(
                INTERNAL_ERROR,
                "the connection ended",
            )));
        }
        let threads: Vec<JoinHandle<()>> = lock(&self.threads).drain(..).collect();
        for t in threads {
            let _ = t.join();
        }
        let slots: Vec<Arc<Slot>> = lock(&self.sessions).drain().map(|(_, s)| s).collect();
        for slot in slots {
            if let Err(e) = slot.close() {
                self.diagnose(&format!(
                    "session {} could not be closed cleanly: {e}",
                    slot.id
                ));
            }
        }
        self.outbox.close();
        let writer = lock(&self.writer).take();
        if let Some(w) = writer {
            let _ = w.join();
        }
    }
}

/// `params` as the request type of `method`.
///
/// # Errors
/// An invalid-params error quoting the decoder (it names the field).
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    method: &str,
    params: Map<String, Value>,
) -> Result<T, ErrorObject> {
    serde_json::from_value(Value::Object(params)).map_err(|e| ErrorObject {
        code: INVALID_PARAMS,
        message: format!("invalid params for `{method}`: {e}; nothing was done"),
        data: Some(json!({"method": method})),
    })
}

/// A wire value as JSON.
pub(crate) fn to_value<T: serde::Serialize>(value: &T) -> Result<Value, ErrorObject> {
    serde_json::to_value(value).map_err(|e| ErrorObject::new(INTERNAL_ERROR, e.to_string()))
}

/// An invalid-params error naming `field`.
pub(crate) fn invalid_params(field: &str, expected: &str) -> ErrorObject {
    ErrorObject {
        code: INVALID_PARAMS,
        message: format!("invalid params: `{field}` must be {expected}"),
        data: Some(json!({"field": field, "expected": expected})),
    }
}

/// A `session/update` notification's params.
pub(crate) fn update(session: smith::SessionId, update: v1::SessionUpdate) -> Value {
    to_value(&v1::SessionNotification::new(session.to_string(), update)).unwrap_or_default()
}

/// Serve one client until its input ends. Returns when every prompt ended and every line was
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
