//! Running tools in the terminal UI, in tmux: a program's output streams into its block as
//! it arrives, under a spinner and the time it has run, before the call ends.

use crate::common::Env;
use crate::pane::Pane;
use smith_testkit::wait_until;

#[test]
fn a_running_programs_output_streams_with_a_spinner_and_the_time_run() {
    let env = Env::new();
    // The program prints two lines, then waits for a file only the test makes: whatever of
    // its output the screen shows before that, it showed while the program ran.
    let command =
        "echo line one; echo line two; while [ ! -e gate ]; do sleep 0.05; done; echo finished";
    let arguments = serde_json::json!({ "command": command }).to_string();
    let turn = format!(
        "round {{\n  tool-call id=\"live\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done live\"\n  stop \"end_turn\"\n}}\n"
    );
    let script = env.write("live.kdl", &turn);
    let pane = Pane::start(
        &env,
        &[
            "--allow-process",
            "--permission-mode",
            "auto",
            "--model",
            "scripted/live",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("mode auto");
    pane.type_text("go");
    pane.keys(&["Enter"]);
    pane.wait_for_text("line two");
    // Still running: a spinner leads the heading and the time run follows it.
    let mut screen = String::new();
    wait_until("the time run shown", || {
        screen = pane.screen();
        screen.lines().any(|l| {
            l.contains("bash echo line one")
                && l.split(" · ").last().is_some_and(|t| {
                    t.trim_end().ends_with('s')
                        && t.trim_end().trim_end_matches('s').parse::<u64>().is_ok()
                })
        })
    });
    let heading = screen
        .lines()
        .find(|l| l.contains("bash echo line one"))
        .unwrap();
    let mark = heading.trim_start().chars().next().unwrap();
    assert!(
        ('⠀'..='⣿').contains(&mark),
        "no spinner: {heading}\n{screen}"
    );
    let finished = |screen: &str| screen.lines().any(|l| l.trim() == "finished");
    assert!(
        !finished(&screen) && !screen.contains("done live"),
        "{screen}"
    );
    std::fs::write(env.root.path().join("gate"), "").unwrap();
    pane.wait_for_text("done live");
    let screen = pane.screen();
    assert!(screen.contains("● bash echo line one"), "{screen}");
    assert!(finished(&screen), "{screen}");
    crate::quit(&pane);
    pane.assert_restored();
}

#[test]
fn the_plan_shows_in_a_panel_that_hides_and_comes_back_with_the_session() {
    let env = Env::new();
    let arguments = serde_json::json!({"todos": [
        {"content": "Read the parser", "status": "completed"},
        {"content": "Fix the off-by-one", "status": "in_progress"},
        {"content": "Run the tests", "status": "pending"}
    ]})
    .to_string();
    let turn = format!(
        "round {{\n  tool-call id=\"p1\" name=\"todo_write\" arguments=##\"{arguments}\"##\n  stop \"tool_use\"\n}}\nround {{\n  text \"planned it\"\n  stop \"end_turn\"\n}}\n"
    );
    let script = env.write("plan.kdl", &turn);
    let args = [
        "--model",
        "scripted/plan",
        "--script",
        script.to_str().unwrap(),
    ];
    let pane = Pane::start(&env, &args, &[]);
    pane.wait_for_text("scripted/plan · idle");
    pane.type_text("fix the parser");
    pane.keys(&["Enter"]);
    pane.wait_for_text("planned it");
    pane.wait_for_text("plan 1/3 done · Alt+P hides it");
    let screen = pane.screen();
    assert!(
        screen.contains("✓ Read the parser")
            && screen.contains("▸ Fix the off-by-one")
            && screen.contains("○ Run the tests"),
        "{screen}"
    );
    // Alt+P hides the panel, and shows it again.
    pane.keys(&["M-p"]);
    pane.wait_for_text("plan hidden");
    wait_until("the panel to go", || {
        !pane.screen().contains("○ Run the tests")
    });
    pane.keys(&["M-p"]);
    pane.wait_for_text("○ Run the tests");
    crate::quit(&pane);
    pane.assert_restored();
    // Resumed, the session's plan is there again: it is the branch's state.
    let pane = Pane::start(&env, &["--continue", "--model", "scripted/demo"], &[]);
    pane.wait_for_text("plan 1/3 done");
    pane.wait_for_text("▸ Fix the off-by-one");
    crate::quit(&pane);
    pane.assert_restored();
}
