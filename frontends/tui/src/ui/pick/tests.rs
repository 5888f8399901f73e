//! The pickers driven by keys and listings as the loop drives them, and drawn into a buffer:
//! sessions (streamed, filtered, Tab, Enter), the branches tree (continue, edit into a new
//! branch, an observer's local view), plugins, the effects of unknown outcome offered for a
//! verdict, and the diff overlay.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use smith::EntryId;
use smith_render_terminal::Theme;

use crate::go::Go;
use crate::pickers::{Branch, Kind, Listed, Row};
use crate::ui::{Effect, Held, Layer, Ui};
use crate::work::Write;

fn ui(held: Held) -> Ui {
    let mut ui =
        Ui::new(Theme::plain(), held, "0190".into(), PathBuf::from(".")).with_bundled_product();
    ui.unprepared = None;
    ui
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn typed(ui: &mut Ui, s: &str) {
    for c in s.chars() {
        assert_eq!(ui.key(key(KeyCode::Char(c))), None);
    }
}

fn screen(ui: &mut Ui, w: u16, h: u16) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    crate::draw::draw(ui, area, &mut buf);
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

/// Where the drawn frame puts the terminal's cursor.
fn cursor(ui: &mut Ui) -> ratatui_core::layout::Position {
    let area = Rect::new(0, 0, 100, 20);
    let mut buf = Buffer::empty(area);
    crate::draw::draw(ui, area, &mut buf).expect("a cursor is placed")
}

fn session(id: &str, title: &str, marked: bool) -> Row {
    Row {
        key: id.into(),
        label: title.into(),
        detail: "2026-12-04 10:00 · scripted/demo · 5 KB".into(),
        depth: 0,
        marked,
        branch: None,
    }
}

/// The request of the picker on top.
fn request(ui: &Ui) -> u64 {
    match ui.layers.last() {
        Some(Layer::Picker(p)) => p.request,
        other => panic!("no picker on top: {other:?}"),
    }
}

#[test]
fn the_sessions_picker_shows_rows_as_they_stream_in_and_opens_the_chosen_one() {
    let mut ui = ui(Held::Writer);
    assert_eq!(
        ui.open_picker(Kind::Sessions { all: false }),
        Some(Effect::List(Kind::Sessions { all: false }))
    );
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(vec![
            session("0190-aaaa", "this one, open here", true),
            session("0190-bbbb", "fix the parser", false),
        ]),
        done: false,
    });
    let reading = screen(&mut ui, 90, 14);
    assert!(reading.contains("2 of 2 so far · reading…"), "{reading}");
    // A stale listing (an earlier request) is not taken in.
    ui.listed(Listed {
        request: r - 1,
        rows: Ok(vec![session("0190-zzzz", "stale", false)]),
        done: true,
    });
    ui.listed(Listed {
        request: r,
        rows: Ok(vec![session("0190-cccc", "write the docs", false)]),
        done: true,
    });
    let s = screen(&mut ui, 90, 14);
    assert!(s.contains("3 of 3") && !s.contains("stale"), "{s}");
    insta::assert_snapshot!("sessions_picker", s);
    // The query filters; Enter opens the chosen session.
    typed(&mut ui, "docs");
    let s = screen(&mut ui, 90, 14);
    assert!(s.contains("1 of 3") && s.contains("write the docs"), "{s}");
    // Ctrl+U clears the filter; typed again, it narrows again.
    ui.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert!(screen(&mut ui, 90, 14).contains("3 of 3"));
    typed(&mut ui, "docs");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Go(Go::Attach("0190-cccc".into())))
    );
    assert!(ui.layers.is_empty());
}

#[test]
fn the_open_session_is_refused_and_tab_lists_every_directory_keeping_the_query() {
    let mut ui = ui(Held::Writer);
    ui.open_picker(Kind::Sessions { all: false });
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(vec![session("0190-aaaa", "open here", true)]),
        done: true,
    });
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
    assert!(ui.hint.as_deref().unwrap().contains("the one open here"));
    typed(&mut ui, "par");
    assert_eq!(
        ui.key(key(KeyCode::Tab)),
        Some(Effect::List(Kind::Sessions { all: true }))
    );
    match ui.layers.last() {
        Some(Layer::Picker(p)) => {
            assert_eq!(p.kind, Kind::Sessions { all: true });
            assert_eq!(p.query, "par");
            assert!(p.request > r && p.rows.is_empty() && p.loading);
        }
        other => panic!("{other:?}"),
    }
    // Esc closes it, and the listing it waited for is no longer wanted.
    let wanted = ui.listing.load(std::sync::atomic::Ordering::Acquire);
    assert_eq!(ui.key(key(KeyCode::Esc)), None);
    assert!(ui.layers.is_empty());
    assert!(ui.listing.load(std::sync::atomic::Ordering::Acquire) > wanted);
}

fn branch_rows() -> Vec<Row> {
    let row = |entry: u64, dest: u64, tip: u64, depth, marked, text: &str| Row {
        key: entry.to_string(),
        label: text.into(),
        detail: format!(
            "{}entry {entry} · scripted/demo · 2026-12-04 10:00",
            if entry == 20 {
                "branches at entry 1 · "
            } else {
                ""
            }
        ),
        depth,
        marked,
        branch: Some(Branch {
            tip: EntryId(tip),
            destination: Some(EntryId(dest)),
            entry: EntryId(entry),
            input: format!("{text}\nsecond line"),
        }),
    };
    vec![
        row(2, 1, 30, 0, true, "first question"),
        row(11, 10, 19, 0, false, "a follow-up"),
        row(20, 1, 30, 1, true, "the edited question"),
        row(28, 27, 30, 1, true, "and then"),
    ]
}

#[test]
fn the_branches_tree_continues_a_branch_and_edits_a_message_into_a_new_one() {
    let mut ui = ui(Held::Writer);
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    // It opens on the selected branch's last message.
    let s = screen(&mut ui, 90, 14);
    insta::assert_snapshot!("branches_tree", s);
    assert!(s.contains("›● └ and then"), "{s}");
    // Enter on an earlier branch: one step, recorded by the work thread.
    ui.key(key(KeyCode::Home));
    ui.key(key(KeyCode::Down));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Write(Write::Select(EntryId(19))))
    );
    // Ctrl+E: the message into the draft, sent as a new branch from where it was sent.
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    ui.key(key(KeyCode::Home));
    assert_eq!(
        ui.key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL)),
        None
    );
    assert_eq!(ui.editor.shown(), "first question\nsecond line");
    assert!(ui.status.state.contains("editing entry 2"));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::SubmitAt(
            "first question\nsecond line".into(),
            EntryId(1)
        ))
    );
    assert!(ui.editing.is_none());
}

#[test]
fn an_edit_is_cancelled_by_esc_on_an_empty_draft_and_refused_read_only() {
    let mut ui = ui(Held::Writer);
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    ui.key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL));
    assert!(ui.editing.is_some());
    // Esc clears the draft (stashed), then cancels the edit: the next message continues the
    // current branch.
    ui.key(key(KeyCode::Esc));
    assert!(ui.editor.is_empty() && ui.editing.is_some());
    ui.key(key(KeyCode::Esc));
    assert!(ui.editing.is_none());
    typed(&mut ui, "plain");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Submit("plain".into()))
    );
    // An observer may look at another branch (locally) but not edit or select it.
    let mut ui = self::ui(Held::Observer {
        holder: None,
        follow: true,
        writer_gone: false,
    });
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    ui.key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL));
    assert!(ui.editing.is_none() && ui.hint.as_deref().unwrap().contains("read-only"));
    // The refusal closed the picker, so it shows: open it again to look at a branch.
    assert!(ui.layers.is_empty());
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    ui.key(key(KeyCode::Home));
    ui.asks.clear();
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
    assert!(matches!(
        ui.asks.last(),
        Some(crate::history::Ask::Reload { leaf: Some(30) })
    ));
    assert!(matches!(ui.held, Held::Observer { follow: false, .. }));
}

#[test]
fn the_plugins_picker_toggles_the_chosen_plugin_for_the_process() {
    let mut ui = ui(Held::Writer);
    ui.open_picker(Kind::Plugins);
    let r = request(&ui);
    let plugin = |id: &str, enabled: bool, detail: &str| Row {
        key: id.into(),
        label: format!("{id} 0.1.0"),
        detail: detail.into(),
        depth: 0,
        marked: enabled,
        branch: None,
    };
    ui.listed(Listed {
        request: r,
        rows: Ok(vec![
            plugin(
                "files",
                true,
                "enabled · tool-plugin@1.2.0 · grants fs.read, fs.write",
            ),
            plugin(
                "shell",
                false,
                "disabled by this process (plugin-disable) · tool-plugin@1.2.0 · grants process.exec",
            ),
        ]),
        done: true,
    });
    insta::assert_snapshot!("plugins_picker", screen(&mut ui, 100, 12));
    ui.key(key(KeyCode::Down));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Write(Write::Plugin("shell".into(), true)))
    );
}

#[test]
fn a_listing_that_failed_says_why_and_nothing_is_chosen() {
    let mut ui = ui(Held::Writer);
    ui.open_picker(Kind::Sessions { all: true });
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Err("cannot list /nowhere: permission denied".into()),
        done: true,
    });
    let s = screen(&mut ui, 90, 10);
    assert!(s.contains("cannot read them: cannot list /nowhere"), "{s}");
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
    assert!(ui.hint.as_deref().unwrap().contains("nothing to choose"));
}

#[test]
fn the_diff_overlay_scrolls_and_esc_closes_it() {
    let mut ui = ui(Held::Writer);
    let mut text = String::from(
        " notes.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\ndiff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n",
    );
    for n in 0..40 {
        text.push_str(&format!(" context line {n}\n"));
    }
    ui.overlay("Diff 0123456789ab..ba9876543210".into(), text);
    let s = screen(&mut ui, 80, 16);
    insta::assert_snapshot!("diff_overlay", s);
    assert!(s.contains("-world") && s.contains("+there"), "{s}");
    ui.key(key(KeyCode::PageDown));
    let later = screen(&mut ui, 80, 16);
    assert!(!later.contains("-world"), "{later}");
    ui.key(key(KeyCode::Esc));
    assert!(ui.layers.is_empty());
}

/// Run `/line` through the command runner (no plugin loadout: the verbs and pickers).
fn run(ui: &mut Ui, line: &str) -> Option<Effect> {
    crate::commands::Runner {
        app: None,
        loadout: None,
        colour: false,
    }
    .run(ui, line)
}

#[test]
fn writes_and_edits_are_refused_while_work_runs_never_held_for_later() {
    let mut ui = ui(Held::Writer);
    assert_eq!(
        run(&mut ui, "undo"),
        Some(Effect::Write(Write::Undo(false)))
    );
    ui.running = Some(EntryId(5));
    for line in [
        "undo",
        "redo",
        "restore 3",
        "branch 4",
        "plugin-disable docs",
    ] {
        ui.hint = None;
        assert_eq!(run(&mut ui, line), None, "{line}");
        assert!(
            ui.hint.as_deref().unwrap().contains("work is running"),
            "{line}: {:?}",
            ui.hint
        );
    }
    assert_eq!(run(&mut ui, "model scripted/demo"), None);
    assert!(ui.hint.as_deref().unwrap().contains("work is running"));
    // The branches picker: neither Enter nor Ctrl+E while it runs.
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    assert_eq!(
        ui.key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL)),
        None
    );
    assert!(ui.editing.is_none() && ui.layers.is_empty());
    // An edit begun before the run is not sent as a follow-up of the running work.
    ui.running = None;
    ui.open_picker(Kind::Branches);
    let r = request(&ui);
    ui.listed(Listed {
        request: r,
        rows: Ok(branch_rows()),
        done: true,
    });
    ui.key(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL));
    assert!(ui.editing.is_some());
    ui.running = Some(EntryId(7));
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
    assert!(
        ui.hint
            .as_deref()
            .unwrap()
            .contains("new branch once it has ended")
    );
    assert!(!ui.editor.is_empty(), "the edit stays in the draft");
}

#[test]
fn attach_without_a_session_opens_the_sessions_picker_and_a_chosen_model_is_kept() {
    let mut ui = ui(Held::Writer);
    assert_eq!(
        run(&mut ui, "attach"),
        Some(Effect::List(Kind::Sessions { all: false }))
    );
    ui.key(key(KeyCode::Esc));
    assert!(matches!(
        run(&mut ui, "model scripted/edit"),
        Some(Effect::SetModel(..))
    ));
    let next = ui.next_view(Held::Writer, smith::SessionId::new_now());
    assert_eq!(
        next.chosen.as_ref().map(|(s, _)| s.to_string()),
        Some("scripted/edit".to_owned())
    );
}

#[test]
fn a_query_keeps_only_rows_holding_every_word_the_whole_phrase_first() {
    let mut picker = crate::pickers::Picker::new(Kind::Sessions { all: false }, 1);
    picker.rows = vec![
        session("01a1", "look at bug #4 and #9", false),
        session("01a2", "the #49 regression: a bug in the parser", false),
        session("01a3", "fix bug #49 in the parser", false),
        session("01a4", "bugs everywhere", false),
        session("01a5", "unrelated work on 49 things", false),
    ];
    picker.query = "bug #49".into();
    let labels = |p: &crate::pickers::Picker| -> Vec<String> {
        p.shown().iter().map(|&i| p.rows[i].label.clone()).collect()
    };
    assert_eq!(
        labels(&picker),
        [
            "fix bug #49 in the parser",
            "the #49 regression: a bug in the parser"
        ]
    );
    // Nothing holds every word: the match goes fuzzy rather than showing nothing.
    picker.query = "bgs evry".into();
    assert_eq!(labels(&picker), ["bugs everywhere"]);
    picker.query = "  ".into();
    assert_eq!(picker.shown().len(), 5);
    // A key is matched by its start (an id typed), never by digits inside it.
    picker.query = "01a3".into();
    assert_eq!(labels(&picker), ["fix bug #49 in the parser"]);
}

fn unknown(id: &str, verdict: Option<&str>) -> smith_app::verdicts::UnknownEffect {
    smith_app::verdicts::UnknownEffect {
        effect_id: id.into(),
        address: id.into(),
        effect: "process.run".into(),
        target: Some(format!("make {id}")),
        call_id: id.into(),
        plugin: "bash@0.1.0#1".into(),
        input: serde_json::Value::Null,
        intent: EntryId(3),
        completion: Some(EntryId(4)),
        output: Some("interrupted".into()),
        evidence: serde_json::Value::Null,
        verdict: verdict.map(|note| smith_app::verdicts::Verdict {
            outcome: smith::EffectOutcome::Applied,
            note: note.into(),
            entry: EntryId(9),
            timestamp_ms: 0,
        }),
    }
}

#[test]
fn unknown_effects_are_offered_once_to_a_writer_and_the_typed_note_goes_with_the_verdict() {
    let mut ui = ui(Held::Writer);
    ui.unknown_effects(&[unknown("a", None), unknown("b", None)]);
    let shown = screen(&mut ui, 100, 20);
    assert!(
        shown.contains("Effects of unknown outcome") && shown.contains("process.run make a"),
        "{shown}"
    );
    // The query is a note: typing keeps the chosen row and filters nothing; Left, Right,
    // Backspace and Delete edit it where the cursor is.
    assert_eq!(ui.key(key(KeyCode::Down)), None);
    typed(&mut ui, "zz built itx");
    ui.key(key(KeyCode::Left));
    ui.key(key(KeyCode::Delete));
    for _ in 0.."built it".len() {
        ui.key(key(KeyCode::Left));
    }
    ui.key(key(KeyCode::Backspace));
    typed(&mut ui, "z ");
    ui.key(key(KeyCode::Right));
    assert!(screen(&mut ui, 100, 20).contains("process.run make a"));
    // Enter only says how; the hint goes with the next key.
    ui.key(key(KeyCode::Enter));
    assert!(ui.hint.as_deref().unwrap().contains("Ctrl+A records"));
    ui.key(key(KeyCode::Right));
    assert_eq!(ui.hint, None);
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    assert_eq!(
        ui.key(ctrl('n')),
        Some(Effect::Write(Write::Verdict {
            effect: "b".into(),
            outcome: smith::EffectOutcome::NotApplied,
            note: "zzz built it".into(),
        }))
    );
    // Until the rows read again show it, another verdict waits, and the note stays.
    assert_eq!(ui.key(ctrl('a')), None);
    assert!(screen(&mut ui, 100, 20).contains("note › zzz built it"));
    // Refused: said in the picker; the note and the chosen row stay for another try.
    ui.verdict_refused("no verdict was recorded: the disk is full".into());
    ui.unknown_effects(&[unknown("a", None), unknown("b", None)]);
    let shown = screen(&mut ui, 100, 20);
    assert!(
        shown.contains("the disk is full") && shown.contains("note › zzz built it"),
        "{shown}"
    );
    assert_eq!(
        ui.key(ctrl('n')),
        Some(Effect::Write(Write::Verdict {
            effect: "b".into(),
            outcome: smith::EffectOutcome::NotApplied,
            note: "zzz built it".into(),
        }))
    );
    // Read again with b judged: the note goes, and the picker stays on a, the one left.
    ui.unknown_effects(&[unknown("a", None), unknown("b", Some("zzz built it"))]);
    let shown = screen(&mut ui, 100, 20);
    assert!(shown.contains("verdict: applied — zzz built it"), "{shown}");
    assert!(!shown.contains("note › zzz"), "{shown}");
    // A note over the bound is refused before anything is sent; a paste goes into the note.
    ui.paste(&"n".repeat(smith_app::verdicts::MAX_NOTE_BYTES));
    ui.paste("\nmore");
    assert_eq!(ui.key(ctrl('a')), None);
    let shown = screen(&mut ui, 100, 20);
    assert!(shown.contains("over the bound of 4096"), "{shown}");
    assert!(ui.editor.is_empty(), "the paste went into the draft");
    ui.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert_eq!(
        ui.key(ctrl('a')),
        Some(Effect::Write(Write::Verdict {
            effect: "a".into(),
            outcome: smith::EffectOutcome::Applied,
            note: String::new(),
        }))
    );
    // Each judged: it closes, and is not offered again.
    ui.unknown_effects(&[unknown("a", Some("")), unknown("b", Some("zzz built it"))]);
    assert!(!matches!(ui.layers.last(), Some(Layer::Picker(_))));
    ui.unknown_effects(&[unknown("c", None)]);
    assert!(!matches!(ui.layers.last(), Some(Layer::Picker(_))));

    // An observer writes no verdict: nothing is offered.
    let mut observer = self::ui(Held::Observer {
        holder: None,
        follow: true,
        writer_gone: false,
    });
    observer.unknown_effects(&[unknown("a", None)]);
    assert!(!matches!(observer.layers.last(), Some(Layer::Picker(_))));
}

#[test]
fn a_hint_given_in_the_effects_picker_goes_when_it_closes() {
    let mut ui = ui(Held::Writer);
    ui.unknown_effects(&[unknown("a", None)]);
    ui.key(key(KeyCode::Enter));
    assert!(ui.hint.is_some());
    ui.key(key(KeyCode::Esc));
    assert!(!matches!(ui.layers.last(), Some(Layer::Picker(_))));
    assert_eq!(ui.hint, None);
    assert!(!screen(&mut ui, 100, 20).contains("Ctrl+A records"));
}

#[test]
fn the_cursor_is_drawn_where_the_query_is_edited() {
    let mut ui = ui(Held::Writer);
    ui.unknown_effects(&[unknown("a", None)]);
    typed(&mut ui, "héllo");
    let at_end = cursor(&mut ui);
    ui.key(key(KeyCode::Left));
    ui.key(key(KeyCode::Left));
    assert_eq!(cursor(&mut ui).x + 2, at_end.x);
    // Past either end the cursor stops there.
    for _ in 0..10 {
        ui.key(key(KeyCode::Left));
    }
    typed(&mut ui, ">");
    for _ in 0..10 {
        ui.key(key(KeyCode::Right));
    }
    typed(&mut ui, "<");
    assert!(screen(&mut ui, 100, 20).contains("note › >héllo<"));
}
