//! Raw lines a client library never sends: the lifecycle answers, bad input and the end of
//! input mid-call. Stdout carries MCP messages only.

use serde_json::{Value, json};

use crate::client::{Client, all_protocol};
use crate::common::{self, Env};

/// A server started in `env`'s root, not initialized yet.
fn started(env: &Env, args: &[&str]) -> Client {
    Client::start_subcommand(env, "mcp", args, env.root.path())
}

/// A server started in `env`'s root and initialized.
fn start(env: &Env, args: &[&str]) -> Client {
    let mut c = started(env, args);
    c.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    c
}

#[test]
fn initialize_negotiates_a_revision_and_unserved_methods_get_correlated_errors() {
    let env = Env::new();
    for (asked, got) in [
        ("2025-06-18", "2025-06-18"),
        ("2024-11-05", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let mut c = started(&env, &[]);
        let r = c.result(
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        assert_eq!(r["protocolVersion"], got, "asked {asked}");
        let (status, _, stderr) = c.finish();
        assert!(status.success(), "{stderr}");
    }
    let mut c = started(&env, &[]);
    // The stateless revision's probe: "method not found", so clients fall back.
    let e = c.error("server/discover", json!({}));
    assert_eq!(e["code"], -32601);
    let r = c.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    assert_eq!(r["protocolVersion"], "2025-11-25");
    assert_eq!(r["serverInfo"]["name"], "smith");
    assert_eq!(r["capabilities"]["resources"]["subscribe"], true);
    assert!(r["capabilities"]["tools"].is_object());
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(c.result("ping", json!({})), json!({}));
    // Capabilities not offered are answered, never left hanging.
    for method in [
        "prompts/list",
        "completion/complete",
        "sampling/createMessage",
    ] {
        let e = c.error(method, json!({}));
        assert_eq!(e["code"], -32601, "{method}");
        assert_eq!(e["data"]["method"], method);
    }
    let e = c.error("logging/setLevel", json!({"level": "loud"}));
    assert_eq!(
        (e["code"].as_i64(), e["data"]["field"].as_str()),
        (Some(-32602), Some("level"))
    );
    assert_eq!(
        c.result("logging/setLevel", json!({"level": "debug"})),
        json!({})
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
}

/// The lifecycle as the MCP schema has it: served requests wait for `initialize`, which is
/// answered once and whose params are checked field by field; wrong-typed params of the other
/// requests are `-32602` naming the field.
#[test]
fn initialize_is_checked_and_answered_once_and_params_are_typed() {
    let env = Env::new();
    let mut c = started(&env, &[]);
    // Before `initialize`: served methods are refused, `ping` is answered.
    let e = c.error("tools/list", json!({}));
    assert_eq!(e["code"], -32600, "{e}");
    assert!(e["message"].as_str().unwrap().contains("initialize"), "{e}");
    assert_eq!(c.result("ping", json!({})), json!({}));
    let ok = json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    for (field, bad) in [
        ("protocolVersion", json!(1)),
        ("protocolVersion", Value::Null),
        ("capabilities", json!("x")),
        ("clientInfo", json!([1])),
        ("clientInfo.name", json!({"version": "1"})),
        ("clientInfo.version", json!({"name": "t", "version": 2})),
    ] {
        let mut params = ok.clone();
        let key = field.split('.').next().unwrap();
        params[key] = bad;
        let e = c.error("initialize", params);
        assert_eq!(
            (e["code"].as_i64(), e["data"]["field"].as_str()),
            (Some(-32602), Some(field)),
            "{e}"
        );
    }
    let e = c.error("initialize", json!({}));
    assert_eq!(e["data"]["field"], "protocolVersion", "{e}");
    let e = c.call("initialize", Value::Null);
    assert_eq!(e["error"]["code"], -32602, "{e}");
    // The first well-formed one is answered; a second is refused.
    assert_eq!(
        c.result("initialize", ok.clone())["protocolVersion"],
        "2025-11-25"
    );
    let e = c.error("initialize", ok);
    assert_eq!(e["code"], -32600, "{e}");
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    // Wrong-typed params of the served requests.
    for (method, params, field) in [
        ("tools/list", json!({"cursor": "x"}), "cursor"),
        ("tools/list", json!({"cursor": null}), "cursor"),
        ("resources/list", json!({"cursor": null}), "cursor"),
        ("resources/list", json!({"cursor": 3}), "cursor"),
        ("resources/templates/list", json!({"cursor": "x"}), "cursor"),
        ("tools/list", json!({"_meta": 5}), "_meta"),
        ("resources/list", json!({"_meta": [1]}), "_meta"),
        ("tools/call", json!({"name": 5, "arguments": {}}), "name"),
        ("tools/call", json!({"arguments": {}}), "name"),
        (
            "tools/call",
            json!({"name": "ls", "arguments": null}),
            "arguments",
        ),
        (
            "tools/call",
            json!({"name": "ls", "arguments": {}, "_meta": 5}),
            "_meta",
        ),
        (
            "tools/call",
            json!({"name": "ls", "arguments": {}, "_meta": {"progressToken": [1]}}),
            "_meta.progressToken",
        ),
    ] {
        let e = c.error(method, params);
        assert_eq!(
            (e["code"].as_i64(), e["data"]["field"].as_str()),
            (Some(-32602), Some(field)),
            "{method}: {e}"
        );
    }
    assert!(c.result("tools/list", json!({}))["tools"].is_array());
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
}

#[test]
fn bad_input_gets_correlated_errors_and_the_server_goes_on() {
    let env = Env::new();
    let mut c = start(&env, &["--disable-plugin", "shell"]);
    c.send_raw("{not json");
    let e = c.until(|l| l["error"]["code"] == -32700);
    assert!(e["id"].is_null());
    c.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":"big","method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(16 * 1024 * 1024 + 1)
    ));
    let e = c.until(|l| l["error"]["code"] == -32600);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("longer"),
        "{e}"
    );
    // An unknown tool, and one of a disabled plugin, are protocol errors naming the tool.
    for tool in ["no_such_tool", "bash"] {
        let e = c.error("tools/call", json!({"name": tool, "arguments": {}}));
        assert_eq!(e["code"], -32602, "{e}");
        assert_eq!(e["data"]["tool"], tool);
    }
    let e = c.error("tools/call", json!({"name": "read", "arguments": [1]}));
    assert_eq!(e["data"]["field"], "arguments");
    // Schema-invalid arguments are a tool error the model can read, not a protocol error.
    let r = c.result(
        "tools/call",
        json!({"name": "read", "arguments": {"path": 7}}),
    );
    assert_eq!(r["isError"], true, "{r}");
    let e = c.error("resources/read", json!({"uri": "file:///etc/passwd"}));
    assert_eq!(e["code"], -32002);
    let e = c.error("resources/read", json!({"uri": "smith://session/nope"}));
    assert_eq!(e["code"], -32002);
    let e = c.error("resources/list", json!({"cursor": "not-a-cursor"}));
    assert_eq!(e["data"]["field"], "cursor");
    // A notification is never answered, even a bad one; a request sent as one is not run.
    c.send_raw(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"no_such_tool"}}"#);
    c.send_raw(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write","arguments":{"path":"unasked.txt","content":"x"}}}"#);
    c.seen(|l| {
        l["params"]["level"] == "warning"
            && l["params"]["data"]
                .as_str()
                .is_some_and(|d| d.contains("without an `id`"))
    });
    assert!(!env.root.path().join("unasked.txt").exists());
    // A notification sent with an id, and a null id: invalid requests, answered.
    c.send_raw(r#"{"jsonrpc":"2.0","id":"n1","method":"notifications/cancelled","params":{"requestId":"x"}}"#);
    let e = c.until(|l| l["id"] == "n1");
    assert_eq!(e["error"]["code"], -32600, "{e}");
    c.send_raw(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#);
    let e = c.until(|l| l["id"].is_null() && l["error"]["code"] == -32600);
    assert!(e["error"]["message"].as_str().unwrap().contains("null"));
    // Blank lines are skipped; responses to requests never sent are dropped, unanswered.
    c.send_raw("");
    c.send_raw("   ");
    c.send_raw(r#"{"jsonrpc":"2.0","id":"smith-99","result":{}}"#);
    c.send_raw(r#"{"id":"smith-98","error":"nope"}"#);
    assert_eq!(c.result("ping", json!({})), json!({}));
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    assert!(
        !lines
            .iter()
            .any(|l| l["error"]["data"]["tool"] == "no_such_tool" && l["id"].is_null()),
        "a notification was answered"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l["id"] == "smith-99" || l["id"] == "smith-98"),
        "a response was answered"
    );
    let parse_errors = lines
        .iter()
        .filter(|l| l["error"]["code"] == -32700)
        .count();
    assert_eq!(parse_errors, 1, "blank lines were answered");
}

/// MCP ids are never reused: a `tools/call` whose id a call in flight holds is refused, and
/// the call in flight goes on (its cancellation still reaches it).
#[cfg(unix)]
#[test]
fn an_id_in_flight_is_not_taken_again() {
    let env = Env::new();
    let mut c = start(&env, &["--allow-process"]);
    c.send_raw(
        &json!({"jsonrpc": "2.0", "id": "d", "method": "tools/call", "params": {"name": "bash", "arguments": {"command": "touch begun; sleep 4204.1"}}})
            .to_string(),
    );
    common::wait_for(&env.root.path().join("begun"));
    c.send_raw(
        &json!({"jsonrpc": "2.0", "id": "d", "method": "tools/call", "params": {"name": "ls", "arguments": {}}})
            .to_string(),
    );
    let e = c.until(|l| l["id"] == "d");
    assert_eq!(e["error"]["code"], -32600, "{e}");
    c.send_raw(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"d"}}"#,
    );
    // The cancellation reached the call: its program was stopped, its effect recorded as it
    // ended (unknown: it had started) — and the cancelled call gets no response.
    let session = env.session_files()[0].clone();
    smith_testkit::wait_until("the cancelled call's effect settled", || {
        smith_store::read_session(&session).is_ok_and(|s| {
            s.entries
                .iter()
                .any(|e| matches!(e.record, smith_store::Record::EffectCompletion(_)))
        })
    });
    assert_eq!(c.result("ping", json!({})), json!({}));
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    let answers = lines.iter().filter(|l| l["id"] == "d").count();
    assert_eq!(answers, 1, "only the refusal of the reused id: {lines:?}");
}

/// `--session` naming no session is bad configuration: exit 2 before serving anything.
#[test]
fn a_session_that_does_not_exist_is_refused_at_start() {
    let env = Env::new();
    let out = env.run(&["mcp", "--session", "ffffffff"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("ffffffff") && stderr.contains("sessions list"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn end_of_input_mid_call_cancels_it_records_how_it_ended_and_exits_cleanly() {
    let env = Env::new();
    let mut c = start(&env, &["--allow-process"]);
    let id = c.request(
        "tools/call",
        json!({"name": "bash", "arguments": {"command": "echo started; touch begun; sleep 4203.3"}}),
    );
    common::wait_for(&env.root.path().join("begun"));
    // The client goes away: the call is cancelled, its effect recorded, the server exits 0.
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let files = env.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let entries = smith_store::read_session(&files[0]).unwrap().entries;
    let outcome = entries.iter().find_map(|e| match &e.record {
        smith_store::Record::EffectCompletion(c) => Some(c.outcome),
        _ => None,
    });
    assert_eq!(outcome, Some(smith::EffectOutcome::Unknown));
    // Whether its answer was written before the end is not promised; nothing else was but
    // the answer to `initialize`.
    assert!(lines.iter().all(|l| l["id"] == id
        || l.get("method").is_some()
        || l["result"]["protocolVersion"].is_string()));
}

#[test]
fn every_declared_method_is_served_and_the_templates_are_the_declared_ones() {
    let env = Env::new();
    // `initialize`, the first declared method, is this connection's first request.
    let mut c = started(&env, &[]);
    for served in smith_mcp::decl::METHODS {
        let params = match served.method {
            "initialize" => {
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
            }
            "logging/setLevel" => json!({"level": "info"}),
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                json!({"uri": "smith://server/session"})
            }
            "tools/call" => json!({"name": "ls", "arguments": {"path": "."}}),
            _ => json!({}),
        };
        let r = c.call(served.method, params);
        assert!(r.get("result").is_some(), "{}: {r}", served.method);
    }
    let templates = c.result("resources/templates/list", json!({}));
    assert_eq!(templates["resourceTemplates"], smith_mcp::decl::templates());
    done_ok(c);
}

fn done_ok(c: Client) {
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
}

/// A turn that runs `bash` until a gate file appears, then answers.
const GATE_SCRIPT: &str = r##"
round {
    tool-call id="g1" name="bash" arguments=#"{"command": "touch begun; while [ ! -e gate ]; do sleep 0.05; done"}"#
    stop "tool_use"
}
round { echo; stop "end_turn" }
"##;

/// A `smith_run` turn holds the server's session for as long as it runs; a direct tool call
/// meanwhile is answered at once, recorded in the same session, and the turn then finishes.
#[cfg(unix)]
#[test]
fn a_tool_call_is_answered_while_a_smith_run_turn_holds_the_session() {
    let env = Env::new();
    let script = env.write("gate.kdl", GATE_SCRIPT);
    env.write("notes.txt", "notes for the concurrent read\n");
    let mut c = start(
        &env,
        &[
            "-m",
            "scripted/gate",
            "--script",
            script.to_str().unwrap(),
            "--allow-process",
        ],
    );
    let turn = c.request(
        "tools/call",
        json!({"name": "smith_run", "arguments": {"prompt": "wait for the gate"}}),
    );
    common::wait_for(&env.root.path().join("begun"));
    let r = c.result(
        "tools/call",
        json!({"name": "read", "arguments": {"path": "notes.txt"}}),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("concurrent read"),
        "{r}"
    );
    assert!(
        !c.lines.iter().any(|l| l["id"] == turn),
        "the turn still waits at its gate"
    );
    env.write("gate", "");
    let done = c.response(turn);
    assert_eq!(done["result"]["isError"], false, "{done}");
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let entries = smith_store::read_session(&env.session_files()[0])
        .unwrap()
        .entries;
    let read_call = entries
        .iter()
        .any(|e| matches!(&e.record, smith_store::Record::ClientCall(call) if call.tool == "read"));
    let ended = entries
        .iter()
        .any(|e| matches!(e.record, smith_store::Record::RunEnd(_)));
    assert!(
        read_call && ended,
        "the read and the turn are both recorded"
    );
}

/// `smith -m MODEL mcp`, the natural line of an MCP host's configuration: the model given
/// before the command is the one `smith_run` uses.
#[test]
fn a_model_given_before_the_command_is_the_servers() {
    let env = Env::new();
    // The subcommand argument of the shared client is the first word after the program: here
    // the global option, then its value and the command.
    let mut c = Client::start_subcommand(&env, "-m", &["scripted/demo", "mcp"], env.root.path());
    c.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let r = c.result(
        "tools/call",
        json!({"name": "smith_run", "arguments": {"prompt": "hello from the host"}}),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("You said: hello from the host"),
        "{r}"
    );
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
}
