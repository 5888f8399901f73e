//! Turns through `session.submit`: the receipt reply, the events, and what the file holds.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::client::{Client, all_protocol, events};
use crate::common::Env;

/// The text of each message, assembled from its deltas, and the text of its end event.
fn assembled(events: &[&Value]) -> (HashMap<u64, String>, HashMap<u64, String>) {
    let mut from_deltas: HashMap<u64, String> = HashMap::new();
    let mut from_ends = HashMap::new();
    for e in events {
        let ev = &e["event"];
        match ev["type"].as_str() {
            Some("message_delta") if ev["kind"] == "text" => {
                from_deltas
                    .entry(ev["message_id"].as_u64().unwrap())
                    .or_default()
                    .push_str(ev["text"].as_str().unwrap());
            }
            Some("message_end") if ev["message"]["role"] == "assistant" => {
                let text: String = ev["message"]["content"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|b| b["type"] == "text")
                    .map(|b| b["text"].as_str().unwrap())
                    .collect();
                from_ends.insert(ev["message_id"].as_u64().unwrap(), text);
            }
            _ => {}
        }
    }
    (from_deltas, from_ends)
}

#[test]
fn a_tool_using_turn_streams_deltas_that_equal_its_end_events_and_the_file() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "read the readme", "model": "scripted/tool-call"}),
    );
    let receipt = c.response(id)["result"].clone();
    assert_eq!(receipt["state"], "admitted");
    let submission = receipt["submission"].as_u64().unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["state"], "terminal");
    assert_eq!(settled["stop_reason"], "end_turn");
    let page = c.result("session.entries", json!({"session": s, "limit": 1000}));
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);

    let evs = events(&lines, &s);
    // Every event carries the submit request's id and a durable position, never decreasing.
    let mut last = 0;
    for e in &evs {
        assert_eq!(e["request"], id, "{e}");
        let p = e["position"].as_u64().unwrap();
        assert!(p >= last, "positions go back: {e}");
        last = p;
    }
    // The receipt reply came before the work's first model output, after its admission.
    let reply_at = lines.iter().position(|l| l["id"] == id).unwrap();
    let first_delta = lines
        .iter()
        .position(|l| l["params"]["event"]["type"] == "message_delta")
        .unwrap();
    assert!(reply_at < first_delta, "the receipt came after the deltas");
    assert!(receipt["position"].as_u64().unwrap() > submission);
    // Deltas assemble to exactly the end events' text, which is what the file recorded.
    let (from_deltas, from_ends) = assembled(&evs);
    assert_eq!(from_deltas, from_ends);
    assert_eq!(from_ends.len(), 2, "two assistant messages: {from_ends:?}");
    for (message_id, text) in &from_ends {
        let entry = page["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == *message_id)
            .unwrap();
        let recorded: String = entry["record"]["message"]["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["type"] == "text")
            .map(|b| b["text"].as_str().unwrap())
            .collect();
        assert_eq!(&recorded, text);
    }
    // The tool call and its result, in order, then the run's end, last of its events.
    let kinds: Vec<&str> = evs
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap())
        .collect();
    let start = kinds.iter().position(|k| *k == "tool_start").unwrap();
    let end = kinds.iter().position(|k| *k == "tool_end").unwrap();
    assert!(start < end);
    assert_eq!(*kinds.last().unwrap(), "run_end");
    // A tool_end's entry is in the file at a position the event follows.
    let tool_end = evs[end];
    assert!(
        tool_end["position"].as_u64().unwrap() > tool_end["event"]["entry_id"].as_u64().unwrap()
    );
}

#[test]
fn two_sessions_run_at_once_and_their_events_stay_apart() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let a = c.create();
    let b = c.create();
    let ia = c.request(
        "session.submit",
        json!({"session": a, "input": "alpha", "model": "scripted/demo"}),
    );
    let ib = c.request(
        "session.submit",
        json!({"session": b, "input": "beta", "model": "scripted/demo"}),
    );
    let ra = c.response(ia)["result"]["submission"].as_u64().unwrap();
    let rb = c.response(ib)["result"]["submission"].as_u64().unwrap();
    c.result("session.wait", json!({"session": a, "submission": ra}));
    c.result("session.wait", json!({"session": b, "submission": rb}));
    let (status, lines, _) = c.finish();
    assert!(status.success());
    for (s, id, word) in [(&a, ia, "alpha"), (&b, ib, "beta")] {
        let evs = events(&lines, s);
        assert!(evs.iter().all(|e| e["request"] == id));
        let (deltas, ends) = assembled(&evs);
        assert_eq!(deltas, ends);
        assert!(ends.values().any(|t| t.contains(word)), "{ends:?}");
    }
}

#[test]
fn a_repeated_dedup_key_returns_the_original_receipt_and_runs_nothing() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let params =
        json!({"session": s, "input": "once", "model": "scripted/demo", "dedup_key": "k-1"});
    let first = c.result("session.submit", params.clone());
    let n = first["submission"].as_u64().unwrap();
    c.result("session.wait", json!({"session": s, "submission": n}));
    let again = c.result("session.submit", params);
    assert_eq!(again["submission"], n);
    assert_eq!(again["deduplicated"], true);
    let other = c.error(
        "session.submit",
        json!({"session": s, "input": "other", "model": "scripted/demo", "dedup_key": "k-1"}),
    );
    assert_eq!(other["code"], -32005, "{other}");
    let receipts = c.result("receipts.list", json!({"session": s}));
    assert_eq!(receipts["receipts"].as_array().unwrap().len(), 1);
    let one = c.result("receipts.get", json!({"session": s, "submission": n}));
    assert_eq!(one["state"], "terminal");
    let (status, _, _) = c.finish();
    assert!(status.success());
}

#[test]
fn end_of_input_lets_the_running_turn_finish_then_closes_the_session() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    c.request(
        "session.submit",
        json!({"session": s, "input": "go", "model": "scripted/tool-call"}),
    );
    // Input ends at once: the turn still runs to its end, and its end is in the file.
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let evs = events(&lines, &s);
    assert_eq!(evs.last().unwrap()["event"]["type"], "run_end");
    let file = env.sessions().join(format!("{s}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    assert!(matches!(
        entries.last().unwrap().record,
        smith_store::Record::RunEnd(_)
    ));
    // The writer lock was released: the session opens as writer again.
    let mut again = Client::start(&env, &[]);
    assert_eq!(
        again.result("sessions.open", json!({"session": s}))["access"],
        "writer"
    );
    again.finish();
}

/// A turn that would pass `run.max-cost` ends with stop reason `budget` in its `run_end`
/// event and in its receipt, and nothing is sent: the demo model priced at $1 per input token
/// in the user's catalog, its first request estimated at thousands of tokens.
#[test]
fn a_turn_past_its_cost_budget_ends_with_stop_reason_budget() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"scripted/demo\" {\n    tools #true\n    price input=1000000.0 output=0.0\n}\n",
    )
    .unwrap();
    let mut c = Client::start(&env, &["-c", "run.max-cost=0.50"]);
    let s = c.create();
    c.request(
        "session.submit",
        json!({"session": s, "input": "hi", "model": "scripted/demo"}),
    );
    let end = c.event(&s, "run_end");
    assert_eq!(end["params"]["event"]["stop_reason"], "budget", "{end}");
    let receipts = c.result("receipts.list", json!({"session": s}));
    assert_eq!(
        receipts["receipts"][0]["stop_reason"], "budget",
        "{receipts}"
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let said: Vec<&str> = events(&lines, &s)
        .iter()
        .filter(|e| e["event"]["type"] == "notice")
        .filter_map(|e| e["event"]["text"].as_str())
        .collect();
    assert!(
        said.iter().any(|t| t.contains("run.max-cost")),
        "the reason is said: {said:?}"
    );
    assert!(
        !events(&lines, &s)
            .iter()
            .any(|e| e["event"]["type"] == "attempt"),
        "no request was sent"
    );
}
