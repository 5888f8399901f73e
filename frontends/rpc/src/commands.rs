//! `commands.list` and `commands.run`: the product layer's commands over JSON-RPC (the
//! commands guide). A verb is carried out by the declared method it maps to — its params
//! checked against that method's declaration, its answer that method's — so a command can do
//! nothing a client could not do directly; a handler command's intents go back to the client.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use smith_app::product::prompts::PromptOrigin;
use smith_app::product::wit::{CommandAction, Intent, Layout, Level, Picker, Verb};
use smith_app::product::{
    CommandError, Loadout, Outcome, ProductLayer, action_name, kind_name, picker_name,
    verb_kind_name,
};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::INVALID_PARAMS;

use crate::decl::code;
use crate::methods::now;
use crate::params::Params;
use crate::server::{Answer, Server};

/// The composed layer and the loadout its handler commands run through, or why it could not
/// be composed.
pub(crate) type Product = Result<Arc<(ProductLayer, Loadout)>, ErrorObject>;

fn product(server: &Server) -> Result<Arc<(ProductLayer, Loadout)>, ErrorObject> {
    server
        .product
        .get_or_init(|| {
            // No keys are built into this frontend: bindings are the terminal UI's business.
            server
                .app
                .product(&[], &server.cwd)
                .map(Arc::new)
                .map_err(|e| crate::errors::config(&e))
        })
        .clone()
}

fn command_json(c: &smith_app::product::Command) -> Value {
    let action = match c.action {
        CommandAction::Verb(k) => json!({"verb": verb_kind_name(k)}),
        CommandAction::OpenPicker(p) => json!({"picker": picker_name(p)}),
        CommandAction::Key(a) => json!({"key": action_name(a)}),
        CommandAction::Handler => match &c.prompt {
            Some(prompt) => json!({"prompt": {
                "origin": match &prompt.origin {
                    PromptOrigin::Project(_) => "project",
                    PromptOrigin::User(_) => "user",
                    PromptOrigin::Bundled => "bundled",
                },
                "path": match &prompt.origin {
                    PromptOrigin::Project(p) | PromptOrigin::User(p) => Some(p.to_string_lossy()),
                    PromptOrigin::Bundled => None,
                },
                "model": prompt.model,
            }}),
            None => json!({"handler": true}),
        },
    };
    let arguments: Vec<Value> = c
        .arguments
        .iter()
        .map(|a| {
            json!({"name": a.name, "summary": a.summary, "kind": kind_name(a.kind), "required": a.required})
        })
        .collect();
    json!({
        "name": c.name,
        "usage": c.usage(),
        "summary": c.summary,
        "arguments": arguments,
        "action": action,
        "plugin": c.plugin,
    })
}

/// `commands.list`.
pub(crate) fn list(server: &Server) -> Result<Value, ErrorObject> {
    let product = product(server)?;
    let (layer, _) = &*product;
    let commands: Vec<Value> = layer.commands.iter().map(command_json).collect();
    Ok(json!({"commands": commands, "notices": layer.notices}))
}

fn command_error(e: &CommandError) -> ErrorObject {
    match e {
        CommandError::Unknown { name, near } => {
            // A name is echoed back only as far as a name can go.
            let shown: String = name.chars().take(64).collect();
            let cut = if shown.len() < name.len() { "…" } else { "" };
            ErrorObject {
                code: code::NOT_FOUND,
                message: format!(
                    "no command `/{shown}{cut}`{}; `commands.list` lists them",
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!(" (did you mean /{}?)", near.join(", /"))
                    }
                ),
                data: Some(json!({"command": format!("{shown}{cut}"), "did_you_mean": near})),
            }
        }
        CommandError::Missing { argument, .. } => ErrorObject {
            code: INVALID_PARAMS,
            message: format!("invalid params: {e}"),
            data: Some(json!({"field": format!("arguments.{argument}")})),
        },
        CommandError::Invalid { .. } => ErrorObject {
            code: INVALID_PARAMS,
            message: format!("invalid params: {e}"),
            data: Some(json!({"field": "arguments"})),
        },
    }
}

fn refused(message: String) -> ErrorObject {
    ErrorObject {
        code: code::REFUSED,
        message,
        data: None,
    }
}

/// An entry id given as text, as the session methods take it (an integer).
fn entry(text: &str) -> Result<Value, ErrorObject> {
    text.trim()
        .parse::<u64>()
        .map(Value::from)
        .map_err(|_| ErrorObject {
            code: INVALID_PARAMS,
            message: format!(
                "invalid params: entry `{text}` is not an entry id (a whole number, as `session.entries` gives them)"
            ),
            data: Some(json!({"field": "arguments.entry"})),
        })
}

/// The declared method and params verb `verb` maps to, for `session` (when given).
fn mapped(
    server: &Server,
    verb: &Verb,
    session: Option<&str>,
    model: Option<&str>,
) -> Result<(&'static str, Map<String, Value>), ErrorObject> {
    let mut params = Map::new();
    let needs_session = |params: &mut Map<String, Value>| -> Result<(), ErrorObject> {
        let s = session.ok_or_else(|| ErrorObject {
            code: INVALID_PARAMS,
            message: "invalid params: this command acts on a session: give `session`".to_owned(),
            data: Some(json!({"field": "session"})),
        })?;
        params.insert("session".into(), Value::from(s));
        Ok(())
    };
    let method = match verb {
        Verb::NewSession => {
            params.insert(
                "cwd".into(),
                Value::from(server.cwd.to_string_lossy().into_owned()),
            );
            "sessions.create"
        }
        Verb::Attach(id) => {
            params.insert("session".into(), Value::from(id.as_str()));
            "sessions.open"
        }
        Verb::Fork(at) => {
            needs_session(&mut params)?;
            if let Some(at) = at {
                params.insert("at".into(), entry(at)?);
            }
            "sessions.fork"
        }
        Verb::Select(at) => {
            needs_session(&mut params)?;
            params.insert("entry".into(), entry(at)?);
            "sessions.select"
        }
        Verb::Compact(focus) => {
            needs_session(&mut params)?;
            if let Some(f) = focus {
                params.insert("instructions".into(), Value::from(f.as_str()));
            }
            if let Some(m) = model {
                params.insert("model".into(), Value::from(m));
            }
            "session.compact"
        }
        Verb::Undo(turn) => {
            needs_session(&mut params)?;
            params.insert("turn".into(), Value::from(*turn));
            "history.undo"
        }
        Verb::Redo => {
            needs_session(&mut params)?;
            "history.redo"
        }
        Verb::Restore(target) => {
            needs_session(&mut params)?;
            params.insert("target".into(), Value::from(target.as_str()));
            "history.restore"
        }
        Verb::Diff(from) => {
            needs_session(&mut params)?;
            if let Some(from) = from {
                params.insert("from".into(), Value::from(from.as_str()));
            }
            "history.diff"
        }
        Verb::Export(_) => {
            return Err(refused(
                "the export verb has no JSON-RPC method: page `session.entries` for the same records, or run `smith sessions export SESSION`"
                    .into(),
            ));
        }
        Verb::OpenPicker(_) => "commands.list",
        Verb::Replay(_) => {
            return Err(refused(
                "the replay verb has no JSON-RPC method: run `smith replay SESSION --json` for the same records"
                    .into(),
            ));
        }
        Verb::SetModel((model, _)) => {
            return Err(refused(format!(
                "the set-model verb has no JSON-RPC method: pass `model` ({model}) to session.submit for each run"
            )));
        }
        Verb::PluginEnable(id) | Verb::PluginDisable(id) => {
            return Err(refused(format!(
                "enabling or disabling plugin `{id}` while the server runs is not offered over JSON-RPC: start `smith rpc` with `--disable-plugin {id}` or `-c plugins.{id}.enabled=true`"
            )));
        }
    };
    Ok((method, params))
}

/// A picker's listing: what the matching list method answers, with `picker` set.
fn picker(server: &Arc<Server>, p: Picker) -> Result<Value, ErrorObject> {
    let mut listing = match p {
        Picker::Commands => list(server)?,
        Picker::Sessions => {
            return Err(ErrorObject {
                code: code::REFUSED,
                message: "the sessions picker over JSON-RPC is `sessions.list` with `cwd`: call it (it pages and filters)".into(),
                data: Some(json!({"method": "sessions.list", "params": {"cwd": server.cwd.to_string_lossy()}})),
            });
        }
        Picker::Branches => {
            return Err(ErrorObject {
                code: code::REFUSED,
                message: "the branches picker over JSON-RPC is `session.entries` (each entry names its parent): page it, then `sessions.select` the leaf to continue".into(),
                data: Some(json!({"method": "session.entries"})),
            });
        }
        Picker::Models => crate::methods::models_json(server)?,
        Picker::Plugins => crate::methods::plugins_json(server)?,
    };
    listing["picker"] = Value::from(picker_name(p));
    Ok(listing)
}

fn verb_json(server: &Server, verb: &Verb) -> Value {
    match mapped(server, verb, None, None) {
        Ok((method, params)) => {
            json!({"type": "run", "verb": smith_app::product::verb_words(verb), "method": method, "params": params})
        }
        Err(e) => {
            json!({"type": "run", "verb": smith_app::product::verb_words(verb), "method": null, "refused": e.message})
        }
    }
}

fn intent_json(server: &Server, intent: &Intent) -> Value {
    match intent {
        Intent::Run(v) => verb_json(server, v),
        Intent::Notice((level, text)) => json!({"type": "notice", "level": match level {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        }, "text": text}),
        Intent::SetTheme(name) => json!({"type": "set_theme", "name": name}),
        Intent::SetLayout(l) => json!({"type": "set_layout", "layout": match l {
            Layout::StatusBottom => "status-bottom",
            Layout::StatusTop => "status-top",
        }}),
        Intent::SetSetting((key, value)) => {
            json!({"type": "set_setting", "key": key, "value": value})
        }
    }
}

/// What a handler's `runtime` questions are answered with over JSON-RPC: the session the
/// request names (when this server has it open) for `/cost`, and for `/status` what the
/// configuration says the next run uses (a client passes `model` per submission).
fn query(server: &Server, p: &Params) -> smith_app::product::SharedQuery {
    use smith_app::product::query::{SessionQuery, mcp_server_lines, plugin_lines};
    let opened = server.opened(p).ok();
    let setting = |key: &str| server.app.settings.string(key).map(str::to_owned);
    // The mode and sandbox a run here starts in (a session's own mode is its business).
    let (mode, sandbox) = smith_app::product::query::configured_modes(&server.app, &server.cwd);
    let status = smith_app::product::RuntimeStatus {
        session: opened.as_ref().map(|o| o.id.to_string()),
        model: setting("model"),
        permission_mode: mode,
        sandbox,
        plugins: plugin_lines(&server.app),
        mcp_servers: mcp_server_lines(&server.app),
        ..smith_app::product::RuntimeStatus::default()
    };
    let resident = opened.as_ref().and_then(|o| match &o.held {
        crate::server::Held::Writer(handle) => Some(Arc::clone(&handle.resident)),
        crate::server::Held::Observer => None,
    });
    Arc::new(SessionQuery {
        path: opened.map(|o| o.path.clone()),
        status,
        mcp: Some(smith_app::product::query::McpReach {
            app: Arc::clone(&server.app),
            resident,
        }),
    })
}

/// `commands.run`.
pub(crate) fn run(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let product = match product(server) {
        Ok(p) => p,
        Err(e) => return now(Err(e)),
    };
    let (layer, loadout) = &*product;
    let name = p.str("command").unwrap_or_default().trim_start_matches('/');
    let empty = Map::new();
    let arguments = match p.value("arguments") {
        Some(Value::Object(m)) => m,
        _ => &empty,
    };
    let invocation = match layer.parse_json(name, arguments) {
        Ok(i) => i,
        Err(e) => return now(Err(command_error(&e))),
    };
    let outcome = match invocation.outcome(loadout, Some(query(server, p))) {
        Ok(o) => o,
        Err(e) => return now(Err(ErrorObject::new(code::CONFIG, e.to_string()))),
    };
    match outcome {
        Outcome::Key(a) => now(Err(refused(format!(
            "/{name} is a terminal UI action (`{}`); it has no meaning over JSON-RPC",
            action_name(a)
        )))),
        Outcome::Picker(picker_kind) | Outcome::Verb(Verb::OpenPicker(picker_kind)) => {
            now(picker(server, picker_kind))
        }
        Outcome::Intents(intents) => {
            // A theme the client is asked to use must be one of the layer's.
            if let Some(Intent::SetTheme(name)) = intents
                .iter()
                .find(|i| matches!(i, Intent::SetTheme(n) if layer.theme_named(n).is_none()))
            {
                return now(Err(refused(format!(
                    "/{} asked for theme `{name}`, which is not one: known {}",
                    invocation.command.name,
                    layer
                        .themes
                        .iter()
                        .map(|t| t.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))));
            }
            now(Ok(json!({
                "intents": intents.iter().map(|i| intent_json(server, i)).collect::<Vec<_>>()
            })))
        }
        Outcome::Prompt { text, model } => {
            // Submitted as `session.submit` would be: the same checks, receipt and events.
            let Some(session) = p.str("session") else {
                return now(Err(ErrorObject {
                    code: INVALID_PARAMS,
                    message: format!(
                        "invalid params: /{name} submits a prompt to a session: give `session`"
                    ),
                    data: Some(json!({"field": "session"})),
                }));
            };
            let mut params = Map::new();
            params.insert("session".into(), Value::from(session));
            params.insert("input".into(), Value::from(text));
            // The command's own model first, else the one the request names.
            if let Some(m) = model.as_deref().or(p.str("model")) {
                params.insert("model".into(), Value::from(m));
            }
            for key in ["script", "dedup_key"] {
                if let Some(v) = p.str(key) {
                    params.insert(key.into(), Value::from(v));
                }
            }
            dispatch_declared(server, id, "session.submit", params)
        }
        Outcome::Verb(verb) => {
            let (method, params) = match mapped(server, &verb, p.str("session"), p.str("model")) {
                Ok(m) => m,
                Err(e) => return now(Err(e)),
            };
            dispatch_declared(server, id, method, params)
        }
    }
}

/// Carry out `method` with `params`, checked against its declaration, as if the client had
/// called it (its result and errors answer the request).
fn dispatch_declared(
    server: &Arc<Server>,
    id: Option<Value>,
    method: &str,
    params: Map<String, Value>,
) -> Answer {
    let Some(decl) = server.declared(method) else {
        return now(Err(ErrorObject::new(
            smith_render_jsonrpc::message::INTERNAL_ERROR,
            format!("a command maps to undeclared method `{method}`; this is a bug in smith rpc"),
        )));
    };
    let params = match Params::check(decl, params) {
        Ok(p) => p,
        Err(e) => return now(Err(e)),
    };
    server.dispatch(decl.name, id, params);
    Answer::Later
}
