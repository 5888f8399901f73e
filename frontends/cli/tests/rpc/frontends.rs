//! One session runner behind every frontend: the same scripted tool-using turn, sent through
//! `smith eval`, `smith rpc` and `smith mcp`'s `smith_run`, records the same entries (kinds, in
//! order) from its submission on. (The terminal UI's is in the tmux tests, `tui/main.rs`.)

use serde_json::json;

use crate::client::Client;
use crate::common::{Env, records, stderr};

const PROMPT: &str = "read the readme";

/// The kinds of the entries of the one session `env` holds, from its submission on.
fn turn_kinds(env: &Env) -> Vec<String> {
    let files = env.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let id = files[0].file_stem().unwrap().to_str().unwrap().to_owned();
    let out = env.run(&["sessions", "get", &id, "--json", "--limit", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kinds: Vec<String> = records(&out)
        .iter()
        .filter(|r| r["type"] == "entry")
        .map(|r| r["kind"].as_str().unwrap().to_owned())
        .collect();
    let from = kinds
        .iter()
        .position(|k| k == "submission")
        .expect("a submission");
    kinds[from..].to_vec()
}

fn env_with_readme() -> Env {
    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "# readme\n").unwrap();
    env
}

#[test]
fn eval_rpc_and_mcp_record_the_same_entries_for_the_same_turn() {
    let eval = env_with_readme();
    let out = eval.run(&["eval", "-m", "scripted/tool-call", PROMPT]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = turn_kinds(&eval);
    assert!(
        expected.iter().any(|k| k == "tool_result") && expected.last().unwrap() == "run_end",
        "{expected:?}"
    );

    let rpc = env_with_readme();
    let mut c = Client::start(&rpc, &[]);
    let s = c.create();
    let receipt = c.result(
        "session.submit",
        json!({"session": s, "input": PROMPT, "model": "scripted/tool-call"}),
    );
    let submission = receipt["submission"].as_u64().unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn");
    let (status, _, err) = c.finish();
    assert!(status.success(), "{err}");
    assert_eq!(turn_kinds(&rpc), expected, "smith rpc");

    let mcp = env_with_readme();
    let mut c = Client::start_subcommand(
        &mcp,
        "mcp",
        &["-c", "model=scripted/tool-call"],
        mcp.root.path(),
    );
    c.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let r = c.result(
        "tools/call",
        json!({"name": "smith_run", "arguments": {"prompt": PROMPT}}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let (status, _, err) = c.finish();
    assert!(status.success(), "{err}");
    assert_eq!(turn_kinds(&mcp), expected, "smith mcp");
}
