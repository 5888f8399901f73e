//! `fetch`: one `net.fetch` as its arguments say (`method`, `url`, `headers`, `body`,
//! `max`), answered as JSON — `{"status", "headers", "body", "end"}` or `{"error": KIND,
//! "message"}` — so the host's tests can check every field the plugin receives.

use serde::Deserialize;
use smith_plugin_sdk::net::{self, BodyEnd, NetError, Request};
use smith_plugin_sdk::serde_json::json;
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
}

fn get() -> String {
    "GET".to_owned()
}

impl Guest for Probe {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "fetch",
            "Send one HTTP request as given.",
            r#"{"type":"object","properties":{"method":{"type":"string"},"url":{"type":"string"},"headers":{"type":"array"},"body":{"type":"string"},"max":{"type":"integer"}},"required":["url"]}"#,
        )]
    }

    fn call(_name: String, arguments_json: String, _invocation: Invocation) -> ToolOutput {
        let args: Args = match arguments(&arguments_json) {
            Ok(a) => a,
            Err(out) => return out,
        };
        let sent = net::fetch(&Request {
            method: args.method,
            url: args.url,
            headers: args.headers,
            body: args.body.into_bytes(),
            max_response_bytes: args.max,
        });
        let value = match sent {
            Ok(r) => json!({
                "status": r.status,
                "headers": r.headers,
                "body": String::from_utf8_lossy(&r.body),
                "end": match r.end {
                    BodyEnd::Complete => json!("complete"),
                    BodyEnd::Truncated(n) => json!({"truncated": n}),
                    BodyEnd::Failed(why) => json!({"failed": why}),
                    BodyEnd::Cancelled => json!("cancelled"),
                },
            }),
            Err(e) => {
                let (kind, message) = match e {
                    NetError::Denied(m) => ("denied", m),
                    NetError::Invalid(m) => ("invalid", m),
                    NetError::Unreachable(m) => ("unreachable", m),
                    NetError::Cancelled => ("cancelled", String::new()),
                };
                json!({"error": kind, "message": message})
            }
        };
        ToolOutput::ok(value.to_string())
    }
}

smith_plugin_sdk::export_tool_plugin!(Probe);
