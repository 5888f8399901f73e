//! `fetch`: one `net.fetch` as its arguments say (`method`, `url`, `headers`, `body`,
//! `max`), answered as JSON — `{"status", "headers", "body", "end"}` or `{"error": KIND,
//! "message"}` — so the host's tests can check every field the plugin receives. With
//! `"stream": true` it uses `net.open` instead and reads the body in chunks of `chunk` bytes
//! (0: the host's default), stopping after `read` bytes if given (the stream then left open
//! for the call's end, or dropped first with `"drop": true`); the answer adds `"chunks"`, the
//! number of chunks read. `"open": N` opens the URL N times at once and says how many
//! opened (`"opened"`) and the first error. `"then": URL` with `"times": N` then fetches
//! URL N times (a small POST each: how a plugin says its last words after a cancel) and adds
//! `"then"`, each one's status or error.

use serde::Deserialize;
use smith_plugin_sdk::net::{self, BodyEnd, NetError, Request};
use smith_plugin_sdk::serde_json::{self, json};
use smith_plugin_sdk::{Guest, Invocation, ToolDefinition, ToolOutput, arguments, tool};

struct Probe;

#[derive(Deserialize)]
struct Args {
    #[serde(default = "get")]
    method: String,
    url: String,
    #[serde(default)]
    headers: Vec<(String, String)>,
    #[serde(default)]
    body: String,
    #[serde(default)]
    max: u64,
    #[serde(default)]
    stream: bool,
    #[serde(default)]
    chunk: u32,
    read: Option<u64>,
    #[serde(default)]
    drop: bool,
    open: Option<u32>,
    then: Option<String>,
    #[serde(default)]
    times: u32,
}

fn get() -> String {
    "GET".to_owned()
}

impl Guest for Probe {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "fetch",
            "Send one HTTP request as given.",
            r#"{"type":"object","properties":{"method":{"type":"string"},"url":{"type":"string"},"headers":{"type":"array"},"body":{"type":"string"},"max":{"type":"integer"},"stream":{"type":"boolean"},"chunk":{"type":"integer"},"read":{"type":"integer"},"drop":{"type":"boolean"},"open":{"type":"integer"},"then":{"type":"string"},"times":{"type":"integer"}},"required":["url"]}"#,
        )]
    }

    fn call(_name: String, arguments_json: String, _invocation: Invocation) -> ToolOutput {
        let args: Args = match arguments(&arguments_json) {
            Ok(a) => a,
            Err(out) => return out,
        };
        let request = Request {
            method: args.method,
            url: args.url,
            headers: args.headers,
            body: args.body.into_bytes(),
            max_response_bytes: args.max,
        };
        if let Some(n) = args.open {
            let mut held = Vec::new();
            let mut first_error = None;
            for _ in 0..n {
                match net::open(&request) {
                    Ok(stream) => held.push(stream),
                    Err(e) => {
                        first_error.get_or_insert(error_json(e));
                    }
                }
            }
            return ToolOutput::ok(json!({"opened": held.len(), "error": first_error}).to_string());
        }
        let then = |mut value: serde_json::Value| {
            if let Some(url) = &args.then {
                let said: Vec<serde_json::Value> = (0..args.times)
                    .map(|_| {
                        let word = Request {
                            method: "POST".to_owned(),
                            url: url.clone(),
                            headers: Vec::new(),
                            body: b"{\"bye\":1}".to_vec(),
                            max_response_bytes: 0,
                        };
                        match net::fetch(&word) {
                            Ok(r) => json!(r.status),
                            Err(e) => error_json(e),
                        }
                    })
                    .collect();
                value["then"] = json!(said);
            }
            ToolOutput::ok(value.to_string())
        };
        if args.stream {
            let value = match net::open(&request) {
                Ok(stream) => {
                    let mut body = Vec::new();
                    let mut chunks = 0u32;
                    while args.read.is_none_or(|n| (body.len() as u64) < n) {
                        let Some(chunk) = stream.next_chunk(args.chunk) else {
                            break;
                        };
                        chunks += 1;
                        body.extend(chunk);
                    }
                    let value = json!({
                        "status": stream.status(),
                        "headers": stream.headers(),
                        "body": String::from_utf8_lossy(&body),
                        "end": stream.end().map(end_json),
                        "chunks": chunks,
                    });
                    if args.drop {
                        drop(stream);
                    } else {
                        // Left open: the host records it when the call ends.
                        std::mem::forget(stream);
                    }
                    value
                }
                Err(e) => error_json(e),
            };
            return then(value);
        }
        let sent = net::fetch(&request);
        let value = match sent {
            Ok(r) => json!({
                "status": r.status,
                "headers": r.headers,
                "body": String::from_utf8_lossy(&r.body),
                "end": end_json(r.end),
            }),
            Err(e) => error_json(e),
        };
        then(value)
    }
}

fn end_json(end: BodyEnd) -> serde_json::Value {
    match end {
        BodyEnd::Complete => json!("complete"),
        BodyEnd::Truncated(n) => json!({"truncated": n}),
        BodyEnd::Failed(why) => json!({"failed": why}),
        BodyEnd::Cancelled => json!("cancelled"),
    }
}

fn error_json(e: NetError) -> serde_json::Value {
    let (kind, message) = match e {
        NetError::Denied(m) => ("denied", m),
        NetError::Invalid(m) => ("invalid", m),
        NetError::Unreachable(m) => ("unreachable", m),
        NetError::Cancelled => ("cancelled", String::new()),
    };
    json!({"error": kind, "message": message})
}

smith_plugin_sdk::export_tool_plugin!(Probe);
