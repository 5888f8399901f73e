//! The terminal widgets drawn into a ratatui `Buffer` and compared with insta snapshots (the
//! cells and their styles): Markdown, thinking, tool blocks and diffs, notices, sanitized text,
//! and the status line narrow and wide, writer and observer.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::widgets::Widget;
use serde_json::json;
use smith::{ContentBlock, Message, Role, StopReason};
use smith_render_terminal::Theme;
use smith_render_terminal::status::{Status, StatusLine};
use smith_render_terminal::transcript::Transcript;
use smith_render_terminal::window::{Scroll, Window};
use smith_ui_intents::{Access, DeltaKind, Intent, NoticeLevel};

fn message(role: Role, content: Vec<ContentBlock>) -> Message {
    Message { role, content }
}

fn text(t: &str) -> ContentBlock {
    ContentBlock::Text { text: t.to_owned() }
}

/// A user message then an assistant answer, as a run emits them.
fn exchange(t: &mut Transcript, id: u64, prompt: &str, answer: Vec<ContentBlock>) {
    t.apply(&Intent::MessageEnd {
        message_id: id,
        entry_id: Some(id),
        message: message(Role::User, vec![text(prompt)]),
        stop_reason: None,
        usage: None,
        recorded: true,
    });
    t.apply(&Intent::MessageStart {
        message_id: id + 1,
        role: Role::Assistant,
    });
    t.apply(&Intent::MessageEnd {
        message_id: id + 1,
        entry_id: Some(id + 1),
        message: message(Role::Assistant, answer),
        stop_reason: Some(StopReason::EndTurn),
        usage: None,
        recorded: true,
    });
}

fn draw(t: &Transcript, width: u16, height: u16, scroll: Scroll) -> Buffer {
    let theme = Theme::default();
    let mut window = Window::new();
    window.live = t.clone();
    window.scroll = scroll;
    window.layout(&theme, width);
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    window.render(area, &mut buf);
    buf
}

const MARKDOWN: &str = "# Plan\n\nWe change **two** files and *one* test:\n\n1. `core/a.rs` — the parser\n2. `core/b.rs`\n   - nested bullet that is long enough to wrap onto a second line\n\n> quoted advice\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\nSee [the docs](https://example.com).";

#[test]
fn markdown_answers() {
    let mut t = Transcript::new();
    exchange(&mut t, 1, "make a plan", vec![text(MARKDOWN)]);
    insta::assert_debug_snapshot!(draw(&t, 48, 24, Scroll::Follow));
}

#[test]
fn tables_are_drawn_as_tables_and_line_breaks_are_kept() {
    let theme = Theme::plain();
    let md = "Results:\nall green\n\n| Crate | Tests | Notes |\n|:--|--:|:-:|\n| smith-store | 412 | fast |\n| smith-host | 97 | wasm components, real files |\n";
    let lines = |width: u16| -> Vec<String> {
        smith_render_terminal::markdown::markdown(md, &theme, width)
            .iter()
            .map(|l| l.to_string().trim_end().to_owned())
            .collect()
    };
    assert_eq!(
        lines(60),
        [
            "Results:",
            "all green",
            "",
            "┌─────────────┬───────┬─────────────────────────────┐",
            "│ Crate       │ Tests │            Notes            │",
            "├─────────────┼───────┼─────────────────────────────┤",
            "│ smith-store │   412 │            fast             │",
            "│ smith-host  │    97 │ wasm components, real files │",
            "└─────────────┴───────┴─────────────────────────────┘",
        ]
    );
    // Narrow: the widest column gives way and its text wraps inside it.
    let narrow = lines(40);
    assert!(
        narrow
            .iter()
            .all(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= 40),
        "{narrow:#?}"
    );
    assert!(
        narrow
            .iter()
            .any(|l| l.starts_with("│ smith-host  │    97 │")),
        "{narrow:#?}"
    );
    assert!(narrow.len() > 9, "the notes wrapped: {narrow:#?}");
    // Too narrow for columns at all: each row as its cells' text.
    let tiny = lines(12);
    assert!(tiny.iter().any(|l| l.contains("Crate │")), "{tiny:#?}");
}

#[test]
fn thinking_is_collapsed_unless_shown() {
    let mut t = Transcript::new();
    let thinking = ContentBlock::Thinking {
        text: "the user wants a greeting, so greet".into(),
        signature: None,
        redacted: false,
    };
    exchange(&mut t, 1, "hi", vec![thinking, text("Hello!")]);
    insta::assert_debug_snapshot!("collapsed", draw(&t, 40, 5, Scroll::Follow));
    t.show_thinking = true;
    insta::assert_debug_snapshot!("shown", draw(&t, 40, 5, Scroll::Follow));
}

#[test]
fn streaming_deltas_then_the_authoritative_end() {
    let mut t = Transcript::new();
    t.apply(&Intent::MessageStart {
        message_id: 2,
        role: Role::Assistant,
    });
    for part in ["Hel", "lo wor", "ld"] {
        t.apply(&Intent::MessageDelta {
            message_id: 2,
            kind: DeltaKind::Text,
            text: part.into(),
        });
    }
    let theme = Theme::default();
    let live: Vec<String> = t
        .lines(&theme, 30)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(live, ["Hello world", "…"]);
    t.apply(&Intent::MessageEnd {
        message_id: 2,
        entry_id: Some(2),
        message: message(Role::Assistant, vec![text("Hello, world.")]),
        stop_reason: Some(StopReason::EndTurn),
        usage: None,
        recorded: true,
    });
    let done: Vec<String> = t
        .lines(&theme, 30)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(done, ["Hello, world."]);
}

#[test]
fn a_running_tool_ticks_a_spinner_and_its_time_and_keeps_only_its_newest_output() {
    use std::time::{Duration, Instant};
    let theme = Theme::plain();
    let shown = |t: &Transcript| -> Vec<String> {
        t.lines(&theme, 40)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let mut t = Transcript::new();
    t.apply(&Intent::ToolStart {
        call_id: "c1".into(),
        name: "bash".into(),
        arguments: json!({"command": "make"}),
    });
    assert!(t.running());
    // Not ticked yet: the still mark, no time.
    assert_eq!(shown(&t), ["◌ bash make"]);
    let start = Instant::now();
    assert!(t.tick(start));
    assert_eq!(shown(&t), ["⠋ bash make"]);
    // A tick within the same frame changes nothing (no redraw).
    let revision = t.revision();
    assert!(!t.tick(start + Duration::from_millis(50)));
    assert_eq!(t.revision(), revision);
    assert!(t.tick(start + Duration::from_millis(250)));
    assert_eq!(shown(&t), ["⠹ bash make"]);
    assert!(t.tick(start + Duration::from_secs(65)));
    assert_eq!(shown(&t), ["⠋ bash make · 1m 05s"]);
    // A program's newest output, twenty lines of it: only the last preview lines show.
    let output: String = (1..=20).map(|i| format!("step {i}\n")).collect();
    t.apply(&Intent::ToolUpdate {
        call_id: "c1".into(),
        text: output,
    });
    let lines = shown(&t);
    assert_eq!(
        lines.len(),
        1 + smith_render_terminal::transcript::PREVIEW_LINES
    );
    assert_eq!(lines.last().map(String::as_str), Some("  step 20"));
    // Ended: the mark says how, the clock is gone, and nothing ticks any more.
    t.apply(&Intent::ToolEnd {
        call_id: "c1".into(),
        name: "bash".into(),
        entry_id: Some(3),
        output: "built".into(),
        is_error: false,
        recorded: true,
    });
    assert!(!t.running());
    assert!(!t.tick(start + Duration::from_secs(70)));
    assert_eq!(shown(&t), ["● bash make", "  built"]);
}

#[test]
fn an_edit_whose_result_is_a_diff_shows_it_with_line_numbers() {
    let theme = Theme::plain();
    let mut t = Transcript::new();
    t.apply(&Intent::ToolStart {
        call_id: "e".into(),
        name: "edit".into(),
        arguments: json!({"path": "n.txt", "edits": [{"old_text": "line 9\n", "new_text": "nine\n"}]}),
    });
    t.apply(&Intent::ToolEnd {
        call_id: "e".into(),
        name: "edit".into(),
        entry_id: Some(4),
        output: "edited n.txt: 1 replacement(s) (sha256 ab)\n@@ -8,3 +8,3 @@\n line 8\n-line 9\n+nine\n line 10\n@@ -98,2 +98,2 @@\n-line 98\n+ninety-eight\n line 99".into(),
        is_error: false,
        recorded: true,
    });
    let lines: Vec<String> = t
        .lines(&theme, 60)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        [
            "● edit n.txt edits=[1]",
            "  edited n.txt: 1 replacement(s) (sha256 ab)",
            "   8  line 8",
            "   9 -line 9",
            "   9 +nine",
            "  10  line 10",
            "     ⋯",
            "  98 -line 98",
            "  98 +ninety-eight",
            "  99  line 99",
        ]
    );
}

#[test]
fn tool_activity_progress_preview_diff_and_error() {
    let mut t = Transcript::new();
    t.apply(&Intent::ToolStart {
        call_id: "c1".into(),
        name: "bash".into(),
        arguments: json!({"command": "cargo test"}),
    });
    t.apply(&Intent::ToolUpdate {
        call_id: "c1".into(),
        text: "running `bash -c 'cargo test'` in /work".into(),
    });
    insta::assert_debug_snapshot!("running", draw(&t, 50, 3, Scroll::Follow));
    let output: String = (1..=12).map(|i| format!("test t{i} ... ok\n")).collect();
    t.apply(&Intent::ToolEnd {
        call_id: "c1".into(),
        name: "bash".into(),
        entry_id: Some(5),
        output,
        is_error: false,
        recorded: true,
    });
    t.apply(&Intent::ToolStart {
        call_id: "c2".into(),
        name: "edit".into(),
        arguments: json!({"path": "src/lib.rs", "edits": [
            {"old_text": "fn a() {}\nfn b() {}\n", "new_text": "fn a() {}\nfn c() {}\n"},
        ]}),
    });
    t.apply(&Intent::ToolEnd {
        call_id: "c2".into(),
        name: "edit".into(),
        entry_id: Some(7),
        output: "edited src/lib.rs: 1 replacement(s) (sha256 9f86d0)".into(),
        is_error: false,
        recorded: true,
    });
    t.apply(&Intent::ToolStart {
        call_id: "c3".into(),
        name: "read".into(),
        arguments: json!({"path": "missing.txt"}),
    });
    t.apply(&Intent::ToolEnd {
        call_id: "c3".into(),
        name: "read".into(),
        entry_id: Some(9),
        output: "missing.txt does not exist".into(),
        is_error: true,
        recorded: true,
    });
    t.apply(&Intent::ToolStart {
        call_id: "c4".into(),
        name: "write".into(),
        arguments: json!({"path": "notes.md", "content": "# Notes\nfirst line\n"}),
    });
    t.apply(&Intent::ToolEnd {
        call_id: "c4".into(),
        name: "write".into(),
        entry_id: Some(11),
        output: "wrote 19 bytes to notes.md (sha256 3c1f0a)".into(),
        is_error: false,
        recorded: true,
    });
    insta::assert_debug_snapshot!("ended", draw(&t, 50, 28, Scroll::Follow));
}

#[test]
fn a_tool_error_is_shown_whole_and_wrapped_so_its_fix_is_read() {
    let mut t = Transcript::new();
    t.apply(&Intent::ToolStart {
        call_id: "c1".into(),
        name: "bash".into(),
        arguments: json!({"command": "make"}),
    });
    let error = "`bash` was not run: programs do not run in this project, which is not trusted (its .smith/config.kdl is not read); run `smith trust` in /work/project to trust it, then ask again";
    t.apply(&Intent::ToolEnd {
        call_id: "c1".into(),
        name: "bash".into(),
        entry_id: Some(5),
        output: error.into(),
        is_error: true,
        recorded: true,
    });
    let buffer = draw(&t, 40, 12, Scroll::Follow);
    let shown: String = (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                .trim()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join(" ");
    // Every character of it, in order (lines may break inside a path, at its `/`).
    let squeezed = |t: &str| t.split_whitespace().collect::<String>();
    assert!(
        squeezed(&shown).contains(&squeezed(error)),
        "the error is not shown whole: {shown:?}"
    );
    assert!(!shown.contains('…'), "the error was cut: {shown:?}");
}

#[test]
fn control_sequences_never_reach_the_buffer() {
    let mut t = Transcript::new();
    exchange(
        &mut t,
        1,
        "clear\u{1b}[2J",
        vec![text(
            "a \u{1b}]0;pwned\u{7}title and \u{1b}[31mred\u{1b}[0m and a bell\u{7}",
        )],
    );
    t.apply(&Intent::Notice {
        level: NoticeLevel::Warning,
        text: "osc 8 \u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\ here".into(),
    });
    let buf = draw(&t, 60, 6, Scroll::Follow);
    for cell in buf.content() {
        assert!(
            !cell.symbol().chars().any(|c| c.is_control()),
            "a control character reached the buffer: {:?}",
            cell.symbol()
        );
    }
    insta::assert_debug_snapshot!(buf);
}

#[test]
fn a_run_that_stops_says_why() {
    let mut t = Transcript::new();
    assert!(!t.apply(&Intent::RunEnd {
        stop_reason: StopReason::EndTurn,
        usage: Default::default(),
        cost_usd: None,
        error: None,
        memory: None,
    }));
    assert!(t.apply(&Intent::RunEnd {
        stop_reason: StopReason::Aborted,
        usage: Default::default(),
        cost_usd: None,
        error: None,
        memory: None,
    }));
    let lines: Vec<String> = t
        .lines(&Theme::default(), 40)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(lines, ["■ stopped (aborted)"]);
}

fn status_line(status: &Status, width: u16, theme: &Theme) -> Buffer {
    let area = Rect::new(0, 0, width, 1);
    let mut buf = Buffer::empty(area);
    StatusLine { status, theme }.render(area, &mut buf);
    buf
}

#[test]
fn status_line_narrow_and_wide_writer_and_observer() {
    let mut status = Status {
        model: "anthropic/claude-sonnet-4".into(),
        state: "round 2 · streaming".into(),
        cost_usd: Some(0.0123),
        context: Some((45_000, Some(200_000))),
        session: "019ad2c4e5f67a8b9c0d1e2f3a4b5c6d".into(),
        access: Some(Access::Writer),
        queued: 1,
        unconfined: false,
        permission_mode: None,
        input_mode: None,
    };
    let theme = Theme::default();
    insta::assert_debug_snapshot!("wide", status_line(&status, 100, &theme));
    insta::assert_debug_snapshot!("narrow", status_line(&status, 40, &theme));
    // Programs run without the OS sandbox: said at the right end, at any width.
    let text = |buf: &Buffer| buf.content().iter().map(|c| c.symbol()).collect::<String>();
    let mut unconfined = status.clone();
    unconfined.unconfined = true;
    for width in [100, 40] {
        let line = text(&status_line(&unconfined, width, &theme));
        assert!(line.trim_end().ends_with("no sandbox"), "{line:?}");
        assert!(!text(&status_line(&status, width, &theme)).contains("no sandbox"));
    }
    // The permission mode, when known, follows the state.
    let mut moded = status.clone();
    moded.permission_mode = Some("ask".into());
    let line = text(&status_line(&moded, 100, &theme));
    assert!(line.contains("round 2 · streaming · mode ask"), "{line:?}");
    // The vi mode's mode, when on, comes first.
    let mut vi = moded.clone();
    vi.input_mode = Some("NORMAL".into());
    let line = text(&status_line(&vi, 100, &theme));
    assert!(
        line.starts_with(" -- NORMAL -- · anthropic/claude-sonnet-4 · round 2"),
        "{line:?}"
    );
    status.access = Some(Access::Observer);
    insta::assert_debug_snapshot!("observer", status_line(&status, 100, &Theme::plain()));
}

#[test]
fn the_input_draft_its_chip_and_its_placeholder() {
    use smith_render_terminal::input::{Editor, InputView};
    let theme = Theme::default();
    let draw = |editor: &Editor, width: u16, height: u16| {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        let view = InputView {
            editor,
            placeholder: "Ask Smith… (Enter sends, Ctrl-J for a new line)",
            theme: &theme,
        };
        let cursor = view.cursor(area);
        view.render(area, &mut buf);
        (buf, cursor)
    };
    let empty = Editor::new();
    insta::assert_debug_snapshot!("placeholder", draw(&empty, 40, 1));
    let mut e = Editor::new();
    for c in "explain this log:".chars() {
        e.insert_char(c);
    }
    e.newline();
    let log: String = (1..=300).map(|i| format!("{i}: ok\n")).collect();
    e.paste(&log);
    for c in " and a long tail that wraps".chars() {
        e.insert_char(c);
    }
    insta::assert_debug_snapshot!("draft", draw(&e, 30, 3));
}
