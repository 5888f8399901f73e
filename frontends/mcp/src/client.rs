//! Requests this server sends the client, and what the client said it can do (MCP lifecycle:
//! the `capabilities` of `initialize`): form elicitation (`elicitation/create`) for the
//! questions a tool call asks, and the client's roots (`roots/list`), which may move the
//! directory tools run in to a trusted project.
//!
//! Each request gets an id of this server's own (`smith-N`), is written through the outbox,
//! and its response (read by the reading thread) settles it. A request whose call ended first
//! is withdrawn with `notifications/cancelled`; at shutdown every one is settled as unanswered.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc;

use serde_json::{Value, json};
use smith::{Answer, AskError, Question};
use smith_render_jsonrpc::{ErrorObject, Response};
use smith_render_mcp::elicit::{self, Reply};

use crate::server::{Server, lock};

/// What the client declared in `initialize`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Capabilities {
    /// It answers form elicitations (`elicitation: {}` or `{form: {}}`).
    pub(crate) elicitation: bool,
    /// It answers `roots/list`.
    pub(crate) roots: bool,
}

impl Capabilities {
    /// From the `capabilities` object of `initialize` params.
    pub(crate) fn of(capabilities: Option<&Value>) -> Self {
        let elicitation = capabilities
            .and_then(|c| c.get("elicitation"))
            .and_then(Value::as_object)
            // 2025-06-18: `{}`; 2025-11-25: `{}` means form, else `form` must be named.
            .is_some_and(|e| e.is_empty() || e.contains_key("form"));
        let roots = capabilities
            .and_then(|c| c.get("roots"))
            .is_some_and(Value::is_object);
        Self { elicitation, roots }
    }
}

/// What settles a request when its response comes (or never will: `Err`).
pub(crate) type Settle = Box<dyn FnOnce(Result<Value, ErrorObject>) + Send>;

/// A request sent to the client, waiting for its response.
pub(crate) struct Outgoing {
    /// The tool call it belongs to (its request id's JSON text), if any.
    owner: Option<String>,
    settle: Settle,
}

/// The requests waiting for the client, by id.
pub(crate) type Pending = HashMap<String, Outgoing>;

/// Who waits for a question's answer.
pub(crate) enum Asker {
    /// A tool call run by `tools/call`: its event's reply channel.
    Reply(mpsc::SyncSender<Result<Answer, AskError>>),
    /// A `smith_run` turn: the session's inbox, which holds the question as `request_id`.
    Inbox {
        inbox: smith_app::runner::Inbox,
        request_id: String,
    },
}

impl Asker {
    /// Give the answer, or why there is none.
    pub(crate) fn settle(self, outcome: Result<Answer, String>) {
        match (self, outcome) {
            (Self::Reply(reply), outcome) => {
                let _ = reply.send(outcome.map_err(AskError::Refused));
            }
            // The call may have ended meanwhile: then nothing waits, and nothing is owed.
            (Self::Inbox { inbox, request_id }, Ok(answer)) => {
                let _ = inbox.answer(&request_id, answer);
            }
            (Self::Inbox { inbox, request_id }, Err(why)) => {
                let _ = inbox.refuse(&request_id, &why);
            }
        }
    }
}

impl Server {
    /// Send request `method` with `params` to the client; `settle` gets its response. `owner`
    /// names the tool call it belongs to (see [`Server::withdraw`]).
    pub(crate) fn request(
        &self,
        method: &str,
        params: Value,
        owner: Option<String>,
        settle: Settle,
    ) {
        if self.shutting_down.load(Ordering::SeqCst) {
            return settle(Err(ErrorObject::new(
                smith_render_jsonrpc::message::INTERNAL_ERROR,
                "the server is shutting down",
            )));
        }
        let id = format!("smith-{}", self.next_request.fetch_add(1, Ordering::SeqCst));
        lock(&self.outgoing).insert(
            Value::from(id.as_str()).to_string(),
            Outgoing { owner, settle },
        );
        self.outbox
            .reply(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }

    /// A response from the client: it settles the request it answers (one this server no
    /// longer waits for is logged and dropped).
    pub(crate) fn response(&self, response: Response) {
        let waiting = lock(&self.outgoing).remove(&response.id.to_string());
        match waiting {
            Some(w) => (w.settle)(response.outcome),
            None => self.log(
                "debug",
                &format!(
                    "a response to {} was dropped: no request with that id waits",
                    response.id
                ),
            ),
        }
    }

    /// Tool call `owner` ended: its requests still waiting are withdrawn from the client
    /// (`notifications/cancelled`) and settled as unanswered.
    pub(crate) fn withdraw(&self, owner: &str) {
        let ended: Vec<(String, Outgoing)> = {
            let mut outgoing = lock(&self.outgoing);
            let ids: Vec<String> = outgoing
                .iter()
                .filter(|(_, o)| o.owner.as_deref() == Some(owner))
                .map(|(id, _)| id.clone())
                .collect();
            ids.into_iter()
                .filter_map(|id| outgoing.remove(&id).map(|o| (id, o)))
                .collect()
        };
        for (id, o) in ended {
            let id: Value = serde_json::from_str(&id).unwrap_or(Value::Null);
            self.notify(
                "notifications/cancelled",
                json!({"requestId": id, "reason": "the tool call that asked has ended"}),
            );
            (o.settle)(Err(ErrorObject::new(
                smith_render_jsonrpc::message::INTERNAL_ERROR,
                "withdrawn: the tool call ended",
            )));
        }
    }

    /// Shutdown: every request still waiting is settled as unanswered.
    pub(crate) fn settle_all(&self) {
        let all: Vec<Outgoing> = lock(&self.outgoing).drain().map(|(_, o)| o).collect();
        for o in all {
            (o.settle)(Err(ErrorObject::new(
                smith_render_jsonrpc::message::INTERNAL_ERROR,
                "the server shut down before the client answered",
            )));
        }
    }

    /// Put `question` to the user through the client, when it answers form elicitations;
    /// `asker` gets the answer or why there is none. Returns why, and the asker back, without
    /// asking when the question cannot be put (the client cannot elicit, or it is a secret).
    pub(crate) fn elicit(
        &self,
        question: &Question,
        owner: Option<String>,
        asker: Asker,
    ) -> Result<(), Box<(String, Asker)>> {
        if !self.capabilities().elicitation {
            return Err(Box::new((
                "the MCP client does not answer questions (it declared no form elicitation capability)".to_owned(),
                asker,
            )));
        }
        let params = match elicit::request(question) {
            Ok(p) => p,
            Err(why) => return Err(Box::new((why, asker))),
        };
        let question = question.clone();
        self.request(
            "elicitation/create",
            params,
            owner,
            Box::new(move |outcome| {
                let answered = match outcome {
                    Ok(result) => match elicit::reply(&question, &result) {
                        Ok(Reply::Answer(a)) => Ok(a),
                        Ok(Reply::Refused(why)) => Err(why),
                        Err(why) => Err(format!("the MCP client's answer does not fit: {why}")),
                    },
                    Err(e) => Err(format!("the MCP client did not answer: {}", e.message)),
                };
                asker.settle(answered);
            }),
        );
        Ok(())
    }

    /// Ask the client for its roots (when it has them): the first root that is a trusted
    /// project becomes the directory tools run in, unless the working directory is within a
    /// root already; an untrusted root is refused and logged.
    pub(crate) fn ask_roots(self: &std::sync::Arc<Self>) {
        if !self.capabilities().roots {
            return;
        }
        let server = std::sync::Arc::clone(self);
        self.request(
            "roots/list",
            json!({}),
            None,
            Box::new(move |outcome| match outcome {
                Ok(result) => server.take_roots(&result),
                Err(e) => server.log(
                    "warning",
                    &format!(
                        "the client's roots could not be read ({}); tools run in {}",
                        e.message,
                        server.cwd().display()
                    ),
                ),
            }),
        );
    }

    fn take_roots(&self, result: &Value) {
        let Some(listed) = result.get("roots").and_then(Value::as_array) else {
            self.log(
                "warning",
                &format!(
                    "the client's roots/list result has no `roots` array, so it was ignored; tools run in {}",
                    self.cwd().display()
                ),
            );
            return;
        };
        let mut roots = Vec::new();
        for entry in listed {
            let uri = entry.get("uri").and_then(Value::as_str).unwrap_or_default();
            match file_path(uri) {
                Ok(path) => roots.push(path),
                Err(why) => self.log(
                    "warning",
                    &format!("the client's root {uri:?} was refused: {why}"),
                ),
            }
        }
        let home = self
            .home
            .canonicalize()
            .unwrap_or_else(|_| self.home.clone());
        let within = |dir: &std::path::Path| {
            roots
                .iter()
                .any(|r| r.canonicalize().is_ok_and(|r| dir.starts_with(r)))
        };
        // No roots, or roots around the working directory: tools run there.
        if roots.is_empty() || within(&home) {
            self.move_to(home);
            return;
        }
        for root in &roots {
            match self.app.trusted_project(root) {
                Ok(Some(_)) if root.is_dir() => {
                    let dir = root.canonicalize().unwrap_or_else(|_| root.clone());
                    self.move_to(dir);
                    return;
                }
                Ok(_) => self.log(
                    "warning",
                    &format!(
                        "the client's root {} was refused: it is not a trusted project directory; trust it with `smith trust {}` to let a client select it",
                        root.display(),
                        root.display()
                    ),
                ),
                Err(e) => self.log(
                    "warning",
                    &format!("the client's root {} was refused: {e}", root.display()),
                ),
            }
        }
        self.move_to(home);
    }
}

/// The absolute path of a `file://` URI (percent-decoded; host empty or `localhost`).
///
/// # Errors
/// A sentence: another scheme, another host, or no absolute path.
fn file_path(uri: &str) -> Result<PathBuf, String> {
    let rest = uri
        .strip_prefix("file://")
        .ok_or("it is not a file:// URI (only local directories can be roots)")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return Err(
            "it names no absolute local path (file:///PATH, or file://localhost/PATH)".to_owned(),
        );
    }
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(path).collect();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes)
            .map(PathBuf::from)
            .map_err(|_| "its path is not UTF-8".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_and_capabilities() {
        assert_eq!(
            file_path("file:///tmp/a%20b"),
            Ok(PathBuf::from("/tmp/a b"))
        );
        assert_eq!(file_path("file://localhost/x"), Ok(PathBuf::from("/x")));
        assert!(file_path("https://x").is_err());
        assert!(file_path("file://host-name/x").is_err());
        assert!(file_path("file://").is_err());
        let c = Capabilities::of(Some(&json!({"elicitation": {}, "roots": {}})));
        assert!(c.elicitation && c.roots);
        let url_only = Capabilities::of(Some(&json!({"elicitation": {"url": {}}})));
        assert!(!url_only.elicitation && !url_only.roots);
        assert!(Capabilities::of(Some(&json!({"elicitation": {"form": {}}}))).elicitation);
    }
}
