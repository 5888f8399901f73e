//! Sessions as resources (spec: "sessions to resources"): `smith://session/ID` (the session's
//! summary and its first page of entries), `smith://session/ID/entries/CURSOR` (the page after
//! entry CURSOR), each in a JSON view (the entry records `smith sessions get --json` prints)
//! and, with `/text` appended, a text view (the lines `smith sessions get` prints); and
//! `smith://server/session` (the session this server records tool effects in). Pages are
//! bounded. Reads are read-only and take no lock; `resources/subscribe` follows a session's
//! file and sends `notifications/resources/updated` when it grows.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Map, Value, json};
use smith::SessionId;
use smith_app::inspect::{self, EntryView, PageRequest, PageView};
use smith_render_jsonrpc::ErrorObject;

use crate::server::{Server, invalid_params, lock};

/// MCP's "resource not found" error code.
const RESOURCE_NOT_FOUND: i64 = -32002;

/// Sessions per `resources/list` page; entries per resource page.
const LIST_PAGE: usize = 100;
const ENTRY_PAGE: usize = 100;

/// How often a subscribed session's file is looked at for new commits.
const POLL: Duration = Duration::from_millis(50);

const SERVER_SESSION: &str = "smith://server/session";

fn not_found(uri: &str, why: &str) -> ErrorObject {
    ErrorObject {
        code: RESOURCE_NOT_FOUND,
        message: format!("resource not found: {uri:?} {why}"),
        data: Some(json!({"uri": uri})),
    }
}

fn store(server: &Server) -> Result<smith_app::SessionStore, ErrorObject> {
    server.app.sessions().map_err(|e| {
        ErrorObject::new(
            smith_render_jsonrpc::message::INTERNAL_ERROR,
            format!("sessions cannot be found: {e}"),
        )
    })
}

/// `resources/list`: the sessions, newest first, [`LIST_PAGE`] at a time, after the server's
/// own.
pub(crate) fn list(server: &Server, params: &Map<String, Value>) -> Result<Value, ErrorObject> {
    let start = match params.get("cursor") {
        None => 0,
        Some(Value::String(c)) => c
            .parse::<usize>()
            .map_err(|_| invalid_params("cursor", "a cursor this server gave (`nextCursor`)"))?,
        Some(_) => return Err(invalid_params("cursor", "a string")),
    };
    let store = store(server)?;
    let mut all = store.list().map_err(|e| {
        ErrorObject::new(
            smith_render_jsonrpc::message::INTERNAL_ERROR,
            format!("cannot list {}: {e}", store.dir().display()),
        )
    })?;
    all.sort_by_key(|(id, _)| std::cmp::Reverse(id.created_ms()));
    let mut resources = Vec::new();
    if start == 0 {
        resources.push(json!({
            "uri": SERVER_SESSION,
            "name": "server-session",
            "title": "The session this server records tool effects in",
            "mimeType": "application/json",
        }));
    }
    for (id, path) in all.iter().skip(start).take(LIST_PAGE) {
        let title = inspect::summarize(*id, path).ok().and_then(|s| s.title);
        resources.push(json!({
            "uri": format!("smith://session/{id}"),
            "name": id.to_string(),
            "title": title.unwrap_or_else(|| "(no prompt yet)".to_owned()),
            "mimeType": "application/json",
        }));
    }
    let mut result = json!({"resources": resources});
    if start + LIST_PAGE < all.len() {
        result["nextCursor"] = json!((start + LIST_PAGE).to_string());
    }
    Ok(result)
}

/// `resources/templates/list`.
pub(crate) fn templates() -> Value {
    json!({"resourceTemplates": crate::decl::templates()})
}

/// What a URI names.
enum Target {
    ServerSession,
    Session {
        id: SessionId,
        path: PathBuf,
        cursor: Option<u64>,
        /// The text view (`…/text`) rather than JSON.
        text: bool,
    },
}

fn target(server: &Server, uri: &str) -> Result<Target, ErrorObject> {
    if uri == SERVER_SESSION {
        return Ok(Target::ServerSession);
    }
    let Some(rest) = uri.strip_prefix("smith://session/") else {
        return Err(not_found(
            uri,
            "is not a Smith resource: they are smith://session/ID, smith://session/ID/entries/CURSOR (each with /text for the text view) and smith://server/session",
        ));
    };
    let (rest, text) = match rest.strip_suffix("/text") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (wanted, cursor) = match rest.split_once("/entries/") {
        Some((id, cursor)) => {
            let cursor = cursor
                .parse::<u64>()
                .map_err(|_| not_found(uri, "has a cursor that is not an entry id (an integer)"))?;
            (id, (cursor > 0).then_some(cursor))
        }
        None => (rest, None),
    };
    let (path, id) = store(server)?
        .find(wanted)
        .map_err(|e| not_found(uri, &format!("names no session: {e}")))?;
    Ok(Target::Session {
        id,
        path,
        cursor,
        text,
    })
}

/// `resources/read`.
pub(crate) fn read(server: &Server, params: &Map<String, Value>) -> Result<Value, ErrorObject> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_params("uri", "a string"))?;
    let body = match target(server, uri)? {
        Target::ServerSession => match crate::tools::session_id(server) {
            Ok(id) => json!({"session": id, "uri": format!("smith://session/{id}")}),
            Err(why) => return Err(not_found(uri, &format!("cannot be opened: {why}"))),
        },
        Target::Session {
            id,
            path,
            cursor,
            text: true,
        } => {
            return Ok(json!({"contents": [{
                "uri": uri,
                "mimeType": "text/plain",
                "text": text_page(uri, id, &path, cursor)?,
            }]}));
        }
        Target::Session {
            id, path, cursor, ..
        } => {
            let request = PageRequest {
                limit: ENTRY_PAGE,
                cursor,
                branch: false,
            };
            let page = inspect::read_page(&path, id, request)
                .map_err(|e| not_found(uri, &format!("cannot be read: {e}")))?;
            let entries: Vec<Value> = page
                .entries
                .iter()
                .map(|e| serde_json::to_value(EntryView::new(id, e)).unwrap_or_default())
                .collect();
            let view = PageView::new(id, page.entries.len(), page.next_cursor, &page.state);
            let mut body = json!({"entries": entries, "page": view});
            if let Some(next) = page.next_cursor {
                body["next"] = json!(format!("smith://session/{id}/entries/{next}"));
            }
            if cursor.is_none() {
                body["session"] = inspect::summarize(id, &path)
                    .ok()
                    .and_then(|s| serde_json::to_value(s).ok())
                    .unwrap_or(Value::Null);
            }
            body
        }
    };
    Ok(json!({"contents": [{
        "uri": uri,
        "mimeType": "application/json",
        "text": body.to_string(),
    }]}))
}

/// The text view of the page of session `id` after entry `cursor`: a heading (on the first
/// page), one line per entry, and where the next page is.
fn text_page(
    uri: &str,
    id: SessionId,
    path: &std::path::Path,
    cursor: Option<u64>,
) -> Result<String, ErrorObject> {
    let request = PageRequest {
        limit: ENTRY_PAGE,
        cursor,
        branch: false,
    };
    let page = inspect::read_page(path, id, request)
        .map_err(|e| not_found(uri, &format!("cannot be read: {e}")))?;
    let mut out = String::new();
    if cursor.is_none()
        && let Ok(s) = inspect::summarize(id, path)
    {
        out.push_str(&format!(
            "session {id}: {}\n",
            s.title.as_deref().unwrap_or("(no prompt yet)")
        ));
        if let Some(cwd) = &s.cwd {
            out.push_str(&format!("in {cwd}\n"));
        }
        out.push('\n');
    }
    for entry in &page.entries {
        out.push_str(&inspect::entry_line(entry));
        out.push('\n');
    }
    if let Some(next) = page.next_cursor {
        out.push_str(&format!(
            "(more: smith://session/{id}/entries/{next}/text)\n"
        ));
    }
    Ok(out)
}

/// `resources/subscribe`: until unsubscribed, each commit to the session sends
/// `notifications/resources/updated` for `uri`.
pub(crate) fn subscribe(
    server: &Arc<Server>,
    params: &Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_params("uri", "a string"))?
        .to_owned();
    let (id, path) = match target(server, &uri)? {
        Target::Session { id, path, .. } => (id, path),
        Target::ServerSession => {
            let id = crate::tools::session_id(server)
                .map_err(|why| not_found(&uri, &format!("cannot be opened: {why}")))?;
            let (path, id) = store(server)?
                .find(&id.to_string())
                .map_err(|e| not_found(&uri, &e.to_string()))?;
            (id, path)
        }
    };
    let next = smith_store::SessionReader::open(&path)
        .map(|r| r.state().last_id + 1)
        .map_err(|e| not_found(&uri, &format!("cannot be read: {e}")))?;
    let mut follow = inspect::Follow::start(&path, id, Some(next))
        .map_err(|e| not_found(&uri, &format!("cannot be followed: {e}")))?;
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(old) = lock(&server.subscriptions).insert(uri.clone(), Arc::clone(&stop)) {
        old.store(true, Ordering::SeqCst);
    }
    let server2 = Arc::clone(server);
    server.spawn(move || {
        while !stop.load(Ordering::SeqCst) {
            let mut grew = false;
            let polled = follow.poll(&mut |_| {
                grew = true;
                ControlFlow::Continue(())
            });
            if grew {
                server2.notify("notifications/resources/updated", json!({"uri": uri}));
            }
            if polled.is_err() {
                break;
            }
            std::thread::sleep(POLL);
        }
    });
    Ok(json!({}))
}

/// `resources/unsubscribe`.
pub(crate) fn unsubscribe(
    server: &Server,
    params: &Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid_params("uri", "a string"))?;
    if let Some(stop) = lock(&server.subscriptions).remove(uri) {
        stop.store(true, Ordering::SeqCst);
    }
    Ok(json!({}))
}
