//! A misbehaving queue policy for the host's tests. What it does at an event is chosen by the
//! size in bytes of the first queued input:
//!
//! - 1: spin forever without polling cancellation (the host must stop it);
//! - 2: trap;
//! - 3: allocate without bound (the memory limit must stop it);
//! - 4: fail with a reason;
//! - 5: ask to deliver an input that does not exist (the runtime must reject the batch);
//! - otherwise: behave like a plain policy (deliver everything at `idle`).

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent, QueuedInput};

struct Hostile;

fn queued(event: &LifecycleEvent) -> &[QueuedInput] {
    match event {
        LifecycleEvent::ToolEnd(e) => &e.queued,
        LifecycleEvent::BatchEnd(e) | LifecycleEvent::Idle(e) => &e.queued,
        LifecycleEvent::Restore(_)
        | LifecycleEvent::Prompt(_)
        | LifecycleEvent::Context(_)
        | LifecycleEvent::Compact(_)
        | LifecycleEvent::Snapshot(_) => &[],
    }
}

impl Guest for Hostile {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        let items = queued(&event);
        match items.first().map(|q| q.bytes) {
            Some(1) => {
                let mut n: u64 = 0;
                loop {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            }
            Some(2) => std::process::abort(),
            Some(3) => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            Some(4) => Err("the hostile handler refuses".to_owned()),
            Some(5) => Ok(vec![Action::Deliver(u64::MAX)]),
            _ => Ok(match event {
                LifecycleEvent::Idle(_) => items
                    .iter()
                    .map(|q| Action::Deliver(q.submission))
                    .collect(),
                _ => Vec::new(),
            }),
        }
    }
}

export_handler_plugin!(Hostile);
