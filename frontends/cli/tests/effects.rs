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
    // The read effect is recorded as intended and then hangs inside the host (on a FIFO),
    // where the process is killed.
    let (session, path) = env.session_killed_mid_effect();

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
