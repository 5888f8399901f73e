//! A writer killed with SIGKILL at arbitrary points never loses an acknowledged entry and
//! never exposes a partial change (spec SMH-SPEC-SPEC0001: Sessions → Committed changes;
//! acceptance "sessions survive truncation").
#![cfg(unix)]

mod common;

use common::{Env, stderr};
use smith_store::{Record, read_session};

/// Many rounds, each a tool call answered with an error result: two appends per round.
fn long_script() -> String {
    let mut s = String::new();
    for i in 0..40 {
        s.push_str(&format!(
            "round {{\n  text \"round {i}\"\n  tool-call id=\"c{i}\" name=\"read\"\n  stop \"tool_use\"\n}}\n"
        ));
    }
    s.push_str("round {\n  text \"done\"\n  stop \"end_turn\"\n}\n");
    s
}

#[test]
fn sigkill_mid_run_never_loses_an_acknowledged_entry() {
    let iterations: usize = std::env::var("SMITH_SOAK_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let env = Env::new();
    let script = env.write("long.kdl", &long_script());
    // A fixed, varied sequence of kill points (no randomness: failures reproduce).
    let mut kill_after = 7usize;
    for iteration in 0..iterations {
        kill_after = (kill_after * 31 + 17) % 160 + 1;
        let (mut child, mut lines) = env.spawn_script_json("scripted/long", &script, "go");
        let mut acknowledged = Vec::new();
        let mut session = None;
        for _ in 0..kill_after {
            let Some(Ok(line)) = lines.next() else { break };
            let record: serde_json::Value = serde_json::from_str(&line).unwrap();
            match record["type"].as_str() {
                Some("run_start") => session = record["session"].as_str().map(str::to_owned),
                // message_end and tool_end are emitted only after fsync returned.
                Some("message_end") if record["recorded"] == true => {
                    acknowledged.push(record["message_id"].as_u64().unwrap());
                }
                Some("tool_end") => acknowledged.push(record["entry_id"].as_u64().unwrap()),
                _ => {}
            }
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let Some(session) = session else { continue };
        let path = env.sessions().join(format!("{session}.smith"));
        let outcome = read_session(&path).unwrap_or_else(|e| panic!("iteration {iteration}: {e}"));
        assert!(
            outcome.skipped.is_empty(),
            "iteration {iteration}: a kill is never damage: {:?}",
            outcome.skipped
        );
        let ids: Vec<u64> = outcome.entries.iter().map(|e| e.id.0).collect();
        for id in &acknowledged {
            assert!(
                ids.contains(id),
                "iteration {iteration}: acknowledged entry {id} lost"
            );
        }
        // Complete changes only: ids are contiguous from 1 and every tool call that has a
        // result is followed by it (no half-written change is visible).
        assert_eq!(
            ids,
            (1..=ids.len() as u64).collect::<Vec<_>>(),
            "iteration {iteration}"
        );
        for pair in outcome.entries.windows(2) {
            assert_eq!(pair[1].parent, Some(pair[0].id));
        }
        if iteration % 50 == 0 {
            // The session goes on after recovery.
            let out = env.run(&[
                "eval",
                "-m",
                "scripted/demo",
                "--session",
                &session,
                "again",
            ]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "iteration {iteration}: {}",
                stderr(&out)
            );
            let after = read_session(&path).unwrap();
            assert!(after.torn_tail.is_none());
            // The killed run is marked as ended before the next prompt: no two user messages
            // follow each other without a run end between them.
            let mut open_run = false;
            for e in &after.entries {
                match &e.record {
                    Record::Message(m) if m.message.role == smith::Role::User => {
                        assert!(!open_run, "iteration {iteration}: a run without its end");
                        open_run = true;
                    }
                    Record::RunEnd(_) => open_run = false,
                    _ => {}
                }
            }
            assert!(matches!(
                after.entries.last().unwrap().record,
                Record::RunEnd(_)
            ));
        }
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn a_storage_failure_mid_run_ends_the_json_stream_by_its_rules_and_is_recorded() {
    let env = Env::new();
    // Warm the shared compile cache (a limit would make its writes fail too).
    let warm = env.run(&["eval", "--no-session", "-m", "scripted/demo", "warm"]);
    assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));
    // Pseudo-random lines, so the store cannot compress the tool output under the limit.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let readme: String = (0..2000)
        .map(|_| {
            let line: String = (0..60)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    char::from(b'!' + (x % 90) as u8)
                })
                .collect();
            line + "\n"
        })
        .collect();
    env.write("README.md", &readme);
    let cmd = env.command(&[
        "eval",
        "--json",
        "-m",
        "scripted/tool-call",
        "Read the README",
    ]);
    let out = common::under_file_size_limit(&cmd, 64).output().unwrap();
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = common::records(&out);
    let types: Vec<&str> = recs.iter().map(|r| r["type"].as_str().unwrap()).collect();
    // Every tool_start has its tool_end (not recorded), the round ends, the run ends once,
    // last, with the storage error.
    let start = types
        .iter()
        .position(|t| *t == "tool_start")
        .expect("a tool_start");
    let end = &recs[start + 1];
    assert_eq!(end["type"], "tool_end", "{types:?}");
    assert_eq!(end["call_id"], recs[start]["call_id"]);
    assert_eq!(end["recorded"], false);
    assert!(end["entry_id"].is_null());
    assert_eq!(recs[start + 2]["type"], "round_end", "{types:?}");
    assert_eq!(recs[start + 2]["stop_reason"], "error");
    let last = recs.last().unwrap();
    assert_eq!(last["type"], "run_end", "{types:?}");
    assert_eq!(types.iter().filter(|t| **t == "run_end").count(), 1);
    assert_eq!(last["stop_reason"], "error");
    let error = last["error"].as_str().unwrap();
    assert!(error.contains("could not record"), "{error}");
    // The session records that failure as the work's end (its tail cut back first), not an
    // interruption found on the next open.
    let path = env.session_files().remove(0);
    let read = read_session(&path).unwrap();
    assert!(read.torn_tail.is_none() && read.skipped.is_empty());
    let Some(Record::RunEnd(run_end)) = read.entries.last().map(|e| &e.record) else {
        panic!(
            "the last entry is not a run_end: {:?}",
            smith_testkit::kinds_of(&read.entries)
        );
    };
    let recorded = run_end.error.as_deref().unwrap_or_default();
    assert!(recorded.contains("could not record"), "{recorded}");
    assert!(!recorded.contains("interrupted"), "{recorded}");
    // Without the limit the session continues.
    let id = path.file_stem().unwrap().to_str().unwrap();
    let again = env.run(&["eval", "-m", "scripted/demo", "--session", id, "again"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
}

/// A run on a disk that is already full fails, and leaves nothing behind: neither the empty
/// `.ID.smith.tmp` of the session it could not create nor the compile cache's
/// `.KEY.cwasm.PID.tmp` temporaries. The full disk is a small tmpfs mounted in a user and
/// mount namespace of the test's own (what the sandbox suite also needs), so the check of
/// what is left runs inside it too.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_leaves_no_temporary_files() {
    let env = Env::new();
    let disk = env.root.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let script = r#"
        mount -t tmpfs -o size=256k tmpfs "$DISK" || exit 97
        mkdir -p "$DISK/home" "$DISK/cache"
        head -c 1048576 /dev/zero > "$DISK/filler" 2>/dev/null
        SMITH_HOME="$DISK/home" SMITH_CACHE_HOME="$DISK/cache" "$SMITH" eval -m scripted/demo hi 2>"$DISK/../stderr"
        echo "status $?"
        find "$DISK" -name '*.tmp' | sed 's/^/left /'
    "#;
    let smith = env.command(&[]);
    let mut cmd = std::process::Command::new("unshare");
    cmd.args(["-rm", "sh", "-c", script])
        .env("DISK", &disk)
        .env("SMITH", smith.get_program());
    for (key, value) in smith.get_envs() {
        match value {
            Some(v) => cmd.env(key, v),
            None => cmd.env_remove(key),
        };
    }
    let out = cmd.current_dir(env.root.path()).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "the namespace and tmpfs are needed (as the sandbox needs them): {said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let diagnostics = std::fs::read_to_string(env.root.path().join("stderr")).unwrap_or_default();
    assert!(
        said.lines()
            .any(|l| l.starts_with("status ") && l != "status 0"),
        "the run on a full disk fails: {said}{diagnostics}"
    );
    assert!(
        diagnostics.contains("The disk is full: free space on it"),
        "{diagnostics}"
    );
    let left: Vec<&str> = said.lines().filter(|l| l.starts_with("left ")).collect();
    assert!(left.is_empty(), "{left:?}\n{diagnostics}");
}
