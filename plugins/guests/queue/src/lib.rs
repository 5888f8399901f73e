//! The bundled queue delivery policy (Smith spec: Agent behavior — "delivers queued input at
//! defined lifecycle events; queue policies are plugin contributions").
//!
//! - Between two tool calls of a batch, while steering input waits: skip the batch's remaining
//!   calls (each gets an explicit "skipped" result from the host).
//! - Once the batch is complete (`batch-end`): deliver every steering input, in queue order.
//! - When the work would stop (`idle`): deliver everything queued, in queue order — steering
//!   input first, as it was meant to arrive sooner, then follow-up input.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Delivery, Guest, LifecycleEvent, QueuedInput};

struct Queue;

fn steering(queued: &[QueuedInput]) -> impl Iterator<Item = &QueuedInput> {
    queued.iter().filter(|q| q.delivery == Delivery::Steer)
}

impl Guest for Queue {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        Ok(match event {
            LifecycleEvent::ToolEnd(e) => match steering(&e.queued).next() {
                Some(q) => vec![Action::SkipRemaining(format!(
                    "the user sent steering input (submission {}) while the batch ran",
                    q.submission
                ))],
                None => Vec::new(),
            },
            LifecycleEvent::BatchEnd(e) => steering(&e.queued)
                .map(|q| Action::Deliver(q.submission))
                .collect(),
            LifecycleEvent::Idle(e) => steering(&e.queued)
                .chain(e.queued.iter().filter(|q| q.delivery == Delivery::FollowUp))
                .map(|q| Action::Deliver(q.submission))
                .collect(),
            // Secrets are the secret policy's business.
            LifecycleEvent::Restore(_)
            | LifecycleEvent::Prompt(_)
            | LifecycleEvent::Context(_)
            | LifecycleEvent::Compact(_)
            | LifecycleEvent::Snapshot(_) => Vec::new(),
        })
    }
}

export_handler_plugin!(Queue);
