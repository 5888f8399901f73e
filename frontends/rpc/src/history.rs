//! The working-tree history methods (`history.undo`, `history.redo`, `history.restore`,
//! `history.diff`; the undo/restore guide): the first three on the session's thread through
//! its writer, held like a submission; the diff read-only, on a worker.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use smith_app::history::Step;
use smith_render_jsonrpc::ErrorObject;

use crate::decl::code;
use crate::errors;
use crate::methods::now;
use crate::params::Params;
use crate::server::{Answer, Server};
use crate::work::Command;
use smith_app::Command as SessionCommand;

/// `history.undo`, `history.redo` and `history.restore`: held like a submission, so no work
/// starts while the tree is restored.
pub(crate) fn operate(server: &Arc<Server>, id: Option<Value>, method: &str, p: &Params) -> Answer {
    let snapshot_first = p.bool("snapshot_first").unwrap_or(false);
    let command = match method {
        "history.undo" => SessionCommand::Undo(Step {
            turn: p.bool("turn").unwrap_or(false),
            snapshot_first,
        }),
        "history.redo" => SessionCommand::Redo(Step {
            turn: false,
            snapshot_first,
        }),
        _ => SessionCommand::Restore {
            target: p.str("target").unwrap_or_default().to_owned(),
            snapshot_first,
        },
    };
    crate::methods::claimed(server, p, Command::Run { id, command })
}

/// `history.diff`: read-only, on a worker thread (it reads the session and snapshots the
/// tree when `to` is the tree as it is now).
pub(crate) fn diff(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let o = match server.opened(p) {
        Ok(o) => o,
        Err(e) => return now(Err(e)),
    };
    let (from, to) = (
        p.str("from").map(str::to_owned),
        p.str("to").map(str::to_owned),
    );
    if from.is_none() && to.is_some() {
        return now(Err(ErrorObject {
            code: smith_render_jsonrpc::message::INVALID_PARAMS,
            message: "invalid params: `to` needs `from` (the diff's start)".to_owned(),
            data: Some(json!({"field": "to"})),
        }));
    }
    // The session's project: where its runs run (its recorded directory, else the server's).
    let dir = o
        .cwd
        .as_ref()
        .map_or_else(|| server.cwd.clone(), PathBuf::from);
    let server2 = Arc::clone(server);
    server.spawn(move || {
        let result = server2
            .app
            .open_history(&dir)
            .and_then(|h| h.diff(&o.path, o.id, from.as_deref(), to.as_deref()))
            .map_err(|e| errors::history(&e))
            .and_then(|mut diff| {
                // Names are redacted before `stat` aligns them (the writer redacts the rest).
                if let Ok(secrets) = server2.app.secrets() {
                    let redactor = secrets.redactor.current();
                    for file in &mut diff.files {
                        file.path = redactor.redact(&file.path).into_owned();
                    }
                }
                let mut value = serde_json::to_value(&diff)
                    .map_err(|e| ErrorObject::new(code::STORAGE, e.to_string()))?;
                value["patch"] = Value::String(diff.unified());
                value["stat"] = Value::String(diff.stat_text());
                Ok(value)
            });
        server2.answer(id.as_ref(), result);
    });
    Answer::Later
}
