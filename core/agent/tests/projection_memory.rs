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

#[test]
fn the_projection_working_set_is_flat_in_unrelated_history() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    let (small_path, small_leaf) = session(small.path(), 0);
    let (large_path, large_leaf) = session(large.path(), 5_000);
    assert!(
        std::fs::metadata(&large_path).unwrap().len()
            > 10 * std::fs::metadata(&small_path).unwrap().len()
    );
    let (small_peak, small_items) = bytes_of_projection(&small_path, small_leaf);
    let (large_peak, large_items) = bytes_of_projection(&large_path, large_leaf);
    assert_eq!(small_items, 201);
    assert_eq!(large_items, small_items);
    // The same selected branch projects in the same working set, whatever lies beside it
    // (a little slack for the index frames the lookup reads).
    assert!(
        large_peak <= small_peak + small_peak / 4 + 64 * 1024,
        "allocated while projecting: {large_peak} B beside 5,000 unrelated entries vs {small_peak} B alone"
    );
}
