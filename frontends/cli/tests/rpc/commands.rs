//! `commands.list` and `commands.run`: the product layer's commands over the protocol through
//! one static pair of methods. A verb is carried out by the method it maps to (its result,
//! its refusals); a plugin's handler answers with intents; terminal UI actions and bad
//! arguments are refused as error objects that change nothing.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::Env;

const SCRIPT: &str = r##"round {
  tool-call id="c1" name="write" arguments=#"{"path": "a.txt", "content": "changed\n"}"#
  stop "tool_use"
}
round {
  text "written"
  stop "end_turn"
}
"##;

#[test]
fn commands_are_listed_and_run_through_the_verbs_methods() {
    let env = Env::new();
    let dir = env.root.path().join("project");
    std::fs::create_dir_all(dir.join(".smith")).unwrap();
    let file = dir.join("a.txt");
    std::fs::write(&file, "original\n").unwrap();
    let script = env.write("write.kdl", SCRIPT);
    let mut c = Client::start_in(&env, &[], &dir);

    let listed = c.result("commands.list", json!({}));
    assert_eq!(listed["notices"], json!([]), "{listed}");
    let commands = listed["commands"].as_array().unwrap();
    let find = |name: &str| {
        commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} in {listed}"))
    };
    assert_eq!(find("new")["plugin"], json!(null), "Smith's own");
    assert_eq!(find("undo")["plugin"], "product");
    assert_eq!(find("undo")["action"], json!({"verb": "undo"}));
    assert_eq!(find("model")["usage"], "/model MODEL [THINKING]");
    assert_eq!(find("model")["arguments"][0]["kind"], "model");
    assert_eq!(find("theme")["action"], json!({"handler": true}));
    assert_eq!(find("help")["action"], json!({"key": "help"}));

    // A turn that writes the file, then /undo by command: history.undo's own result.
    let s = c.create();
    let receipt = c.result(
        "session.submit",
        json!({"session": s, "input": "write it", "model": "scripted/cmd", "script": script}),
    );
    let submission = receipt["submission"].as_u64().unwrap();
    c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "changed\n");
    let undone = c.result("commands.run", json!({"command": "undo", "session": s}));
    assert_eq!(undone["op"], "undo", "{undone}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "original\n");
    // Its refusal is history.undo's: nothing left to undo.
    let nothing = c.error("commands.run", json!({"command": "undo", "session": s}));
    assert_eq!(nothing["code"], -32010, "{nothing}");
    let redone = c.result("commands.run", json!({"command": "redo", "session": s}));
    assert_eq!(redone["op"], "redo", "{redone}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "changed\n");
    // /diff by command: history.diff's result, the latest change.
    let diff = c.result("commands.run", json!({"command": "diff", "session": s}));
    assert!(
        diff["patch"].as_str().unwrap().contains("+changed"),
        "{diff}"
    );
    // /export and the branches picker have no method: refused, naming what does it.
    let export = c.error("commands.run", json!({"command": "export", "session": s}));
    assert_eq!(export["code"], -32005, "{export}");
    assert!(
        export["message"]
            .as_str()
            .unwrap()
            .contains("session.entries"),
        "{export}"
    );
    let branches = c.error("commands.run", json!({"command": "branches"}));
    assert_eq!(branches["data"]["method"], "session.entries", "{branches}");

    // A handler command answers with its intents.
    let themed = c.result(
        "commands.run",
        json!({"command": "theme", "arguments": {"name": "light"}}),
    );
    assert_eq!(
        themed,
        json!({"intents": [{"type": "set_theme", "name": "light"}]})
    );
    // A theme that is not one is refused, not passed on.
    let nosuch = c.error(
        "commands.run",
        json!({"command": "theme", "arguments": {"name": "nosuch"}}),
    );
    assert_eq!(nosuch["code"], -32005, "{nosuch}");
    assert!(
        nosuch["message"]
            .as_str()
            .unwrap()
            .contains("known dark, light, none"),
        "{nosuch}"
    );
    // A picker answers with its listing.
    let models = c.result("commands.run", json!({"command": "models"}));
    assert_eq!(models["picker"], "models");
    assert!(
        models["models"].as_array().is_some_and(|m| !m.is_empty()),
        "{models}"
    );

    // Refusals: each names what is wrong, and nothing changes.
    let unknown = c.error("commands.run", json!({"command": "modle"}));
    assert_eq!(unknown["code"], -32004);
    assert_eq!(unknown["data"]["did_you_mean"][0], "model", "{unknown}");
    let long = c.error("commands.run", json!({"command": "x".repeat(100_000)}));
    assert!(
        long["message"].as_str().unwrap().len() < 400,
        "a long name is not echoed whole"
    );
    let missing = c.error("commands.run", json!({"command": "restore", "session": s}));
    assert_eq!(missing["code"], -32602);
    assert_eq!(missing["data"]["field"], "arguments.target", "{missing}");
    let typed = c.error(
        "commands.run",
        json!({"command": "undo", "session": s, "arguments": {"turn": "yes"}}),
    );
    assert_eq!(typed["code"], -32602, "{typed}");
    let no_session = c.error("commands.run", json!({"command": "undo"}));
    assert_eq!(no_session["data"]["field"], "session", "{no_session}");
    let key = c.error("commands.run", json!({"command": "help"}));
    assert_eq!(key["code"], -32005);
    assert!(
        key["message"]
            .as_str()
            .unwrap()
            .contains("terminal UI action"),
        "{key}"
    );
    let unmapped = c.error(
        "commands.run",
        json!({"command": "model", "arguments": {"model": "scripted/demo"}}),
    );
    assert!(
        unmapped["message"]
            .as_str()
            .unwrap()
            .contains("session.submit"),
        "{unmapped}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "changed\n");

    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}

/// `/cost` and `/status` ask the runtime through the product plugin: the figures are the
/// session's own (`session.usage`'s), the plugins are the registry's.
#[test]
fn cost_and_status_report_what_the_session_and_the_registry_say() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let receipt = c.result(
        "session.submit",
        json!({"session": s, "input": "hi", "model": "scripted/demo"}),
    );
    c.result(
        "session.wait",
        json!({"session": s, "submission": receipt["submission"]}),
    );
    let usage = c.result("session.usage", json!({"session": s}));
    let cost = c.result("commands.run", json!({"command": "cost", "session": s}));
    let text = cost["intents"][0]["text"].as_str().unwrap();
    let total = &usage["total"];
    assert!(
        text.starts_with(&format!(
            "cost: $0 · {} response over 1 attempt · input {} · output {}",
            total["responses"], total["input"], total["output"]
        )),
        "{text} vs {usage}"
    );
    assert!(
        text.contains("\n  scripted/demo: $0 · 1 response ·"),
        "{text}"
    );
    // Without a session open there is nothing to account: the plugin says so.
    let none = c.error("commands.run", json!({"command": "cost"}));
    assert!(
        none["message"]
            .as_str()
            .unwrap()
            .contains("no usage to show"),
        "{none}"
    );
    let status = c.result("commands.run", json!({"command": "status", "session": s}));
    let text = status["intents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("status: session {s}")), "{text}");
    assert!(text.contains("permission mode: auto-edit"), "{text}");
    assert!(
        text.contains("plugins (20):")
            && text.contains("\n    todo 0.1.0 (tool-plugin@1.9.0) enabled"),
        "{text}"
    );
    assert!(text.contains("MCP servers: none added"), "{text}");
    c.finish();
}

/// `/mcp reconnect NAME` over `commands.run`: the server's program kept for the session is
/// stopped and its listing forgotten, so the next turn starts and lists it afresh; a server
/// nobody added or declared is refused by name.
#[cfg(unix)]
#[test]
fn mcp_reconnect_stops_the_servers_program_and_the_next_turn_lists_it_afresh() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap().join("work");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "through the server\n").unwrap();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        format!(
            "mcp {{\n  server \"inner\" {{\n    command \"{}\"\n    args \"mcp\"\n    env {{ SMITH_HOME \"{}\" }}\n  }}\n}}\n",
            env!("CARGO_BIN_EXE_smith"),
            dir.join(".inner").display()
        ),
    )
    .unwrap();
    let script = env.write(
        "read.kdl",
        "round {\n  tool-call id=\"r\" name=\"mcp__inner__read\" arguments=#\"{\"path\":\"notes.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"read\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start_in(&env, &["--allow-process"], &dir);
    let s = c.create();
    let turn = |c: &mut Client| {
        let receipt = c.result(
            "session.submit",
            json!({"session": s, "input": "read", "model": "scripted/t", "script": script}),
        );
        c.result(
            "session.wait",
            json!({"session": s, "submission": receipt["submission"]}),
        );
    };
    turn(&mut c);
    let reconnect = |c: &mut Client, server: &str| {
        c.call(
            "commands.run",
            json!({"command": "mcp", "session": s, "arguments": {"action": "reconnect", "server": server}}),
        )
    };
    let done = reconnect(&mut c, "inner");
    let text = done["result"]["intents"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.contains("MCP server `inner` reconnected: its program was stopped"),
        "{done}"
    );
    // Stopped already: nothing to stop, and said so.
    let again = reconnect(&mut c, "inner");
    let text = again["result"]["intents"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("its program was not running"), "{again}");
    let unknown = reconnect(&mut c, "nope");
    let message = unknown["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("no MCP server is named `nope`") && message.contains("/mcp lists"),
        "{unknown}"
    );
    turn(&mut c);
    c.finish();
    // The second turn listed the server again: each turn started it under discovery, and
    // both calls were answered by it.
    let mut get = env.command(&["sessions", "get", &s]);
    get.current_dir(&dir);
    let entries = crate::common::stdout(&get.output().unwrap());
    assert_eq!(
        entries.matches("discover/1 process.start").count(),
        2,
        "{entries}"
    );
    assert_eq!(
        entries.matches("through the server").count(),
        2,
        "{entries}"
    );
}
