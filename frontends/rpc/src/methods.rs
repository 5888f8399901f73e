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

fn store(server: &Server) -> Result<smith_app::SessionStore> {
    server.app.sessions().map_err(|e| errors::config(&e))
}

/// The directory a session's tools run in: the one it recorded, else the server's.
fn run_dir(server: &Server, cwd: Option<&String>) -> PathBuf {
    cwd.map_or_else(|| server.cwd.clone(), PathBuf::from)
}

/// How this server words a program the user's policy refuses.
fn refusal(refusal: &smith_app::ProcessRefusal) -> String {
    refusal.to_string()
}

fn hold(server: &Arc<Server>, runner: Runner, cwd: Option<String>) -> Arc<Opened> {
    let opened = Arc::new(Opened {
        id: runner.id(),
        path: runner.path().to_owned(),
        cwd,
        held: Held::Writer(WriterHandle::start(server, runner)),
    });
    lock(&server.sessions).insert(opened.id, Arc::clone(&opened));
    opened
}

fn open_error(e: OpenError) -> ErrorObject {
    match e {
        OpenError::Store(e) | OpenError::Create(smith_app::CreateError::Store(e)) => {
            errors::store(&e)
        }
        OpenError::NoHome(e) => errors::config(&e),
        other => ErrorObject::new(code::REFUSED, other.to_string()),
    }
}

fn create(server: &Arc<Server>, p: &Params) -> Result<Value> {
    let cwd = p
        .str("cwd")
        .map(str::to_owned)
        .or_else(|| server.cwd.to_str().map(str::to_owned));
    if let Some(dir) = p.str("cwd")
        && !std::path::Path::new(dir).is_dir()
    {
        return Err(ErrorObject::invalid_params("cwd", "an existing directory"));
    }
    let id = match p.str("id") {
        Some(text) => Some(
            text.parse::<SessionId>()
                .map_err(|_| ErrorObject::invalid_params("id", "a UUID"))?,
        ),
        None => None,
    };
    let dir = run_dir(server, cwd.as_ref());
    let opened = target::create(Arc::clone(&server.app), id, &dir, refusal).map_err(open_error)?;
    Ok(hold(server, opened.runner, cwd).info())
}

fn recorded_cwd(id: SessionId, path: &std::path::Path) -> Option<String> {
    inspect::summarize(id, path).ok()?.cwd
}

fn open(server: &Arc<Server>, p: &Params) -> Result<Value> {
    let wanted = p.str("session").unwrap_or_default();
    let (path, id) = target::resolve(&server.app, &Target::named(wanted), &server.cwd)
        .map_err(|e| match e {
            OpenError::NoHome(e) => errors::config(&e),
            other => ErrorObject {
                code: code::NOT_FOUND,
                message: other.to_string(),
                data: Some(json!({"session": wanted})),
            },
        })?
        .ok_or_else(|| ErrorObject::new(code::NOT_FOUND, format!("no session {wanted:?}")))?;
    // Open already: as it is — unless this server only observes it, when opening again takes
    // the writer if the process that held it has let it go.
    let observed = match lock(&server.sessions).get(&id) {
        Some(opened) if matches!(opened.held, Held::Writer(_)) => return Ok(opened.info()),
        Some(opened) => Some(Arc::clone(opened)),
        None => None,
    };
    let cwd = recorded_cwd(id, &path);
    let wanted = Target::Existing {
        path: path.clone(),
        id,
    };
    let dir = run_dir(server, cwd.as_ref());
    match target::open_or_observe(Arc::clone(&server.app), &wanted, &dir, refusal)
        .map_err(open_error)?
    {
        Access::Writer(opened) => {
            let interrupted = opened.runner.interrupted().map(interrupted_json);
            let mut info = hold(server, opened.runner, cwd).info();
            if let Some(turn) = interrupted {
                info["interrupted"] = turn;
            }
            Ok(info)
        }
        Access::Observer { .. } if observed.is_some() => {
            Ok(observed.map(|o| o.info()).unwrap_or_default())
        }
        Access::Observer { .. } => {
            let opened = Arc::new(Opened {
                id,
                path,
                cwd,
                held: Held::Observer,
            });
            lock(&server.sessions).insert(id, Arc::clone(&opened));
            Ok(opened.info())
        }
    }
}

/// An interrupted turn as `sessions.open` reports it.
fn interrupted_json(turn: &smith_app::InterruptedTurn) -> Value {
    json!({
        "submission": turn.submission,
        "model": turn.model.to_string(),
        "input": turn.input,
        "rounds": turn.rounds,
        "calls_answered": turn.calls_answered,
        "calls_pending": turn.calls_pending,
        "unknown_effects": turn.unknown_effects,
    })
}

fn list(server: &Server, p: &Params) -> Result<Value> {
    let store = store(server)?;
    let limit = p.u64("limit").unwrap_or(100) as usize;
    let mut all = store.list().map_err(|e| {
        ErrorObject::new(
            code::STORAGE,
            format!(
                "cannot list the sessions directory {}: {e}; make it readable",
                store.dir().display()
            ),
        )
    })?;
    all.sort_by_key(|(id, _)| std::cmp::Reverse(id.created_ms()));
    let mut sessions = Vec::new();
    let mut more = false;
    for (id, path) in all {
        let Ok(summary) = inspect::summarize(id, &path) else {
            continue;
        };
        if let Some(cwd) = p.str("cwd")
            && summary.cwd.as_deref() != Some(cwd)
        {
            continue;
        }
        if sessions.len() == limit {
            more = true;
            break;
        }
        sessions.push(serde_json::to_value(summary).unwrap_or_default());
    }
    Ok(json!({"sessions": sessions, "more": more}))
}

fn fork(server: &Arc<Server>, p: &Params) -> Result<Value> {
    let store = store(server)?;
    let wanted = p.str("session").unwrap_or_default();
    let (path, id) = store
        .find(wanted)
        .map_err(|e| ErrorObject::new(code::NOT_FOUND, e.to_string()))?;
    let forked =
        target::fork(&store, &path, id, p.u64("at").map(EntryId)).map_err(|e| match e {
            e @ OpenError::Fork { .. } => ErrorObject {
                code: code::NOT_FOUND,
                message: e.to_string(),
                data: Some(json!({"field": "at"})),
            },
            other => open_error(other),
        })?;
    let cwd = recorded_cwd(forked.id, &forked.path);
    let wanted = Target::Existing {
        path: forked.path,
        id: forked.id,
    };
    let dir = run_dir(server, cwd.as_ref());
    let opened =
        target::open(Arc::clone(&server.app), &wanted, &dir, refusal).map_err(open_error)?;
    let mut info = hold(server, opened.runner, cwd).info();
    info["forked_from"] = json!({"session": id, "leaf": forked.leaf});
    Ok(info)
}

/// Send a command that needs the session idle to its thread.
fn to_writer(
    server: &Arc<Server>,
    id: Option<Value>,
    p: &Params,
    command: impl FnOnce(Option<Value>) -> Command,
) -> Answer {
    let result = server.opened(p).and_then(|o| {
        let w = o.writer()?;
        if w.busy() {
            return Err(errors::busy(&o.id.to_string()));
        }
        if w.send(command(id.clone())) {
            Ok(())
        } else {
            Err(errors::shutting_down())
        }
    });
    match result {
        Ok(()) => Answer::Later,
        Err(e) => now(Err(e)),
    }
}

fn close(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let opened = match server.opened(p) {
        Ok(o) => o,
        Err(e) => return now(Err(e)),
    };
    let ended: Vec<u64> = lock(&server.observations)
        .iter()
        .filter(|(_, (session, _))| *session == opened.id)
        .map(|(sub, (_, stop))| {
            stop.store(true, Ordering::SeqCst);
            *sub
        })
        .collect();
    for sub in ended {
        lock(&server.observations).remove(&sub);
        server.outbox.reply(smith_render_jsonrpc::notification(
            "session.observe_ended",
            json!({"subscription": sub, "reason": format!("session {} was closed", opened.id)}),
        ));
    }
    match &opened.held {
        Held::Observer => {
            lock(&server.sessions).remove(&opened.id);
            now(Ok(json!({"closed": true})))
        }
        Held::Writer(w) => {
            if w.busy() {
                return now(Err(errors::busy(&opened.id.to_string())));
            }
            lock(&server.sessions).remove(&opened.id);
            if w.send(Command::Close { id }) {
                Answer::Later
            } else {
                now(Ok(json!({"closed": true})))
            }
        }
    }
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

fn entries(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let request = PageRequest {
        limit: p.u64("limit").unwrap_or(100) as usize,
        cursor: p.u64("cursor"),
        branch: p.bool("branch").unwrap_or(false),
    };
    let page = inspect::read_page(&o.path, o.id, request).map_err(|e| match e {
        inspect::PageError::Store(e) => errors::store(&e),
        other => {
            let field = if matches!(other, inspect::PageError::Limit { .. }) {
                "limit"
            } else {
                "cursor"
            };
            ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `{field}`: {other}"),
                data: Some(json!({"field": field})),
            }
        }
    })?;
    let entries: Vec<Value> = page
        .entries
        .iter()
        .map(|e| serde_json::to_value(EntryView::new(o.id, e)).unwrap_or_default())
        .collect();
    let view = PageView::new(o.id, page.entries.len(), page.next_cursor, &page.state);
    Ok(json!({"entries": entries, "page": view}))
}

fn grep(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let o = match server.opened(p) {
        Ok(o) => o,
        Err(e) => return now(Err(e)),
    };
    let pattern = match inspect::Pattern::new(p.str("pattern").unwrap_or_default()) {
        Ok(pattern) => pattern,
        Err(e) => {
            return now(Err(ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `pattern` {e}"),
                data: Some(json!({"field": "pattern"})),
            }));
        }
    };
    let limit = p.u64("limit").unwrap_or(100) as usize;
    let server2 = Arc::clone(server);
    server.spawn(move || {
        let mut matches = Vec::new();
        let mut more = false;
        let result = inspect::grep_session(&o.path, o.id, &pattern, &mut |m| {
            if matches.len() == limit {
                more = true;
                return ControlFlow::Break(());
            }
            matches.push(serde_json::to_value(m).unwrap_or_default());
            ControlFlow::Continue(())
        })
        .map(|_| json!({"matches": matches, "more": more}))
        .map_err(|e| errors::store(&e));
        server2.answer(id.as_ref(), result);
    });
    Answer::Later
}

fn usage(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let mut reader = smith_store::SessionReader::open(&o.path).map_err(|e| errors::store(&e))?;
    let accounts = inspect::usage_of(&mut reader).map_err(|e| errors::store(&e))?;
    Ok(serde_json::to_value(UsageView {
        session: o.id,
        attempts: &accounts.attempts,
        total: &accounts.total,
        cost_usd: accounts.cost_usd,
    })
    .unwrap_or_default())
}

fn request(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let text = match p.value("attempt") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    let selector: inspect::AttemptSelector =
        text.parse()
            .map_err(|e: inspect::BadSelector| ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `attempt` {e}"),
                data: Some(json!({"field": "attempt"})),
            })?;
    let shown = inspect::read_request(&o.path, o.id, selector).map_err(|e| match e {
        inspect::RequestError::Store(e) => errors::store(&e),
        other => ErrorObject::new(code::NOT_FOUND, other.to_string()),
    })?;
    Ok(serde_json::to_value(shown.view()).unwrap_or_default())
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

fn receipt(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let submission = EntryId(p.u64("submission").unwrap_or_default());
    let all = inspect::receipts(&o.path, o.id).map_err(|e| errors::store(&e))?;
    let r = all
        .into_iter()
        .find(|r| r.submission == submission)
        .ok_or_else(|| ErrorObject {
            code: code::NOT_FOUND,
            message: format!(
                "submission {submission} is not in session {}; `receipts.list` lists them",
                o.id
            ),
            data: Some(json!({"submission": submission})),
        })?;
    Ok(serde_json::to_value(r).unwrap_or_default())
}

fn receipts(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let all = inspect::receipts(&o.path, o.id).map_err(|e| errors::store(&e))?;
    let views: Vec<Value> = all
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect();
    Ok(json!({"receipts": views}))
}

pub(crate) fn models_json(server: &Server) -> Result<Value> {
    let models = server.app.models().map_err(|e| errors::config(&e))?;
    let records: Vec<Value> = smith_app::catalog::model_records(&models, &server.app)
        .iter()
        .map(smith_app::catalog::ModelRecord::to_json)
        .collect();
    Ok(json!({"models": records}))
}

fn tools(server: &Server) -> Result<Value> {
    let tools =
        smith_app::catalog::tool_records(&server.app, Some(&server.cwd), &|r| r.to_string())
            .map_err(|e| errors::config(&e))?;
    Ok(json!({"tools": tools}))
}

pub(crate) fn plugins_json(server: &Server) -> Result<Value> {
    let process = server
        .app
        .policy(&server.cwd, &|r| r.to_string())
        .map_err(|e| errors::config(&e))?
        .process;
    let plugins: Vec<Value> = server
        .app
        .registry
        .plugins()
        .iter()
        .map(|k| smith_app::catalog::plugin_record(&server.app.registry, k, &process))
        .collect();
    Ok(json!({"plugins": plugins}))
}

fn config(server: &Server) -> Value {
    let resolved = &server.app.settings.resolved;
    let settings: Vec<Value> = smith_app::catalog::setting_keys(resolved)
        .iter()
        .map(|k| smith_app::catalog::setting_record(k, resolved))
        .collect();
    json!({"settings": settings})
}

fn docs() -> Result<std::sync::Arc<dyn smith_host::DocsSource>> {
    smith_app::docs::embedded().0.ok_or_else(|| {
        ErrorObject::new(code::NOT_FOUND, "this Smith has no documentation built in")
    })
}

fn docs_search(p: &Params) -> Result<Value> {
    let hits = docs()?
        .search(
            p.str("query").unwrap_or_default(),
            p.u64("limit").unwrap_or(10) as u32,
        )
        .map_err(|e| ErrorObject {
            code: smith_render_jsonrpc::message::INVALID_PARAMS,
            message: format!("invalid params: {e}"),
            data: Some(json!({"field": "query"})),
        })?;
    let hits: Vec<Value> = hits
        .iter()
        .map(|h| json!({"id": h.id, "title": h.title, "section": h.section, "line": h.line, "snippet": h.snippet}))
        .collect();
    Ok(json!({"hits": hits}))
}

fn docs_get(p: &Params) -> Result<Value> {
    let offset = p.u64("offset").unwrap_or(1).max(1) as u32;
    let limit = p
        .u64("limit")
        .unwrap_or(u64::from(u32::MAX))
        .min(u64::from(u32::MAX)) as u32;
    let page = docs()?
        .get(p.str("id").unwrap_or_default(), offset, limit)
        .map_err(|e| ErrorObject::new(code::NOT_FOUND, e))?;
    let shown = page.text.lines().count() as u32;
    Ok(json!({
        "id": page.id,
        "title": page.title,
        "text": page.text,
        "offset": page.offset,
        "total": page.total,
        "more": page.offset + shown <= page.total && page.offset.saturating_sub(1) + shown < page.total,
    }))
}
