//! Bench: the terminal UI's transcript window, headless (the real state, storage worker and
//! drawing, into a 100×40 buffer), in release. Figures: the p99 frame time while paging
//! through a 10,000-entry session from the newest line to the oldest (chunks read as the
//! view nears them); the p99 frame time with 10,000 live blocks while the newest one
//! streams; the same while a tool streams its output under a ticking spinner; search across the 10,000-entry session → its first hit, the match in the oldest
//! turn (read through the storage worker). Run by `cargo xtask bench`; prints `name value`
//! lines.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyModifiers};
use smith::{ContentBlock, Message, Role, StopReason};
use smith_testkit::large::{Shape, large_session};
use smith_tui::headless::Headless;
use smith_ui_intents::{DeltaKind, Intent};

const DEADLINE: Duration = Duration::from_secs(60);

fn p99(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[(samples.len() * 99 / 100).min(samples.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    // About 10,000 entries: 10 per turn, ~2,100 bytes a turn with 200-byte results.
    let session = large_session(
        dir.path(),
        Shape {
            result_bytes: 200,
            file_bytes: 10_000 * 210,
            bulk_off_branch: false,
            compacted: false,
        },
        "/work",
    );
    assert!(session.last_id >= 9_000, "{} entries", session.last_id);

    // Paging from the newest line to the oldest: each page is a frame.
    let mut ui = Headless::open(&session.path, 100, 40);
    ui.settle(DEADLINE).unwrap();
    let mut frames = Vec::new();
    let mut last = String::new();
    loop {
        let started = Instant::now();
        ui.key(KeyCode::PageUp, KeyModifiers::NONE);
        frames.push(ms(started.elapsed()));
        ui.settle(DEADLINE).unwrap();
        let screen = ui.screen();
        if screen == last {
            break;
        }
        last = screen;
    }
    assert!(last.contains("Read the README again (0)"), "{last}");
    println!("tui_frame_p99_paging_10k_ms {:.3}", p99(frames));

    // 10,000 live blocks, the newest streaming.
    let one_dir = dir.path().join("one");
    std::fs::create_dir_all(&one_dir).unwrap();
    let one = large_session(
        &one_dir,
        Shape {
            result_bytes: 10,
            file_bytes: 1,
            bulk_off_branch: false,
            compacted: false,
        },
        "/work",
    );
    let mut ui = Headless::open(&one.path, 100, 40);
    ui.settle(DEADLINE).unwrap();
    for id in 0..10_000u64 {
        ui.apply(&Intent::MessageEnd {
            message_id: id,
            entry_id: Some(id),
            message: Message {
                role: if id % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                },
                content: vec![ContentBlock::Text {
                    text: format!("message {id}: some **markdown** and `code` to lay out"),
                }],
            },
            stop_reason: None,
            usage: None,
            recorded: true,
        });
    }
    ui.frame();
    ui.apply(&Intent::MessageStart {
        message_id: 10_000,
        role: Role::Assistant,
    });
    let mut frames = Vec::new();
    for i in 0..500 {
        ui.apply(&Intent::MessageDelta {
            message_id: 10_000,
            kind: DeltaKind::Text,
            text: format!("word{i} "),
        });
        let started = Instant::now();
        ui.frame();
        frames.push(ms(started.elapsed()));
    }
    ui.apply(&Intent::MessageEnd {
        message_id: 10_000,
        entry_id: Some(10_000),
        message: Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text { text: "end".into() }],
        },
        stop_reason: Some(StopReason::EndTurn),
        usage: None,
        recorded: true,
    });
    println!("tui_frame_p99_live_10k_ms {:.3}", p99(frames));

    // The same 10,000 blocks while a tool streams its output: each frame a new preview of
    // ten lines and the spinner's tick.
    ui.apply(&Intent::ToolStart {
        call_id: "bench".into(),
        name: "bash".into(),
        arguments: serde_json::json!({"command": "cargo build"}),
    });
    let mut frames = Vec::new();
    let start = Instant::now();
    for i in 0..500u64 {
        let text: String = (i..i + 10)
            .map(|n| format!("   Compiling crate-{n} v0.1.0 (/work/crates/crate-{n})\n"))
            .collect();
        ui.apply(&Intent::ToolUpdate {
            call_id: "bench".into(),
            text,
        });
        ui.tick(start + Duration::from_millis(100 * i));
        let started = Instant::now();
        ui.frame();
        frames.push(ms(started.elapsed()));
    }
    println!("tui_frame_p99_tool_streaming_10k_ms {:.3}", p99(frames));

    // Search from the newest for the oldest turn's prompt: every chunk in between is read.
    let mut times = Vec::new();
    for _ in 0..5 {
        // The bundled key bindings: Ctrl+R is the product layer's.
        let mut ui = Headless::open(&session.path, 100, 40).with_bundled_keys();
        ui.settle(DEADLINE).unwrap();
        ui.key(KeyCode::Char('r'), KeyModifiers::CONTROL);
        let started = Instant::now();
        ui.type_text("again (0)");
        ui.settle(DEADLINE).unwrap();
        times.push(ms(started.elapsed()));
        assert!(ui.found(), "{}", ui.screen());
        assert!(ui.screen().contains("Read the README again (0)"));
    }
    times.sort_by(f64::total_cmp);
    println!("tui_search_10k_first_hit_ms {:.3}", times[times.len() / 2]);
}
