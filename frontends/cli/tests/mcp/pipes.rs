//! Raw lines a client library never sends: the lifecycle answers, bad input and the end of
//! input mid-call. Stdout carries MCP messages only.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::{self, Env};

fn start(env: &Env, args: &[&str]) -> Client {
    Client::start_subcommand(env, "mcp", args, env.root.path())
}

#[test]
fn initialize_negotiates_a_revision_and_unserved_methods_get_correlated_errors() {
    let env = Env::new();
    let mut c = start(&env, &[]);
    // The stateless revision's probe: "method not found", so clients fall back.
    let e = c.error("server/discover", json!({}));
    assert_eq!(e["code"], -32601);
    for (asked, got) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let r = c.result(
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        assert_eq!(r["protocolVersion"], got, "asked {asked}");
        assert_eq!(r["serverInfo"]["name"], "smith");
        assert_eq!(r["capabilities"]["resources"]["subscribe"], true);
        assert!(r["capabilities"]["tools"].is_object());
    }
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
    let r = c.until(|l| l["id"] == "d");
    assert!(r["result"]["content"][0]["text"].is_string(), "{r}");
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
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
    // Whether its answer was written before the end is not promised; nothing else was.
    assert!(
        lines
            .iter()
            .all(|l| l["id"] == id || l.get("method").is_some())
    );
}

#[test]
fn every_declared_method_is_served_and_the_templates_are_the_declared_ones() {
    let env = Env::new();
    let mut c = start(&env, &[]);
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
