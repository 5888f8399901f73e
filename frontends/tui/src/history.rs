//! The storage worker: a session's committed records read from the file on a thread of its
//! own, turned into the intents a live run emits and folded into immutable transcript chunks,
//! so history and live work look alike and the render loop never touches files (DESIGN §10;
//! spec: Working sets).
//!
//! The selected branch is cut into **chunks** from its leaf back: chunk 0 is the newest, and
//! each chunk starts at a turn's `submission` (so a tool call and its result are never in two
//! chunks) once it holds [`CHUNK_ENTRIES`] entries or [`CHUNK_BYTES`] of bodies. Chunks are
//! found from entry metadata alone and read only when asked for — the newest first, so a
//! large session's last screen shows at once; records the transcript does not show (attempts,
//! effects, requests) are passed over without reading their bodies. While nothing is asked,
//! the worker walks the rest of the branch once for what the branch cost and its prompts
//! (Up's history). Searches run here too, chunk by chunk, so entries that are not resident
//! are found. An observer's worker then follows every record the writer commits after its
//! snapshot, while follow-live is on.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use smith::{EntryId, Role, SessionId};
use smith_render_terminal::transcript::{Block, Transcript};
use smith_render_terminal::window::Chunk;
use smith_store::{Entry, Record, SessionReader};
use smith_ui_intents::NoticeLevel;

use crate::event::{Event, Events};

/// How often an observed file is looked at for new commits.
const POLL: Duration = Duration::from_millis(50);

/// Entries read per batch sent to the render loop while observing.
const BATCH: usize = 256;

/// A chunk ends at a turn's start once it holds this many entries…
pub const CHUNK_ENTRIES: usize = 48;

/// …or this many bytes of record bodies.
pub const CHUNK_BYTES: u64 = 2 << 20;

/// A chunk ends at any entry past this many (a turn longer than this is cut; a tool result
/// cut from its call then shows on its own).
pub const CHUNK_MOST: usize = 4096;

/// The record kinds the transcript shows: only their bodies are read for a chunk.
const SHOWN: [u16; 6] = [
    Record::MESSAGE,
    Record::TOOL_RESULT,
    Record::RUN_END,
    Record::ABORT,
    Record::COMPACTION,
    Record::VCS,
];

/// The record kinds what a branch cost is counted from (a compaction is its attempt's
/// response).
const COSTED: [u16; 4] = [
    Record::MESSAGE,
    Record::ATTEMPT,
    Record::ATTEMPT_FAILED,
    Record::COMPACTION,
];

/// The intents a transcript keeps of a recorded entry: the one mapping a replay uses too.
pub use smith_app::playback::entry_intents;

/// What the render loop asks the storage worker for.
#[derive(Debug)]
pub(crate) enum Ask {
    /// Chunk `n` of the branch (0 the newest).
    Chunk(u32),
    /// The oldest chunk.
    Oldest,
    /// The block nearest `from` that holds `needle` (lowercase): older than it when
    /// `older`, else newer; a search superseded by a later one is dropped.
    Search {
        generation: u64,
        needle: String,
        /// The chunk to start in and the block index to start beyond (`None`: the chunk's
        /// end it is entered from).
        from: (u32, Option<usize>),
        older: bool,
    },
    /// Read the session again from a new snapshot: the branch from `leaf` (this process's
    /// runs folded into history at an idle turn end), or from the file's leaf when `None` (the
    /// live stream fell behind).
    Reload { leaf: Option<u64> },
}

/// The sending end of the storage worker.
#[derive(Clone, Debug)]
pub(crate) struct Storage(mpsc::Sender<Ask>);

impl Storage {
    /// Ask the worker; a worker that ended takes nothing more.
    pub(crate) fn ask(&self, ask: Ask) {
        let _ = self.0.send(ask);
    }
}

/// What observing needs: the session's id, whether to follow (off: hold), and when to stop.
#[derive(Debug)]
pub(crate) struct Observe {
    pub(crate) id: SessionId,
    pub(crate) live: Arc<AtomicBool>,
    pub(crate) stop: Arc<AtomicBool>,
}

/// Start the storage worker for the session at `path`: it sends chunk 0 of epoch 0 at once,
/// then serves asks; with `observe`, it also follows what is committed after its snapshot.
pub(crate) fn start(path: PathBuf, events: Events, observe: Option<Observe>) -> Storage {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut worker = match Worker::open(path.clone(), events.clone(), 0, None) {
            Ok(w) => w,
            Err(e) => {
                events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!("the session's history cannot be shown: {e}"),
                ));
                events.send(Event::Chunk {
                    epoch: 0,
                    chunk: Chunk::default(),
                });
                return;
            }
        };
        if let Some(o) = observe {
            let from = worker.reader.state().last_id + 1;
            follow(path, o, from, events.clone());
        }
        worker.serve(&rx);
    });
    Storage(tx)
}

/// The worker's state over one snapshot of the file.
struct Worker {
    path: PathBuf,
    events: Events,
    reader: SessionReader,
    epoch: u64,
    /// Each found chunk's entry ids, oldest first.
    chunks: Vec<Vec<u64>>,
    /// The newest entry of the next chunk to find; `None` once the root was reached.
    next: Option<u64>,
    /// The walk for cost and prompts: the next chunk to count, the sum so far, the prompts
    /// newest first; `None` once sent.
    summary: Option<(u32, Option<f64>, Vec<String>)>,
    backlog: VecDeque<Ask>,
}

impl Worker {
    /// A worker over a new snapshot of the file at `path`, walking the branch from `leaf` (the
    /// file's leaf when `None`); chunk 0 of `epoch` is sent at once.
    fn open(
        path: PathBuf,
        events: Events,
        epoch: u64,
        leaf: Option<u64>,
    ) -> Result<Self, smith_store::Error> {
        let reader = SessionReader::open(&path)?;
        let next = leaf.or_else(|| reader.state().leaf_id().map(|l| l.0));
        let mut w = Self {
            path,
            events,
            reader,
            epoch,
            chunks: Vec::new(),
            next,
            summary: Some((0, None, Vec::new())),
            backlog: VecDeque::new(),
        };
        w.send_chunk(0);
        Ok(w)
    }

    fn serve(&mut self, rx: &mpsc::Receiver<Ask>) {
        loop {
            self.backlog.extend(rx.try_iter());
            let ask = match self.backlog.pop_front() {
                Some(a) => a,
                None if self.summary.is_some() => {
                    self.summary_step();
                    continue;
                }
                None => match rx.recv() {
                    Ok(a) => a,
                    Err(_) => return,
                },
            };
            match ask {
                Ask::Chunk(n) => self.send_chunk(n),
                Ask::Oldest => {
                    while self.found(u32::MAX).is_none() && self.next.is_some() {}
                    let oldest = u32::try_from(self.chunks.len().saturating_sub(1)).unwrap_or(0);
                    self.send_chunk(oldest);
                }
                Ask::Search {
                    generation,
                    needle,
                    from,
                    older,
                } => self.search(rx, generation, &needle, from, older),
                Ask::Reload { leaf } => {
                    match Self::open(self.path.clone(), self.events.clone(), self.epoch + 1, leaf) {
                        Ok(w) => *self = w,
                        Err(e) => self.events.send(Event::Notice(
                            NoticeLevel::Error,
                            format!("the session's history cannot be read again: {e}"),
                        )),
                    }
                }
            }
        }
    }

    /// Chunk `n`'s entry ids, finding chunks up to it from metadata; `None` past the oldest.
    fn found(&mut self, n: u32) -> Option<&[u64]> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        while self.chunks.len() <= n {
            let start = self.next?;
            let mut ids = Vec::new();
            let mut bytes = 0u64;
            let mut at = start;
            loop {
                let meta = match self.reader.entry_meta(EntryId(at)) {
                    Ok(m) => m,
                    Err(e) => {
                        self.events.send(Event::Notice(
                            NoticeLevel::Warning,
                            format!("the history before entry {at} cannot be shown: {e}; `smith sessions verify` has the details"),
                        ));
                        self.next = None;
                        break;
                    }
                };
                ids.push(at);
                bytes += u64::from(meta.body_len);
                let turn_start = meta.record_kind == Record::SUBMISSION
                    && (ids.len() >= CHUNK_ENTRIES || bytes >= CHUNK_BYTES);
                self.next = (meta.parent != 0).then_some(meta.parent);
                if turn_start || ids.len() >= CHUNK_MOST || self.next.is_none() {
                    break;
                }
                at = meta.parent;
            }
            ids.reverse();
            self.chunks.push(ids);
        }
        self.chunks.get(n).map(Vec::as_slice)
    }

    /// The entries of `ids` whose kind is one of `kinds`, decoded (damaged ones skipped and
    /// said once).
    fn entries(&mut self, ids: &[u64], kinds: &[u16]) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut damaged = None;
        for &id in ids {
            match self
                .reader
                .entry_if(EntryId(id), |m| kinds.contains(&m.record_kind))
            {
                Ok((_, Some(e))) => out.push(e),
                Ok((_, None)) => {}
                Err(e) => {
                    damaged.get_or_insert((id, e));
                }
            }
        }
        if let Some((id, e)) = damaged {
            self.events.send(Event::Notice(
                NoticeLevel::Warning,
                format!("entry {id} and others near it cannot be shown: {e}"),
            ));
        }
        out
    }

    /// Chunk `n` folded into blocks; `None` past the oldest.
    fn chunk(&mut self, n: u32) -> Option<Chunk> {
        let ids = self.found(n)?.to_vec();
        let entries = self.entries(&ids, &SHOWN);
        let intents = smith_app::playback::transcript_intents(&entries);
        let older = self.next.is_some() || self.chunks.len() > n as usize + 1;
        Some(Chunk {
            number: n,
            blocks: Transcript::fold_all(&intents),
            older,
        })
    }

    fn send_chunk(&mut self, n: u32) {
        let chunk = self.chunk(n).unwrap_or(Chunk {
            number: n,
            blocks: Vec::new(),
            older: false,
        });
        self.events.send(Event::Chunk {
            epoch: self.epoch,
            chunk,
        });
    }

    /// One chunk more of the walk for cost and prompts; at the end, the summary is sent.
    fn summary_step(&mut self) {
        let Some((n, mut cost, mut prompts)) = self.summary.take() else {
            return;
        };
        let Some(ids) = self.found(n).map(<[u64]>::to_vec) else {
            prompts.reverse();
            self.events.send(Event::Summary {
                epoch: self.epoch,
                cost_usd: cost,
                prompts,
            });
            return;
        };
        let entries = self.entries(&ids, &COSTED);
        if let Some(c) = smith_app::inspect::cost_usd(entries.iter()) {
            *cost.get_or_insert(0.0) += c;
        }
        for e in entries.iter().rev() {
            if let Record::Message(m) = &e.record
                && m.message.role == Role::User
            {
                prompts.push(m.message.text());
            }
        }
        self.summary = Some((n + 1, cost, prompts));
    }

    /// Search chunk by chunk from `from`, toward older or newer chunks; dropped when a later
    /// search is asked for.
    fn search(
        &mut self,
        rx: &mpsc::Receiver<Ask>,
        generation: u64,
        needle: &str,
        from: (u32, Option<usize>),
        older: bool,
    ) {
        let (mut n, mut beyond) = from;
        loop {
            self.backlog.extend(rx.try_iter());
            if self
                .backlog
                .iter()
                .any(|a| matches!(a, Ask::Search { .. } | Ask::Reload { .. }))
            {
                return;
            }
            let Some(chunk) = self.chunk(n) else {
                break;
            };
            let hit = |(i, b): (usize, &Block)| b.matches(needle).then_some(i);
            let found = if older {
                let end = beyond.unwrap_or(chunk.blocks.len()).min(chunk.blocks.len());
                chunk.blocks[..end].iter().enumerate().rev().find_map(hit)
            } else {
                let start = beyond.map_or(0, |i| i + 1);
                chunk.blocks.iter().enumerate().skip(start).find_map(hit)
            };
            if let Some(index) = found {
                self.events.send(Event::Found {
                    generation,
                    epoch: self.epoch,
                    chunk,
                    index,
                });
                return;
            }
            beyond = None;
            match (older, n.checked_sub(1)) {
                (true, _) => n += 1,
                (false, Some(newer)) => n = newer,
                (false, None) => break,
            }
        }
        self.events.send(Event::NotFound { generation, older });
    }
}

/// Follow session `o.id` at `path` from entry `from`: batches of intents while `o.live` is
/// set; paused (nothing read) while it is not; ended when `o.stop` is set.
fn follow(path: PathBuf, o: Observe, from: u64, events: Events) {
    let Observe { id, live, stop } = o;
    std::thread::spawn(move || {
        // The plan the branch holds now; its later changes come with the records followed.
        events.send(Event::Plan(smith_app::inspect::plan_of(&path)));
        let mut follow = match smith_app::inspect::Follow::start(&path, id, Some(from)) {
            Ok(f) => f,
            Err(e) => {
                events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!("the session cannot be observed: {e}"),
                ));
                return;
            }
        };
        let mut streaming = smith_app::live::LiveSnapshot::default();
        while !stop.load(Ordering::SeqCst) {
            if live.load(Ordering::SeqCst) {
                let mut batch = Vec::new();
                let polled = follow.poll(&mut |entry| {
                    batch.extend(entry_intents(entry));
                    if batch.len() >= BATCH {
                        events.send(Event::Observed(std::mem::take(&mut batch)));
                    }
                    ControlFlow::Continue(())
                });
                if !batch.is_empty() {
                    events.send(Event::Observed(batch));
                }
                // What the writer streams, on top of what it committed.
                let now = smith_app::live::read_live(&path);
                if now != streaming {
                    streaming = now.clone();
                    events.send(Event::Streaming(now));
                }
                match polled {
                    Ok(p) => {
                        if let Some((a, b)) = p.withheld {
                            events.send(Event::Notice(
                                NoticeLevel::Warning,
                                format!("entries {a}..={b} lie in a damaged change and are not shown; `smith sessions verify {id}` has the details"),
                            ));
                            return;
                        }
                        if p.idle {
                            events.send(Event::WriterGone);
                        }
                    }
                    Err(e) => {
                        events.send(Event::Notice(
                            NoticeLevel::Error,
                            format!("observing the session stopped: {e}"),
                        ));
                        return;
                    }
                }
            }
            std::thread::sleep(POLL);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::{ContentBlock, EntryId, Message, StopReason, ToolCall, ToolResult};
    use smith_store::{MessageRecord, ToolResultRecord};
    use smith_ui_intents::Intent;

    fn entry(id: u64, record: Record) -> Entry {
        Entry {
            id: EntryId(id),
            parent: None,
            pair: None,
            timestamp_ms: 0,
            record,
        }
    }

    #[test]
    fn messages_tool_calls_and_results_become_the_live_intents() {
        let call = ToolCall {
            id: "c1".into(),
            name: "read".into(),
            arguments: serde_json::json!({"path": "a.txt"}),
        };
        let assistant = Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text {
                    text: "reading".into(),
                },
                ContentBlock::ToolCall(call),
            ],
        };
        let record = Record::Message(MessageRecord {
            message: assistant,
            model: None,
            stop_reason: Some(StopReason::ToolUse),
            usage: None,
            error: None,
            attempt: None,
        });
        let intents = entry_intents(&entry(3, record));
        assert!(matches!(
            &intents[0],
            Intent::MessageEnd { message_id: 3, .. }
        ));
        assert!(
            matches!(&intents[1], Intent::ToolStart { call_id, name, .. } if call_id == "c1" && name == "read")
        );
        let result = Record::ToolResult(ToolResultRecord {
            result: ToolResult {
                call_id: "c1".into(),
                name: "read".into(),
                output: "hello".into(),
                is_error: false,
            },
        });
        let intents = entry_intents(&entry(4, result));
        assert!(
            matches!(&intents[0], Intent::ToolEnd { output, entry_id: Some(4), .. } if output == "hello")
        );
        let mut t = smith_render_terminal::transcript::Transcript::new();
        for i in entry_intents(&entry(
            3,
            Record::Abort(smith_store::Abort {
                reason: "Esc".into(),
            }),
        )) {
            t.apply(&i);
        }
        assert_eq!(t.blocks().len(), 1);
    }

    /// A compaction read back from the file draws what its live end drew: the live run's
    /// `compaction_end` (as the agent emits it) and the recorded entry's intents fold into the
    /// same transcript block.
    #[test]
    fn a_recorded_compaction_reads_back_as_the_block_its_live_end_drew() {
        let record = smith_store::Compaction {
            summary: "The user asked for a summary of the readme.".into(),
            first_kept: Some(EntryId(9)),
            attempt: Some(EntryId(7)),
            usage: None,
            carried: None,
            started: Some(smith_store::CompactionStarted {
                reason: smith::CompactionReason::Threshold,
                summarized: 4,
                kept: 2,
                estimated_tokens: 1200,
                kept_tokens: None,
            }),
        };
        let live = Intent::CompactionEnd {
            reason: smith::CompactionReason::Threshold,
            entry_id: Some(8),
            first_kept: Some(9),
            summary: Some(record.summary.clone()),
            usage: None,
            cost_usd: None,
            error: None,
        };
        let read_back = entry_intents(&entry(8, Record::Compaction(record)));
        assert_eq!(read_back, vec![live.clone()]);
        let mut shown_live = smith_render_terminal::transcript::Transcript::new();
        shown_live.apply(&live);
        let mut shown_back = smith_render_terminal::transcript::Transcript::new();
        for i in &read_back {
            shown_back.apply(i);
        }
        assert_eq!(shown_live.blocks(), shown_back.blocks());
        assert_eq!(shown_back.blocks().len(), 1);
    }
}
