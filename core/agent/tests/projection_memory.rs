//! The projection's working set (SMH-SPEC-SPEC0001: Sessions → Effective request context —
//! "projection and provenance obey bounded working-set laws; they do not require whole-history
//! residency"; plan SMH-PLAN-99TPLN9I B2): the heap bytes allocated while projecting a
//! selected branch stay the same when unrelated branches grow around it — 5,000 more entries
//! holding 4 KiB tool results each — because only the selected ancestry is read and only the
//! kinds the projection needs are decoded.

use smith::{EntryId, Message, SessionId, ToolResult};
use smith_store::{
    MessageRecord, NewEntry, Record, SessionReader, SessionWriter, ToolResultRecord,
};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

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

/// The reader's bounded caches: four 64 KiB blocks and the index frames a lookup reads.
const READER_CACHES: usize = 4 * 64 * 1024 + 64 * 1024;

#[test]
fn the_projection_working_set_is_flat_in_unrelated_history() {
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
