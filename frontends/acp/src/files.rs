//! The client's files (ACP `fs/read_text_file`, `fs/write_text_file`): when the client
//! advertises them, each session keeps a [`smith::Editor`] whose reads and writes are these
//! requests, so the file tools read the editor's buffers (unsaved changes included) and what
//! they write reaches the editor as well as the disk (the host's file facility does both; the
//! history's snapshots read the disk).

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Weak};
use std::time::Duration;

use agent_client_protocol_schema::v1::{
    ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest,
};
use serde_json::Value;

use crate::server::{Server, lock, to_value};
use crate::sessions::Slot;

/// How often a wait for the client looks at the prompt's cancellation (it has no wake-up).
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// One session's way to the client's files.
pub(crate) struct ClientFiles {
    server: Weak<Server>,
    slot: Weak<Slot>,
}

impl ClientFiles {
    /// The editor of `slot` on `server`, when the client offers either method.
    pub(crate) fn editor(server: &Arc<Server>, slot: &Arc<Slot>) -> Option<smith::Editor> {
        let fs = lock(&server.client).fs.clone();
        (fs.read_text_file || fs.write_text_file).then(|| smith::Editor {
            files: Arc::new(Self {
                server: Arc::downgrade(server),
                slot: Arc::downgrade(slot),
            }),
            read: fs.read_text_file,
            write: fs.write_text_file,
        })
    }

    /// Send `method` with `params` and wait for the client's result, the prompt's
    /// cancellation, or the connection's end.
    fn ask(&self, method: &str, params: Value) -> Result<Value, String> {
        let server = self
            .server
            .upgrade()
            .ok_or("the editor's connection ended")?;
        let (tx, rx) = mpsc::sync_channel(1);
        server.request(
            method,
            params,
            Box::new(move |outcome| {
                let _ = tx.send(outcome);
            }),
        );
        drop(server);
        loop {
            match rx.recv_timeout(CANCEL_POLL) {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(e)) => {
                    // Its details too (the SDKs put the reason of an internal error there).
                    let details = match &e.data {
                        Some(Value::String(text)) => format!(" ({text})"),
                        Some(Value::Null) | None => String::new(),
                        Some(other) => format!(
                            " ({})",
                            other.to_string().chars().take(300).collect::<String>()
                        ),
                    };
                    return Err(format!(
                        "the editor answered {method} with an error: {}{details}",
                        e.message
                    ));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err("the editor's connection ended".to_owned());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let cancelled = self.slot.upgrade().is_none_or(|slot| {
                        lock(&slot.running)
                            .as_ref()
                            .is_some_and(smith::Cancel::is_cancelled)
                    });
                    if cancelled {
                        return Err(format!(
                            "the prompt was cancelled while {method} waited for the editor"
                        ));
                    }
                }
            }
        }
    }

    fn session(&self) -> Result<String, String> {
        self.slot
            .upgrade()
            .map(|s| s.id.to_string())
            .ok_or_else(|| "the session was closed".to_owned())
    }
}

impl smith::EditorFiles for ClientFiles {
    fn read(&self, path: &Path) -> Result<String, String> {
        let params =
            to_value(&ReadTextFileRequest::new(self.session()?, path)).map_err(|e| e.message)?;
        let answer = self.ask("fs/read_text_file", params)?;
        serde_json::from_value::<ReadTextFileResponse>(answer)
            .map(|r| r.content)
            .map_err(|e| format!("the editor's fs/read_text_file answer is malformed: {e}"))
    }

    fn write(&self, path: &Path, text: &str) -> Result<(), String> {
        let params = to_value(&WriteTextFileRequest::new(self.session()?, path, text))
            .map_err(|e| e.message)?;
        self.ask("fs/write_text_file", params).map(|_| ())
    }
}
