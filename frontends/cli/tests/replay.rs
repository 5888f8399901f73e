//! `smith replay` with the built binary (spec: Replay and VCS → Replay; Interface modes →
//! Replay): a recorded tool-using session replays, from the file alone, as the intents its
//! live run emitted — after merging each message's streamed deltas and leaving out the kinds
//! never recorded — byte for byte the same twice; turn ranges and branches select what is
//! replayed; a cut-off tail replays to the last complete change with a note; a paced replay
//! stops at Ctrl-C. Re-execution (`--execute`, `execute.rs`).

#[path = "replay/execute.rs"]
mod execute;
#[path = "replay/plan.rs"]
mod plan;

mod common;

use common::{Env, stderr, stdout};
use serde_json::Value;

/// The live kinds a replay leaves out (the guide's list; deltas are merged, not left out).
const UNRECORDED: &[&str] = &[
    "tool_update",
    "progress",
    "status",
    "notice",
    "context_use",
    "confirm_request",
    "select_request",
    "input_request",
    "request_refused",
    "session_change",
    "branch_change",
    "fell_behind",
];

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The live records as a replay shows them: unrecorded kinds dropped, consecutive deltas of
/// one message and kind merged into one.
fn as_replayed(live: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for mut r in live {
        if UNRECORDED.contains(&r["type"].as_str().unwrap_or_default()) {
            continue;
        }
        // The sandbox a live run's programs started in is the run's, not the session's: a
        // replay runs nothing and does not claim one.
        if r["type"] == "run_start"
            && let Some(fields) = r.as_object_mut()
        {
            fields.remove("sandbox");
        }
        if r["type"] == "message_delta"
            && let Some(last) = out.last_mut()
            && last["type"] == "message_delta"
            && last["message_id"] == r["message_id"]
            && last["kind"] == r["kind"]
        {
            let text = format!(
                "{}{}",
                last["text"].as_str().unwrap(),
                r["text"].as_str().unwrap()
            );
            last["text"] = Value::String(text);
            continue;
        }
        out.push(r);
    }
    out
}

fn eval_json(env: &Env, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["eval", "--json"];
    all.extend_from_slice(args);
    let out = env.run(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    records(&stdout(&out))
}

#[test]
fn a_tool_using_session_replays_as_its_live_run_and_the_same_twice() {
    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "hello\n").unwrap();
    let mut live = eval_json(&env, &["-m", "scripted/tool-call", "read it"]);
    live.extend(eval_json(
        &env,
        &["--continue", "-m", "scripted/edit", "now edit"],
    ));
    let replay = env.run(&["replay", "--json"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let mut replayed = records(&stdout(&replay));
    // First the format record, then the intents.
    let header = replayed.remove(0);
    assert_eq!(header["type"], "replay", "{header}");
    assert_eq!(header["format"], 1, "{header}");
    assert_eq!(header["session"], live[0]["session"], "{header}");
    let expected = as_replayed(live);
    for (i, (a, b)) in expected.iter().zip(&replayed).enumerate() {
        assert_eq!(a, b, "record {i} differs");
    }
    assert_eq!(expected.len(), replayed.len());
    let kinds: Vec<&str> = replayed
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"tool_end") && kinds.contains(&"attempt"),
        "{kinds:?}"
    );

    // Deterministic: the same bytes again.
    let again = env.run(&["replay", "--json"]);
    assert_eq!(again.stdout, replay.stdout);

    // Plain: the answers on stdout, as eval prints them.
    let plain = env.run(&["replay"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert!(
        stdout(&plain).contains("I have read the README"),
        "{}",
        stdout(&plain)
    );
}

#[test]
fn turn_ranges_select_turns_and_a_range_past_the_last_is_refused() {
    let env = Env::new();
    let (id, _) = env.demo_session();
    for prompt in ["second", "third"] {
        eval_json(&env, &["--session", &id, "-m", "scripted/demo", prompt]);
    }
    let replay = |turns: &str| {
        let out = env.run(&["replay", &id, "--json", "--turns", turns]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        records(&stdout(&out))
    };
    let inputs = |records: &[Value]| -> Vec<String> {
        assert_eq!(records[0]["type"], "replay");
        records
            .iter()
            .filter(|r| r["type"] == "message_end" && r["message"]["role"] == "user")
            .map(|r| {
                r["message"]["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(inputs(&replay("2")), ["second"]);
    assert_eq!(inputs(&replay("2..3")), ["second", "third"]);
    assert_eq!(inputs(&replay("1..")), ["start", "second", "third"]);
    let starts = replay("3")
        .iter()
        .filter(|r| r["type"] == "run_start")
        .count();
    assert_eq!(starts, 1);
    for bad in ["4", "0", "3..2", "x"] {
        let out = env.run(&["replay", &id, "--json", "--turns", bad]);
        assert!(
            out.stdout.is_empty(),
            "{bad}: a refused replay writes no record"
        );
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--turns"), "{bad}: {}", stderr(&out));
    }
}

#[test]
fn a_cut_off_tail_replays_to_the_last_complete_change_with_a_note() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let whole = env.run(&["replay", &id, "--json"]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    // A crash mid-write leaves unpublished bytes at the end.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[0x53, 0x4d, 0x00, 0x07, 0xff, 0x01]);
    std::fs::write(&path, bytes).unwrap();
    let cut = env.run(&["replay", &id, "--json"]);
    assert_eq!(cut.status.code(), Some(0), "{}", stderr(&cut));
    assert_eq!(cut.stdout, whole.stdout);
    assert!(stderr(&cut).contains("cut off"), "{}", stderr(&cut));
}

#[test]
fn an_unknown_session_is_a_usage_error() {
    let env = Env::new();
    let out = env.run(&["replay", "0000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_branch_is_named_by_its_last_entry() {
    let env = Env::new();
    let (id, _) = env.demo_session();
    let first = records(&stdout(&env.run(&["replay", &id, "--json"])));
    let leaf = first[0]["leaf"].as_u64().unwrap();
    eval_json(&env, &["--session", &id, "-m", "scripted/demo", "second"]);
    // The first turn's branch, named by the entry it ended at, replays as it did then.
    let old = env.run(&["replay", &id, "--json", "--branch", &leaf.to_string()]);
    assert_eq!(old.status.code(), Some(0), "{}", stderr(&old));
    assert_eq!(
        old.stdout,
        env.run(&["replay", &id, "--json", "--branch", &leaf.to_string()])
            .stdout
    );
    let old = records(&stdout(&old));
    assert_eq!(old[1..], first[1..]);
    let now = records(&stdout(&env.run(&["replay", &id, "--json"])));
    assert!(now.len() > old.len());
    for bad in ["0", "100000"] {
        let out = env.run(&["replay", &id, "--json", "--branch", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--branch"), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "a refused replay writes no record");
    }
}

#[test]
fn a_paced_replay_stops_at_ctrl_c_and_leaves_the_session_as_it_was() {
    use std::io::BufRead as _;
    let env = Env::new();
    let (id, path) = env.demo_session();
    for prompt in ["second", "third"] {
        eval_json(&env, &["--session", &id, "-m", "scripted/demo", prompt]);
    }
    let before = std::fs::read(&path).unwrap();
    // Far slower than recorded (too slow for a pause to be expressible): every gap is the
    // longest pause, 2 s.
    let mut child = env
        .command(&["replay", &id, "--json", "--speed", "1e-300"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    // The replay is under way once the first turn's start is out.
    loop {
        let line = lines.next().expect("the replay ended early").unwrap();
        if line.contains("\"run_start\"") {
            break;
        }
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("replay stopped"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    for bad in ["0", "-1", "fast", "inf"] {
        let out = env.run(&["replay", &id, &format!("--speed={bad}")]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(stderr(&out).contains("--speed"), "{}", stderr(&out));
    }
    let fast = env.run(&["replay", &id, "--json", "--speed", "1000000"]);
    assert_eq!(fast.status.code(), Some(0), "{}", stderr(&fast));
    assert_eq!(fast.stdout, env.run(&["replay", &id, "--json"]).stdout);
}

#[test]
fn damage_in_the_middle_replays_what_follows_it_and_exits_3() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let middle = std::fs::metadata(&path).unwrap().len();
    for prompt in ["second", "third"] {
        eval_json(&env, &["--session", &id, "-m", "scripted/demo", prompt]);
    }
    // Bytes inside the second turn's first change are flipped.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = usize::try_from(middle).unwrap() + 64;
    for b in &mut bytes[at..at + 8] {
        *b ^= 0xff;
    }
    std::fs::write(&path, bytes).unwrap();
    let out = env.run(&["replay", &id, "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let replayed = records(&stdout(&out));
    assert_eq!(replayed[0]["type"], "replay");
    let inputs: Vec<&str> = replayed
        .iter()
        .filter(|r| r["type"] == "message_end" && r["message"]["role"] == "user")
        .map(|r| r["message"]["content"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["third"], "what follows the damage is replayed");
    assert!(stderr(&out).contains("damaged change"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}
