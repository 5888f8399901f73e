//! The UI-intent vocabulary.
//!
//! The core runtime never prints: it emits a typed stream of [`Intent`]s into an
//! [`IntentSink`], and renderers (one per frontend) turn them into output. Every
//! [`IntentKind`] declares statically, in one table, its [`Durability`], its [`Degradation`]
//! rule for a frontend that cannot show it, and its [`Backpressure`] rule for a bounded stream
//! ([`IntentQueue`]) — spec: User interface abstraction; Sessions → Observation. [`deliver`]
//! applies the degradation law between an intent and a [`Renderer`]. Plugins never ask which
//! frontend is active.
//!
//! This crate must not depend on terminal, rendering or vendor crates; intents carry meaning,
//! never geometry or colour.

mod deliver;
mod examples;
mod intent;
mod kind;
mod queue;
mod redact;
mod reference;

pub use deliver::{Delivery, Renderer, deliver};
pub use examples::{EXAMPLE_SESSION, examples};
pub use intent::{Access, DeltaKind, Intent, NoticeLevel, ReceiptStatus};
pub use kind::{Backpressure, Degradation, Durability, IntentKind};
pub use queue::{IntentQueue, Pushed, QueueStats, ResumePoints};
pub use redact::{RedactingSink, redact_intent};
pub use reference::reference_markdown;

/// Where the runtime sends intents, in emission order. Emitting never fails from the
/// runtime's point of view: the sink reports what became of the intent (a request may come
/// back [`Delivery::Refused`]), and a sink whose output went away records that and lets its
/// owner cancel the work.
pub trait IntentSink {
    /// Receive one intent.
    fn emit(&mut self, intent: Intent) -> Delivery;
}

impl<F: FnMut(Intent)> IntentSink for F {
    /// A closure sink shows everything it is given.
    fn emit(&mut self, intent: Intent) -> Delivery {
        self(intent);
        Delivery::Shown
    }
}
