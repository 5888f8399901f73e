//! Frames drawn into a buffer: the observer banner, the help overlay, the palette and its
//! pickers.

use super::*;
use std::path::PathBuf;

/// A writer's UI, plain theme, session `0190`.
fn writer_ui() -> Ui {
    Ui::new(
        Theme::plain(),
        Held::Writer,
        "0190".into(),
        PathBuf::from("."),
    )
    .with_bundled_product()
}

fn screen(ui: &mut Ui, w: u16, h: u16) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    draw(ui, area, &mut buf);
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_observer_banner_names_the_writer() {
    let holder = Holder {
        pid: 4242,
        host: "build-1".into(),
        frontend: "eval".into(),
        started_ms: 3_723_000,
    };
    let mut ui = Ui::new(
        Theme::plain(),
        Held::Observer {
            holder: Some(holder),
            follow: true,
            writer_gone: false,
        },
        "0190abcd".into(),
        PathBuf::from("."),
    )
    .with_bundled_product();
    let s = screen(&mut ui, 120, 8);
    let first = s.lines().next().unwrap();
    assert!(
        first.contains("read-only · written by pid 4242 on build-1 (eval, since 01:02:03 UTC) · follow-live on (Ctrl+F)"),
        "{s}"
    );
    assert!(
        s.contains("read-only observer: submission is disabled"),
        "{s}"
    );
    assert!(s.lines().last().unwrap().contains("read-only"), "{s}");
    insta::assert_snapshot!("observer_wide", s);
    // Narrow: the banner is cut, the status keeps `read-only`, the input says why.
    let narrow = screen(&mut ui, 48, 8);
    assert!(
        narrow.lines().last().unwrap().ends_with("read-only"),
        "{narrow}"
    );
    insta::assert_snapshot!("observer_narrow", narrow);
}

#[test]
fn a_replay_says_so_above_and_in_the_input() {
    let mut ui = Ui::new(
        Theme::plain(),
        Held::Replay,
        "0190abcd".into(),
        PathBuf::from("."),
    )
    .with_bundled_product();
    let s = screen(&mut ui, 120, 8);
    assert!(
        s.lines().next().unwrap().contains(
            "replay · read-only · rebuilt from the session file: nothing runs, nothing is written"
        ),
        "{s}"
    );
    assert!(
        s.contains("replay: nothing runs and nothing is written; submission is disabled"),
        "{s}"
    );
    assert!(s.lines().last().unwrap().contains("read-only"), "{s}");
    assert!(s.contains("replaying"), "{s}");
}

#[test]
fn queued_input_shows_above_the_input_with_the_way_back() {
    let mut ui = writer_ui();
    ui.queued = vec![crate::ui::Queued {
        submission: smith::EntryId(5),
        delivery: smith::Delivery::Steer,
        text: "look at b.rs too".into(),
    }];
    let s = screen(&mut ui, 60, 10);
    assert!(s.contains("↳ steer: look at b.rs too"), "{s}");
    assert!(s.contains("Alt+Up takes the newest back"), "{s}");
}

#[test]
fn the_help_lists_every_binding_from_the_table() {
    let mut ui = writer_ui();
    ui.layers.push(Layer::Help { scroll: 0 });
    // Tall enough for the whole help on one screen.
    let s = screen(&mut ui, 110, 140);
    // The mouse row, read as one text across its wrapped lines and the panel's borders.
    let flat = s
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("Mouse The wheel scrolls the transcript")
            && flat.contains("To select text with the mouse, hold Shift while dragging"),
        "{s}"
    );
    for (action, _) in ACTIONS {
        let keys = ui.keymap.keys_of(*action);
        let first = keys.split(" / ").next().unwrap_or_default();
        assert!(s.contains(first), "{first} ({action:?}) missing:\n{s}");
    }
    for c in &ui.product.commands {
        assert!(s.contains(&c.usage()), "{} missing:\n{s}", c.usage());
    }
    assert!(
        !s.contains("Keys and commands 1-"),
        "it all fits, with no scroll range:\n{s}"
    );
}

#[test]
fn a_help_taller_than_the_screen_wraps_inside_its_frame_and_scrolls() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut ui = writer_ui();
    ui.layers.push(Layer::Help { scroll: 0 });
    let s = screen(&mut ui, 50, 14);
    assert!(s.contains("Keys and commands 1-"), "{s}");
    // Every row of the panel is framed: nothing is drawn past its borders.
    let rows: Vec<&str> = s.lines().filter(|l| l.contains('│')).collect();
    assert!(rows.len() >= 9, "{s}");
    for row in rows {
        // The panel is 48 wide, from column 1.
        let row = row.trim_end();
        assert!(row.starts_with(" │") && row.ends_with('│'), "{row:?}");
        assert_eq!(row.chars().count(), 49, "{row:?}");
    }
    // The last command by name (its usage may wrap in the key column).
    let last = format!("/{}", ui.product.commands.last().unwrap().name);
    assert!(!s.contains(&last), "the last command is below:\n{s}");
    for _ in 0..200 {
        ui.key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    }
    let s = screen(&mut ui, 50, 14);
    assert!(s.contains(&last), "scrolled to the end:\n{s}");
    ui.key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
    assert!(
        matches!(ui.layers.last(), Some(Layer::Help { .. })),
        "scrolling keeps the help open"
    );
    ui.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert!(ui.layers.is_empty());
}

fn typed(ui: &mut Ui, text: &str) {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    for c in text.chars() {
        assert_eq!(
            ui.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            None
        );
    }
}

fn press(ui: &mut Ui, code: crossterm::event::KeyCode) -> Option<crate::ui::Effect> {
    ui.key(crossterm::event::KeyEvent::new(
        code,
        crossterm::event::KeyModifiers::NONE,
    ))
}

#[test]
fn slash_opens_the_palette_over_every_command_and_typing_filters_it() {
    let mut ui = writer_ui();
    typed(&mut ui, "/");
    let all = screen(&mut ui, 100, 24);
    insta::assert_snapshot!("palette_open", all);
    assert!(all.contains("/model MODEL [THINKING]"), "{all}");
    assert!(
        all.contains(&format!("1 of {}", ui.product.commands.len())),
        "{all}"
    );
    typed(&mut ui, "cmp");
    let filtered = screen(&mut ui, 100, 24);
    insta::assert_snapshot!("palette_filtered", filtered);
    assert!(filtered.contains("/compact [FOCUS]"), "{filtered}");
    assert!(!filtered.contains("/model"), "{filtered}");
    typed(&mut ui, "zzz");
    let none = screen(&mut ui, 100, 24);
    assert!(none.contains("no command matches"), "{none}");
}

#[test]
fn the_palette_chooses_completes_and_runs() {
    use crate::ui::Effect;
    use crossterm::event::KeyCode;
    let mut ui = writer_ui();
    typed(&mut ui, "/thin");
    // Enter on a name that is not a command runs the chosen match…
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Command("thinking".into()))
    );
    assert!(ui.editor.is_empty());
    // …or, when it needs arguments, puts it in place for them.
    typed(&mut ui, "/them");
    assert_eq!(press(&mut ui, KeyCode::Enter), None);
    assert_eq!(ui.editor.shown(), "/theme ");
    ui.editor.set_text("");
    // Down chooses the next match; Tab puts it in place for its arguments.
    typed(&mut ui, "/");
    assert_eq!(press(&mut ui, KeyCode::Down), None);
    assert_eq!(ui.palette, 1);
    let second = ui.palette_matches().unwrap()[1].name.clone();
    assert_eq!(press(&mut ui, KeyCode::Tab), None);
    assert_eq!(ui.editor.shown(), format!("/{second} "));
    // With arguments begun, the palette steps aside and Enter sends the whole line.
    typed(&mut ui, "light");
    assert!(ui.palette_matches().is_none());
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Command(format!("{second} light")))
    );
    // A mistyped name is not run as what it fuzzily resembles: the line goes to the parser,
    // which refuses it with what it is near.
    typed(&mut ui, "/compcat");
    assert!(ui.palette_matches().is_some_and(|m| m[0].name == "compact"));
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Command("compcat".into()))
    );
    // Chosen with Down, it is what runs.
    typed(&mut ui, "/compcat");
    press(&mut ui, KeyCode::Down);
    press(&mut ui, KeyCode::Up);
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Command("compact".into()))
    );
    // `//x` and `//` are messages, never commands.
    typed(&mut ui, "//qt");
    assert!(ui.palette_view().is_none());
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Submit("/qt".into()))
    );
    ui.admitting = false;
    // `//` sends a message that starts with `/`.
    typed(&mut ui, "//etc/hosts is odd");
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(Effect::Submit("/etc/hosts is odd".into()))
    );
}

#[test]
fn a_binding_to_the_palette_opens_it_and_a_command_binding_runs_it() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut ui = writer_ui();
    ui.key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
    assert_eq!(ui.editor.shown(), "/");
    assert!(ui.palette_matches().is_some());
}

#[test]
fn a_command_missing_its_model_opens_the_value_picker() {
    use crossterm::event::KeyCode;
    let mut ui = writer_ui();
    ui.values = std::sync::Arc::new(smith_app::product::ArgumentValues {
        models: vec![
            "anthropic/claude-opus-4-6".into(),
            "scripted/demo".into(),
            "scripted/edit".into(),
        ],
        plugins: vec!["files".into()],
        details: [(
            "anthropic/claude-opus-4-6".to_owned(),
            "1M context · $5 in / $25 out per Mtok · tools · images".to_owned(),
        )]
        .into_iter()
        .collect(),
    });
    typed(&mut ui, "/model ");
    let s = screen(&mut ui, 80, 20);
    insta::assert_snapshot!("value_picker", s);
    assert!(s.contains("MODEL of /model") && s.contains("1 of 3"), "{s}");
    typed(&mut ui, "edi");
    let s = screen(&mut ui, 80, 20);
    assert!(
        s.contains("scripted/edit") && !s.contains("scripted/demo"),
        "{s}"
    );
    // Enter takes the chosen value and runs the line.
    assert_eq!(
        press(&mut ui, KeyCode::Enter),
        Some(crate::ui::Effect::Command("model scripted/edit".into()))
    );
    // A thinking level is the second argument's picker.
    typed(&mut ui, "/model scripted/demo ");
    let s = screen(&mut ui, 80, 20);
    assert!(
        s.contains("THINKING of /model") && s.contains("medium"),
        "{s}"
    );
}

#[test]
fn urls_are_written_as_hyperlinks_only_when_the_setting_is_on() {
    let frame = |on: bool| {
        let mut ui = writer_ui();
        ui.hyperlinks = on;
        ui.notice(
            smith_ui_intents::NoticeLevel::Info,
            "docs at https://example.com/smith".into(),
        );
        screen(&mut ui, 60, 6)
    };
    let on = frame(true);
    assert!(
        on.contains(
            "\x1b]8;;https://example.com/smith\x1b\\https://example.com/smith\x1b]8;;\x1b\\"
        ),
        "{on:?}"
    );
    assert!(!frame(false).contains("\x1b]8;;"));
}

#[test]
fn the_plan_panel_shows_the_steps_and_gives_way_to_the_palette_on_a_short_screen() {
    use smith::{PlanItem, PlanStatus};
    let mut ui = writer_ui();
    let step = |content: &str, status| PlanItem {
        content: content.to_owned(),
        status,
    };
    ui.apply(&smith_ui_intents::Intent::Plan {
        items: vec![
            step("Read the parser", PlanStatus::Completed),
            step("Fix the off-by-one", PlanStatus::InProgress),
            step("Run the tests", PlanStatus::Pending),
        ],
    });
    let shown = screen(&mut ui, 80, 24);
    assert!(
        shown.contains("plan 1/3 done · Alt+P hides it")
            && shown.contains("✓ Read the parser")
            && shown.contains("▸ Fix the off-by-one")
            && shown.contains("○ Run the tests"),
        "{shown}"
    );
    // A plan of twelve steps and the palette open, 16 rows: the palette is whole, the plan
    // keeps its heading and says what it left out.
    let many: Vec<PlanItem> = (1..=12)
        .map(|i| step(&format!("step {i}"), PlanStatus::Pending))
        .collect();
    ui.apply(&smith_ui_intents::Intent::Plan { items: many });
    typed(&mut ui, "/");
    let small = screen(&mut ui, 80, 16);
    assert!(small.contains("↑↓ choose"), "the palette shows: {small}");
    assert!(small.contains("/model MODEL [THINKING]"), "{small}");
    assert!(!small.contains("step 12"), "{small}");
    // Every step done: one line.
    ui.apply(&smith_ui_intents::Intent::Plan {
        items: vec![step("Done it", PlanStatus::Completed)],
    });
    press(&mut ui, crossterm::event::KeyCode::Esc);
    let done = screen(&mut ui, 80, 24);
    assert!(done.contains("plan: all 1 step done"), "{done}");
    assert!(!done.contains("✓ Done it"), "{done}");
}
