//! The official MCP Python SDK client (`mcp` 2.3, pinned in `xtask/mcp/requirements.txt`,
//! installed by `.ci/run` into the virtual environment `SMITH_MCP_PYTHON` names) does the whole
//! job: the `server/discover` probe and its fallback to `initialize`, tools (a call, bad
//! arguments, the agent tool with progress, a cancelled `bash` call), resources (list, read,
//! templates, subscribe) and logging. The script asserts the protocol side; this test checks
//! what the session file recorded.

use smith_store::Record;

use crate::common::Env;

/// The Python interpreter with the MCP SDK, or `None` outside CI when it is not installed.
fn python() -> Option<std::path::PathBuf> {
    match std::env::var_os("SMITH_MCP_PYTHON") {
        Some(p) => Some(p.into()),
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must install the MCP Python SDK (.ci/run)"
            );
            None
        }
    }
}

#[cfg(unix)]
#[test]
fn the_python_sdk_client_uses_tools_resources_progress_and_cancellation() {
    let Some(python) = python() else { return };
    let env = Env::new();
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "hello from the test\n").unwrap();
    // The trusted project the second connection offers as its root.
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir(&project).unwrap();
    let trusted = env.run(&["trust", project.to_str().unwrap()]);
    assert!(trusted.status.success(), "{trusted:?}");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/python_client.py");
    let out = std::process::Command::new(python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_smith"))
        .arg(env.home())
        .arg(&work)
        .arg(&project)
        .env("TMPDIR", env.tmp())
        .env(
            "SMITH_CACHE_HOME",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("smith-cache"),
        )
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the SDK client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert!(summary["progress"].as_u64().unwrap() >= 1, "{summary}");
    // The written file exists; the cancelled program started and was stopped.
    assert_eq!(
        std::fs::read_to_string(work.join("made.txt")).unwrap(),
        "made\n"
    );
    assert!(work.join("begun").exists());
    // The second connection's program ran in its root, once the elicitation said yes.
    assert_eq!(summary["asked"], 1, "{summary}");
    assert_eq!(
        std::fs::read_to_string(project.join("confirmed.txt")).unwrap(),
        "confirmed\n"
    );
    check_session(&env, summary["session"].as_str().unwrap());
}

/// What every client scenario leaves in the server's session: the read and the write
/// applied, the cancelled program `unknown` (it had started: never claimed not applied), every
/// effect with its completion, and the agent tool's turn.
fn check_session(env: &Env, session: &str) {
    let entries = smith_store::read_session(&env.sessions().join(format!("{session}.smith")))
        .unwrap()
        .entries;
    let effects: Vec<(&str, Option<smith::EffectOutcome>)> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectIntent(i) => {
                let done = entries.iter().find_map(|c| match &c.record {
                    Record::EffectCompletion(done) if c.pair == Some(e.id) => Some(done.outcome),
                    _ => None,
                });
                Some((i.effect.as_str(), done))
            }
            _ => None,
        })
        .collect();
    assert!(
        effects.contains(&("fs.read", Some(smith::EffectOutcome::Applied))),
        "{effects:?}"
    );
    assert!(
        effects.contains(&("fs.write", Some(smith::EffectOutcome::Applied))),
        "{effects:?}"
    );
    assert!(
        effects.contains(&("process.run", Some(smith::EffectOutcome::Unknown))),
        "{effects:?}"
    );
    assert!(
        effects.iter().all(|(_, done)| done.is_some()),
        "{effects:?}"
    );
    assert!(
        entries
            .iter()
            .any(|e| matches!(e.record, Record::RunEnd(_)))
    );
    // Each client call is recorded before its tool runs, and is its effects' causal parent.
    for e in &entries {
        if let Record::EffectIntent(i) = &e.record {
            let parent = entries
                .iter()
                .find(|p| Some(p.id) == e.pair)
                .unwrap_or_else(|| panic!("effect {} has no parent", i.effect_id));
            let Record::ClientCall(call) = &parent.record else {
                panic!(
                    "effect {}'s parent is a {}",
                    i.effect_id,
                    parent.record.kind_name()
                );
            };
            assert_eq!(
                (call.frontend.as_str(), call.tool.as_str()),
                ("mcp", i.tool.as_str())
            );
            assert!(parent.id < e.id);
        }
    }
}

/// The directory with the official TypeScript SDK and the Inspector (`xtask/mcp/node`, its
/// `node_modules` installed by `.ci/run`), or `None` outside CI when it is not installed.
pub(crate) fn node_clients() -> Option<std::path::PathBuf> {
    match std::env::var_os("SMITH_MCP_NODE") {
        Some(p) => Some(p.into()),
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must install the MCP TypeScript SDK and the Inspector (.ci/run)"
            );
            None
        }
    }
}

fn cache_home() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("smith-cache")
}

#[cfg(unix)]
#[test]
fn the_typescript_sdk_client_uses_tools_resources_progress_and_cancellation() {
    let Some(dir) = node_clients() else { return };
    let env = Env::new();
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "hello from the test\n").unwrap();
    let out = std::process::Command::new("node")
        .arg(dir.join("ts_client.mjs"))
        .arg(env!("CARGO_BIN_EXE_smith"))
        .arg(env.home())
        .arg(&work)
        .env("TMPDIR", env.tmp())
        .env("SMITH_CACHE_HOME", cache_home())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the SDK client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["revision"], "smith");
    assert_eq!(
        std::fs::read_to_string(work.join("made-ts.txt")).unwrap(),
        "ts\n"
    );
    check_session(&env, summary["session"].as_str().unwrap());
}

#[test]
fn the_inspector_cli_lists_and_calls_tools() {
    let Some(dir) = node_clients() else { return };
    let env = Env::new();
    std::fs::write(env.root.path().join("listed.txt"), "x").unwrap();
    let inspector = |args: &[&str]| {
        let out = std::process::Command::new(dir.join("node_modules/.bin/mcp-inspector"))
            .arg("--cli")
            .arg(env!("CARGO_BIN_EXE_smith"))
            .arg("mcp")
            .args(args)
            .current_dir(env.root.path())
            .env("SMITH_HOME", env.home())
            .env("TMPDIR", env.tmp())
            .env("SMITH_CACHE_HOME", cache_home())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let listed = inspector(&["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"read") && names.contains(&"smith_run"),
        "{names:?}"
    );
    let called = inspector(&[
        "--method",
        "tools/call",
        "--tool-name",
        "ls",
        "--tool-arg",
        "path=.",
    ]);
    assert_eq!(called["isError"], false, "{called}");
    assert!(
        called["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("listed.txt"),
        "{called}"
    );
}
