//! The projection's working set (SMH-SPEC-SPEC0001: Sessions → Effective request context —
//! "projection and provenance obey bounded working-set laws; they do not require whole-history
//! residency"; plan SMH-PLAN-99TPLN9I B2): the heap bytes allocated while projecting a
//! selected branch stay the same when unrelated branches grow around it — 5,000 more entries
//! holding 4 KiB tool results each — because only the selected ancestry is read and only the
//! kinds the projection needs are decoded. And continuing a session compacted at its end reads
//! nothing before the compaction's boundary (issue 69), counted by the kernel per thread.

use smith::{EntryId, Message, SessionId, ToolResult};
use smith_store::{
    MessageRecord, NewEntry, Record, SessionReader, SessionWriter, ToolResultRecord,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// The allocator's counts are process-wide: one measuring test at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn user(text: &str) -> Record {
    Record::Message(MessageRecord {
        message: Message::user_text(text),
        model: None,
        stop_reason: None,
        usage: None,
        error: None,
        attempt: None,
    })
}

/// A session whose selected branch holds 200 user messages, with `unrelated` entries of 4 KiB
/// tool output on another branch written first; the selected leaf.
fn session(dir: &std::path::Path, unrelated: usize) -> (std::path::PathBuf, EntryId) {
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir, id).unwrap();
    let root = w.append(&[user("root")]).unwrap()[0];
    let output: String = (0..4096)
        .map(|i| char::from(b'a' + (i % 23) as u8))
        .collect();
    for chunk in 0..unrelated / 100 {
        let batch: Vec<NewEntry> = (0..100)
            .map(|i| {
                NewEntry::from(Record::ToolResult(ToolResultRecord {
                    result: ToolResult {
                        call_id: format!("c{chunk}-{i}"),
                        name: "read".into(),
                        output: output.clone(),
                        is_error: false,
                    },
                }))
            })
            .collect();
        w.append_entries(&batch).unwrap();
    }
    w.select(root).unwrap();
    let mut leaf = root;
    for i in 0..200 {
        leaf = w
            .append(&[user(&format!("message {i} of the selected branch"))])
            .unwrap()[0];
    }
    let path = w.path().to_owned();
    w.close().unwrap();
    (path, leaf)
}

/// The heap bytes allocated while `project` runs — a bound on its working set, which would
/// grow by the size of every entry it decoded — and the projection's length.
fn bytes_of_projection(path: &std::path::Path, leaf: EntryId) -> (usize, usize) {
    let mut reader = SessionReader::open(path).unwrap();
    let region = Region::new(GLOBAL);
    let projection = smith_agent::project(&mut reader, Some(leaf)).unwrap();
    let change = region.change();
    (change.bytes_allocated, projection.items.len())
}

/// The reader's bounded caches: sixteen 4 KiB blocks and the index frames a lookup reads.
const READER_CACHES: usize = 16 * 4 * 1024 + 64 * 1024;

#[test]
fn the_projection_working_set_is_flat_in_unrelated_history() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut runs = Vec::new();
    for unrelated in [0, 5_000, 20_000] {
        let dir = tempfile::tempdir().unwrap();
        let (path, leaf) = session(dir.path(), unrelated);
        let size = std::fs::metadata(&path).unwrap().len();
        let (bytes, items) = bytes_of_projection(&path, leaf);
        assert_eq!(items, 201);
        runs.push((unrelated, size, bytes));
    }
    let (_, small_size, alone) = runs[0];
    let (_, _, beside) = runs[1];
    let (_, large_size, far_beside) = runs[2];
    assert!(large_size > 50 * small_size, "{runs:?}");
    // The same branch projects within the reader's bounded caches of what it takes alone,
    // and four times the unrelated history costs nothing more.
    assert!(beside <= alone + READER_CACHES, "{runs:?}");
    assert!(far_beside <= beside + 64 * 1024, "{runs:?}");
}

/// Heap bytes allocated by `Session::open` of the session at `path`, then by its first
/// `context()` (the projection opening leaves to the first request); the context's length.
fn bytes_of_open(path: &std::path::Path, id: SessionId) -> (usize, usize, usize) {
    let region = Region::new(GLOBAL);
    let mut session = smith_agent::Session::open(path, id).unwrap().session;
    let opened = region.change().bytes_allocated;
    let region = Region::new(GLOBAL);
    let items = session.context().unwrap().len();
    (opened, region.change().bytes_allocated, items)
}

/// Spec: Working sets — "Opening, browsing, resuming, and forking do not require a
/// whole-session payload arena"; owned content is materialized at the consumer boundary that
/// requires it. Opening two sessions of about as many `read` turns, one with 1 KiB and one
/// with 32 KiB of tool output per turn, allocates about the same; the tool output is read
/// only when the context is first asked for.
#[test]
fn opening_a_session_reads_no_tool_output() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut runs = Vec::new();
    for (result_bytes, file_bytes) in [(1 << 10, 256 << 10), (32 << 10, 8 << 20)] {
        let dir = tempfile::tempdir().unwrap();
        let shape = smith_testkit::large::Shape {
            result_bytes,
            file_bytes,
            bulk_off_branch: false,
            compacted: false,
        };
        let large = smith_testkit::large::large_session(dir.path(), shape, "/w");
        let (opened, projected, items) = bytes_of_open(&large.path, large.id);
        // Each turn projects its user message, two assistant messages and the tool result.
        assert_eq!(items, 4 * large.turns, "{result_bytes}");
        runs.push((large.turns, opened, projected));
    }
    let [(small_turns, small_open, _), (turns, open, projected)] = runs[..] else {
        unreachable!()
    };
    let per_turn = small_open / small_turns;
    assert!(
        open <= per_turn * turns * 3 / 2 + READER_CACHES,
        "opening allocated {open} bytes for {turns} turns of 32 KiB output, {small_open} for {small_turns} turns of 1 KiB"
    );
    // Decoding the output would allocate it twice over (the effect completion's and the tool
    // result's copy); opening stays under one copy.
    assert!(open < turns * (32 << 10), "{runs:?}");
    // The first request's context holds every tool result.
    assert!(projected >= turns * (32 << 10), "{runs:?}");
}

/// Bytes this thread has read through `read(2)` and its kin since it started (Linux `rchar` of
/// `/proc/thread-self/io`): a counting reader under every file the store opens on it.
#[cfg(target_os = "linux")]
fn read_by_this_thread() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/io").unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("rchar:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

/// Issue 69: "Continuing reads what the next request will hold: after a compaction, nothing
/// before its boundary but the summary." A session of 192 turns of 64 KiB `read` output,
/// compacted at its end keeping its last turn: projecting its next request's context reads the
/// kept turn's body and the heads of its entries, never a summarized body (one alone is 64
/// KiB; they total 12 MiB); opening it for writing reads what opening a reader does (the
/// commit, the newest index frame, the heads of the entries after it) and the heads of the
/// kept turn.
#[cfg(target_os = "linux")]
#[test]
fn continuing_after_a_compaction_reads_nothing_before_its_boundary() {
    const RESULT: usize = 64 << 10;
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let shape = smith_testkit::large::Shape {
        result_bytes: RESULT,
        file_bytes: 24 << 20,
        bulk_off_branch: false,
        compacted: true,
    };
    let large = smith_testkit::large::large_session(dir.path(), shape, "/w");
    assert!(large.turns >= 150, "{}", large.turns);
    let measured = |what: &mut dyn FnMut()| {
        let before = read_by_this_thread();
        what();
        read_by_this_thread() - before
    };
    let mut reader = None;
    let index = measured(&mut || reader = Some(SessionReader::open(&large.path).unwrap()));
    let mut reader = reader.unwrap();
    let mut items = 0;
    let walked = measured(&mut || {
        items = smith_agent::project(&mut reader, Some(large.leaf))
            .unwrap()
            .items
            .len();
    });
    // The kept turn (its user message, two assistant messages, the tool result), then the
    // summary.
    assert_eq!(items, 5);
    // The kept tool result is read (the count is live), and nothing of the summarized turns.
    assert!(
        walked > RESULT as u64 / 2 && walked < RESULT as u64 + (64 << 10),
        "the projection read {walked} bytes"
    );
    let mut session = None;
    let opened = measured(&mut || {
        session = Some(
            smith_agent::Session::open(&large.path, large.id)
                .unwrap()
                .session,
        );
    });
    assert!(
        opened < index + (64 << 10),
        "opening read {opened} bytes, a reader's opening {index}"
    );
    assert_eq!(session.unwrap().context().unwrap().len(), 5);
}

/// Issue 69: continuing reads "no body twice". A branch of 96 user messages of 64 KiB each,
/// its run ended: opening decodes the messages (the work state and recovery read them), and
/// the first request's context takes them from opening — with opening's reader, the file not
/// having grown — reading neither a message body nor the index again.
#[cfg(target_os = "linux")]
#[test]
fn the_first_context_reads_no_body_opening_read() {
    const TEXT: usize = 64 << 10;
    const MESSAGES: usize = 96;
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir.path(), id).unwrap();
    // Letters that do not compress: the frames hold about as many bytes as the text.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let text: String = (0..TEXT)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'A' + (state % 58) as u8)
        })
        .collect();
    for _ in 0..MESSAGES {
        w.append(&[user(&text)]).unwrap();
    }
    w.append(&[Record::RunEnd(smith_store::RunEnd {
        stop_reason: smith::StopReason::EndTurn,
        usage: smith::UsageTotals::default(),
        error: None,
        children: Vec::new(),
        memory: None,
    })])
    .unwrap();
    let path = w.path().to_owned();
    w.close().unwrap();
    let measured = |what: &mut dyn FnMut()| {
        let before = read_by_this_thread();
        what();
        read_by_this_thread() - before
    };
    let mut session = None;
    let opened = measured(&mut || {
        session = Some(smith_agent::Session::open(&path, id).unwrap().session);
    });
    let mut session = session.unwrap();
    let mut items = 0;
    let continued = measured(&mut || items = session.context().unwrap().len());
    assert_eq!(items, MESSAGES);
    assert!(
        opened > (MESSAGES * TEXT / 2) as u64,
        "opening read {opened} bytes, less than the messages"
    );
    assert!(
        continued < 4 << 10,
        "the first context read {continued} bytes after opening read {opened}"
    );
}
