//! The HTTP engine: the one transport every provider and every granted plugin network effect
//! uses (spec: Providers, models, and authentication → Network transport).
//!
//! Synchronous, on ureq with rustls and the webpki root certificates (no system TLS, no async
//! runtime). The request runs on a worker thread; the caller receives the response head and
//! then the body's chunks as they arrive over a bounded channel, so that:
//!
//! - a request body over [`Bounds::max_request_bytes`] (16 MiB) is refused before anything is
//!   sent;
//! - the head must arrive within [`Bounds::head_timeout`] (120 s);
//! - a gap of [`Bounds::gap_timeout`] (300 s) between body chunks ends the body as failed;
//! - the body stops at [`Bounds::max_response_bytes`] (64 MiB), ending as truncated;
//! - cancellation is observed while waiting for the head and at every chunk boundary, at once,
//!   never after a timeout runs out (the worker is abandoned and ends with its connection);
//! - every body ends with exactly one [`Outcome`]: complete, truncated, cancelled or failed;
//! - a non-2xx status is a response like any other, never a transport error.

use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use smith::Cancel;

// The engine itself (ureq, rustls, the webpki roots): behind the default `engine` feature, so
// what only parses (the fuzz targets) builds without the TLS stack.
#[cfg(feature = "engine")]
mod engine;
#[cfg(feature = "engine")]
pub use engine::{AddressCheck, HttpEngine};

/// The transport's bounds. [`Bounds::default`] is the spec's; tests shrink them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Largest request body sent, in bytes.
    pub max_request_bytes: usize,
    /// Largest response body delivered, in bytes; the rest is cut ([`Outcome::Truncated`]).
    pub max_response_bytes: u64,
    /// Longest wait from sending to the response head (connect, TLS, upload and head).
    pub head_timeout: Duration,
    /// Longest wait between two body chunks.
    pub gap_timeout: Duration,
    /// Chunks buffered between the worker and the caller before the worker waits.
    pub channel_chunks: usize,
}

impl Default for Bounds {
    /// 16 MiB requests, 64 MiB responses, 120 s to the head, 300 s between chunks, 32 chunks
    /// in flight.
    fn default() -> Self {
        Self {
            max_request_bytes: 16 << 20,
            max_response_bytes: 64 << 20,
            head_timeout: Duration::from_secs(120),
            gap_timeout: Duration::from_secs(300),
            channel_chunks: 32,
        }
    }
}

/// One request to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// `GET`, `POST`…
    pub method: String,
    /// The absolute URL (`http` or `https`).
    pub url: String,
    /// Header names and values, in order. They may hold credentials: never log them.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// Why a request got no response. Messages never include header values (credentials).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// The request body is over the bound; nothing was sent.
    #[error(
        "the request body is {bytes} bytes, over the {limit}-byte limit; nothing was sent — shorten the conversation (fewer or smaller tool results) and retry"
    )]
    RequestTooLarge {
        /// The body's size.
        bytes: usize,
        /// The bound.
        limit: usize,
    },
    /// The request cannot be built (bad URL, method or header).
    #[error("the request to {url} is malformed: {why}; check the provider's base URL")]
    BadRequest {
        /// The URL.
        url: String,
        /// What is wrong.
        why: String,
    },
    /// The server could not be reached or the connection failed before the head.
    #[error("cannot reach {url}: {why}; check the base URL and the network, then retry")]
    Connect {
        /// The URL.
        url: String,
        /// What failed.
        why: String,
    },
    /// No response head within the bound.
    #[error(
        "{url} sent no response within {timeout:?}; the server is overloaded or unreachable — retry later"
    )]
    HeadTimeout {
        /// The URL.
        url: String,
        /// The bound.
        timeout: Duration,
    },
    /// The host's address is one the engine's [`AddressCheck`] refuses (a plugin's network
    /// grant does not cover it); no connection was made.
    #[error("{url} was not requested: {why}")]
    Refused {
        /// The URL.
        url: String,
        /// Why the address is refused, naming the address and the grant.
        why: String,
    },
    /// The request was cancelled before the head arrived.
    #[error("the request was cancelled before the server answered")]
    Cancelled,
}

/// How a response body ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The server ended the body normally.
    Complete,
    /// The body reached the response bound and was cut there.
    Truncated {
        /// The bound, in bytes.
        limit: u64,
    },
    /// The caller cancelled while the body was arriving.
    Cancelled,
    /// The body broke off: connection reset, malformed chunking, a body shorter than its
    /// declared length, or a gap between chunks over the bound.
    Failed(String),
}

/// A response: its status and headers, and its body as it arrives.
#[derive(Debug)]
pub struct HttpResponse {
    /// The status code (any: non-2xx statuses are responses).
    pub status: u16,
    /// Header names (lowercase) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Body,
}

/// A response body: chunks in arrival order, then one [`Outcome`].
#[derive(Debug)]
pub struct Body {
    rx: Receiver<Msg>,
    cancel: Cancel,
    gap: Duration,
    outcome: Option<Outcome>,
}

/// What a body's channel carries: the response head (the engine's only), chunks, one end.
#[derive(Debug)]
enum Msg {
    #[cfg_attr(not(feature = "engine"), allow(dead_code))]
    Head(Result<(u16, Vec<(String, String)>), TransportError>),
    Chunk(Vec<u8>),
    End(Outcome),
}

/// How often a wait looks at the cancellation flag.
const CANCEL_POLL: Duration = Duration::from_millis(5);

/// Wait for the next message, observing `cancel` and giving up after `timeout`.
enum Waited {
    Msg(Msg),
    Cancelled,
    TimedOut,
    Gone,
}

fn wait(rx: &Receiver<Msg>, cancel: &Cancel, timeout: Duration) -> Waited {
    let deadline = Instant::now() + timeout;
    loop {
        if cancel.is_cancelled() {
            return Waited::Cancelled;
        }
        let now = Instant::now();
        if now >= deadline {
            return Waited::TimedOut;
        }
        match rx.recv_timeout(CANCEL_POLL.min(deadline - now)) {
            Ok(msg) => return Waited::Msg(msg),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Waited::Gone,
        }
    }
}

impl Body {
    /// The next chunk, in arrival order; `None` once the body has ended — then
    /// [`Body::outcome`] says how. Blocks at most the gap bound, and returns at once on
    /// cancellation.
    pub fn next_chunk(&mut self) -> Option<Vec<u8>> {
        if self.outcome.is_some() {
            return None;
        }
        let ended = match wait(&self.rx, &self.cancel, self.gap) {
            Waited::Msg(Msg::Chunk(bytes)) => return Some(bytes),
            Waited::Msg(Msg::End(outcome)) => outcome,
            Waited::Msg(Msg::Head(_)) => Outcome::Failed("the transport sent a second head".into()),
            Waited::Cancelled => Outcome::Cancelled,
            Waited::TimedOut => Outcome::Failed(format!(
                "no body bytes arrived for {:?}, the limit between chunks; the response was cut off",
                self.gap
            )),
            Waited::Gone => Outcome::Failed("the transport stopped without ending the body".into()),
        };
        self.outcome = Some(ended);
        None
    }

    /// How the body ended, once [`Body::next_chunk`] has returned `None`.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Read the whole body (up to the bounds) and its outcome.
    pub fn read_all(mut self) -> (Vec<u8>, Outcome) {
        let mut all = Vec::new();
        while let Some(chunk) = self.next_chunk() {
            all.extend_from_slice(&chunk);
        }
        let outcome = self.outcome.take().unwrap_or(Outcome::Complete);
        (all, outcome)
    }
}

/// Where a provider plugin's requests go: the [`HttpEngine`], or a transport that produces the
/// response bytes another way (the scripted provider's script). Implementations answer with a
/// head and a [`Body`] ending in one [`Outcome`], observing `cancel`.
pub trait Transport: Send + Sync {
    /// Send `request` and return the response head and body.
    ///
    /// # Errors
    /// [`TransportError`] when there is no response.
    fn send(&self, request: HttpRequest, cancel: &Cancel) -> Result<HttpResponse, TransportError>;

    /// The largest request body it sends, in bytes (a larger one is refused before send);
    /// callers bound what they build by it. Default: [`Bounds::default`]'s 16 MiB.
    fn max_request_bytes(&self) -> usize {
        Bounds::default().max_request_bytes
    }
}

/// The writing end of a [`Body`] made by [`body_channel`]: chunks in order, then one end.
#[derive(Debug)]
pub struct BodyWriter {
    tx: SyncSender<Msg>,
}

impl BodyWriter {
    /// Deliver `bytes`; `false` once the reader is gone (stop writing).
    pub fn chunk(&self, bytes: Vec<u8>) -> bool {
        self.tx.send(Msg::Chunk(bytes)).is_ok()
    }

    /// End the body with `outcome`.
    pub fn end(self, outcome: Outcome) {
        let _ = self.tx.send(Msg::End(outcome));
    }
}

/// A body fed by another transport: the writer's chunks arrive through a channel of
/// `bounds.channel_chunks`, with the same gap bound and cancellation as an HTTP body. A writer
/// dropped without [`BodyWriter::end`] ends the body as failed.
pub fn body_channel(bounds: Bounds, cancel: &Cancel) -> (BodyWriter, Body) {
    let (tx, rx) = sync_channel(bounds.channel_chunks.max(1));
    (
        BodyWriter { tx },
        Body {
            rx,
            cancel: cancel.clone(),
            gap: bounds.gap_timeout,
            outcome: None,
        },
    )
}
