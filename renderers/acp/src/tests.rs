use super::*;
use serde_json::json;
use smith::{Message, StopReason as Stop};

fn assistant(text: &str) -> Message {
    Message {
        role: Role::Assistant,
        content: vec![smith::ContentBlock::Text { text: text.into() }],
    }
}

fn wire(updates: &[SessionUpdate]) -> Vec<Value> {
    updates
        .iter()
        .map(|u| serde_json::to_value(u).unwrap())
        .collect()
}

#[test]
fn deltas_stream_as_chunks_and_the_end_of_a_streamed_message_adds_nothing() {
    let mut u = Updates::new(Source::Live);
    let delta = |kind, text: &str| Intent::MessageDelta {
        message_id: 4,
        kind,
        text: text.to_owned(),
    };
    let thought = wire(&u.update(&delta(DeltaKind::Thinking, "hmm"), false));
    assert_eq!(
        thought,
        [
            json!({"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hmm"}})
        ]
    );
    let said = wire(&u.update(&delta(DeltaKind::Text, "Hi"), false));
    assert_eq!(said[0]["sessionUpdate"], "agent_message_chunk");
    assert_eq!(said[0]["content"]["text"], "Hi");
    let end = Intent::MessageEnd {
        message_id: 4,
        entry_id: Some(4),
        message: assistant("Hi"),
        stop_reason: Some(Stop::EndTurn),
        usage: None,
        recorded: true,
    };
    assert!(u.update(&end, false).is_empty());
}

#[test]
fn an_unstreamed_answer_is_sent_whole_and_a_user_message_only_from_history() {
    let end = |role_user: bool, id| Intent::MessageEnd {
        message_id: id,
        entry_id: Some(id),
        message: if role_user {
            Message::user_text("hello")
        } else {
            assistant("world")
        },
        stop_reason: None,
        usage: None,
        recorded: true,
    };
    let mut live = Updates::new(Source::Live);
    assert!(live.update(&end(true, 1), false).is_empty());
    let answer = wire(&live.update(&end(false, 2), false));
    assert_eq!(answer[0]["sessionUpdate"], "agent_message_chunk");
    assert_eq!(answer[0]["content"]["text"], "world");
    let mut history = Updates::new(Source::History);
    let user = wire(&history.update(&end(true, 1), false));
    assert_eq!(user[0]["sessionUpdate"], "user_message_chunk");
    assert_eq!(user[0]["content"]["text"], "hello");
}

#[test]
fn an_edit_becomes_a_tool_call_with_its_location_and_diff_then_its_end() {
    let mut u = Updates::new(Source::Live).with_root("/p".into());
    let arguments =
        json!({"path": "notes.txt", "edits": [{"old_text": "draft", "new_text": "final"}]});
    let start = wire(&u.update(
        &Intent::ToolStart {
            call_id: "c1".into(),
            name: "edit".into(),
            arguments: arguments.clone(),
        },
        false,
    ));
    assert_eq!(
        start[0],
        json!({
            "sessionUpdate": "tool_call",
            "toolCallId": "c1",
            "title": "edit notes.txt",
            "kind": "edit",
            "status": "in_progress",
            "content": [{"type": "diff", "path": "/p/notes.txt", "oldText": "draft", "newText": "final"}],
            "locations": [{"path": "/p/notes.txt"}],
            "rawInput": arguments,
        })
    );
    assert_eq!(u.running_call(), Some(("c1", "edit")));
    let end = wire(&u.update(
        &Intent::ToolEnd {
            call_id: "c1".into(),
            name: "edit".into(),
            entry_id: Some(9),
            output: "edited".into(),
            is_error: true,
            recorded: true,
        },
        false,
    ));
    assert_eq!(end[0]["sessionUpdate"], "tool_call_update");
    assert_eq!(end[0]["status"], "failed");
    assert_eq!(end[0]["content"][0]["content"]["text"], "edited");
    assert_eq!(u.running_call(), None);
}

#[test]
fn a_plan_usage_and_stop_reasons_map_to_the_protocol() {
    let mut u = Updates::new(Source::Live);
    let plan = wire(&u.update(
        &Intent::Plan {
            items: vec![smith::PlanItem {
                content: "write tests".into(),
                status: smith::PlanStatus::InProgress,
            }],
        },
        false,
    ));
    assert_eq!(
        plan[0],
        json!({"sessionUpdate": "plan", "entries": [{"content": "write tests", "priority": "medium", "status": "in_progress"}]})
    );
    let used = wire(&u.update(
        &Intent::ContextUse {
            used_tokens: Some(1200),
            limit_tokens: Some(200_000),
        },
        false,
    ));
    assert_eq!(used[0]["sessionUpdate"], "usage_update");
    assert_eq!(used[0]["used"], 1200);
    assert_eq!(used[0]["size"], 200_000);
    let priced = wire(&u.update(
        &Intent::Usage {
            message_id: 3,
            attempt: None,
            model: None,
            usage: None,
            cost_usd: Some(0.25),
        },
        false,
    ));
    assert_eq!(
        priced[0]["cost"],
        json!({"amount": 0.25, "currency": "USD"})
    );
    assert_eq!(
        serde_json::to_value(stop_reason(Stop::Aborted)).unwrap(),
        "cancelled"
    );
    assert_eq!(stop_reason(Stop::Error), None);
    assert_eq!(
        serde_json::to_value(stop_reason(Stop::Budget)).unwrap(),
        "max_turn_requests"
    );
}

#[test]
fn titles_are_one_bounded_line() {
    assert_eq!(
        tool_title("bash", &json!({"command": "cargo test\necho done"})),
        "bash: cargo test…"
    );
    let long = "x".repeat(300);
    assert_eq!(
        tool_title("read", &json!({"path": long})).chars().count(),
        120
    );
    assert_eq!(tool_title("todo_read", &json!({})), "todo_read");
}

#[test]
fn pieces_withheld_while_the_client_is_behind_arrive_with_the_end() {
    let mut u = Updates::new(Source::Live);
    let delta = |text: &str| Intent::MessageDelta {
        message_id: 7,
        kind: DeltaKind::Text,
        text: text.to_owned(),
    };
    assert_eq!(u.update(&delta("Hel"), false).len(), 1);
    assert!(u.update(&delta("lo, "), true).is_empty());
    // The client caught up, but the message's later pieces wait for its end all the same.
    assert!(u.update(&delta("world"), false).is_empty());
    let update = Intent::ToolUpdate {
        call_id: "c".into(),
        text: "partial".into(),
    };
    assert!(u.update(&update, true).is_empty());
    let end = wire(&u.update(
        &Intent::MessageEnd {
            message_id: 7,
            entry_id: Some(7),
            message: assistant("Hello, world"),
            stop_reason: None,
            usage: None,
            recorded: true,
        },
        false,
    ));
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["content"]["text"], "lo, world");
}
