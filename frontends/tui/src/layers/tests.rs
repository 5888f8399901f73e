//! The overlays as the loop drives them — search with its highlight, selection, the entry
//! detail, help over them — drawn into a buffer and compared with snapshots.

use super::*;
use crate::draw::draw;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::style::Modifier;
use smith::{ContentBlock, Message, Role, StopReason};
use smith_render_terminal::Theme;
use smith_render_terminal::window::Chunk;
use smith_ui_intents::Intent;
use std::path::PathBuf;

fn ui() -> Ui {
    let mut ui = Ui::new(
        Theme::plain(),
        crate::ui::Held::Writer,
        "0190".into(),
        PathBuf::from("."),
    )
    .with_bundled_product();
    ui.unprepared = None;
    ui
}

fn press(ui: &mut Ui, code: KeyCode, modifiers: KeyModifiers) -> Option<Effect> {
    ui.key(KeyEvent::new(code, modifiers))
}

fn plain(ui: &mut Ui, code: KeyCode) -> Option<Effect> {
    press(ui, code, KeyModifiers::NONE)
}

fn typed(ui: &mut Ui, s: &str) {
    for c in s.chars() {
        plain(ui, KeyCode::Char(c));
    }
}

fn said(ui: &mut Ui, id: u64, role: Role, text: &str) {
    ui.apply(&Intent::MessageEnd {
        message_id: id,
        entry_id: Some(id),
        message: Message {
            role,
            content: vec![ContentBlock::Text {
                text: text.to_owned(),
            }],
        },
        stop_reason: (role == Role::Assistant).then_some(StopReason::EndTurn),
        usage: None,
        recorded: true,
    });
}

/// The screen as text, and under each row a row marking (`^`) the cells drawn with
/// `modifier` (none: text only): the buffer's cells and the style that matters here.
fn drawn(ui: &mut Ui, w: u16, h: u16, modifier: Modifier) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    draw(ui, area, &mut buf);
    let mut out = Vec::new();
    for y in 0..h {
        let row: String = (0..w).map(|x| buf[(x, y)].symbol().to_owned()).collect();
        out.push(row.trim_end().to_owned());
        let marks: String = (0..w)
            .map(|x| {
                if buf[(x, y)].modifier.contains(modifier) {
                    '^'
                } else {
                    ' '
                }
            })
            .collect();
        if !modifier.is_empty() && marks.contains('^') {
            out.push(marks.trim_end().to_owned());
        }
    }
    out.join("\n")
}

fn search_bar(ui: &Ui) -> (Option<Key>, &Finding) {
    match ui.layers.last() {
        Some(Layer::Search(s)) => (s.current, &s.finding),
        other => panic!("the search is not on top: {other:?}"),
    }
}

#[test]
fn search_highlights_matches_and_steps_from_the_newest_to_older_then_into_history() {
    let mut ui = ui();
    said(&mut ui, 1, Role::User, "where is the needle?");
    said(&mut ui, 2, Role::Assistant, "The Needle is in src/hay.rs.");
    said(&mut ui, 3, Role::User, "thanks");
    press(&mut ui, KeyCode::Char('r'), KeyModifiers::CONTROL);
    typed(&mut ui, "needle");
    // The newest match first (case ignored), both occurrences highlighted.
    assert_eq!(search_bar(&ui).0, Some(Key::live(1)));
    let s = drawn(&mut ui, 60, 12, Modifier::REVERSED);
    insta::assert_snapshot!("search_highlight", s);
    let runs = s.lines().filter(|l| l.trim() == "^^^^^^").count();
    assert_eq!(runs, 2, "the two matches and nothing else:\n{s}");
    assert!(
        !s.contains("new output below"),
        "nothing is below the view:\n{s}"
    );
    // Ctrl+U clears the query; typed again, the newest match again.
    press(&mut ui, KeyCode::Char('u'), KeyModifiers::CONTROL);
    match ui.layers.last() {
        Some(Layer::Search(s)) => assert!(s.query.is_empty() && s.current.is_none()),
        other => panic!("the search is not on top: {other:?}"),
    }
    typed(&mut ui, "needle");
    assert_eq!(search_bar(&ui).0, Some(Key::live(1)));
    // Up: the older one.
    plain(&mut ui, KeyCode::Up);
    assert_eq!(search_bar(&ui).0, Some(Key::live(0)));
    // Up again: nothing older is live, so the storage worker searches history.
    ui.asks.clear();
    plain(&mut ui, KeyCode::Up);
    assert!(matches!(search_bar(&ui).1, Finding::Searching));
    let generation = ui.generation;
    assert!(
        matches!(
            &ui.asks[..],
            [Ask::Search { needle, from: (0, None), older: true, .. }] if needle == "needle"
        ),
        "{:?}",
        ui.asks
    );
    // The worker's answer: block 0 of history chunk 2 is shown, highlighted.
    let block = Block::User {
        text: "an old needle from yesterday".into(),
    };
    let chunk = Chunk {
        number: 2,
        blocks: vec![block],
        older: true,
    };
    ui.found(generation, ui.epoch, chunk, 0);
    assert_eq!(search_bar(&ui).0, Some(Key::history(2, 0)));
    let s = drawn(&mut ui, 60, 12, Modifier::REVERSED);
    assert!(s.contains("an old needle from yesterday"), "{s}");
    // A stale answer (an older generation) changes nothing.
    ui.not_found(generation - 1, true);
    assert!(matches!(search_bar(&ui).1, Finding::Found));
    // Nothing older in history: said, and the match stays.
    ui.not_found(generation, true);
    assert!(matches!(
        search_bar(&ui).1,
        Finding::Nothing { older: true }
    ));
    let s = drawn(&mut ui, 60, 12, Modifier::REVERSED);
    assert!(s.contains("no older match"), "{s}");
    // Esc closes the search and leaves the view where it is.
    plain(&mut ui, KeyCode::Esc);
    assert!(ui.layers.is_empty());
    assert!(drawn(&mut ui, 60, 12, Modifier::REVERSED).contains("an old needle"));
}

fn tool(ui: &mut Ui, lines: usize) -> String {
    let output: String = (1..=lines).map(|n| format!("output line {n}\n")).collect();
    ui.apply(&Intent::ToolStart {
        call_id: "c1".into(),
        name: "bash".into(),
        arguments: serde_json::json!({"command": "seq"}),
    });
    ui.apply(&Intent::ToolEnd {
        call_id: "c1".into(),
        name: "bash".into(),
        entry_id: Some(4),
        output: output.clone(),
        is_error: false,
        recorded: true,
    });
    output
}

#[test]
fn the_detail_overlay_shows_a_tools_whole_output_and_esc_closes_only_the_top_layer() {
    let mut ui = ui();
    said(&mut ui, 1, Role::User, "count to thirty");
    let output = tool(&mut ui, 30);
    // The transcript shows a preview; the selection starts at the newest entry.
    let s = drawn(&mut ui, 60, 24, Modifier::BOLD);
    assert!(!s.contains("output line 30"), "{s}");
    press(&mut ui, KeyCode::Char('o'), KeyModifiers::CONTROL);
    assert_eq!(ui.selected(), Some(Key::live(1)));
    let s = drawn(&mut ui, 60, 24, Modifier::BOLD);
    insta::assert_snapshot!("selected_tool", s);
    // y copies the tool's whole output, exactly.
    match plain(&mut ui, KeyCode::Char('y')) {
        Some(Effect::Copy { text, what }) => {
            assert_eq!(text, output);
            assert_eq!(what, "the tool's output");
        }
        other => panic!("{other:?}"),
    }
    // Enter opens it in full, over the selection; it scrolls.
    plain(&mut ui, KeyCode::Enter);
    let s = drawn(&mut ui, 60, 40, Modifier::empty());
    insta::assert_snapshot!("tool_detail", s);
    assert!(s.contains("output line 30"), "{s}");
    plain(&mut ui, KeyCode::Down);
    assert!(matches!(
        ui.layers.last(),
        Some(Layer::Detail { scroll: 1, .. })
    ));
    // Help over the detail; each Esc closes the top one only.
    plain(&mut ui, KeyCode::F(1));
    assert!(matches!(ui.layers.last(), Some(Layer::Help { .. })));
    plain(&mut ui, KeyCode::Esc);
    assert!(matches!(ui.layers.last(), Some(Layer::Detail { .. })));
    plain(&mut ui, KeyCode::Esc);
    assert!(matches!(ui.layers.last(), Some(Layer::Select { .. })));
    // Up moves the selection to the prompt; Esc leaves it.
    plain(&mut ui, KeyCode::Up);
    assert_eq!(ui.selected(), Some(Key::live(0)));
    plain(&mut ui, KeyCode::Esc);
    assert!(ui.layers.is_empty());
    // With no overlay, Esc is the draft's again.
    typed(&mut ui, "draft");
    plain(&mut ui, KeyCode::Esc);
    assert!(ui.editor.is_empty());
}

#[test]
fn c_copies_each_code_block_in_turn_and_says_when_there_is_none() {
    let mut ui = ui();
    said(&mut ui, 1, Role::User, "no code here");
    said(
        &mut ui,
        2,
        Role::Assistant,
        "One:\n\n```sh\nls -l\n```\n\nTwo:\n\n```rust\nfn a() {}\n```\n",
    );
    // The selection starts at the newest entry the last frame showed.
    drawn(&mut ui, 60, 20, Modifier::empty());
    press(&mut ui, KeyCode::Char('o'), KeyModifiers::CONTROL);
    let copied = |e: Option<Effect>| match e {
        Some(Effect::Copy { text, what }) => (text, what),
        other => panic!("{other:?}"),
    };
    let first = copied(plain(&mut ui, KeyCode::Char('c')));
    assert_eq!(first, ("ls -l\n".into(), "code block 1 of 2".into()));
    let second = copied(plain(&mut ui, KeyCode::Char('c')));
    assert_eq!(second, ("fn a() {}\n".into(), "code block 2 of 2".into()));
    let again = copied(plain(&mut ui, KeyCode::Char('c')));
    assert_eq!(again.1, "code block 1 of 2");
    plain(&mut ui, KeyCode::Up);
    assert_eq!(plain(&mut ui, KeyCode::Char('c')), None);
    assert!(
        ui.hint.as_deref().unwrap().contains("no code block"),
        "{:?}",
        ui.hint
    );
}

#[test]
fn home_and_end_scroll_while_the_draft_is_empty_and_move_in_it_otherwise() {
    use smith_render_terminal::window::Scroll;
    let mut ui = ui();
    for id in 0..40 {
        said(&mut ui, id, Role::User, &format!("message {id}"));
    }
    assert!(!drawn(&mut ui, 60, 12, Modifier::empty()).contains("message 0\n"));
    plain(&mut ui, KeyCode::Home);
    assert!(matches!(ui.window.scroll, Scroll::Held { .. }));
    let s = drawn(&mut ui, 60, 12, Modifier::empty());
    assert!(s.starts_with("› message 0\n"), "{s}");
    plain(&mut ui, KeyCode::End);
    assert_eq!(ui.window.scroll, Scroll::Follow);
    assert!(drawn(&mut ui, 60, 12, Modifier::empty()).contains("message 39"));
    typed(&mut ui, "ab");
    plain(&mut ui, KeyCode::Home);
    assert_eq!(ui.window.scroll, Scroll::Follow);
    assert_eq!(ui.editor.before_cursor(), "");
}

#[test]
fn a_compaction_shows_as_a_marker_and_its_summary_in_the_detail() {
    let mut ui = ui();
    // The records a branch holds, as the storage worker turns them into a chunk.
    let entry = |id: u64, record: smith_store::Record| smith_store::Entry {
        id: smith::EntryId(id),
        parent: id.checked_sub(1).map(smith::EntryId),
        pair: None,
        timestamp_ms: 0,
        record,
    };
    let entries = [
        entry(
            1,
            smith_testkit::message_record(Message::user_text("list the files")),
        ),
        entry(
            2,
            smith_store::Record::Compaction(smith_store::Compaction {
                summary: "The user asked for the files; `ls` showed README.md and src/.".into(),
                first_kept: None,
                attempt: None,
                usage: None,
                started: None,
                carried: None,
            }),
        ),
    ];
    let intents: Vec<Intent> = entries
        .iter()
        .flat_map(crate::history::entry_intents)
        .collect();
    ui.chunk(
        0,
        Chunk {
            number: 0,
            blocks: smith_render_terminal::transcript::Transcript::fold_all(&intents),
            older: false,
        },
    );
    said(&mut ui, 3, Role::User, "and now?");
    let s = drawn(&mut ui, 72, 12, Modifier::empty());
    insta::assert_snapshot!("compaction_marker", s);
    assert!(
        !s.contains("README.md"),
        "the summary is not drawn inline:\n{s}"
    );
    press(&mut ui, KeyCode::Char('o'), KeyModifiers::CONTROL);
    plain(&mut ui, KeyCode::Up);
    match plain(&mut ui, KeyCode::Char('y')) {
        Some(Effect::Copy { text, what }) => {
            assert!(text.contains("README.md and src/"), "{text}");
            assert_eq!(what, "the compaction's summary");
        }
        other => panic!("{other:?}"),
    }
    plain(&mut ui, KeyCode::Enter);
    let s = drawn(&mut ui, 72, 12, Modifier::empty());
    assert!(s.contains("ls showed README.md and src/"), "{s}");
}

/// A permission question shows its whole prompt — every line kept, each wrapped, never cut —
/// and one longer than two thirds of the screen scrolls with PgUp/PgDn.
#[test]
fn a_long_question_is_shown_whole_wrapped_and_scrolls() {
    let mut ui = ui();
    let command: String = (1..=3)
        .map(|i| format!("echo part{i} >> long.txt; "))
        .collect();
    ui.apply(&Intent::SelectRequest {
        request_id: "q".into(),
        prompt: format!(
            "Let `bash` run this program (workspace-write):\n{command}echo the-very-end"
        ),
        options: vec!["Deny".into(), "Allow once".into()],
    });
    let screen = drawn(&mut ui, 40, 20, Modifier::empty());
    for piece in [
        "? Let `bash` run this program",
        "part1",
        "part2",
        "part3",
        "the-very-end",
        "▸1 Deny",
    ] {
        assert!(screen.contains(piece), "`{piece}` is shown:\n{screen}");
    }
    assert!(
        screen.contains("\n  echo part1 >>"),
        "the prompt's own line break is kept: the command starts a line:\n{screen}"
    );
    // Forty lines on a 12-row screen, 60 columns wide (room for the scroll hint after the
    // choices): the first lines, then PgDn brings the last ones.
    let long: String = (1..=40).map(|i| format!("line{i:02}\n")).collect();
    ui.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    ui.apply(&Intent::SelectRequest {
        request_id: "q2".into(),
        prompt: long,
        options: vec!["Deny".into(), "Allow once".into()],
    });
    let screen = drawn(&mut ui, 60, 12, Modifier::empty());
    assert!(
        screen.contains("line01") && !screen.contains("line40"),
        "{screen}"
    );
    assert!(screen.contains("PgUp/PgDn scroll"), "{screen}");
    for _ in 0..10 {
        ui.key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    }
    let screen = drawn(&mut ui, 60, 12, Modifier::empty());
    assert!(
        screen.contains("line40") && !screen.contains("line01"),
        "{screen}"
    );
    // Scrolling answered nothing; Enter takes the highlighted first choice, Deny.
    assert_eq!(
        ui.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        Some(Effect::Answer("q2".into(), smith::Answer::Select(0)))
    );
}
