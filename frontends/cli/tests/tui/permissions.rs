//! The permission mode and its questions in the terminal UI, in tmux: the status line names
//! the mode, Shift+Tab cycles it, a question shows the whole command with Deny first, and
//! the mode chosen decides the next run.

use crate::common::Env;
use crate::pane::Pane;
use smith_testkit::wait_until;

/// A scripted turn whose model calls `bash` with `command` (call id `id`), then answers
/// `done ID`.
fn bash_turn(id: &str, command: &str) -> String {
    let arguments = serde_json::json!({ "command": command }).to_string();
    format!(
        "round {{\n  tool-call id=\"{id}\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done {id}\"\n  stop \"end_turn\"\n}}\n"
    )
}

/// smith in a pane, programs allowed, in the `ask` mode, playing `turns` as model
/// `scripted/NAME`; ready once the status line shows the mode.
fn asking_pane(env: &Env, name: &str, turns: &str) -> Pane {
    let script = env.write(&format!("{name}.kdl"), turns);
    let model = format!("scripted/{name}");
    let pane = Pane::start(
        env,
        &[
            "--allow-process",
            "--permission-mode",
            "ask",
            "--model",
            &model,
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("mode ask");
    pane
}

#[test]
fn shift_tab_cycles_the_mode_shown_and_the_question_shows_the_whole_command() {
    let env = Env::new();
    // The pane runs smith in the root: the programs' files land there.
    let project = env.root.path().canonicalize().unwrap();
    let bash = |file: &str| {
        bash_turn(
            file,
            &format!("echo first part; echo second part && touch {file}"),
        )
    };
    let pane = asking_pane(
        &env,
        "modes",
        &format!("{}{}", bash("made1"), bash("made2")),
    );
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
    let turns = format!(
        "{}{}{}",
        bash_turn("first", "touch same.txt"),
        bash_turn("second", "touch same.txt"),
        bash_turn("third", "touch other.txt")
    );
    let pane = asking_pane(&env, "session", &turns);
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
    let pane = asking_pane(&env, "long", &bash_turn("long", &command));
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
