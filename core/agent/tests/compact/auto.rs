//! Automatic compaction: before a request past the threshold of the window, once after a
//! context overflow (then the round again), failures capped, the guard when instructions
//! and tools alone pass the threshold, and an abort during it.

use super::*;

#[test]
fn a_request_past_the_threshold_is_compacted_first_and_then_sent_from_the_summary() {
    // Three turns of ~100 tokens each: past half of a 500-token window.
    let (_dir, mut session) = session_with(3, 400);
    let plan = vec![
        answer("SUMMARY", StopReason::EndTurn),
        answer("done", StopReason::EndTurn),
    ];
    let (outcome, seen, intents) = run_auto(&mut session, plan, 500, policy(true), None);
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    assert_eq!(user_texts(&seen[0]).last().unwrap(), ASK);
    let round = user_texts(&seen[1]);
    assert_eq!(round.first().unwrap(), "SUMMARY", "{round:?}");
    assert_eq!(round.last().unwrap(), "next prompt");
    assert!(
        !round.iter().any(|u| u.starts_with("prompt 0")),
        "{round:?}"
    );
    assert!(intents.iter().any(|i| matches!(
        i,
        Intent::CompactionStart {
            reason: CompactionReason::Threshold,
            ..
        }
    )));
    // Counted once in the run's usage totals' responses: the summary and the answer.
    assert!(kinds(session.path()).contains(&"compaction"));

    // Under the threshold nothing is compacted.
    let (_dir, mut small) = session_with(1, 10);
    let (outcome, seen, _) = run_auto(
        &mut small,
        vec![answer("done", StopReason::EndTurn)],
        500,
        policy(true),
        None,
    );
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    assert_eq!(seen.lock().unwrap().len(), 1);
    assert!(!kinds(small.path()).contains(&"compaction"));
}

#[test]
fn compaction_failures_are_capped_so_a_run_can_never_loop() {
    let (_dir, mut session) = session_with(3, 400);
    let call = |id: &str| {
        vec![
            StreamEvent::ToolCall(ToolCall {
                id: id.into(),
                name: "step".into(),
                arguments: serde_json::json!({}),
            }),
            StreamEvent::Stop {
                reason: StopReason::ToolUse,
            },
        ]
    };
    let truncated = || answer("SUMM", StopReason::MaxTokens);
    // Every round: a compaction cut by the output limit, then the round's own request.
    let plan = vec![
        truncated(),
        call("c1"),
        truncated(),
        call("c2"),
        truncated(),
        answer("never sent", StopReason::EndTurn),
    ];
    let (outcome, seen, intents) = run_auto(&mut session, plan, 500, policy(true), None);
    assert_eq!(outcome.stop_reason, StopReason::Error);
    let Some(RunError::Compaction(why)) = &outcome.error else {
        panic!("{:?}", outcome.error)
    };
    assert!(why.contains("3 times in a row"), "{why}");
    assert!(why.contains("compaction.keep-tokens"), "{why}");
    assert_eq!(
        seen.lock().unwrap().len(),
        5,
        "the third failure stops the run"
    );
    assert!(!kinds(session.path()).contains(&"compaction"));
    let warnings = intents
        .iter()
        .filter(|i| matches!(i, Intent::Notice { text, .. } if text.contains("compaction failed")))
        .count();
    assert_eq!(warnings, 2, "the first two failures are warnings");
}

#[test]
fn a_context_overflow_compacts_once_and_runs_the_round_again() {
    let (_dir, mut session) = session_with(3, 400);
    let plan = vec![
        refused(ProviderErrorKind::ContextOverflow, "prompt is too long"),
        answer("SUMMARY", StopReason::EndTurn),
        answer("done", StopReason::EndTurn),
    ];
    // A large window: only the provider's refusal triggers it.
    let (outcome, seen, intents) = run_auto(&mut session, plan, 1_000_000, policy(true), None);
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    assert!(
        user_texts(&seen[0])
            .iter()
            .any(|u| u.starts_with("prompt 0"))
    );
    assert_eq!(user_texts(&seen[1]).last().unwrap(), ASK);
    assert_eq!(user_texts(&seen[2]).first().unwrap(), "SUMMARY");
    assert!(intents.iter().any(|i| matches!(
        i,
        Intent::CompactionStart {
            reason: CompactionReason::Overflow,
            ..
        }
    )));
    let kinds = kinds(session.path());
    assert!(kinds.contains(&"compaction") && kinds.contains(&"attempt_failed"));

    // Once only: a second overflow in the same run ends it, saying so.
    let (_dir, mut session) = session_with(3, 400);
    let plan = vec![
        refused(ProviderErrorKind::ContextOverflow, "prompt is too long"),
        answer("SUMMARY", StopReason::EndTurn),
        refused(ProviderErrorKind::ContextOverflow, "prompt is too long"),
    ];
    let (outcome, seen, _) = run_auto(&mut session, plan, 1_000_000, policy(true), None);
    assert_eq!(seen.lock().unwrap().len(), 3);
    let error = outcome.error.expect("the run failed").to_string();
    assert!(error.contains("compacted once in this run"), "{error}");
}

#[test]
fn with_automatic_compaction_off_an_overflow_fails_naming_the_setting() {
    let (_dir, mut session) = session_with(3, 400);
    let plan = vec![refused(
        ProviderErrorKind::ContextOverflow,
        "prompt is too long",
    )];
    let (outcome, seen, _) = run_auto(&mut session, plan, 500, policy(false), None);
    assert_eq!(outcome.stop_reason, StopReason::Error);
    let error = outcome.error.expect("the run failed").to_string();
    assert!(error.contains("`compaction.auto`"), "{error}");
    assert_eq!(
        seen.lock().unwrap().len(),
        1,
        "past the threshold, but nothing compacted"
    );
    assert!(!kinds(session.path()).contains(&"compaction"));
}

/// Instructions of `bytes` bytes (a `prompt` handler's), for the guard below.
struct BigInstructions(usize);

impl Lifecycle for BigInstructions {
    fn queue_policy(&self) -> Option<String> {
        None
    }

    fn handle(&self, _event: &LifecycleEvent, _cancel: &Cancel) -> Vec<HandlerReply> {
        Vec::new()
    }

    fn prepare_request(
        &self,
        _event: &smith::RequestEvent,
        _cancel: &Cancel,
    ) -> smith::PreparedRequest {
        smith::PreparedRequest {
            pieces: vec![RequestPiece {
                handler: "prompt@1.0.0".into(),
                role: PieceRole::Instructions,
                source: None,
                text: "i".repeat(self.0),
            }],
            problems: Vec::new(),
        }
    }

    fn compaction_prompt(
        &self,
        event: &CompactionEvent,
        cancel: &Cancel,
    ) -> Result<RequestPiece, String> {
        Handlers.compaction_prompt(event, cancel)
    }
}

#[test]
fn when_instructions_alone_pass_the_threshold_nothing_is_compacted_and_it_is_said_once() {
    let (_dir, mut session) = session_with(3, 400);
    // 2,200 bytes of instructions: 550 tokens, past half of the 1,000-token window on their
    // own (the whole request still fits the window).
    let (fake, seen) = FakeProvider::new(vec![
        answer("one", StopReason::EndTurn),
        answer("two", StopReason::EndTurn),
    ]);
    let route = route(fake, Some(1_000));
    let handlers = BigInstructions(2_200);
    let agent = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default())
        .with_lifecycle(&handlers)
        .with_compaction(policy(true));
    let mut intents = Vec::new();
    for prompt in ["a", "b"] {
        let outcome = agent.run(
            &mut session,
            &"p/m".parse().unwrap(),
            prompt,
            &mut |i: Intent| intents.push(i),
            &Cancel::new(),
        );
        assert_eq!(
            outcome.stop_reason,
            StopReason::EndTurn,
            "{:?}",
            outcome.error
        );
    }
    assert_eq!(seen.lock().unwrap().len(), 2, "no compaction request");
    assert!(!kinds(session.path()).contains(&"compaction"));
    let said: Vec<_> = intents
        .iter()
        .filter(
            |i| matches!(i, Intent::Notice { text, .. } if text.contains("compacting cannot help")),
        )
        .collect();
    assert_eq!(said.len(), 1, "said once: {said:?}");
}

#[test]
fn an_abort_during_an_automatic_compaction_ends_the_run_aborted_with_no_summary() {
    let (_dir, mut session) = session_with(3, 400);
    let abort: Hook = Box::new(|call, cancel: &Cancel| {
        if call == 1 {
            cancel.cancel();
        }
    });
    let plan = vec![vec![
        StreamEvent::TextDelta {
            text: "SUMMARY".into(),
        },
        StreamEvent::TextDelta {
            text: " more".into(),
        },
        StreamEvent::Stop {
            reason: StopReason::EndTurn,
        },
    ]];
    let (outcome, seen, _) = run_auto(&mut session, plan, 500, policy(true), Some(abort));
    assert_eq!(
        outcome.stop_reason,
        StopReason::Aborted,
        "{:?}",
        outcome.error
    );
    assert_eq!(
        seen.lock().unwrap().len(),
        1,
        "only the compaction's request was sent"
    );
    let kinds = kinds(session.path());
    assert!(!kinds.contains(&"compaction"), "{kinds:?}");
    assert!(kinds.contains(&"abort"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"run_end"), "{kinds:?}");
}
