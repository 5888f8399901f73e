//! `steps`: runs `steps`, a list of operations on programs kept across calls, in order, and
//! answers a JSON array with one result per step — `{"ok": …}` or `{"error": KIND,
//! "message"}` — so the host's tests can check what the plugin receives. Operations:
//! `{"op":"start","name","program","args"?,"limit"?}`, `{"op":"send","name","text"}`,
//! `{"op":"receive","name","max"?,"timeout_ms"?}` (answers `{"text","ended"}`),
//! `{"op":"until","name","text","timeout_ms"}` (receives until the output so far holds
//! `text` or nothing more arrives in time; answers `{"text","ended"}`),
//! `{"op":"tail","name"}` and `{"op":"stop","name"}`.

use serde::Deserialize;
use smith_plugin_sdk::process::{self, EnvBase, ExitStatus, ProcessError, ProcessRequest};
use smith_plugin_sdk::serde_json::{self, Value, json};
use smith_plugin_sdk::{Guest, Invocation, ToolDefinition, ToolOutput, arguments, tool};

struct Probe;

#[derive(Deserialize)]
struct Args {
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Step {
    Start {
        name: String,
        program: String,
        #[serde(default)]
        args: Vec<String>,
        #[serde(default)]
        limit: u32,
    },
    Send {
        name: String,
        text: String,
    },
    Receive {
        name: String,
        #[serde(default)]
        max: u32,
        #[serde(default)]
        timeout_ms: u64,
    },
    Until {
        name: String,
        text: String,
        timeout_ms: u64,
    },
    Tail {
        name: String,
    },
    Stop {
        name: String,
    },
}

fn error_json(e: ProcessError) -> Value {
    let (kind, message) = match e {
        ProcessError::Denied(m) => ("denied", m),
        ProcessError::NotFound(m) => ("not-found", m),
        ProcessError::Invalid(m) => ("invalid", m),
        ProcessError::Io(m) => ("io", m),
        ProcessError::Cancelled => ("cancelled", String::new()),
    };
    json!({"error": kind, "message": message})
}

fn status_json(s: Option<ExitStatus>) -> Value {
    match s {
        None => Value::Null,
        Some(ExitStatus::Code(c)) => json!({"code": c}),
        Some(ExitStatus::Signal(s)) => json!({"signal": s}),
    }
}

fn run(step: Step) -> Value {
    match step {
        Step::Start {
            name,
            program,
            args,
            limit,
        } => {
            let request = ProcessRequest {
                program,
                args,
                cwd: String::new(),
                env_base: EnvBase::Baseline,
                env: Vec::new(),
                timeout_ms: 0,
                output_limit: limit,
            };
            match process::start_session(&name, &request) {
                Ok(info) => {
                    json!({"ok": {"pid": info.pid, "started": info.started, "sandbox": info.sandbox}})
                }
                Err(e) => error_json(e),
            }
        }
        Step::Send { name, text } => match process::send(&name, text.as_bytes()) {
            Ok(()) => json!({"ok": null}),
            Err(e) => error_json(e),
        },
        Step::Receive {
            name,
            max,
            timeout_ms,
        } => match process::receive(&name, max, timeout_ms) {
            Ok(r) => {
                json!({"ok": {"text": String::from_utf8_lossy(&r.bytes), "ended": status_json(r.ended)}})
            }
            Err(e) => error_json(e),
        },
        Step::Until {
            name,
            text,
            timeout_ms,
        } => {
            let mut got = Vec::new();
            loop {
                match process::receive(&name, 0, timeout_ms) {
                    Ok(r) => {
                        let done = r.bytes.is_empty() || r.ended.is_some();
                        got.extend_from_slice(&r.bytes);
                        let found = String::from_utf8_lossy(&got).contains(&text);
                        if found || done {
                            break json!({"ok": {"text": String::from_utf8_lossy(&got), "ended": status_json(r.ended)}});
                        }
                    }
                    Err(e) => break error_json(e),
                }
            }
        }
        Step::Tail { name } => match process::stderr_tail(&name) {
            Ok(t) => json!({"ok": t}),
            Err(e) => error_json(e),
        },
        Step::Stop { name } => json!({"ok": status_json(process::stop_session(&name))}),
    }
}

impl Guest for Probe {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "steps",
            "Drive programs kept across calls, step by step.",
            r#"{"type":"object","properties":{"steps":{"type":"array","items":{"type":"object"}}},"required":["steps"]}"#,
        )]
    }

    fn call(_name: String, arguments_json: String, _invocation: Invocation) -> ToolOutput {
        let args: Args = match arguments(&arguments_json) {
            Ok(a) => a,
            Err(out) => return out,
        };
        let results: Vec<Value> = args.steps.into_iter().map(run).collect();
        ToolOutput::ok(serde_json::to_string(&results).unwrap_or_default())
    }
}

smith_plugin_sdk::export_tool_plugin!(Probe);
