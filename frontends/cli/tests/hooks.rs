//! The user's hooks through the built binary (the hooks guide): a scripted model edits a file
//! and runs a command while hooks configured in KDL check and format around the calls; what
//! they did is read off the recorded results, the session's effects and the project on disk.

mod common;

use std::path::PathBuf;

use common::{Env, outcome, stderr, tool_ends};

/// A project with a file, and a script whose model edits it, then runs `touch ran` with
/// `bash`.
struct Project {
    env: Env,
    dir: PathBuf,
    script: PathBuf,
}

impl Project {
    fn new() -> Self {
        let env = Env::new();
        let dir = env.root.path().canonicalize().unwrap().join("p");
        std::fs::create_dir_all(dir.join(".smith")).unwrap();
        std::fs::write(dir.join("notes.rs"), "draft\n").unwrap();
        let script = env.write(
            "calls.kdl",
            "round {\n  tool-call id=\"e\" name=\"edit\" arguments=#\"{\"path\":\"notes.rs\",\"edits\":[{\"old_text\":\"draft\",\"new_text\":\"final\"}]}\"#\n  tool-call id=\"b\" name=\"bash\" arguments=#\"{\"command\":\"touch ran\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
        );
        Self { env, dir, script }
    }

    /// Write the user's configuration.
    fn user_config(&self, text: &str) -> PathBuf {
        std::fs::create_dir_all(self.env.home()).unwrap();
        let file = self.env.home().join("config.kdl");
        std::fs::write(&file, text).unwrap();
        file
    }

    /// Run the turn with `flags`: the exit code, stderr, and each call's (id, is_error,
    /// output).
    fn run(&self, flags: &[&str]) -> (Option<i32>, String, Vec<(String, bool, String)>) {
        let mut args = vec!["eval", "--json", "-m", "scripted/t", "--script"];
        args.push(self.script.to_str().unwrap());
        args.push("--allow-process");
        args.extend_from_slice(flags);
        args.push("go");
        let out = self
            .env
            .command(&args)
            .current_dir(&self.dir)
            .output()
            .unwrap();
        let calls = tool_ends(&out);
        (out.status.code(), stderr(&out), calls)
    }

    /// `smith eval` (with `--json` when `json`) of the turn, programs allowed, in the project.
    fn eval(&self, json: bool) -> std::process::Command {
        let mut args = vec!["eval", "-m", "scripted/t", "--script"];
        if json {
            args.insert(1, "--json");
        }
        args.extend([self.script.to_str().unwrap(), "--allow-process", "go"]);
        let mut cmd = self.env.command(&args);
        cmd.current_dir(&self.dir);
        cmd
    }

    fn notes(&self) -> String {
        std::fs::read_to_string(self.dir.join("notes.rs")).unwrap()
    }

    fn ran(&self) -> bool {
        self.dir.join("ran").exists()
    }

    /// The recorded `process.run` effects of the hooks: (effect id, tool, outcome output).
    fn hook_runs(&self) -> Vec<(String, String, String)> {
        let file = self.env.session_files().remove(0);
        let session = smith_store::read_session(&file).unwrap();
        let entries = &session.entries;
        entries
            .iter()
            .filter_map(|e| match &e.record {
                smith_store::Record::EffectCompletion(c) => {
                    let intent = entries.iter().find(|i| Some(i.id) == e.pair)?;
                    let smith_store::Record::EffectIntent(i) = &intent.record else {
                        return None;
                    };
                    (i.tool == "hooks").then(|| {
                        (
                            i.effect_id.clone(),
                            i.tool.clone(),
                            String::from_utf8_lossy(&c.output).into_owned(),
                        )
                    })
                }
                _ => None,
            })
            .collect()
    }
}

#[test]
fn a_before_tool_hook_refuses_a_command_with_its_reason_and_lets_the_others_run() {
    let p = Project::new();
    let config = p.user_config(
        "hooks {\n    no-touch {\n        before-tool \"bash\"\n        run \"case \\\"$SMITH_TOOL_INPUT\\\" in *touch*) echo 'touching files is not allowed here' >&2; exit 2;; esac\"\n    }\n}\n",
    );
    let (code, err, calls) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (refused, bash) = outcome(&calls, "b");
    assert!(refused, "{calls:?}");
    assert!(
        bash.contains("hook `no-touch`")
            && bash.contains("exited with status 2: touching files is not allowed here")
            && bash.contains(&format!("{}:4", config.display())),
        "{bash}"
    );
    assert!(!p.ran(), "the refused command did not run");
    // The edit matched no hook: it ran, and no hook ran for it.
    assert_eq!(p.notes(), "final\n");
    let runs = p.hook_runs();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert!(runs[0].0.ends_with("b/hooks-before-1"), "{runs:?}");
}

#[test]
fn an_after_edit_hook_formats_the_file_and_the_model_reads_what_it_said() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    fmt {\n        after-tool \"edit|write\"\n        paths \"*.rs\"\n        run \"tr a-z A-Z < \\\"$SMITH_FILE_PATHS\\\" > t && mv t \\\"$SMITH_FILE_PATHS\\\" && echo formatted $SMITH_FILE_PATHS\"\n    }\n}\n",
    );
    let (code, err, calls) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(p.notes(), "FINAL\n", "the hook formatted the edited file");
    let (refused, edit) = outcome(&calls, "e");
    assert!(!refused, "{edit}");
    assert!(
        edit.contains("[hooks@0.1.0] hook `fmt`") && edit.contains(": formatted notes.rs"),
        "{edit}"
    );
    // `bash` matched no hook; the run is recorded under the edit's call.
    let (_, bash) = outcome(&calls, "b");
    assert!(!bash.contains("hook `fmt`"), "{bash}");
    let runs = p.hook_runs();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert!(runs[0].0.ends_with("e/hooks-after-1"), "{runs:?}");
    assert!(runs[0].2.contains("formatted notes.rs"), "{runs:?}");
}

#[test]
fn a_hook_that_hangs_is_ended_at_its_timeout_and_refuses_the_call() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    slow {\n        before-tool \"edit\"\n        run \"sleep 600\"\n        timeout 1\n    }\n}\n",
    );
    let (code, err, calls) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (refused, edit) = outcome(&calls, "e");
    assert!(
        refused && edit.contains("did not finish within 1 s and was ended"),
        "{edit}"
    );
    assert_eq!(p.notes(), "draft\n");
    assert!(p.ran(), "bash matched no hook and ran");
}

#[test]
fn a_missing_program_and_floods_of_output_are_said_plainly() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    gone {\n        before-tool \"edit\"\n        run \"no-such-formatter --check\"\n    }\n    loud {\n        after-tool \"bash\"\n        run \"head -c 3000000 /dev/zero | tr '\\\\0' x; printf '\\\\377\\\\376 end'\"\n    }\n}\n",
    );
    let (code, err, calls) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    let (refused, edit) = outcome(&calls, "e");
    assert!(
        refused && edit.contains("exited with status 127: its command was not found"),
        "{edit}"
    );
    let (_, bash) = outcome(&calls, "b");
    // Megabytes are cut to a bounded note; bytes that are not UTF-8 are replaced.
    assert!(bash.contains("hook `loud`"), "{bash}");
    assert!(bash.len() < 40_000, "{} bytes", bash.len());
    assert!(bash.contains("\u{fffd}\u{fffd} end"), "{bash}");
    // What was cut is counted from what the program wrote, not from what was kept of it.
    assert!(bash.contains("of its 3000006 bytes cut"), "{bash}");
}

#[test]
fn hooks_in_an_untrusted_project_are_not_run_and_that_is_said() {
    let p = Project::new();
    std::fs::write(
        p.dir.join(".smith/config.kdl"),
        "hooks {\n    sneaky {\n        before-tool \"edit\"\n        run \"touch sneaked\"\n    }\n}\n",
    )
    .unwrap();
    let (code, err, _) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!p.dir.join("sneaked").exists());
    assert!(
        err.contains("were skipped: the project is not trusted")
            && err.contains("its hooks were not run"),
        "{err}"
    );
    assert_eq!(p.notes(), "final\n");
    // Trusted, the project's hooks run.
    std::fs::write(p.dir.join("notes.rs"), "draft\n").unwrap();
    let trust = p
        .env
        .command(&["trust"])
        .current_dir(&p.dir)
        .output()
        .unwrap();
    assert_eq!(trust.status.code(), Some(0), "{}", stderr(&trust));
    let (code, err, calls) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(p.dir.join("sneaked").exists(), "{calls:?}");
    let (refused, _) = outcome(&calls, "e");
    assert!(!refused, "the hook exited 0: {calls:?}");
}

#[test]
fn a_hook_that_cannot_be_used_is_an_error_naming_file_line_and_key() {
    let p = Project::new();
    let cases = [
        (
            "hooks {\n    x {\n        before-tool \"Edit(*)\"\n        run \"true\"\n    }\n}\n",
            ":3: hooks.x.before-tool: tool pattern \"Edit(*)\" holds '('",
        ),
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n        paths \"src/[a\"\n        run \"true\"\n    }\n}\n",
            ":4: hooks.x.paths: path glob \"src/[a\" cannot be used",
        ),
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n    }\n}\n",
            "hooks.x.run: hook `x` has no `run`",
        ),
        (
            "hooks {\n    x {\n        run \"true\"\n    }\n}\n",
            "hook `x` names no event",
        ),
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n        turn-end \"*\"\n        run \"true\"\n    }\n}\n",
            ":4: hooks.x.turn-end: hook `x` names after-tool and turn-end; a hook has one event",
        ),
        (
            "hooks {\n    x {\n        run \"true\"\n        after-tool \"edit\"\n        turn-end \" \"\n    }\n}\n",
            ":5: hooks.x.turn-end: hook `x` has an empty `turn-end`",
        ),
        (
            "hooks {\n    x {\n        turn-end \"Write\"\n        run \"true\"\n    }\n}\n",
            ":3: hooks.x.turn-end: `Write` is no tool any plugin has",
        ),
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n        run \"true\"\n        timeout \"soon\"\n    }\n}\n",
            "hooks.x.timeout",
        ),
        // A tool no plugin has (names are case-sensitive) would never run the hook.
        (
            "hooks {\n    x {\n        before-tool \"Bash\"\n        run \"true\"\n    }\n}\n",
            ":3: hooks.x.before-tool: `Bash` is no tool any plugin has",
        ),
        // Globs are relative to the working directory: these would never match.
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n        paths \"./src/*.rs\"\n        run \"true\"\n    }\n}\n",
            ":4: hooks.x.paths: path glob \"./src/*.rs\" cannot be used",
        ),
        (
            "hooks {\n    x {\n        after-tool \"edit\"\n        paths \"\"\n        run \"true\"\n    }\n}\n",
            ":4: hooks.x.paths: hook `x` has an empty `paths`",
        ),
    ];
    for (text, wanted) in cases {
        let config = p.user_config(text);
        let (code, err, _) = p.run(&[]);
        assert_eq!(code, Some(2), "{text}: {err}");
        assert!(
            err.contains(&config.display().to_string()) && err.contains(wanted),
            "{text}: wanted {wanted:?} in {err}"
        );
    }
}

#[test]
fn config_check_reports_a_hook_that_cannot_be_used() {
    let p = Project::new();
    let config = p.user_config(
        "hooks {\n    x {\n        after-tool \"edit\"\n        paths \"src/[a\"\n        run \"true\"\n    }\n}\n",
    );
    let out = p
        .env
        .command(&["config", "check"])
        .current_dir(&p.dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{}:4: hooks.x.paths", config.display())),
        "{}",
        stderr(&out)
    );
}

#[test]
fn plan_mode_runs_no_hook_and_a_refused_call_gets_no_after_hook() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    log-before {\n        before-tool \"edit|bash\"\n        run \"echo before $SMITH_TOOL >> before.log\"\n    }\n    log-after {\n        after-tool \"edit|bash\"\n        run \"echo after $SMITH_TOOL >> h.log\"\n    }\n}\n",
    );
    let (code, err, calls) = p.run(&["--permission-mode", "plan"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!p.dir.join("h.log").exists(), "{calls:?}");
    assert!(!p.dir.join("before.log").exists(), "{calls:?}");
    assert!(p.hook_runs().is_empty(), "{:?}", p.hook_runs());
    // Refused by a rule, the edit gets no after hook; bash ran and gets its own.
    let (code, err, calls) = p.run(&["-c", "permissions.deny=edit"]);
    assert_eq!(code, Some(0), "{err}");
    let log = std::fs::read_to_string(p.dir.join("h.log")).unwrap_or_default();
    assert_eq!(log, "after bash\n", "{calls:?}");
}

#[test]
fn a_path_with_a_line_break_is_refused_before_any_hook_sees_it() {
    let env = Env::new();
    let dir = env.root.path().canonicalize().unwrap().join("p");
    std::fs::create_dir_all(&dir).unwrap();
    let script = env.write(
        "calls.kdl",
        "round {\n  tool-call id=\"w\" name=\"write\" arguments=#\"{\"path\":\"c.txt\\na.rs\",\"content\":\"x\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "hooks {\n    fmt {\n        before-tool \"write\"\n        paths \"*.rs\"\n        run \"touch hooked\"\n    }\n}\n",
    )
    .unwrap();
    let out = env
        .command(&["eval", "--json", "-m", "scripted/t", "--script"])
        .arg(&script)
        .args(["--allow-process", "go"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let calls = tool_ends(&out);
    let (refused, why) = outcome(&calls, "w");
    assert!(refused && why.contains("holds a line break"), "{why}");
    assert!(!dir.join("hooked").exists());
}

#[test]
fn a_turn_end_hook_runs_once_after_a_turn_that_edited_and_tells_the_person_how_it_went() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    check {\n        turn-end \"edit|write\"\n        paths \"*.rs\"\n        run \"echo checked $SMITH_FILE_PATHS at $SMITH_STOP_REASON; echo $SMITH_HOOK_EVENT >> end.log\"\n    }\n    never {\n        turn-end \"read\"\n        run \"touch never\"\n    }\n    broken {\n        turn-end \"*\"\n        run \"echo the suite failed >&2; exit 3\"\n    }\n}\n",
    );
    let out = p.eval(true).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Once for the turn, after both calls; the hook for `read` had no call to match.
    let log = std::fs::read_to_string(p.dir.join("end.log")).unwrap();
    assert_eq!(log, "turn-end\n");
    assert!(!p.dir.join("never").exists());
    let notices: Vec<(String, String)> = common::records(&out)
        .iter()
        .filter(|r| r["type"] == "notice")
        .map(|r| {
            (
                r["level"].as_str().unwrap().to_owned(),
                r["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let said = |hook: &str| {
        notices
            .iter()
            .find(|(_, t)| t.contains(&format!("hook `{hook}`")))
            .unwrap_or_else(|| panic!("no notice of {hook}: {notices:?}"))
    };
    let (level, text) = said("check");
    assert_eq!(level, "info", "{text}");
    assert!(
        text.starts_with("[hooks@0.1.0]") && text.contains("checked notes.rs at end_turn"),
        "{text}"
    );
    let (level, text) = said("broken");
    assert_eq!(level, "warning", "{text}");
    assert!(
        text.contains("exited with status 3: the suite failed"),
        "{text}"
    );
    // Each ran as an effect of the turn, in name order; the model saw neither.
    let runs = p.hook_runs();
    let ids: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        ids,
        ["turn-end/hooks-end-1", "turn-end/hooks-end-2"],
        "{runs:?}"
    );
    assert!(runs[1].2.contains("checked notes.rs"), "{runs:?}");
    let calls = tool_ends(&out);
    assert!(
        calls.iter().all(|(_, _, o)| !o.contains("hook `")),
        "{calls:?}"
    );
    // Plain output tells the person on stderr, and stdout keeps the answer only.
    let out = p.eval(false).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exited with status 3: the suite failed"),
        "{}",
        stderr(&out)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("hook `"));
}

#[test]
fn no_turn_end_hook_runs_in_plan_mode_nor_after_a_turn_without_a_matching_call() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    check {\n        turn-end \"write\"\n        run \"touch checked\"\n    }\n    every {\n        turn-end \"*\"\n        run \"echo x >> every.log\"\n    }\n}\n",
    );
    // The turn edits and runs bash: `write` never ran, so only `*` runs.
    let (code, err, _) = p.run(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!p.dir.join("checked").exists());
    assert_eq!(
        std::fs::read_to_string(p.dir.join("every.log")).unwrap(),
        "x\n"
    );
    let (code, err, _) = p.run(&["--permission-mode", "plan"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(p.dir.join("every.log")).unwrap(),
        "x\n",
        "plan mode runs no program"
    );
}

#[cfg(unix)]
#[test]
fn sigterm_while_a_turn_end_hook_runs_ends_it_and_the_work_as_cancelled() {
    let p = Project::new();
    p.user_config(
        "hooks {\n    slow {\n        turn-end \"*\"\n        run \"touch started; sleep 600\"\n    }\n}\n",
    );
    let child = p
        .eval(true)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_for(&p.dir.join("started"));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(
        common::records(&out).last().unwrap()["stop_reason"],
        "aborted"
    );
}
