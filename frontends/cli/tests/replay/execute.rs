//! `smith replay --execute` with the built binary (spec: Replay and VCS → Replay): the recorded
//! tool calls run again in a scratch copy of the snapshot taken at the start of the range and
//! every effect comes out the same; in a modified copy the effect that reads what was changed
//! is reported different, with its diff; an effect a kill left without completion is shown
//! unknown and never run again; the session file is never written.

use std::process::Stdio;
use std::time::{Duration, Instant};

use super::common::{Env, stderr, stdout};
use super::{eval_json, records};

#[test]
fn recorded_effects_run_again_the_same_and_a_modified_copy_diverges_with_its_diff() {
    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "hello\n").unwrap();
    eval_json(&env, &["-m", "scripted/tool-call", "read it"]);
    eval_json(&env, &["--continue", "-m", "scripted/edit", "now edit"]);
    let path = std::fs::read_dir(env.sessions())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "smith"))
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    // The project has moved on since: the scratch copy is the snapshot's, not this.
    std::fs::write(env.root.path().join("notes.txt"), "edited by hand\n").unwrap();

    let report = env.root.path().join("report.jsonl");
    let out = env.run(&["replay", "--execute", "--report", report.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains("turn 2 write call_write fs.write notes.txt: same"),
        "{text}"
    );
    assert!(
        // Six effects of five calls: the edit reads its file first (for its diff).
        text.ends_with("re-executed 6/6 effects (5 call(s)): same 6, different 0, not re-executed 0 (unknown 0)\n"),
        "{text}"
    );
    assert!(
        stderr(&out).contains("scratch copy of snapshot"),
        "{}",
        stderr(&out)
    );
    let lines = records(&std::fs::read_to_string(&report).unwrap());
    assert_eq!(lines[0]["type"], "replay");
    assert_eq!(lines[0]["execute"], true);
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(
        lines[1..7]
            .iter()
            .all(|l| l["type"] == "effect" && l["verdict"] == "same")
    );
    assert_eq!(lines[7]["type"], "summary");
    assert_eq!(lines[7]["same"], 6);
    // Nothing reached the session or the project.
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("notes.txt")).unwrap(),
        "edited by hand\n"
    );

    // In a modified copy, the first turn's read finds other text.
    let copy = env.root.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::write(copy.join("README.md"), "changed\n").unwrap();
    let out = env.run(&[
        "replay",
        "--execute",
        "--json",
        "--turns",
        "1",
        "--in",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    let effect = &lines[1];
    assert_eq!(effect["verdict"], "different", "{effect}");
    assert_eq!(effect["effect"], "fs.read");
    let diff = effect["diff"].as_str().unwrap();
    assert!(diff.contains("-  \"output\": \"hello\\n"), "{diff}");
    assert!(diff.contains("+  \"output\": \"changed\\n"), "{diff}");
    let summary = lines.last().unwrap();
    assert_eq!(summary["different"], 1, "{summary}");
    assert_eq!(summary["effects"], 1, "{summary}");
    assert_eq!(std::fs::read(&path).unwrap(), before);

    // With the plugin that recorded the effects disabled, nothing runs: each effect says
    // why, and the missing plugin is named.
    let out = env.run(&["--disable-plugin", "files", "replay", "--execute", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    assert_eq!(lines[1]["verdict"], "not_reexecuted", "{}", lines[1]);
    assert!(
        lines[1]["why"]
            .as_str()
            .unwrap()
            .contains("no enabled plugin offers the tool `read`"),
        "{}",
        lines[1]
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["reexecuted"], 0, "{summary}");
    assert_eq!(
        summary["missing_plugins"],
        serde_json::json!(["files@0.1.0"])
    );
    assert!(
        stderr(&out).contains("recorded by files@0.1.0"),
        "{}",
        stderr(&out)
    );

    // A range with no snapshot and no directory to run in is refused, naming --in.
    let out = env.run(&["replay", "--execute", "--turns", "1"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--in DIR"), "{}", stderr(&out));
}

#[test]
fn an_effect_left_unknown_by_a_kill_is_shown_unknown_and_never_run_again() {
    let env = Env::new();
    let (session, path) = env.session_killed_mid_effect();
    let before = std::fs::read(&path).unwrap();

    // The replay says the effect is unknown.
    let out = env.run(&["replay", &session]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("of call c1 (read) recorded no completion"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("unknown"), "{}", stderr(&out));

    // Re-executing never runs it (it would block on the FIFO for ever).
    let mut again = env
        .command(&[
            "replay",
            &session,
            "--execute",
            "--json",
            "--in",
            env.root.path().to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while again.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = again.kill();
            panic!("the re-execution hung: the unknown effect was run again");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = again.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    assert_eq!(lines[1]["verdict"], "unknown", "{lines:?}");
    assert_eq!(lines[1]["recorded"], "none");
    assert_eq!(lines[1]["call_id"], "c1");
    let summary = lines.last().unwrap();
    assert_eq!(summary["unknown"], 1, "{summary}");
    assert_eq!(summary["reexecuted"], 0, "{summary}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_program_runs_again_only_when_allowed_and_then_comes_out_the_same() {
    let env = Env::new();
    let script = env.write(
        "bash.kdl",
        "round {\n  tool-call id=\"c1\" name=\"bash\" arguments=#\"{\"command\": \"printf hi > out.txt; echo done\"}\"#\n  stop \"tool_use\"\n}\nround {\n  tool-call id=\"c2\" name=\"read\" arguments=#\"{\"path\": \"out.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let out = env.run(&[
        "--allow-process",
        "eval",
        "-m",
        "scripted/bash",
        "--script",
        script.to_str().unwrap(),
        "go",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A program's run is recorded `unknown` (what it changed is not claimed), yet it ended:
    // the replay does not call it unknown.
    let replay = env.run(&["replay"]);
    assert!(!stderr(&replay).contains("unknown"), "{}", stderr(&replay));

    // Not allowed: the program is not run, and the read that needed its file differs.
    let out = env.run(&["replay", "--execute", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    assert_eq!(lines[1]["type"], "effect", "the type first: {}", lines[1]);
    assert_eq!(lines[1]["verdict"], "not_reexecuted", "{}", lines[1]);
    assert!(
        lines[1]["why"].as_str().unwrap().contains("ran a program"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["verdict"], "different", "{}", lines[2]);
    assert!(
        stderr(&out).contains("1 effect(s) were not re-executed"),
        "{}",
        stderr(&out)
    );
    assert!(
        !stderr(&out).contains("no enabled plugin is now"),
        "{}",
        stderr(&out)
    );

    // Allowed: the program runs in the scratch copy and both effects are the same.
    let out = env.run(&["--allow-process", "replay", "--execute"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).ends_with("re-executed 2/2 effects (2 call(s)): same 2, different 0, not re-executed 0 (unknown 0)\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_batch_killed_while_its_program_ran_starts_from_its_snapshot_and_is_never_run_again() {
    let env = Env::new();
    std::fs::write(env.root.path().join("kept.txt"), "kept\n").unwrap();
    let script = env.write(
        "hang.kdl",
        "round {\n  tool-call id=\"c1\" name=\"bash\" arguments=#\"{\"command\": \"echo $$ > pid.tmp; mv pid.tmp pid; exec sleep 600\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"never\"\n  stop \"end_turn\"\n}\n",
    );
    let mut child = env
        .command(&[
            "--allow-process",
            "eval",
            "--json",
            "-m",
            "scripted/hang",
            "--script",
            script.to_str().unwrap(),
            "go",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The program is running once it wrote its pid: kill the writer inside the effect.
    let pid = env.root.path().join("pid");
    smith_testkit::wait_for(&pid);
    child.kill().unwrap();
    child.wait().unwrap();
    let program: i32 = std::fs::read_to_string(&pid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(program),
        nix::sys::signal::Signal::SIGKILL,
    );

    // The batch never finished, so no `vcs` record names its snapshot: the snapshot the
    // history plugin took before it is the start, and the program is not run again.
    let out = env.run(&["--allow-process", "replay", "--execute", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    assert_eq!(lines[1]["effect"], "process.run", "{}", lines[1]);
    assert_eq!(lines[1]["verdict"], "unknown", "{}", lines[1]);
    let summary = lines.last().unwrap();
    assert!(summary["snapshot"].is_string(), "{summary}");
    assert_eq!(summary["reexecuted"], 0, "{summary}");
}

#[test]
fn a_reexecuted_call_sees_the_plugin_state_recorded_at_its_point_and_writes_none() {
    let env = Env::new();
    // The test plugin `tally` counts its calls in branch and session state.
    let dir = env.root.path().join("tally");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("plugin.kdl"), smith_plugins::TALLY.manifest).unwrap();
    std::fs::write(dir.join("tally.wasm"), smith_plugins::TALLY.component).unwrap();
    let out = env.run(&[
        "plugins",
        "install",
        dir.to_str().unwrap(),
        "--component",
        dir.join("tally.wasm").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = env.write(
        "tally.kdl",
        "round {\n  tool-call id=\"t1\" name=\"tally\" arguments=\"{}\"\n  stop \"tool_use\"\n}\nround {\n  text \"counted\"\n  stop \"end_turn\"\n}\n",
    );
    let turn = |more: &[&str]| {
        let mut args = vec!["eval", "-m", "scripted/tally", "--script"];
        args.push(script.to_str().unwrap());
        args.extend_from_slice(more);
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    turn(&["one"]);
    let path = env.session_files().remove(0);
    let id = path.file_stem().unwrap().to_str().unwrap().to_owned();
    let entries = |id: &str| {
        records(&stdout(
            &env.run(&["sessions", "get", id, "--json", "--limit", "1000"]),
        ))
        .into_iter()
        .filter(|r| r["type"] == "entry")
        .collect::<Vec<_>>()
    };
    let after_first = entries(&id)
        .iter()
        .filter_map(|r| r["id"].as_u64())
        .max()
        .unwrap();
    turn(&["--continue", "two"]);
    // Back to the end of the first turn, and a second branch: its branch count starts from
    // the first turn's, its session count goes on from the other branch's.
    let out = env.run(&["sessions", "select", &id, &after_first.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    turn(&["--continue", "two again"]);
    let outputs: Vec<String> = entries(&id)
        .iter()
        .filter(|r| r["kind"] == "tool_result")
        .map(|r| r["record"]["result"]["output"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        outputs,
        [
            "branch 1, session 1",
            "branch 2, session 2",
            "branch 2, session 3"
        ]
    );

    let before = std::fs::read(&path).unwrap();
    let out = env.run(&[
        "replay",
        "--execute",
        "--json",
        "--in",
        env.root.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = records(&stdout(&out));
    let calls: Vec<_> = lines
        .iter()
        .filter(|l| l["type"] == "effect")
        .map(|l| (l["turn"].as_u64().unwrap(), l["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(calls, [(1, "same"), (2, "same")], "{lines:?}");
    // The re-executed calls' writes stayed in memory: the session is as it was.
    assert_eq!(std::fs::read(&path).unwrap(), before);
}
