//! Permission questions over RPC: the permission policy's choices (`select_request`) answered
//! with `request.respond` — here the offer to run a program the sandbox refused again outside
//! it, which runs only when the person allows it, as a second effect recorded as unconfined.

use serde_json::json;
use smith_store::Record;

use crate::client::Client;
use crate::common::Env;

/// Submit a turn whose model runs `touch TARGET` (outside the sandbox's writable roots), wait
/// for the policy's offer, answer it with option `choice`, and wait for the turn; the offer's
/// prompt and the session's `process.run` effects as (sandbox, outcome) pairs.
fn offered_and_answered(choice: u64) -> (String, Vec<(String, String)>, bool) {
    let env = Env::new();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("escaped");
    let arguments = json!({ "command": format!("touch {}", target.display()) }).to_string();
    let script = env.write(
        "outside.kdl",
        &format!(
            "round {{\n  tool-call id=\"call_1\" name=\"bash\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"finished\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let mut c = Client::start(&env, &["--allow-process"]);
    let s = c.create();
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "touch it", "model": "scripted/out", "script": script}),
    );
    let submission = c.response(id)["result"]["submission"].as_u64().unwrap();
    let event = c.event(&s, "select_request")["params"]["event"].clone();
    let prompt = event["prompt"].as_str().unwrap().to_owned();
    assert_eq!(event["options"], json!(["Deny", "Allow once"]), "{event}");
    assert!(
        !target.exists(),
        "nothing ran outside while the offer waits"
    );
    c.result(
        "request.respond",
        json!({"session": s, "request_id": event["request_id"], "answer": choice}),
    );
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn");
    let entries = smith_store::read_session(&env.sessions().join(format!("{s}.smith")))
        .unwrap()
        .entries;
    let effects = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectCompletion(done) if done.evidence.get("sandbox").is_some() => Some((
                done.evidence["sandbox"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                format!("{:?}", done.outcome),
            )),
            Record::EffectCompletion(done)
                if entries.iter().any(|i| {
                    Some(i.id) == e.pair
                        && matches!(&i.record, Record::EffectIntent(x) if x.effect == "process.run")
                }) =>
            {
                Some((String::new(), format!("{:?}", done.outcome)))
            }
            _ => None,
        })
        .collect();
    (prompt, effects, target.exists())
}

#[cfg(unix)]
#[test]
fn a_program_the_sandbox_refused_runs_outside_only_when_the_person_allows_it() {
    let (prompt, effects, escaped) = offered_and_answered(1);
    assert!(
        prompt.contains("OUTSIDE the sandbox") && prompt.contains("touch "),
        "the offer names what it would run: {prompt}"
    );
    assert!(escaped, "allowed once, it ran outside: {effects:?}");
    assert_eq!(effects.len(), 2, "{effects:?}");
    assert!(effects[0].0.starts_with("workspace-write"), "{effects:?}");
    assert!(effects[1].0.starts_with("none: run outside"), "{effects:?}");
    // Denied, it stays refused: the second effect is recorded as not applied.
    let (_, effects, escaped) = offered_and_answered(0);
    assert!(!escaped, "{effects:?}");
    assert_eq!(effects.len(), 2, "{effects:?}");
    assert_eq!(effects[1].1, "NotApplied", "{effects:?}");
}

#[cfg(unix)]
#[test]
fn the_permission_mode_is_set_per_session_and_decides_its_next_run() {
    let env = Env::new();
    let script = env.write(
        "write.kdl",
        "round {\n  tool-call id=\"call_1\" name=\"write\" arguments=#\"{\"path\": \"planned.txt\", \"content\": \"x\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"finished\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start(&env, &["--allow-process"]);
    let s = c.create();
    let set = c.result(
        "session.set_permission_mode",
        json!({"session": s, "mode": "plan"}),
    );
    assert_eq!(set["mode"], "plan");
    let bad = c.error(
        "session.set_permission_mode",
        json!({"session": s, "mode": "yolo"}),
    );
    assert_eq!(bad["code"], -32602, "{bad}");
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "write it", "model": "scripted/w", "script": script}),
    );
    let submission = c.response(id)["result"]["submission"].as_u64().unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn");
    assert!(
        !env.root.path().join("planned.txt").exists(),
        "plan mode refused the write"
    );
    // The refusal is recorded with the mode it was decided under.
    let entries = smith_store::read_session(&env.sessions().join(format!("{s}.smith")))
        .unwrap()
        .entries;
    let refused = entries.iter().any(|e| {
        matches!(&e.record, Record::EffectCompletion(done)
            if String::from_utf8_lossy(&done.output).contains("plan mode")
                && done.evidence["permission_mode"] == "plan")
    });
    assert!(refused, "the refused write is recorded");
    // Without a mode: the next one (plan → ask).
    let next = c.result("session.set_permission_mode", json!({"session": s}));
    assert_eq!(next["mode"], "ask");
}
