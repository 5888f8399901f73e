//! The UI state machine driven by keys and intents, as the loop drives it.

use super::*;
use crate::event::Event;
use crossterm::event::KeyModifiers;

fn ui() -> Ui {
    let mut ui = Ui::new(
        Theme::plain(),
        Held::Writer,
        "0190".into(),
        PathBuf::from("."),
    )
    .with_bundled_product();
    ui.unprepared = None;
    ui
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn typed(ui: &mut Ui, s: &str) {
    for c in s.chars() {
        assert_eq!(ui.key(key(KeyCode::Char(c))), None);
    }
}

#[test]
fn enter_submits_then_queues_while_work_runs() {
    let mut ui = ui();
    typed(&mut ui, "hello");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Submit("hello".into()))
    );
    typed(&mut ui, "more");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Enqueue("more".into(), Delivery::FollowUp))
    );
    typed(&mut ui, "turn");
    assert_eq!(
        ui.key(ctrl('s')),
        Some(Effect::Enqueue("turn".into(), Delivery::Steer))
    );
    // An empty draft sends nothing.
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
}

#[test]
fn escape_closes_then_clears_then_aborts() {
    let mut ui = ui();
    ui.running = Some(EntryId(7));
    ui.layers.push(crate::layers::Layer::Help { scroll: 0 });
    assert_eq!(ui.key(key(KeyCode::Esc)), None);
    assert!(ui.layers.is_empty());
    typed(&mut ui, "draft");
    assert_eq!(ui.key(key(KeyCode::Esc)), None);
    assert!(ui.editor.is_empty());
    assert_eq!(ui.key(key(KeyCode::Esc)), Some(Effect::Abort(EntryId(7))));
    ui.running = None;
    assert_eq!(ui.key(key(KeyCode::Esc)), None, "nothing to abort");
    ui.key(key(KeyCode::Up));
    assert_eq!(
        ui.editor.shown(),
        "draft",
        "the cleared draft comes back with Up"
    );
}

#[test]
fn a_refused_submission_goes_back_to_the_draft() {
    let mut ui = ui();
    ui.loading = false;
    typed(&mut ui, "explain this");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Submit("explain this".into()))
    );
    assert!(ui.editor.is_empty());
    ui.refused("`@missing.rs` does not exist; nothing was sent".into());
    assert_eq!(ui.editor.shown(), "explain this");
    assert!(!ui.admitting);
    assert_eq!(ui.status.state, "idle");
}

#[test]
fn tab_completes_lists_then_cycles_and_esc_closes_the_list() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.rs"), "").unwrap();
    std::fs::write(dir.path().join("map.rs"), "").unwrap();
    std::fs::write(dir.path().join("my notes.md"), "").unwrap();
    let mut ui = ui();
    ui.cwd = dir.path().to_owned();
    typed(&mut ui, "see @ma");
    let tab = || key(KeyCode::Tab);
    ui.key(tab());
    assert_eq!(
        ui.choices,
        ["main.rs", "map.rs"],
        "nothing in common to add: listed"
    );
    ui.key(tab());
    assert_eq!(ui.editor.shown(), "see @main.rs");
    ui.key(tab());
    assert_eq!(ui.editor.shown(), "see @map.rs");
    ui.key(tab());
    assert_eq!(ui.editor.shown(), "see @main.rs", "and round again");
    ui.key(key(KeyCode::Esc));
    assert!(ui.choices.is_empty());
    assert_eq!(
        ui.editor.shown(),
        "see @main.rs",
        "Esc closed the list only"
    );
    ui.editor.clear();
    typed(&mut ui, "@my");
    ui.key(tab());
    assert!(
        ui.hint
            .as_deref()
            .is_some_and(|h| h.contains("white space")),
        "{:?}",
        ui.hint
    );
}

#[test]
fn ctrl_c_twice_leaves_and_another_key_disarms() {
    let mut ui = ui();
    assert_eq!(ui.key(ctrl('c')), None);
    assert_eq!(ui.key(key(KeyCode::Char('x'))), None);
    assert_eq!(ui.key(ctrl('c')), None, "x disarmed it");
    assert_eq!(ui.key(ctrl('c')), Some(Effect::Quit));
    let mut ui = super::tests::ui();
    assert_eq!(ui.key(ctrl('d')), Some(Effect::Quit));
}

#[test]
fn an_observer_cannot_submit_and_says_why() {
    let holder = Holder {
        pid: 42,
        host: "box".into(),
        frontend: "eval".into(),
        started_ms: 0,
    };
    let held = Held::Observer {
        holder: Some(holder),
        follow: true,
        writer_gone: false,
    };
    let mut ui =
        Ui::new(Theme::plain(), held, "0190".into(), PathBuf::from(".")).with_bundled_product();
    typed(&mut ui, "hi");
    assert_eq!(ui.key(key(KeyCode::Enter)), None);
    let hint = ui.hint.clone().unwrap();
    assert!(
        hint.contains("read-only") && hint.contains("pid 42"),
        "{hint}"
    );
    assert!(!ui.editor.is_empty(), "the draft is kept");
    assert_eq!(ui.key(ctrl('f')), None);
    assert!(matches!(ui.held, Held::Observer { follow: false, .. }));
}

#[test]
fn questions_take_the_keys_until_answered() {
    let mut ui = ui();
    ui.apply(&Intent::ConfirmRequest {
        request_id: "q1".into(),
        prompt: "run `ls`?".into(),
        default: Some(false),
    });
    assert_eq!(ui.key(key(KeyCode::Char('x'))), None);
    assert!(ui.editor.is_empty(), "typing goes to the question");
    assert_eq!(
        ui.key(key(KeyCode::Char('y'))),
        Some(Effect::Answer("q1".into(), Answer::Confirm(true)))
    );
    ui.apply(&Intent::SelectRequest {
        request_id: "q2".into(),
        prompt: "which?".into(),
        options: vec!["a".into(), "b".into()],
    });
    ui.key(key(KeyCode::Down));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Answer("q2".into(), Answer::Select(1)))
    );
    ui.apply(&Intent::InputRequest {
        request_id: "q3".into(),
        prompt: "name?".into(),
        secret: true,
    });
    assert_eq!(ui.key(key(KeyCode::Esc)), Some(Effect::Refuse("q3".into())));
    assert!(ui.questions.is_empty());
}

#[test]
fn a_turn_ending_unfocused_rings() {
    let mut ui = ui();
    typed(&mut ui, "go");
    ui.key(key(KeyCode::Enter));
    ui.apply(&Intent::Receipt {
        submission: 3,
        dedup_key: None,
        deduplicated: false,
        state: smith_ui_intents::ReceiptStatus::Admitted,
        stop_reason: None,
    });
    assert_eq!(ui.running, Some(EntryId(3)));
    ui.focused = false;
    ui.apply(&Intent::RunEnd {
        stop_reason: smith::StopReason::EndTurn,
        usage: smith::UsageTotals::default(),
        cost_usd: None,
        error: None,
        memory: None,
    });
    assert!(ui.ring && ui.running.is_none());
}

#[test]
fn a_second_read_of_the_file_replaces_the_cost_and_does_not_repeat_the_prompts() {
    let mut ui = ui();
    let summary = |epoch, cost| Event::Summary {
        epoch,
        cost_usd: Some(cost),
        prompts: vec!["first".into(), "second".into()],
    };
    ui.storage_event(summary(0, 0.25));
    assert_eq!(ui.status.cost_usd, Some(0.25));
    // The live stream fell behind: the file is read again, and its sum holds everything.
    ui.read_again();
    ui.storage_event(summary(ui.epoch, 0.75));
    assert_eq!(ui.status.cost_usd, Some(0.75), "not 0.25 + 0.75");
    // Up's history holds each prompt once: two steps reach the oldest, a third stays.
    for _ in 0..3 {
        ui.key(key(KeyCode::Up));
    }
    assert_eq!(ui.editor.shown(), "first");
}

/// A history chunk of `n` user messages named after chunk `number`.
fn history_chunk(number: u32, n: usize) -> smith_render_terminal::window::Chunk {
    smith_render_terminal::window::Chunk {
        number,
        blocks: (0..n)
            .map(|i| smith_render_terminal::transcript::Block::User {
                text: format!("chunk {number} message {i}"),
            })
            .collect(),
        older: true,
    }
}

#[test]
fn a_chunk_asked_for_before_the_view_jumped_does_not_replace_what_it_holds() {
    let mut ui = ui();
    ui.page = 10;
    // The view held on chunk 0 (a search's match), chunks 0 and 1 resident.
    ui.chunk(ui.epoch, history_chunk(0, 30));
    ui.chunk(ui.epoch, history_chunk(1, 30));
    let held = smith_render_terminal::window::Key::history(0, 5);
    ui.window.show(held);
    // A chunk far from them, asked for while the view was elsewhere, comes late: it is let
    // go, and the view stays where it was.
    ui.chunk(ui.epoch, history_chunk(7, 30));
    assert_eq!(ui.window.resident(), vec![1, 0]);
    assert!(
        matches!(ui.window.scroll, smith_render_terminal::window::Scroll::Held { key, .. } if key == held)
    );
    // The chunk the view holds is taken wherever it is (a jump), and so is a neighbour.
    ui.window
        .show(smith_render_terminal::window::Key::history(7, 0));
    ui.chunk(ui.epoch, history_chunk(7, 30));
    assert_eq!(ui.window.resident(), vec![7]);
    ui.chunk(ui.epoch, history_chunk(8, 30));
    assert_eq!(ui.window.resident(), vec![8, 7]);
}

fn alt(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT)
}

fn recall_ui() -> Ui {
    let mut ui = ui();
    for p in ["fix the parser", "write tests", "fix the lexer"] {
        ui.editor.remember(p);
    }
    typed(&mut ui, "half typed");
    ui
}

#[test]
fn alt_r_searches_the_prompts_sent_newest_first_and_esc_puts_the_draft_back() {
    let mut ui = recall_ui();
    assert_eq!(ui.key(alt('r')), None);
    typed(&mut ui, "FIX");
    assert_eq!(
        ui.editor.shown(),
        "fix the lexer",
        "newest match, case ignored"
    );
    ui.key(alt('r'));
    assert_eq!(
        ui.editor.shown(),
        "fix the parser",
        "again: the older match"
    );
    ui.key(key(KeyCode::Up));
    assert_eq!(ui.editor.shown(), "fix the parser", "no older match: kept");
    let Some(crate::layers::Layer::Recall(recall)) = ui.layers.last() else {
        panic!("the search is open");
    };
    assert_eq!(recall.missed, Some(true));
    assert_eq!(
        recall.position(ui.editor.history(), &ui.editor.expanded()),
        (2, Some(2))
    );
    ui.key(key(KeyCode::Down));
    assert_eq!(ui.editor.shown(), "fix the lexer");
    ui.key(key(KeyCode::Esc));
    assert!(ui.layers.is_empty());
    assert_eq!(ui.editor.shown(), "half typed", "Esc puts the draft back");
}

#[test]
fn enter_takes_the_match_into_the_draft_keeping_the_draft_it_replaced_in_the_history() {
    let mut ui = recall_ui();
    ui.key(alt('r'));
    typed(&mut ui, "pars");
    assert_eq!(ui.key(key(KeyCode::Enter)), None, "taken, not sent");
    assert!(ui.layers.is_empty());
    assert_eq!(ui.editor.shown(), "fix the parser");
    assert_eq!(
        ui.editor.history().last().map(String::as_str),
        Some("half typed"),
        "the replaced draft is kept: Up brings it back"
    );
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Submit("fix the parser".into()))
    );
}

#[test]
fn a_query_matching_nothing_shows_the_draft_and_another_key_takes_the_match_and_acts() {
    let mut ui = recall_ui();
    ui.key(alt('r'));
    typed(&mut ui, "zzz");
    assert_eq!(ui.editor.shown(), "half typed");
    let Some(crate::layers::Layer::Recall(recall)) = ui.layers.last() else {
        panic!("the search is open");
    };
    assert_eq!(
        recall.position(ui.editor.history(), &ui.editor.expanded()),
        (0, None)
    );
    // Backspace widens it again.
    for _ in 0..3 {
        ui.key(key(KeyCode::Backspace));
    }
    typed(&mut ui, "tests");
    assert_eq!(ui.editor.shown(), "write tests");
    // Left takes the match and moves in it, from where the query matched.
    ui.key(key(KeyCode::Left));
    assert!(ui.layers.is_empty());
    ui.key(key(KeyCode::Char('!')));
    assert_eq!(ui.editor.shown(), "write! tests");
}

#[test]
fn with_no_prompt_sent_alt_r_says_there_is_nothing_to_search() {
    let mut ui = ui();
    ui.key(alt('r'));
    assert!(ui.layers.is_empty());
    assert!(
        ui.hint
            .as_deref()
            .is_some_and(|h| h.contains("no prompt sent yet"))
    );
}

fn vim_ui() -> Ui {
    let mut ui = ui();
    ui.set_vim(true);
    ui
}

#[test]
fn vim_mode_starts_in_insert_and_esc_goes_to_normal_where_keys_are_commands() {
    let mut ui = vim_ui();
    assert_eq!(ui.status.input_mode.as_deref(), Some("INSERT"));
    typed(&mut ui, "hello brave world");
    assert_eq!(ui.key(key(KeyCode::Esc)), None);
    assert_eq!(ui.status.input_mode.as_deref(), Some("NORMAL"));
    assert_eq!(ui.editor.shown(), "hello brave world", "Esc kept the draft");
    // Motions and edits; nothing typed as text.
    typed(&mut ui, "0wdw");
    assert_eq!(ui.editor.shown(), "hello world");
    typed(&mut ui, "$x");
    assert_eq!(ui.editor.shown(), "hello worl");
    typed(&mut ui, "u");
    assert_eq!(ui.editor.shown(), "hello world", "u undoes the last change");
    typed(&mut ui, "u");
    assert_eq!(ui.editor.shown(), "hello brave world");
    typed(&mut ui, "0cwgoodbye");
    assert_eq!(ui.status.input_mode.as_deref(), Some("INSERT"));
    assert_eq!(ui.editor.shown(), "goodbye brave world");
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "A!");
    assert_eq!(ui.editor.shown(), "goodbye brave world!");
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "oline two");
    assert_eq!(ui.editor.shown(), "goodbye brave world!\nline two");
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "ggdd");
    assert_eq!(ui.editor.shown(), "line two");
    // Enter sends from normal mode, and the next draft starts in insert mode.
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Submit("line two".into()))
    );
    assert_eq!(ui.status.input_mode.as_deref(), Some("INSERT"));
    typed(&mut ui, "x");
    assert_eq!(ui.editor.shown(), "x", "insert mode types");
}

#[test]
fn in_vim_normal_mode_esc_and_ctrl_keys_keep_their_meaning() {
    let mut ui = vim_ui();
    ui.running = Some(EntryId(7));
    typed(&mut ui, "draft");
    ui.key(key(KeyCode::Esc));
    assert_eq!(ui.status.input_mode.as_deref(), Some("NORMAL"));
    // Esc in normal mode clears the draft, then aborts the work, as in the standard mode.
    ui.key(key(KeyCode::Esc));
    assert!(ui.editor.is_empty());
    assert_eq!(ui.key(key(KeyCode::Esc)), Some(Effect::Abort(EntryId(7))));
    // A Ctrl key is the key table's, not a vi command.
    ui.running = None;
    ui.editor.remember("earlier");
    ui.key(alt('r'));
    assert!(matches!(
        ui.layers.last(),
        Some(crate::layers::Layer::Recall(_))
    ));
}

#[test]
fn standard_mode_has_no_vi_mode() {
    let mut ui = ui();
    assert_eq!(ui.status.input_mode, None);
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "dd");
    assert_eq!(ui.editor.shown(), "dd");
}

fn pasted(label: &str) -> crate::paste_image::Pasted {
    crate::paste_image::Pasted {
        label: label.into(),
        png: std::sync::Arc::new(vec![0x89, b'P', b'N', b'G']),
    }
}

#[test]
fn ctrl_v_asks_for_the_clipboard_image_which_goes_into_the_draft_as_a_chip_and_is_sent_with_it() {
    let mut ui = ui();
    typed(&mut ui, "what is ");
    assert_eq!(ui.key(ctrl('v')), Some(Effect::PasteImage));
    ui.pasted(Ok(pasted("2×2 PNG, 70 B")));
    typed(&mut ui, " this?");
    assert_eq!(ui.editor.shown(), "what is [image · 2×2 PNG, 70 B] this?");
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::SubmitImages {
            text: "what is [image 1] this?".into(),
            at: None,
            images: vec![pasted("2×2 PNG, 70 B")],
        })
    );
    // Refused (a model without image input): the text and its image come back.
    ui.refused("cannot take the image".into());
    assert_eq!(
        ui.editor.shown(),
        "what is [image · 2×2 PNG, 70 B] this?",
        "as it was sent"
    );
    assert_eq!(ui.draft_images(), vec![pasted("2×2 PNG, 70 B")]);
}

#[test]
fn a_pasted_image_waits_for_a_turn_of_its_own_and_a_failed_read_says_why() {
    let mut ui = ui();
    ui.pasted(Err("no image pasted: the clipboard holds no image".into()));
    assert!(
        ui.hint
            .as_deref()
            .is_some_and(|h| h.contains("holds no image"))
    );
    assert!(ui.editor.is_empty());
    ui.pasted(Ok(pasted("1×1 PNG, 70 B")));
    typed(&mut ui, "look");
    ui.running = Some(EntryId(3));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        None,
        "not queued into running work"
    );
    assert!(
        ui.hint
            .as_deref()
            .is_some_and(|h| h.contains("turn of its own"))
    );
    // Deleting the chip leaves text that queues as any other.
    ui.key(key(KeyCode::Home));
    ui.key(key(KeyCode::Delete));
    assert_eq!(
        ui.key(key(KeyCode::Enter)),
        Some(Effect::Enqueue("look".into(), Delivery::FollowUp))
    );
}

#[test]
fn vi_commands_keep_to_the_line_words_stop_at_punctuation_and_chips_and_u_undoes_an_insert() {
    let mut ui = vim_ui();
    typed(&mut ui, "ab");
    ui.key(ctrl('j'));
    typed(&mut ui, "cd");
    ui.key(key(KeyCode::Esc));
    // On `d` of line two: `l` stays, `x` never joins the lines, `X`/`h` at the start stay.
    typed(&mut ui, "lx");
    assert_eq!(ui.editor.shown(), "ab\nc");
    typed(&mut ui, "xxhX");
    assert_eq!(
        ui.editor.shown(),
        "ab\n",
        "x on an empty line, X at a line's start: nothing"
    );
    typed(&mut ui, "ggdd");
    assert_eq!(ui.editor.shown(), "");
    // Esc with an operator waiting cancels it and nothing else.
    typed(&mut ui, "i");
    typed(&mut ui, "see main.rs, then fix");
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "d");
    ui.key(key(KeyCode::Esc));
    assert_eq!(ui.editor.shown(), "see main.rs, then fix", "not cleared");
    // Words by vi's classes: `main` `.` `rs` `,` are words of their own.
    typed(&mut ui, "0wdw");
    assert_eq!(ui.editor.shown(), "see .rs, then fix");
    typed(&mut ui, "wcwx");
    assert_eq!(ui.editor.shown(), "see .x, then fix");
    // `u` takes back the change and what was typed after it as one step, then the dw.
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "u");
    assert_eq!(ui.editor.shown(), "see .rs, then fix");
    typed(&mut ui, "u");
    assert_eq!(ui.editor.shown(), "see main.rs, then fix");
    // An image chip is a word: `dw` before it stops there.
    typed(&mut ui, "A ");
    ui.pasted(Ok(pasted("1×1 PNG, 70 B")));
    typed(&mut ui, " now");
    ui.key(key(KeyCode::Esc));
    typed(&mut ui, "bbbdw");
    assert_eq!(
        ui.editor.shown(),
        "see main.rs, then [image · 1×1 PNG, 70 B] now"
    );
    assert_eq!(ui.draft_images().len(), 1);
    // A draft cleared with Esc in normal mode: the next one starts in insert mode.
    ui.key(key(KeyCode::Esc));
    assert!(ui.editor.is_empty());
    assert!(
        ui.hint
            .as_deref()
            .is_some_and(|h| h.contains("not its image"))
    );
    assert_eq!(ui.status.input_mode.as_deref(), Some("INSERT"));
    typed(&mut ui, "fix it");
    assert_eq!(ui.editor.shown(), "fix it");
}

#[test]
fn two_slashes_send_one_and_keep_the_chips() {
    let mut ui = ui();
    typed(&mut ui, "//x ");
    ui.pasted(Ok(pasted("1×1 PNG, 70 B")));
    let Some(Effect::SubmitImages { text, images, .. }) = ui.key(key(KeyCode::Enter)) else {
        panic!("sent with its image");
    };
    assert_eq!(text, "/x [image 1]");
    assert_eq!(images.len(), 1);
}

#[test]
fn vi_cw_changes_to_the_end_of_the_word_however_short_the_rest() {
    for (draft, keys, after) in [
        ("say a big word", "0wcwX", "say X big word"),
        ("hello world again", "0ecwX", "hellX world again"),
        ("x = 1", "0wcw==", "x == 1"),
    ] {
        let mut ui = vim_ui();
        typed(&mut ui, draft);
        ui.key(key(KeyCode::Esc));
        typed(&mut ui, keys);
        assert_eq!(ui.editor.shown(), after, "{draft} {keys}");
    }
}
