//! The handlers of every declared method ([`crate::decl::methods`]), dispatched by name.
//! Work and mutation go to the session's thread ([`crate::work`]); reads run here, each a
//! bounded read of the committed file; waits and searches run on threads of their own.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use smith::{Cancel, EntryId, SessionId};
use smith_app::Runner;
use smith_app::inspect::{self, EntryView, PageRequest, PageView, UsageView};
use smith_app::runner::target::{self, Access, OpenError, Target};
use smith_render_jsonrpc::ErrorObject;

use crate::decl::{self, PROTOCOL_VERSION, code};
use crate::errors;
use crate::params::Params;
use crate::server::{Answer, Held, Opened, Server, lock};
use crate::work::{Command, SubmitParams, WriterHandle};

mod catalog;
mod reading;
mod sessions;

use catalog::{config, docs_get, docs_search, tools};
pub(crate) use catalog::{models_json, plugins_json};
use reading::{entries, grep, receipt, receipts, request, usage};
use sessions::{close, create, fork, list, open, to_writer};

type Result<T> = std::result::Result<T, ErrorObject>;

pub(crate) fn now(result: Result<Value>) -> Answer {
    Answer::Now(result)
}

/// Handle `method` (already checked against its declaration).
pub(crate) fn handle(
    server: &Arc<Server>,
    method: &'static str,
    id: Option<Value>,
    p: Params,
) -> Answer {
    let refused_after_shutdown = matches!(
        method,
        "sessions.create"
            | "sessions.open"
            | "sessions.fork"
            | "session.submit"
            | "session.continue"
    );
    if refused_after_shutdown && server.shutting_down.load(Ordering::SeqCst) {
        return now(Err(errors::shutting_down()));
    }
    match method {
        "rpc.discover" => now(Ok(decl::openrpc())),
        "initialize" => now(initialize(&p)),
        "sessions.create" => now(create(server, &p)),
        "sessions.open" => now(open(server, &p)),
        "sessions.list" => now(list(server, &p)),
        "sessions.fork" => now(fork(server, &p)),
        "sessions.select" => to_writer(server, id, &p, |id| Command::Run {
            id,
            command: smith_app::Command::Select(EntryId(p.u64("entry").unwrap_or_default())),
        }),
        "sessions.close" => close(server, id, &p),
        "session.submit" => submit(server, id, &p),
        "session.continue" => claimed(
            server,
            &p,
            Command::Continue {
                id,
                params: crate::work::ContinueParams {
                    model: p.str("model").map(str::to_owned),
                    script: p.str("script").map(PathBuf::from),
                },
            },
        ),
        "session.abort" => now(abort(server, &p)),
        "session.wait" => wait(server, id, &p),
        "session.observe" => match server
            .opened(&p)
            .and_then(|o| crate::observe::start(server, id.as_ref(), &o, p.u64("from")))
        {
            Ok(()) => Answer::Later,
            Err(e) => now(Err(e)),
        },
        "session.unobserve" => now(unobserve(server, &p)),
        "session.entries" => now(entries(server, &p)),
        "session.grep" => grep(server, id, &p),
        "session.usage" => now(usage(server, &p)),
        "session.request" => now(request(server, &p)),
        "session.compact" => compact(server, id, &p),
        "session.edit" => match edits(&p) {
            Ok(edits) => to_writer(server, id, &p, |id| Command::Run {
                id,
                command: smith_app::Command::Edit(edits),
            }),
            Err(e) => now(Err(e)),
        },
        "session.set_permission_mode" => {
            let mode = p.str("mode").map(str::parse::<smith_app::PermissionMode>);
            match mode.transpose() {
                Ok(mode) => to_writer(server, id, &p, |id| Command::Run {
                    id,
                    command: smith_app::Command::SetPermissionMode(mode),
                }),
                Err(names) => now(Err(ErrorObject::new(
                    smith_render_jsonrpc::message::INVALID_PARAMS,
                    format!("`mode` must be {names}"),
                ))),
            }
        }
        "history.undo" | "history.redo" | "history.restore" => {
            crate::history::operate(server, id, method, &p)
        }
        "history.diff" => crate::history::diff(server, id, &p),
        "receipts.get" => now(receipt(server, &p)),
        "receipts.list" => now(receipts(server, &p)),
        "queue.steer" | "queue.follow_up" | "queue.list" | "queue.withdraw" | "queue.clear" => {
            crate::queue::call(server, id, method, p)
        }
        "request.respond" => now(crate::requests::respond(server, &p)),
        "requests.list" => now(crate::requests::list(server, &p)),
        "rpc.cancel" => now(cancel(server, &p)),
        "commands.list" => now(crate::commands::list(server)),
        "commands.run" => crate::commands::run(server, id, &p),
        "models.list" => now(models_json(server)),
        "tools.list" => now(tools(server)),
        "plugins.list" => now(plugins_json(server)),
        "config.show" => now(Ok(config(server))),
        "docs.search" => now(docs_search(&p)),
        "docs.get" => now(docs_get(&p)),
        other => now(Err(ErrorObject::new(
            smith_render_jsonrpc::message::INTERNAL_ERROR,
            format!("method `{other}` is declared but has no handler; this is a bug in smith rpc"),
        ))),
    }
}

fn initialize(p: &Params) -> Result<Value> {
    if let Some(wanted) = p.str("protocol_version") {
        let major = |v: &str| v.split('.').next().unwrap_or_default().to_owned();
        if major(wanted) != major(PROTOCOL_VERSION) {
            return Err(ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!(
                    "protocol version {wanted} is not served: this Smith speaks {PROTOCOL_VERSION}; use a client for {PROTOCOL_VERSION}, or the Smith your client was written for"
                ),
                data: Some(json!({"field": "protocol_version", "served": PROTOCOL_VERSION})),
            });
        }
    }
    Ok(json!({
        "protocol_version": PROTOCOL_VERSION,
        "server": {"name": "smith", "version": env!("CARGO_PKG_VERSION")},
        "capabilities": {
            "batches": false,
            "max_line_bytes": smith_render_jsonrpc::MAX_LINE_BYTES,
            "positions": true,
            "outbox_events": crate::server::OUTBOX_CAPACITY,
        },
    }))
}

fn submit(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let params = SubmitParams {
        input: p.str("input").unwrap_or_default().to_owned(),
        model: p.str("model").map(str::to_owned),
        dedup_key: p.str("dedup_key").map(str::to_owned),
        destination: p.u64("destination"),
        script: p.str("script").map(PathBuf::from),
    };
    claimed(server, p, Command::Submit { id, params })
}

fn compact(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let params = crate::work::CompactParams {
        instructions: p.str("instructions").map(str::to_owned),
        keep_tokens: p.u64("keep_tokens"),
        model: p.str("model").map(str::to_owned),
        script: p.str("script").map(PathBuf::from),
    };
    // Held like a submission: no work is admitted while the summary is written.
    claimed(server, p, Command::Compact { id, params })
}

/// Claim the session's writer for `command` (a submission or a compaction: one at a time, the
/// session's thread answers it later) and send it there; busy or shutting down, the answer now.
pub(crate) fn claimed(server: &Arc<Server>, p: &Params, command: Command) -> Answer {
    let result = server.opened(p).and_then(|o| {
        let w = o.writer()?;
        if !w.claim() {
            return Err(errors::busy(&o.id.to_string()));
        }
        if w.send(command) {
            Ok(())
        } else {
            w.shared.admitting.store(false, Ordering::SeqCst);
            Err(errors::shutting_down())
        }
    });
    match result {
        Ok(()) => Answer::Later,
        Err(e) => now(Err(e)),
    }
}

fn abort(server: &Arc<Server>, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let w = o.writer()?;
    let work = match p.u64("submission") {
        Some(s) => EntryId(s),
        None => (*lock(&w.shared.running)).ok_or_else(|| ErrorObject {
            code: code::STATE,
            message: format!(
                "no work is running in session {}; nothing was aborted",
                o.id
            ),
            data: None,
        })?,
    };
    let reason = p.str("reason").unwrap_or("aborted by the JSON-RPC client");
    w.inbox()?.abort(work, reason).map_err(|e| match e {
        smith_app::RunnerError::Store(e) => errors::store(&e),
        other => ErrorObject::new(code::STATE, other.to_string()),
    })?;
    Ok(json!({"aborted": work}))
}

fn key(id: &Value) -> String {
    id.to_string()
}

fn wait(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let opened = match server.opened(p) {
        Ok(o) => o,
        Err(e) => return now(Err(e)),
    };
    let submission = EntryId(p.u64("submission").unwrap_or_default());
    let cancel = Cancel::new();
    if let Some(id) = &id {
        lock(&server.pending).insert(key(id), cancel.clone());
    }
    let server2 = Arc::clone(server);
    server.spawn(move || {
        let result = inspect::wait_settled(
            &opened.path,
            opened.id,
            submission,
            &cancel,
            Duration::from_millis(20),
        )
        .map_err(|e| match e {
            inspect::WaitError::Cancelled => ErrorObject::new(code::CANCELLED, e.to_string()),
            inspect::WaitError::Unknown(_) => ErrorObject::new(code::NOT_FOUND, e.to_string()),
            inspect::WaitError::Store(e) => errors::store(&e),
            other => ErrorObject::new(code::STORAGE, other.to_string()),
        })
        .map(|r| serde_json::to_value(r).unwrap_or_default());
        if let Some(id) = &id {
            lock(&server2.pending).remove(&key(id));
        }
        server2.answer(id.as_ref(), result);
    });
    Answer::Later
}

fn cancel(server: &Server, p: &Params) -> Result<Value> {
    let wanted = p.value("id").map(key).unwrap_or_default();
    let cancelled = match lock(&server.pending).get(&wanted) {
        Some(c) => {
            c.cancel();
            true
        }
        None => false,
    };
    Ok(json!({"cancelled": cancelled}))
}

fn unobserve(server: &Server, p: &Params) -> Result<Value> {
    let sub = p.u64("subscription").unwrap_or_default();
    match lock(&server.observations).remove(&sub) {
        Some((_, stop)) => {
            stop.store(true, Ordering::SeqCst);
            Ok(json!({"ended": true}))
        }
        None => Err(ErrorObject::new(
            code::NOT_FOUND,
            format!(
                "there is no observation {sub} (it ended, or was never started); `session.observe` starts one"
            ),
        )),
    }
}

fn edits(p: &Params) -> Result<Vec<smith_store::EditOp>> {
    // Each item is checked here, and a bad one is named by its index.
    let entry_at = |field: String, v: &Value| match v.as_u64() {
        Some(id) if id >= 1 => Ok(EntryId(id)),
        _ => Err(ErrorObject::invalid_params(
            &field,
            "an entry id (an integer from 1)",
        )),
    };
    let mut edits = Vec::new();
    for (i, target) in p
        .value("omit")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        edits.push(smith_store::EditOp {
            target: entry_at(format!("omit[{i}]"), target)?,
            change: smith_store::EditChange::Omit,
        });
    }
    for (i, r) in p
        .value("replace")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(unknown) = r
            .as_object()
            .and_then(|o| o.keys().find(|k| *k != "entry" && *k != "text"))
        {
            return Err(ErrorObject::invalid_params(
                &format!("replace[{i}].{unknown}"),
                "absent: a replacement has only `entry` and `text`",
            ));
        }
        let target = entry_at(format!("replace[{i}].entry"), &r["entry"])?;
        let Some(text) = r["text"].as_str() else {
            return Err(ErrorObject::invalid_params(
                &format!("replace[{i}].text"),
                "a string: the text the model sees instead",
            ));
        };
        edits.push(smith_store::EditOp {
            target,
            change: smith_store::EditChange::Replace(text.to_owned()),
        });
    }
    if edits.is_empty() {
        return Err(ErrorObject::invalid_params(
            "omit",
            "a non-empty array (or `replace` given): an edit changes at least one entry",
        ));
    }
    Ok(edits)
}
