//! What a running program has written lately, for a live preview: the last bytes of stdout
//! and stderr together in the order they arrived, bounded, with a version that moves with
//! every write so a watcher reports only when something changed. The capture the result
//! keeps is separate ([`super::Capture`]); this one is transient and never recorded.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

/// Bytes kept for the preview (the newest).
const KEPT: usize = 4 * 1024;

/// The newest output of both streams, shared by their reader threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct LiveTail(Arc<Mutex<Inner>>);

#[derive(Debug, Default)]
struct Inner {
    bytes: VecDeque<u8>,
    version: u64,
}

impl LiveTail {
    /// Keep `bytes` as the newest output.
    pub(crate) fn push(&self, bytes: &[u8]) {
        let mut inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes = &bytes[bytes.len().saturating_sub(KEPT)..];
        let overflow = (inner.bytes.len() + bytes.len()).saturating_sub(KEPT);
        inner.bytes.drain(..overflow);
        inner.bytes.extend(bytes);
        inner.version += 1;
    }

    /// The last `lines` lines written, when anything changed since `seen` (which is moved
    /// on): each line as a terminal would leave it after carriage returns (a progress bar
    /// shows its latest state), a partial first line dropped when older bytes were let go.
    pub(crate) fn preview(&self, seen: &mut u64, lines: usize) -> Option<String> {
        let inner = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if inner.version == *seen {
            return None;
        }
        *seen = inner.version;
        let (a, b) = inner.bytes.as_slices();
        let mut raw = Vec::with_capacity(a.len() + b.len());
        raw.extend_from_slice(a);
        raw.extend_from_slice(b);
        let full = inner.bytes.len() < KEPT;
        drop(inner);
        Some(last_lines(&raw, lines, full))
    }
}

/// The last `count` lines of `raw` (lossy UTF-8); `whole`: `raw` starts at the start of the
/// output (otherwise its first line is a fragment and is dropped).
fn last_lines(raw: &[u8], count: usize, whole: bool) -> String {
    let text = String::from_utf8_lossy(raw);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let mut all: Vec<&str> = text.split('\n').collect();
    if !whole && all.len() > 1 {
        all.remove(0);
    }
    let start = all.len().saturating_sub(count);
    all[start..]
        .iter()
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            line.rsplit('\r').next().unwrap_or(line)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_the_latest_lines_and_only_when_changed() {
        let tail = LiveTail::default();
        let mut seen = 0;
        assert_eq!(tail.preview(&mut seen, 3), None);
        tail.push(b"one\ntwo\nthree\nfour\n");
        assert_eq!(
            tail.preview(&mut seen, 3).as_deref(),
            Some("two\nthree\nfour")
        );
        assert_eq!(tail.preview(&mut seen, 3), None, "nothing new");
        // A progress bar redrawn with carriage returns shows its latest state.
        tail.push(b"10%\r50%\r90%");
        assert_eq!(tail.preview(&mut seen, 2).as_deref(), Some("four\n90%"));
        tail.push(b"\r\n");
        assert_eq!(tail.preview(&mut seen, 1).as_deref(), Some("90%"));
    }

    #[test]
    fn a_flood_keeps_only_whole_recent_lines() {
        let tail = LiveTail::default();
        let mut seen = 0;
        tail.push(&b"x".repeat(3 * KEPT));
        tail.push(b"\nlast line\n");
        assert_eq!(tail.preview(&mut seen, 5).as_deref(), Some("last line"));
    }
}
