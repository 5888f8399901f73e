//! Queued input across a compaction: delivered in its mode during the run, and kept when a
//! compacted session whose queue lies before the boundary is opened again.

use super::*;

#[test]
fn queued_steering_and_follow_up_input_keep_their_modes_across_a_compaction() {
    let (_dir, mut session) = session_with(3, 400);
    let inbox: Arc<Mutex<Option<smith_agent::Inbox>>> = Arc::new(Mutex::new(None));
    let held = Arc::clone(&inbox);
    // During the first round's request (call 1; nothing is compacted yet, the window is
    // large), queue a steer and a follow-up.
    let hook: Hook = Box::new(move |call, _| {
        if call != 1 {
            return;
        }
        let inbox = held.lock().unwrap();
        let inbox = inbox.as_ref().unwrap();
        let model: smith::Selection = "p/m".parse().unwrap();
        for (input, delivery) in [("STEER", Delivery::Steer), ("FOLLOW", Delivery::FollowUp)] {
            inbox
                .enqueue(Enqueue {
                    model: &model,
                    input,
                    delivery,
                    dedup_key: None,
                })
                .unwrap();
        }
    });
    let step = vec![
        StreamEvent::ToolCall(ToolCall {
            id: "c1".into(),
            name: "step".into(),
            arguments: serde_json::json!({}),
        }),
        StreamEvent::Stop {
            reason: StopReason::ToolUse,
        },
    ];
    let plan = vec![
        step,
        // Round 2 (the steer delivered at the batch's end) overflows: compact, run again.
        refused(ProviderErrorKind::ContextOverflow, "prompt is too long"),
        answer("SUMMARY", StopReason::EndTurn),
        answer("steered", StopReason::EndTurn),
        // Round 3: the follow-up, delivered when the work would stop.
        answer("followed", StopReason::EndTurn),
    ];
    let (fake, seen) = FakeProvider::new(plan);
    let fake = fake.with_hook(hook);
    let route = route(fake, Some(1_000_000));
    let agent = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default())
        .with_lifecycle(&Handlers)
        .with_compaction(policy(true));
    *inbox.lock().unwrap() = Some(agent.inbox(&session));
    let outcome = agent.run(
        &mut session,
        &"p/m".parse().unwrap(),
        "next prompt",
        &mut |_| {},
        &Cancel::new(),
    );
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 5);
    // The retried round 2 starts from the summary and carries the steer verbatim, not the
    // follow-up; round 3 carries the follow-up after the steered answer.
    let retried = user_texts(&seen[3]);
    assert_eq!(retried.first().unwrap(), "SUMMARY", "{retried:?}");
    assert!(retried.contains(&"STEER".to_owned()), "{retried:?}");
    assert!(!retried.contains(&"FOLLOW".to_owned()), "{retried:?}");
    let last = &seen[4];
    assert_eq!(user_texts(last).last().unwrap(), "FOLLOW");
    let steered_before = last.context.iter().any(|item| {
        matches!(item, ContextItem::Message(m)
            if m.content.iter().any(|b| matches!(b, ContentBlock::Text { text } if text == "steered")))
    });
    assert!(steered_before);
    assert!(session.queued().is_empty());
}

/// A session file: a queued follow-up's submission, `summarized` messages after it, a kept
/// turn, and a compaction of everything before the kept turn that carries the queued input
/// (`carry`) or nothing (an older record: opening walks to the root).
fn queued_behind_a_compaction(
    dir: &std::path::Path,
    carry: bool,
) -> (std::path::PathBuf, SessionId, smith::EntryId) {
    use smith_store::{Carried, Compaction, Record, Submission};
    let id = SessionId::new_now();
    let session = Session::create(dir, id, None).unwrap();
    let journal = session.journal();
    let mut w = journal.lock();
    let queued = w
        .append(&[Record::Submission(Submission {
            session: Some(id),
            dedup_key: None,
            content_sha256: "0".repeat(64),
            destination: None,
            explicit_destination: false,
            model: "p/m".parse().unwrap(),
            input: "FOLLOW".into(),
            owner: None,
            delivery: Some(Delivery::FollowUp),
            policy: Some("policy@1.0.0".into()),
            attachments: Vec::new(),
        })])
        .unwrap()[0];
    for i in 0..50 {
        let role = if i % 2 == 0 {
            smith::Role::User
        } else {
            smith::Role::Assistant
        };
        w.append(&[smith_testkit::message_record(smith::Message {
            role,
            content: vec![ContentBlock::Text {
                text: format!("old {i}"),
            }],
        })])
        .unwrap();
    }
    let kept = w
        .append(&[smith_testkit::message_record(smith::Message::user_text(
            "kept",
        ))])
        .unwrap()[0];
    w.append(&[Record::Compaction(Compaction {
        summary: "SUMMARY".into(),
        first_kept: Some(kept),
        attempt: None,
        usage: None,
        started: None,
        carried: carry.then(|| Carried {
            model: Some("p/m".parse().unwrap()),
            secrets: Vec::new(),
            open: vec![queued],
            permission_mode: None,
        }),
    })])
    .unwrap();
    drop(w);
    let path = session.path().to_owned();
    session.close().unwrap();
    (path, id, queued)
}

#[test]
fn opening_a_compacted_session_keeps_queued_input_from_before_the_boundary() {
    for carry in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let (path, id, queued) = queued_behind_a_compaction(dir.path(), carry);
        let mut session = Session::open(&path, id).unwrap().session;
        let waiting: Vec<_> = session.queued().iter().map(|q| q.submission).collect();
        assert_eq!(waiting, [queued], "carry {carry}");
        let context = session.context().unwrap().to_vec();
        let texts: Vec<String> = context
            .iter()
            .map(|i| match i {
                ContextItem::Message(m) => m.text(),
                ContextItem::ToolResult(r) => r.output.clone(),
            })
            .collect();
        assert_eq!(texts, ["SUMMARY", "kept"], "carry {carry}");
        if carry {
            assert_eq!(session.model(), Some(&"p/m".parse().unwrap()));
        }
    }
}
