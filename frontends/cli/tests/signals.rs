//! SIGINT's one rule, whatever the moment it arrives (docs/exit-status.md, Signals): a test hook
//! of the binary raises it at a named start-up phase, so no timer decides when it comes.

mod common;

use std::process::Stdio;

use common::{Env, stderr};

/// `smith eval` on a script of three `write` calls in one round, with SIGINT raised at the
/// start-up `phase` by the binary's test hook; `ignored` starts it with SIGINT ignored, as a
/// script's `cmd &` does (the shell's `trap '' INT` survives its `exec`).
#[cfg(unix)]
fn three_writes_interrupted_at(env: &Env, phase: &str, ignored: bool) -> std::process::Output {
    let call = |id: &str, file: &str| {
        let arguments = serde_json::json!({ "path": file, "content": "x" }).to_string();
        format!("  tool-call id=\"{id}\" name=\"write\" arguments=#\"{arguments}\"#\n")
    };
    let script = env.write(
        "writes.kdl",
        &format!(
            "round {{\n{}{}{}  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n",
            call("c1", "a.txt"),
            call("c2", "b.txt"),
            call("c3", "c.txt"),
        ),
    );
    let args = [
        "eval",
        "-m",
        "scripted/w",
        "--script",
        script.to_str().unwrap(),
        "go",
    ];
    let smith = env.command(&args);
    let mut cmd = if ignored {
        let mut sh = std::process::Command::new("sh");
        sh.arg("-c")
            .arg("trap '' INT; exec \"$0\" \"$@\"")
            .arg(smith.get_program())
            .args(smith.get_args());
        for (key, value) in smith.get_envs() {
            match value {
                Some(v) => sh.env(key, v),
                None => sh.env_remove(key),
            };
        }
        sh.current_dir(env.root.path()).stdin(Stdio::null());
        sh
    } else {
        smith
    };
    cmd.env("SMITH_TEST_SIGINT_AT", phase).output().unwrap()
}

/// One rule for SIGINT whenever it arrives (docs/exit-status.md): started with SIGINT ignored,
/// the run ignores it throughout and every tool runs; otherwise it cancels the run even before
/// the plugins are loaded, and nothing runs.
#[cfg(unix)]
#[test]
fn sigint_is_honoured_from_the_start_or_ignored_throughout_as_inherited() {
    for phase in ["start", "ready"] {
        let env = Env::new();
        let out = three_writes_interrupted_at(&env, phase, false);
        assert_eq!(out.status.code(), Some(130), "at {phase}: {}", stderr(&out));
        for file in ["a.txt", "b.txt", "c.txt"] {
            assert!(
                !env.root.path().join(file).exists(),
                "at {phase}: {file} was written after the interrupt"
            );
        }

        let env = Env::new();
        let out = three_writes_interrupted_at(&env, phase, true);
        assert_eq!(out.status.code(), Some(0), "at {phase}: {}", stderr(&out));
        for file in ["a.txt", "b.txt", "c.txt"] {
            assert!(
                env.root.path().join(file).exists(),
                "at {phase}, SIGINT ignored: {file} was not written"
            );
        }
    }
}
