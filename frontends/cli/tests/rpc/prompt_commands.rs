//! Prompt commands over the protocol: Markdown files in the trusted project's
//! `.smith/commands/` and the user's `commands/` listed beside the plugins' commands, run by
//! `commands.run` as a submission with the arguments put in; the bundled `/init` writes an
//! `AGENTS.md` that `smith undo` takes back; and the files that cannot be commands are
//! skipped with notices naming file and line.

use serde_json::{Value, json};

use crate::client::Client;
use crate::common::{Env, stderr};

const INIT_SCRIPT: &str = r###"round {
  tool-call id="c1" name="write" arguments=##"{"path": "AGENTS.md", "content": "# Agents\n\nRun `make test`.\n"}"##
  stop "tool_use"
}
round {
  text "wrote AGENTS.md"
  stop "end_turn"
}
"###;

fn notices(listed: &Value) -> Vec<String> {
    listed["notices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_owned())
        .collect()
}

/// The session's recorded entries, as text.
fn entries(c: &mut Client, session: &str) -> String {
    c.result("session.entries", json!({"session": session}))
        .to_string()
}

#[test]
fn prompt_commands_are_listed_expanded_submitted_and_bad_files_named() {
    let env = Env::new();
    let dir = env.root.path().join("project");
    let commands = dir.join(".smith").join("commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(
        commands.join("fix.md"),
        "---\ndescription: Fix an issue\nargument-hint: \"[issue] [area]\"\nallowed-tools: Bash(git:*)\n---\nFix issue $1 in $2. All: $ARGUMENTS\n",
    )
    .unwrap();
    std::fs::write(commands.join("Bad Name.md"), "text").unwrap();
    std::fs::write(
        commands.join("broken.md"),
        "---\ndescription: x\nnot a key\n---\nbody\n",
    )
    .unwrap();
    std::fs::write(commands.join("latin1.md"), b"caf\xe9\n").unwrap();
    // A plugin's command name: the plugin keeps it.
    std::fs::write(commands.join("theme.md"), "Pick a theme.").unwrap();
    let user = env.home().join("commands");
    std::fs::create_dir_all(&user).unwrap();
    // The project's holds the name first.
    std::fs::write(user.join("fix.md"), "the user's fix").unwrap();
    std::fs::write(user.join("hello.md"), "# Say hello\nSay hello to $1.").unwrap();

    // Not trusted: the project's files are not read, and the notice says so.
    let mut c = Client::start_in(&env, &[], &dir);
    let listed = c.result("commands.list", json!({}));
    let names: Vec<&str> = listed["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"hello") && names.contains(&"fix"),
        "{listed}"
    );
    assert!(
        notices(&listed)
            .iter()
            .any(|n| n.contains("were not read: the project") && n.contains("is not trusted")),
        "{listed}"
    );
    let fix = c.result("commands.list", json!({}))["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "fix")
        .cloned()
        .unwrap();
    assert_eq!(fix["action"]["prompt"]["origin"], "user", "{fix}");
    c.finish();

    let out = env.command(&["trust"]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let mut c = Client::start_in(&env, &[], &dir);
    let listed = c.result("commands.list", json!({}));
    let all = listed["commands"].as_array().unwrap();
    let find = |name: &str| {
        all.iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} in {listed}"))
    };
    let fix = find("fix");
    assert_eq!(fix["usage"], "/fix [issue] [area]");
    assert_eq!(fix["summary"], "Fix an issue");
    assert_eq!(fix["plugin"], json!(null));
    assert_eq!(fix["action"]["prompt"]["origin"], "project", "{fix}");
    assert!(
        fix["action"]["prompt"]["path"]
            .as_str()
            .unwrap()
            .ends_with(".smith/commands/fix.md")
    );
    assert_eq!(find("hello")["summary"], "Say hello");
    assert_eq!(find("hello")["usage"], "/hello [ARGUMENTS]");
    assert_eq!(find("init")["action"]["prompt"]["origin"], "bundled");
    assert_eq!(find("review")["action"]["prompt"]["origin"], "bundled");
    assert_eq!(
        find("theme")["plugin"],
        "product",
        "the plugin keeps /theme"
    );

    let notices = notices(&listed);
    let said = |needle: &str| {
        assert!(
            notices.iter().any(|n| n.contains(needle)),
            "`{needle}` in {notices:#?}"
        );
    };
    said("Bad Name.md is skipped: `Bad Name` cannot be a command name");
    said("broken.md:3 is skipped: `not a key` is not `key: value`");
    said("latin1.md:1 is skipped: it is not UTF-8 text");
    said("theme.md: command `/theme` is not registered: plugin product has it");
    said("commands/fix.md: command `/fix` is not registered: project command file");

    // Run: the text with the arguments put in is the session's input.
    let s = c.create();
    let receipt = c.result(
        "commands.run",
        json!({"command": "fix", "session": s, "model": "scripted/demo", "arguments": {"arguments": "42 \"the lexer\""}}),
    );
    let submission = receipt["submission"].as_u64().expect("a receipt");
    c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    let recorded = entries(&mut c, &s);
    assert!(
        recorded.contains(r#"Fix issue 42 in the lexer. All: 42 \"the lexer\""#),
        "{recorded}"
    );
    // A prompt command needs a session to go to.
    let nowhere = c.error("commands.run", json!({"command": "hello"}));
    assert_eq!(nowhere["data"]["field"], "session", "{nowhere}");

    // /init writes AGENTS.md through the write tool; undo takes it back.
    let script = env.write("init.kdl", INIT_SCRIPT);
    let receipt = c.result(
        "commands.run",
        json!({"command": "init", "session": s, "model": "scripted/init", "script": script}),
    );
    c.result(
        "session.wait",
        json!({"session": s, "submission": receipt["submission"]}),
    );
    assert!(entries(&mut c, &s).contains("Write an `AGENTS.md` file"));
    let agents = dir.join("AGENTS.md");
    assert_eq!(
        std::fs::read_to_string(&agents).unwrap(),
        "# Agents\n\nRun `make test`.\n"
    );
    c.finish();
    let out = env
        .command(&["undo", "--session", &s])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!agents.exists(), "undo takes AGENTS.md back");
}
