//! A turn an earlier process left unfinished, over JSON-RPC: `sessions.open` reports it as
//! `interrupted`, `session.continue` continues it from what is recorded (its recorded write
//! not run again), and continuing what has ended is refused.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::Env;

#[test]
fn sessions_open_reports_the_interrupted_turn_and_session_continue_ends_it() {
    let env = Env::new();
    let (session, path) = env.killed_after_a_write();
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"finished\"\n  stop \"end_turn\"\n}\n",
    );

    let mut c = Client::start(&env, &[]);
    let opened = c.result("sessions.open", json!({"session": session}));
    assert_eq!(opened["access"], "writer", "{opened}");
    let turn = &opened["interrupted"];
    assert_eq!(turn["input"], "do the job", "{opened}");
    assert_eq!(turn["rounds"], 1, "{opened}");
    assert_eq!(turn["calls_answered"], 1, "{opened}");
    assert_eq!(turn["model"], "scripted/t", "{opened}");
    let submission = turn["submission"].as_u64().unwrap();

    let receipt = c.result(
        "session.continue",
        json!({"session": session, "script": rest.to_str().unwrap()}),
    );
    assert_eq!(receipt["submission"], submission, "{receipt}");
    assert_eq!(receipt["state"], "admitted", "{receipt}");
    let settled = c.result(
        "session.wait",
        json!({"session": session, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn", "{settled}");
    let refused = c.error("session.continue", json!({"session": session}));
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("no interrupted turn"),
        "{refused}"
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "changed\n",
        "the recorded write ran again"
    );
    let writes = smith_store::read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .filter(
            |e| matches!(&e.record, smith_store::Record::EffectIntent(i) if i.effect == "fs.write"),
        )
        .count();
    assert_eq!(writes, 1);
}
