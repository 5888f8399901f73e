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
