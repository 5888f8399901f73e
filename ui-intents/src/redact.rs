//! Redaction of everything a frontend shows (spec: the secret proxy; issue "The secret proxy":
//! every frontend output shows references, never plaintext). [`RedactingSink`] sits between the
//! runtime and a frontend's sink: each intent's strings and object keys are redacted, and
//! streamed deltas are redacted across chunk boundaries (a secret split over two deltas is
//! still replaced; only what could be the start of one is held back, until the next delta or
//! the message's end).

use smith_secrets::{Redactor, Shared};
use std::collections::HashMap;

use crate::{Delivery, DeltaKind, Intent, IntentSink};

/// Redacts every intent before `inner` sees it. With no secrets it passes intents through
/// untouched.
pub struct RedactingSink<'s> {
    inner: &'s mut dyn IntentSink,
    redactor: Shared,
    /// What each message's stream holds back, by message and delta kind.
    held: HashMap<(u64, DeltaKind), String>,
}

impl<'s> RedactingSink<'s> {
    /// Wrap `inner`.
    pub fn new(inner: &'s mut dyn IntentSink, redactor: Shared) -> Self {
        Self {
            inner,
            redactor,
            held: HashMap::new(),
        }
    }

    /// Emit what the streams of `message_id` still hold.
    fn flush(&mut self, message_id: u64) {
        self.flush_except(message_id, (u64::MAX, DeltaKind::Text));
    }

    /// Emit what the streams of `message_id` other than `keep` still hold.
    fn flush_except(&mut self, message_id: u64, keep: (u64, DeltaKind)) {
        let mut keys: Vec<(u64, DeltaKind)> = self
            .held
            .keys()
            .filter(|key| key.0 == message_id && **key != keep)
            .copied()
            .collect();
        keys.sort_by_key(|(_, k)| *k == DeltaKind::Text);
        for key in keys {
            if let Some(held) = self.held.remove(&key) {
                let text = self.redactor.current().redact(&held).into_owned();
                if !text.is_empty() {
                    self.inner.emit(Intent::MessageDelta {
                        message_id,
                        kind: key.1,
                        text,
                    });
                }
            }
        }
    }
}

/// `intent` with every string and object key redacted; `None` when a redacted value no longer
/// fits its field (a secret inside a typed value): the intent is then withheld, never shown
/// with the plaintext.
pub fn redact_intent(redactor: &Redactor, intent: Intent) -> Option<Intent> {
    let Ok(mut value) = serde_json::to_value(&intent) else {
        return None;
    };
    if !redactor.redact_json(&mut value) {
        return Some(intent);
    }
    serde_json::from_value(value).ok()
}

impl IntentSink for RedactingSink<'_> {
    fn emit(&mut self, intent: Intent) -> Delivery {
        let redactor = self.redactor.current();
        if redactor.is_empty() && self.held.is_empty() {
            return self.inner.emit(intent);
        }
        match intent {
            Intent::MessageDelta {
                message_id,
                kind,
                text,
            } => {
                // Another stream's held tail goes out first, so what is shown keeps the order
                // it arrived in (a secret cannot run on across two streams).
                let others: Vec<u64> = self
                    .held
                    .iter()
                    .filter(|(key, held)| **key != (message_id, kind) && !held.is_empty())
                    .map(|(key, _)| key.0)
                    .collect();
                for other in others {
                    self.flush_except(other, (message_id, kind));
                }
                let held = self.held.entry((message_id, kind)).or_default();
                let ready = redactor.push_piece(held, &text);
                if ready.is_empty() {
                    return Delivery::Shown;
                }
                self.inner.emit(Intent::MessageDelta {
                    message_id,
                    kind,
                    text: ready,
                })
            }
            other => {
                if let Intent::MessageEnd { message_id, .. } = &other {
                    self.flush(*message_id);
                }
                match redact_intent(&redactor, other) {
                    Some(intent) => self.inner.emit(intent),
                    None => Delivery::Dropped,
                }
            }
        }
    }
}
