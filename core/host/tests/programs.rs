//! Programs kept across tool calls (`process.start-session`, WIT 1.3.0) with real programs,
//! the `program-probe` test plugin in the wasm host, and a real session file: a program
//! started by one call answers the fresh instances of later calls, its output waits between
//! calls within its bound and nothing is lost, every start and exchange is recorded, a
//! cancelled wait returns while a send still goes out, and the session's end terminates the
//! program's whole group.

mod common;

use std::time::Instant;

use common::{Fixture, cache, source, survivors_after_settling};
use serde_json::{Value, json};
use smith::{Cancel, ToolCall, ToolRegistry};
use smith_host::{Host, Limits, Policy, ProcessPolicy};
use smith_store::{EffectOutcome, Record, read_session};

fn tools() -> smith_host::Loadout {
    let sources = [source(&smith_plugins::PROGRAM_PROBE)];
    Host::load(&sources, &cache(), Limits::default())
        .unwrap()
        .loadout()
        .with_policy(Policy {
            process: ProcessPolicy::Allowed("the test allows it".into()),
            // The facility itself is under test here; only the `smith` binary can be the OS
            // sandbox's launcher (the binary's tests confine kept programs).
            sandbox: smith_host::sandbox::Sandbox::full_access(),
            ..Policy::default()
        })
}

/// The probe's results, one per step.
fn steps(f: &Fixture, tools: &dyn ToolRegistry, steps: Value) -> Vec<Value> {
    let out = f.call(tools, "steps", json!({ "steps": steps }));
    assert!(!out.is_error, "{}", out.output);
    serde_json::from_str(&out.output).unwrap()
}

/// An echo server: each line read is answered `got LINE`; `ready` on stderr first.
fn echo(name: &str) -> Value {
    json!({"op": "start", "name": name, "program": "bash",
           "args": ["-c", "echo ready >&2; while read l; do echo \"got $l\"; done"]})
}

/// Every effect's name, intent input, completion outcome and output, in order.
fn effects(f: &Fixture) -> Vec<(String, Value, EffectOutcome, String)> {
    f.completed()
        .into_iter()
        .map(|c| (c.effect, c.input, c.outcome, c.output))
        .collect()
}

#[test]
fn a_program_started_by_one_call_answers_the_next_calls_and_each_exchange_is_recorded() {
    let f = Fixture::new();
    let tools = tools();
    let first = steps(
        &f,
        &tools,
        json!([echo("echo"),
               {"op": "send", "name": "echo", "text": "one\n"},
               {"op": "until", "name": "echo", "text": "got one\n", "timeout_ms": 60000}]),
    );
    assert_eq!(first[0]["ok"]["started"], true, "{first:?}");
    let pid = first[0]["ok"]["pid"].as_u64().unwrap();
    assert_eq!(first[2]["ok"]["text"], "got one\n", "{first:?}");

    // A later call's fresh instance reaches the same program by name: started again with the
    // same request it is the running one, nothing new is started.
    let second = steps(
        &f,
        &tools,
        json!([echo("echo"),
               {"op": "send", "name": "echo", "text": "two\n"},
               {"op": "until", "name": "echo", "text": "got two\n", "timeout_ms": 60000},
               {"op": "tail", "name": "echo"}]),
    );
    assert_eq!(second[0]["ok"]["started"], false, "{second:?}");
    assert_eq!(second[0]["ok"]["pid"].as_u64(), Some(pid));
    assert_eq!(second[2]["ok"]["text"], "got two\n", "{second:?}");
    assert_eq!(second[3]["ok"], "ready\n", "{second:?}");

    // One start, and one exchange per send: the message in its intent, what came back in its
    // completion. A program may change anything: never claimed applied.
    let recorded = effects(&f);
    let names: Vec<&str> = recorded.iter().map(|(n, ..)| n.as_str()).collect();
    assert_eq!(
        names,
        ["process.start", "process.send", "process.send"],
        "{recorded:?}"
    );
    assert_eq!(recorded[0].1["program"], "bash");
    assert_eq!(recorded[0].1["session"], "echo");
    assert!(
        recorded[0].3.contains(&format!("pid {pid}")),
        "{recorded:?}"
    );
    assert_eq!(recorded[1].1["message"], "one\n");
    assert_eq!(recorded[1].3, "got one\n");
    assert_eq!(recorded[2].1["message"], "two\n");
    assert_eq!(recorded[2].3, "got two\n");
    assert!(
        recorded
            .iter()
            .all(|(_, _, outcome, _)| *outcome == EffectOutcome::Unknown)
    );
}

#[test]
fn output_waits_within_its_bound_and_none_is_lost() {
    let f = Fixture::new();
    let tools = tools();
    // 2,000 lines (~19 KB) into a 1 KiB buffer: the program waits whenever it is full.
    let started = steps(
        &f,
        &tools,
        json!([{"op": "start", "name": "many", "program": "bash", "limit": 1024,
                "args": ["-c", "for i in $(seq 1 2000); do echo line-$i; done; echo finished >&2"]}]),
    );
    assert_eq!(started[0]["ok"]["started"], true, "{started:?}");
    // What waited between the calls is there for the next one, never more than the bound
    // at once.
    let mut text = String::new();
    let until = Instant::now() + smith_testkit::DEADLINE;
    let ended = loop {
        let got = steps(
            &f,
            &tools,
            json!([{"op": "receive", "name": "many", "timeout_ms": 1000}]),
        );
        let chunk = got[0]["ok"]["text"].as_str().unwrap().to_owned();
        assert!(chunk.len() <= 1024, "{} bytes at once", chunk.len());
        text.push_str(&chunk);
        if !got[0]["ok"]["ended"].is_null() {
            break got[0]["ok"]["ended"].clone();
        }
        assert!(
            Instant::now() < until,
            "never ended; got {} bytes",
            text.len()
        );
    };
    assert_eq!(ended, json!({"code": 0}));
    let expected: String = (1..=2000).map(|i| format!("line-{i}\n")).collect();
    assert_eq!(text, expected);
    let tail = steps(&f, &tools, json!([{"op": "tail", "name": "many"}]));
    assert_eq!(tail[0]["ok"], "finished\n", "{tail:?}");
}

#[test]
fn the_end_of_the_session_terminates_the_program_and_its_children() {
    let tools = tools();
    let f = Fixture::new();
    // A child of the kept program, sleeping far past the test; the unusual durations mark
    // them in the process table.
    let started = steps(
        &f,
        &tools,
        json!([{"op": "start", "name": "sleepy", "program": "bash",
                "args": ["-c", "sleep 4202.1 & sleep 4202.2; wait"]}]),
    );
    assert_eq!(started[0]["ok"]["started"], true, "{started:?}");
    // The program (its command line names them) and its two sleeping children.
    smith_testkit::wait_until("the program's children starting", || {
        common::survivors("4202.").len() >= 3
    });
    // The program outlives the call that started it…
    assert_eq!(common::survivors("4202.").len(), 3);
    // …and ends with the session.
    drop(f);
    assert_eq!(survivors_after_settling("4202."), Vec::<String>::new());
}

#[test]
fn stop_ends_a_program_and_an_ended_one_refuses_input_with_the_reason() {
    let f = Fixture::new();
    let tools = tools();
    let got = steps(
        &f,
        &tools,
        json!([{"op": "start", "name": "brief", "program": "bash",
                "args": ["-c", "echo bye; echo 'goodbye from stderr' >&2; exit 3"]},
               {"op": "until", "name": "brief", "text": "never", "timeout_ms": 60000}]),
    );
    assert_eq!(got[1]["ok"]["text"], "bye\n", "{got:?}");
    assert_eq!(got[1]["ok"]["ended"], json!({"code": 3}), "{got:?}");
    let sent = steps(
        &f,
        &tools,
        json!([{"op": "send", "name": "brief", "text": "anyone?\n"}]),
    );
    assert_eq!(sent[0]["error"], "io", "{sent:?}");
    let message = sent[0]["message"].as_str().unwrap();
    assert!(
        message.contains("exited with status 3") && message.contains("goodbye from stderr"),
        "{message}"
    );
    // An ended program is started again by a start of the same name.
    let again = steps(
        &f,
        &tools,
        json!([echo("brief"), {"op": "stop", "name": "brief"}, {"op": "stop", "name": "brief"},
               {"op": "send", "name": "brief", "text": "x\n"}]),
    );
    assert_eq!(again[0]["ok"]["started"], true, "{again:?}");
    assert!(
        !again[1]["ok"].is_null(),
        "stopping says how it ended: {again:?}"
    );
    assert!(
        again[2]["ok"].is_null(),
        "a second stop finds none: {again:?}"
    );
    assert_eq!(again[3]["error"], "not-found", "{again:?}");
    // The failed send is recorded as not applied.
    let recorded = effects(&f);
    assert!(
        recorded
            .iter()
            .any(|(n, _, o, _)| n == "process.send" && *o == EffectOutcome::NotApplied),
        "{recorded:?}"
    );
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    let f = Fixture::new();
    let tools = tools();
    let mut requests: Vec<Value> =
        vec![json!({"op": "start", "name": "ghost", "program": "/nonexistent/program"})];
    requests.extend((0..8).map(|i| echo(&format!("s{i}"))));
    requests.push(echo("s8"));
    requests.push(json!({"op": "start", "name": "a b", "program": "cat"}));
    requests.push(json!({"op": "start", "name": "s0", "program": "cat"}));
    requests.push(json!({"op": "receive", "name": "nobody"}));
    let got = steps(&f, &tools, Value::Array(requests));
    assert_eq!(got[0]["error"], "not-found", "a missing program: {got:?}");
    for (i, result) in got[1..9].iter().enumerate() {
        assert_eq!(result["ok"]["started"], true, "s{i}: {result:?}");
    }
    assert_eq!(got[9]["error"], "invalid", "a ninth: {got:?}");
    assert!(got[9]["message"].as_str().unwrap().contains("8 programs"));
    assert_eq!(got[10]["error"], "invalid", "a bad name: {got:?}");
    assert!(got[10]["message"].as_str().unwrap().contains("`a b`"));
    assert_eq!(got[11]["error"], "invalid", "another request: {got:?}");
    assert!(
        got[11]["message"]
            .as_str()
            .unwrap()
            .contains("stop it first")
    );
    assert_eq!(got[12]["error"], "not-found", "{got:?}");

    // Outside a session nothing can be kept.
    let call = ToolCall {
        id: "call_outside".into(),
        name: "steps".into(),
        arguments: json!({"steps": [echo("x")]}),
    };
    let context = smith::ToolContext {
        resident: None,
        ..f.context()
    };
    let out = tools.call(&call, &context, &Cancel::new());
    let got: Vec<Value> = serde_json::from_str(&out.output).unwrap();
    assert_eq!(got[0]["error"], "denied", "{got:?}");
    assert!(got[0]["message"].as_str().unwrap().contains("outside"));

    // Where programs are refused, so is keeping one: nothing starts, and the refusal is
    // recorded.
    let f = Fixture::new();
    let refused = Host::load(
        &[source(&smith_plugins::PROGRAM_PROBE)],
        &cache(),
        Limits::default(),
    )
    .unwrap()
    .loadout()
    .with_policy(Policy {
        process: ProcessPolicy::Refused("the test refuses programs".into()),
        ..Policy::default()
    });
    let got = steps(&f, &refused, json!([echo("x")]));
    assert_eq!(got[0]["error"], "denied", "{got:?}");
    let recorded = effects(&f);
    assert!(
        matches!(&recorded[..], [(name, input, EffectOutcome::NotApplied, _)]
            if name == "process.start" && input["session"] == "x"),
        "{recorded:?}"
    );
}

#[test]
fn a_cancelled_wait_returns_and_a_send_still_goes_out() {
    let f = Fixture::new();
    let tools = tools();
    // Lines go to stderr, so the wait on stdout never ends by itself.
    steps(
        &f,
        &tools,
        json!([{"op": "start", "name": "quiet", "program": "bash",
                "args": ["-c", "while read l; do echo \"heard $l\" >&2; done"]}]),
    );
    let cancel = Cancel::new();
    // Cancelled once the call's send is recorded: the wait after it has begun or is about to.
    let watcher = {
        let cancel = cancel.clone();
        let session = f.session.clone();
        std::thread::spawn(move || {
            smith_testkit::wait_until("the send's intent", || {
                read_session(&session).is_ok_and(|s| {
                    s.entries.iter().any(|e| {
                        matches!(&e.record, Record::EffectIntent(i) if i.effect == "process.send")
                    })
                })
            });
            cancel.cancel();
        })
    };
    let out = f.call_with(
        &tools,
        "steps",
        json!({"steps": [{"op": "send", "name": "quiet", "text": "first\n"},
                         {"op": "receive", "name": "quiet", "timeout_ms": 600000},
                         {"op": "send", "name": "quiet", "text": "stop\n"}]}),
        &cancel,
    );
    watcher.join().unwrap();
    let got: Vec<Value> = serde_json::from_str(&out.output).unwrap();
    assert_eq!(got[1]["error"], "cancelled", "{got:?}");
    assert_eq!(got[2], json!({"ok": null}), "{got:?}");
    // The program heard both: the send after the cancellation went out.
    smith_testkit::wait_until("the program hearing both lines", || {
        let tail = steps(&f, &tools, json!([{"op": "tail", "name": "quiet"}]));
        tail[0]["ok"] == "heard first\nheard stop\n"
    });
}
