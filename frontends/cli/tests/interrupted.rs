//! Interrupted work continues (spec: Work and recovery — continuation uses recorded state and
//! resolved prerequisites, never re-executes effects): a turn SIGKILLed at a gate — inside a
//! tool call, between rounds, while streaming — is held as interrupted when the session is
//! opened again; `smith eval --session ID` with no prompt continues it to the state an
//! uninterrupted run reaches, with no recorded effect run again (the effect records on disk,
//! the file the tool wrote, and the rounds the script — the model's server — had to play); a
//! missing plugin blocks the continuation with a diagnostic naming it; new input settles the
//! turn as aborted; a second process is told the session is being written.

mod common;

use std::path::Path;

use common::{Env, stderr, stdout};
use smith_store::{Record, read_session};

/// `eval --session ID --json` with no prompt, playing `script`.
fn continued(env: &Env, session: &str, script: &Path) -> std::process::Output {
    env.run(&[
        "eval",
        "--json",
        "--session",
        session,
        "-m",
        "scripted/t",
        "--script",
        script.to_str().unwrap(),
    ])
}

/// The conversation a session file records on its selected branch, comparable across
/// sessions: each message's role, text and tool calls, each tool result's call and whether it
/// failed, and each work's end.
fn conversation(path: &Path) -> Vec<String> {
    read_session(path)
        .unwrap()
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::Message(m) => Some(format!(
                "{:?}: {} {:?}",
                m.message.role,
                m.message.text(),
                m.message
                    .tool_calls()
                    .map(|c| (&c.name, &c.arguments))
                    .collect::<Vec<_>>()
            )),
            Record::ToolResult(r) => Some(format!(
                "result {} error={}",
                r.result.call_id, r.result.is_error
            )),
            Record::RunEnd(end) => Some(format!("end {:?}", end.stop_reason)),
            _ => None,
        })
        .collect()
}

fn intents(path: &Path) -> Vec<smith::EffectIntent> {
    read_session(path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::EffectIntent(i) => Some(i),
            _ => None,
        })
        .collect()
}

fn records(out: &std::process::Output) -> Vec<serde_json::Value> {
    common::records(out)
}

const WRITE_ROUND: &str = "round {\n  text \"Writing it.\"\n  tool-call id=\"w1\" name=\"write\" arguments=#\"{\"path\": \"out.txt\", \"content\": \"written once\\n\"}\"#\n  stop \"tool_use\"\n}\n";
const ANSWER_ROUND: &str =
    "round {\n  text \"Done: out.txt holds the line.\"\n  stop \"end_turn\"\n}\n";

#[test]
fn a_turn_killed_between_rounds_continues_to_the_uninterrupted_state_without_writing_again() {
    let env = Env::new();
    // The uninterrupted run, for comparison.
    let whole = env.write("whole.kdl", &format!("{WRITE_ROUND}{ANSWER_ROUND}"));
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/t",
        "--script",
        whole.to_str().unwrap(),
        "do the job",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let uninterrupted = env.session_files()[0].clone();
    std::fs::remove_file(env.root.path().join("out.txt")).unwrap();

    // Killed when the second request's stream waits at its gate: the write is recorded.
    let gated = env.write(
        "gated.kdl",
        &format!(
            "{WRITE_ROUND}round {{\n  gate \"g\"\n  text \"never\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let (session, path) = env.killed_at(&gated, Some("g"), |_| true);
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "written once\n"
    );
    // The file changes under it: a write run again would put the line back.
    std::fs::write(env.root.path().join("out.txt"), "changed by hand\n").unwrap();

    // The model's server has only the round left to play: a request more would find none.
    let rest = env.write("rest.kdl", ANSWER_ROUND);
    let out = continued(&env, &session, &rest);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("was interrupted")
            && stderr(&out).contains("1 model response and 1 tool call answered"),
        "{}",
        stderr(&out)
    );
    let said = records(&out);
    let end = said.last().unwrap();
    assert_eq!(end["type"], "run_end", "{}", stdout(&out));
    assert_eq!(end["stop_reason"], "end_turn", "{}", stdout(&out));
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "changed by hand\n",
        "the recorded write ran again"
    );
    assert_eq!(
        intents(&path).len(),
        intents(&uninterrupted).len(),
        "the effects of the uninterrupted run, none repeated: {:?}",
        intents(&path)
    );
    assert_eq!(conversation(&path), conversation(&uninterrupted));
    // The checkpoint recorded what continuing needed.
    let checkpoint = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .find_map(|e| match e.record {
            Record::Checkpoint(c) => Some(c),
            _ => None,
        })
        .unwrap();
    assert_eq!(checkpoint.model.unwrap().to_string(), "scripted/t");
    assert!(checkpoint.tools.iter().any(|t| t == "write"));
    assert!(checkpoint.requires.iter().any(|p| p.starts_with("files@")));

    // Continued, the turn ended: nothing is left to continue, and no prompt is asked of
    // stdin silently — it is read, and an empty one refused.
    let again = continued(&env, &session, &rest);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("empty"), "{}", stderr(&again));
}

#[test]
fn a_turn_killed_inside_a_tool_call_answers_it_from_its_unknown_effect_and_goes_on() {
    let env = Env::new();
    let fifo = env.root.path().join("pipe");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    // The read blocks on the pipe: killed inside the effect.
    let script = env.write(
        "fifo.kdl",
        "round {\n  tool-call id=\"c1\" name=\"read\" arguments=#\"{\"path\": \"pipe\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"never\"\n  stop \"end_turn\"\n}\n",
    );
    let (session, path) = env.killed_at(&script, None, |entries| {
        entries
            .iter()
            .any(|e| matches!(e.record, Record::EffectIntent(_)))
    });
    // Were the read run again, it would wait on the pipe: the script has one round to play.
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"The read's outcome is unknown; I will not rely on it.\"\n  stop \"end_turn\"\n}\n",
    );
    let out = continued(&env, &session, &rest);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 call without a result")
            && stderr(&out).contains("1 effect of unknown outcome"),
        "{}",
        stderr(&out)
    );
    let calls = common::tool_ends(&out);
    let (failed, output) = common::outcome(&calls, "c1");
    assert!(failed, "{output}");
    assert!(
        output.contains("not run again") && output.contains("unknown"),
        "{output}"
    );
    assert_eq!(intents(&path).len(), 1, "the read was run again");
    let file = read_session(&path).unwrap();
    let results: Vec<_> = file
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some(r.result.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 1);
    assert!(results[0].output.contains("fs.read pipe"), "{results:?}");
    let ends: Vec<_> = file
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::RunEnd(end) => Some(end.stop_reason),
            _ => None,
        })
        .collect();
    assert_eq!(ends, vec![smith::StopReason::EndTurn]);
}

#[test]
fn a_turn_killed_while_streaming_sends_its_request_again() {
    let env = Env::new();
    let script = env.write(
        "stream.kdl",
        "round {\n  text \"half an ans\"\n  gate \"mid\"\n  text \"wer\"\n  stop \"end_turn\"\n}\n",
    );
    let (session, path) = env.killed_at(&script, Some("mid"), |_| true);
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"the whole answer\"\n  stop \"end_turn\"\n}\n",
    );
    let out = continued(&env, &session, &rest);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("0 model responses"),
        "{}",
        stderr(&out)
    );
    let conversation = conversation(&path);
    assert_eq!(
        conversation,
        vec![
            "User: do the job []".to_owned(),
            "Assistant: the whole answer []".to_owned(),
            "end EndTurn".to_owned(),
        ]
    );
    // The request sent again is the round's second attempt, not a second first one.
    let attempts: Vec<(u32, u32)> = read_session(&path)
        .unwrap()
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::Attempt(a) => Some((a.round, a.number)),
            _ => None,
        })
        .collect();
    assert_eq!(attempts, vec![(1, 1), (1, 2)]);
}

#[test]
fn a_missing_plugin_blocks_the_continuation_and_new_input_settles_the_turn() {
    let env = Env::new();
    let gated = env.write(
        "gated.kdl",
        &format!(
            "{WRITE_ROUND}round {{\n  gate \"g\"\n  text \"never\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let (session, path) = env.killed_at(&gated, Some("g"), |_| true);
    let rest = env.write("rest.kdl", ANSWER_ROUND);
    let session_arg = session.as_str();
    let blocked = env.run(&[
        "--disable-plugin",
        "files",
        "eval",
        "--session",
        session_arg,
        "-m",
        "scripted/t",
        "--script",
        rest.to_str().unwrap(),
    ]);
    assert_eq!(blocked.status.code(), Some(2), "{}", stderr(&blocked));
    let said = stderr(&blocked);
    assert!(
        said.contains("cannot be continued")
            && said.contains("plugin files@")
            && said.contains("tools read, write")
            && said.contains("settle"),
        "{said}"
    );
    let before = std::fs::read(&path).unwrap();
    let unchanged = |what: &str| {
        assert!(std::fs::read(&path).unwrap() == before, "{what} wrote");
    };
    // Another model than the turn's is refused too: nothing is rebound.
    let other = env.run(&["eval", "--session", session_arg, "-m", "scripted/demo"]);
    assert_eq!(other.status.code(), Some(2), "{}", stderr(&other));
    assert!(
        stderr(&other).contains("the turn runs with scripted/t"),
        "{}",
        stderr(&other)
    );
    unchanged("the refusal of --model");
    // So is one this invocation's configuration names: not rebound to the recorded one.
    let named = env.run(&[
        "eval",
        "--session",
        session_arg,
        "-c",
        "model=scripted/demo",
    ]);
    assert_eq!(named.status.code(), Some(2), "{}", stderr(&named));
    assert!(
        stderr(&named).contains("the turn runs with scripted/t"),
        "{}",
        stderr(&named)
    );
    unchanged("the refusal of -c model");
    // A context edit refused by its checks leaves the turn as it was.
    let edit = env.run(&["sessions", "edit", session_arg, "--omit", "9999"]);
    assert!(!edit.status.success(), "{}", stderr(&edit));
    assert!(stderr(&edit).contains("9999"), "{}", stderr(&edit));
    unchanged("the refused edit");
    // So does one the pairing refuses (omitting the message that holds a call leaves its
    // result orphaned): it is checked before the turn would be settled.
    let call_message = read_session(&path)
        .unwrap()
        .entries
        .iter()
        .find(|e| matches!(&e.record, Record::Message(m) if m.message.tool_calls().count() > 0))
        .unwrap()
        .id;
    let orphaning = env.run(&[
        "sessions",
        "edit",
        session_arg,
        "--omit",
        &call_message.to_string(),
    ]);
    assert!(!orphaning.status.success(), "{}", stderr(&orphaning));
    assert!(
        stderr(&orphaning).contains("would follow no message holding its call"),
        "{}",
        stderr(&orphaning)
    );
    unchanged("the edit the pairing refused");
    // A compaction cannot go past the turn: refused, nothing written.
    let compact = env.run(&["compact", session_arg, "-m", "scripted/demo"]);
    assert_eq!(compact.status.code(), Some(2), "{}", stderr(&compact));
    assert!(
        stderr(&compact).contains("holds interrupted turn"),
        "{}",
        stderr(&compact)
    );
    unchanged("the refused compaction");
    // New input the model cannot take (tools are on, and it has none) is refused before
    // the turn is settled (only the key it was offered is registered, as any run's).
    std::fs::write(
        env.home().join("models.kdl"),
        "source \"test\" date=\"2026-12-07\" {\n    title \"made up\"\n}\nmodel \"openai-compatible/no-tools\" source=\"test\" {\n    tools #false\n}\n",
    )
    .unwrap();
    let unserviceable = env
        .command(&[
            "eval",
            "--session",
            session_arg,
            "-c",
            "provider.openai-compatible.base-url=http://127.0.0.1:9/v1",
            "-m",
            "openai-compatible/no-tools",
            "new input",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", "not-a-key")
        .output()
        .unwrap();
    assert_eq!(
        unserviceable.status.code(),
        Some(2),
        "{}",
        stderr(&unserviceable)
    );
    assert!(
        stderr(&unserviceable).contains("cannot take this input"),
        "{}",
        stderr(&unserviceable)
    );
    let settled = read_session(&path)
        .unwrap()
        .entries
        .iter()
        .any(|e| matches!(e.record, Record::RunEnd(_)));
    assert!(!settled, "the refused input settled the interrupted turn");

    // New input moves on: the interrupted turn ends as aborted first.
    let out = env.run(&[
        "eval",
        "--session",
        session_arg,
        "-m",
        "scripted/demo",
        "next",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("settled as aborted"),
        "{}",
        stderr(&out)
    );
    let ends: Vec<_> = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::RunEnd(end) => Some((end.stop_reason, end.error)),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), 2, "{ends:?}");
    assert_eq!(ends[0].0, smith::StopReason::Aborted);
    assert!(ends[0].1.as_deref().unwrap().contains("interrupted"));
    assert_eq!(ends[1].0, smith::StopReason::EndTurn);
}

#[test]
fn a_second_process_cannot_continue_a_session_being_continued() {
    let env = Env::new();
    let gated = env.write(
        "gated.kdl",
        &format!(
            "{WRITE_ROUND}round {{\n  gate \"g\"\n  text \"never\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let (session, _path) = env.killed_at(&gated, Some("g"), |_| true);
    // The first continuation holds the session at a gate of its own.
    let rest = env.write(
        "rest.kdl",
        "round {\n  gate \"again\"\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let first = env
        .command(&[
            "eval",
            "--session",
            &session,
            "-m",
            "scripted/t",
            "--script",
            rest.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = rest.with_file_name("again.waiting");
    smith_testkit::wait_until("the first continuation streams", || waiting.exists());
    let second = continued(&env, &session, &rest);
    assert_eq!(second.status.code(), Some(4), "{}", stderr(&second));
    assert!(stderr(&second).contains("another"), "{}", stderr(&second));
    std::fs::write(rest.with_file_name("again.release"), "").unwrap();
    let first = first.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stdout(&first).contains("done"), "{}", stdout(&first));
}

/// The model behind a loopback HTTP server: the first process's second request is held open
/// and the process SIGKILLed; the continuing process sends exactly one request to a fresh
/// server — the conversation with the recorded write's result, the write not run again.
#[test]
fn at_the_loopback_server_the_continuation_sends_only_the_next_round() {
    use smith_ai::loopback;
    const CALL: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"write\",\"arguments\":\"{\\\"path\\\": \\\"out.txt\\\", \\\"content\\\": \\\"once\\\\n\\\"}\"}}]},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
    const TEXT: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"All done.\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let env = Env::new();
    let held = vec![
        loopback::head(
            "200 OK",
            "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
        ),
        loopback::Step::Wait,
    ];
    let first = loopback::serve(vec![loopback::sse_in_pieces(CALL.as_bytes(), 9), held]);
    let base = |url: &str| format!("provider.openai-compatible.base-url={url}/v1");
    let mut child = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base(&first.url),
            "-m",
            "openai-compatible/m",
            "write the file",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(first.request().is_some(), "the first request");
    assert!(first.request().is_some(), "the second request");
    child.kill().unwrap(); // SIGKILL, the second response held open
    child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "once\n"
    );
    std::fs::write(env.root.path().join("out.txt"), "changed\n").unwrap();
    let path = env.session_files()[0].clone();
    let session = path.file_stem().unwrap().to_str().unwrap().to_owned();

    let second = loopback::serve(vec![loopback::sse_in_pieces(TEXT.as_bytes(), 9)]);
    let out = env.run(&["eval", "--session", &session, "-c", &base(&second.url)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("All done."), "{}", stdout(&out));
    let sent = second.request_json().unwrap();
    let messages = sent["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"], "write the file");
    assert_eq!(messages[2]["tool_calls"][0]["id"], "call_9");
    assert_eq!(messages[3]["role"], "tool");
    assert!(
        messages[3]["content"].as_str().unwrap().contains("wrote"),
        "{sent}"
    );
    assert_eq!(messages.len(), 4, "{sent}");
    assert_eq!(second.requests_now(), 0, "one request, no more");
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "changed\n",
        "the recorded write ran again"
    );
}

/// A `bash` call cut off while its program runs: the working-tree snapshot taken before it
/// (the agent's own effect, whatever plugin holds the history) is no prerequisite, and the
/// call is answered from its recorded effects — the program is not started again.
#[test]
fn a_turn_killed_inside_a_program_continues_without_starting_it_again() {
    let env = Env::new();
    let fifo = env.root.path().join("pipe");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let script = env.write(
        "bash.kdl",
        "round {\n  tool-call id=\"b1\" name=\"bash\" arguments=#\"{\"command\": \"cat pipe\"}\"#\n  stop \"tool_use\"\n}\n",
    );
    let mut child = env
        .command(&[
            "--allow-process",
            "eval",
            "-m",
            "scripted/t",
            "--script",
            script.to_str().unwrap(),
            "do the job",
        ])
        .spawn()
        .unwrap();
    smith_testkit::wait_until("the program's effect is recorded", || {
        env.session_files().first().is_some_and(|p| {
            read_session(p).is_ok_and(|o| {
                o.entries.iter().any(|e| {
                    matches!(&e.record, Record::EffectIntent(i) if i.effect.starts_with("process."))
                })
            })
        })
    });
    child.kill().unwrap(); // SIGKILL, the program still reading the pipe
    child.wait().unwrap();
    let path = env.session_files()[0].clone();
    let session = path.file_stem().unwrap().to_str().unwrap().to_owned();
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"the program's outcome is unknown\"\n  stop \"end_turn\"\n}\n",
    );
    let out = env.run(&[
        "--allow-process",
        "eval",
        "--session",
        &session,
        "--script",
        rest.to_str().unwrap(),
    ]);
    // The orphaned `cat` reads end-of-file and ends (it may be gone already).
    if let Ok(fd) = nix::fcntl::open(
        &fifo,
        nix::fcntl::OFlag::O_WRONLY | nix::fcntl::OFlag::O_NONBLOCK,
        nix::sys::stat::Mode::empty(),
    ) {
        drop(fd);
    }
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spawned = intents(&path)
        .iter()
        .filter(|i| i.effect.starts_with("process."))
        .count();
    assert_eq!(spawned, 1, "the program was started again");
    let result = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .find_map(|e| match e.record {
            Record::ToolResult(r) => Some(r.result),
            _ => None,
        })
        .unwrap();
    assert!(result.is_error, "{result:?}");
    assert!(result.output.contains("not run again"), "{result:?}");
}
