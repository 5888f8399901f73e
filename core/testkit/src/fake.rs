//! An in-process provider that plays one planned list of events per request, keeps every
//! request it was sent and runs a hook inside each call (to abort or queue input while the
//! request is in flight, as a user would).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use smith::{Cancel, Provider, ProviderError, ProviderErrorKind, ProviderRequest, StreamEvent};

/// What a [`FakeProvider`] runs inside call `n` (1-based), with the run's cancellation.
pub type Hook = Box<dyn Fn(usize, &Cancel) + Send + Sync>;

/// Plays its plan, one list of events per request; a request past the plan gets an error
/// event.
pub struct FakeProvider {
    plan: Mutex<VecDeque<Vec<StreamEvent>>>,
    seen: Arc<Mutex<Vec<ProviderRequest>>>,
    hook: Option<Hook>,
}

impl FakeProvider {
    /// A provider playing `plan`; the requests it is sent are pushed to the returned list.
    pub fn new(plan: Vec<Vec<StreamEvent>>) -> (Self, Arc<Mutex<Vec<ProviderRequest>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let fake = Self {
            plan: Mutex::new(plan.into()),
            seen: Arc::clone(&seen),
            hook: None,
        };
        (fake, seen)
    }

    /// Run `hook` inside every call, before its events are played.
    #[must_use]
    pub fn with_hook(mut self, hook: Hook) -> Self {
        self.hook = Some(hook);
        self
    }
}

impl Provider for FakeProvider {
    fn id(&self) -> &str {
        "fake"
    }

    fn stream<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<smith::EventStream<'a>, ProviderError> {
        let call = {
            let mut seen = self
                .seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            seen.push(request.clone());
            seen.len()
        };
        if let Some(hook) = &self.hook {
            hook(call, cancel);
        }
        let events = self
            .plan
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop_front()
            .unwrap_or_else(|| {
                vec![StreamEvent::Error(ProviderError::new(
                    ProviderErrorKind::Other,
                    "no planned response left",
                ))]
            });
        Ok(Box::new(events.into_iter()))
    }
}

/// A text answer ending with `reason`.
pub fn answer(text: &str, reason: smith::StopReason) -> Vec<StreamEvent> {
    vec![
        StreamEvent::TextDelta { text: text.into() },
        StreamEvent::Stop { reason },
    ]
}

/// A refusal of class `kind` before any response event.
pub fn refused(kind: ProviderErrorKind, message: &str) -> Vec<StreamEvent> {
    vec![StreamEvent::Error(ProviderError::new(kind, message))]
}
