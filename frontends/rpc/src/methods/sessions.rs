//! The handlers of the session lifecycle: creating, opening, listing, forking and closing
//! sessions (`sessions.*`), and handing a command to the session's writer thread.

use super::*;

pub(super) fn store(server: &Server) -> Result<smith_app::SessionStore> {
    server.app.sessions().map_err(|e| errors::config(&e))
}

/// The directory a session's tools run in: the one it recorded, else the server's.
pub(super) fn run_dir(server: &Server, cwd: Option<&String>) -> PathBuf {
    cwd.map_or_else(|| server.cwd.clone(), PathBuf::from)
}

/// How this server words a program the user's policy refuses.
pub(super) fn refusal(refusal: &smith_app::ProcessRefusal) -> String {
    refusal.to_string()
}

pub(super) fn hold(server: &Arc<Server>, runner: Runner, cwd: Option<String>) -> Arc<Opened> {
    let opened = Arc::new(Opened {
        id: runner.id(),
        path: runner.path().to_owned(),
        cwd,
        held: Held::Writer(WriterHandle::start(server, runner)),
    });
    lock(&server.sessions).insert(opened.id, Arc::clone(&opened));
    opened
}

pub(super) fn open_error(e: OpenError) -> ErrorObject {
    match e {
        OpenError::Store(e) | OpenError::Create(smith_app::CreateError::Store(e)) => {
            errors::store(&e)
        }
        OpenError::NoHome(e) => errors::config(&e),
        other => ErrorObject::new(code::REFUSED, other.to_string()),
    }
}

pub(super) fn create(server: &Arc<Server>, p: &Params) -> Result<Value> {
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

pub(super) fn recorded_cwd(id: SessionId, path: &std::path::Path) -> Option<String> {
    inspect::summarize(id, path).ok()?.cwd
}

pub(super) fn open(server: &Arc<Server>, p: &Params) -> Result<Value> {
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
pub(super) fn interrupted_json(turn: &smith_app::InterruptedTurn) -> Value {
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

pub(super) fn list(server: &Server, p: &Params) -> Result<Value> {
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

pub(super) fn fork(server: &Arc<Server>, p: &Params) -> Result<Value> {
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
pub(super) fn to_writer(
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

pub(super) fn close(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
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
