//! `tools/list` and `tools/call`: the active tool plugins' tools under the user's grants,
//! process policy and trust (the same [`smith_app::Loadout`] a run uses), each call's effects
//! recorded in the server's session; and `smith_run`, a prompt run as an agent turn on that
//! session. A tool's failure is an `isError` result (the model can read it), never a protocol
//! error; progress goes to the client when the request sent a progress token.

use std::sync::Arc;
use std::sync::mpsc;

use serde_json::{Map, Value, json};
use smith::{Cancel, ToolCall, ToolContext, ToolEvent, ToolRegistry};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::INVALID_PARAMS;
use smith_ui_intents::{Delivery, Intent, IntentSink};

use crate::client::Asker;
use crate::server::{Recording, Server, invalid_params, lock};
use smith_app::runner::Submission;
use smith_app::runner::target::{self, Access, Target};

/// The agent tool's name.
pub(crate) const RUN_TOOL: &str = "smith_run";

/// The tools, loaded once: the enabled tool plugins (no provider plugin) with the user's
/// policy for the server's directory and the secrets every output is redacted with.
pub(crate) fn loadout(server: &Server) -> Result<Arc<smith_app::Loadout>, ErrorObject> {
    let mut cached = lock(&server.tools);
    if cached.is_none() {
        let built = (|| {
            let host = server
                .app
                .load_plugins(|m| m.provider.is_none())
                .map_err(|e| e.to_string())?;
            let mut policy = server
                .app
                .policy(&server.cwd(), &|r| r.to_string())
                .map_err(|e| e.to_string())?;
            policy.secrets = server.app.secrets().map_err(|e| e.to_string())?.redactor;
            Ok(Arc::new(host.loadout().with_policy(policy)))
        })();
        *cached = Some(built);
    }
    match cached.as_ref() {
        Some(Ok(l)) => Ok(Arc::clone(l)),
        Some(Err(why)) => Err(ErrorObject::new(
            smith_render_jsonrpc::message::INTERNAL_ERROR,
            format!("the tools cannot be loaded: {why}"),
        )),
        None => unreachable!("set above"),
    }
}

/// `tools/list`: every tool a call here can run, with its input schema, and `smith_run`.
pub(crate) fn list(server: &Server) -> Result<Value, ErrorObject> {
    let tools = loadout(server)?;
    let manifests: Vec<_> = server.app.registry.enabled().collect();
    let mut listed: Vec<Value> = tools
        .definitions()
        .into_iter()
        .map(|d| {
            let mut tool = json!({
                "name": d.name,
                "description": d.description,
                "inputSchema": d.input_schema,
            });
            let hints = manifests.iter().find_map(|m| m.tool_hints.get(&d.name));
            if let Some(h) = hints {
                tool["annotations"] = annotations(h);
            }
            let output = manifests.iter().find_map(|m| m.output_schemas.get(&d.name));
            if let Some(schema) = output {
                tool["outputSchema"] = schema.clone();
            }
            tool
        })
        .collect();
    listed.push(crate::decl::run_tool());
    Ok(json!({"tools": listed}))
}

/// MCP tool annotations from a manifest's hints (only those declared).
fn annotations(h: &smith_app::ToolHints) -> Value {
    let mut out = serde_json::Map::new();
    for (key, value) in [
        ("readOnlyHint", h.read_only),
        ("destructiveHint", h.destructive),
        ("idempotentHint", h.idempotent),
        ("openWorldHint", h.open_world),
    ] {
        if let Some(v) = value {
            out.insert(key.to_owned(), Value::Bool(v));
        }
    }
    Value::Object(out)
}

/// The session effects are recorded in: opened (`--session`) or created on first use.
fn recording(server: &Server) -> Result<std::sync::MutexGuard<'_, Option<Recording>>, String> {
    let mut guard = lock(&server.recording);
    if guard.is_none() {
        let cwd = server.cwd();
        let wanted = server
            .wanted_session
            .as_deref()
            .map_or(Target::New, Target::named);
        let opened =
            target::open_or_observe(Arc::clone(&server.app), &wanted, &cwd, |r| r.to_string())
                .map_err(|e| e.to_string())?;
        let mut runner = match opened {
            // Effects a client's calls record are kept, whatever else the session holds.
            Access::Writer(opened) => opened.runner.created(false),
            Access::Observer { id, .. } => {
                return Err(format!(
                    "session {id} is being written by another process, so this server cannot record effects in it; close it there, or start smith mcp without --session"
                ));
            }
        };
        runner.register_secrets().map_err(|e| e.to_string())?;
        *lock(&server.session) = Some(runner.id());
        *lock(&server.journal) = Some(runner.journal());
        *lock(&server.resident) = Some(runner.resident());
        *guard = Some(Recording { runner });
    }
    Ok(guard)
}

/// The journal of the session effects are recorded in, creating the session if needed; never
/// waits for a running `smith_run` turn (the session exists before a turn holds it).
fn journal(server: &Server) -> Result<Option<smith_store::SharedWriter>, String> {
    if let Some(journal) = lock(&server.journal).clone() {
        return Ok(Some(journal));
    }
    Ok(recording(server)?.as_ref().map(|r| r.runner.journal()))
}

/// The id of the session effects are recorded in, creating it if needed.
pub(crate) fn session_id(server: &Server) -> Result<smith::SessionId, String> {
    // Known once created: never waits for a running turn.
    if let Some(id) = *lock(&server.session) {
        return Ok(id);
    }
    recording(server)?
        .as_ref()
        .map(|r| r.runner.id())
        .ok_or_else(|| "no session".to_owned())
}

/// `tools/call`: answered from a thread of its own (the reading thread goes on).
pub(crate) fn call(server: &Arc<Server>, id: Option<Value>, params: Map<String, Value>) {
    let Some(name) = params
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return server.answer(
            id.as_ref(),
            Err(invalid_params(
                "name",
                "a string: the tool to call (`tools/list` lists them)",
            )),
        );
    };
    let arguments = match params.get("arguments") {
        None => json!({}),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => {
            return server.answer(id.as_ref(), Err(invalid_params("arguments", "an object")));
        }
    };
    let meta = match params.get("_meta") {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return server.answer(id.as_ref(), Err(invalid_params("_meta", "an object"))),
    };
    let token = match meta.and_then(|m| m.get("progressToken")) {
        None => None,
        Some(t) if t.is_string() || t.is_i64() || t.is_u64() => Some(t.clone()),
        Some(_) => {
            return server.answer(
                id.as_ref(),
                Err(invalid_params(
                    "_meta.progressToken",
                    "a string or an integer",
                )),
            );
        }
    };
    let tools = match loadout(server) {
        Ok(t) => t,
        Err(e) => return server.answer(id.as_ref(), Err(e)),
    };
    if name != RUN_TOOL && !tools.definitions().iter().any(|d| d.name == name) {
        let why = tools
            .withheld()
            .into_iter()
            .find(|w| w.name == name)
            .map_or_else(
                || "no active plugin provides it; `tools/list` lists the tools".to_owned(),
                |w| format!("it is not available here: {}", w.why),
            );
        return server.answer(
            id.as_ref(),
            Err(ErrorObject {
                code: INVALID_PARAMS,
                message: format!("unknown tool `{name}`: {why}"),
                data: Some(json!({"field": "name", "tool": name})),
            }),
        );
    }
    let cancel = Cancel::new();
    let key = id.as_ref().map(Value::to_string);
    if let Some(key) = &key {
        let mut calls = lock(&server.calls);
        // MCP: ids "MUST NOT" be reused within a session; a call in flight keeps its own.
        if calls.contains_key(key) {
            drop(calls);
            return server.answer(
                id.as_ref(),
                Err(ErrorObject::new(
                    smith_render_jsonrpc::message::INVALID_REQUEST,
                    format!(
                        "invalid request: id {key} is already used by a tools/call in flight; give each request its own id"
                    ),
                )),
            );
        }
        calls.insert(key.clone(), cancel.clone());
    }
    let server2 = Arc::clone(server);
    server.spawn(move || {
        let request = key.clone().unwrap_or_else(|| "null".to_owned());
        let result = if name == RUN_TOOL {
            run_turn(&server2, &request, &arguments, token, &cancel)
        } else {
            run_tool(&server2, &tools, &request, &name, arguments, token, &cancel)
        };
        server2.withdraw(&request);
        let mut cancelled = false;
        if let Some(key) = &key {
            lock(&server2.calls).remove(key);
            cancelled = lock(&server2.cancelled).remove(key);
        }
        // A call the client cancelled is never answered (MCP cancellation).
        if !cancelled {
            server2.answer(id.as_ref(), Ok(result));
        }
    });
}

fn text_result(text: &str, is_error: bool) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": is_error})
}

/// A tool's output as a `tools/call` result: its text, and its structured result when its
/// manifest declares an output schema (MCP: a tool with an output schema "MUST" give
/// conforming structured content, so one that gave none that fits is an `isError` result).
fn tool_result(name: &str, out: smith::ToolOutput) -> Value {
    match out.structured {
        None => text_result(&out.output, out.is_error),
        Some(Ok(structured)) => {
            let mut result = text_result(&out.output, out.is_error);
            result["structuredContent"] = structured;
            result
        }
        Some(Err(why)) => text_result(
            &format!(
                "{}\n[the structured result is missing: {why}; this is a defect of the tool `{name}`]",
                out.output
            ),
            true,
        ),
    }
}

fn run_tool(
    server: &Server,
    tools: &smith_app::Loadout,
    request: &str,
    name: &str,
    arguments: Value,
    token: Option<Value>,
    cancel: &Cancel,
) -> Value {
    let journal = match journal(server) {
        Ok(j) => j,
        Err(why) => return text_result(&format!("`{name}` was not run: {why}"), true),
    };
    let Some(journal) = journal else {
        return text_result(&format!("`{name}` was not run: no session"), true);
    };
    // The client's call is recorded first: the effects name it as their cause, and a call
    // that cannot be recorded is not run.
    let recorded =
        journal
            .lock()
            .append(&[smith_store::Record::ClientCall(smith_store::ClientCall {
                frontend: "mcp".to_owned(),
                request: request.to_owned(),
                tool: name.to_owned(),
                arguments: arguments.clone(),
            })]);
    let cause = match recorded {
        Ok(ids) => ids.first().copied(),
        Err(e) => {
            return text_result(
                &format!(
                    "`{name}` was not run: the call could not be recorded in the session: {e}"
                ),
                true,
            );
        }
    };
    // Each call gets a fresh id: effect ids are derived from it, unique within the session.
    let call = ToolCall {
        id: format!("mcp-{}", smith::SessionId::new_now()),
        name: name.to_owned(),
        arguments,
    };
    let (events, updates) = mpsc::channel::<ToolEvent>();
    let context = ToolContext {
        cwd: Some(server.cwd()),
        journal: Arc::new(journal.clone()),
        cause,
        events: Some(events),
        state: Some(Arc::new(journal)),
        resident: lock(&server.resident).clone(),
    };
    let mut progress = token.map(smith_render_mcp::Progress::new);
    let out = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let context = context;
            tools.call(&call, &context, cancel)
        });
        for event in updates {
            match event {
                // What a tool says while it runs: a log message, and progress for a request
                // with a progress token.
                ToolEvent::Progress(text) => {
                    server.log_as("info", name, &text);
                    if let Some(p) = progress.as_mut() {
                        server.notify("notifications/progress", p.text(text));
                    }
                }
                // The session's plan, replaced: a log message with every step, and progress.
                ToolEvent::Plan(items) => {
                    let text = smith_render_mcp::plan_words(&items);
                    server.log_as("info", name, &text);
                    if let Some(p) = progress.as_mut() {
                        server.notify("notifications/progress", p.text(text));
                    }
                }
                ToolEvent::Ask {
                    reply, question, ..
                } => {
                    let asked =
                        server.elicit(&question, Some(request.to_owned()), Asker::Reply(reply));
                    if let Err(refused) = asked {
                        let (reason, asker) = *refused;
                        server.log(
                            "warning",
                            &format!("a question was refused: {} ({reason})", question.prompt()),
                        );
                        asker.settle(Err(reason));
                    }
                }
            }
        }
        worker.join()
    });
    match out {
        Ok(out) => tool_result(name, out),
        Err(_) => text_result(
            &format!(
                "tool `{name}` failed inside Smith (a defect); its effects, if any, are in the session"
            ),
            true,
        ),
    }
}

/// The sink of a `smith_run` turn: progress and log notifications, questions as
/// elicitations, and the final answer kept.
struct TurnSink<'a> {
    server: &'a Server,
    /// The `tools/call` request running the turn (its id's JSON text).
    request: &'a str,
    /// Where elicited answers go.
    inbox: smith_app::runner::Inbox,
    progress: Option<smith_render_mcp::Progress>,
    answer: String,
}

impl TurnSink<'_> {
    /// Put the question of request intent `intent` to the client.
    fn ask(&self, request_id: &str, question: smith::Question) -> Delivery {
        let asker = Asker::Inbox {
            inbox: self.inbox.clone(),
            request_id: request_id.to_owned(),
        };
        let prompt = question.prompt().to_owned();
        match self
            .server
            .elicit(&question, Some(self.request.to_owned()), asker)
        {
            Ok(()) => Delivery::Shown,
            Err(refused) => {
                let reason = refused.0;
                self.server.log(
                    "warning",
                    &format!("a question was refused: {prompt} ({reason})"),
                );
                Delivery::Refused { reason }
            }
        }
    }
}

impl IntentSink for TurnSink<'_> {
    fn emit(&mut self, intent: Intent) -> Delivery {
        if let Intent::MessageEnd { message, .. } = &intent
            && message.role == smith::Role::Assistant
        {
            self.answer = message.text();
        }
        if let Some(line) = smith_render_mcp::log_message(
            &intent,
            self.server
                .log_level
                .load(std::sync::atomic::Ordering::SeqCst),
        ) {
            self.server.notify("notifications/message", line);
        }
        if let Some(p) = self.progress.as_mut()
            && let Some(params) = p.step(&intent)
        {
            self.server.notify("notifications/progress", params);
        }
        match intent {
            Intent::ConfirmRequest {
                request_id,
                prompt,
                default,
            } => self.ask(&request_id, smith::Question::Confirm { prompt, default }),
            Intent::SelectRequest {
                request_id,
                prompt,
                options,
            } => self.ask(&request_id, smith::Question::Select { prompt, options }),
            Intent::InputRequest {
                request_id,
                prompt,
                secret,
            } => self.ask(&request_id, smith::Question::Input { prompt, secret }),
            other => match other.kind().degradation() {
                smith_ui_intents::Degradation::Refuse => Delivery::Refused {
                    reason: format!("smith mcp cannot show a {} request", other.kind().name()),
                },
                _ => Delivery::Shown,
            },
        }
    }
}

fn run_turn(
    server: &Server,
    request: &str,
    arguments: &Value,
    token: Option<Value>,
    cancel: &Cancel,
) -> Value {
    let Some(prompt) = arguments.get("prompt").and_then(Value::as_str) else {
        return text_result(
            "the arguments of `smith_run` do not match its input schema: `prompt` must be a string, what to ask the agent; nothing was run",
            true,
        );
    };
    if let Some(extra) = arguments
        .as_object()
        .and_then(|a| a.keys().find(|k| *k != "prompt"))
    {
        return text_result(
            &format!(
                "the arguments of `smith_run` do not match its input schema: `{extra}` is not one of its properties (only `prompt`); nothing was run"
            ),
            true,
        );
    }
    let app = &server.app;
    let selection = match app.selection() {
        Ok(s) => s,
        Err(e) => return text_result(&format!("no turn was run: {e}"), true),
    };
    let spec = smith_app::RunSpec {
        selection,
        thinking: app.thinking(),
        script: server.script(),
    };
    // The session exists (and its id is known) before the turn holds it for its whole run,
    // so reading `smith://server/session` meanwhile never waits for the turn.
    if let Err(why) = session_id(server) {
        return text_result(&format!("no turn was run: {why}"), true);
    }
    let mut guard = match recording(server) {
        Ok(g) => g,
        Err(why) => return text_result(&format!("no turn was run: {why}"), true),
    };
    let Some(recording) = guard.as_mut() else {
        return text_result("no turn was run: no session", true);
    };
    let runner = &mut recording.runner;
    runner.move_to(server.cwd());
    if let Err(e) = runner.prepare(spec) {
        return text_result(&format!("no turn was run: {e}"), true);
    }
    let mut sink = TurnSink {
        server,
        request,
        inbox: runner.inbox(),
        progress: token.map(smith_render_mcp::Progress::new),
        answer: String::new(),
    };
    let submission = Submission {
        prompt: smith_app::prompt::Prompt::literal(prompt.to_owned()),
        ..Submission::default()
    };
    let outcome = runner.submit(submission, &mut sink, cancel);
    match outcome {
        Ok(o) if o.error.is_none() && o.stop_reason == smith::StopReason::Budget => text_result(
            format!(
                "{}\n\n[the turn ended with stop reason `budget`: its next request would have passed the cost budget (run.max-cost)]",
                sink.answer
            )
            .trim_start(),
            true,
        ),
        Ok(o) if o.error.is_none() && o.stop_reason != smith::StopReason::Aborted => {
            text_result(&sink.answer, false)
        }
        Ok(o) => text_result(
            &match o.error {
                Some(e) => format!(
                    "the turn ended with stop reason `{}`: {e}",
                    o.stop_reason.as_str()
                ),
                None => format!(
                    "the turn ended with stop reason `{}`",
                    o.stop_reason.as_str()
                ),
            },
            true,
        ),
        Err(e) => text_result(&format!("no turn was run: {e}"), true),
    }
}
