//! Observation from durable positions across processes, and a client too slow to read.

use serde_json::{Value, json};

use crate::client::{Client, all_protocol};
use crate::common::{self, Env};

/// The entry ids of the `session.record`s of `subscription` among `lines`, in order.
fn recorded(lines: &[Value], subscription: &Value) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l["method"] == "session.record" && l["params"]["subscription"] == *subscription)
        .map(|l| {
            let id = l["params"]["entry"]["id"].as_u64().unwrap();
            assert_eq!(l["params"]["position"].as_u64().unwrap(), id + 1);
            id
        })
        .collect()
}

#[test]
fn a_new_process_observes_from_start_middle_and_live_with_no_gap_and_no_duplicate() {
    let env = Env::new();
    let dir = env.root.path();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"one\"\n  stop \"end_turn\"\n}\nround {\n  text \"two \"\n  gate \"hold\"\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    // The writing process: one finished turn, then one held mid-stream.
    let mut writer = Client::start(&env, &[]);
    let s = writer.create();
    let first = writer.result(
        "session.submit",
        json!({"session": s, "input": "a", "model": "scripted/gated", "script": script}),
    );
    writer.result(
        "session.wait",
        json!({"session": s, "submission": first["submission"]}),
    );
    let second = writer.request(
        "session.submit",
        json!({"session": s, "input": "b", "model": "scripted/gated", "script": script}),
    );
    let second = writer.response(second)["result"]["submission"].clone();
    common::wait_for(&dir.join("hold.waiting"));

    // The reconnecting process, an observer.
    let mut c = Client::start(&env, &[]);
    let opened = c.result("sessions.open", json!({"session": s}));
    assert_eq!(opened["access"], "observer");
    let live = opened["position"].as_u64().unwrap();
    let middle = live / 2;
    let subs: Vec<(u64, Value)> = [1, middle, live]
        .into_iter()
        .map(|from| {
            let r = c.result("session.observe", json!({"session": s, "from": from}));
            assert_eq!(r["from"], from);
            (from, r["subscription"].clone())
        })
        .collect();
    // An unknown position is an explicit error.
    let bad = c.error("session.observe", json!({"session": s, "from": live + 50}));
    assert_eq!(bad["code"], -32006, "{bad}");
    // The held turn ends while they watch.
    std::fs::write(dir.join("hold.release"), "").unwrap();
    writer.result("session.wait", json!({"session": s, "submission": second}));
    let file = env.sessions().join(format!("{s}.smith"));
    let entries = smith_store::read_session(&file).unwrap().entries;
    let last = entries.last().unwrap().id.0;
    assert!(
        last > live,
        "the turn committed records after the observation began"
    );
    for (_, sub) in &subs {
        let sub = sub.clone();
        c.seen(|l| {
            l["method"] == "session.record"
                && l["params"]["subscription"] == sub
                && l["params"]["entry"]["id"] == last
        });
    }
    for (from, sub) in &subs {
        let ids = recorded(&c.lines, sub);
        let expected: Vec<u64> = entries
            .iter()
            .map(|e| e.id.0)
            .filter(|id| id >= from)
            .collect();
        assert_eq!(ids, expected, "observation from {from}");
    }
    // Ending an observation changes nothing; ending it twice is an error.
    let (_, sub) = &subs[0];
    assert_eq!(
        c.result("session.unobserve", json!({"subscription": sub}))["ended"],
        true
    );
    assert_eq!(
        c.error("session.unobserve", json!({"subscription": sub}))["code"],
        -32004
    );
    // Closing the session ends the other observations, each with a notice.
    c.result("sessions.close", json!({"session": s}));
    for (_, sub) in &subs[1..] {
        let sub = sub.clone();
        c.seen(|l| l["method"] == "session.observe_ended" && l["params"]["subscription"] == sub);
    }
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
    // Another process's deltas never cross: only committed records reached the observer.
    assert!(!lines.iter().any(|l| l["method"] == "session.event"));
    writer.finish();
}

#[cfg(target_os = "linux")]
#[test]
fn a_client_that_stops_reading_falls_behind_loses_no_record_and_catches_up() {
    let env = Env::new();
    // Thousands of deltas that cannot merge (text and thinking alternate), far more than the
    // outbox holds: the client reads nothing until the work has ended.
    let mut script = String::from("round {\n");
    for i in 0..6000 {
        if i % 2 == 0 {
            script.push_str(&format!("  text \"t{i} \"\n"));
        } else {
            script.push_str(&format!("  thinking \"h{i} \"\n"));
        }
    }
    script.push_str("  stop \"end_turn\"\n}\n");
    let script = env.write("flood.kdl", &script);
    // The session is made by a first process; the client that stops reading opens it.
    let mut maker = Client::start(&env, &[]);
    let s = maker.create();
    maker.finish();
    let mut c = Client::start_paused(&env, &[]);
    c.request("sessions.open", json!({"session": s}));
    let id = c.request(
        "session.submit",
        json!({"session": s, "input": "flood", "model": "scripted/flood", "script": script}),
    );
    // Not reading: the agent must still finish — its run_end reaches the file.
    let file = env.sessions().join(format!("{s}.smith"));
    smith_testkit::wait_until("the run's end behind a client that does not read", || {
        smith_store::read_session(&file)
            .map(|r| {
                r.entries
                    .iter()
                    .any(|e| matches!(e.record, smith_store::Record::RunEnd(_)))
            })
            .unwrap_or(false)
    });
    let status = std::fs::read_to_string(format!("/proc/{}/status", c.child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        peak_kib < 96 * 1024,
        "peak RSS {peak_kib} KiB: the outbox is not bounded"
    );
    // Now read: the receipt, then a fell_behind naming where to resume.
    c.resume();
    c.response(id);
    let behind = c.seen(|l| l["method"] == "session.fell_behind");
    assert_eq!(behind["params"]["session"], s);
    let next = behind["params"]["next"].as_u64().unwrap();
    // Catching up from there gives every committed record from it, the run's end included.
    let entries = smith_store::read_session(&file).unwrap().entries;
    let last = entries.last().unwrap().id.0;
    let sub =
        c.result("session.observe", json!({"session": s, "from": next}))["subscription"].clone();
    c.seen(|l| {
        l["method"] == "session.record"
            && l["params"]["subscription"] == sub
            && l["params"]["entry"]["id"] == last
    });
    let ids = recorded(&c.lines, &sub);
    let expected: Vec<u64> = entries
        .iter()
        .map(|e| e.id.0)
        .filter(|i| *i >= next)
        .collect();
    assert_eq!(ids, expected);
    let message = entries.iter().rev().find(|e| matches!(&e.record, smith_store::Record::Message(m) if m.message.role == smith::Role::Assistant)).unwrap();
    assert!(
        ids.contains(&message.id.0),
        "the answer is among the records caught up"
    );
    let (status, lines, _) = c.finish();
    assert!(status.success());
    all_protocol(&lines);
}
