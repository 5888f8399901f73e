//! The queue methods (`queue.steer`, `queue.follow_up`, `queue.list`, `queue.withdraw`,
//! `queue.clear`), in the order the client sent them: while the session's model is being
//! prepared (the queue policy comes with it), or while an earlier queue call waits its turn,
//! a call goes to the session's thread behind the commands sent before it; otherwise it is
//! served at once on the reading thread.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use smith::{Delivery, EntryId};
use smith_app::RunnerError;
use smith_app::runner::QueueInput;
use smith_render_jsonrpc::ErrorObject;

use crate::decl::code;
use crate::errors;
use crate::params::Params;
use crate::server::{Answer, Server};
use crate::work::Command;

type Result<T> = std::result::Result<T, ErrorObject>;

/// Handle queue method `method`.
pub(crate) fn call(
    server: &Arc<Server>,
    id: Option<Value>,
    method: &'static str,
    p: Params,
) -> Answer {
    let opened = match server.opened(&p) {
        Ok(o) => o,
        Err(e) => return Answer::Now(Err(e)),
    };
    let w = match opened.writer() {
        Ok(w) => w,
        // An observer may list the queue (from the file); every other queue call mutates.
        Err(_) if method == "queue.list" => return Answer::Now(queued(server, &p)),
        Err(e) => return Answer::Now(Err(e)),
    };
    let queuing = matches!(method, "queue.steer" | "queue.follow_up");
    let defer = !w.prepared()
        || w.shared.deferred.load(Ordering::SeqCst) > 0
        || (queuing && p.str("model").is_some() && w.unprepared());
    if !defer {
        return Answer::Now(run(server, method, &p));
    }
    w.shared.deferred.fetch_add(1, Ordering::SeqCst);
    if !w.send(Command::Queue {
        id: id.clone(),
        method,
        params: p,
    }) {
        w.shared.deferred.fetch_sub(1, Ordering::SeqCst);
        return Answer::Now(Err(errors::shutting_down()));
    }
    Answer::Later
}

/// Serve queue method `method` now.
pub(crate) fn run(server: &Server, method: &str, p: &Params) -> Result<Value> {
    match method {
        "queue.steer" => enqueue(server, p, Delivery::Steer),
        "queue.follow_up" => enqueue(server, p, Delivery::FollowUp),
        "queue.list" => queued(server, p),
        "queue.withdraw" => withdraw(server, p),
        _ => clear(server, p),
    }
}

/// The selection `model` names, checked against the catalog (as a submission's is).
pub(crate) fn selection(server: &Server, m: &str) -> Result<smith::Selection> {
    let selection: smith::Selection = m.parse().map_err(|e: smith::ModelRefError| ErrorObject {
        code: code::CONFIG,
        message: format!("`model` {m:?} is not a model reference, alias or group: {e}; `models.list` lists the models"),
        data: Some(json!({"field": "model"})),
    })?;
    let models = server.app.models().map_err(|e| errors::config(&e))?;
    let targets = smith_app::route::targets(&models, &selection).map_err(|e| ErrorObject {
        code: code::CONFIG,
        message: format!("`model` {m:?} cannot be used: {e}; `models.list` lists the models"),
        data: Some(json!({"field": "model"})),
    })?;
    let known = server.app.registry.provider_ids();
    if let Some(t) = targets.iter().find(|t| !known.contains(&t.model.provider)) {
        return Err(ErrorObject {
            code: code::CONFIG,
            message: format!(
                "`model` {m:?} cannot be used: unknown provider `{}` (known providers: {}); `models.list` lists the models",
                t.model.provider,
                known.join(", ")
            ),
            data: Some(json!({"field": "model"})),
        });
    }
    Ok(selection)
}

fn enqueue(server: &Server, p: &Params, delivery: Delivery) -> Result<Value> {
    let o = server.opened(p)?;
    let w = o.writer()?;
    let inbox = w.queuing_inbox()?;
    let model: smith::Selection = match p.str("model") {
        Some(m) => selection(server, m)?,
        None => server
            .app
            .selection()
            .or_else(|e| {
                smith_app::inspect::recorded_selection(&o.path)
                    .ok()
                    .flatten()
                    .ok_or(e)
            })
            .map_err(|e| errors::config(&e))?,
    };
    let queued = inbox
        .queue(QueueInput {
            model: &model,
            input: p.str("input").unwrap_or_default(),
            delivery,
            dedup_key: p.str("dedup_key"),
        })
        .map_err(|e| errors::runner(&e))?;
    Ok(json!({"submission": queued.submission, "deduplicated": queued.deduplicated}))
}

fn queued(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    // An observer lists the queue as the committed file shows it: input admitted as queued
    // and neither delivered nor withdrawn yet.
    let Ok(writer) = o.writer() else {
        return queued_in_file(&o.path, o.id);
    };
    let inbox = writer.inbox()?;
    let queued: Vec<Value> = inbox
        .queued()
        .iter()
        .map(|q| json!({"submission": q.submission, "delivery": q.delivery, "input": q.input}))
        .collect();
    Ok(json!({"queued": queued}))
}

/// The queue of session `id` at `path` as committed: each queued receipt, with its input.
fn queued_in_file(path: &std::path::Path, id: smith::SessionId) -> Result<Value> {
    let queued = smith_app::inspect::queued(path, id).map_err(|e| errors::store(&e))?;
    Ok(json!({"queued": queued}))
}

fn withdraw(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let inbox = o.writer()?.inbox()?;
    let submission = EntryId(p.u64("submission").unwrap_or_default());
    inbox
        .withdraw(
            submission,
            p.str("reason")
                .unwrap_or("withdrawn by the JSON-RPC client"),
        )
        .map_err(|e| match e {
            RunnerError::Store(e) => errors::store(&e),
            other => ErrorObject::new(code::STATE, other.to_string()),
        })?;
    Ok(json!({"withdrawn": submission}))
}

fn clear(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let inbox = o.writer()?.inbox()?;
    let reason = p.str("reason").unwrap_or("cleared by the JSON-RPC client");
    let mut withdrawn = Vec::new();
    for q in inbox.queued() {
        match inbox.withdraw(q.submission, reason) {
            Ok(()) => withdrawn.push(q.submission),
            // Delivered meanwhile: it is no longer queued.
            Err(RunnerError::NotQueued { .. }) => {}
            Err(RunnerError::Store(e)) => return Err(errors::store(&e)),
            Err(other) => return Err(ErrorObject::new(code::STATE, other.to_string())),
        }
    }
    Ok(json!({"withdrawn": withdrawn}))
}
