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
            compacted: false,
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

/// What one turn of this process records and streams: the user's message, the answer and the
/// run's end; the answer's entry id first.
fn turn(writer: &mut smith_store::SessionWriter, ui: &mut Headless, n: usize) -> smith::EntryId {
    use smith::{Message, Role};
    use smith_testkit::message_record as message;
    use smith_ui_intents::Intent;
    let user = Message::user_text(format!("question {n}"));
    let answer = Message {
        role: Role::Assistant,
        content: vec![smith::ContentBlock::Text {
            text: format!("answer {n}: {}", "words ".repeat(40)),
        }],
    };
    let ids = writer
        .append(&[
            message(user.clone()),
            message(answer.clone()),
            smith_testkit::run_end_record(),
        ])
        .unwrap();
    for (id, message) in [(ids[0], user), (ids[1], answer)] {
        if message.role == Role::Assistant {
            ui.apply(&Intent::MessageStart {
                message_id: id.0,
                role: Role::Assistant,
            });
        }
        ui.apply(&Intent::MessageEnd {
            message_id: id.0,
            entry_id: Some(id.0),
            message,
            stop_reason: None,
            usage: None,
            recorded: true,
        });
    }
    ids[2]
}

/// Spec: Working sets — UI retention follows visible content and bounded scrollback caches,
/// not total history size; also for what the process itself runs. A writer that runs 600
/// turns in one process (1,200 live blocks) folds them into history at idle turn ends: the
/// live blocks and the resident transcript stay bounded, the newest screen shows each of the
/// latest turns once — also a turn that ran while a fold was under way — and the first turn
/// is still reached by scrolling.
#[test]
fn a_writers_own_turns_are_folded_into_history() {
    let dir = tempfile::tempdir().unwrap();
    let id = smith::SessionId::new_now();
    let mut writer = smith_store::SessionWriter::create(dir.path(), id).unwrap();
    let path = writer.path().to_owned();
    let mut ui = Headless::open(&path, 100, 40);
    ui.settle(DEADLINE).unwrap();
    let (mut live, mut bytes) = (0, 0);
    let mut at_300 = 0;
    for n in 0..600 {
        let leaf = turn(&mut writer, &mut ui, n);
        ui.work_ended(leaf.0);
        ui.settle(DEADLINE).unwrap();
        live = live.max(ui.live_blocks());
        bytes = bytes.max(ui.resident_bytes());
        if n == 300 {
            at_300 = ui.resident_bytes();
        }
    }
    assert!(live <= 202, "{live} live blocks at most (folded past 200)");
    assert!(
        bytes <= 2 * at_300,
        "resident transcript: {bytes} bytes at most over 600 turns, {at_300} after 301"
    );
    // A fold under way when the next turn streams: that turn stays live, shown once.
    let mut n = 600;
    loop {
        let leaf = turn(&mut writer, &mut ui, n);
        ui.work_ended(leaf.0);
        n += 1;
        if ui.folding() {
            break;
        }
        ui.settle(DEADLINE).unwrap();
    }
    let leaf = turn(&mut writer, &mut ui, n);
    ui.work_ended(leaf.0);
    ui.settle(DEADLINE).unwrap();
    assert!(
        ui.live_blocks() <= 4,
        "{} live blocks after the fold",
        ui.live_blocks()
    );
    let newest = ui.screen();
    for n in [n - 2, n - 1, n] {
        let question = format!("question {n}");
        let shown = newest.lines().filter(|l| l.ends_with(&question)).count();
        assert_eq!(shown, 1, "turn {n} shown once:\n{newest}");
    }
    ui.key(
        crossterm::event::KeyCode::Home,
        crossterm::event::KeyModifiers::CONTROL,
    );
    ui.settle(DEADLINE).unwrap();
    let oldest = ui.screen();
    assert!(oldest.contains("question 0"), "{oldest}");
}
