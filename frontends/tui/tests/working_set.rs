//! The working set (spec: Working sets): the transcript the terminal UI holds follows what
//! is visible plus a bounded cache of chunks, not the history's size. A 1k- and a 100k-entry
//! session (the large-session builder), each scrolled through from the newest to the oldest
//! and back, hold resident transcripts within 2× of each other.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyModifiers};
use smith_testkit::large::{Shape, large_session};
use smith_tui::headless::Headless;

const DEADLINE: Duration = Duration::from_secs(60);

/// A session of about `entries` entries; its file and its last entry id.
fn session(dir: &std::path::Path, entries: u64) -> (std::path::PathBuf, u64) {
    // One turn of the builder is 10 entries of about 2,100 bytes with 200-byte results.
    let built = large_session(
        dir,
        Shape {
            result_bytes: 200,
            file_bytes: entries * 210,
            bulk_off_branch: false,
        },
        "/work",
    );
    (built.path, built.last_id)
}

/// The most resident transcript bytes and chunks seen while paging `pages` up from the
/// newest, then jumping to the oldest and paging `pages` down; and the screens at the
/// newest and at the oldest.
fn scrolled(path: &std::path::Path, pages: usize) -> (usize, usize, String, String) {
    let mut ui = Headless::open(path, 100, 40);
    ui.settle(DEADLINE).unwrap();
    let newest = ui.screen();
    let (mut bytes, mut chunks) = (ui.resident_bytes(), ui.resident_chunks());
    let mut step = |ui: &mut Headless, code: KeyCode, modifiers: KeyModifiers| {
        ui.key(code, modifiers);
        ui.settle(DEADLINE).unwrap();
        bytes = bytes.max(ui.resident_bytes());
        chunks = chunks.max(ui.resident_chunks());
    };
    for _ in 0..pages {
        step(&mut ui, KeyCode::PageUp, KeyModifiers::NONE);
    }
    step(&mut ui, KeyCode::Home, KeyModifiers::CONTROL);
    let oldest = ui.screen();
    for _ in 0..pages {
        step(&mut ui, KeyCode::PageDown, KeyModifiers::NONE);
    }
    (bytes, chunks, newest, oldest)
}

#[test]
fn resident_transcript_memory_is_flat_in_the_history_size() {
    let dir = tempfile::tempdir().unwrap();
    let small_dir = dir.path().join("small");
    let big_dir = dir.path().join("big");
    std::fs::create_dir_all(&small_dir).unwrap();
    std::fs::create_dir_all(&big_dir).unwrap();
    let (small, small_last) = session(&small_dir, 1_000);
    let (big, big_last) = session(&big_dir, 100_000);
    assert!((800..2_000).contains(&small_last), "{small_last} entries");
    assert!((80_000..200_000).contains(&big_last), "{big_last} entries");

    let (small_bytes, small_chunks, newest, oldest) = scrolled(&small, 60);
    // The small session is scrolled through whole: its newest and its oldest turn shown.
    assert!(newest.contains("I have read the README."), "{newest}");
    assert!(oldest.contains("Read the README again (0)"), "{oldest}");
    let (big_bytes, big_chunks, newest, oldest) = scrolled(&big, 60);
    assert!(newest.contains("I have read the README."), "{newest}");
    assert!(oldest.contains("Read the README again (0)"), "{oldest}");

    assert!(
        big_bytes <= 2 * small_bytes,
        "resident transcript: {big_bytes} bytes for {big_last} entries against {small_bytes} for {small_last}"
    );
    assert!(
        big_chunks <= smith_render_terminal::window::RESIDENT_CHUNKS + 1,
        "{big_chunks} chunks resident (small: {small_chunks})"
    );
}
