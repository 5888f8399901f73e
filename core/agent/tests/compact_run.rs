//! The compaction operation with real session files and an in-process provider (spec
//! SMH-SPEC-SPEC0001: Compaction, cost, and secrets — never a truncated summary, queued input
//! resumes after compaction in its delivery mode; Agent behavior — abortable during
//! compaction; issue 29): a summary is recorded only when its response ended by the model's
//! own end of turn, an abort records an abort and no summary, automatic compaction runs before
//! a request past the threshold and once after a context overflow (retrying the round), its
//! failures are capped, and queued steering and follow-up input keep their modes.

use std::sync::{Arc, Mutex};

use smith::{
    Action, Cancel, CompactionEvent, CompactionReason, ContentBlock, ContextItem, Delivery,
    HandlerReply, Lifecycle, LifecycleEvent, ModelInfo, NoTools, PieceRole, ProviderErrorKind,
    ProviderRequest, RequestPiece, RouteSource, Routing, SessionId, Source, StopReason,
    StreamEvent, ToolCall,
};
use smith_agent::{
    Candidate, Compact, CompactError, CompactionPolicy, Enqueue, Route, RunError, RunLimits,
    Session,
};
use smith_testkit::fake::{FakeProvider, Hook, answer, refused};
use smith_testkit::kinds;
use smith_ui_intents::Intent;

/// The ask every compaction request here ends with.
const ASK: &str = "Summarize the conversation above.";

/// The compaction handler and the steer/follow-up queue policy, as Rust handlers.
struct Handlers;

impl Lifecycle for Handlers {
    fn queue_policy(&self) -> Option<String> {
        Some("policy@1.0.0".to_owned())
    }

    fn handle(&self, event: &LifecycleEvent, _cancel: &Cancel) -> Vec<HandlerReply> {
        let actions = match event {
            LifecycleEvent::ToolEnd { .. } => Vec::new(),
            LifecycleEvent::BatchEnd { queued, .. } => queued
                .iter()
                .filter(|q| q.delivery == Delivery::Steer)
                .map(|q| Action::Deliver(q.submission))
                .collect(),
            LifecycleEvent::Idle { queued, .. } => queued
                .iter()
                .map(|q| Action::Deliver(q.submission))
                .collect(),
        };
        vec![HandlerReply {
            handler: "policy@1.0.0".to_owned(),
            actions: Ok(actions),
        }]
    }

    fn compaction_prompt(
        &self,
        event: &CompactionEvent,
        _cancel: &Cancel,
    ) -> Result<RequestPiece, String> {
        let focus = event
            .instructions
            .as_deref()
            .map(|f| format!(" Focus: {f}"))
            .unwrap_or_default();
        Ok(RequestPiece {
            handler: "compaction@1.0.0".to_owned(),
            role: PieceRole::Compaction,
            source: None,
            text: format!("{ASK}{focus}"),
        })
    }
}

/// A route of one candidate whose catalog record gives a `context`-token window.
fn route(provider: FakeProvider, context: Option<u64>) -> Route<'static> {
    let model: smith::ModelRef = "p/m".parse().unwrap();
    let mut info = ModelInfo::unknown(
        model.clone(),
        Source {
            id: "test".into(),
            title: "test".into(),
            date: None,
        },
    );
    info.tools = Some(true);
    info.context = context;
    let candidate = Candidate {
        model,
        account: None,
        credential: None,
        routing: Routing {
            source: RouteSource::Direct,
            path: vec!["p/m".into()],
            position: 0,
            of: 0,
            skipped: Vec::new(),
        },
        capabilities: Some(info),
        generation: "fake@1.0.0#000000000000".into(),
        options: Default::default(),
        provider: Box::new(provider),
    };
    Route::new("p/m".parse().unwrap(), None, vec![candidate])
}

type Seen = Arc<Mutex<Vec<ProviderRequest>>>;

/// A session holding `turns` finished turns, each a prompt of `bytes` bytes and a short
/// answer, written through the agent (no compaction).
fn session_with(turns: usize, bytes: usize) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let plan = (0..turns)
        .map(|i| answer(&format!("answer {i}"), StopReason::EndTurn))
        .collect();
    let (fake, _) = FakeProvider::new(plan);
    let route = route(fake, None);
    let agent = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default())
        .with_lifecycle(&Handlers)
        .with_compaction(CompactionPolicy {
            auto: false,
            ..CompactionPolicy::default()
        });
    for i in 0..turns {
        let prompt = format!("prompt {i} {}", "x".repeat(bytes));
        let outcome = agent.run(
            &mut session,
            &"p/m".parse().unwrap(),
            &prompt,
            &mut |_| {},
            &Cancel::new(),
        );
        assert_eq!(
            outcome.stop_reason,
            StopReason::EndTurn,
            "{:?}",
            outcome.error
        );
    }
    (dir, session)
}

/// The text of every user message of `request`, in order.
fn user_texts(request: &ProviderRequest) -> Vec<String> {
    request
        .context
        .iter()
        .filter_map(|item| match item {
            ContextItem::Message(m) if m.role == smith::Role::User => Some(m.text()),
            _ => None,
        })
        .collect()
}

fn compact_now(
    session: &mut Session,
    plan: Vec<Vec<StreamEvent>>,
    hook: Option<Hook>,
) -> (smith_agent::CompactOutcome, Seen, Vec<Intent>) {
    let (mut fake, seen) = FakeProvider::new(plan);
    if let Some(hook) = hook {
        fake = fake.with_hook(hook);
    }
    let route = route(fake, None);
    let agent = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default())
        .with_lifecycle(&Handlers);
    let mut intents = Vec::new();
    let outcome = agent.compact(
        session,
        Compact {
            model: &"p/m".parse().unwrap(),
            instructions: Some("the parser"),
            keep_tokens: Some(10),
        },
        &mut |i: Intent| intents.push(i),
        &Cancel::new(),
    );
    (outcome, seen, intents)
}

#[test]
fn a_manual_compaction_records_the_summary_and_the_next_request_starts_from_it() {
    let (_dir, mut session) = session_with(3, 400);
    let (outcome, seen, intents) = compact_now(
        &mut session,
        vec![answer("SUMMARY", StopReason::EndTurn)],
        None,
    );
    let compacted = outcome.compacted.expect("a summary was recorded");
    assert!(outcome.error.is_none());
    // The request: the summarized prefix, then the handler's ask with the focus.
    let sent = seen.lock().unwrap()[0].clone();
    let users = user_texts(&sent);
    assert!(users[0].starts_with("prompt 0"), "{users:?}");
    assert_eq!(users.last().unwrap(), &format!("{ASK} Focus: the parser"));
    assert!(
        !users.iter().any(|u| u.starts_with("prompt 2")),
        "the kept turn is not summarized: {users:?}"
    );
    // The context now: the summary, then the kept turn verbatim.
    let context = session.context().unwrap().to_vec();
    let ContextItem::Message(first) = &context[0] else {
        panic!("{context:?}")
    };
    assert_eq!(first.text(), "SUMMARY");
    assert!(matches!(&context[1], ContextItem::Message(m) if m.text().starts_with("prompt 2")));
    assert_eq!(context.len(), 1 + compacted.kept);
    // Reopening projects the same context from the file.
    let path = session.path().to_owned();
    let id = session.id();
    session.close().unwrap();
    let mut reopened = Session::open(&path, id).unwrap().session;
    assert_eq!(reopened.context().unwrap(), &context[..]);
    // Seen as a start and an end naming the record.
    assert!(matches!(
        intents.first(),
        Some(Intent::CompactionStart {
            reason: CompactionReason::Manual,
            ..
        })
    ));
    assert!(intents.iter().any(|i| matches!(i,
        Intent::CompactionEnd { entry_id: Some(e), summary: Some(s), .. }
            if *e == compacted.entry.0 && s == "SUMMARY")));
    // No assistant message is streamed or recorded for the summary.
    assert!(
        !intents
            .iter()
            .any(|i| matches!(i, Intent::MessageStart { .. }))
    );
}

#[test]
fn a_summary_that_did_not_end_by_the_models_end_of_turn_is_never_recorded() {
    let call = ToolCall {
        id: "c1".into(),
        name: "read".into(),
        arguments: serde_json::json!({}),
    };
    let endings: Vec<(&str, Vec<StreamEvent>)> = vec![
        ("max tokens", answer("SUMMARY, cut", StopReason::MaxTokens)),
        (
            "a cut stream",
            vec![StreamEvent::TextDelta {
                text: "SUMM".into(),
            }],
        ),
        (
            "an error",
            vec![
                StreamEvent::TextDelta {
                    text: "SUMM".into(),
                },
                StreamEvent::Error(smith::ProviderError::new(
                    ProviderErrorKind::Transient,
                    "connection reset",
                )),
            ],
        ),
        (
            "a tool call",
            vec![
                StreamEvent::ToolCall(call),
                StreamEvent::Stop {
                    reason: StopReason::EndTurn,
                },
            ],
        ),
        ("no text", answer("  ", StopReason::EndTurn)),
    ];
    for (what, events) in endings {
        let (_dir, mut session) = session_with(3, 400);
        let before = session.context().unwrap().to_vec();
        let (outcome, _, intents) = compact_now(&mut session, vec![events], None);
        assert!(outcome.compacted.is_none(), "{what}: recorded");
        assert!(
            matches!(
                outcome.error,
                Some(CompactError::Incomplete(_) | CompactError::Provider(_))
            ),
            "{what}: {:?}",
            outcome.error
        );
        assert_eq!(session.context().unwrap(), &before[..], "{what}");
        let kinds = kinds(session.path());
        assert!(!kinds.contains(&"compaction"), "{what}: {kinds:?}");
        assert!(kinds.contains(&"attempt_failed"), "{what}: {kinds:?}");
        assert!(
            intents
                .iter()
                .any(|i| matches!(i, Intent::CompactionEnd { error: Some(_), .. })),
            "{what}"
        );
        // Reopened, the projection is the uncompacted one.
        let path = session.path().to_owned();
        let id = session.id();
        session.close().unwrap();
        let mut reopened = Session::open(&path, id).unwrap().session;
        assert_eq!(reopened.context().unwrap(), &before[..], "{what}");
    }
}

#[test]
fn an_abort_during_compaction_records_an_abort_and_no_summary() {
    let (_dir, mut session) = session_with(3, 400);
    let before = session.context().unwrap().to_vec();
    let abort: Hook = Box::new(|_, cancel: &Cancel| cancel.cancel());
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
    let (outcome, _, _) = compact_now(&mut session, plan, Some(abort));
    assert!(
        matches!(outcome.error, Some(CompactError::Aborted)),
        "{:?}",
        outcome.error
    );
    let kinds = kinds(session.path());
    assert!(!kinds.contains(&"compaction"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"abort"), "{kinds:?}");
    assert_eq!(session.context().unwrap(), &before[..]);
}

#[test]
fn nothing_to_compact_is_refused_and_writes_nothing() {
    let (_dir, mut session) = session_with(1, 10);
    let before = kinds(session.path());
    let (outcome, seen, _) = compact_now(&mut session, vec![], None);
    assert!(
        matches!(outcome.error, Some(CompactError::Nothing { .. })),
        "{:?}",
        outcome.error
    );
    assert!(seen.lock().unwrap().is_empty(), "nothing was sent");
    assert_eq!(kinds(session.path()), before);
}

/// Run `prompt` with automatic compaction under `policy` and a `window`-token model playing
/// `plan`.
fn run_auto(
    session: &mut Session,
    plan: Vec<Vec<StreamEvent>>,
    window: u64,
    policy: CompactionPolicy,
    hook: Option<Hook>,
) -> (smith_agent::RunOutcome, Seen, Vec<Intent>) {
    let (mut fake, seen) = FakeProvider::new(plan);
    if let Some(hook) = hook {
        fake = fake.with_hook(hook);
    }
    let route = route(fake, Some(window));
    let agent = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default())
        .with_lifecycle(&Handlers)
        .with_compaction(policy);
    let mut intents = Vec::new();
    let outcome = agent.run(
        session,
        &"p/m".parse().unwrap(),
        "next prompt",
        &mut |i: Intent| intents.push(i),
        &Cancel::new(),
    );
    (outcome, seen, intents)
}

fn policy(auto: bool) -> CompactionPolicy {
    CompactionPolicy {
        auto,
        threshold: 0.5,
        keep_tokens: 10,
        max_failures: 3,
    }
}

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
        carried: carry.then(|| Carried {
            model: Some("p/m".parse().unwrap()),
            secrets: Vec::new(),
            open: vec![queued],
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
