//! Abort, the queue, and read-only access.

use serde_json::json;

use crate::client::{Client, all_protocol, events};
use crate::common::{self, Env};

#[cfg(unix)]
#[test]
fn abort_mid_tool_ends_with_terminal_events_paired_results_and_nothing_after() {
    let env = Env::new();
    let dir = env.root.path();
    let script = env.write(
        "slow.kdl",
        "round {\n  tool-call id=\"call_1\" name=\"bash\" arguments=#\"{\"command\": \"touch begun; sleep 4202.2\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"never\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start(&env, &["--allow-process"]);
    let s = c.create();
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "go", "model": "scripted/slow", "script": script}),
    );
    let submission = c.response(id)["result"]["submission"].as_u64().unwrap();
    common::wait_for(&dir.join("begun"));
    let aborted = c.result("session.abort", json!({"session": s, "reason": "enough"}));
    assert_eq!(aborted["aborted"], submission);
    let run_end = c.event(&s, "run_end");
    assert_eq!(run_end["params"]["event"]["stop_reason"], "aborted");
    // A later request is answered; no event of the aborted work follows its run_end.
    let receipts = c.result("receipts.list", json!({"session": s}));
    assert_eq!(receipts["receipts"][0]["stop_reason"], "aborted");
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    let evs = events(&lines, &s);
    let end_at = evs
        .iter()
        .position(|e| e["event"]["type"] == "run_end")
        .unwrap();
    assert_eq!(
        end_at,
        evs.len() - 1,
        "events after run_end: {:?}",
        &evs[end_at..]
    );
    let kinds: Vec<&str> = evs
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"round_end"), "{kinds:?}");
    let tool_end = evs
        .iter()
        .find(|e| e["event"]["type"] == "tool_end")
        .unwrap();
    assert_eq!(tool_end["event"]["is_error"], true);
    // The call is paired with its result in the file, and the abort is recorded.
    let file = env.sessions().join(format!("{s}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    assert!(entries.iter().any(
        |e| matches!(&e.record, smith_store::Record::ToolResult(r) if r.result.call_id == "call_1")
    ));
    assert!(
        entries
            .iter()
            .any(|e| matches!(e.record, smith_store::Record::Abort(_)))
    );
    assert!(
        !lines.iter().any(|l| l.to_string().contains("never\"")),
        "the second round ran"
    );
}

#[test]
fn queued_input_is_listed_withdrawn_cleared_and_delivered() {
    let env = Env::new();
    let dir = env.root.path();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"first \"\n  gate \"hold\"\n  text \"answer\"\n  stop \"end_turn\"\n}\nround {\n  text \"follow-up answer\"\n  stop \"end_turn\"\n}\n",
    );
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "start", "model": "scripted/gated", "script": script}),
    );
    let first = c.response(id)["result"]["submission"].as_u64().unwrap();
    common::wait_for(&dir.join("hold.waiting"));
    // Busy: a second submission is refused with the way out named.
    let busy = c.error(
        "session.submit",
        json!({"session": s, "input": "x", "model": "scripted/demo"}),
    );
    assert_eq!(busy["code"], -32003);
    let keep = c.result(
        "queue.follow_up",
        json!({"session": s, "input": "and then this", "model": "scripted/gated"}),
    )["submission"]
        .as_u64()
        .unwrap();
    let drop1 = c.result(
        "queue.follow_up",
        json!({"session": s, "input": "not this", "model": "scripted/gated"}),
    )["submission"]
        .as_u64()
        .unwrap();
    let drop2 = c.result(
        "queue.steer",
        json!({"session": s, "input": "nor this", "model": "scripted/gated"}),
    )["submission"]
        .as_u64()
        .unwrap();
    let listed = c.result("queue.list", json!({"session": s}));
    let ids: Vec<u64> = listed["queued"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["submission"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 3, "{listed}");
    for n in [keep, drop1, drop2] {
        assert!(ids.contains(&n));
    }
    assert_eq!(
        c.result("queue.withdraw", json!({"session": s, "submission": drop1}))["withdrawn"],
        drop1
    );
    let again = c.error("queue.withdraw", json!({"session": s, "submission": drop1}));
    assert_eq!(again["code"], -32010);
    // Clearing withdraws the steer, then the follow-up we keep is queued again.
    let cleared = c.result("queue.clear", json!({"session": s}));
    assert_eq!(
        cleared["withdrawn"].as_array().unwrap().len(),
        2,
        "{cleared}"
    );
    let keep = c.result("queue.follow_up", json!({"session": s, "input": "and then this", "model": "scripted/gated", "dedup_key": "f"}))["submission"].as_u64().unwrap();
    std::fs::write(dir.join("hold.release"), "").unwrap();
    let settled = c.result("session.wait", json!({"session": s, "submission": first}));
    assert_eq!(settled["state"], "terminal");
    let receipts = c.result("receipts.list", json!({"session": s}))["receipts"].clone();
    let state = |n: u64| {
        receipts
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["submission"] == n)
            .unwrap()["state"]
            .clone()
    };
    assert_eq!(state(drop1), "withdrawn");
    assert_eq!(state(drop2), "withdrawn");
    assert_ne!(state(keep), "withdrawn");
    assert_ne!(state(keep), "queued", "{receipts}");
    let (status, lines, _) = c.finish();
    assert!(status.success());
    assert!(
        lines
            .iter()
            .any(|l| l["params"]["event"]["type"] == "message_delta"
                && l["params"]["event"]["text"] == "follow-up answer")
    );
}

#[test]
fn an_observer_is_refused_every_mutation_before_anything_is_written() {
    let env = Env::new();
    let mut writer = Client::start(&env, &[]);
    let s = writer.create();
    let queued = writer.result(
        "queue.follow_up",
        json!({"session": s, "input": "later, please", "model": "scripted/demo"}),
    )["submission"]
        .clone();
    let file = env.sessions().join(format!("{s}.smith"));
    let before = std::fs::read(&file).unwrap();
    let mut observer = Client::start(&env, &[]);
    let opened = observer.result("sessions.open", json!({"session": s}));
    assert_eq!(opened["access"], "observer");
    for (method, params) in [
        (
            "session.submit",
            json!({"session": s, "input": "x", "model": "scripted/demo"}),
        ),
        ("session.abort", json!({"session": s})),
        ("session.edit", json!({"session": s, "omit": [1]})),
        ("sessions.select", json!({"session": s, "entry": 1})),
        ("queue.steer", json!({"session": s, "input": "x"})),
        ("queue.follow_up", json!({"session": s, "input": "x"})),
        ("queue.withdraw", json!({"session": s, "submission": 1})),
        ("queue.clear", json!({"session": s})),
        (
            "request.respond",
            json!({"session": s, "request_id": "1", "answer": true}),
        ),
    ] {
        let e = observer.error(method, params);
        assert_eq!(e["code"], -32002, "{method}: {e}");
        assert!(e["message"].as_str().unwrap().contains("read-only"), "{e}");
    }
    // Reading works, the queue as the file shows it among it.
    assert_eq!(
        observer.result("session.entries", json!({"session": s}))["entries"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        observer.result("queue.list", json!({"session": s}))["queued"],
        json!([{"submission": queued, "delivery": "follow_up", "input": "later, please"}])
    );
    assert_eq!(std::fs::read(&file).unwrap(), before, "the observer wrote");
    // A fork is a session of one's own.
    let fork = observer.result("sessions.fork", json!({"session": s}));
    assert_eq!(fork["access"], "writer");
    assert_ne!(fork["session"], s);
    // Opening again while the other process writes keeps observing; once it has let the
    // session go, opening again takes the writer.
    let again = observer.result("sessions.open", json!({"session": s}));
    assert_eq!(again["access"], "observer");
    writer.result("sessions.close", json!({"session": s}));
    let promoted = observer.result("sessions.open", json!({"session": s}));
    assert_eq!(promoted["access"], "writer");
    let r = observer.result(
        "session.submit",
        json!({"session": s, "input": "mine now", "model": "scripted/demo"}),
    );
    assert_eq!(r["state"], "admitted");
    observer.finish();
    writer.finish();
}

#[test]
fn the_queue_can_be_listed_withdrawn_and_aborted_before_a_model_is_prepared() {
    let env = Env::new();
    // No model setting: the session cannot prepare a model, yet the queue answers at once.
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    assert_eq!(
        c.result("queue.list", json!({"session": s}))["queued"],
        json!([])
    );
    assert_eq!(
        c.result("queue.clear", json!({"session": s}))["withdrawn"],
        json!([])
    );
    let e = c.error("queue.withdraw", json!({"session": s, "submission": 1}));
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("not waiting in the queue"),
        "{e}"
    );
    let e = c.error("session.abort", json!({"session": s, "submission": 1}));
    assert!(
        e["message"].as_str().unwrap().contains("not live work"),
        "{e}"
    );
    // Queuing needs the model's queue policy: refused with why.
    let e = c.error("queue.steer", json!({"session": s, "input": "x"}));
    assert_eq!(e["code"], -32008, "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("input cannot be queued in this session: "),
        "{e}"
    );
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
}

#[test]
fn queue_calls_sent_before_the_session_is_prepared_are_served_in_the_order_sent() {
    let env = Env::new();
    let mut c = Client::start(&env, &["-m", "scripted/demo"]);
    let id = "01a2340c-aaaa-7000-8000-0000000000a1";
    // Nothing waits for a reply: every call is pipelined behind the create.
    let create = c.request("sessions.create", json!({"id": id}));
    let steers: Vec<u64> = (0..8)
        .map(|i| {
            c.request(
                "queue.steer",
                json!({"session": id, "input": format!("s{i}")}),
            )
        })
        .collect();
    let keyed: Vec<u64> = ["third", "third", "other"]
        .iter()
        .map(|input| {
            c.request(
                "queue.follow_up",
                json!({"session": id, "input": input, "dedup_key": "k"}),
            )
        })
        .collect();
    let list = c.request("queue.list", json!({"session": id}));
    assert!(c.response(create).get("result").is_some());
    let submissions: Vec<u64> = steers
        .iter()
        .map(|s| c.response(*s)["result"]["submission"].as_u64().unwrap())
        .collect();
    assert!(
        submissions.windows(2).all(|w| w[0] < w[1]),
        "{submissions:?}"
    );
    // The key goes to the first input that used it; its repeat is that input again.
    let first = c.response(keyed[0])["result"]["submission"].clone();
    assert_eq!(c.response(keyed[0])["result"]["deduplicated"], false);
    assert_eq!(c.response(keyed[1])["result"]["submission"], first);
    assert_eq!(c.response(keyed[1])["result"]["deduplicated"], true);
    assert_eq!(c.response(keyed[2])["error"]["code"], -32005);
    let queued: Vec<String> = c.response(list)["result"]["queued"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["input"].as_str().unwrap().to_owned())
        .collect();
    let mut wanted: Vec<String> = (0..8).map(|i| format!("s{i}")).collect();
    wanted.push("third".into());
    assert_eq!(queued, wanted);
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
}

#[test]
fn queued_input_naming_a_model_is_checked_and_prepares_a_session_without_one() {
    let env = Env::new();
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    let e = c.error(
        "queue.follow_up",
        json!({"session": s, "input": "f", "model": "nosuch/x"}),
    );
    assert_eq!(
        (e["code"].as_i64(), e["data"]["field"].as_str()),
        (Some(-32008), Some("model")),
        "{e}"
    );
    let queued = c.result(
        "queue.follow_up",
        json!({"session": s, "input": "f", "model": "scripted/demo"}),
    );
    assert!(queued["submission"].as_u64().is_some(), "{queued}");
    assert_eq!(
        c.result("queue.list", json!({"session": s}))["queued"][0]["input"],
        "f"
    );
    let (status, _, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
}
