//! One MCP server's connection, over either transport (MCP 2025-06-18, basic/transports):
//! stdio — JSON-RPC messages, one per line, written to the program's standard input and read
//! from its standard output, through a program the host keeps across calls
//! (`process.start-session`) — or Streamable HTTP ([`crate::http`]). A line or event that is
//! not a JSON-RPC message is counted and skipped; a request from the server is answered
//! (`ping`) or refused (`-32601`); progress for the call's token is shown as progress.

use std::time::{Duration, Instant};

use smith_plugin_sdk::net::{BodyEnd, ResponseStream};
use smith_plugin_sdk::process::{self, EnvBase, ProcessError, ProcessRequest};
use smith_plugin_sdk::serde_json::{self, Value, json};

use crate::config::Server;
use crate::http::{Http, Reply};

/// The MCP revision this client asks for (the server may answer with an older one it
/// speaks).
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// The id of the `initialize` request.
const INITIALIZE: &str = "initialize";

/// The largest message read from a server: a longer one stops it (a plugin instance's memory
/// is bounded, and the model sees at most the host's output bound anyway).
pub const MAX_MESSAGE: usize = 8 << 20;

/// How long one wait for output lasts before the call looks at its cancel flag again.
const POLL: Duration = Duration::from_millis(200);

/// How a connection reaches its server.
enum Link {
    /// A kept program: its session name and the output received and not yet taken as lines.
    Stdio { session: String, buf: Vec<u8> },
    /// A Streamable HTTP endpoint.
    Http(Box<Http>),
}

/// A connection to one server, for the length of one call.
pub struct Conn {
    link: Link,
    /// Lines that were not JSON-RPC messages.
    pub garbage: usize,
    /// The first such line, cut, for the error that names it.
    pub first_garbage: Option<String>,
    /// Whether the server said its tool list changed (`notifications/tools/list_changed`).
    pub list_changed: bool,
}

/// Why a request got no result.
pub enum Failure {
    /// The call was cancelled; the server was told (`notifications/cancelled`).
    Cancelled,
    /// The session's policy did not let it reach the server (not the server's fault), in
    /// words.
    Denied(String),
    /// Anything else, in words.
    Other(String),
}

impl From<String> for Failure {
    fn from(text: String) -> Self {
        Self::Other(text)
    }
}

impl Failure {
    /// In words.
    pub fn text(&self) -> String {
        match self {
            Self::Cancelled => "the call was cancelled; the server was told".to_owned(),
            Self::Denied(text) | Self::Other(text) => text.clone(),
        }
    }
}

/// The kept program's session name for server `name`.
fn session_name(name: &str) -> String {
    format!("mcp-{name}")
}

impl Conn {
    /// Reach server `name` as `server` configures it: its kept program, started now (with the
    /// MCP handshake, within the server's timeout) when it is not running, or its HTTP
    /// endpoint, greeted now when this session has not greeted it yet.
    pub fn open(name: &str, server: &Server) -> Result<Self, Failure> {
        let (mut conn, greeting) = Self::start(name, server)?;
        if greeting {
            conn.greet(server)?;
        }
        Ok(conn)
    }

    /// Reach server `name`, starting its kept program when it is not running; a server to
    /// greet (true) has been sent `initialize` (an HTTP one is sent it by [`Conn::greet`]),
    /// whose answer [`Conn::greet`] waits for — so several programs boot at once.
    pub fn start(name: &str, server: &Server) -> Result<(Self, bool), Failure> {
        let (link, started) = match &server.url {
            Some(url) => {
                let (http, greet) = Http::start(name, url, server);
                (Link::Http(Box::new(http)), greet)
            }
            None => {
                let session = session_name(name);
                let started = start_program(name, server, &session)?;
                (
                    Link::Stdio {
                        session,
                        buf: Vec::new(),
                    },
                    started,
                )
            }
        };
        let mut conn = Self {
            link,
            garbage: 0,
            first_garbage: None,
            list_changed: false,
        };
        if started && let Err(e) = conn.send_request("initialize", greeting(), INITIALIZE) {
            return Err(conn.abandon(e));
        }
        Ok((conn, started))
    }

    /// Wait for the answer to the `initialize` [`Conn::start`] sent (within the server's
    /// timeout), then say `notifications/initialized`. A server that fails is stopped, not
    /// kept half-open.
    pub fn greet(&mut self, server: &Server) -> Result<(), Failure> {
        let result = match self.wait("initialize", INITIALIZE, Some(server.timeout())) {
            Ok(result) => result,
            Err(e) => return Err(self.abandon(e)),
        };
        self.notify("notifications/initialized", json!({}))?;
        if let Link::Http(http) = &mut self.link {
            http.greeted(&result);
        }
        Ok(())
    }

    /// Stop a server whose handshake failed with `e`, and say why with its standard error.
    fn abandon(&mut self, e: Failure) -> Failure {
        let tail = match &e {
            Failure::Other(why) if why.contains("standard error") => String::new(),
            _ => self.stderr_tail(),
        };
        match &mut self.link {
            Link::Stdio { session, .. } => {
                process::stop_session(session);
            }
            Link::Http(http) => http.forget(),
        }
        match e {
            Failure::Other(why) => Failure::Other(format!("its `initialize` failed: {why}{tail}")),
            other => other,
        }
    }

    /// The last lines of a program's standard error, as `; its standard error ended with:
    /// …`, or nothing when it wrote none (or is an HTTP server).
    pub fn stderr_tail(&self) -> String {
        let Link::Stdio { session, .. } = &self.link else {
            return String::new();
        };
        let tail = process::stderr_tail(session).unwrap_or_default();
        let lines: Vec<&str> = tail.lines().rev().take(5).collect();
        if lines.is_empty() {
            return String::new();
        }
        let text: Vec<&str> = lines.into_iter().rev().collect();
        format!(
            "; its standard error ended with: {}",
            cut(&text.join(" ⏎ "), 600)
        )
    }

    /// Send `message` now: a line to the program, or a POST whose answer is not awaited.
    fn write(&mut self, message: &Value) -> Result<(), Failure> {
        match &mut self.link {
            Link::Stdio { session, .. } => {
                let mut line =
                    serde_json::to_vec(message).map_err(|e| Failure::Other(e.to_string()))?;
                line.push(b'\n');
                process::send(session, &line).map_err(|e| {
                    Failure::Other(format!(
                        "writing to it failed: {}",
                        smith_plugin_sdk::describe_process(&e)
                    ))
                })
            }
            Link::Http(http) => http.tell(message),
        }
    }

    /// Send notification `method`.
    pub fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure> {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    /// Send request `method` with id `id` and wait for its response ([`Conn::wait`]).
    pub fn request(
        &mut self,
        method: &str,
        params: Value,
        id: &str,
        timeout: Option<Duration>,
    ) -> Result<Value, Failure> {
        self.send_request(method, params, id)?;
        self.wait(method, id, timeout)
    }

    /// Send request `method` with id `id`, not waiting for its answer (to an HTTP server it
    /// is sent when [`Conn::wait`] awaits it).
    pub fn send_request(&mut self, method: &str, params: Value, id: &str) -> Result<(), Failure> {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        match &mut self.link {
            Link::Http(http) => {
                http.queue(id, message);
                Ok(())
            }
            Link::Stdio { .. } => self.write(&message),
        }
    }

    /// Wait for the response to request `id` (of `method`): its `result`, or its `error` in
    /// words. `timeout`: the longest a program may stay silent (`None`: until the call is
    /// cancelled); an HTTP server is bounded by the host's net bounds instead (its response
    /// head within 120 s, then at most 300 s between chunks). A cancelled wait tells the
    /// server (`notifications/cancelled`).
    pub fn wait(
        &mut self,
        method: &str,
        id: &str,
        timeout: Option<Duration>,
    ) -> Result<Value, Failure> {
        match self.link {
            Link::Stdio { .. } => self.wait_stdio(method, id, timeout),
            Link::Http(_) => self.wait_http(method, id, timeout),
        }
    }

    fn wait_stdio(
        &mut self,
        method: &str,
        id: &str,
        timeout: Option<Duration>,
    ) -> Result<Value, Failure> {
        let mut heard = Instant::now();
        loop {
            while let Some(line) = self.next_line() {
                if let Some(answer) = self.take(&line, id)? {
                    return answer;
                }
            }
            let Link::Stdio { session, buf } = &mut self.link else {
                unreachable!("a stdio wait on a stdio link")
            };
            if buf.len() > MAX_MESSAGE {
                process::stop_session(session);
                return Err(Failure::Other(format!(
                    "its answer to `{method}` is over {} MiB, more than Smith reads from a server; the server was stopped (the next call starts it again)",
                    MAX_MESSAGE >> 20
                )));
            }
            if smith_plugin_sdk::cancelled() {
                return Err(self.cancel(id));
            }
            if let Some(limit) = timeout
                && heard.elapsed() >= limit
            {
                let _ = self.notify(
                    "notifications/cancelled",
                    json!({"requestId": id, "reason": "no answer in time"}),
                );
                return Err(Failure::Other(format!(
                    "no answer to `{method}` within {} s{}",
                    limit.as_secs(),
                    self.garbage_said()
                )));
            }
            match process::receive(session, 0, POLL.as_millis() as u64) {
                Ok(received) => {
                    if !received.bytes.is_empty() {
                        heard = Instant::now();
                        buf.extend_from_slice(&received.bytes);
                        continue;
                    }
                    if let Some(status) = received.ended {
                        let how = match status {
                            process::ExitStatus::Code(c) => format!("exited with status {c}"),
                            process::ExitStatus::Signal(s) => format!("was ended by signal {s}"),
                        };
                        return Err(Failure::Other(format!(
                            "the server {how} before answering `{method}`{}{}",
                            self.garbage_said(),
                            self.stderr_tail()
                        )));
                    }
                }
                Err(ProcessError::Cancelled) => return Err(self.cancel(id)),
                Err(e) => {
                    return Err(Failure::Other(format!(
                        "reading from it failed: {}",
                        smith_plugin_sdk::describe_process(&e)
                    )));
                }
            }
        }
    }

    /// POST held request `id` and read its answer; a server that forgot the session (HTTP
    /// 404) is greeted again and sent the request once more (MCP basic/transports — session
    /// management).
    fn wait_http(
        &mut self,
        method: &str,
        id: &str,
        timeout: Option<Duration>,
    ) -> Result<Value, Failure> {
        let Link::Http(http) = &mut self.link else {
            unreachable!("an HTTP wait on an HTTP link")
        };
        let Some(message) = http.take_pending(id) else {
            return Err(Failure::Other(format!(
                "no `{method}` request `{id}` was sent to wait for"
            )));
        };
        let mut reply = http.post(&message)?;
        if matches!(reply, Reply::Expired) && id != INITIALIZE {
            http.forget();
            self.send_request("initialize", greeting(), INITIALIZE)?;
            let result = self.wait("initialize", INITIALIZE, timeout)?;
            self.notify("notifications/initialized", json!({}))?;
            let Link::Http(http) = &mut self.link else {
                unreachable!("an HTTP wait on an HTTP link")
            };
            http.greeted(&result);
            reply = http.post(&message)?;
        }
        match reply {
            Reply::Expired => Err(Failure::Other(format!(
                "the server answered `{method}` with HTTP 404 (it does not know the session it gave) even after a new handshake"
            ))),
            Reply::Accepted => Err(Failure::Other(format!(
                "the server accepted `{method}` without answering it"
            ))),
            Reply::Messages(messages) => {
                for message in messages {
                    if let Some(answer) = self.handle(message, id)? {
                        return answer;
                    }
                }
                Err(Failure::Other(format!(
                    "the server's answer to `{method}` holds no response to it{}",
                    self.garbage_said()
                )))
            }
            Reply::Stream(stream) => self.read_stream(&stream, method, id),
        }
    }

    /// Read `stream` (server-sent events, each a JSON-RPC message) up to the response to
    /// request `id`.
    fn read_stream(
        &mut self,
        stream: &ResponseStream,
        method: &str,
        id: &str,
    ) -> Result<Value, Failure> {
        let mut parser = smith_plugin_sdk::sse::Parser::new();
        loop {
            let chunk = stream.next_chunk(0);
            let parsed = match &chunk {
                Some(bytes) => parser.push(bytes),
                None => parser.finish(),
            };
            for event in parsed.events {
                if event.event != "message" || event.data.trim().is_empty() {
                    continue;
                }
                if let Some(answer) = self.take(event.data.as_bytes(), id)? {
                    return answer;
                }
            }
            if let Some(bad) = parsed.malformed {
                return Err(Failure::Other(format!(
                    "its event stream for `{method}` is malformed: {}",
                    bad.0
                )));
            }
            if chunk.is_none() {
                return Err(match stream.end() {
                    Some(BodyEnd::Cancelled) => self.cancel(id),
                    Some(BodyEnd::Failed(why)) => Failure::Other(format!(
                        "its event stream for `{method}` broke off before the answer: {why}"
                    )),
                    Some(BodyEnd::Truncated(bytes)) => Failure::Other(format!(
                        "its event stream for `{method}` passed {bytes} bytes without the answer"
                    )),
                    _ => Failure::Other(format!(
                        "its event stream for `{method}` ended without the answer{}",
                        self.garbage_said()
                    )),
                });
            }
            if smith_plugin_sdk::cancelled() {
                return Err(self.cancel(id));
            }
        }
    }

    /// Tell the server request `id` is cancelled (MCP basic/utilities — cancellation).
    fn cancel(&mut self, id: &str) -> Failure {
        let _ = self.notify(
            "notifications/cancelled",
            json!({"requestId": id, "reason": "the user cancelled the call"}),
        );
        Failure::Cancelled
    }

    /// What the skipped lines were, for an error.
    fn garbage_said(&self) -> String {
        let place = match self.link {
            Link::Stdio { .. } => "lines that are not JSON-RPC messages on its standard output",
            Link::Http(_) => "messages that are not JSON-RPC in its answers",
        };
        match &self.first_garbage {
            Some(first) => format!("; it wrote {} {place}, the first: {first}", self.garbage),
            None => String::new(),
        }
    }

    /// The next whole line received, if there is one.
    fn next_line(&mut self) -> Option<Vec<u8>> {
        let Link::Stdio { buf, .. } = &mut self.link else {
            return None;
        };
        let end = buf.iter().position(|b| *b == b'\n')?;
        let line: Vec<u8> = buf.drain(..=end).collect();
        Some(line)
    }

    /// Take one line: the response to `id` (`Some`), or something else handled here.
    fn take(&mut self, line: &[u8], id: &str) -> Result<Option<Result<Value, Failure>>, Failure> {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        // Some servers write a lone UTF-16 surrogate (`\ud800`), which JSON parsers refuse;
        // it is read as U+FFFD.
        let parsed = serde_json::from_str::<Value>(text).or_else(|e| {
            serde_json::from_str::<Value>(&lone_surrogates_replaced(text)).map_err(|_| e)
        });
        let Ok(message) = parsed else {
            self.garbage += 1;
            self.first_garbage.get_or_insert_with(|| cut(text, 200));
            return Ok(None);
        };
        self.handle(message, id)
    }

    /// Take one message: the response to `id` (`Some`), or something else handled here.
    fn handle(
        &mut self,
        message: Value,
        id: &str,
    ) -> Result<Option<Result<Value, Failure>>, Failure> {
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            match (message.get("id"), method) {
                (Some(rid), "ping") => {
                    self.write(&json!({"jsonrpc": "2.0", "id": rid, "result": {}}))?;
                }
                (Some(rid), _) => {
                    self.write(&json!({"jsonrpc": "2.0", "id": rid, "error": {
                        "code": -32601,
                        "message": format!("Smith's MCP client does not serve `{method}`"),
                    }}))?;
                }
                (None, "notifications/progress") => {
                    let params = &message["params"];
                    if params["progressToken"].as_str() == Some(id) {
                        smith_plugin_sdk::progress(&progress_text(params));
                    }
                }
                (None, "notifications/tools/list_changed") => self.list_changed = true,
                _ => {}
            }
            return Ok(None);
        }
        if message.get("id").and_then(Value::as_str) != Some(id) {
            return Ok(None);
        }
        if let Some(error) = message.get("error") {
            let text = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)");
            let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
            return Ok(Some(Err(Failure::Other(format!(
                "the server answered with error {code}: {}",
                cut(text, 1000)
            )))));
        }
        Ok(Some(Ok(message
            .get("result")
            .cloned()
            .unwrap_or(Value::Null))))
    }
}

/// A progress notification's parameters in words: `3/10 message`.
fn progress_text(params: &Value) -> String {
    let done = params["progress"].as_f64().unwrap_or(0.0);
    let mut text = match params["total"].as_f64() {
        Some(total) => format!("{done}/{total}"),
        None => format!("{done}"),
    };
    if let Some(message) = params["message"].as_str() {
        text.push(' ');
        text.push_str(&cut(message, 200));
    }
    text
}

/// The parameters of `initialize`.
fn greeting() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "smith", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// Start server `name`'s program as kept program `session` unless it runs: whether it was
/// started now.
fn start_program(name: &str, server: &Server, session: &str) -> Result<bool, Failure> {
    let request = ProcessRequest {
        program: server.command.clone(),
        args: server.args.clone(),
        cwd: server.cwd.clone().unwrap_or_default(),
        env_base: EnvBase::Baseline,
        env: server
            .env
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        timeout_ms: 0,
        output_limit: 0,
    };
    match process::start_session(session, &request) {
        Ok(info) => Ok(info.started),
        // Running with another configuration: the user changed it; start afresh.
        Err(ProcessError::Invalid(_)) => {
            process::stop_session(session);
            process::start_session(session, &request)
                .map(|info| info.started)
                .map_err(|e| start_failure(name, server, &e))
        }
        Err(e) => Err(start_failure(name, server, &e)),
    }
}

/// Why server `name`'s program did not start, in words.
fn start_failure(name: &str, server: &Server, e: &ProcessError) -> Failure {
    let text = format!(
        "MCP server `{name}` (`{}`) did not start: {}",
        cut(&server.command, 200),
        smith_plugin_sdk::describe_process(e)
    );
    match e {
        ProcessError::Denied(_) => Failure::Denied(text),
        _ => Failure::Other(text),
    }
}

/// `text` cut at about `max` bytes on a character boundary, with `…` when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// `text` (JSON) with each `\uXXXX` escape of a UTF-16 surrogate that is not part of a pair
/// written as `\ufffd`.
fn lone_surrogates_replaced(text: &str) -> String {
    let surrogate = |s: &str, low: bool| {
        s.strip_prefix("\\u")
            .and_then(|h| h.get(..4))
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .is_some_and(|v| {
                if low {
                    (0xDC00..=0xDFFF).contains(&v)
                } else {
                    (0xD800..=0xDBFF).contains(&v)
                }
            })
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        // An escaped backslash (`\\\\u`) is not an escape: count the backslashes before it.
        let slashes = rest[..at].chars().rev().take_while(|c| *c == '\\').count();
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if slashes % 2 == 1 || rest.len() < 6 {
            out.push_str(&rest[..2]);
            rest = &rest[2..];
            continue;
        }
        if surrogate(rest, false) && surrogate(&rest[6..], true) {
            out.push_str(&rest[..12]);
            rest = &rest[12..];
        } else if surrogate(rest, false) || surrogate(rest, true) {
            out.push_str("\\ufffd");
            rest = &rest[6..];
        } else {
            out.push_str(&rest[..2]);
            rest = &rest[2..];
        }
    }
    out.push_str(rest);
    out
}
