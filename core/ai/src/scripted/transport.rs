//! The scripted provider's transport: the provider plugin `scripted` is a codec like any
//! other, and this transport plays the script where the others go to the network, so the whole product
//! runs offline behind the same provider boundary.
//! A request's body is the provider-neutral request the codec encoded; the answer is the next
//! round of the script as JSON lines of stream events, written as the round plays (gates hold
//! the body open; cancellation ends it). A script with no round left answers 400 with the
//! reason.

use std::sync::Arc;

use smith::{Cancel, Provider, ProviderRequest};

use super::ScriptedProvider;
use crate::http::{
    Bounds, HttpRequest, HttpResponse, Outcome, Transport, TransportError, body_channel,
};

/// Plays a script for the `scripted` provider plugin.
#[derive(Debug)]
pub struct ScriptTransport {
    provider: Arc<ScriptedProvider>,
    bounds: Bounds,
    /// The threads playing rounds, with the cancellation of their request.
    players: std::sync::Mutex<Vec<(std::thread::JoinHandle<()>, Cancel)>>,
}

impl ScriptTransport {
    /// A transport playing `provider`'s script.
    pub fn new(provider: ScriptedProvider) -> Self {
        Self {
            provider: Arc::new(provider),
            bounds: Bounds::default(),
            players: std::sync::Mutex::new(Vec::new()),
        }
    }
}

impl Drop for ScriptTransport {
    /// Wait for the rounds that ended or were cancelled (a cancelled one stops at its next poll
    /// and removes its gate marker), so nothing of a finished run is left behind when the
    /// process exits; a round still held at a gate of a live request is left to its thread.
    fn drop(&mut self) {
        let players = std::mem::take(
            &mut *self
                .players
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for (player, cancel) in players {
            if player.is_finished() || cancel.is_cancelled() {
                let _ = player.join();
            }
        }
    }
}

fn respond(status: u16, bytes: Vec<u8>, cancel: &Cancel) -> HttpResponse {
    let (writer, body) = body_channel(Bounds::default(), cancel);
    writer.chunk(bytes);
    writer.end(Outcome::Complete);
    HttpResponse {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body,
    }
}

impl Transport for ScriptTransport {
    fn send(&self, request: HttpRequest, cancel: &Cancel) -> Result<HttpResponse, TransportError> {
        let parsed: ProviderRequest = match serde_json::from_slice(&request.body) {
            Ok(r) => r,
            Err(e) => {
                let body = serde_json::json!({"error": {"kind": "invalid_request", "message": format!("the scripted codec sent a body that is not a provider request: {e}")}});
                return Ok(respond(400, body.to_string().into_bytes(), cancel));
            }
        };
        let (writer, body) = body_channel(self.bounds, cancel);
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let provider = Arc::clone(&self.provider);
        let thread_cancel = cancel.clone();
        // The round plays on a thread so a gate holds the body open while the caller reads.
        let player = std::thread::Builder::new()
            .name("smith-script".into())
            .spawn(move || {
                let events = match provider.stream(&parsed, &thread_cancel) {
                    Ok(events) => {
                        let _ = started_tx.send(Ok(()));
                        events
                    }
                    Err(e) => {
                        let _ = started_tx.send(Err(e));
                        return;
                    }
                };
                for event in events {
                    let mut line = serde_json::to_vec(&event).unwrap_or_default();
                    line.push(b'\n');
                    if !writer.chunk(line) {
                        return;
                    }
                }
                writer.end(Outcome::Complete);
            })
            .map_err(|e| TransportError::Connect {
                url: "script".into(),
                why: format!("cannot start the script thread: {e}"),
            })?;
        {
            let mut players = self
                .players
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            players.retain(|(p, _)| !p.is_finished());
            players.push((player, cancel.clone()));
        }
        match started_rx.recv() {
            Ok(Ok(())) => Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "application/x-ndjson".into())],
                body,
            }),
            Ok(Err(e)) => {
                let body = serde_json::json!({"error": {"kind": e.kind, "message": e.message}});
                Ok(respond(400, body.to_string().into_bytes(), cancel))
            }
            Err(_) => Err(TransportError::Connect {
                url: "script".into(),
                why: "the script thread stopped before it answered".into(),
            }),
        }
    }
}
