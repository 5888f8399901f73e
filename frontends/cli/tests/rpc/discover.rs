//! Discovery, inspection and the catalog methods — and the check that every method the
//! OpenRPC document declares is exercised by these tests.

use serde_json::{Value, json};

use crate::client::{Client, all_protocol};
use crate::common::Env;

#[test]
fn inspection_edit_branch_and_catalog_methods_answer_from_the_file_and_the_app() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let r = c.result(
        "session.submit",
        json!({"session": s, "input": "needle in a haystack", "model": "scripted/tool-call"}),
    );
    let n = r["submission"].as_u64().unwrap();
    c.result("session.wait", json!({"session": s, "submission": n}));

    let listed = c.result("sessions.list", json!({"limit": 10}));
    assert!(
        listed["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == s),
        "{listed}"
    );
    let grep = c.result("session.grep", json!({"session": s, "pattern": "needle"}));
    assert!(!grep["matches"].as_array().unwrap().is_empty(), "{grep}");
    let bad = c.error("session.grep", json!({"session": s, "pattern": "("}));
    assert_eq!(bad["data"]["field"], "pattern");
    let usage = c.result("session.usage", json!({"session": s}));
    assert_eq!(usage["total"]["responses"], 2, "{usage}");
    let request = c.result("session.request", json!({"session": s, "attempt": "1.1.1"}));
    assert!(
        request.to_string().contains("needle in a haystack"),
        "{request}"
    );
    // Pages with a cursor cover the session without overlap.
    let first = c.result("session.entries", json!({"session": s, "limit": 5}));
    let cursor = first["page"]["next_cursor"].clone();
    let second = c.result(
        "session.entries",
        json!({"session": s, "limit": 5, "cursor": cursor}),
    );
    assert_eq!(
        second["entries"][0]["id"].as_u64().unwrap(),
        first["entries"][4]["id"].as_u64().unwrap() + 1
    );

    // A context edit: the user message is replaced in what the model sees next.
    let entries =
        c.result("session.entries", json!({"session": s, "limit": 100}))["entries"].clone();
    let user = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "message" && e["record"]["message"]["role"] == "user")
        .unwrap()["id"]
        .clone();
    let edit = c.result(
        "session.edit",
        json!({"session": s, "replace": [{"entry": user, "text": "(edited)"}]}),
    );
    assert!(edit["edit"].as_u64().is_some(), "{edit}");
    let refused = c.error("session.edit", json!({"session": s, "omit": [999]}));
    assert_eq!(refused["code"], -32005, "{refused}");
    // A bad item is named by its index, before anything is written.
    for (params, field) in [
        (json!({"session": s, "omit": [user, "x"]}), "omit[1]"),
        (
            json!({"session": s, "replace": [{"entry": user}]}),
            "replace[0].text",
        ),
        (
            json!({"session": s, "replace": [{"entry": 0, "text": "t"}]}),
            "replace[0].entry",
        ),
        (
            json!({"session": s, "replace": [{"entry": user, "text": "t", "txet": "u"}]}),
            "replace[0].txet",
        ),
    ] {
        let e = c.error("session.edit", params);
        assert_eq!(
            (e["code"].as_i64(), e["data"]["field"].as_str()),
            (Some(-32602), Some(field)),
            "{e}"
        );
    }
    let e = c.error("session.entries", json!({"session": s, "cursor": 99_999}));
    assert_eq!(e["data"]["field"], "cursor", "{e}");

    // Selecting an earlier branch, then closing; a closed session is no longer open here.
    assert_eq!(
        c.result("sessions.select", json!({"session": s, "entry": 1}))["leaf"],
        1
    );
    assert_eq!(
        c.result("sessions.close", json!({"session": s}))["closed"],
        true
    );
    assert_eq!(
        c.error("session.usage", json!({"session": s}))["code"],
        -32001
    );

    // A wait cancelled by rpc.cancel ends only the wait.
    let s2 = c.create();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"x\"\n  gate \"hold\"\n  stop \"end_turn\"\n}\n",
    );
    let r2 = c.result(
        "session.submit",
        json!({"session": s2, "input": "x", "model": "scripted/gated", "script": script}),
    );
    crate::common::wait_for(&env.root.path().join("hold.waiting"));
    let wait = c.request(
        "session.wait",
        json!({"session": s2, "submission": r2["submission"]}),
    );
    assert_eq!(
        c.result("rpc.cancel", json!({"id": wait}))["cancelled"],
        true
    );
    assert_eq!(c.response(wait)["error"]["code"], -32009);
    assert_eq!(
        c.result("rpc.cancel", json!({"id": 4242}))["cancelled"],
        false
    );
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s2, "submission": r2["submission"]}),
    );
    assert_eq!(
        settled["stop_reason"], "end_turn",
        "the cancelled wait did not touch the work"
    );

    let models = c.result("models.list", json!({}));
    assert!(
        models["models"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["provider"] == "scripted"),
        "{models}"
    );
    let tools = c.result("tools.list", json!({}));
    assert!(
        tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "read"),
        "{tools}"
    );
    let plugins = c.result("plugins.list", json!({}));
    assert!(
        plugins["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == "files"),
        "{plugins}"
    );
    let config = c.result("config.show", json!({}));
    assert!(
        config["settings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["key"] == "model"),
        "{config}"
    );
    let hits = c.result("docs.search", json!({"query": "JSON-RPC"}));
    let id = hits["hits"][0]["id"].as_str().unwrap().to_owned();
    let doc = c.result("docs.get", json!({"id": id, "limit": 3}));
    assert_eq!(doc["offset"], 1);
    assert_eq!(
        c.error("docs.get", json!({"id": "no/such/doc"}))["code"],
        -32004
    );
    // A session whose work asks nothing has no requests waiting; the session must be named.
    let e = c.error(
        "request.respond",
        json!({"request_id": "r1", "answer": true}),
    );
    assert_eq!(
        (e["code"].as_i64(), e["data"]["field"].as_str()),
        (Some(-32602), Some("session"))
    );
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

fn discover(env: &Env) -> Value {
    let mut c = Client::start(env, &[]);
    let doc = c.result("rpc.discover", json!({}));
    c.finish();
    doc
}

#[test]
fn every_method_of_the_openrpc_document_is_exercised_by_these_tests() {
    let env = Env::new();
    let doc = discover(&env);
    assert_eq!(doc["openrpc"], "1.3.2");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rpc");
    let mut sources = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        sources.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    // Whitespace out, so a call rustfmt split over lines still reads `("NAME"`.
    let sources: String = sources.chars().filter(|c| !c.is_whitespace()).collect();
    for m in doc["methods"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        // Called as `c.result("NAME"`, `c.error("NAME"`, `c.request("NAME"` or in a table.
        let called = sources.contains(&format!("(\"{name}\""));
        assert!(called, "no test calls `{name}`");
        assert!(m["params"].is_array() && m["result"].is_object(), "{m}");
    }
}

/// The OpenRPC project's own validator (`@open-rpc/schema-utils-js`), installed by `.ci/run`
/// into `SMITH_OPENRPC_VALIDATOR` (a directory with `node_modules`).
#[test]
fn the_openrpc_document_passes_the_openrpc_validator() {
    let Some(dir) = std::env::var_os("SMITH_OPENRPC_VALIDATOR") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the OpenRPC validator (.ci/run)"
        );
        return;
    };
    let env = Env::new();
    let doc = env.write("openrpc.json", &discover(&env).to_string());
    let out = std::process::Command::new("node")
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../xtask/openrpc/validate.mjs"),
        )
        .arg(&doc)
        .env("NODE_PATH", std::path::Path::new(&dir).join("node_modules"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
