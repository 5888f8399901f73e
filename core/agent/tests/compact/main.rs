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

mod auto;
mod queued;

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
    session_answering(turns, bytes, 0)
}

/// As [`session_with`], each answer padded with `answer_bytes` bytes.
fn session_answering(
    turns: usize,
    bytes: usize,
    answer_bytes: usize,
) -> (tempfile::TempDir, Session) {
    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let plan = (0..turns)
        .map(|i| {
            answer(
                &format!("answer {i}{}", "y".repeat(answer_bytes)),
                StopReason::EndTurn,
            )
        })
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
    // Seen as a start and an end naming the record; the kept turn is over 1.5 × the 10
    // tokens asked to keep by itself, which is said first.
    assert!(matches!(
        intents.first(),
        Some(Intent::Notice { text, .. }) if text.contains("over 1.5 × the 10 asked to keep")
    ));
    assert!(matches!(
        intents.get(1),
        Some(Intent::CompactionStart {
            reason: CompactionReason::Manual,
            kept_tokens: Some(kept),
            ..
        }) if *kept > 15
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

#[test]
fn a_first_prompt_alone_is_not_worth_compacting_and_nothing_is_sent() {
    // The answer alone fills what is kept verbatim: only the prompt lies before it.
    let (_dir, mut session) = session_answering(1, 10, 400);
    let before = kinds(session.path());
    let (outcome, seen, _) = compact_now(&mut session, vec![], None);
    match &outcome.error {
        Some(e @ CompactError::OnlyPrompts { tokens }) => {
            assert!(*tokens > 0);
            assert!(e.to_string().contains("nothing worth compacting"), "{e}");
        }
        other => panic!("{other:?}"),
    }
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
