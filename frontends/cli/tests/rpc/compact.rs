//! `session.compact`: an idle session compacted over the protocol — its events tagged with the
//! request, the reply after the summary is recorded, the summary in the session's entries, and
//! a busy session refused.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::Env;

/// Submit `input` to `s` with the scripted demo model and wait for it to settle.
fn turn(c: &mut Client, s: &str, input: &str) {
    let receipt = c.result(
        "session.submit",
        json!({"session": s, "input": input, "model": "scripted/demo"}),
    );
    let submission = receipt["submission"].as_u64().unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn");
}

#[test]
fn session_compact_records_the_summary_and_tags_its_events_with_the_request() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    for input in ["first question", "second question", "third question"] {
        turn(&mut c, &s, input);
    }
    let id = c.request(
        "session.compact",
        json!({"session": s, "keep_tokens": 10, "instructions": "the tests", "model": "scripted/demo"}),
    );
    let reply = c.response(id);
    let result = &reply["result"];
    let compaction = result["compaction"]
        .as_u64()
        .expect("the record's entry id");
    assert!(result["summarized"].as_u64().unwrap() >= 2, "{reply}");
    assert!(result["kept"].as_u64().unwrap() >= 1, "{reply}");
    let entries = c.result("session.entries", json!({"session": s, "limit": 1000}));
    let text = entries.to_string();
    assert!(text.contains("first question"), "raw history is kept");
    let shown = entries["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == compaction)
        .expect("the compaction among the entries")
        .clone();
    assert_eq!(shown["kind"], "compaction", "{shown}");
    // The scripted model echoes its last user message: the compaction plugin's ask.
    assert!(
        shown.to_string().contains("focus on this: the tests"),
        "{shown}"
    );

    // A compaction of a session with nothing before its kept context is refused.
    let error = c.error(
        "session.compact",
        json!({"session": s, "keep_tokens": 1_000_000, "model": "scripted/demo"}),
    );
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("nothing to compact"),
        "{error}"
    );
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let tagged: Vec<_> = lines
        .iter()
        .filter(|l| l["method"] == "session.event" && l["params"]["request"] == id)
        .map(|l| l["params"]["event"]["type"].as_str().unwrap().to_owned())
        .collect();
    // The last answer alone is over 1.5 × the 10 tokens asked to keep: said first.
    assert_eq!(
        tagged,
        ["notice", "compaction_start", "attempt", "compaction_end"],
        "{tagged:?}"
    );
    let start = lines
        .iter()
        .find(|l| l["params"]["event"]["type"] == "compaction_start")
        .unwrap();
    assert!(
        start["params"]["event"]["kept_tokens"].as_u64().unwrap() > 15,
        "{start}"
    );
}
