//! The durable effect boundary across a crash (spec SMH-SPEC-SPEC0001: Tools → Durable effect
//! boundary): a process killed between an effect's intent and its completion leaves an
//! intent that recovery marks `unknown` and never retries.
#![cfg(unix)]

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Env, stderr};
use smith_store::{EffectOutcome, Record, read_session};

#[test]
fn a_kill_between_intent_and_completion_recovers_as_unknown_and_is_never_retried() {
    let env = Env::new();
    // Opening a FIFO for reading blocks until a writer comes: the read effect is recorded as
    // intended and then hangs inside the host, where the process is killed.
    let fifo = env.root.path().join("pipe");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let script = env.write(
        "fifo.kdl",
        "round {\n  tool-call id=\"c1\" name=\"read\" arguments=#\"{\"path\": \"pipe\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"never\"\n  stop \"end_turn\"\n}\n",
    );
    let (mut child, mut lines) = env.spawn_script_json("scripted/fifo", &script, "go");
    let session = loop {
        let line = lines.next().unwrap().unwrap();
        let record: serde_json::Value = serde_json::from_str(&line).unwrap();
        if record["type"] == "run_start" {
            break record["session"].as_str().unwrap().to_owned();
        }
    };
    let path = env.sessions().join(format!("{session}.smith"));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let entries = read_session(&path).map(|o| o.entries).unwrap_or_default();
        if entries
            .iter()
            .any(|e| matches!(e.record, Record::EffectIntent(_)))
        {
            break;
        }
        assert!(Instant::now() < deadline, "the intent was never recorded");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL, inside the effect
    child.wait().unwrap();

    // The next run recovers: the intent without completion becomes `unknown`, the call gets
    // an error result, and the read is not run again (it would block on the FIFO forever).
    let mut again = env
        .command(&[
            "eval",
            "-m",
            "scripted/demo",
            "--session",
            &session,
            "what happened?",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = again.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = again.kill();
            panic!("the resumed run hung: the effect was retried");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = again.wait_with_output().unwrap();
    assert!(status.success(), "{}", stderr(&out));
    let entries = read_session(&path).unwrap().entries;
    let intents: Vec<_> = entries
        .iter()
        .filter(|e| matches!(e.record, Record::EffectIntent(_)))
        .collect();
    assert_eq!(intents.len(), 1, "nothing was retried");
    let completions: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectCompletion(c) => Some((e.pair, c.outcome)),
            _ => None,
        })
        .collect();
    assert_eq!(
        completions,
        vec![(Some(intents[0].id), EffectOutcome::Unknown)]
    );
    let answered = entries.iter().any(|e| matches!(&e.record,
        Record::ToolResult(r) if r.result.call_id == "c1" && r.result.is_error && r.result.output.contains("unknown")));
    assert!(answered, "the interrupted call is answered: {entries:?}");
}
