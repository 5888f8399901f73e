//! The streaming decoder shell every SSE + JSON provider codec shares: bytes in (any split),
//! [`sse`](crate::sse) events out, each event's `data` parsed as JSON and handed to the codec,
//! and exactly one terminal outcome — the codec's stop or error event, a malformed-stream
//! error, or the codec's verdict on a stream that ended early. After the terminal outcome
//! nothing more is read or emitted.
//!
//! A codec implements [`JsonEvents`] — what one event's JSON means, and what a stream that
//! ends without its terminal event means — and wraps it in [`JsonSse`], whose
//! [`push`](JsonSse::push) and [`finish`](JsonSse::finish) are the provider world's decoder.
//! [`Resource`] exports any [`Stream`] as the world's `decoder` resource:
//! `type Decoder = Resource<MyStream>;` in the codec's `Guest` impl.

use std::cell::RefCell;

use serde_json::Value;
use smith::{ProviderError, ProviderErrorKind, StreamEvent};

use crate::provider::GuestDecoder;
use crate::sse;

/// A response decoder: bytes in (any split), normalized events out, one terminal outcome.
pub trait Stream: Default + 'static {
    /// Feed response bytes; returns the events they complete.
    fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent>;
    /// The response ended; returns the remaining events.
    fn finish(&mut self) -> Vec<StreamEvent>;
}

/// The provider world's `decoder` resource around stream `S`: one per response, events
/// crossing the boundary as JSON text.
#[derive(Debug, Default)]
pub struct Resource<S>(RefCell<S>);

impl<S: Stream> GuestDecoder for Resource<S> {
    fn new() -> Self {
        Self(RefCell::new(S::default()))
    }

    fn push(&self, bytes: Vec<u8>) -> Result<Vec<String>, String> {
        Ok(crate::provider::events(self.0.borrow_mut().push(&bytes)))
    }

    fn finish(&self) -> Result<Vec<String>, String> {
        Ok(crate::provider::events(self.0.borrow_mut().finish()))
    }
}

impl<C: JsonEvents + Default + 'static> Stream for JsonSse<C> {
    fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        JsonSse::push(self, bytes)
    }

    fn finish(&mut self) -> Vec<StreamEvent> {
        JsonSse::finish(self)
    }
}

/// Whether the stream goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// More events may follow.
    Continue,
    /// The event ended the stream (its stop or error event was pushed).
    Done,
}

/// The codec-specific part of an SSE + JSON decoder.
pub trait JsonEvents {
    /// What a unit of the stream is called in messages (`event`, `chunk`).
    const UNIT: &'static str = "event";

    /// Handle one event: its `event:` name (`message` when absent) and its `data` parsed as
    /// JSON. Push the normalized events it completes into `out`.
    ///
    /// # Errors
    /// A description when the event is malformed (then the stream ends with a
    /// malformed-stream error saying so).
    fn event(
        &mut self,
        name: &str,
        json: Value,
        out: &mut Vec<StreamEvent>,
    ) -> Result<Next, String>;

    /// A `data` payload that is not JSON by design (e.g. `[DONE]`): `Some` handles it,
    /// `None` (the default) parses it as JSON like any other.
    fn sentinel(
        &mut self,
        _data: &str,
        _out: &mut Vec<StreamEvent>,
    ) -> Option<Result<Next, String>> {
        None
    }

    /// The bytes ended before a terminal event: push what ends the stream (e.g. a stop the
    /// codec can infer).
    ///
    /// # Errors
    /// A description of how the response was cut off (then the stream ends with a
    /// malformed-stream error saying so).
    fn end(&mut self, out: &mut Vec<StreamEvent>) -> Result<(), String>;
}

/// An SSE + JSON stream decoder around codec `C`.
#[derive(Debug, Default)]
pub struct JsonSse<C> {
    sse: sse::Parser,
    codec: C,
    done: bool,
}

/// A malformed-stream error event.
pub fn malformed(message: impl Into<String>) -> StreamEvent {
    StreamEvent::Error(ProviderError::new(ProviderErrorKind::Malformed, message))
}

impl<C: JsonEvents> JsonSse<C> {
    /// A decoder at the start of a response.
    pub fn new(codec: C) -> Self {
        Self {
            sse: sse::Parser::new(),
            codec,
            done: false,
        }
    }

    /// The codec.
    pub fn codec(&self) -> &C {
        &self.codec
    }

    /// The codec, to change (e.g. to decode a body that is not a stream).
    pub fn codec_mut(&mut self) -> &mut C {
        &mut self.codec
    }

    /// Whether the terminal outcome was emitted.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Feed response bytes; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        if self.done {
            return Vec::new();
        }
        let parsed = self.sse.push(bytes);
        self.parsed(parsed)
    }

    /// The events of `parsed`, then — unless one of them ended the stream — its malformed
    /// line as the stream's end.
    fn parsed(&mut self, parsed: sse::Parsed) -> Vec<StreamEvent> {
        let mut out = self.events(parsed.events);
        if let Some(e) = parsed.malformed
            && !self.done
        {
            out.extend(self.fail(e.0));
        }
        out
    }

    /// The response ended: the remaining events, then the codec's verdict when no terminal
    /// event came.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        if self.done {
            return Vec::new();
        }
        let parsed = self.sse.finish();
        let mut out = self.parsed(parsed);
        if !self.done {
            self.done = true;
            if let Err(message) = self.codec.end(&mut out) {
                out.push(malformed(message));
            }
        }
        out
    }

    fn fail(&mut self, message: impl Into<String>) -> Vec<StreamEvent> {
        self.done = true;
        vec![malformed(message)]
    }

    fn events(&mut self, list: Vec<sse::Event>) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        for event in list {
            if self.done {
                break;
            }
            let data = event.data.trim();
            if data.is_empty() {
                continue;
            }
            let next = match self.codec.sentinel(data, &mut out) {
                Some(next) => next,
                None => match serde_json::from_str::<Value>(data) {
                    Ok(json) => self.codec.event(&event.event, json, &mut out),
                    Err(e) => Err(format!("a stream {} is not JSON ({e})", C::UNIT)),
                },
            };
            match next {
                Ok(Next::Continue) => {}
                Ok(Next::Done) => self.done = true,
                Err(message) => {
                    self.done = true;
                    out.push(malformed(message));
                }
            }
        }
        out
    }
}
