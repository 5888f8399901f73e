use super::*;

fn typed(s: &str) -> Editor {
    let mut e = Editor::new();
    for c in s.chars() {
        e.insert_char(c);
    }
    e
}

#[test]
fn motions_and_deletions() {
    let mut e = typed("hello brave world");
    e.word_left();
    e.delete_word_left();
    assert_eq!(e.shown(), "hello world");
    e.home();
    e.word_right();
    e.insert_char('!');
    assert_eq!(e.shown(), "hello! world");
    e.end();
    e.backspace();
    assert_eq!(e.shown(), "hello! worl");
    e.home();
    e.kill_to_end();
    assert!(e.is_empty());
    // Grapheme clusters move and delete whole.
    let mut e = typed("ae\u{301}");
    e.backspace();
    assert_eq!(e.shown(), "a");
}

#[test]
fn lines_history_and_submit() {
    let mut e = typed("one");
    e.newline();
    for c in "two".chars() {
        e.insert_char(c);
    }
    e.up();
    e.insert_char('!');
    assert_eq!(e.shown(), "one!\ntwo");
    assert_eq!(e.submit().as_deref(), Some("one!\ntwo"));
    assert!(e.is_empty());
    let mut e2 = e.clone();
    e2.insert_char('x');
    e2.up();
    assert_eq!(
        e2.shown(),
        "one!\ntwo",
        "up on the first line recalls history"
    );
    e2.down();
    e2.down();
    assert_eq!(e2.shown(), "x", "and down brings the draft back");
    assert_eq!(typed("   ").submit(), None);
}

#[test]
fn a_stashed_draft_comes_back_with_up() {
    let mut e = typed("long careful prompt");
    assert!(e.stash());
    assert!(e.is_empty());
    e.up();
    assert_eq!(e.shown(), "long careful prompt");
    let mut blank = typed("  ");
    assert!(!blank.stash(), "whitespace is not kept");
    blank.up();
    assert_eq!(blank.shown(), "", "nothing to recall");
}

#[test]
fn a_large_paste_is_one_chip_that_sends_the_whole_text() {
    let paste: String = (1..=2000).map(|i| format!("line {i}\n")).collect();
    let mut e = typed("see: ");
    e.paste(&paste);
    e.insert_char('.');
    assert_eq!(e.shown(), "see: [paste 1: 2000 lines, 18.5 KiB].");
    e.left();
    e.left();
    e.insert_char(' ');
    assert_eq!(
        e.shown(),
        "see:  [paste 1: 2000 lines, 18.5 KiB].",
        "the chip moves as one"
    );
    let sent = e.submit().unwrap();
    assert_eq!(sent, format!("see:  {paste}."));
    // Text cannot forge a chip.
    let mut e = Editor::new();
    e.paste("small \u{f0000} paste");
    assert_eq!(e.submit().unwrap(), "small \u{fffd} paste");
    // A small paste is text; CRLF becomes LF.
    let mut e = Editor::new();
    e.paste("a\r\nb");
    assert_eq!(e.shown(), "a\nb");
}

#[test]
fn layout_wraps_and_places_the_cursor() {
    let mut e = typed("abcdefgh");
    let (lines, cursor) = e.layout(5);
    assert_eq!(lines, ["abcde", "fgh"]);
    assert_eq!(cursor, (3, 1));
    e.home();
    assert_eq!(e.layout(5).1, (0, 0));
    let e = typed("abcde");
    assert_eq!(e.layout(5), (vec!["abcde".into(), String::new()], (0, 1)));
}

#[test]
fn word_motions_never_split_a_grapheme() {
    // A family emoji (joined by ZWJ) and an e with a combining acute.
    let text = "say 👨\u{200d}👩\u{200d}👧 cafe\u{301} now";
    let mut e = typed(text);
    let mut stops = Vec::new();
    while e.cursor > 0 {
        e.word_left();
        assert!(text.is_char_boundary(e.cursor));
        stops.push(e.cursor);
    }
    assert_eq!(
        stops,
        [text.find("now").unwrap(), text.find("cafe").unwrap(), 0]
    );
    e.word_right();
    assert_eq!(e.cursor, 3, "the end of `say`");
    e.word_right();
    assert_eq!(&text[..e.cursor], "say 👨\u{200d}👩\u{200d}👧 cafe\u{301}");
    e.delete_word_left();
    assert_eq!(e.shown(), "say 👨\u{200d}👩\u{200d}👧  now");
}

#[test]
fn layout_wraps_at_words_and_shows_tabs_and_controls() {
    let mut e = typed("one two three");
    assert_eq!(e.layout(9).0, ["one two ", "three"], "the word moves whole");
    assert_eq!(e.layout(9).1, (5, 1));
    e.home();
    for _ in 0..5 {
        e.right();
    }
    assert_eq!(e.layout(9).1, (5, 0), "inside `two`");
    assert_eq!(typed("abcdefghij").layout(4).0, ["abcd", "efgh", "ij"]);
    let e = typed("a\tb\u{1b}[31m");
    assert_eq!(e.layout(40).0, ["a    b␛[31m"]);
    assert_eq!(e.layout(40).1, (11, 0));
    let mut one = Editor::new();
    one.paste(&"x".repeat(9000));
    assert_eq!(one.shown(), "[paste 1: 1 line, 8.8 KiB]");
}
