//! The session's plan over the protocol: each change of a run's `todo_write` is a
//! `session.event` of type `plan`, with every step and its status.

use serde_json::json;

use crate::client::Client;
use crate::common::Env;

const SCRIPT: &str = r###"round {
  tool-call id="w1" name="todo_write" arguments=##"{"todos": [{"content": "Reproduce the bug", "status": "in_progress"}, {"content": "Fix it", "status": "pending"}]}"##
  stop "tool_use"
}
round {
  text "planned"
  stop "end_turn"
}
"###;

#[test]
fn a_plan_change_is_a_session_event() {
    let env = Env::new();
    let script = env.write("plan.kdl", SCRIPT);
    let mut c = Client::start(&env, &[]);
    let s = c.create();
    c.result(
        "session.submit",
        json!({"session": s, "input": "fix it", "model": "scripted/plan", "script": script}),
    );
    let plan = c.event(&s, "plan");
    assert_eq!(
        plan["params"]["event"]["items"],
        json!([
            {"content": "Reproduce the bug", "status": "in_progress"},
            {"content": "Fix it", "status": "pending"}
        ]),
        "{plan}"
    );
    c.event(&s, "run_end");
    c.finish();
}
