//! A bounded intent stream between the runtime and a renderer thread, blocking (the
//! producer waits for room) or as a subscriber's stream (the producer never waits; a reader
//! that falls behind gets one `fell_behind` naming where to resume — DESIGN §10,
//! backpressure).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use smith::SessionId;

use crate::{Backpressure, Intent, IntentKind};

/// What [`IntentQueue::push`] did with an intent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// Appended to the queue.
    Queued,
    /// Merged into a queued intent of the same kind and key.
    Merged,
    /// A subscriber's stream was full: everything it held was dropped and replaced by one
    /// [`Intent::FellBehind`] naming the oldest dropped position; the intent was dropped too.
    FellBehind,
    /// The queue is closed; the intent was not queued.
    Closed,
}

/// Where each session's dropped intents begin: the positions a reader that fell behind
/// resumes from (its committed records from there, through observation, fill the gap).
/// Shared by every bounded stream that drops instead of waiting ([`IntentQueue::subscriber`],
/// the JSON-RPC outbox).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResumePoints(Vec<(SessionId, u64)>);

impl ResumePoints {
    /// Note a dropped intent of `session` that followed committed position `follows`.
    pub fn drop_at(&mut self, session: SessionId, follows: u64) {
        match self.0.iter_mut().find(|(s, _)| *s == session) {
            Some((_, at)) => *at = (*at).min(follows),
            None => self.0.push((session, follows)),
        }
    }

    /// One `fell_behind` per session that lost intents, in the order they were first
    /// dropped, with the position to resume from.
    pub fn notices(self) -> impl Iterator<Item = (SessionId, u64, Intent)> {
        self.0
            .into_iter()
            .map(|(session, next)| (session, next, Intent::FellBehind { session, next }))
    }
}

/// Counters of a queue's coalescing, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Intents merged into queued ones.
    pub merged: u64,
    /// `fell_behind` notices a subscriber's stream queued.
    pub fell_behind: u64,
}

struct State {
    /// Each intent with the committed position it follows (0 in a blocking queue).
    items: VecDeque<(Intent, u64)>,
    closed: bool,
    stats: QueueStats,
}

/// A bounded, blocking intent stream with the backpressure rules of each kind
/// ([`crate::IntentKind::backpressure`]): a message delta merges into the delta queued right
/// before it, a superseding report (progress, status, tool update, context use) replaces its
/// queued predecessor with the same key, and every other intent — every durable one among
/// them — waits for room. Nothing is dropped, durable intents are never merged, and order is
/// kept, so a flood of transient reports costs at most one queued slot per key.
///
/// A **subscriber's** stream ([`IntentQueue::subscriber`]) merges the same way but never
/// makes the producer wait: when it is full, it drops everything it holds for that reader and
/// holds one [`Intent::FellBehind`] instead, naming the oldest dropped position, so a reader
/// that stops reading never stalls the run; it catches up from the session's committed
/// records (nothing durable is lost — the records are the file's).
pub struct IntentQueue {
    state: Mutex<State>,
    not_empty: Condvar,
    not_full: Condvar,
    capacity: usize,
    /// The session of a subscriber's stream; `None` for a blocking queue.
    subscriber: Option<SessionId>,
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
            subscriber: None,
        }
    }

    /// A subscriber's stream of `session`'s intents, holding at most `capacity` (at least
    /// 2): [`IntentQueue::offer`] never waits, and on overflow the reader gets one
    /// `fell_behind` instead of what was dropped.
    pub fn subscriber(capacity: usize, session: SessionId) -> Self {
        Self {
            subscriber: Some(session),
            capacity: capacity.max(2),
            ..Self::new(capacity)
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Add `intent` by its kind's backpressure rule; may block while the queue is full (a
    /// subscriber's stream never blocks: this is [`IntentQueue::offer`] at position 0).
    pub fn push(&self, intent: Intent) -> Pushed {
        self.offer(intent, 0)
    }

    /// Add `intent`, which follows committed position `follows`, by its kind's backpressure
    /// rule. A blocking queue waits for room; a subscriber's stream that is full drops what
    /// it holds (and `intent`) for one `fell_behind` naming the oldest dropped position, and
    /// says [`Pushed::FellBehind`].
    pub fn offer(&self, intent: Intent, follows: u64) -> Pushed {
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
                for (queued, _) in state.items.iter_mut().rev() {
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
        if let Some(session) = self.subscriber
            && state.items.len() >= self.capacity
        {
            let mut points = ResumePoints::default();
            for (_, at) in state.items.drain(..) {
                points.drop_at(session, at);
            }
            points.drop_at(session, follows);
            for (_, next, notice) in points.notices() {
                state.items.push_back((notice, next));
                state.stats.fell_behind += 1;
            }
            self.not_empty.notify_one();
            return Pushed::FellBehind;
        }
        while state.items.len() >= self.capacity && !state.closed {
            state = self
                .not_full
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closed {
            return Pushed::Closed;
        }
        state.items.push_back((intent, follows));
        self.not_empty.notify_one();
        Pushed::Queued
    }

    /// Take the oldest intent, waiting for one; `None` once the queue is closed and empty.
    pub fn pop(&self) -> Option<Intent> {
        self.pop_at().map(|(intent, _)| intent)
    }

    /// Take the oldest intent with the committed position it follows (a `fell_behind`: the
    /// position to resume from), waiting for one; `None` once closed and empty.
    pub fn pop_at(&self) -> Option<(Intent, u64)> {
        let mut state = self.lock();
        loop {
            if let Some(item) = state.items.pop_front() {
                self.not_full.notify_one();
                return Some(item);
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

    /// Take the oldest intent if one is queued, without waiting: what a render loop woken
    /// for a batch drains.
    pub fn try_pop(&self) -> Option<Intent> {
        let item = self.lock().items.pop_front();
        if item.is_some() {
            self.not_full.notify_one();
        }
        item.map(|(intent, _)| intent)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeltaKind, NoticeLevel};

    fn delta(message_id: u64, text: &str) -> Intent {
        Intent::MessageDelta {
            message_id,
            kind: DeltaKind::Text,
            text: text.into(),
        }
    }

    fn notice(text: &str) -> Intent {
        Intent::Notice {
            level: NoticeLevel::Info,
            text: text.into(),
        }
    }

    #[test]
    fn a_full_subscriber_stream_never_waits_and_holds_one_fell_behind() {
        let session = SessionId::new_now();
        let q = IntentQueue::subscriber(3, session);
        assert_eq!(q.offer(notice("a"), 4), Pushed::Queued);
        assert_eq!(q.offer(delta(1, "x"), 5), Pushed::Queued);
        assert_eq!(q.offer(delta(1, "y"), 5), Pushed::Merged);
        assert_eq!(q.offer(notice("b"), 6), Pushed::Queued);
        // Full: a durable-kind intent does not wait; everything becomes one notice naming the
        // oldest dropped position.
        assert_eq!(q.offer(notice("c"), 7), Pushed::FellBehind);
        assert_eq!(
            q.pop_at(),
            Some((Intent::FellBehind { session, next: 4 }, 4))
        );
        // The reader resumes: later intents queue again.
        assert_eq!(q.offer(notice("d"), 9), Pushed::Queued);
        assert_eq!(q.try_pop(), Some(notice("d")));
        assert_eq!(q.try_pop(), None, "an empty queue does not wait");
        assert_eq!(q.offer(notice("d"), 9), Pushed::Queued);
        q.close();
        assert_eq!(q.pop_at(), Some((notice("d"), 9)));
        assert_eq!(q.pop(), None);
        assert_eq!(q.stats().fell_behind, 1);
    }

    #[test]
    fn a_stream_with_only_a_notice_that_fills_again_resumes_from_the_notice() {
        let session = SessionId::new_now();
        let q = IntentQueue::subscriber(2, session);
        assert_eq!(q.offer(notice("a"), 3), Pushed::Queued);
        assert_eq!(q.offer(notice("b"), 4), Pushed::Queued);
        assert_eq!(q.offer(notice("c"), 5), Pushed::FellBehind);
        assert_eq!(q.offer(notice("d"), 6), Pushed::Queued);
        // Full again: the earlier notice's position is still the oldest unread one.
        assert_eq!(q.offer(notice("e"), 7), Pushed::FellBehind);
        assert_eq!(
            q.pop_at(),
            Some((Intent::FellBehind { session, next: 3 }, 3))
        );
    }

    #[test]
    fn resume_points_keep_the_oldest_position_of_each_session() {
        let a = SessionId::new_now();
        let b = SessionId::new_now();
        let mut points = ResumePoints::default();
        points.drop_at(a, 9);
        points.drop_at(b, 4);
        points.drop_at(a, 7);
        let got: Vec<_> = points.notices().map(|(s, n, _)| (s, n)).collect();
        assert_eq!(got, [(a, 7), (b, 4)]);
    }
}
