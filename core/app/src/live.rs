//! What a session's writer is streaming right now, for observers in other processes: the
//! assistant message being streamed (its text and thinking so far) and each running tool
//! call's newest progress — the transient intents that are never recorded (spec: UI intents
//! are transient unless committed; Observation shows committed history without a gap, and this
//! feed adds what is in flight on top of it).
//!
//! The writer keeps a small JSON file, `.<id>.smith.live`, beside the session file: a
//! [`LiveSnapshot`] rewritten (to a temporary name, then renamed, never synced) by a thread of
//! its own at most every [`PUBLISH_EVERY`] while something changed, emptied when the run ends
//! and removed when the writer lets the session go. The turn thread only sends intents over
//! a channel. Like the writer record, the file is advice: a missing, stale or unreadable one
//! shows nothing in flight, never an error. Its text is what the writer's own frontend shows,
//! redacted the same way (the feed is fed after redaction).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use smith::Role;
use smith_ui_intents::{Delivery, DeltaKind, Intent, IntentSink};

/// How often the file is rewritten at most while the stream changes.
pub const PUBLISH_EVERY: Duration = Duration::from_millis(100);

/// The largest file read as a snapshot (bytes); a larger one is not a writer's.
const MAX_BYTES: u64 = 4 << 20;

/// What a writer is streaming at one moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveSnapshot {
    /// Assistant messages being streamed (usually none or one).
    pub messages: Vec<LiveMessage>,
    /// Running tool calls that reported progress, by call id.
    pub tools: BTreeMap<String, String>,
}

/// An assistant message being streamed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LiveMessage {
    /// The entry id of the attempt streaming it (its record precedes the message's, so a
    /// committed assistant message with a larger entry id has ended it); 0 when unknown.
    pub attempt: u64,
    /// Its visible text so far.
    pub text: String,
    /// Its thinking so far.
    pub thinking: String,
}

/// Where the live file of the session file `session` lives.
pub fn live_path(session: &Path) -> PathBuf {
    let name = session
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    session.with_file_name(format!(".{name}.live"))
}

/// What the writer of the session file `session` is streaming now: empty when nothing is,
/// when no writer keeps a feed, or when the file is unreadable.
pub fn read_live(session: &Path) -> LiveSnapshot {
    let path = live_path(session);
    match std::fs::metadata(&path) {
        Ok(m) if m.len() <= MAX_BYTES => std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default(),
        _ => LiveSnapshot::default(),
    }
}

impl LiveSnapshot {
    /// Fold `intent` in; whether anything changed.
    fn fold(
        &mut self,
        intent: &Intent,
        attempt: &mut u64,
        open: &mut BTreeMap<u64, usize>,
    ) -> bool {
        match intent {
            Intent::Attempt { entry_id, .. } => {
                *attempt = *entry_id;
                false
            }
            Intent::MessageStart {
                message_id,
                role: Role::Assistant,
            } => {
                open.insert(*message_id, self.messages.len());
                self.messages.push(LiveMessage {
                    attempt: *attempt,
                    ..LiveMessage::default()
                });
                true
            }
            Intent::MessageDelta {
                message_id,
                kind,
                text,
            } => {
                let Some(m) = open
                    .get(message_id)
                    .and_then(|&at| self.messages.get_mut(at))
                else {
                    return false;
                };
                match kind {
                    DeltaKind::Text => m.text.push_str(text),
                    DeltaKind::Thinking => m.thinking.push_str(text),
                }
                true
            }
            Intent::MessageEnd { message_id, .. } => {
                let Some(at) = open.remove(message_id) else {
                    return false;
                };
                if at < self.messages.len() {
                    self.messages.remove(at);
                }
                for i in open.values_mut() {
                    if *i > at {
                        *i -= 1;
                    }
                }
                true
            }
            Intent::ToolUpdate { call_id, text } => {
                self.tools.insert(call_id.clone(), text.clone());
                true
            }
            Intent::ToolEnd { call_id, .. } => self.tools.remove(call_id).is_some(),
            Intent::RunEnd { .. } => {
                let changed = !self.messages.is_empty() || !self.tools.is_empty();
                *self = Self::default();
                open.clear();
                changed
            }
            _ => false,
        }
    }
}

/// The writer's feed: started with the first intent worth publishing, stopped (its file
/// removed) by [`Feed::stop`] or when dropped.
#[derive(Debug)]
pub(crate) struct Feed {
    path: PathBuf,
    tx: Option<mpsc::Sender<Intent>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Feed {
    /// A feed for the session file `session` (nothing runs until something streams). Called
    /// by the session's writer: a live file already there is a killed writer's, stale, and is
    /// removed so no observer shows a stream that ended with its process.
    pub(crate) fn new(session: &Path) -> Self {
        let path = live_path(session);
        let _ = std::fs::remove_file(&path);
        Self {
            path,
            tx: None,
            thread: None,
        }
    }

    /// `inner`, with what it is given also sent to the feed.
    pub(crate) fn tee<'a>(&'a mut self, inner: &'a mut dyn IntentSink) -> Tee<'a> {
        Tee { feed: self, inner }
    }

    fn send(&mut self, intent: &Intent) {
        if !matches!(
            intent,
            Intent::Attempt { .. }
                | Intent::MessageStart {
                    role: Role::Assistant,
                    ..
                }
                | Intent::MessageDelta { .. }
                | Intent::MessageEnd { .. }
                | Intent::ToolUpdate { .. }
                | Intent::ToolEnd { .. }
                | Intent::RunEnd { .. }
        ) {
            return;
        }
        if self.tx.is_none() {
            let (tx, rx) = mpsc::channel();
            let path = self.path.clone();
            self.thread = std::thread::Builder::new()
                .name("smith-live-feed".into())
                .spawn(move || publish(&path, &rx))
                .ok();
            // A thread that could not start publishes nothing; the run is unaffected.
            if self.thread.is_none() {
                return;
            }
            self.tx = Some(tx);
        }
        if let Some(tx) = &self.tx {
            let _ = tx.send(intent.clone());
        }
    }

    /// Stop publishing and remove the file (before the writer lets the session go, so a
    /// later writer's feed is never removed by this one).
    pub(crate) fn stop(&mut self) {
        self.tx = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A sink that shows its inner sink everything and feeds the live file.
pub(crate) struct Tee<'a> {
    feed: &'a mut Feed,
    inner: &'a mut dyn IntentSink,
}

impl IntentSink for Tee<'_> {
    fn emit(&mut self, intent: Intent) -> Delivery {
        self.feed.send(&intent);
        self.inner.emit(intent)
    }
}

/// The feed's thread: fold what arrives, write the file when it changed (at most every
/// [`PUBLISH_EVERY`]), remove it when the sender is gone.
fn publish(path: &Path, rx: &mpsc::Receiver<Intent>) {
    let mut snapshot = LiveSnapshot::default();
    let mut attempt = 0;
    let mut open = BTreeMap::new();
    let mut dirty = false;
    let mut written = Instant::now() - PUBLISH_EVERY;
    loop {
        let received = if dirty {
            let left = PUBLISH_EVERY.saturating_sub(written.elapsed());
            rx.recv_timeout(left)
        } else {
            rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        };
        match received {
            Ok(intent) => dirty |= snapshot.fold(&intent, &mut attempt, &mut open),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if dirty && written.elapsed() >= PUBLISH_EVERY {
            write(path, &snapshot);
            written = Instant::now();
            dirty = false;
        }
    }
    let _ = std::fs::remove_file(path);
}

/// Replace the file with `snapshot` (best effort: an observer then sees an older one).
fn write(path: &Path, snapshot: &LiveSnapshot) {
    let Ok(json) = serde_json::to_vec(snapshot) else {
        return;
    };
    let temp = path.with_extension(format!("live.{}", std::process::id()));
    let written = {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(&temp).and_then(|mut f| f.write_all(&json))
    };
    if written.is_err() || std::fs::rename(&temp, path).is_err() {
        let _ = std::fs::remove_file(&temp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(id: u64, text: &str) -> Intent {
        Intent::MessageDelta {
            message_id: id,
            kind: DeltaKind::Text,
            text: text.into(),
        }
    }

    #[test]
    fn a_feed_publishes_the_stream_in_flight_and_removes_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("s.smith");
        let mut feed = Feed::new(&session);
        let mut shown = Vec::new();
        let mut sink = |i: Intent| shown.push(i);
        {
            let mut tee = feed.tee(&mut sink);
            let mut attempt = smith_ui_intents::examples()
                .into_iter()
                .find(|i| matches!(i, Intent::Attempt { .. }))
                .unwrap();
            if let Intent::Attempt { entry_id, .. } = &mut attempt {
                *entry_id = 7;
            }
            tee.emit(attempt);
            tee.emit(Intent::MessageStart {
                message_id: 9,
                role: Role::Assistant,
            });
            tee.emit(delta(9, "Hello, "));
            tee.emit(delta(9, "wor"));
            tee.emit(Intent::ToolUpdate {
                call_id: "c1".into(),
                text: "line 1".into(),
            });
            let want = LiveSnapshot {
                messages: vec![LiveMessage {
                    attempt: 7,
                    text: "Hello, wor".into(),
                    thinking: String::new(),
                }],
                tools: BTreeMap::from([("c1".to_owned(), "line 1".to_owned())]),
            };
            smith_testkit::wait_until("the stream published", || read_live(&session) == want);
            tee.emit(Intent::RunEnd {
                stop_reason: smith::StopReason::EndTurn,
                usage: smith::UsageTotals::default(),
                cost_usd: None,
                error: None,
                memory: None,
            });
            smith_testkit::wait_until("the run's end published", || {
                read_live(&session) == LiveSnapshot::default() && live_path(&session).exists()
            });
        }
        assert_eq!(shown.len(), 6, "the inner sink saw everything");
        feed.stop();
        assert!(!live_path(&session).exists());
        // A killed writer's file is stale: the next writer's feed removes it at once.
        std::fs::write(
            live_path(&session),
            r#"{"messages":[{"attempt":1,"text":"stale","thinking":""}],"tools":{}}"#,
        )
        .unwrap();
        assert_eq!(read_live(&session).messages.len(), 1);
        let _next = Feed::new(&session);
        assert_eq!(read_live(&session), LiveSnapshot::default());
        assert!(!live_path(&session).exists());
    }
}
