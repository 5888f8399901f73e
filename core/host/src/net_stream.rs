//! Streamed responses of the `smith:plugin/net` import (`open` and the `response-stream`
//! resource, package 1.2.0): the request is checked, asked and recorded as `fetch`'s is
//! ([`crate::net_imports`]), the call returns at the response head, and the plugin reads the
//! body chunk by chunk. Each chunk is redacted as it passes — bytes that could be the start
//! of a secret are held back until the next chunk settles them — and the effect's completion
//! (status, headers, the first 1 MiB read, how the body ended) is recorded once: when the
//! body ends, when the plugin drops the stream, or when the call ends ([`end_all`]).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use smith::EffectOutcome;
use smith_ai::http::{Body, Outcome};
use wasmtime::component::Resource;

use crate::effects::{Done, EffectCall, Pending};
use crate::grants::Effect;
use crate::net_imports::{
    RECORDED_RESPONSE_BYTES, body_end, check, effect_input, millis, recorded_headers,
    redacted_headers,
};
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::net as wit;

/// The most streams open at once in one call.
pub(crate) const MAX_OPEN: usize = 8;

/// The most bytes one `next-chunk` returns when the plugin asks for 0 (any amount).
const DEFAULT_CHUNK: usize = 64 << 10;

/// The transport's own response bound, which also caps a stream's (64 MiB).
fn transport_bound() -> u64 {
    smith_ai::http::Bounds::default().max_response_bytes
}

/// One open streamed response: the `response-stream` resource's value.
pub(crate) struct OpenStream {
    /// The effect, until its completion is recorded.
    pending: Option<Pending>,
    status: u16,
    headers: Vec<(String, String)>,
    body: Body,
    redactor: Arc<smith_secrets::Redactor>,
    /// Bytes received that could still be the start of a secret.
    held: Vec<u8>,
    /// Redacted bytes not yet given to the plugin.
    ready: VecDeque<u8>,
    /// How the transport ended the body, once it has.
    ended: Option<Outcome>,
    /// Set once `next-chunk` has said the body is over.
    told_end: bool,
    /// Bytes given to the plugin, and the first of them as the completion records them.
    given: u64,
    recorded: Vec<u8>,
    began: Instant,
}

impl OpenStream {
    /// The next bytes for the plugin, at most `max` (0: up to 64 KiB); `None` once the body
    /// is over. Waits for the transport when nothing is ready.
    fn next(&mut self, max: u32) -> Option<Vec<u8>> {
        let max = match usize::try_from(max) {
            Ok(0) | Err(_) => DEFAULT_CHUNK,
            Ok(n) => n,
        };
        while self.ready.is_empty() && self.ended.is_none() {
            match self.body.next_chunk() {
                Some(bytes) => {
                    let out = self.redactor.push_piece_bytes(&mut self.held, &bytes);
                    self.ready.extend(out);
                }
                None => {
                    let outcome = self.body.outcome().cloned().unwrap_or(Outcome::Complete);
                    let held = std::mem::take(&mut self.held);
                    // A body cut at a bound may end in the first part of a secret.
                    let rest = match outcome {
                        Outcome::Complete => self.redactor.redact_bytes(&held).into_owned(),
                        _ => self.redactor.redact_cut_bytes(&held),
                    };
                    self.ready.extend(rest);
                    self.ended = Some(outcome);
                }
            }
        }
        if self.ready.is_empty() {
            self.told_end = true;
            return None;
        }
        let n = max.min(self.ready.len());
        let chunk: Vec<u8> = self.ready.drain(..n).collect();
        self.given += chunk.len() as u64;
        let room = RECORDED_RESPONSE_BYTES.saturating_sub(self.recorded.len());
        self.recorded
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        Some(chunk)
    }

    /// The completion of a stream: how it ended (`abandoned` when the plugin stopped
    /// reading first).
    fn done(&mut self) -> Done<(), wit::NetError> {
        let ended = match (&self.ended, self.told_end) {
            (Some(outcome), true) => body_end(outcome.clone()).1,
            _ => json!("abandoned"),
        };
        Done {
            // The server answered: the request reached it.
            outcome: EffectOutcome::Applied,
            result: Ok(()),
            output: std::mem::take(&mut self.recorded),
            evidence: json!({
                "status": self.status,
                "headers": recorded_headers(&self.headers),
                "body_bytes": self.given,
                "body_recorded_bytes": self.given.min(RECORDED_RESPONSE_BYTES as u64),
                "end": ended,
                "duration_ms": millis(self.began),
                "streamed": true,
            }),
        }
    }
}

/// `open`: check, record and ask as `fetch` does; send; return the stream at the head.
pub(crate) fn open(
    state: &mut State,
    request: wit::Request,
) -> Result<Resource<wit::ResponseStream>, wit::NetError> {
    let checked = check(&request, &state.call.plugin).map_err(wit::NetError::Invalid)?;
    if state.call.streams.len() >= MAX_OPEN {
        return Err(wit::NetError::Invalid(format!(
            "plugin {} has {MAX_OPEN} response streams open, the most one call may have; read one to its end or drop it before opening {}",
            state.call.plugin, checked.url
        )));
    }
    let began = Instant::now();
    let (mut input, refused) = effect_input(&state.call, &request, &checked);
    input["streamed"] = json!(true);
    let target = checked.url.to_string();
    let call = EffectCall {
        effect: Effect::NetFetch,
        target: &target,
        input,
        leaves_sandbox: false,
        refused,
    };
    let pending = state.call.begin::<wit::NetError>(call);
    let sent = pending.map(|pending| {
        let limit = match request.max_response_bytes {
            0 => transport_bound(),
            n => n.min(transport_bound()),
        };
        (state.call.send(&request, &checked, limit), pending)
    });
    let result =
        match sent {
            Err(e) => Err(e),
            Ok((Err(not), pending)) => state.call.finish::<(), _>(pending, not.into()).and(Err(
                wit::NetError::Unreachable("the request was not sent".to_owned()),
            )),
            Ok((Ok(response), pending)) => {
                let redactor = state.call.policy.secrets.current();
                let stream = OpenStream {
                    pending: Some(pending),
                    status: response.status,
                    headers: redacted_headers(&redactor, &response.headers),
                    body: response.body,
                    redactor,
                    held: Vec::new(),
                    ready: VecDeque::new(),
                    ended: None,
                    told_end: false,
                    given: 0,
                    recorded: Vec::new(),
                    began,
                };
                match state.table.push(stream) {
                    Ok(resource) => {
                        state.call.streams.push(resource.rep());
                        Ok(Resource::new_own(resource.rep()))
                    }
                    Err(e) => Err(wit::NetError::Invalid(format!(
                        "the host could not keep the response stream of {target}: {e}"
                    ))),
                }
            }
        };
    state.call.host_time += began.elapsed();
    result
}

/// Record the completion of the stream behind `rep`, if not yet recorded.
fn settle(state: &mut State, rep: u32, drop: bool) {
    let resource = Resource::<OpenStream>::new_own(rep);
    let pending = if drop {
        state.call.streams.retain(|r| *r != rep);
        state
            .table
            .delete(resource)
            .ok()
            .and_then(|mut s| s.pending.take().map(|p| (p, s.done())))
    } else {
        state
            .table
            .get_mut(&resource)
            .ok()
            .and_then(|s| s.pending.take().map(|p| (p, s.done())))
    };
    if let Some((pending, done)) = pending {
        state.call.streams.retain(|r| *r != rep);
        // A completion that cannot be recorded is terminal for the call (`finish` says so).
        let _ = state.call.finish(pending, done);
    }
}

/// Record the completion of every stream still open: the call has ended.
pub(crate) fn end_all(state: &mut State) {
    for rep in std::mem::take(&mut state.call.streams) {
        settle(state, rep, true);
    }
}

/// The stream behind `this`, or the error a stale handle gets.
fn stream<'s>(state: &'s mut State, this: &Resource<OpenStream>) -> Option<&'s mut OpenStream> {
    state.table.get_mut(this).ok()
}

/// The table's handle of the stream behind a WIT handle (the table keeps [`OpenStream`]s;
/// the bindings name the WIT resource type).
fn kept(this: &Resource<wit::ResponseStream>) -> Resource<OpenStream> {
    Resource::new_own(this.rep())
}

impl wit::HostResponseStream for State {
    fn status(&mut self, this: Resource<wit::ResponseStream>) -> u16 {
        stream(self, &kept(&this)).map_or(0, |s| s.status)
    }

    fn headers(&mut self, this: Resource<wit::ResponseStream>) -> Vec<(String, String)> {
        stream(self, &kept(&this)).map_or_else(Vec::new, |s| s.headers.clone())
    }

    fn next_chunk(
        &mut self,
        this: Resource<wit::ResponseStream>,
        max_bytes: u32,
    ) -> Option<Vec<u8>> {
        let began = Instant::now();
        let chunk = stream(self, &kept(&this)).and_then(|s| s.next(max_bytes));
        self.call.host_time += began.elapsed();
        if chunk.is_none() {
            settle(self, this.rep(), false);
        }
        chunk
    }

    fn end(&mut self, this: Resource<wit::ResponseStream>) -> Option<wit::BodyEnd> {
        let s = stream(self, &kept(&this))?;
        s.told_end
            .then(|| s.ended.clone().map(|o| body_end(o).0))
            .flatten()
    }

    fn drop(&mut self, this: Resource<wit::ResponseStream>) -> wasmtime::Result<()> {
        settle(self, this.rep(), true);
        Ok(())
    }
}
