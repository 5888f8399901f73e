//! `smith acp` through raw lines: what a client library never sends (requests out of order,
//! malformed content, responses nobody asked for, a 50 MB line), a second prompt while one
//! runs, every declared method served, and a client that stops reading while a turn streams.

use serde_json::{Value, json};

use crate::client::{Client, all_protocol};
use crate::common::Env;

fn text(words: &str) -> Value {
    json!([{"type": "text", "text": words}])
}

#[test]
fn bad_input_gets_correlated_errors_and_the_agent_goes_on() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"before \"\n  gate \"hold\"\n  text \"after\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start_subcommand(
        &env,
        "acp",
        &["-m", "scripted/acp", "--script", script.to_str().unwrap()],
        &dir,
    );
    // Before initialize: refused, named.
    let early = c.error("session/new", json!({"cwd": dir, "mcpServers": []}));
    assert_eq!(early["code"], -32600, "{early}");
    assert!(
        early["message"]
            .as_str()
            .unwrap()
            .contains("before `initialize`")
    );
    c.result(
        "initialize",
        json!({"protocolVersion": 1, "clientCapabilities": {}}),
    );
    let again = c.error("initialize", json!({"protocolVersion": 1}));
    assert_eq!(again["code"], -32600);
    // Every declared method is served: none is "method not found".
    for served in smith_acp::decl::METHODS {
        let r = c.call(served.method, json!({}));
        assert_ne!(r["error"]["code"], -32601, "{}: {r}", served.method);
    }
    let unknown = c.error("session/fork", json!({}));
    assert_eq!(unknown["code"], -32601);
    assert_eq!(unknown["data"]["method"], "session/fork");
    // A prompt for a session that is not open here.
    let missing = c.error(
        "session/prompt",
        json!({"sessionId": "01a250d4-0000-7000-8000-000000000000", "prompt": text("hi")}),
    );
    assert_eq!(missing["code"], -32002, "{missing}");
    let relative = c.error(
        "session/new",
        json!({"cwd": "relative/dir", "mcpServers": []}),
    );
    assert_eq!(relative["code"], -32602);
    assert_eq!(relative["data"]["field"], "cwd");
    let id = c.result("session/new", json!({"cwd": dir, "mcpServers": []}))["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    // Malformed content blocks: an unknown type, audio (not taken).
    let bogus = c.error(
        "session/prompt",
        json!({"sessionId": id, "prompt": [{"type": "bogus"}]}),
    );
    assert_eq!(bogus["code"], -32602, "{bogus}");
    let audio = c.error(
        "session/prompt",
        json!({"sessionId": id, "prompt": [{"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}]}),
    );
    assert_eq!(audio["code"], -32602, "{audio}");
    assert_eq!(audio["data"]["field"], "prompt[0]");
    // A response to a request nobody sent is dropped; the agent goes on.
    c.send_raw(r#"{"jsonrpc":"2.0","id":"smith-99","result":{"outcome":{"outcome":"cancelled"}}}"#);
    // A 50 MB line, over the 16 MiB bound: skipped with an error correlated by its id, the
    // agent alive.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":900,"method":"session/prompt","params":{{"sessionId":"{id}","prompt":[{{"type":"text","text":"{}"}}]}}}}"#,
        "x".repeat(50 * 1024 * 1024)
    );
    c.send_raw(&huge);
    let skipped = c.until(|l| l["id"] == 900);
    assert_eq!(skipped["error"]["code"], -32600, "{skipped}");
    // A prompt held at the gate; a second one meanwhile is refused; cancel ends the first.
    let first = c.request(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("wait")}),
    );
    c.until(|l| l["params"]["update"]["content"]["text"] == "before ");
    let second = c.error(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("again")}),
    );
    assert_eq!(second["code"], -32600, "{second}");
    let mode = c.error(
        "session/set_mode",
        json!({"sessionId": id, "modeId": "plan"}),
    );
    assert_eq!(mode["code"], -32600, "{mode}");
    c.send_raw(
        &json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": id}})
            .to_string(),
    );
    let answer = c.response(first);
    assert_eq!(answer["result"]["stopReason"], "cancelled", "{answer}");
    // Config values that cannot work are refused when set, not at the next prompt.
    let model = c.error(
        "session/set_config_option",
        json!({"sessionId": id, "configId": "model", "value": "nonexistent/foo"}),
    );
    assert_eq!(model["code"], -32602, "{model}");
    let bogus = c.error(
        "session/set_config_option",
        json!({"sessionId": id, "configId": "bogus", "value": "x"}),
    );
    assert_eq!(bogus["code"], -32602, "{bogus}");
    // The session takes the next prompt's errors as before: the agent is alive.
    let unknown_mode = c.error(
        "session/set_mode",
        json!({"sessionId": id, "modeId": "yolo"}),
    );
    assert_eq!(unknown_mode["code"], -32602);
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    assert!(
        stderr.contains("no request with that id is pending"),
        "{stderr}"
    );
}

#[test]
fn a_client_that_stops_reading_never_stalls_the_turn_and_gets_the_whole_answer() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap();
    // Two thousand pieces: far more lines than the agent lets wait for a client.
    let mut round = String::from("round {\n");
    let mut whole = String::new();
    for i in 0..2000 {
        let piece = format!("piece {i}; ");
        round.push_str(&format!("  text \"{piece}\"\n"));
        whole.push_str(&piece);
    }
    round.push_str("  stop \"end_turn\"\n}\n");
    let script = env.write("long.kdl", &round);
    // The client reads the answers to `initialize` and `session/new`, then stops reading.
    let mut c = Client::start_subcommand_pausing(
        &env,
        "acp",
        &["-m", "scripted/acp", "--script", script.to_str().unwrap()],
        &dir,
        2,
    );
    c.result("initialize", json!({"protocolVersion": 1}));
    let id = c.result("session/new", json!({"cwd": dir, "mcpServers": []}))["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    let file = env.sessions().join(format!("{id}.smith"));
    c.send_raw(&json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {"sessionId": id, "prompt": text("talk")}}).to_string());
    // The turn ends while nothing is read: its run end is durable.
    smith_testkit::wait_until("the turn's run end", || {
        smith_store::read_session(&file).is_ok_and(|r| {
            r.entries
                .iter()
                .any(|e| matches!(e.record, smith_store::Record::RunEnd(_)))
        })
    });
    c.resume();
    let answer = c.response(3);
    assert_eq!(answer["result"]["stopReason"], "end_turn", "{answer}");
    let said: String = c
        .lines
        .iter()
        .filter(|l| l["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .map(|l| l["params"]["update"]["content"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(said, whole);
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

#[test]
fn slash_commands_are_announced_and_run_undo_and_a_prompt_command() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(dir.join(".smith/commands")).unwrap();
    std::fs::write(dir.join("notes.txt"), "draft\n").unwrap();
    std::fs::write(
        dir.join(".smith/commands/shout.md"),
        "---\ndescription: Say it loudly\n---\nShout $ARGUMENTS!\n",
    )
    .unwrap();
    // The project is trusted, so its commands are offered.
    let trusted = env
        .command(&["trust", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        trusted.status.success(),
        "{}",
        String::from_utf8_lossy(&trusted.stderr)
    );
    let script = env.write(
        "undo.kdl",
        "round {\n  tool-call id=\"e\" name=\"edit\" arguments=#\"{\"path\":\"notes.txt\",\"edits\":[{\"old_text\":\"draft\",\"new_text\":\"final\"}]}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"edited\"\n  stop \"end_turn\"\n}\nround {\n  echo\n  stop \"end_turn\"\n}\nround {\n  echo\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start_subcommand(
        &env,
        "acp",
        &["-m", "scripted/acp", "--script", script.to_str().unwrap()],
        &dir,
    );
    c.result("initialize", json!({"protocolVersion": 1}));
    let id = c.result("session/new", json!({"cwd": dir, "mcpServers": []}))["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    let announced =
        c.until(|l| l["params"]["update"]["sessionUpdate"] == "available_commands_update");
    let names: Vec<&str> = announced["params"]["update"]["availableCommands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for name in ["shout", "init", "review", "compact", "undo", "redo"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    let r = c.result(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("edit it")}),
    );
    assert_eq!(r["stopReason"], "end_turn");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "final\n"
    );
    // `/undo` puts the working tree back, as the terminal UI's does.
    let r = c.result(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("/undo")}),
    );
    assert_eq!(r["stopReason"], "end_turn");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "draft\n"
    );
    // A prompt command's text, its arguments put in, is what the model gets (echoed back).
    let r = c.result(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("/shout hello")}),
    );
    assert_eq!(r["stopReason"], "end_turn");
    let echoed: String = c
        .lines
        .iter()
        .filter(|l| l["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .map(|l| l["params"]["update"]["content"]["text"].as_str().unwrap())
        .collect();
    assert!(echoed.contains("Shout hello"), "{echoed}");
    // A resource attached to a command follows its text; the command is read from the first
    // block only.
    let before = c.lines.len();
    let r = c.result(
        "session/prompt",
        json!({"sessionId": id, "prompt": [
            {"type": "text", "text": "/shout loud"},
            {"type": "resource", "resource": {"uri": format!("file://{}", dir.join("notes.txt").display()), "text": "the attached draft"}}
        ]}),
    );
    assert_eq!(r["stopReason"], "end_turn");
    let echoed: String = c.lines[before..]
        .iter()
        .filter(|l| l["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .map(|l| l["params"]["update"]["content"]["text"].as_str().unwrap())
        .collect();
    // The argument is the first block's words alone, the resource after the command's text.
    assert!(
        echoed.contains("Shout loud!\nContents of") && echoed.contains("the attached draft"),
        "{echoed}"
    );
    // A command an editor thread does not carry out is refused, named — never sent as text.
    let e = c.error(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("/export")}),
    );
    assert_eq!(e["code"], -32602, "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("/export is not carried out in an editor"),
        "{e}"
    );
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

/// The session ids and the project directory of `line`, as placeholders.
fn normalized(line: &Value, session: &str, dir: &str) -> String {
    let mut line = line.clone();
    // The model choices are the catalog's: a catalog update is no change of the protocol
    // stream.
    if line["result"]["configOptions"][0]["options"].is_array() {
        line["result"]["configOptions"][0]["options"] = json!("(the catalog's models)");
    }
    line.to_string()
        .replace(session, "$SESSION")
        .replace(dir, "$DIR")
}

/// A session as Zed drives one — its `initialize` (terminal and `_meta` capabilities, no
/// files), a new session, a mode, a prompt with a resource link on a model that thinks, plans
/// and edits, a config option, a second prompt, close — stays byte-stable: every line the
/// agent writes is compared with `fixtures/acp/zed-session.golden.jsonl` (`SMITH_BLESS=1`
/// rewrites it; review the diff).
#[test]
fn a_zed_like_session_stream_is_byte_stable() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "draft notes\n").unwrap();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/acp");
    let script = env.write(
        "zed.kdl",
        &std::fs::read_to_string(fixtures.join("zed-session.kdl")).unwrap(),
    );
    let dir_text = dir.to_str().unwrap().to_owned();
    let mut c = Client::start_subcommand(
        &env,
        "acp",
        &["-m", "scripted/zed", "--script", script.to_str().unwrap()],
        &dir,
    );
    let mut session = String::new();
    let input = std::fs::read_to_string(fixtures.join("zed-session.jsonl")).unwrap();
    for line in input.lines() {
        let line = line
            .replace("$DIR", &dir_text)
            .replace("$SESSION", &session);
        let id = serde_json::from_str::<Value>(&line).unwrap()["id"]
            .as_u64()
            .unwrap();
        c.send_raw(&line);
        let answer = c.response(id);
        if let Some(s) = answer["result"]["sessionId"].as_str() {
            session = s.to_owned();
            // As Zed does: the session's commands arrive before the next request.
            c.seen(|l| l["params"]["update"]["sessionUpdate"] == "available_commands_update");
        }
    }
    let (status, lines, _) = c.finish();
    assert!(status.success());
    let got: String = lines
        .iter()
        .map(|l| normalized(l, &session, &dir_text) + "\n")
        .collect();
    let golden = fixtures.join("zed-session.golden.jsonl");
    if std::env::var_os("SMITH_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&golden, &got).unwrap();
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        got == want,
        "the stream differs from {} (SMITH_BLESS=1 rewrites it; review the diff):\n{got}",
        golden.display()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "tidy notes\n"
    );
}

/// A turn a killed agent cut off: loading the session says so and offers `/continue`, which
/// continues it from what was recorded.
#[test]
fn an_interrupted_turn_is_offered_and_continued_after_a_kill() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap();
    let script = env.write(
        "held.kdl",
        "round {\n  text \"before \"\n  gate \"hold\"\n  text \"after\"\n  stop \"end_turn\"\n}\n",
    );
    let args = ["-m", "scripted/acp", "--script", script.to_str().unwrap()];
    let mut c = Client::start_subcommand(&env, "acp", &args, &dir);
    c.result("initialize", json!({"protocolVersion": 1}));
    let id = c.result("session/new", json!({"cwd": dir, "mcpServers": []}))["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    c.request(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("go on")}),
    );
    smith_testkit::wait_for(&env.root.path().join("hold.waiting"));
    c.child.kill().unwrap();
    c.child.wait().unwrap();
    // The next agent passes the gate at once.
    std::fs::write(env.root.path().join("hold.release"), b"").unwrap();
    let mut c = Client::start_subcommand(&env, "acp", &args, &dir);
    c.result("initialize", json!({"protocolVersion": 1}));
    c.result(
        "session/load",
        json!({"sessionId": id, "cwd": dir, "mcpServers": []}),
    );
    let said = c.seen(|l| {
        l["params"]["update"]["content"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("The last turn was interrupted"))
    });
    assert!(
        said["params"]["update"]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("Send /continue"),
        "{said}"
    );
    let announced =
        c.seen(|l| l["params"]["update"]["sessionUpdate"] == "available_commands_update");
    assert_eq!(
        announced["params"]["update"]["availableCommands"][0]["name"],
        "continue"
    );
    let answer = c.result(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("/continue")}),
    );
    assert_eq!(answer["stopReason"], "end_turn", "{answer}");
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    // Continued, not prompted anew: one submission, no message `/continue`, and the turn's
    // answer recorded with its end.
    let file = env.sessions().join(format!("{id}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    let texts: Vec<String> = entries
        .iter()
        .filter_map(|e| match &e.record {
            smith_store::Record::Message(m) => Some(m.message.text()),
            _ => None,
        })
        .collect();
    assert!(!texts.iter().any(|t| t.contains("/continue")), "{texts:?}");
    assert!(texts.iter().any(|t| t == "before after"), "{texts:?}");
    let submissions = entries
        .iter()
        .filter(|e| matches!(e.record, smith_store::Record::Submission(_)))
        .count();
    assert_eq!(submissions, 1);
    assert!(matches!(
        &entries.last().unwrap().record,
        smith_store::Record::RunEnd(end) if end.stop_reason == smith::StopReason::EndTurn
    ));
}

/// A provider whose key is missing is offered as a terminal method (`smith auth set`), and
/// `authenticate` with it succeeds once the key is stored.
#[test]
fn a_missing_key_is_a_terminal_method_and_authenticate_checks_it() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap();
    // A variable no environment has, so the key can only come from the auth file.
    let unset = "provider.anthropic.api-key-env=SMITH_TEST_NO_SUCH_VARIABLE";
    let mut c = Client::start_subcommand(
        &env,
        "acp",
        &["-c", unset, "-m", "anthropic/claude-sonnet-5"],
        &dir,
    );
    let init = c.result("initialize", json!({"protocolVersion": 1}));
    assert_eq!(
        init["authMethods"],
        json!([{
            "type": "terminal",
            "id": "smith-auth-set-anthropic",
            "name": "Store your anthropic API key",
            "description": "Runs `smith auth set anthropic`: the key is typed with echo off and kept in Smith's auth file",
            "args": ["auth", "set", "anthropic"],
        }]),
        "{init}"
    );
    let early = c.error(
        "authenticate",
        json!({"methodId": "smith-auth-set-anthropic"}),
    );
    assert_eq!(early["code"], -32602);
    assert!(
        early["message"]
            .as_str()
            .unwrap()
            .contains("no anthropic key is stored yet"),
        "{early}"
    );
    // What the client's terminal runs.
    let stored = env.run_with_stdin(&["-c", unset, "auth", "set", "anthropic"], "sk-test-key\n");
    assert!(
        stored.status.success(),
        "{}",
        String::from_utf8_lossy(&stored.stderr)
    );
    let done = c.result(
        "authenticate",
        json!({"methodId": "smith-auth-set-anthropic"}),
    );
    assert_eq!(done, json!({}));
    let other = c.error("authenticate", json!({"methodId": "bogus"}));
    assert_eq!(other["code"], -32602);
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

/// An editor's answer too long to read (a read of a file over 16 MiB) settles the agent's
/// request as failed — the tool says why — and is never answered as if it were a request.
#[test]
fn an_answer_too_long_to_read_fails_the_request_it_answers() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap();
    std::fs::write(dir.join("big.txt"), "on disk\n").unwrap();
    let script = env.write(
        "read.kdl",
        "round {\n  tool-call id=\"r\" name=\"read\" arguments=#\"{\"path\":\"big.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start_subcommand(
        &env,
        "acp",
        &["-m", "scripted/acp", "--script", script.to_str().unwrap()],
        &dir,
    );
    c.result(
        "initialize",
        json!({"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": true}}}),
    );
    let id = c.result("session/new", json!({"cwd": dir, "mcpServers": []}))["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    let prompt = c.request(
        "session/prompt",
        json!({"sessionId": id, "prompt": text("read it")}),
    );
    let asked = c.until(|l| l["method"] == "fs/read_text_file");
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":"{}"}}}}"#,
        asked["id"],
        "x".repeat(17 * 1024 * 1024)
    );
    c.send_raw(&huge);
    let answer = c.response(prompt);
    assert_eq!(answer["result"]["stopReason"], "end_turn", "{answer}");
    let failed = c
        .lines
        .iter()
        .find(|l| {
            l["params"]["update"]["sessionUpdate"] == "tool_call_update"
                && l["params"]["update"]["status"] == "failed"
        })
        .cloned()
        .expect("the read failed");
    assert!(
        failed.to_string().contains("longer than the 16777216"),
        "{failed}"
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
    // Never answered as a request: no error went out with the agent's own request id.
    assert!(
        !lines
            .iter()
            .any(|l| l["id"] == asked["id"] && l.get("error").is_some()),
        "{lines:?}"
    );
    assert!(stderr.contains("the answer to request"), "{stderr}");
}
