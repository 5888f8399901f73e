//! One MCP server over Streamable HTTP (MCP 2025-06-18, basic/transports — Streamable HTTP):
//! each JSON-RPC message is POSTed to the server's endpoint through the host's net facility
//! (every request a recorded `net.fetch` effect, asked of the permission policy); the answer
//! is a JSON body or a server-sent event stream carrying the response and whatever the server
//! says first (progress, pings). The session the server gives at `initialize`
//! (`Mcp-Session-Id`) and the protocol version it chose are kept in the session's state (slot
//! `http-sessions`), so later calls of the session reuse them; a server that no longer knows
//! the session (HTTP 404) is greeted again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use smith_plugin_sdk::net::{self, NetError, Request, ResponseStream};
use smith_plugin_sdk::serde_json::{self, Value};

use crate::config::Server;
use crate::rpc::{Failure, cut};

/// The most bytes read from one response: its event stream, progress and all, or its JSON
/// body (which [`crate::rpc::MAX_MESSAGE`] bounds further).
const MAX_RESPONSE: u64 = 32 << 20;

/// The state slot keeping each server's HTTP session.
const SLOT: &str = "http-sessions";

/// What the server gave at its last handshake in this session.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
struct Kept {
    /// A digest of the configuration it was greeted with ([`Server::fingerprint`]).
    fingerprint: String,
    /// Its `Mcp-Session-Id`, if it gave one.
    session_id: Option<String>,
    /// The protocol version it chose.
    protocol: String,
}

/// What the server did with a POSTed message.
pub enum Reply {
    /// `202 Accepted` (or an empty success): nothing to read.
    Accepted,
    /// A JSON body: the messages it holds.
    Messages(Vec<Value>),
    /// An event stream, read as it arrives.
    Stream(ResponseStream),
    /// `404` to a request that carried a session id: the server no longer knows the session.
    Expired,
}

/// The endpoint of one server and its session.
pub struct Http {
    name: String,
    url: String,
    headers: Vec<(String, String)>,
    fingerprint: String,
    session_id: Option<String>,
    protocol: Option<String>,
    /// Requests sent by [`Http::queue`], POSTed when their answer is awaited.
    pending: Vec<(String, Value)>,
}

fn kept_all() -> BTreeMap<String, Kept> {
    smith_plugin_sdk::state_get(SLOT)
        .ok()
        .flatten()
        .unwrap_or_default()
}

impl Http {
    /// Server `name` at `url`, and whether it must be greeted: false when this session
    /// already holds its handshake under the same configuration.
    pub fn start(name: &str, url: &str, server: &Server) -> (Self, bool) {
        // A digest, not the configuration: a header's value must not reach the session.
        let fingerprint = digest(&server.fingerprint());
        let kept = kept_all()
            .remove(name)
            .filter(|k| k.fingerprint == fingerprint);
        let greet = kept.is_none();
        let kept = kept.unwrap_or_default();
        let http = Self {
            name: name.to_owned(),
            url: url.to_owned(),
            headers: server
                .headers
                .iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v.clone()))
                .collect(),
            fingerprint,
            session_id: kept.session_id,
            protocol: (!greet).then_some(kept.protocol),
            pending: Vec::new(),
        };
        (http, greet)
    }

    /// Hold request `message` (id `id`) until its answer is awaited: HTTP answers a request
    /// in the response to its POST.
    pub fn queue(&mut self, id: &str, message: Value) {
        self.pending.retain(|(i, _)| i != id);
        self.pending.push((id.to_owned(), message));
    }

    /// The held request of id `id`.
    pub fn take_pending(&mut self, id: &str) -> Option<Value> {
        let at = self.pending.iter().position(|(i, _)| i == id)?;
        Some(self.pending.remove(at).1)
    }

    /// The handshake succeeded with `result` (the `initialize` result): keep the session and
    /// the protocol version for the session's later calls.
    pub fn greeted(&mut self, result: &Value) {
        let protocol = result["protocolVersion"]
            .as_str()
            .unwrap_or(crate::rpc::PROTOCOL_VERSION)
            .to_owned();
        self.protocol = Some(protocol.clone());
        let mut all = kept_all();
        all.insert(
            self.name.clone(),
            Kept {
                fingerprint: self.fingerprint.clone(),
                session_id: self.session_id.clone(),
                protocol,
            },
        );
        // A session without state (a command) greets again next time; nothing is lost.
        let _ = smith_plugin_sdk::state_set(SLOT, &all);
    }

    /// Drop the session: the next request is sent without one, after a new handshake.
    pub fn forget(&mut self) {
        self.session_id = None;
        self.protocol = None;
        let mut all = kept_all();
        if all.remove(&self.name).is_some() {
            let _ = smith_plugin_sdk::state_set(SLOT, &all);
        }
    }

    /// POST `message` (a notification, or a response to the server's request), whose answer
    /// is not read: with `fetch`, so it still goes out after the call was cancelled (the
    /// host's last words) — how the server hears `notifications/cancelled`.
    pub fn tell(&mut self, message: &Value) -> Result<(), Failure> {
        let request = self.request(message)?;
        let response = net::fetch(&request).map_err(|e| self.failed(e))?;
        match response.status {
            200..=299 => Ok(()),
            404 if self.session_id.is_some() => Err(Failure::Other(format!(
                "{} no longer knows the session (HTTP 404)",
                self.url
            ))),
            status => Err(Failure::Other(format!(
                "{} answered HTTP {status}: {}",
                self.url,
                cut(String::from_utf8_lossy(&response.body).trim(), 300)
            ))),
        }
    }

    /// A net error as a failure.
    fn failed(&self, e: NetError) -> Failure {
        match e {
            NetError::Cancelled => Failure::Cancelled,
            // The policy's refusal depends on the session; one of the user's network
            // settings (a host not allowed, a secret not registered) does not.
            NetError::Denied(ref why) if !why.contains("plugins.mcp-client.net.") => {
                Failure::Denied(format!(
                    "{}: {}",
                    self.url,
                    smith_plugin_sdk::describe_net(&e)
                ))
            }
            e => Failure::Other(format!(
                "{}: {}",
                self.url,
                smith_plugin_sdk::describe_net(&e)
            )),
        }
    }

    /// The POST request carrying `message`, with the session's headers.
    fn request(&self, message: &Value) -> Result<Request, Failure> {
        let mut headers = vec![
            ("content-type".to_owned(), "application/json".to_owned()),
            (
                "accept".to_owned(),
                "application/json, text/event-stream".to_owned(),
            ),
        ];
        if let Some(version) = &self.protocol {
            headers.push(("mcp-protocol-version".to_owned(), version.clone()));
        }
        if let Some(id) = &self.session_id {
            headers.push(("mcp-session-id".to_owned(), id.clone()));
        }
        headers.extend(self.headers.iter().cloned());
        let body = serde_json::to_vec(message).map_err(|e| Failure::Other(e.to_string()))?;
        Ok(Request {
            method: "POST".to_owned(),
            url: self.url.clone(),
            headers,
            body,
            max_response_bytes: MAX_RESPONSE,
        })
    }

    /// POST request `message` and read what the server answered, up to its body for a JSON
    /// answer.
    pub fn post(&mut self, message: &Value) -> Result<Reply, Failure> {
        let request = self.request(message)?;
        let with_session = self.session_id.is_some();
        let stream = net::open(&request).map_err(|e| self.failed(e))?;
        let status = stream.status();
        let response_headers = stream.headers();
        let header = |name: &str| {
            response_headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        if let Some(id) = header("mcp-session-id") {
            self.session_id = Some(id);
        }
        let content_type = header("content-type")
            .unwrap_or_default()
            .to_ascii_lowercase();
        match status {
            200..=299 if content_type.starts_with("text/event-stream") => Ok(Reply::Stream(stream)),
            200..=299 => {
                let body = read_body(&stream)?;
                let text = String::from_utf8_lossy(&body);
                if text.trim().is_empty() {
                    return Ok(Reply::Accepted);
                }
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Array(list)) => Ok(Reply::Messages(list)),
                    Ok(one @ Value::Object(_)) => Ok(Reply::Messages(vec![one])),
                    _ => Err(Failure::Other(format!(
                        "{} answered `{}` that is not a JSON-RPC message: {}",
                        self.url,
                        cut(&content_type, 60),
                        cut(&text, 200)
                    ))),
                }
            }
            404 if with_session => Ok(Reply::Expired),
            301 | 302 | 303 | 307 | 308 => Err(Failure::Other(match header("location") {
                Some(to) => format!(
                    "{} answered HTTP {status}, a redirect to `{}`; Smith does not follow an MCP server's redirects — add the server with the URL it redirects to",
                    self.url,
                    cut(&to, 300)
                ),
                None => format!(
                    "{} answered HTTP {status}, a redirect without saying where to",
                    self.url
                ),
            })),
            401 | 403 => Err(Failure::Other(format!(
                "{url} refused the request with HTTP {status}{body}: it wants credentials (Smith does not sign in with OAuth) — register its token (smith secrets add TOKEN), then smith mcp remove {name} and smith mcp add {name} --url URL --secret TOKEN",
                url = self.url,
                body = said_body(&stream),
                name = self.name
            ))),
            _ => Err(Failure::Other(format!(
                "{} answered HTTP {status}{}",
                self.url,
                said_body(&stream)
            ))),
        }
    }
}

/// A digest of `text` (FNV-1a, 64 bits, in hex): stable across processes and builds.
fn digest(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The whole body of `stream`, at most [`crate::rpc::MAX_MESSAGE`] bytes.
fn read_body(stream: &ResponseStream) -> Result<Vec<u8>, Failure> {
    let mut body = Vec::new();
    while let Some(chunk) = stream.next_chunk(0) {
        body.extend_from_slice(&chunk);
        if body.len() > crate::rpc::MAX_MESSAGE {
            return Err(Failure::Other(format!(
                "its answer is over {} MiB, more than Smith reads from a server",
                crate::rpc::MAX_MESSAGE >> 20
            )));
        }
    }
    match stream.end() {
        Some(net::BodyEnd::Cancelled) => Err(Failure::Cancelled),
        Some(net::BodyEnd::Failed(why)) => {
            Err(Failure::Other(format!("its answer broke off: {why}")))
        }
        _ => Ok(body),
    }
}

/// The start of an error response's body, as `: TEXT`, or nothing.
fn said_body(stream: &ResponseStream) -> String {
    let bytes = stream.next_chunk(4096).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    if text.is_empty() {
        String::new()
    } else {
        format!(": {}", cut(text, 300))
    }
}
