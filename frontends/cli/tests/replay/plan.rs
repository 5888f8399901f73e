//! The session's plan with the built binary: the bundled `todo` tools keep it as Smith's
//! branch state, each change a `plan` intent live (`--json`, and on stderr in plain output) and
//! in replay, byte for byte as live; a fork starts with the plan as it was at its fork point;
//! a step that is empty or not one line changes nothing and says which step.

use serde_json::{Value, json};

use crate::common::{Env, stderr, stdout};
use crate::{as_replayed, eval_json, records};

fn write_call(id: &str, steps: &[(&str, &str)]) -> String {
    let todos: Vec<Value> = steps
        .iter()
        .map(|(content, status)| json!({"content": content, "status": status}))
        .collect();
    let args = json!({ "todos": todos }).to_string();
    format!(
        "round {{\n  tool-call id=\"{id}\" name=\"todo_write\" arguments=##\"{args}\"##\n  stop \"tool_use\"\n}}\n"
    )
}

const READ: &str = "round {\n  tool-call id=\"r1\" name=\"todo_read\" arguments=#\"{}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"read\"\n  stop \"end_turn\"\n}\n";

const END: &str = "round {\n  text \"planned\"\n  stop \"end_turn\"\n}\n";

/// The tool results of records, by call id.
fn outputs(records: &[Value]) -> Vec<(String, String, bool)> {
    records
        .iter()
        .filter(|r| r["type"] == "tool_end")
        .map(|r| {
            (
                r["call_id"].as_str().unwrap().to_owned(),
                r["output"].as_str().unwrap().to_owned(),
                r["is_error"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_plan_is_shown_live_replayed_as_live_and_forked_with_the_session() {
    let env = Env::new();
    let script = format!(
        "{}{}{}",
        write_call(
            "w1",
            &[
                ("Read the parser", "in_progress"),
                ("Fix the bug", "pending")
            ]
        ),
        write_call(
            "w2",
            &[
                ("Read the parser", "completed"),
                ("Fix the bug", "in_progress")
            ]
        ),
        END
    );
    let file = env.write("plan.kdl", &script);
    let file = file.to_str().unwrap();
    let live = eval_json(&env, &["-m", "scripted/plan", "--script", file, "fix it"]);
    let plans: Vec<&Value> = live.iter().filter(|r| r["type"] == "plan").collect();
    assert_eq!(plans.len(), 2, "{live:?}");
    assert_eq!(
        plans[1]["items"],
        json!([
            {"content": "Read the parser", "status": "completed"},
            {"content": "Fix the bug", "status": "in_progress"}
        ])
    );
    // Each change is shown while its call runs: between its start and its end.
    let kinds: Vec<&str> = live
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .filter(|k| ["tool_start", "plan", "tool_end"].contains(k))
        .collect();
    assert_eq!(
        kinds,
        [
            "tool_start",
            "plan",
            "tool_end",
            "tool_start",
            "plan",
            "tool_end"
        ]
    );
    let (_, answer, failed) = &outputs(&live)[1];
    assert!(
        !failed && answer.contains("Plan (1 of 2 done):\n[x] Read the parser\n[~] Fix the bug"),
        "{answer}"
    );

    // Replayed from the file alone: as live.
    let replay = env.run(&["replay", "--json"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let mut replayed = records(&stdout(&replay));
    replayed.remove(0);
    assert_eq!(as_replayed(live.clone()), replayed);

    let session = live[0]["session"].as_str().unwrap().to_owned();
    // A second turn; replayed alone, it starts with the plan the first one left.
    eval_json(
        &env,
        &["--session", &session, "-m", "scripted/demo", "and now?"],
    );
    let out = env.run(&["replay", &session, "--json", "--turns", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let second = records(&stdout(&out));
    let kinds: Vec<&str> = second.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(&kinds[..3], ["replay", "run_start", "plan"], "{kinds:?}");
    assert_eq!(second[2]["items"], plans[1]["items"]);

    // A fork at the end starts with the plan; todo_read reads it there.
    let out = env.run(&["sessions", "fork", &session, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fork = records(&stdout(&out))[0]["session"]
        .as_str()
        .expect("the fork's id")
        .to_owned();
    let read = env.write("read.kdl", READ);
    let read = read.to_str().unwrap();
    let in_fork = eval_json(
        &env,
        &[
            "--session",
            &fork,
            "-m",
            "scripted/read",
            "--script",
            read,
            "where are we",
        ],
    );
    let (_, plan, _) = &outputs(&in_fork)[0];
    assert!(
        plan.contains("[x] Read the parser\n[~] Fix the bug"),
        "{plan}"
    );
    // The original is unchanged by what a fork does, and a fork at the first write's result
    // has the first plan.
    let first_result = live
        .iter()
        .find(|r| r["type"] == "tool_end")
        .and_then(|r| r["entry_id"].as_u64())
        .expect("the first result's entry");
    let out = env.run(&[
        "sessions",
        "fork",
        &session,
        "--at",
        &first_result.to_string(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let early = records(&stdout(&out))[0]["session"]
        .as_str()
        .unwrap()
        .to_owned();
    let in_early = eval_json(
        &env,
        &[
            "--session",
            &early,
            "-m",
            "scripted/read",
            "--script",
            read,
            "where are we",
        ],
    );
    let (_, plan, _) = &outputs(&in_early)[0];
    assert!(
        plan.contains("[~] Read the parser\n[ ] Fix the bug"),
        "{plan}"
    );
}

#[test]
fn plain_output_prints_each_change_and_a_bad_step_changes_nothing() {
    let env = Env::new();
    let script = format!(
        "{}{}{}",
        write_call("w1", &[("Write the test", "in_progress")]),
        write_call("w2", &[("Write the test", "completed"), ("   ", "pending")]),
        END
    );
    let file = env.write("bad.kdl", &script);
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/plan",
        "--script",
        file.to_str().unwrap(),
        "go",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("plan (0/1 done):\n  [~] Write the test"),
        "{err}"
    );
    // The second write was refused: one plan change only, and the model is told which step.
    assert_eq!(err.matches("plan (").count(), 1, "{err}");
    assert!(
        err.contains("the plan was not changed: step 2 is empty"),
        "{err}"
    );
    // A step past 500 bytes: the plan's own bound says so (the schema leaves it to the host).
    let long = "x".repeat(600);
    let script = format!("{}{}", write_call("w1", &[(long.as_str(), "pending")]), END);
    let file = env.write("long.kdl", &script);
    let live = eval_json(
        &env,
        &[
            "-m",
            "scripted/plan",
            "--script",
            file.to_str().unwrap(),
            "go",
        ],
    );
    let (_, output, failed) = &outputs(&live)[0];
    assert!(
        *failed && output.contains("step 1 is 600 bytes; a step is one line of at most 500 bytes"),
        "{output}"
    );
    // A step with a line break: refused likewise (the schema allows it; the host does not).
    let script = format!("{}{}", write_call("w1", &[("one\ntwo", "pending")]), END);
    let file = env.write("lines.kdl", &script);
    let live = eval_json(
        &env,
        &[
            "-m",
            "scripted/plan",
            "--script",
            file.to_str().unwrap(),
            "go",
        ],
    );
    assert!(live.iter().all(|r| r["type"] != "plan"));
    let (_, output, failed) = &outputs(&live)[0];
    assert!(
        *failed && output.contains("step 1 holds a line break"),
        "{output}"
    );
}
