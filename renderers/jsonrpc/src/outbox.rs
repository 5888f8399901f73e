//! What a stdio server writes, in the order it was produced, through one writer thread:
//! replies (never dropped, never waiting), paced lines (an observation's records: the producer
//! waits for room) and live events (never waiting: a subscriber that cannot keep up loses what
//! was queued for it and gets one `fell_behind` per session instead — DESIGN §10
//! Backpressure). The agent emitting events is never stalled by a client that stops reading.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use smith::SessionId;
use smith_ui_intents::Intent;

/// A live event of a session: the intent, the committed position it follows, and the id of
/// the request whose work caused it (`null` when none).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The session.
    pub session: SessionId,
    /// The committed position (next entry id) when the intent was emitted; an intent mirroring
    /// a record names that record's entry id itself.
    pub follows: u64,
    /// The JSON-RPC id of the request that caused the work.
    pub request: Value,
    /// The intent.
    pub intent: Intent,
}

/// One line to write.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// A response (or any line that must not be dropped).
    Reply(Value),
    /// A line of a paced stream (observation records).
    Paced(Value),
    /// A live event.
    Event(Event),
}

/// What pushing an event did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// Queued.
    Queued,
    /// Merged into the queued delta before it.
    Merged,
    /// The queue was full: queued events were dropped, replaced by `fell_behind` notices.
    FellBehind,
    /// The outbox is closed.
    Closed,
}

/// A queued delta takes later pieces of its message only up to this many bytes of text: lines
/// stay small (a slow client gets more lines, not one huge one), and so do the buffers that
/// write them.
pub const MERGE_LIMIT: usize = 16 * 1024;

fn mergeable(intent: &Intent) -> bool {
    match intent {
        Intent::MessageDelta { text, .. } => text.len() < MERGE_LIMIT,
        _ => true,
    }
}

/// The most replies a server lets wait for a client before it stops reading requests (see
/// [`Outbox::wait_for_reply_room`]).
pub const MAX_QUEUED_REPLIES: usize = 256;

struct State {
    items: VecDeque<Out>,
    /// Paced and event items queued (replies are not counted).
    bounded: usize,
    /// Replies queued.
    replies: usize,
    closed: bool,
    fell_behind: u64,
}

/// The outbox of one connection.
pub struct Outbox {
    state: Mutex<State>,
    ready: Condvar,
    room: Condvar,
    capacity: usize,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl Outbox {
    /// An outbox holding at most `capacity` events and paced lines (at least 2).
    pub fn new(capacity: usize) -> Self {
        Self {
            state: Mutex::new(State {
                items: VecDeque::new(),
                bounded: 0,
                replies: 0,
                closed: false,
                fell_behind: 0,
            }),
            ready: Condvar::new(),
            room: Condvar::new(),
            capacity: capacity.max(2),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queue a reply; it is never dropped and never waits. `false` once closed.
    pub fn reply(&self, line: Value) -> bool {
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        state.items.push_back(Out::Reply(line));
        state.replies += 1;
        self.ready.notify_one();
        true
    }

    /// Wait while `limit` or more replies are queued (the client is not reading): the reading
    /// thread calls this before it reads the next request, so a client that sends without
    /// reading is slowed by its own pipe instead of growing the server's memory. Returns at
    /// once when closed.
    pub fn wait_for_reply_room(&self, limit: usize) {
        let mut state = self.lock();
        while state.replies >= limit.max(1) && !state.closed {
            state = self
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Queue a paced line, waiting while the outbox is full. `false` once closed.
    pub fn paced(&self, line: Value) -> bool {
        let mut state = self.lock();
        while state.bounded >= self.capacity && !state.closed {
            state = self
                .room
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.closed {
            return false;
        }
        state.items.push_back(Out::Paced(line));
        state.bounded += 1;
        self.ready.notify_one();
        true
    }

    /// Queue a live event without waiting: a delta merges into the delta queued right before
    /// it (up to [`MERGE_LIMIT`] bytes of text); when the outbox is full every queued event is dropped and each session that lost
    /// events gets one `fell_behind` naming the position to resume from (the oldest dropped
    /// event's).
    pub fn event(&self, event: Event) -> Pushed {
        let mut state = self.lock();
        if state.closed {
            return Pushed::Closed;
        }
        let mut event = event;
        if let Some(Out::Event(tail)) = state.items.back_mut()
            && tail.session == event.session
            && tail.request == event.request
            && mergeable(&tail.intent)
        {
            match tail.intent.merge(event.intent) {
                Ok(()) => return Pushed::Merged,
                Err(intent) => event.intent = intent,
            }
        }
        if state.bounded >= self.capacity {
            let mut resume = smith_ui_intents::ResumePoints::default();
            let mut kept = VecDeque::with_capacity(state.items.len());
            let mut bounded = 0;
            for item in state.items.drain(..) {
                match item {
                    Out::Event(e) => resume.drop_at(e.session, e.follows),
                    Out::Paced(line) => {
                        bounded += 1;
                        kept.push_back(Out::Paced(line));
                    }
                    reply => kept.push_back(reply),
                }
            }
            resume.drop_at(event.session, event.follows);
            for (session, next, intent) in resume.notices() {
                kept.push_back(Out::Event(Event {
                    session,
                    follows: next,
                    request: Value::Null,
                    intent,
                }));
                bounded += 1;
                state.fell_behind += 1;
            }
            state.items = kept;
            state.bounded = bounded;
            self.ready.notify_one();
            return Pushed::FellBehind;
        }
        state.items.push_back(Out::Event(event));
        state.bounded += 1;
        self.ready.notify_one();
        Pushed::Queued
    }

    /// The oldest line, waiting for one; `None` once closed and drained.
    pub fn pop(&self) -> Option<Out> {
        let mut state = self.lock();
        loop {
            if let Some(item) = state.items.pop_front() {
                if matches!(item, Out::Reply(_)) {
                    state.replies -= 1;
                } else {
                    state.bounded -= 1;
                }
                self.room.notify_all();
                return Some(item);
            }
            if state.closed {
                return None;
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Close: later pushes are refused, waiting producers return, the writer drains what is
    /// queued.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
        self.room.notify_all();
    }

    /// How many `fell_behind` notices were queued so far.
    pub fn fell_behind(&self) -> u64 {
        self.lock().fell_behind
    }

    /// How many replies are queued now.
    pub fn replies_queued(&self) -> usize {
        self.lock().replies
    }

    /// How many events and paced lines are queued now.
    pub fn queued(&self) -> usize {
        self.lock().bounded
    }
}

/// Read `input`'s lines (at most [`MAX_LINE_BYTES`](crate::MAX_LINE_BYTES) each) and hand each
/// to `on_line` until the input ends, a read fails, or `on_line` returns `false`. Before each
/// read it waits while [`MAX_QUEUED_REPLIES`] replies are unread
/// ([`Outbox::wait_for_reply_room`]): a client that sends without reading is slowed by its own
/// pipe. The reading loop of every stdio server.
pub fn read_requests(
    input: impl std::io::BufRead,
    outbox: &Outbox,
    mut on_line: impl FnMut(crate::Line) -> bool,
) {
    let mut lines = crate::LineReader::new(input, crate::MAX_LINE_BYTES);
    loop {
        outbox.wait_for_reply_room(MAX_QUEUED_REPLIES);
        let Ok(Some(line)) = lines.next_line() else {
            break;
        };
        if !on_line(line) {
            break;
        }
    }
}

/// The line of an outbox item for a server that queues only replies and paced lines (no live
/// events: `smith mcp`, `smith acp`); an event is refused, and [`spawn_writer`] skips it like
/// any line that cannot be encoded.
///
/// # Errors
/// The encoder's error, or one for an event.
pub fn encode_lines_only(item: &Out) -> Result<Vec<u8>, serde_json::Error> {
    match item {
        Out::Reply(v) | Out::Paced(v) => crate::encode_line(v),
        Out::Event(_) => Err(serde::ser::Error::custom(
            "this server queues no live events",
        )),
    }
}

/// Write `outbox`'s lines to `output` in order on a thread of its own until the outbox is
/// closed and drained: each item encoded by `encode` (an item it cannot encode is skipped), then
/// every registered secret in `redactor` replaced by its reference, then written and flushed.
/// Once a write fails (the reader went away) the rest is drained unwritten, so producers never
/// wait on a dead pipe.
pub fn spawn_writer(
    outbox: std::sync::Arc<Outbox>,
    redactor: Option<smith_secrets::Shared>,
    mut output: impl std::io::Write + Send + 'static,
    encode: fn(&Out) -> Result<Vec<u8>, serde_json::Error>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut open = true;
        while let Some(item) = outbox.pop() {
            if !open {
                continue;
            }
            let Ok(mut line) = encode(&item) else {
                continue;
            };
            if let Some(r) = &redactor
                && let Ok(text) = std::str::from_utf8(&line)
                && let std::borrow::Cow::Owned(redacted) = r.current().redact(text)
            {
                line = redacted.into_bytes();
            }
            if output
                .write_all(&line)
                .and_then(|()| output.flush())
                .is_err()
            {
                open = false;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith_ui_intents::DeltaKind;

    fn delta(session: SessionId, follows: u64, message_id: u64, text: &str) -> Event {
        Event {
            session,
            follows,
            request: Value::from(1),
            intent: Intent::MessageDelta {
                message_id,
                kind: DeltaKind::Text,
                text: text.into(),
            },
        }
    }

    #[test]
    fn a_full_outbox_drops_events_for_one_notice_per_session_and_keeps_replies() {
        let a = SessionId::new_now();
        let b = SessionId::new_now();
        let out = Outbox::new(3);
        assert_eq!(out.event(delta(a, 5, 1, "x")), Pushed::Queued);
        assert_eq!(out.event(delta(a, 5, 1, "y")), Pushed::Merged);
        assert!(out.reply(Value::from("reply")));
        assert_eq!(out.event(delta(b, 9, 2, "z")), Pushed::Queued);
        assert_eq!(out.event(delta(a, 6, 3, "w")), Pushed::Queued);
        assert_eq!(out.event(delta(b, 10, 4, "v")), Pushed::FellBehind);
        let mut lines = Vec::new();
        out.close();
        while let Some(line) = out.pop() {
            lines.push(line);
        }
        assert_eq!(lines[0], Out::Reply(Value::from("reply")));
        let notices: Vec<_> = lines[1..]
            .iter()
            .map(|l| match l {
                Out::Event(e) => e.intent.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            notices,
            [
                Intent::FellBehind {
                    session: a,
                    next: 5
                },
                Intent::FellBehind {
                    session: b,
                    next: 9
                }
            ]
        );
        assert_eq!(out.fell_behind(), 2);
    }

    #[test]
    fn a_delta_stops_taking_pieces_at_the_merge_limit() {
        let a = SessionId::new_now();
        let out = Outbox::new(100);
        let piece = "x".repeat(MERGE_LIMIT / 2);
        assert_eq!(out.event(delta(a, 1, 1, &piece)), Pushed::Queued);
        assert_eq!(out.event(delta(a, 1, 1, &piece)), Pushed::Merged);
        assert_eq!(out.event(delta(a, 1, 1, "y")), Pushed::Queued);
        assert_eq!(out.queued(), 2);
    }

    #[test]
    fn a_reader_waits_while_replies_pile_up() {
        let out = std::sync::Arc::new(Outbox::new(8));
        out.wait_for_reply_room(2);
        assert!(out.reply(Value::from(1)));
        assert!(out.reply(Value::from(2)));
        let waiter = {
            let out = std::sync::Arc::clone(&out);
            std::thread::spawn(move || {
                out.wait_for_reply_room(2);
                // Returned only once the writer took one: room below the limit.
                out.replies_queued()
            })
        };
        assert_eq!(out.pop(), Some(Out::Reply(Value::from(1))));
        assert!(waiter.join().unwrap() < 2);
        // Closing releases a waiting reader too.
        assert!(out.reply(Value::from(3)));
        let waiter = {
            let out = std::sync::Arc::clone(&out);
            std::thread::spawn(move || out.wait_for_reply_room(1))
        };
        out.close();
        waiter.join().unwrap();
    }

    #[test]
    fn paced_lines_wait_for_room_and_closing_releases_them() {
        let out = std::sync::Arc::new(Outbox::new(2));
        assert!(out.paced(Value::from(1)));
        assert!(out.paced(Value::from(2)));
        let waiting = {
            let out = std::sync::Arc::clone(&out);
            std::thread::spawn(move || out.paced(Value::from(3)))
        };
        assert_eq!(out.pop(), Some(Out::Paced(Value::from(1))));
        assert!(waiting.join().unwrap());
        assert_eq!(out.queued(), 2);
        out.close();
        assert!(!out.paced(Value::from(4)));
    }
}
