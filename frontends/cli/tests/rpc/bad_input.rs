//! Bad input keeps the server alive with the standard errors; stdout stays protocol only.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::Env;

#[test]
fn bad_lines_get_standard_errors_and_the_server_goes_on() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    c.send_raw("{not json");
    let e = c.until(|l| l["error"]["code"] == -32700);
    assert_eq!(e["id"], serde_json::Value::Null);
    c.send_raw("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}]");
    let e = c.until(|l| l["error"]["code"] == -32600);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("batch"),
        "{e}"
    );
    c.send_raw(r#"{"jsonrpc":"1.0","id":"old","method":"initialize"}"#);
    let e = c.until(|l| l["id"] == "old");
    assert_eq!(e["error"]["code"], -32600);
    c.send_raw(r#"{"jsonrpc":"2.0","id":"pos","method":"sessions.list","params":[1]}"#);
    let e = c.until(|l| l["id"] == "pos");
    assert_eq!(e["error"]["code"], -32602);
    let e = c.error("no.such.method", json!({}));
    assert_eq!(e["code"], -32601);
    assert_eq!(e["data"]["method"], "no.such.method");
    let e = c.error("session.submit", json!({"session": "x"}));
    assert_eq!(e["code"], -32602);
    assert_eq!(e["data"]["field"], "input");
    let e = c.error("session.entries", json!({"session": "s", "limit": "ten"}));
    assert_eq!(e["data"]["field"], "limit");
    assert!(e["message"].as_str().unwrap().contains("an integer"), "{e}");
    let e = c.error("sessions.list", json!({"colour": "blue"}));
    assert_eq!(e["data"]["field"], "colour");
    // A session that is not open, and one that does not exist.
    let e = c.error(
        "session.entries",
        json!({"session": "01a2333c-abe8-74a5-bc1c-feb4fe902238"}),
    );
    assert_eq!(e["code"], -32001);
    let e = c.error("sessions.open", json!({"session": "ffffffff"}));
    assert_eq!(e["code"], -32004);
    // An over-long line (past 16 MiB) is refused and skipped; the next request is served.
    let long = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(17 * 1024 * 1024)
    );
    c.send_raw(&long);
    let e = c.until(|l| {
        l["error"]["code"] == -32600
            && l["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("longer")
    });
    // Correlated: its id came before the padding.
    assert_eq!(e["id"], 9, "{e}");
    // One whose id comes after what is kept of it is answered with a null id.
    let late = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"initialize\",\"params\":{{\"pad\":\"{}\"}},\"id\":10}}",
        "x".repeat(17 * 1024 * 1024)
    );
    c.send_raw(&late);
    let e = c.until(|l| l["error"]["code"] == -32600 && l["id"].is_null());
    assert!(
        e["error"]["message"].as_str().unwrap().contains("longer"),
        "{e}"
    );
    // A notification (no id) gets no answer, even an unknown one.
    c.send_raw(r#"{"jsonrpc":"2.0","method":"no.such.method"}"#);
    // Nor one with parameters by position, or with a parameter of the wrong type.
    c.send_raw(r#"{"jsonrpc":"2.0","method":"sessions.list","params":[1]}"#);
    c.send_raw(r#"{"jsonrpc":"2.0","method":"sessions.list","params":{"limit":"many"}}"#);
    let init = c.result(
        "initialize",
        json!({"client": {"name": "test", "version": "1"}, "protocol_version": "1.0"}),
    );
    assert_eq!(init["protocol_version"], "1.0.0");
    let e = c.error("initialize", json!({"protocol_version": "2.0.0"}));
    assert_eq!(e["data"]["field"], "protocol_version");
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
    assert!(
        !lines
            .iter()
            .any(|l| l["error"]["data"]["method"] == "no.such.method" && l["id"].is_null())
    );
    assert!(
        !lines
            .iter()
            .any(|l| l["error"]["code"] == -32602 && l["id"].is_null()),
        "a notification was answered: {lines:?}"
    );
}

#[test]
fn separators_in_output_are_escaped_so_javascript_line_readers_see_whole_lines() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let r = c.result(
        "session.submit",
        json!({"session": s, "input": "a\u{2028}b\u{2029}c", "model": "scripted/demo"}),
    );
    c.result(
        "session.wait",
        json!({"session": s, "submission": r["submission"]}),
    );
    c.finish();
    // Read the raw bytes of a second run's stdout: no raw U+2028/U+2029, one JSON per line.
    let out = env
        .command(&["rpc"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 1, "method": "sessions.open", "params": {"session": s}}))?;
            writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 2, "method": "session.entries", "params": {"session": s}}))?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{2028}') && !text.contains('\u{2029}'));
    assert!(text.contains("\\u2028"), "{text}");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
}

#[test]
fn a_provider_error_reaches_the_client_as_events_and_stdout_stays_protocol_only() {
    let env = Env::new();
    let script = env.write(
        "fail.kdl",
        "round {\n  text \"partial\"\n  error \"upstream exploded\" kind=\"invalid_request\"\n}\n",
    );
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let r = c.result(
        "session.submit",
        json!({"session": s, "input": "x", "model": "scripted/fail", "script": script}),
    );
    let end = c.event(&s, "run_end");
    assert_eq!(end["params"]["event"]["stop_reason"], "error");
    assert!(
        end["params"]["event"]["error"]
            .as_str()
            .unwrap()
            .contains("upstream exploded")
    );
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": r["submission"]}),
    );
    assert_eq!(settled["stop_reason"], "error");
    // A bad script is a configuration error of that submission, and the session stays usable.
    let bad = env.write("bad.kdl", "round {\n  nonsense\n}\n");
    let e = c.error(
        "session.submit",
        json!({"session": s, "input": "x", "model": "scripted/bad", "script": bad}),
    );
    assert_eq!(e["code"], -32008, "{e}");
    let ok = c.result(
        "session.submit",
        json!({"session": s, "input": "again", "model": "scripted/demo"}),
    );
    c.result(
        "session.wait",
        json!({"session": s, "submission": ok["submission"]}),
    );
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

#[cfg(unix)]
#[test]
fn sigterm_aborts_running_work_closes_the_session_and_exits_cleanly() {
    let env = Env::new();
    let dir = env.root.path();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"partial\"\n  gate \"hold\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    c.result(
        "session.submit",
        json!({"session": s, "input": "x", "model": "scripted/gated", "script": script}),
    );
    crate::common::wait_for(&dir.join("hold.waiting"));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(c.child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let (status, lines, stderr) = c.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    all_protocol(&lines);
    let last = lines
        .iter()
        .rev()
        .find(|l| l["method"] == "session.event")
        .unwrap();
    assert_eq!(last["params"]["event"]["type"], "run_end");
    assert_eq!(last["params"]["event"]["stop_reason"], "aborted");
    let file = env.sessions().join(format!("{s}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    assert!(matches!(
        entries.last().unwrap().record,
        smith_store::Record::RunEnd(_)
    ));
    let mut again = Client::start(&env, &[]);
    assert_eq!(
        again.result("sessions.open", json!({"session": s}))["access"],
        "writer"
    );
    again.finish();
}

#[test]
fn a_submission_sent_as_a_notification_runs_and_is_never_answered() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    c.send_raw(
        &json!({"jsonrpc": "2.0", "method": "session.submit", "params": {"session": s, "input": "quiet", "model": "scripted/demo"}})
            .to_string(),
    );
    let end = c.event(&s, "run_end");
    assert_eq!(end["params"]["request"], serde_json::Value::Null);
    // Integer ids beyond 64 bits, or with a fraction, cannot be echoed exactly: refused.
    c.send_raw(r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"initialize"}"#);
    let e = c.until(|l| l["error"]["code"] == -32600);
    assert!(
        e["error"]["message"].as_str().unwrap().contains("64 bits"),
        "{e}"
    );
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
    assert!(
        !lines
            .iter()
            .any(|l| l["id"].is_null() && l.get("result").is_some()),
        "a notification was answered"
    );
}
