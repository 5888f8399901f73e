//! A bounded intent stream between the runtime and a renderer thread.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use crate::{Backpressure, Intent, IntentKind};

/// What [`IntentQueue::push`] did with an intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// Appended to the queue.
    Queued,
    /// Merged into a queued intent of the same kind and key.
    Merged,
    /// The queue is closed; the intent was not queued.
    Closed,
}

/// Counters of a queue's coalescing, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Intents merged into queued ones.
    pub merged: u64,
}

struct State {
    items: VecDeque<Intent>,
    closed: bool,
    stats: QueueStats,
}

/// A bounded, blocking intent stream with the backpressure rules of each kind
/// ([`crate::IntentKind::backpressure`]): a message delta merges into the delta queued right
/// before it, a superseding report (progress, status, tool update, context use) replaces its
/// queued predecessor with the same key, and every other intent — every durable one among
/// them — waits for room. Nothing is dropped, durable intents are never merged, and order is
/// kept, so a flood of transient reports costs at most one queued slot per key.
pub struct IntentQueue {
    state: Mutex<State>,
    not_empty: Condvar,
    not_full: Condvar,
    capacity: usize,
}

impl IntentQueue {
    /// A queue holding at most `capacity` intents (at least 1).
    pub fn new(capacity: usize) -> Self {
        Self {
            state: Mutex::new(State {
                items: VecDeque::new(),
                closed: false,
                stats: QueueStats::default(),
            }),
            not_empty: Condvar::new(),
            not_full: Condvar::new(),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Add `intent` by its kind's backpressure rule; may block while the queue is full.
    pub fn push(&self, intent: Intent) -> Pushed {
        let mut state = self.lock();
        if state.closed {
            return Pushed::Closed;
        }
        let intent = match intent.kind().backpressure() {
            Backpressure::Block => intent,
            Backpressure::Coalesce => {
                // Deltas merge only with the tail (merging further back would reorder text
                // around other intents); superseding reports merge with any queued one.
                let tail_only = intent.kind() == IntentKind::MessageDelta;
                let mut pending = Some(intent);
                for queued in state.items.iter_mut().rev() {
                    let Some(intent) = pending.take() else { break };
                    match queued.merge(intent) {
                        Ok(()) => break,
                        Err(intent) => pending = Some(intent),
                    }
                    if tail_only {
                        break;
                    }
                }
                match pending {
                    Some(intent) => intent,
                    None => {
                        state.stats.merged += 1;
                        return Pushed::Merged;
                    }
                }
            }
        };
        while state.items.len() >= self.capacity && !state.closed {
            state = self
                .not_full
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closed {
            return Pushed::Closed;
        }
        state.items.push_back(intent);
        self.not_empty.notify_one();
        Pushed::Queued
    }

    /// Take the oldest intent, waiting for one; `None` once the queue is closed and empty.
    pub fn pop(&self) -> Option<Intent> {
        let mut state = self.lock();
        loop {
            if let Some(intent) = state.items.pop_front() {
                self.not_full.notify_one();
                return Some(intent);
            }
            if state.closed {
                return None;
            }
            state = self
                .not_empty
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Close the queue: pushes stop, and consumers drain what is queued.
    pub fn close(&self) {
        self.lock().closed = true;
        self.not_empty.notify_all();
        self.not_full.notify_all();
    }

    /// The coalescing counters so far.
    pub fn stats(&self) -> QueueStats {
        self.lock().stats
    }
}
