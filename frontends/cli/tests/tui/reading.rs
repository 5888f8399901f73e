//! Reading in the terminal UI, in tmux: a view scrolled up holds still while output streams
//! in, one key returns to the latest, search reaches history thousands of lines above,
//! resizes in the middle of a stream reflow every line, copies carry an entry's exact text,
//! and a 100 MB session opens on its last entries.

use crate::common::Env;
use crate::pane::Pane;
use smith_testkit::large::{self, Shape};
use smith_testkit::{wait_for, wait_until};

/// The UI on `script` (written to `env` as `name.kdl`), model `scripted/NAME`, with `extra`
/// arguments, idle.
fn start(env: &Env, name: &str, script: &str, extra: &[&str]) -> Pane {
    let path = env.write(&format!("{name}.kdl"), script);
    let model = format!("scripted/{name}");
    let mut args = vec!["--model", &model, "--script", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let pane = Pane::start(env, &args, &[]);
    pane.wait_for_text(&format!("{model} · idle"));
    pane
}

/// A KDL string holding `text` (quotes and backslashes escaped, line breaks as `\n`).
fn kdl(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

fn release(env: &Env, gate: &str) {
    std::fs::write(env.root.path().join(format!("{gate}.release")), "").unwrap();
}

fn waiting(env: &Env, gate: &str) {
    wait_for(&env.root.path().join(format!("{gate}.waiting")));
}

#[test]
fn scrolling_up_while_output_streams_holds_the_view_and_one_key_returns_to_the_latest() {
    let env = Env::new();
    // Paragraphs (a single line break is a soft break in Markdown).
    let long: String = (1..=60).map(|n| format!("line {n:02}\n\n")).collect();
    let script = format!(
        "round {{\n  text {}\n  stop \"end_turn\"\n}}\nround {{\n  text \"streaming A\\n\\n\"\n  gate \"g1\"\n  text \"more B\\n\\n\"\n  gate \"g2\"\n  text \"done C\"\n  stop \"end_turn\"\n}}\n",
        kdl(&long)
    );
    let pane = start(&env, "stream", &script, &[]);
    pane.type_text("first");
    pane.keys(&["Enter"]);
    pane.wait_for_text("line 60");
    pane.wait_for_text("scripted/stream · idle");
    pane.type_text("second");
    pane.keys(&["Enter"]);
    waiting(&env, "g1");
    pane.wait_for_text("streaming A");
    pane.keys(&["PPage"]);
    wait_until("the view scrolled up", || {
        !pane.screen().contains("streaming A")
    });
    let top = |s: &str| s.lines().take(5).collect::<Vec<_>>().join("\n");
    let held = top(&pane.screen());
    assert!(
        held.contains("line "),
        "scrolled into the first answer:\n{held}"
    );
    // New output arrives twice while the view is held: the top lines stay where they were
    // and the marker says there is more below.
    release(&env, "g1");
    waiting(&env, "g2");
    wait_until("the new-output marker", || {
        pane.screen().contains("new output below")
    });
    assert_eq!(top(&pane.screen()), held, "the view moved on new output");
    release(&env, "g2");
    pane.wait_for_text("scripted/stream · idle");
    let screen = pane.screen();
    assert_eq!(top(&screen), held, "the view moved when the turn ended");
    assert!(!screen.contains("done C"), "{screen}");
    assert!(screen.contains("new output below"), "{screen}");
    // One key returns to the latest and follows again.
    pane.keys(&["C-End"]);
    pane.wait_for_text("done C");
    wait_until("the marker gone", || {
        !pane.screen().contains("new output below")
    });
    let screen = pane.screen();
    assert!(
        screen.contains("more B") && screen.contains("streaming A"),
        "{screen}"
    );
    super::quit(&pane);
    pane.assert_restored();
}

/// The transcript rows of `screen` (above the input) joined by spaces, runs of white space
/// made one: what word wrapping preserves.
fn flowed(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let input = rows
        .iter()
        .rposition(|l| l.starts_with('›'))
        .unwrap_or(rows.len());
    let rows = &rows[..input];
    rows.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn resizing_in_the_middle_of_a_stream_reflows_every_line_once() {
    let env = Env::new();
    let sentence = |n: usize| {
        format!(
            "L{n:02} alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike end{n:02}"
        )
    };
    let before: Vec<String> = (1..=5).map(sentence).collect();
    let after: Vec<String> = (6..=8).map(sentence).collect();
    let script = format!(
        "round {{\n  text {}\n  gate \"mid\"\n  text {}\n  stop \"end_turn\"\n}}\n",
        kdl(&(before.join("\n\n") + "\n\n")),
        kdl(&after.join("\n\n"))
    );
    let pane = start(&env, "wide", &script, &[]);
    pane.tmux(&["resize-window", "-t", "main", "-x", "120"]);
    pane.type_text("go");
    pane.keys(&["Enter"]);
    waiting(&env, "mid");
    pane.wait_for_text("end05");
    // Every line shown exactly once, on rows no wider than `width`: waited for, since the
    // terminal shows its own cut-down copy of the old frame until smith draws the new one.
    let reflowed = |lines: &[String], width: usize| {
        wait_until(&format!("every line once at {width} columns"), || {
            let screen = pane.screen();
            let text = flowed(&screen);
            screen.lines().all(|l| l.chars().count() <= width)
                && lines
                    .iter()
                    .all(|line| text.matches(line.as_str()).count() == 1)
                && screen
                    .lines()
                    .any(|row| row.trim_start().starts_with("juliet"))
                    == (width < 80)
        });
    };
    reflowed(&before, 120);
    // Narrower while the stream is held: each line now wraps onto two rows.
    pane.tmux(&["resize-window", "-t", "main", "-x", "60"]);
    reflowed(&before, 60);
    // The stream goes on at 60 columns, then the window widens to 160.
    release(&env, "mid");
    pane.wait_for_text("wide · idle");
    let all: Vec<String> = before.iter().chain(&after).cloned().collect();
    reflowed(&all, 60);
    pane.tmux(&["resize-window", "-t", "main", "-x", "160"]);
    reflowed(&all, 160);
    let screen = pane.screen();
    for line in &all {
        assert!(
            screen.lines().any(|row| row.contains(line.as_str())),
            "{line:?} on one row:\n{screen}"
        );
    }
    super::quit(&pane);
    pane.assert_restored();
}

#[test]
fn copying_an_entry_puts_its_exact_text_on_the_clipboard() {
    let env = Env::new();
    let answer = "The answer, with **markdown**:\n\n- one\n- two\n\nand a last line.";
    let script = format!(
        "round {{\n  text {}\n  stop \"end_turn\"\n}}\n",
        kdl(answer)
    );
    let pane = start(&env, "copy", &script, &[]);
    // tmux takes OSC 52 into a paste buffer when set-clipboard is on.
    pane.tmux(&["set-option", "-s", "set-clipboard", "on"]);
    pane.type_text("question");
    pane.keys(&["Enter"]);
    pane.wait_for_text("and a last line.");
    pane.wait_for_text("copy · idle");
    pane.keys(&["C-o"]);
    pane.wait_for_text("y copies");
    pane.keys(&["y"]);
    pane.wait_for_text("to the clipboard (OSC 52)");
    let buffer = pane.tmux(&["show-buffer"]);
    assert_eq!(buffer, answer, "the clipboard holds the message's text");
    // Up selects the prompt; its copy is the prompt exactly.
    pane.keys(&["Up", "y"]);
    wait_until("the prompt on the clipboard", || {
        pane.tmux(&["show-buffer"]) == "question"
    });
    pane.escape_until_gone("y copies");
    super::quit(&pane);
    pane.assert_restored();
}

#[test]
fn a_code_block_is_copied_to_a_file_whose_path_is_shown() {
    let env = Env::new();
    let code = "fn main() {\n    println!(\"hi\");\n}";
    let answer = format!("Here it is:\n\n```rust\n{code}\n```\n\nRun it.");
    let script = format!(
        "round {{\n  text {}\n  stop \"end_turn\"\n}}\n",
        kdl(&answer)
    );
    let pane = start(&env, "code", &script, &["-c", "tui.clipboard=file"]);
    pane.type_text("code please");
    pane.keys(&["Enter"]);
    pane.wait_for_text("Run it.");
    pane.keys(&["C-o"]);
    pane.wait_for_text("c copies");
    pane.keys(&["c"]);
    pane.wait_for_text("copied code block 1 of 1");
    let files: Vec<_> = std::fs::read_dir(env.tmp())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("smith-copy-")
        })
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let screen = flowed(&pane.screen());
    let shown = format!("to {} (tui.clipboard is `file`)", files[0].display());
    assert!(screen.contains(&shown), "the path is shown:\n{screen}");
    let copied = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(copied.trim_end_matches('\n'), code);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&files[0]).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "the copy is private: {mode:o}");
    pane.escape_until_gone("y copies");
    super::quit(&pane);
    pane.assert_restored();
}

/// A large session in `env`'s store (the large-session builder), its id.
fn large(env: &Env, result_bytes: usize, file_bytes: u64) -> large::Large {
    std::fs::create_dir_all(env.sessions()).unwrap();
    large::large_session(
        &env.sessions(),
        Shape {
            result_bytes,
            file_bytes,
            bulk_off_branch: false,
            compacted: false,
        },
        &env.root.path().display().to_string(),
    )
}

#[test]
fn search_finds_an_entry_thousands_of_lines_above() {
    let env = Env::new();
    let session = large(&env, 600, 4 << 20);
    assert!(session.turns > 1000, "{} turns", session.turns);
    let id = session.id.to_string();
    let pane = Pane::start(&env, &["--session", &id], &[]);
    let last = session.turns - 1;
    pane.wait_for_text(&format!("again ({last})"));
    pane.keys(&["C-r"]);
    pane.type_text("again (7)");
    pane.wait_for_text("Read the README again (7)");
    let screen = pane.screen();
    assert!(!screen.contains(&format!("again ({last})")), "{screen}");
    // Older: none (turn 7 is the only one); newer from there finds nothing newer either, and
    // the query widened to every turn walks back one turn at a time.
    pane.keys(&["BSpace", "BSpace"]);
    pane.wait_for_text(&format!("again ({last})"));
    pane.keys(&["Up"]);
    pane.wait_for_text(&format!("again ({})", last - 1));
    pane.escape_until_gone(" search: ");
    pane.keys(&["C-End"]);
    pane.wait_for_text(&format!("again ({last})"));
    super::quit(&pane);
    pane.assert_restored();
}

#[test]
fn search_lands_on_the_matching_line_and_highlights_it() {
    let env = Env::new();
    let answer: String = (0..120)
        .map(|i| format!("item {i} of the list\n\n"))
        .collect();
    let script = format!(
        "round {{\n  text {}\n  stop \"end_turn\"\n}}\n",
        kdl(&answer)
    );
    let pane = start(&env, "long", &script, &[]);
    pane.type_text("list everything");
    pane.keys(&["Enter"]);
    pane.wait_for_text("item 119 of the list");
    pane.keys(&["C-r"]);
    pane.type_text("item 40 ");
    // The view holds two lines of the answer above the matching one (the answer's blank
    // lines between items count), and the match is drawn in the search style.
    // A whole frame: the query drawn, the view moved (a capture may catch a frame half drawn).
    pane.wait_for_screen("the view on item 40, one item above it", |screen| {
        let first = screen.lines().next().unwrap_or_default();
        screen.contains("search: item 40")
            && first.trim() == "item 39 of the list"
            && !screen.contains("item 119 of")
    });
    let styled = pane.styled_screen();
    let line = styled
        .lines()
        .find(|l| l.contains("of the list") && l.contains("item 40"))
        .unwrap_or_default();
    // Black on yellow (the default theme's search match) on the matched text alone.
    assert!(
        line.contains("\u{1b}[48;5;3mitem 40 \u{1b}[39m\u{1b}[49mof the list"),
        "not highlighted: {line:?}"
    );
    assert!(
        !styled
            .lines()
            .find(|l| l.contains("item 41 of"))
            .unwrap_or_default()
            .contains("[48;5;3m"),
        "{styled}"
    );
    pane.escape_until_gone(" search: ");
    super::quit(&pane);
    pane.assert_restored();
}

#[test]
fn a_100_mb_session_opens_on_its_last_entries_and_loads_older_ones_on_scrolling() {
    let env = Env::new();
    let session = large(&env, 64 << 10, 100 << 20);
    let size = std::fs::metadata(&session.path).unwrap().len();
    assert!(size >= 100 << 20, "{size} bytes");
    let id = session.id.to_string();
    let pane = Pane::start(&env, &["--session", &id], &[]);
    let last = session.turns - 1;
    pane.wait_for_text(&format!("again ({last})"));
    pane.wait_for_text("I have read the README.");
    // Scrolling up reaches turns well before the first chunk read.
    let turns_shown = |screen: &str| -> Vec<usize> {
        screen
            .split("again (")
            .skip(1)
            .filter_map(|rest| rest.split(')').next()?.parse().ok())
            .collect()
    };
    wait_until("turns 30 before the last after paging up", || {
        pane.keys(&["PPage"]);
        turns_shown(&pane.screen()).iter().any(|&n| n + 30 <= last)
    });
    // Older content came in above: the turns on screen are consecutive, none lost.
    let shown = turns_shown(&pane.screen());
    assert!(
        shown.windows(2).all(|w| w[1] == w[0] + 1),
        "consecutive turns: {shown:?}"
    );
    super::quit(&pane);
    pane.assert_restored();
}
