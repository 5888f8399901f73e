//! The terminal UI (`smith` with no subcommand) driven in tmux, as a person uses it: prompts
//! answered, typing while a stream is held, queued input, a large paste, Esc, observation of
//! a session another process writes — and, after every way of leaving, a terminal exactly as
//! it was.
#![allow(unreachable_pub, dead_code)]

#[path = "../common/mod.rs"]
mod common;

mod input;
mod pane;
mod permissions;
mod product;
mod reading;
mod recovery;
mod restore;
mod sessions;
mod tools;

use common::Env;
use pane::Pane;
use smith_store::{Record, read_session};
use smith_testkit::{wait_for, wait_until};

/// The user and assistant texts of a session file, in order.
fn messages(env: &Env) -> Vec<(smith::Role, String)> {
    let file = session_file(env).expect("a session file");
    read_session(&file)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Message(m) => Some((m.message.role, m.message.text())),
            _ => None,
        })
        .collect()
}

/// The one session file of `env`.
fn session_file(env: &Env) -> Option<std::path::PathBuf> {
    env.session_files()
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "smith"))
}

fn kinds(env: &Env) -> Vec<&'static str> {
    let file = session_file(env).expect("a session file");
    read_session(&file)
        .unwrap()
        .entries
        .iter()
        .map(|e| e.record.kind_name())
        .collect()
}

fn quit(pane: &Pane) {
    pane.keys(&["C-c"]);
    // Running work (also a run ending as the key came) takes the first Ctrl+C: once it is
    // idle, the next one arms leaving.
    let mut screen = String::new();
    wait_until("Ctrl+C answered", || {
        screen = pane.screen();
        screen.contains("press Ctrl+C again to leave")
            || screen.contains("interrupting the running work")
    });
    if !screen.contains("press Ctrl+C again to leave") {
        pane.wait_for_text(" · idle");
        pane.keys(&["C-c"]);
    }
    pane.wait_for_text("press Ctrl+C again to leave");
    pane.keys(&["C-c"]);
    assert_eq!(pane.exit_status(), 0);
}

#[test]
fn a_prompt_is_answered_on_the_scripted_provider() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("Hello from tmux");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said:");
    pane.wait_for_text("scripted/demo · idle");
    // The built-in script answers every prompt, not only the first.
    pane.type_text("And again");
    pane.keys(&["Enter"]);
    wait_until("the second answer", || {
        pane.screen().matches("You said:").count() == 2
    });
    quit(&pane);
    pane.assert_restored();
    let m = messages(&env);
    assert_eq!(m[0], (smith::Role::User, "Hello from tmux".into()));
    assert!(m[1].1.contains("You said: Hello from tmux"), "{m:?}");
    assert_eq!(m[2], (smith::Role::User, "And again".into()));
    assert!(m[3].1.contains("You said: And again"), "{m:?}");
}

/// A script whose first answer waits at gate `hold` in `env`'s root.
fn gated(env: &Env) -> std::path::PathBuf {
    env.write(
        "gated.kdl",
        "round {\n  text \"first part \"\n  gate \"hold\"\n  text \"rest of the answer\"\n  stop \"end_turn\"\n}\nround {\n  text \"second answer\"\n  stop \"end_turn\"\n}\nround {\n  text \"third answer\"\n  stop \"end_turn\"\n}\n",
    )
}

/// The UI on [`gated`]'s script, its first prompt (`start`) sent and the answer held at the
/// gate.
fn start_held(env: &Env) -> Pane {
    let script = gated(env);
    let pane = Pane::start(
        env,
        &[
            "--model",
            "scripted/gated",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("scripted/gated · idle");
    pane.type_text("start");
    pane.keys(&["Enter"]);
    wait_for(&env.root.path().join("hold.waiting"));
    pane
}

/// The texts of the session's user messages, in order.
fn user_texts(env: &Env) -> Vec<String> {
    messages(env)
        .into_iter()
        .filter(|(r, _)| *r == smith::Role::User)
        .map(|(_, t)| t)
        .collect()
}

#[test]
fn typing_goes_on_while_a_stream_is_held_and_queued_input_is_delivered() {
    let env = Env::new();
    let pane = start_held(&env);
    pane.wait_for_text("first part");
    // The stream is held: the draft still takes every key, and shows it.
    pane.type_text("typed while streaming");
    pane.wait_for_text("› typed while streaming");
    pane.keys(&["C-u"]);
    // A steer and a follow-up, both shown queued.
    pane.type_text("steer this way");
    pane.keys(&["C-s"]);
    pane.wait_for_text("↳ steer: steer this way");
    pane.type_text("and then this");
    pane.keys(&["Enter"]);
    pane.wait_for_text("↳ follow-up: and then this");
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    pane.wait_for_text("second answer");
    wait_until("the queue emptying on screen", || {
        !pane.screen().contains("↳")
    });
    quit(&pane);
    let users = user_texts(&env);
    assert_eq!(users, ["start", "steer this way", "and then this"]);
}

#[test]
fn queued_input_can_be_taken_back() {
    let env = Env::new();
    let pane = start_held(&env);
    pane.type_text("never mind");
    pane.keys(&["Enter"]);
    pane.wait_for_text("↳ follow-up: never mind");
    pane.keys(&["M-Up"]);
    wait_until("the queued line leaving", || {
        !pane.screen().contains("↳ follow-up")
    });
    pane.wait_for_text("› never mind");
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    pane.wait_for_text("rest of the answer");
    pane.wait_for_text("· idle");
    pane.keys(&["C-u"]);
    quit(&pane);
    let k = kinds(&env);
    assert!(k.contains(&"withdrawal"), "{k:?}");
    let users = user_texts(&env);
    assert_eq!(users, ["start"], "withdrawn input is never delivered");
}

#[test]
fn a_two_thousand_line_paste_arrives_as_one_message() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    let paste: String = (1..=2000).map(|i| format!("line {i}\n")).collect();
    pane.type_text("summarize: ");
    pane.paste(&paste);
    pane.wait_for_text("[paste 1: 2000 lines,");
    pane.keys(&["Enter"]);
    wait_until("the answer, echoing the paste, ending", || {
        let s = pane.screen();
        s.contains("line 2000") && s.contains("· idle") && !s.contains("[paste 1")
    });
    // Scrolled to its start, the message stays short: its first lines, then a count.
    pane.keys(&["C-Home"]);
    pane.wait_for_text("› summarize: line 1\n");
    let screen = pane.screen();
    let rows: Vec<&str> = screen.lines().collect();
    let at = rows
        .iter()
        .position(|r| r.starts_with("› summarize: line 1"))
        .unwrap();
    assert_eq!(rows[at + 9].trim_end(), "  line 10", "{screen}");
    assert!(rows[at + 10].contains("⋯ 1990 more lines"), "{screen}");
    pane.keys(&["C-End"]);
    quit(&pane);
    let users = user_texts(&env);
    assert_eq!(users.len(), 1, "one message");
    assert_eq!(
        users[0].trim_end(),
        format!("summarize: {}", paste.trim_end())
    );
    assert_eq!(users[0].lines().count(), 2000);
    assert!(users[0].contains("line 2000"));
}

#[test]
fn esc_aborts_the_running_work_and_the_session_records_it() {
    let env = Env::new();
    // Two tool calls run and are answered; the next answer is held at a gate, where Esc
    // aborts it.
    let script = env.write(
        "tools.kdl",
        "round {\n  text \"Looking.\"\n  tool-call id=\"c1\" name=\"ls\" arguments=#\"{}\"#\n  tool-call id=\"c2\" name=\"ls\" arguments=#\"{}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"first part \"\n  gate \"hold\"\n  text \"never shown\"\n  stop \"end_turn\"\n}\n",
    );
    let pane = Pane::start(
        &env,
        &[
            "--model",
            "scripted/tools",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("scripted/tools · idle");
    pane.type_text("start");
    pane.keys(&["Enter"]);
    wait_for(&env.root.path().join("hold.waiting"));
    pane.wait_for_text("first part");
    pane.type_text("draft");
    pane.escape_until_gone("› draft");
    pane.keys(&["Escape"]);
    pane.wait_for_text("· idle");
    let live = pane.screen();
    assert!(!live.contains("never shown"));
    // The abort is said after the answer it stopped...
    let order = |screen: &str| {
        let answer = screen.find("first part").expect("the answer");
        let abort = screen.find("abort requested").expect("the abort notice");
        assert!(answer < abort, "{screen}");
    };
    order(&live);
    quit(&pane);
    // ...and a resumed transcript shows it where the live one did.
    let id = session_file(&env)
        .unwrap()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let pane = Pane::start(&env, &["--session", &id], &[]);
    pane.wait_for_text("abort requested");
    let resumed = pane.screen();
    order(&resumed);
    assert_eq!(resumed.matches("abort requested").count(), 1, "{resumed}");
    quit(&pane);
    let read = read_session(&session_file(&env).unwrap()).unwrap();
    let k: Vec<_> = read.entries.iter().map(|e| e.record.kind_name()).collect();
    assert!(k.contains(&"abort"), "{k:?}");
    let end = read
        .entries
        .iter()
        .find_map(|e| match &e.record {
            Record::RunEnd(end) => Some(end.stop_reason),
            _ => None,
        })
        .expect("a run_end");
    assert_eq!(end, smith::StopReason::Aborted);
    // Every tool call the session holds has its result.
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for e in &read.entries {
        match &e.record {
            Record::Message(m) => calls.extend(m.message.content.iter().filter_map(|b| match b {
                smith::ContentBlock::ToolCall(c) => Some(c.id.clone()),
                _ => None,
            })),
            Record::ToolResult(r) => results.push(r.result.call_id.clone()),
            _ => {}
        }
    }
    assert_eq!(calls, ["c1", "c2"]);
    assert_eq!(results, calls, "tool calls and results are paired");
}

#[test]
fn a_session_another_process_writes_opens_read_only_and_follows_it() {
    let env = Env::new();
    let script = gated(&env);
    let (mut writer, _lines) =
        env.spawn_script_json("scripted/gated", &script, "written elsewhere");
    wait_for(&env.root.path().join("hold.waiting"));
    let file = session_file(&env).unwrap();
    let id = file.file_stem().unwrap().to_str().unwrap().to_owned();
    let pane = Pane::start(&env, &["--session", &id[..13]], &[]);
    pane.wait_for_text("read-only · written by");
    pane.wait_for_text(&format!("written by pid {}", writer.id()));
    pane.wait_for_text("(eval, since");
    pane.wait_for_text("› written elsewhere");
    pane.type_text("can I?");
    pane.keys(&["Enter"]);
    pane.wait_for_text("writes this session, so submission is");
    // Follow-live: what the writer streams shows while it streams (the answer is held at
    // the gate, uncommitted), and the committed answer takes its place, shown once.
    pane.wait_for_text("first part");
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    assert!(writer.wait().unwrap().success());
    pane.wait_for_text("rest of the answer");
    pane.wait_for_text("its writer closed the session");
    let screen = pane.screen();
    assert_eq!(screen.matches("first part").count(), 1, "{screen}");
    let left: Vec<_> = std::fs::read_dir(env.sessions())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".live"))
        .collect();
    assert!(left.is_empty(), "the writer left its live file: {left:?}");
    pane.keys(&["C-u"]);
    quit(&pane);
    pane.assert_restored();
    let users = user_texts(&env);
    assert_eq!(users, ["written elsewhere"], "the observer wrote nothing");
}

#[test]
fn smith_replay_tui_shows_the_recorded_run_read_only_and_writes_nothing() {
    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "hello\n").unwrap();
    let out = env.run(&["eval", "-m", "scripted/tool-call", "read it"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let file = session_file(&env).unwrap();
    let before = std::fs::read(&file).unwrap();
    let pane = Pane::start(&env, &["replay", "--tui", "--speed", "1000"], &[]);
    pane.wait_for_text("replay · read-only");
    pane.wait_for_text("› read it");
    pane.wait_for_text("I have read the README");
    pane.wait_for_text("replay ended: 1 turn(s)");
    pane.type_text("more?");
    pane.keys(&["Enter"]);
    pane.wait_for_text("a replay only shows what was recorded");
    pane.keys(&["C-u"]);
    quit(&pane);
    pane.assert_restored();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "a replay writes nothing"
    );
    // Without a terminal, --tui is refused with the way to a plain replay.
    let out = env.run(&["replay", "--tui"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("--tui needs a terminal"));
}

#[test]
fn without_a_terminal_smith_exits_2_and_points_to_eval() {
    let env = Env::new();
    let out = env.run(&["--model", "scripted/demo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(
        err.contains("needs a terminal") && err.contains("smith eval"),
        "{err}"
    );
    assert!(env.session_files().is_empty(), "nothing was written");
}

#[test]
fn ctrl_g_edits_the_draft_in_the_editor_through_a_private_file() {
    let env = Env::new();
    // The "editor" records the draft file's name and mode, then appends a line as vi would
    // (ending the file with a newline).
    let editor = env.root.path().join("editor.sh");
    let seen = env.root.path().join("editor.seen");
    std::fs::write(
        &editor,
        format!(
            "#!/bin/sh\nstat -c '%a %n' \"$1\" > '{}'\nprintf 'second line\\n' >> \"$1\"\n",
            seen.display()
        ),
    )
    .unwrap();
    let visual = format!("sh {}", editor.display());
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[("VISUAL", &visual)]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("first line");
    pane.keys(&["C-j"]);
    pane.keys(&["C-g"]);
    pane.wait_for_text("second line");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said:");
    quit(&pane);
    pane.assert_restored();
    let seen = std::fs::read_to_string(&seen).expect("the editor ran");
    let (mode, path) = seen.trim().split_once(' ').unwrap();
    assert_eq!(mode, "600", "only the user can read the draft: {seen}");
    let name = std::path::Path::new(path)
        .file_name()
        .unwrap()
        .to_string_lossy();
    assert!(
        name.starts_with("smith-draft-") && name.ends_with(".md"),
        "{name}"
    );
    assert!(
        !std::path::Path::new(path).exists(),
        "the draft file is removed"
    );
    assert_eq!(
        messages(&env)[0],
        (smith::Role::User, "first line\nsecond line".into()),
        "the draft as edited, without the editor's final newline"
    );
}

#[test]
fn opening_and_quitting_leaves_no_session_and_continue_resumes_the_last_conversation() {
    let env = Env::new();
    let out = env.run(&["eval", "--model", "scripted/demo", "the real one"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    quit(&pane);
    pane.assert_restored();
    assert_eq!(
        env.session_files().len(),
        1,
        "the session opened and left without a prompt is gone: {:?}",
        env.session_files()
    );
    let pane = Pane::start(&env, &["--continue"], &[]);
    pane.wait_for_text("› the real one");
    pane.wait_for_text("scripted/demo · idle");
    // The status line has what the resumed conversation cost (the scripted model is free).
    pane.wait_for_text("$0.0000");
    // The resumed session's prompts are Up's history.
    let before = pane.screen().matches("the real one").count();
    pane.keys(&["Up"]);
    wait_until("the earlier prompt in the draft", || {
        pane.screen().matches("the real one").count() > before
    });
    pane.keys(&["C-u"]);
    quit(&pane);
    assert_eq!(env.session_files().len(), 1, "a resumed session stays");
}

#[test]
fn an_unknown_model_is_refused_before_the_terminal_is_taken() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "nope/none"], &[]);
    assert_eq!(pane.exit_status(), 2);
    pane.wait_for_text("unknown provider `nope`");
    pane.assert_restored();
    assert!(env.session_files().is_empty(), "no session was created");
}

#[test]
fn slash_compact_compacts_the_idle_session_and_shows_the_marker() {
    let env = Env::new();
    let pane = Pane::start(
        &env,
        &[
            "--model",
            "scripted/demo",
            "-c",
            "compaction.keep-tokens=10",
        ],
        &[],
    );
    pane.wait_for_text("scripted/demo · idle");
    for prompt in ["one", "two", "three"] {
        pane.type_text(prompt);
        pane.keys(&["Enter"]);
        pane.wait_for_text(&format!("You said: {prompt}"));
        pane.wait_for_text("scripted/demo · idle");
    }
    pane.type_text("/compact the questions");
    pane.keys(&["Enter"]);
    pane.wait_for_text("context compacted");
    pane.wait_for_text("scripted/demo · idle");
    // The command is not a prompt: nothing was sent to the model as one.
    assert!(
        !messages(&env)
            .iter()
            .any(|(_, text)| text.starts_with("/compact")),
        "{:?}",
        messages(&env)
    );
    assert!(kinds(&env).contains(&"compaction"), "{:?}", kinds(&env));
    // The next turn goes on from the summary.
    pane.type_text("four");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said: four");
    quit(&pane);
    pane.assert_restored();
}

/// One session runner behind every frontend: a tool-using turn sent from the terminal UI
/// records the same entries (kinds, in order, from its submission on) as the same turn
/// through `smith eval` (and, in the JSON-RPC tests, through `smith rpc` and `smith mcp`).
#[test]
fn a_turn_from_the_ui_records_what_the_same_turn_through_eval_records() {
    let from_submission = |kinds: Vec<&'static str>| -> Vec<&'static str> {
        let at = kinds
            .iter()
            .position(|k| *k == "submission")
            .expect("a submission");
        kinds[at..].to_vec()
    };
    let eval = Env::new();
    std::fs::write(eval.root.path().join("README.md"), "# readme\n").unwrap();
    let out = eval.run(&["eval", "-m", "scripted/tool-call", "read the readme"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let expected = from_submission(kinds(&eval));

    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "# readme\n").unwrap();
    let pane = Pane::start(&env, &["--model", "scripted/tool-call"], &[]);
    pane.wait_for_text("scripted/tool-call · idle");
    pane.type_text("read the readme");
    pane.keys(&["Enter"]);
    wait_until("the turn's end", || kinds(&env).last() == Some(&"run_end"));
    pane.wait_for_text("scripted/tool-call · idle");
    quit(&pane);
    assert_eq!(from_submission(kinds(&env)), expected);
}

#[test]
fn ctrl_c_interrupts_running_work_first_and_ctrl_z_stops_with_the_terminal_restored() {
    let env = Env::new();
    let pane = start_held(&env);
    pane.wait_for_text("first part");
    pane.type_text("my next message");
    pane.wait_for_text("› my next message");
    // Running work: Ctrl+C interrupts it (recorded) and keeps the draft; it does not arm
    // leaving.
    pane.keys(&["C-c"]);
    pane.wait_for_text("scripted/gated · idle");
    assert!(
        pane.screen().contains("› my next message"),
        "{}",
        pane.screen()
    );
    assert!(kinds(&env).contains(&"abort"), "{:?}", kinds(&env));
    assert!(
        !pane.screen().contains("press Ctrl+C again to leave"),
        "{}",
        pane.screen()
    );

    // Ctrl+Z stops smith with the terminal given back (the alternate screen left: the
    // pane's shell says it stopped), and continuing it (`fg`) draws the UI again, draft and
    // all.
    let pid = pane.smith_pid();
    let state = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // The state follows the command, which is in parentheses.
        stat.rsplit_once(") ").unwrap().1.chars().next().unwrap()
    };
    pane.keys(&["C-z"]);
    wait_until("smith stopped", || state() == 'T');
    pane.wait_for_text("stopped");
    assert!(
        !pane.screen().contains("› my next message"),
        "{}",
        pane.screen()
    );
    pane.keys(&["Enter"]);
    wait_until("smith running again", || state() != 'T');
    pane.wait_for_text("scripted/gated · idle");
    pane.wait_for_text("› my next message");
    pane.keys(&["C-u"]);
    quit(&pane);
    pane.assert_restored();
}

#[test]
fn the_status_line_shows_the_context_the_last_answer_reported_of_the_models_window() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"scripted/metered\" {\n    context 10000\n    tools #true\n}\n",
    )
    .unwrap();
    let script = env.write(
        "metered.kdl",
        "round {\n  text \"counted\"\n  usage input=900 cache-read=100 output=50\n  stop \"end_turn\"\n}\n",
    );
    let pane = Pane::start(
        &env,
        &[
            "--model",
            "scripted/metered",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("scripted/metered · idle");
    assert!(!pane.screen().contains("ctx "), "{}", pane.screen());
    pane.type_text("count");
    pane.keys(&["Enter"]);
    pane.wait_for_text("counted");
    // 900 + 100 + 50 of 10,000 tokens.
    pane.wait_for_text("ctx 10%");
    quit(&pane);
}

#[test]
fn input_queued_before_an_abort_comes_back_to_the_draft_not_stranded() {
    let env = Env::new();
    let pane = start_held(&env);
    pane.wait_for_text("first part");
    pane.type_text("and then this");
    pane.keys(&["Enter"]);
    pane.wait_for_text("↳ follow-up: and then this");
    // Esc on the empty draft aborts: the follow-up would otherwise wait behind whatever is
    // sent next. It is back in the draft, and no longer queued.
    pane.keys(&["Escape"]);
    pane.wait_for_text("back in the draft");
    pane.wait_for_text("› and then this");
    wait_until("the queue emptying on screen", || {
        let screen = pane.screen();
        !screen.contains("↳") && !screen.contains("· 1 queued")
    });
    assert!(kinds(&env).contains(&"withdrawal"), "{:?}", kinds(&env));
    // Sent now, it is what runs next.
    pane.keys(&["Enter"]);
    pane.wait_for_text("second answer");
    pane.keys(&["C-u"]);
    quit(&pane);
    assert_eq!(user_texts(&env), ["start", "and then this"]);
}
