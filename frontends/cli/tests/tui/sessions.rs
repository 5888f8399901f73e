//! The interactive session commands in a real terminal: the resume picker choosing one session
//! among fifty, editing an earlier message into a new branch (the request a loopback server
//! receives carries the edited text, not the old one), undo putting back a file a tool wrote,
//! and an observer exporting and forking a session it cannot write.

use smith_ai::loopback;
use smith_store::{Record, read_session};
use smith_testkit::{wait_for, wait_until};

use crate::common::{Env, stderr};
use crate::pane::Pane;
use crate::{gated, quit};

/// The user messages of the session file `path`, in entry order.
fn users_of(path: &std::path::Path) -> Vec<String> {
    read_users(path).unwrap()
}

/// The user messages of the session at `path`, or why it could not be read (a frame being
/// written by a live writer, for one).
fn read_users(path: &std::path::Path) -> Result<Vec<String>, smith_store::Error> {
    Ok(read_session(path)?
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Message(m) if m.message.role == smith::Role::User => Some(m.message.text()),
            _ => None,
        })
        .collect())
}

#[test]
fn the_resume_picker_opens_the_session_chosen_among_fifty() {
    let env = Env::new();
    for n in 1..=50 {
        let out = env.run(&[
            "eval",
            "-m",
            "scripted/demo",
            &format!("topic {n:02} notes"),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    // Another directory's session is not offered until Tab asks for every directory's.
    let elsewhere = env.root.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let out = env
        .command(&["eval", "-m", "scripted/demo", "far away topic"])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/resume");
    pane.keys(&["Enter"]);
    pane.wait_for_text("Sessions of this directory");
    // Fifty of this directory, streamed in; the empty session open here is not offered.
    pane.wait_for_text(" 50 of 50");
    let screen = pane.screen();
    assert!(!screen.contains("far away topic"), "{screen}");
    assert!(!screen.contains("nothing sent yet"), "{screen}");
    // A query keeps only the rows holding it.
    pane.type_text("topic 37");
    pane.wait_for_text(" 1 of 50");
    pane.wait_for_text("topic 37 notes");
    pane.keys(&["Enter"]);
    // The chosen session is open: its transcript, and its id in the status line.
    pane.wait_for_text("› topic 37 notes");
    pane.wait_for_text("You said: topic");
    let chosen = env
        .session_files()
        .into_iter()
        .find(|p| users_of(p).first().is_some_and(|u| u == "topic 37 notes"))
        .unwrap();
    let id = chosen.file_stem().unwrap().to_str().unwrap().to_owned();
    pane.wait_for_text(&id[..13]);
    // Sending continues that session.
    pane.type_text("and more");
    pane.keys(&["Enter"]);
    pane.wait_for_text("› and more");
    wait_until("the answer to it", || {
        pane.screen().matches("You said:").count() == 2
    });
    // Tab lists every directory's sessions.
    pane.type_text("/sessions");
    pane.keys(&["Enter"]);
    pane.wait_for_text("Sessions of this directory");
    pane.keys(&["Tab"]);
    pane.wait_for_text("Sessions of every directory");
    pane.wait_for_text("far away topic");
    pane.escape_until_gone("Sessions of every");
    quit(&pane);
    pane.assert_restored();
    assert_eq!(users_of(&chosen), ["topic 37 notes", "and more"]);
}

const ANSWER: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Answer from the loopback model\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

#[test]
fn editing_an_earlier_message_forks_a_branch_whose_request_carries_the_edit() {
    let env = Env::new();
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(ANSWER.as_bytes(), 16),
        loopback::sse_in_pieces(ANSWER.as_bytes(), 16),
        loopback::sse_in_pieces(ANSWER.as_bytes(), 16),
    ]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let pane = Pane::start(&env, &["-c", &base, "--model", "openai-compatible/m"], &[]);
    pane.wait_for_text("openai-compatible/m · idle");
    pane.type_text("first question");
    pane.keys(&["Enter"]);
    pane.wait_for_text("Answer from the loopback model");
    let first = server.request_json().expect("the first request");
    assert!(first.to_string().contains("first question"));
    // Sent once the run has ended, the second message starts a turn of its own (sent while
    // the run still ends, it is delivered within the first turn as a follow-up, and the
    // tree holds one message).
    pane.wait_for_text("openai-compatible/m · idle");
    pane.type_text("a follow-up");
    pane.keys(&["Enter"]);
    wait_until("the second answer", || {
        pane.screen().matches("Answer from the loopback").count() == 2
    });
    // The picker shows the tree as recorded when it opens: the run must have ended (its
    // answer can be on screen a moment before, under load).
    pane.wait_for_text("openai-compatible/m · idle");
    server.request_json().expect("the second request");
    // The branches: the first message, Ctrl+E puts it in the draft to edit.
    pane.type_text("/branches");
    pane.keys(&["Enter"]);
    pane.wait_for_text("2 of 2");
    pane.keys(&["Up"]);
    pane.keys(&["C-e"]);
    pane.wait_for_text("editing entry");
    pane.wait_for_text("› first question");
    pane.keys(&["C-u"]);
    pane.type_text("the edited question");
    pane.keys(&["Enter"]);
    let sent = server.request_json().expect("the edited branch's request");
    let text = sent["messages"].to_string();
    assert!(text.contains("the edited question"), "{text}");
    assert!(
        !text.contains("first question") && !text.contains("a follow-up"),
        "the new branch starts before the edited message: {text}"
    );
    pane.wait_for_text("a new branch from entry");
    wait_until("the edited branch's answer", || {
        pane.screen().contains("Answer from the loopback model")
            && !pane.screen().contains("a follow-up")
    });
    pane.wait_for_text("openai-compatible/m · idle");
    // Both branches are in the tree; the old one is one step away.
    pane.type_text("/branches");
    pane.keys(&["Enter"]);
    pane.wait_for_text("3 of 3");
    pane.wait_for_text("└ the edited question");
    pane.keys(&["Home", "Down"]);
    pane.keys(&["Enter"]);
    pane.wait_for_text("continuing the branch that ends at entry");
    pane.wait_for_text("› a follow-up");
    quit(&pane);
    pane.assert_restored();
    let file = env.session_files().remove(0);
    let read = read_session(&file).unwrap();
    let kinds: Vec<_> = read.entries.iter().map(|e| e.record.kind_name()).collect();
    assert_eq!(
        users_of(&file),
        ["first question", "a follow-up", "the edited question"]
    );
    // The edited message went onto the branch before the first one, explicitly.
    let edited = read
        .entries
        .iter()
        .find_map(|e| match &e.record {
            Record::Submission(s) if s.input == "the edited question" => Some(s.clone()),
            _ => None,
        })
        .expect("the edited submission");
    assert!(edited.explicit_destination, "{kinds:?}");
    let first_sub = read
        .entries
        .iter()
        .find_map(|e| match &e.record {
            Record::Submission(s) if s.input == "first question" => Some(s.destination),
            _ => None,
        })
        .unwrap();
    assert_eq!(edited.destination, first_sub);
    // Switching back was recorded: the selected leaf is on the first branch again.
    let leaf = read.state.leaf_id().unwrap();
    let branch = smith_store::SessionReader::open(&file)
        .unwrap()
        .branch(leaf, 100)
        .unwrap();
    assert!(branch.iter().any(|e| matches!(&e.record,
        Record::Message(m) if m.message.text() == "a follow-up")));
}

#[test]
fn undo_in_the_ui_puts_back_a_file_a_tool_changed() {
    let env = Env::new();
    let file = env.root.path().join("notes.txt");
    std::fs::write(&file, "hello\nworld\n").unwrap();
    // The panes' own files (the terminal's log) change while the UI runs: not the project's.
    std::fs::write(env.root.path().join(".ignore"), "pane*/\ntmp/\n").unwrap();
    let script = env.write(
        "edit.kdl",
        r##"round {
  tool-call id="c1" name="edit" arguments=#"{"path": "notes.txt", "edits": [{"old_text": "world", "new_text": "there"}]}"#
  stop "tool_use"
}
round {
  text "edited"
  stop "end_turn"
}
"##,
    );
    let pane = Pane::start(
        &env,
        &[
            "--model",
            "scripted/edit",
            "--script",
            script.to_str().unwrap(),
        ],
        &[],
    );
    pane.wait_for_text("scripted/edit · idle");
    pane.type_text("change it");
    pane.keys(&["Enter"]);
    pane.wait_for_text("edited");
    wait_until("the tool's change", || {
        std::fs::read_to_string(&file).unwrap() == "hello\nthere\n"
    });
    pane.wait_for_text("scripted/edit · idle");
    pane.type_text("/diff");
    pane.keys(&["Enter"]);
    // The transcript already shows the edit's `+there`: wait for the diff pane itself (it is
    // computed on a worker), or the Esc could arrive before it opens and close nothing.
    pane.wait_for_text("Esc closes");
    pane.wait_for_text("notes.txt | 2 +-");
    pane.escape_until_gone("Esc closes");
    pane.type_text("/undo");
    pane.keys(&["Enter"]);
    pane.wait_for_text("undid the change to notes.txt (turn 1)");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nworld\n");
    pane.type_text("/redo");
    pane.keys(&["Enter"]);
    pane.wait_for_text("redid the change to notes.txt (turn 1)");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nthere\n");
    let screen = pane.screen();
    assert_eq!(screen.matches("undid the change").count(), 1, "{screen}");
    quit(&pane);
    pane.assert_restored();
    // Resumed, the transcript says what the live one said, in the same words.
    let id = env.session_files()[0]
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let pane = Pane::start(&env, &["--session", &id], &[]);
    pane.wait_for_text("undid the change to notes.txt (turn 1)");
    pane.wait_for_text("redid the change to notes.txt (turn 1)");
    let screen = pane.screen();
    assert_eq!(screen.matches("undid the change").count(), 1, "{screen}");
    quit(&pane);
    pane.assert_restored();
    let kinds = smith_testkit::kinds(&env.session_files().remove(0));
    // The tool batch's snapshot pair, the undo and the redo: each a `vcs` record.
    assert!(
        kinds.iter().filter(|k| **k == "vcs").count() >= 3,
        "{kinds:?}"
    );
}

#[test]
fn an_observer_exports_and_forks_the_session_but_cannot_submit() {
    let env = Env::new();
    let script = gated(&env);
    let (mut writer, _lines) =
        env.spawn_script_json("scripted/gated", &script, "written elsewhere");
    wait_for(&env.root.path().join("hold.waiting"));
    let source = env.session_files().remove(0);
    let id = source.file_stem().unwrap().to_str().unwrap().to_owned();
    // The model is for the fork: the observed session runs nothing here.
    let pane = Pane::start(
        &env,
        &["--session", &id[..13], "--model", "scripted/demo"],
        &[],
    );
    pane.wait_for_text("read-only · written by");
    pane.wait_for_text("› written elsewhere");
    pane.type_text("can I?");
    pane.keys(&["Enter"]);
    pane.wait_for_text("writes this session, so submission is");
    pane.keys(&["C-u"]);
    // Export: JSONL records of the session, in the working directory.
    pane.type_text("/export observed.jsonl");
    pane.keys(&["Enter"]);
    pane.wait_for_text("exported");
    let exported = std::fs::read_to_string(env.root.path().join("observed.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = exported
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(records.iter().all(|r| r["type"] == "entry"), "{exported}");
    assert!(exported.contains("written elsewhere"), "{exported}");
    // An export never replaces a file.
    pane.type_text("/export observed.jsonl");
    pane.keys(&["Enter"]);
    pane.wait_for_text("an export never replaces a file");
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("observed.jsonl")).unwrap(),
        exported
    );
    // Undo would write the source: refused here.
    pane.type_text("/undo");
    pane.keys(&["Enter"]);
    pane.wait_for_text("read-only: undo changes the session");
    // An explicit fork: a new writable session holding what was committed.
    pane.type_text("/fork");
    pane.keys(&["Enter"]);
    pane.wait_for_text("forked from session");
    wait_until("the read-only banner to go", || {
        !pane.screen().contains("read-only · written by")
    });
    // The fork's view is ready to submit (its work thread answered), not still opening:
    // Enter before then is refused with a hint, and the draft would wait for another Enter.
    pane.wait_for_text(" · idle");
    pane.type_text("continue in the fork");
    pane.keys(&["Enter"]);
    pane.wait_for_text("› continue in the fork");
    // The fork has both messages once the submission is admitted (quitting at once could
    // interrupt it before then, which is no loss: it was never acknowledged).
    let fork = env
        .session_files()
        .into_iter()
        .find(|p| *p != source)
        .expect("the fork's file");
    let mut users = Vec::new();
    wait_until("the fork to hold the new message", || {
        // Sent while the fork's history was still being read, it is refused with a hint and
        // kept in the draft: sent again, as the hint says.
        if pane.screen().contains("send again in a moment") {
            pane.keys(&["Enter"]);
        }
        // Read while its writer appends: a read that meets a frame being written is retried.
        let Ok(read) = read_users(&fork) else {
            return false;
        };
        users = read;
        users.iter().any(|u| u == "continue in the fork")
    });
    assert_eq!(users.first().map(String::as_str), Some("written elsewhere"));
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    assert!(writer.wait().unwrap().success());
    quit(&pane);
    pane.assert_restored();
    // The source has only its writer's message.
    assert_eq!(users_of(&source), ["written elsewhere"]);
}

#[test]
fn a_replay_plays_in_the_view_and_esc_goes_back_to_the_session() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("remember this");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said:");
    pane.wait_for_text("scripted/demo · idle");
    let file = env.session_files().remove(0);
    pane.type_text("/replay");
    pane.keys(&["Enter"]);
    pane.wait_for_text("replay · read-only");
    // The session was closed for the replay (its writer's last frame written by now).
    let before = std::fs::read(&file).unwrap();
    pane.wait_for_text("replay ended: 1 turn(s)");
    pane.type_text("more?");
    pane.keys(&["Enter"]);
    pane.wait_for_text("a replay only shows what was recorded");
    pane.keys(&["C-u"]);
    // The replay wrote nothing; Esc (nothing else to close) goes back to the session.
    assert!(
        std::fs::read(&file).unwrap() == before,
        "the replay changed the session file"
    );
    pane.keys(&["Escape"]);
    pane.wait_for_text("scripted/demo · idle");
    wait_until("the replay banner to go", || {
        !pane.screen().contains("replay · read-only")
    });
    pane.type_text("after the replay");
    pane.keys(&["Enter"]);
    pane.wait_for_text("› after the replay");
    wait_until("its answer", || {
        pane.screen().matches("You said:").count() == 2
    });
    quit(&pane);
    pane.assert_restored();
    assert_eq!(users_of(&file), ["remember this", "after the replay"]);
}

#[test]
fn a_plugin_disabled_in_the_ui_is_out_of_the_next_request() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("first");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said:");
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/plugins");
    pane.keys(&["Enter"]);
    pane.wait_for_text("grants docs.read");
    pane.type_text("docs");
    pane.keys(&["Enter"]);
    pane.wait_for_text("plugin docs disabled for the following runs");
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("second");
    pane.keys(&["Enter"]);
    wait_until("the second answer", || {
        pane.screen().matches("You said:").count() == 2
    });
    quit(&pane);
    pane.assert_restored();
    let id = env.session_files()[0]
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let out = env.run(&["sessions", "get", &id]);
    let tools: Vec<String> = crate::common::stdout(&out)
        .lines()
        .filter(|l| l.contains("request_input tools:"))
        .map(str::to_owned)
        .collect();
    assert_eq!(tools.len(), 2, "{tools:?}");
    assert!(tools[0].contains("docs"), "{tools:?}");
    assert!(!tools[1].contains("docs"), "{tools:?}");
    // The configuration is unchanged: a new process has it again.
    let out = env.run(&["plugins", "list"]);
    assert!(
        crate::common::stdout(&out).contains("docs"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_new_session_says_where_it_is_and_leaving_says_how_to_come_back() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    let screen = pane.wait_for_screen("the welcome", |s| s.contains("quits"));
    let root = env.root.path().display().to_string();
    assert!(
        screen.contains(&format!("smith {} in", env!("CARGO_PKG_VERSION")))
            && screen.contains(&root[..root.len().min(40)])
            && screen.contains(
                "model scripted/demo · permission mode auto-edit · sandbox workspace-write"
            )
            && screen.contains("/ opens the commands")
            && screen.contains("Alt+R searches your prompts"),
        "{screen}"
    );
    // Left with nothing said, the new session is not kept: nothing to come back to.
    crate::quit(&pane);
    let after = pane.wait_for_screen("the shell after smith", |s| s.contains("after"));
    assert!(!after.contains("resume this session"), "{after}");

    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.wait_for_text("quits");
    pane.type_text("hi");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said: hi");
    let screen = pane.wait_for_screen("the turn ended", |s| s.contains("scripted/demo · idle"));
    assert!(
        !screen.contains("/ opens the commands"),
        "the welcome stays only while empty: {screen}"
    );
    // Left from a replay of it, the session it was opened from is the one to come back to.
    pane.type_text("/replay");
    pane.keys(&["Enter"]);
    pane.wait_for_text("replay · read-only");
    crate::quit(&pane);
    let id = crate::session_file(&env)
        .unwrap()
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    pane.wait_for_text(&format!(
        "smith: resume this session with: smith --session {id}"
    ));
}
