//! The plugin registry through the built binary: `smith tools list`, `smith plugins list`,
//! disabling plugins, the process policy (project trust, `--allow-process`,
//! `process.allow`), and calls the registry must refuse without running anything.

mod common;

use std::path::Path;

use common::{Env, records, stderr, stdout};
use smith_store::{EffectOutcome, Record, read_session};

fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    records(out)
}

#[test]
fn tools_list_every_active_tool_as_records() {
    let env = Env::new();
    let tools = json_lines(&env.run(&["tools", "list", "--json"]));
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "read",
            "write",
            "edit",
            "ls",
            "find",
            "grep",
            "bash",
            "docs",
            "web_fetch",
            "web_search",
            "todo_write",
            "todo_read"
        ]
    );
    // Listed, but not offered until its setting is set: the record says why.
    let search = tools.iter().find(|t| t["name"] == "web_search").unwrap();
    assert!(
        search["withheld"]
            .as_str()
            .unwrap()
            .contains("plugin.web.search-url"),
        "{search}"
    );
    for t in &tools {
        assert!(
            ["files", "shell", "docs", "web", "todo"].contains(&t["plugin"].as_str().unwrap()),
            "{t}"
        );
        assert!(t["description"].as_str().unwrap().len() > 20, "{t}");
        assert_eq!(t["input_schema"]["type"], "object", "{t}");
    }
}

#[test]
fn plugins_list_every_plugin_with_its_world_grants_and_contributions() {
    let env = Env::new();
    let plugins = json_lines(&env.run(&["plugins", "list", "--json"]));
    assert_eq!(plugins.len(), 20);
    // The plan: Smith's own branch state through the plan interface, no grants.
    assert_eq!(plugins[19]["id"], "todo");
    assert_eq!(plugins[19]["grants"], serde_json::json!([]));
    assert_eq!(
        plugins[19]["tools"],
        serde_json::json!(["todo_write", "todo_read"])
    );
    // The MCP client: the tools of the servers the user added, found at run time; programs,
    // and the network only where the user allows a server's host.
    assert_eq!(plugins[18]["id"], "mcp-client");
    assert_eq!(
        plugins[18]["grants"],
        serde_json::json!(["process.exec", "net.http"])
    );
    assert_eq!(plugins[18]["tools"], serde_json::json!([]));
    assert_eq!(plugins[18]["dynamic_tools"], "mcp__");
    assert_eq!(plugins[0]["dynamic_tools"], serde_json::Value::Null);
    assert_eq!(plugins[0]["id"], "files");
    assert_eq!(plugins[0]["world"], "tool-plugin@1.9.0");
    assert_eq!(
        plugins[0]["grants"],
        serde_json::json!(["fs.read", "fs.write"])
    );
    assert_eq!(plugins[1]["id"], "shell");
    assert_eq!(plugins[1]["grants"], serde_json::json!(["process.exec"]));
    // The docs tool reads Smith's documentation and nothing else.
    assert_eq!(plugins[2]["id"], "docs");
    assert_eq!(plugins[2]["grants"], serde_json::json!(["docs.read"]));
    // The queue delivery policy is a handler plugin: no tools, no grants.
    // The web tool: network requests through the net facility, any public host.
    assert_eq!(plugins[3]["id"], "web");
    assert_eq!(plugins[3]["grants"], serde_json::json!(["net.http"]));
    assert_eq!(plugins[3]["net_hosts"], serde_json::json!(["*:*"]));
    assert_eq!(plugins[4]["id"], "queue");
    assert_eq!(plugins[4]["world"], "handler-plugin@1.9.0");
    assert_eq!(plugins[4]["handlers"], serde_json::json!(["queue-policy"]));
    assert_eq!(plugins[4]["tools"], serde_json::json!([]));
    assert_eq!(plugins[4]["grants"], serde_json::json!([]));
    // So is the secret policy: it decides where a secret's reference becomes its plaintext.
    assert_eq!(plugins[5]["id"], "secret-policy");
    assert_eq!(plugins[5]["handlers"], serde_json::json!(["secret-policy"]));
    assert_eq!(plugins[5]["grants"], serde_json::json!([]));
    // The base instructions, and the AGENTS.md context whose grant covers only those files.
    assert_eq!(plugins[6]["id"], "prompt");
    assert_eq!(plugins[6]["handlers"], serde_json::json!(["prompt"]));
    assert_eq!(plugins[6]["grants"], serde_json::json!([]));
    assert_eq!(plugins[7]["id"], "agents-md");
    assert_eq!(plugins[7]["handlers"], serde_json::json!(["context"]));
    assert_eq!(plugins[7]["grants"], serde_json::json!(["context.read"]));
    // The compaction ask: a handler with no grants.
    assert_eq!(plugins[8]["id"], "compaction");
    assert_eq!(plugins[8]["handlers"], serde_json::json!(["compaction"]));
    assert_eq!(plugins[8]["grants"], serde_json::json!([]));
    // The working-tree history: snapshots through the vcs facility, nothing else.
    assert_eq!(plugins[9]["id"], "history");
    assert_eq!(plugins[9]["handlers"], serde_json::json!(["history"]));
    assert_eq!(plugins[9]["grants"], serde_json::json!(["vcs.snapshot"]));
    // The provider codecs: no tools, no grants; their provider, default URL and key variable.
    assert_eq!(plugins[11]["id"], "anthropic");
    assert_eq!(plugins[11]["world"], "provider-plugin@1.9.0");
    assert_eq!(plugins[11]["provider"]["api_key_env"], "ANTHROPIC_API_KEY");
    assert_eq!(plugins[11]["provider"]["api_key_required"], true);
    // The product layer: commands, key bindings, themes; no grants.
    assert_eq!(plugins[15]["id"], "product");
    assert_eq!(plugins[15]["world"], "product-plugin@1.9.0");
    assert_eq!(plugins[15]["grants"], serde_json::json!([]));
    // The permission policy: tool and effect events, no grants.
    assert_eq!(plugins[16]["id"], "permissions");
    assert_eq!(plugins[16]["world"], "policy-plugin@1.9.0");
    assert_eq!(plugins[16]["handlers"], serde_json::json!(["permissions"]));
    assert_eq!(plugins[16]["grants"], serde_json::json!([]));
    // The user's hooks: a policy handler that runs programs, and only those.
    assert_eq!(plugins[17]["id"], "hooks");
    assert_eq!(plugins[17]["world"], "policy-plugin@1.9.0");
    assert_eq!(plugins[17]["handlers"], serde_json::json!(["hooks"]));
    assert_eq!(plugins[17]["grants"], serde_json::json!(["process.exec"]));
    let ids: Vec<&str> = plugins[10..15]
        .iter()
        .map(|p| p["provider"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "scripted",
            "anthropic",
            "openai",
            "google",
            "openai-compatible"
        ]
    );
    // The scripted provider is a codec too; its transport plays scripts, offline.
    assert_eq!(plugins[10]["provider"]["base_url"], "script:");
    assert_eq!(plugins[14]["provider"]["api_key_required"], false);
    assert!(
        plugins
            .iter()
            .all(|p| p["state"] == "active" && p["version"] == "0.1.0")
    );
    // The readable forms name the same things.
    let text = stdout(&env.run(&["tools", "list"]));
    assert!(
        text.lines().filter(|l| !l.starts_with(' ')).count() == 12
            && text.contains("bash  (shell)"),
        "{text}"
    );
    // In this untrusted directory bash is offered: each program is asked first. Only
    // web_search is not, for want of its endpoint.
    let withheld: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("not offered here"))
        .collect();
    assert!(
        withheld.len() == 1 && withheld[0].contains("plugin.web.search-url"),
        "{text}"
    );
    let text = stdout(&env.run(&["-c", "process.allow=false", "tools", "list"]));
    assert!(
        text.contains(
            "  not offered here: running programs is switched off: process.allow is false"
        ),
        "{text}"
    );
    let text = stdout(&env.run(&["plugins", "list"]));
    assert!(
        text.contains("shell 0.1.0")
            && text.contains("active")
            && text.contains(
                "queue 0.1.0  handler-plugin@1.9.0  [no grants]  active  handlers: queue-policy"
            )
            && text.contains("web 0.1.0  tool-plugin@1.9.0  [net.http (hosts *:*)]  active")
            // The hooks are the user's programs, run unasked: the list says so, not "asked".
            && text.contains(
                "hooks 0.1.0  policy-plugin@1.9.0  [process.exec]  active  handlers: hooks\n  runs the hooks you configure (0 now;"
            ),
        "{text}"
    );
    // In an untrusted directory the list says each program is asked first, and why.
    assert!(
        text.contains("process.exec is asked first here: this project is not trusted"),
        "{text}"
    );
    assert_eq!(plugins[1]["asked_grants"][0]["grant"], "process.exec");
    assert!(
        plugins[1]["asked_grants"][0]["why"]
            .as_str()
            .unwrap()
            .contains("smith trust")
    );
    assert!(plugins[0].get("asked_grants").is_none());
    let off = json_lines(&env.run(&["plugins", "list", "--json", "-c", "process.allow=false"]));
    assert_eq!(off[1]["refused_grants"][0]["grant"], "process.exec");
    let allowed = json_lines(&env.run(&["plugins", "list", "--json", "--allow-process"]));
    assert!(allowed[1].get("refused_grants").is_none(), "{}", allowed[1]);
}

#[test]
fn disabled_plugins_contribute_nothing_by_flag_or_setting() {
    let env = Env::new();
    let out = env.run(&["plugins", "list", "--json", "--disable-plugin", "shell"]);
    let plugins = json_lines(&out);
    assert_eq!(plugins[1]["state"], "disabled");
    assert!(
        plugins[1]["disabled_by"]
            .as_str()
            .unwrap()
            .contains("--disable-plugin shell"),
        "{}",
        plugins[1]
    );
    let tools = json_lines(&env.run(&["tools", "list", "--json", "--disable-plugin", "shell"]));
    assert!(tools.iter().all(|t| t["name"] != "bash"));
    // Every tool-contributing plugin disabled: no tool remains.
    let out = env.run(&[
        "tools",
        "list",
        "--json",
        "--disable-plugin",
        "files",
        "--disable-plugin",
        "shell",
        "--disable-plugin",
        "docs",
        "--disable-plugin",
        "web",
        "--disable-plugin",
        "todo",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    // The setting does the same, and says where it came from.
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "plugins {\n  files {\n    enabled #false\n  }\n}\n",
    )
    .unwrap();
    let plugins = json_lines(&env.run(&["plugins", "list", "--json"]));
    assert_eq!(plugins[0]["state"], "disabled");
    assert!(
        plugins[0]["disabled_by"]
            .as_str()
            .unwrap()
            .contains("config.kdl"),
        "{}",
        plugins[0]
    );
    let tools = json_lines(&env.run(&["tools", "list", "--json"]));
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "bash",
            "docs",
            "web_fetch",
            "web_search",
            "todo_write",
            "todo_read"
        ]
    );
    // A flag naming no plugin is a usage error that lists the known ones.
    let out = env.run(&["tools", "list", "--disable-plugin", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nope") && stderr(&out).contains("files, shell"),
        "{}",
        stderr(&out)
    );
}

fn script(env: &Env, name: &str, tool: &str, arguments: &str) -> std::path::PathBuf {
    env.write(
        name,
        &format!(
            "round {{\n  tool-call id=\"c1\" name=\"{tool}\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
        ),
    )
}

/// Run `script` in `dir` with extra `flags`; the tool result's output and error flag, and
/// the session's entries.
fn eval_in(
    env: &Env,
    dir: &Path,
    script: &Path,
    flags: &[&str],
) -> (String, bool, Vec<smith_store::Entry>) {
    let mut args = vec!["eval", "--json", "-m", "scripted/t", "--script"];
    args.push(script.to_str().unwrap());
    args.extend_from_slice(flags);
    args.push("go");
    let out = env.command(&args).current_dir(dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = json_lines(&out);
    let end = recs
        .iter()
        .find(|r| r["type"] == "tool_end")
        .unwrap_or_else(|| panic!("no tool_end in {recs:?}"));
    let session = recs[0]["session"].as_str().unwrap();
    let path = env.sessions().join(format!("{session}.smith"));
    let entries = read_session(&path).unwrap().entries;
    (
        end["output"].as_str().unwrap().to_owned(),
        end["is_error"] == true,
        entries,
    )
}

fn effect_outcomes(entries: &[smith_store::Entry]) -> Vec<EffectOutcome> {
    entries
        .iter()
        .filter_map(|e| match &e.record {
            // The history plugin's snapshots around the batch are not the tool's.
            Record::EffectCompletion(c) if !c.effect_id.contains("/vcs-") => Some(c.outcome),
            _ => None,
        })
        .collect()
}

/// The tool result's entry is paired with the message entry holding the call.
fn assert_paired(entries: &[smith_store::Entry]) {
    let result = entries
        .iter()
        .find(|e| matches!(e.record, Record::ToolResult(_)))
        .expect("a tool result is recorded");
    let call = entries
        .iter()
        .find(|e| Some(e.id) == result.pair)
        .expect("the result names its call's entry");
    let Record::Message(m) = &call.record else {
        panic!("the result pairs with a message, not {:?}", call.record)
    };
    assert!(format!("{m:?}").contains("c1"));
}

#[test]
fn bash_asks_in_an_untrusted_project_and_runs_after_smith_trust() {
    let env = Env::new();
    let project = env.root.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let s = script(
        &env,
        "bash.kdl",
        "bash",
        r#"{"command": "echo ran > made.txt; echo ran"}"#,
    );

    // Untrusted, each program is asked first; eval answers no question, so the program is
    // refused, the refusal recorded as the effect's outcome, and the run ends normally.
    let (output, is_error, entries) = eval_in(&env, &project, &s, &[]);
    assert!(is_error, "{output}");
    assert!(
        output.contains("asks before this runs, and it was not allowed"),
        "{output}"
    );
    assert!(!project.join("made.txt").exists());
    // The question nobody could answer, then the program it kept from running.
    assert_eq!(
        effect_outcomes(&entries),
        [EffectOutcome::NotApplied, EffectOutcome::NotApplied]
    );
    assert_paired(&entries);

    // --allow-process allows it for one run without trusting the project.
    let (output, is_error, entries) = eval_in(&env, &project, &s, &["--allow-process"]);
    assert!(!is_error && output.starts_with("ran\n"), "{output}");
    assert_eq!(effect_outcomes(&entries), [EffectOutcome::Unknown]);
    std::fs::remove_file(project.join("made.txt")).unwrap();

    let trust = env
        .command(&["trust", project.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(trust.status.code(), Some(0), "{}", stderr(&trust));
    let (output, is_error, _) = eval_in(&env, &project, &s, &[]);
    assert!(!is_error, "{output}");
    assert!(output.contains("exit status 0"), "{output}");
    assert_eq!(
        std::fs::read_to_string(project.join("made.txt")).unwrap(),
        "ran\n"
    );

    // process.allow=false switches it off even in a trusted project.
    let (output, is_error, _) = eval_in(&env, &project, &s, &["-c", "process.allow=false"]);
    assert!(
        is_error && output.contains("process.allow is false"),
        "{output}"
    );
}

#[test]
fn the_removed_process_confirm_setting_is_refused_naming_its_replacement() {
    let env = Env::new();
    // From a flag: nothing runs, and the error says what replaced it.
    let out = env
        .command(&[
            "eval",
            "-c",
            "process.confirm=true",
            "-m",
            "scripted/demo",
            "hi",
        ])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(
        err.contains("unknown setting `process.confirm`")
            && err.contains("removed")
            && err.contains("permissions.mode"),
        "{err}"
    );
    // From the user's file: `config check` names it, with the same replacement.
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(env.home().join("config.kdl"), "process.confirm #true\n").unwrap();
    let out = env.command(&["config", "check"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        said.contains("process.confirm") && said.contains("permissions.mode \"ask\""),
        "{said}"
    );
}

#[test]
fn calls_to_inactive_tools_or_with_bad_arguments_get_a_paired_error_and_no_effect() {
    let env = Env::new();
    let dir = env.root.path();
    std::fs::write(dir.join("notes.txt"), "hello\n").unwrap();

    // A disabled plugin's tool is not active: the call is answered, nothing runs.
    let s = script(&env, "read.kdl", "read", r#"{"path": "notes.txt"}"#);
    let (output, is_error, entries) = eval_in(
        &env,
        dir,
        &s,
        &["--disable-plugin", "files", "--allow-process"],
    );
    assert!(
        is_error && output.contains("unknown tool `read`"),
        "{output}"
    );
    assert!(
        output.contains("bash"),
        "the active tools are named: {output}"
    );
    assert_eq!(effect_outcomes(&entries), []);
    assert!(
        !entries
            .iter()
            .any(|e| matches!(e.record, Record::EffectIntent(_)))
    );
    assert_paired(&entries);

    // With every tool plugin disabled the model is offered no tools at all.
    let (output, _, entries) = eval_in(
        &env,
        dir,
        &s,
        &[
            "--disable-plugin",
            "files",
            "--disable-plugin",
            "shell",
            "--disable-plugin",
            "docs",
            "--disable-plugin",
            "web",
            "--disable-plugin",
            "todo",
        ],
    );
    assert!(output.contains("active tools: none"), "{output}");
    assert_paired(&entries);

    // Arguments that fail the tool's schema are refused before any effect.
    for (name, arguments) in [
        ("read", r#"{"path": 5}"#),
        ("read", r#"{"path": "notes.txt", "offset": 0}"#),
        ("grep", r#"{"pattern": ""}"#),
        (
            "bash",
            r#"{"command": "touch x", "timeout_seconds": 100000}"#,
        ),
        ("find", r#"{"pattern": "*", "surprise": true}"#),
    ] {
        let s = script(&env, "bad.kdl", name, arguments);
        let (output, is_error, entries) = eval_in(&env, dir, &s, &["--allow-process"]);
        assert!(
            is_error && output.contains("do not match its input schema"),
            "{name} {arguments}: {output}"
        );
        // (The history plugin's snapshots around the batch are its own, not the tool's.)
        assert!(
            !entries
                .iter()
                .any(|e| matches!(&e.record, Record::EffectIntent(i) if i.tool != "history")),
            "{name} {arguments}"
        );
        assert_paired(&entries);
    }
    assert!(!dir.join("x").exists());
}

#[test]
fn find_and_grep_tools_answer_a_scripted_model_from_the_working_directory() {
    let env = Env::new();
    let dir = env.root.path().join("work");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/a.rs"), "fn needle() {}\n").unwrap();
    std::fs::create_dir(dir.join(".git")).unwrap();
    std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    std::fs::create_dir(dir.join("build")).unwrap();
    std::fs::write(dir.join("build/a.rs"), "fn needle() {}\n").unwrap();
    let s = script(&env, "grep.kdl", "grep", r#"{"pattern": "needle"}"#);
    let (output, is_error, entries) = eval_in(&env, &dir, &s, &[]);
    assert!(!is_error, "{output}");
    assert_eq!(output, "src/a.rs:1:fn needle() {}");
    assert_eq!(effect_outcomes(&entries), [EffectOutcome::Applied]);
    let s = script(
        &env,
        "find.kdl",
        "find",
        r#"{"pattern": "*.rs", "no_ignore": true}"#,
    );
    let (output, _, _) = eval_in(&env, &dir, &s, &[]);
    assert_eq!(output, "build/a.rs\nsrc/a.rs");
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_bash_call_stops_its_processes_and_records_the_outcome() {
    let env = Env::new();
    let dir = env.root.path();
    // The command announces itself through a file, then waits in a grandchild.
    let s = script(
        &env,
        "slow.kdl",
        "bash",
        r#"{"command": "touch begun; (sleep 4201.1; echo never) ; echo never"}"#,
    );
    let child = env
        .command(&[
            "eval",
            "--json",
            "--allow-process",
            "-m",
            "scripted/slow",
            "--script",
            s.to_str().unwrap(),
            "go",
        ])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_for(&dir.join("begun"));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let recs = records(&out);
    let end = recs.iter().find(|r| r["type"] == "tool_end").unwrap();
    assert_eq!(end["is_error"], true);
    assert!(
        end["output"].as_str().unwrap().contains("cancelled"),
        "{end}"
    );
    assert!(!end["output"].as_str().unwrap().contains("never"), "{end}");
    assert_eq!(recs.last().unwrap()["stop_reason"], "aborted");
    // No process of the command is left.
    let survivors: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains("4201.1"))
        .collect();
    assert_eq!(survivors, Vec::<String>::new());
    // The effect is recorded as unknown, with the cancellation as evidence.
    let session = recs[0]["session"].as_str().unwrap();
    let entries = read_session(&env.sessions().join(format!("{session}.smith")))
        .unwrap()
        .entries;
    let completion = entries
        .iter()
        .find_map(|e| match &e.record {
            Record::EffectCompletion(c) if !c.effect_id.contains("/vcs-") => Some(c),
            _ => None,
        })
        .unwrap();
    assert_eq!(completion.outcome, EffectOutcome::Unknown);
    assert_eq!(completion.evidence["cancelled"], true);
    // The abort request is itself recorded, paired with the submission, before the work's end.
    let submission = entries
        .iter()
        .find(|e| matches!(e.record, Record::Submission(_)))
        .unwrap()
        .id;
    let abort = entries
        .iter()
        .position(|e| matches!(e.record, Record::Abort(_)))
        .expect("an abort record");
    assert_eq!(entries[abort].pair, Some(submission));
    let end = entries
        .iter()
        .position(|e| matches!(e.record, Record::RunEnd(_)))
        .unwrap();
    assert!(abort < end, "the request precedes the settlement");
    assert_eq!(entries[end].pair, Some(submission));
}

#[test]
fn process_settings_are_set_with_config_set_and_bad_ones_are_refused() {
    let env = Env::new();
    let project = env.root.path().join("p");
    std::fs::create_dir(&project).unwrap();
    let set = env.run(&["config", "set", "process.allow", "true"]);
    assert_eq!(set.status.code(), Some(0), "{}", stderr(&set));
    let s = script(&env, "bash.kdl", "bash", r#"{"command": "echo allowed"}"#);
    let (output, is_error, _) = eval_in(&env, &project, &s, &[]);
    assert!(!is_error && output.starts_with("allowed\n"), "{output}");
    // A variable list that names no variables is a usage error naming the setting.
    let out = env
        .command(&[
            "eval",
            "-m",
            "scripted/demo",
            "-c",
            "process.pass-env=FOO BAR",
            "hi",
        ])
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("process.pass-env") && stderr(&out).contains("`FOO BAR`"),
        "{}",
        stderr(&out)
    );
    assert!(
        env.session_files().len() == 1,
        "nothing was run for the refused command"
    );
}
