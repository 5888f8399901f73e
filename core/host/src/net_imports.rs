//! The `smith:plugin/net` import (package 1.2.0): one HTTP request through the host's HTTP
//! engine, a durable effect `net.fetch` (the WIT reference, `interface net`). The request is
//! checked before anything is recorded (an absolute http(s) URL, a method, headers the host
//! does not set itself, the body bound), its host and port against the plugin's
//! [`crate::net::NetGrant`] before any policy is asked, and every address the host resolves
//! to before any connection ([`smith_ai::http::HttpEngine::guarded`]). Secret references are
//! never restored into it; the response is redacted before the plugin or the record sees it.
//! `open`, the streamed form, is [`crate::net_stream`]; both share the checks and sending here.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use smith::EffectOutcome;
use smith_ai::http::{Bounds, HttpEngine, HttpRequest, HttpResponse, Outcome, TransportError};

use crate::effects::{CallState, Done, EffectCall, EffectError};
use crate::grants::Effect;
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::net as wit;

impl EffectError for wit::NetError {
    fn denied(message: String) -> Self {
        Self::Denied(message)
    }
    fn cancelled() -> Self {
        Self::Cancelled
    }
    fn io(message: String) -> Self {
        Self::Unreachable(message)
    }
}

/// The most response body bytes a plugin receives (and the default), in bytes: a guest's
/// memory is bounded (64 MiB), so far below the transport's own bound.
pub(crate) const MAX_RESPONSE_BYTES: u64 = 8 << 20;

/// The most request body bytes the intent records (the rest is counted, not kept).
const RECORDED_REQUEST_BYTES: usize = 64 << 10;

/// The most response body bytes the completion records.
pub(crate) const RECORDED_RESPONSE_BYTES: usize = 1 << 20;

/// The most `fetch` requests a call may still send after it was cancelled: its last words
/// (telling a server to stop what it was asked, as MCP's `notifications/cancelled`).
pub(crate) const MAX_LAST_WORDS: u32 = 2;

/// The largest body of a last word, in bytes.
const LAST_WORD_BYTES: usize = 64 << 10;

/// How long a last word may take, from sending to the body's end.
const LAST_WORD_BOUND: Duration = Duration::from_secs(5);

/// Headers the engine sets from the URL and the body; a plugin setting them could make the
/// request say something other than what was checked. (Re-exported as
/// [`crate::net::HOST_SET_HEADERS`].)
pub(crate) const HOST_SET: &[&str] = &[
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "upgrade",
    "te",
    "trailer",
    "proxy-authorization",
    "proxy-connection",
];

/// Whether a header's value is a credential the records leave out. (Re-exported as
/// [`crate::net::is_credential_header`].)
pub(crate) fn credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    matches!(
        name.as_str(),
        "authorization" | "cookie" | "set-cookie" | "x-api-key" | "api-key"
    ) || ["token", "secret", "password", "auth", "key", "session"]
        .iter()
        .any(|word| name.contains(word))
}

/// Headers as recorded: a credential's value replaced by its length.
pub(crate) fn recorded_headers(headers: &[(String, String)]) -> serde_json::Value {
    headers
        .iter()
        .map(|(k, v)| {
            let value = if credential(k) {
                format!("(credential, {} bytes, not recorded)", v.len())
            } else {
                v.clone()
            };
            json!([k, value])
        })
        .collect()
}

/// A checked request: its URL parsed, the host as the grant and the guard see it.
pub(crate) struct Checked {
    pub(crate) url: url::Url,
    host: String,
    port: u16,
    default_port: u16,
}

/// Check the request's shape; the error is what the plugin is told (nothing is recorded).
pub(crate) fn check(r: &wit::Request, plugin: &str) -> Result<Checked, String> {
    let url = url::Url::parse(&r.url).map_err(|e| {
        format!(
            "plugin {plugin} asked for `{}`, which is not an absolute URL ({e}); give one like https://example.com/path",
            r.url
        )
    })?;
    let default_port = match url.scheme() {
        "http" => 80,
        "https" => 443,
        other => {
            return Err(format!(
                "plugin {plugin} asked for `{}`: the scheme `{other}` is not one the net facility speaks; use http or https",
                r.url
            ));
        }
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "plugin {plugin} asked for a URL with credentials in it (`user:password@…{}`), which would be recorded; send them in a header instead",
            url.host_str().unwrap_or_default()
        ));
    }
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| format!("plugin {plugin} asked for `{}`, which names no host", r.url))?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    let port = url.port().unwrap_or(default_port);
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
    };
    if !token(&r.method) {
        return Err(format!(
            "plugin {plugin} asked for method `{}`, which is not an HTTP method; use GET, POST, HEAD…",
            r.method.escape_debug()
        ));
    }
    for (name, value) in &r.headers {
        if !token(name) {
            return Err(format!(
                "plugin {plugin} set a header named `{}`, which is not a header name",
                name.escape_debug()
            ));
        }
        if HOST_SET.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(format!(
                "plugin {plugin} set header `{name}`, which the host sets itself from the URL and the body; leave it out"
            ));
        }
        if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(format!(
                "plugin {plugin} set header `{name}` to a value holding a line break or NUL"
            ));
        }
    }
    let limit = Bounds::default().max_request_bytes;
    if r.body.len() > limit {
        return Err(format!(
            "plugin {plugin}'s request to {} has a {}-byte body; at most {limit} bytes are sent",
            r.url,
            r.body.len()
        ));
    }
    Ok(Checked {
        url,
        host,
        port,
        default_port,
    })
}

/// Why a request got no response: the effect's outcome, the plugin's error, the text
/// recorded.
pub(crate) struct NotSent {
    pub(crate) outcome: EffectOutcome,
    pub(crate) error: wit::NetError,
    pub(crate) text: String,
}

impl<T> From<NotSent> for Done<T, wit::NetError> {
    fn from(not: NotSent) -> Self {
        Done {
            outcome: not.outcome,
            result: Err(not.error),
            output: not.text.into_bytes(),
            evidence: serde_json::Value::Null,
        }
    }
}

impl CallState {
    /// Send the checked request through a guarded engine whose body bound is `limit` bytes,
    /// with the credential the user bound to its host, and return once the head arrived.
    pub(crate) fn send(
        &self,
        r: &wit::Request,
        checked: &Checked,
        limit: u64,
    ) -> Result<HttpResponse, NotSent> {
        let bounds = Bounds {
            max_response_bytes: limit,
            ..Bounds::default()
        };
        let grant = self.granted.net.clone();
        let default_port = checked.default_port;
        let engine = HttpEngine::guarded(
            bounds,
            Arc::new(move |host: &str, addr| grant.connect(host, addr, default_port)),
        );
        if let Some(events) = &self.events {
            let _ = events.send(smith::ToolEvent::Progress(format!(
                "{} {}",
                r.method, checked.url
            )));
        }
        let mut headers = r.headers.clone();
        if let Some(bound) =
            self.granted
                .net
                .credential(&checked.host, checked.port, checked.default_port)
        {
            // The user's binding: the value goes into this request only, never to the plugin.
            let reference = smith_secrets::reference(&bound.secret);
            let (value, restored) = self
                .policy
                .secrets
                .current()
                .restore(&reference, &|name| name == bound.secret);
            if restored == 0 {
                let why = format!(
                    "the credential `{}` that plugins.{}.net.credentials binds to {} is not a registered secret; add it with `smith secrets add {}` (or name its variable in secrets.env)",
                    bound.secret, self.granted.net.plugin, bound.hosts, bound.secret
                );
                return Err(NotSent {
                    outcome: EffectOutcome::NotApplied,
                    error: wit::NetError::Denied(why.clone()),
                    text: why,
                });
            }
            headers.retain(|(name, _)| !name.eq_ignore_ascii_case(&bound.header));
            let value = if bound.bearer {
                format!("Bearer {value}")
            } else {
                value
            };
            headers.push((bound.header.clone(), value));
        }
        let request = HttpRequest {
            method: r.method.clone(),
            url: checked.url.to_string(),
            headers,
            body: r.body.clone(),
        };
        // A last word after cancellation (see `fetch`) runs on its own short bound instead of
        // the call's flag, which would stop it at once.
        let cancel = if self.cancel.is_cancelled() {
            let bound = smith::Cancel::new();
            let timer = bound.clone();
            std::thread::spawn(move || {
                std::thread::sleep(LAST_WORD_BOUND);
                timer.cancel();
            });
            bound
        } else {
            self.cancel.clone()
        };
        let response = engine.send(request, &cancel).map_err(|e| {
            let text = e.to_string();
            let (outcome, error) = match e {
                TransportError::Refused { .. } => (
                    EffectOutcome::NotApplied,
                    wit::NetError::Denied(text.clone()),
                ),
                TransportError::RequestTooLarge { .. } | TransportError::BadRequest { .. } => (
                    EffectOutcome::NotApplied,
                    wit::NetError::Invalid(text.clone()),
                ),
                // It may have reached the server before the connection failed.
                TransportError::Connect { .. } | TransportError::HeadTimeout { .. } => (
                    EffectOutcome::Unknown,
                    wit::NetError::Unreachable(text.clone()),
                ),
                TransportError::Cancelled => (EffectOutcome::Unknown, wit::NetError::Cancelled),
            };
            NotSent {
                outcome,
                error,
                text,
            }
        })?;
        // Said as the body starts to arrive (transient), so a long download shows progress.
        if let Some(events) = &self.events {
            let _ = events.send(smith::ToolEvent::Progress(format!(
                "{} from {}, reading the body",
                response.status,
                checked.url.host_str().unwrap_or_default()
            )));
        }
        Ok(response)
    }

    /// Send the checked request and read its whole response.
    fn fetch(&self, r: &wit::Request, checked: &Checked) -> Done<wit::Response, wit::NetError> {
        let limit = match r.max_response_bytes {
            0 => MAX_RESPONSE_BYTES,
            n => n.min(MAX_RESPONSE_BYTES),
        };
        let began = Instant::now();
        let response = match self.send(r, checked, limit) {
            Ok(response) => response,
            Err(not) => return not.into(),
        };
        let (body, end) = response.body.read_all();
        let redactor = self.policy.secrets.current();
        // A body cut at a bound may end in the first part of a secret: that part goes too.
        let body = match end {
            Outcome::Complete => redactor.redact_bytes(&body).into_owned(),
            _ => redactor.redact_cut_bytes(&body),
        };
        let headers = redacted_headers(&redactor, &response.headers);
        let duration_ms = millis(began);
        let (end, ended) = body_end(end);
        let recorded = &body[..body.len().min(RECORDED_RESPONSE_BYTES)];
        Done {
            // The server answered: the request reached it.
            outcome: EffectOutcome::Applied,
            output: recorded.to_vec(),
            evidence: json!({
                "status": response.status,
                "headers": recorded_headers(&headers),
                "body_bytes": body.len(),
                "body_recorded_bytes": recorded.len(),
                "end": ended,
                "duration_ms": duration_ms,
            }),
            result: Ok(wit::Response {
                status: response.status,
                headers,
                body,
                end,
                duration_ms,
            }),
        }
    }
}

/// Response headers with every registered secret replaced by its reference.
pub(crate) fn redacted_headers(
    redactor: &smith_secrets::Redactor,
    headers: &[(String, String)],
) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| (k.clone(), redactor.redact(v).into_owned()))
        .collect()
}

/// Milliseconds since `began`.
pub(crate) fn millis(began: Instant) -> u64 {
    u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// How a body ended, as the plugin and as the record see it.
pub(crate) fn body_end(end: Outcome) -> (wit::BodyEnd, serde_json::Value) {
    match end {
        Outcome::Complete => (wit::BodyEnd::Complete, json!("complete")),
        Outcome::Truncated { limit } => {
            (wit::BodyEnd::Truncated(limit), json!({"truncated": limit}))
        }
        Outcome::Cancelled => (wit::BodyEnd::Cancelled, json!("cancelled")),
        Outcome::Failed(why) => {
            let shown = json!({"failed": why});
            (wit::BodyEnd::Failed(why), shown)
        }
    }
}

/// The request as its effect's intent records it, and why the grant refuses it before any
/// policy is asked (`None`: it does not, or there is no `net.http` grant to judge by — the
/// grant check says so).
pub(crate) fn effect_input(
    call: &CallState,
    request: &wit::Request,
    checked: &Checked,
) -> (serde_json::Value, Option<String>) {
    let recorded_body = &request.body[..request.body.len().min(RECORDED_REQUEST_BYTES)];
    let mut input = json!({
        "method": request.method,
        "url": checked.url.as_str(),
        "headers": recorded_headers(&request.headers),
        "body": String::from_utf8_lossy(recorded_body),
        "body_bytes": request.body.len(),
        "max_response_bytes": request.max_response_bytes,
    });
    let grant = &call.granted.net;
    // Which credential the host adds (its name, never its value).
    if let Some(bound) = grant.credential(&checked.host, checked.port, checked.default_port) {
        input["credential"] = json!({"secret": bound.secret, "header": bound.header});
    }
    let refused = call
        .granted
        .grants
        .contains(&crate::grants::Grant::NetHttp)
        .then(|| {
            // An address written in the URL is judged now, before anyone is asked; a name's
            // addresses when it resolves.
            match checked.host.parse::<std::net::IpAddr>() {
                Ok(ip) => grant.connect(
                    &checked.host,
                    std::net::SocketAddr::new(ip, checked.port),
                    checked.default_port,
                ),
                Err(_) => grant
                    .permits(&checked.host, checked.port, checked.default_port)
                    .map(|_| ()),
            }
            .err()
        })
        .flatten();
    (input, refused)
}

impl wit::Host for State {
    fn fetch(&mut self, request: wit::Request) -> Result<wit::Response, wit::NetError> {
        let checked = check(&request, &self.call.plugin).map_err(wit::NetError::Invalid)?;
        let (input, refused) = effect_input(&self.call, &request, &checked);
        let target = checked.url.to_string();
        let call = EffectCall {
            effect: Effect::NetFetch,
            target: &target,
            input,
            leaves_sandbox: false,
            refused,
        };
        // After cancellation a small request is still sent, twice at most, on a short bound:
        // how a plugin tells a server to stop what it was asked.
        if self.call.cancel.is_cancelled()
            && request.body.len() <= LAST_WORD_BYTES
            && self.call.last_words < MAX_LAST_WORDS
        {
            self.call.last_words += 1;
            self.call.last_word = true;
        }
        self.call
            .durable(call, |state| state.fetch(&request, &checked))
    }

    fn open(
        &mut self,
        request: wit::Request,
    ) -> Result<wasmtime::component::Resource<wit::ResponseStream>, wit::NetError> {
        crate::net_stream::open(self, request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(url: &str) -> wit::Request {
        wit::Request {
            method: "GET".into(),
            url: url.into(),
            headers: Vec::new(),
            body: Vec::new(),
            max_response_bytes: 0,
        }
    }

    #[test]
    fn malformed_requests_are_refused_naming_the_url_and_the_plugin() {
        for (url, said) in [
            ("not a url", "not an absolute URL"),
            ("ftp://example.com/x", "scheme `ftp`"),
            ("file:///etc/passwd", "scheme `file`"),
            ("https://user:pw@example.com/", "credentials"),
        ] {
            let why = check(&request(url), "web").err().unwrap();
            assert!(why.contains(said) && why.contains("web"), "{url}: {why}");
        }
        let mut bad = request("https://example.com/");
        bad.headers.push(("Host".into(), "other.example".into()));
        assert!(check(&bad, "web").err().unwrap().contains("`Host`"));
        let mut bad = request("https://example.com/");
        bad.headers.push(("x-a".into(), "1\r\nx-b: 2".into()));
        assert!(check(&bad, "web").is_err());
        let mut bad = request("https://example.com/");
        bad.method = "GET /".into();
        assert!(check(&bad, "web").is_err());
        let ok = check(&request("http://[::1]:8080/a"), "web").unwrap();
        assert_eq!(
            (ok.host.as_str(), ok.port, ok.default_port),
            ("::1", 8080, 80)
        );
        let ok = check(&request("HTTPS://Example.COM/"), "web").unwrap();
        assert_eq!((ok.host.as_str(), ok.port), ("example.com", 443));
    }

    #[test]
    fn credential_headers_are_recorded_by_length_only() {
        let shown = recorded_headers(&[
            ("Authorization".into(), "Bearer sk-123".into()),
            ("X-Goog-Api-Key".into(), "abc".into()),
            ("accept".into(), "text/html".into()),
        ]);
        let text = shown.to_string();
        assert!(
            !text.contains("sk-123") && !text.contains("\"abc\""),
            "{text}"
        );
        assert!(text.contains("text/html"), "{text}");
    }
}
