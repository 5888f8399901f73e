//! The permission mode and its questions in the terminal UI, in tmux: the status line names
//! the mode, Shift+Tab cycles it, a question shows the whole command with Deny first, and
//! the mode chosen decides the next run.

use crate::common::Env;
use crate::pane::Pane;
use smith_testkit::wait_until;

#[test]
fn shift_tab_cycles_the_mode_shown_and_the_question_shows_the_whole_command() {
    let env = Env::new();
    // The pane runs smith in the root: the programs' files land there.
    let project = env.root.path().canonicalize().unwrap();
    let bash = |file: &str| {
        let command = format!("echo first part; echo second part && touch {file}");
        let arguments = serde_json::json!({ "command": command }).to_string();
        format!(
            "round {{\n  tool-call id=\"{file}\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done {file}\"\n  stop \"end_turn\"\n}}\n"
        )
    };
    let script = env.write("modes.kdl", &format!("{}{}", bash("made1"), bash("made2")));
    let pane = Pane::start(
        &env,
        &[
            "--allow-process",
            "--permission-mode",
            "ask",
            "--model",
            "scripted/modes",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("mode ask");
    pane.type_text("go");
    pane.keys(&["Enter"]);
    // The question: the whole command on its own line, Deny first and highlighted, each
    // choice on a line of its own.
    pane.wait_for_text("▸1 Deny\n");
    pane.wait_for_text(" 2 Allow once\n");
    let screen = pane.screen();
    assert!(
        screen.contains("echo first part; echo second part && touch made1"),
        "{screen}"
    );
    pane.keys(&["2"]);
    pane.wait_for_text("done made1");
    // Shift+Tab twice: ask → auto-edit → auto, shown in the status line.
    pane.keys(&["BTab"]);
    pane.wait_for_text("mode auto-edit");
    pane.keys(&["BTab"]);
    pane.wait_for_text("mode auto ");
    pane.type_text("again");
    pane.keys(&["Enter"]);
    pane.wait_for_text("done made2");
    assert!(
        !pane.screen().contains("Allow once"),
        "in auto mode the program ran unasked:\n{}",
        pane.screen()
    );
    wait_until("both programs ran", || {
        project.join("made1").exists() && project.join("made2").exists()
    });
    pane.keys(&["C-c"]);
    pane.keys(&["C-c"]);
}

#[test]
fn allowed_for_the_session_the_same_command_runs_unasked_and_esc_denies_a_new_one() {
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap();
    let bash = |id: &str, command: &str| {
        let arguments = serde_json::json!({ "command": command }).to_string();
        format!(
            "round {{\n  tool-call id=\"{id}\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done {id}\"\n  stop \"end_turn\"\n}}\n"
        )
    };
    let script = env.write(
        "session.kdl",
        &format!(
            "{}{}{}",
            bash("first", "touch same.txt"),
            bash("second", "touch same.txt"),
            bash("third", "touch other.txt")
        ),
    );
    let pane = Pane::start(
        &env,
        &[
            "--allow-process",
            "--permission-mode",
            "ask",
            "--model",
            "scripted/session",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("mode ask");
    pane.type_text("one");
    pane.keys(&["Enter"]);
    pane.wait_for_text("3 Allow this command for the rest of this session");
    pane.keys(&["3"]);
    pane.wait_for_text("done first");
    wait_until("the first program ran", || {
        project.join("same.txt").exists()
    });
    std::fs::remove_file(project.join("same.txt")).unwrap();
    // The same command again: it runs unasked.
    pane.type_text("two");
    pane.keys(&["Enter"]);
    pane.wait_for_text("done second");
    assert!(
        !pane.screen().contains("Allow once"),
        "asked again:\n{}",
        pane.screen()
    );
    wait_until("the second program ran", || {
        project.join("same.txt").exists()
    });
    // Another command asks; Esc denies it, and it does not run.
    pane.type_text("three");
    pane.keys(&["Enter"]);
    pane.wait_for_text("touch other.txt");
    pane.wait_for_text("Allow once");
    pane.keys(&["Escape"]);
    pane.wait_for_text("done third");
    assert!(!project.join("other.txt").exists());
    pane.keys(&["C-c"]);
    pane.keys(&["C-c"]);
}

#[test]
fn a_long_question_says_what_is_below_and_pages_down_to_its_end() {
    let env = Env::new();
    let lines: Vec<String> = (1..=60).map(|i| format!("echo line{i:02}")).collect();
    let command = format!("{}\nrm -rf the-last-line", lines.join("\n"));
    let arguments = serde_json::json!({ "command": command }).to_string();
    let script = env.write(
        "long.kdl",
        &format!(
            "round {{\n  tool-call id=\"long\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done long\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let pane = Pane::start(
        &env,
        &[
            "--allow-process",
            "--permission-mode",
            "ask",
            "--model",
            "scripted/long",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("mode ask");
    pane.type_text("go");
    pane.keys(&["Enter"]);
    pane.wait_for_text("more below · PgUp/PgDn scroll");
    assert!(!pane.screen().contains("rm -rf the-last-line"));
    // Page by page to the end: the last line shows, and nothing is said to be below.
    for _ in 0..20 {
        if pane.screen().contains("rm -rf the-last-line") {
            break;
        }
        pane.keys(&["NPage"]);
    }
    pane.wait_for_text("rm -rf the-last-line");
    assert!(!pane.screen().contains("more below"), "{}", pane.screen());
    pane.wait_for_text("▸1 Deny\n");
    pane.keys(&["Escape"]);
    pane.wait_for_text("done long");
    pane.keys(&["C-c"]);
    pane.keys(&["C-c"]);
}
