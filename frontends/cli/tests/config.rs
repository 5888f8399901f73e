//! Configuration and trust against the built binary (spec SMH-SPEC-SPEC0001: Plugin system and
//! configuration → Configuration; Security — project trust).

mod common;

use common::{Env, records, stderr, stdout};

fn project(env: &Env, config: &str) -> std::path::PathBuf {
    let dir = env.root.path().join("proj");
    std::fs::create_dir_all(dir.join(".smith")).unwrap();
    std::fs::write(dir.join(".smith/config.kdl"), config).unwrap();
    dir
}

#[test]
fn show_reports_every_value_with_its_source_across_levels() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "// mine\nrun {\n    max-rounds 10\n}\nmodel \"scripted/demo\"\n",
    )
    .unwrap();
    let out = env.run(&["config", "show", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let get = |key: &str| recs.iter().find(|r| r["key"] == key).unwrap().clone();
    let user = env.home().join("config.kdl").display().to_string();
    assert_eq!(get("run.max-rounds")["value"], 10);
    assert_eq!(get("run.max-rounds")["source"], format!("{user}:3"));
    assert_eq!(get("model")["source"], format!("{user}:5"));

    let out = env
        .command(&[
            "config",
            "show",
            "run.max-rounds",
            "--json",
            "-c",
            "run.max-rounds=30",
        ])
        .env("SMITH_MAX_ROUNDS", "20")
        .output()
        .unwrap();
    let rec = &records(&out)[0];
    assert_eq!(rec["value"], 30);
    assert_eq!(rec["source"], "flag -c run.max-rounds=30");
    assert_eq!(rec["level"], "command_line");
    let overridden: Vec<_> = rec["overridden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        overridden,
        [
            "environment SMITH_MAX_ROUNDS".to_owned(),
            format!("{user}:3"),
            "default".to_owned()
        ]
    );

    let text = stdout(&env.run(&["config", "show"]));
    assert!(
        text.contains(&format!(
            "run.max-rounds = 10  # {user}:3 (overrides default)"
        )),
        "{text}"
    );
}

#[test]
fn malformed_and_invalid_configuration_names_file_line_and_field() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let file = env.home().join("config.kdl");
    std::fs::write(&file, "model \"scripted/demo\"\nrun {\n").unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:", file.display())),
        "{}",
        stderr(&out)
    );

    std::fs::write(&file, "\nrun.max-rounds 0\n").unwrap();
    let out = env.run(&["eval", "-m", "scripted/demo", "hi"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "eval refuses invalid configuration before running"
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:2: `run.max-rounds` = `0` is invalid",
            file.display()
        )),
        "{err}"
    );
    assert!(err.contains("for example"), "{err}");
    assert!(!env.sessions().exists());

    // A file's boolean is corrected with what a file takes: KDL v2's keyword, never a string
    // (which the same setting refuses).
    std::fs::write(&file, "process {\n    allow \"yes\"\n}\n").unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("for example: process.allow #true"), "{err}");
    std::fs::write(&file, "process.allow #true\n").unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // A permission rule that does not parse is named with its file, before any run.
    std::fs::write(&file, "permissions.deny \"bash(rm -rf*\"\n").unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("bash(rm -rf*") && err.contains("config.kdl") && err.contains("`)`"),
        "{err}"
    );
}

#[test]
fn an_unknown_override_key_names_the_closest() {
    let env = Env::new();
    let out = env.run(&["eval", "-c", "modle=scripted/demo", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("`modle`") && err.contains("did you mean model"),
        "{err}"
    );
}

#[test]
fn the_configured_model_is_the_default_for_eval() {
    let env = Env::new();
    let out = env.run(&["eval", "-c", "model=scripted/demo", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("You said: hello"));
    let out = env
        .command(&["eval", "hello"])
        .env("SMITH_MODEL", "scripted/tool-call")
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains("scripted/tool-call"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn untrusted_project_settings_are_skipped_until_trusted() {
    let env = Env::new();
    let dir = project(&env, "model \"scripted/tool-call\"\n");
    let show = |env: &Env| {
        env.command(&["config", "show", "model", "--json"])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let out = show(&env);
    assert!(records(&out)[0]["value"].is_null());
    let err = stderr(&out);
    assert!(
        err.contains("were skipped: the project is not trusted") && err.contains("smith trust"),
        "{err}"
    );

    let out = env
        .command(&["trust"])
        .current_dir(dir.join(".smith"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("trusted "));
    let out = show(&env);
    assert_eq!(records(&out)[0]["value"], "scripted/tool-call");
    assert!(
        records(&out)[0]["source"]
            .as_str()
            .unwrap()
            .ends_with(".smith/config.kdl:1")
    );
    assert!(out.stderr.is_empty());

    let out = env
        .command(&["trust", "--revoke", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("no longer trusted"),
        "{}",
        stdout(&out)
    );
    assert!(records(&show(&env))[0]["value"].is_null());
}

#[test]
fn config_set_keeps_a_hand_written_files_comments() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let file = env.home().join("config.kdl");
    let original = "// Hand written. Keep me.\nrun {\n    max-rounds 10 // short runs\n}\n";
    std::fs::write(&file, original).unwrap();
    let out = env.run(&["config", "set", "run.max-rounds", "12"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original.replace("10", "12")
    );
    let out = env.run(&["config", "set", "model", "scripted/demo"]);
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("// Hand written. Keep me.\n")
            && text.ends_with("model \"scripted/demo\"\n"),
        "{text}"
    );
    let out = env.run(&["config", "set", "run.max-rounds", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`lots`"));
}

#[test]
fn trust_resolves_subdirectories_and_revokes_deleted_projects() {
    let env = Env::new();
    let dir = project(&env, "model \"scripted/tool-call\"\n");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let out = env
        .command(&["trust", "sub"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let canonical = dir.canonicalize().unwrap();
    assert!(
        stdout(&out).contains(&format!("trusted {}", canonical.display())),
        "{}",
        stdout(&out)
    );
    let shown = env
        .command(&["config", "show", "model", "--json"])
        .current_dir(dir.join("sub"))
        .output()
        .unwrap();
    assert_eq!(records(&shown)[0]["value"], "scripted/tool-call");

    std::fs::remove_dir_all(&dir).unwrap();
    let out = env.run(&["trust", "--revoke", canonical.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("no longer trusted"));
}

#[test]
fn every_command_refuses_a_bad_override() {
    let env = Env::new();
    for args in [
        vec!["docs", "list"],
        vec!["trust", "--revoke", "/nonexistent"],
    ] {
        let mut full = args.clone();
        full.extend(["-c", "bogus=1"]);
        let out = env.run(&full);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("`bogus`"));
    }
}

#[test]
fn set_refuses_control_characters_and_show_cannot_be_spoofed() {
    let env = Env::new();
    let out = env.run(&["config", "set", "model", "a/\u{1b}[31mb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b));
    assert!(!env.home().join("config.kdl").exists());
    let out = env.run(&[
        "config",
        "show",
        "-c",
        "plugin.x=a\nrun.max-rounds = 999  # default",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "control characters in a value are refused"
    );
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "plugin.x \"a\\nrun.max-rounds = 999\"\n",
    )
    .unwrap();
    let text = stdout(&env.run(&["config", "show"]));
    assert!(
        !text.lines().any(|l| l.starts_with("run.max-rounds = 999")),
        "{text}"
    );
}

/// Global options given both before and after the subcommand all count, in command-line
/// order: one before `eval` is not dropped because another follows it (a dropped
/// `-c secrets.env=…` would send a secret in plaintext).
#[test]
fn global_options_before_and_after_the_subcommand_all_apply() {
    let env = Env::new();
    let out = env.run(&[
        "-c",
        "secrets.env=DEPLOY_TOKEN",
        "--disable-plugin",
        "docs",
        "config",
        "show",
        "-c",
        "run.max-rounds=3",
        "--disable-plugin",
        "shell",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("secrets.env = DEPLOY_TOKEN"), "{text}");
    assert!(text.contains("run.max-rounds = 3"), "{text}");
    assert!(text.contains("plugins.docs.enabled = false"), "{text}");
    assert!(text.contains("plugins.shell.enabled = false"), "{text}");
    // The later of two values for one key wins, wherever each was written.
    let out = env.run(&[
        "-c",
        "run.max-rounds=4",
        "config",
        "show",
        "-c",
        "run.max-rounds=5",
    ]);
    assert!(
        stdout(&out).contains("run.max-rounds = 5"),
        "{}",
        stdout(&out)
    );
}

/// The terminal UI's options before a subcommand would be ignored by it: refused, naming the
/// option and where it belongs.
#[test]
fn a_terminal_ui_option_before_a_subcommand_is_refused() {
    let env = Env::new();
    let out = env.run(&["--model", "scripted/demo", "eval", "Hello"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--model before `eval`") && err.contains("smith eval --model"),
        "{err}"
    );
    assert!(env.session_files().is_empty(), "nothing ran");
    let out = env.run(&["--continue", "sessions", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--continue before `sessions`"));
}
