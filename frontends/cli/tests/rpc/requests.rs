//! The runtime's requests: the `ask` permission mode asks before each program (a
//! `select_request`), and the client answers with `request.respond` — offered again to a new
//! observation, listed for an observer in another process (which cannot answer), ended by an
//! abort.

use serde_json::{Value, json};
use smith_store::Record;

use crate::client::{Client, all_protocol, events};
use crate::common::Env;

const ASKING: &[&str] = &["--allow-process", "-c", "permissions.mode=ask"];

/// The index of "Allow once" and of "Deny" among the question's options.
const ALLOW_ONCE: u64 = 1;
const DENY: u64 = 0;

fn script(env: &Env) -> std::path::PathBuf {
    env.write(
        "make.kdl",
        "round {\n  tool-call id=\"call_1\" name=\"bash\" arguments=#\"{\"command\": \"echo made > made.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"finished\"\n  stop \"end_turn\"\n}\n",
    )
}

/// Submit the program-running turn and wait for its permission question; the request event.
fn asked(c: &mut Client, s: &str, script: &std::path::Path) -> (u64, Value) {
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "make it", "model": "scripted/make", "script": script}),
    );
    let submission = c.response(id)["result"]["submission"].as_u64().unwrap();
    let ev = c.event(s, "select_request");
    (submission, ev["params"].clone())
}

/// The session's entries, from the file.
fn entries(env: &Env, s: &str) -> Vec<smith_store::Entry> {
    smith_store::read_session(&env.sessions().join(format!("{s}.smith")))
        .unwrap()
        .entries
}

#[cfg(unix)]
#[test]
fn a_question_is_answered_and_the_question_and_answer_are_recorded() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    let (submission, params) = asked(&mut c, &s, &script);
    let event = &params["event"];
    let rid = event["request_id"].as_str().unwrap().to_owned();
    assert_eq!(event["options"][0], "Deny");
    assert_eq!(event["options"][1], "Allow once");
    let prompt = event["prompt"].as_str().unwrap();
    assert!(prompt.contains("echo made > made.txt"), "{prompt}");
    // Nothing ran while the question waits.
    assert!(!env.root.path().join("made.txt").exists());
    let listed = c.result("requests.list", json!({"session": s}));
    assert_eq!(listed["requests"][0]["event"], *event);
    assert_eq!(listed["requests"][0]["work"], submission);
    assert_eq!(listed["requests"][0]["answerable"], true);
    // Bad answers are refused and the question keeps waiting.
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": 7}),
    );
    assert_eq!(e["code"], -32602);
    assert_eq!(e["data"]["field"], "answer");
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": true}),
    );
    assert_eq!(e["code"], -32602, "a choice is not a yes/no answer: {e}");
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": "999", "answer": true}),
    );
    assert_eq!(e["code"], -32004);
    assert_eq!(e["data"]["field"], "request_id");
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": null}),
    );
    assert_eq!(e["code"], -32602);
    // The answer lets the program run, once.
    let answered = c.result(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": ALLOW_ONCE}),
    );
    assert_eq!(answered["answered"], rid);
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn");
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("made.txt")).unwrap(),
        "made\n"
    );
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": ALLOW_ONCE}),
    );
    assert_eq!(e["code"], -32004, "an answered request is not waiting: {e}");
    assert_eq!(
        c.result("requests.list", json!({"session": s}))["requests"],
        json!([])
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    // The request event carried the submit's request id and a position, like every event.
    let evs = events(&lines, &s);
    let req = evs
        .iter()
        .find(|e| e["event"]["type"] == "select_request")
        .unwrap();
    assert!(req["request"].is_u64() && req["position"].is_u64(), "{req}");
    // The file holds the question (the entry the request id names) and its answer, before
    // the program's own effect.
    let entries = entries(&env, &s);
    let qid: u64 = rid.parse().unwrap();
    let question = entries.iter().find(|e| e.id.0 == qid).unwrap();
    let Record::EffectIntent(intent) = &question.record else {
        panic!(
            "request {rid} is not the question's entry: {:?}",
            question.record
        );
    };
    assert_eq!(intent.effect, "ask.select");
    assert_eq!(intent.target.as_deref(), Some("bash"));
    let answer = entries
        .iter()
        .find(|e| e.pair == Some(question.id))
        .unwrap();
    let Record::EffectCompletion(done) = &answer.record else {
        panic!("{:?}", answer.record);
    };
    assert_eq!(done.outcome, smith::EffectOutcome::Applied);
    assert_eq!(done.evidence["answer"], ALLOW_ONCE);
    // The program's intent is recorded first (what is about to run, which the question is
    // about); it ran only after the answer: its completion follows it.
    let intent = entries
        .iter()
        .find(|e| matches!(&e.record, Record::EffectIntent(i) if i.effect == "process.run"))
        .unwrap();
    let ran = entries
        .iter()
        .find(|e| e.pair == Some(intent.id))
        .expect("the program's completion");
    assert!(
        ran.id > answer.id,
        "the program ended before its answer was recorded"
    );
}

#[cfg(unix)]
#[test]
fn a_declined_program_does_not_run_and_the_model_is_told() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    let (submission, params) = asked(&mut c, &s, &script);
    let rid = params["event"]["request_id"].clone();
    c.result(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": DENY}),
    );
    let tool_end = c.event(&s, "tool_end");
    assert_eq!(tool_end["params"]["event"]["is_error"], true);
    let output = tool_end["params"]["event"]["output"].as_str().unwrap();
    assert!(output.contains("the user declined it"), "{output}");
    c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    assert!(!env.root.path().join("made.txt").exists());
    let entries = entries(&env, &s);
    // The answer, and the program recorded as not applied with the refusal.
    assert!(entries.iter().any(|e| matches!(&e.record,
        Record::EffectCompletion(c) if c.evidence["answer"] == DENY)));
    let program = entries
        .iter()
        .find(|e| matches!(&e.record, Record::EffectIntent(i) if i.effect == "process.run"))
        .expect("the refused program is recorded");
    assert!(entries.iter().any(|e| e.pair == Some(program.id)
        && matches!(&e.record, Record::EffectCompletion(c) if c.outcome == smith::EffectOutcome::NotApplied)));
}

#[cfg(unix)]
#[test]
fn a_waiting_request_is_offered_again_and_listed_for_an_observer_that_cannot_answer() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    let (submission, params) = asked(&mut c, &s, &script);
    let rid = params["event"]["request_id"].clone();
    // A new observation (a client that fell behind, or came back) is asked again, after the
    // records that led to the question.
    let sub = c.result("session.observe", json!({"session": s, "from": 1}))["subscription"].clone();
    let again = c.until(|l| l["method"] == "session.event" && l["params"]["again"] == true);
    assert_eq!(again["params"]["event"], params["event"]);
    assert_eq!(again["params"]["answerable"], true);
    let at = c.lines.iter().position(|l| *l == again).unwrap();
    let question: u64 = rid.as_str().unwrap().parse().unwrap();
    assert!(
        c.lines[..at].iter().any(|l| l["method"] == "session.record"
            && l["params"]["subscription"] == sub
            && l["params"]["entry"]["id"] == question),
        "the question's record did not come before the offer"
    );
    // Another process observes: it lists the question from the file, and cannot answer it.
    let mut o = Client::start(&env, &[]);
    let opened = o.result("sessions.open", json!({"session": s}));
    assert_eq!(opened["access"], "observer");
    let listed = o.result("requests.list", json!({"session": s}));
    assert_eq!(listed["requests"][0]["event"], params["event"]);
    assert_eq!(listed["requests"][0]["answerable"], false);
    let e = o.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": ALLOW_ONCE}),
    );
    assert_eq!(e["code"], -32002);
    o.result("session.observe", json!({"session": s, "from": 1}));
    let offered = o.until(|l| l["method"] == "session.event" && l["params"]["again"] == true);
    assert_eq!(offered["params"]["answerable"], false);
    // The writer's client answers; the observer sees the answer committed.
    c.result(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": ALLOW_ONCE}),
    );
    c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    o.until(|l| l["method"] == "session.record" && l["params"]["entry"]["kind"] == "run_end");
    assert_eq!(
        o.result("requests.list", json!({"session": s}))["requests"],
        json!([])
    );
    let (status, _, stderr) = o.finish();
    assert!(status.success(), "{stderr}");
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
}

#[cfg(unix)]
#[test]
fn an_abort_ends_a_waiting_request_with_terminal_events_and_the_program_never_runs() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    let (submission, params) = asked(&mut c, &s, &script);
    let rid = params["event"]["request_id"].clone();
    c.result("session.abort", json!({"session": s, "reason": "not now"}));
    let run_end = c.event(&s, "run_end");
    assert_eq!(run_end["params"]["event"]["stop_reason"], "aborted");
    let e = c.error(
        "request.respond",
        json!({"session": s, "request_id": rid, "answer": ALLOW_ONCE}),
    );
    assert_eq!(e["code"], -32004);
    let receipt = c.result(
        "receipts.get",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(receipt["stop_reason"], "aborted");
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    let evs = events(&lines, &s);
    let end_at = evs
        .iter()
        .position(|e| e["event"]["type"] == "run_end")
        .unwrap();
    assert_eq!(end_at, evs.len() - 1, "events after run_end");
    assert!(!env.root.path().join("made.txt").exists());
    let entries = entries(&env, &s);
    assert!(entries.iter().any(|e| matches!(&e.record,
        Record::EffectCompletion(c) if c.outcome == smith::EffectOutcome::NotApplied && c.evidence["unanswered"].as_str().is_some_and(|w| w.contains("cancelled")))));
    assert!(
        entries
            .iter()
            .any(|e| matches!(&e.record, Record::ToolResult(r) if r.result.call_id == "call_1"))
    );
}

#[cfg(unix)]
#[test]
fn end_of_input_refuses_a_waiting_request_and_the_turn_ends_at_a_durable_boundary() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    let (submission, _) = asked(&mut c, &s, &script);
    // The client goes away without answering: the server does not wait for ever.
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    assert!(!env.root.path().join("made.txt").exists());
    let entries = entries(&env, &s);
    assert!(entries.iter().any(|e| matches!(&e.record,
        Record::EffectCompletion(c) if c.evidence["unanswered"].as_str().is_some_and(|w| w.contains("closed its input")))));
    // The turn went on to its end: the model was told, and the work's end is recorded.
    assert!(
        entries
            .iter()
            .any(|e| matches!(e.record, Record::RunEnd(_))
                && e.pair == Some(smith::EntryId(submission))),
        "no run_end of the work"
    );
}

#[cfg(unix)]
#[test]
fn an_observer_stops_listing_a_question_once_the_process_asking_it_is_gone() {
    let env = Env::new();
    let script = script(&env);
    let mut c = Client::start(&env, ASKING);
    let s = c.create();
    asked(&mut c, &s, &script);
    let mut o = Client::start(&env, &[]);
    assert_eq!(
        o.result("sessions.open", json!({"session": s}))["access"],
        "observer"
    );
    assert_eq!(
        o.result("requests.list", json!({"session": s}))["requests"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The asking process dies without a word.
    c.child.kill().unwrap();
    c.child.wait().unwrap();
    assert_eq!(
        o.result("requests.list", json!({"session": s}))["requests"],
        json!([])
    );
    let (status, _, stderr) = o.finish();
    assert!(status.success(), "{stderr}");
}
