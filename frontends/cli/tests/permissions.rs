//! The permission policy through the built binary: a scripted model reads, edits and runs
//! programs; what each mode and rule let through is read off the project on disk and the
//! recorded results — `eval` answers no question, so an ask is a recorded refusal.

mod common;

use std::path::{Path, PathBuf};

use common::{Env, outcome, records, stderr, tool_ends};

/// A project with a file to read and edit, and a script whose model reads, edits, then runs
/// `command` with `bash`.
struct Project {
    env: Env,
    dir: PathBuf,
    script: PathBuf,
}

impl Project {
    fn new(command: &str) -> Self {
        let env = Env::new();
        let dir = env.root.path().canonicalize().unwrap().join("p");
        std::fs::create_dir_all(dir.join(".smith")).unwrap();
        std::fs::write(dir.join("notes.txt"), "draft\n").unwrap();
        let bash = serde_json::json!({ "command": command }).to_string();
        let script = env.write(
            "calls.kdl",
            &format!(
                "round {{\n  tool-call id=\"r\" name=\"read\" arguments=#\"{{\"path\":\"notes.txt\"}}\"#\n  tool-call id=\"e\" name=\"edit\" arguments=#\"{{\"path\":\"notes.txt\",\"edits\":[{{\"old_text\":\"draft\",\"new_text\":\"final\"}}]}}\"#\n  tool-call id=\"b\" name=\"bash\" arguments=#\"{bash}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
            ),
        );
        Self { env, dir, script }
    }

    /// Run the turn with `flags`; each call's (id, is_error, output).
    fn run(&self, flags: &[&str]) -> Vec<(String, bool, String)> {
        let mut args = vec!["eval", "--json", "-m", "scripted/t", "--script"];
        args.push(self.script.to_str().unwrap());
        args.extend_from_slice(flags);
        args.push("go");
        let out = self
            .env
            .command(&args)
            .current_dir(&self.dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        tool_ends(&out)
    }

    fn notes(&self) -> String {
        std::fs::read_to_string(self.dir.join("notes.txt")).unwrap()
    }

    fn reset(&self) {
        std::fs::write(self.dir.join("notes.txt"), "draft\n").unwrap();
        let _ = std::fs::remove_file(self.dir.join("ran"));
    }

    fn ran(&self) -> bool {
        Path::new(&self.dir.join("ran")).exists()
    }
}

#[test]
fn each_mode_lets_through_what_it_says_and_eval_records_its_asks_as_refusals() {
    let p = Project::new("touch ran");
    // (mode, edit applied, program ran)
    for (mode, edited, ran) in [
        ("plan", false, false),
        ("ask", false, false),
        ("auto-edit", true, false),
        ("auto", true, true),
    ] {
        p.reset();
        let calls = p.run(&["--allow-process", "--permission-mode", mode]);
        let (read_refused, _) = outcome(&calls, "r");
        assert!(!read_refused, "{mode}: reads always run: {calls:?}");
        assert_eq!(p.notes() == "final\n", edited, "{mode}: edit {calls:?}");
        assert_eq!(p.ran(), ran, "{mode}: program {calls:?}");
        let (_, edit) = outcome(&calls, "e");
        let (_, bash) = outcome(&calls, "b");
        match mode {
            "plan" => assert!(
                edit.contains("plan mode") && bash.contains("plan mode"),
                "{calls:?}"
            ),
            "ask" => assert!(
                edit.contains("it was not allowed") && bash.contains("it was not allowed"),
                "{calls:?}"
            ),
            "auto-edit" => assert!(bash.contains("it was not allowed"), "{calls:?}"),
            _ => {}
        }
    }
}

#[test]
fn a_rule_covers_a_command_only_when_it_covers_every_part_and_deny_wins() {
    // `git status; touch ran` is not allowed by `bash(git status*)`: its second part asks.
    let p = Project::new("git status; touch ran");
    let calls = p.run(&[
        "--allow-process",
        "--permission-mode",
        "ask",
        "-c",
        "permissions.allow=bash(git status*),edit",
    ]);
    assert!(!p.ran(), "{calls:?}");
    assert_eq!(
        p.notes(),
        "final\n",
        "the `edit` rule allows the edit: {calls:?}"
    );
    let (refused, bash) = outcome(&calls, "b");
    assert!(refused && bash.contains("it was not allowed"), "{bash}");
    // Covered part by part, the command runs unasked in `ask` mode.
    p.reset();
    let calls = p.run(&[
        "--allow-process",
        "--permission-mode",
        "ask",
        "-c",
        "permissions.allow=bash(git status*),bash(touch ran)",
    ]);
    assert!(p.ran(), "{calls:?}");
    // A deny rule wins over the allow rules and the mode.
    p.reset();
    let calls = p.run(&[
        "--allow-process",
        "-c",
        "permissions.allow=bash(git status*),bash(touch ran)",
        "-c",
        "permissions.deny=bash(touch *)",
    ]);
    assert!(!p.ran(), "{calls:?}");
    let (_, bash) = outcome(&calls, "b");
    assert!(bash.contains("permissions.deny `bash(touch *)`"), "{bash}");
}

#[test]
fn an_untrusted_project_edits_without_asking_and_its_program_is_refused_exiting_0() {
    let p = Project::new("touch ran");
    let calls = p.run(&[]);
    assert_eq!(p.notes(), "final\n", "auto-edit by default: {calls:?}");
    assert!(!p.ran(), "{calls:?}");
    // The project's own settings cannot let its programs run: an untrusted project's
    // configuration is skipped, `permissions.mode "auto"` and allow rules included.
    std::fs::write(
        p.dir.join(".smith/config.kdl"),
        "permissions.mode \"auto\"\npermissions.allow \"bash\"\n",
    )
    .unwrap();
    p.reset();
    let calls = p.run(&[]);
    assert!(!p.ran(), "{calls:?}");
    let (refused, output) = outcome(&calls, "b");
    assert!(
        refused && output.contains("asks before this runs"),
        "{calls:?}"
    );
}

#[test]
fn bad_permission_settings_name_the_source_key_and_rule() {
    let env = Env::new();
    for (setting, needle) in [
        ("permissions.mode=yolo", "permissions.mode"),
        ("permissions.allow=bash(git status", "does not end with `)`"),
        ("permissions.deny=(x)", "tool name"),
        (
            "permissions.deny=Bash(touch*)",
            "names no tool any plugin has",
        ),
        ("permissions.deny=bash(rm*),,read", "empty rule"),
    ] {
        let out = env.run(&["eval", "-m", "scripted/demo", "-c", setting, "hi"]);
        assert_eq!(out.status.code(), Some(2), "{setting}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(needle) && err.contains("-c permissions."),
            "{setting}: {err}"
        );
        // `config check` says the same before any run.
        let out = env.run(&["config", "check", "-c", setting]);
        assert_eq!(out.status.code(), Some(2), "{setting}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{setting}: {}", stderr(&out));
    }
    // `config set` refuses a rule that does not parse, and writes nothing.
    let out = env.run(&["config", "set", "permissions.deny", "bash(rm -rf*"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("does not end with `)`"),
        "{}",
        stderr(&out)
    );
    assert!(!env.home().join("config.kdl").exists());
    // A rule about a tool of a switched-off plugin has nothing to match: runs go on.
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--disable-plugin",
        "shell",
        "-c",
        "permissions.deny=bash(rm -rf*),read(**/.env)",
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_mode_the_session_recorded_holds_when_eval_continues_it() {
    let p = Project::new("touch ran");
    // A session whose mode is set to plan over RPC (recorded in the session).
    let out = p
        .env
        .command(&["eval", "--json", "-m", "scripted/demo", "hi"])
        .current_dir(&p.dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();
    let requests = format!(
        "{}\n{}\n",
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "sessions.open", "params": {"session": session}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "session.set_permission_mode", "params": {"session": session, "mode": "plan"}}),
    );
    let out = p
        .env
        .command(&["rpc", "-m", "scripted/demo"])
        .current_dir(&p.dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(requests.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(r#""mode":"plan""#),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Continued by eval with programs allowed: still plan mode, so nothing is changed.
    let calls = p.run(&["--allow-process", "--session", &session]);
    let (refused, edit) = outcome(&calls, "e");
    assert!(refused && edit.contains("plan mode"), "{calls:?}");
    assert_eq!(p.notes(), "draft\n");
    assert!(!p.ran());
    // A mode this invocation names wins.
    let calls = p.run(&[
        "--allow-process",
        "--session",
        &session,
        "--permission-mode",
        "auto",
    ]);
    assert!(!outcome(&calls, "e").0, "{calls:?}");
    assert!(p.ran());
}
