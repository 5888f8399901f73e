//! Dispatch rules of the runtime with real session files (spec SMH-SPEC-SPEC0001: Providers,
//! models, and authentication → Failover, Dispatch identity; plan SMH-PLAN-99TPLN9I B4–B5):
//! each attempt recorded before its request, a partly consumed stream never replayed, the
//! abort of a retry wait, the failover order of several candidates, and once-only usage.
//!
//! The providers here are in-process stand-ins that hand back the events each call is given,
//! so the tests can count exactly how many requests each candidate saw.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use smith::NoTools;
use smith::{
    Cancel, ModelInfo, Price, Provider, ProviderError, ProviderErrorKind, ProviderRequest,
    RouteSource, Routing, SessionId, Source, StopReason, StreamEvent, Usage,
};
use smith_agent::{Candidate, RetryPolicy, Route, RunLimits, Session};
use smith_store::{Record, read_session};
use smith_testkit::kinds_of;

/// Plays one list of events per call; counts calls and keeps the requests.
struct Fake {
    plan: Mutex<VecDeque<Vec<StreamEvent>>>,
    calls: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<ProviderRequest>>>,
    /// Abort the run from inside this call (1-based), as a user would while it runs.
    abort_at: Option<usize>,
}

impl Provider for Fake {
    fn id(&self) -> &str {
        "fake"
    }

    fn stream<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<smith::EventStream<'a>, ProviderError> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if self.abort_at == Some(call) {
            cancel.cancel();
        }
        self.seen.lock().unwrap().push(request.clone());
        let events = self.plan.lock().unwrap().pop_front().unwrap_or_else(|| {
            vec![StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Other,
                "no planned response left",
            ))]
        });
        Ok(Box::new(events.into_iter()))
    }
}

fn refused(kind: ProviderErrorKind) -> Vec<StreamEvent> {
    vec![StreamEvent::Error(ProviderError::new(
        kind,
        format!("{kind:?}"),
    ))]
}

fn answer(text: &str, usage: Option<Usage>) -> Vec<StreamEvent> {
    let mut v = vec![StreamEvent::TextDelta { text: text.into() }];
    if let Some(u) = usage {
        v.push(StreamEvent::Usage(u));
    }
    v.push(StreamEvent::Stop {
        reason: StopReason::EndTurn,
    });
    v
}

fn info(model: &str, price: f64) -> ModelInfo {
    let mut m = ModelInfo::unknown(
        model.parse().unwrap(),
        Source {
            id: "test".into(),
            title: "test".into(),
            date: Some("2026-11-30".into()),
        },
    );
    m.tools = Some(true);
    m.price = Some(Price {
        input: Some(price),
        output: Some(price),
        cache_read: Some(price),
        cache_write: Some(price),
    });
    m
}

struct Counted {
    calls: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<ProviderRequest>>>,
}

fn candidate(
    model: &str,
    price: f64,
    plan: Vec<Vec<StreamEvent>>,
) -> (Candidate<'static>, Counted) {
    candidate_aborting(model, price, plan, None)
}

/// A candidate whose provider aborts the run from inside call `abort_at` (1-based).
fn candidate_aborting(
    model: &str,
    price: f64,
    plan: Vec<Vec<StreamEvent>>,
    abort_at: Option<usize>,
) -> (Candidate<'static>, Counted) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let fake = Fake {
        plan: Mutex::new(plan.into()),
        calls: Arc::clone(&calls),
        seen: Arc::clone(&seen),
        abort_at,
    };
    (
        Candidate {
            model: model.parse().unwrap(),
            account: None,
            credential: None,
            routing: Routing {
                source: RouteSource::Group,
                path: vec!["g".into(), model.into()],
                position: 0,
                of: 0,
                skipped: Vec::new(),
            },
            capabilities: Some(info(model, price)),
            generation: "fake@1.0.0#000000000000".into(),
            options: Default::default(),
            provider: Box::new(fake),
        },
        Counted { calls, seen },
    )
}

fn usage(n: u64) -> Usage {
    Usage {
        input: Some(n),
        output: Some(n),
        cache_read: Some(0),
        cache_write: Some(0),
    }
}

fn run_route(
    route: &Route<'_>,
    cancel: &Cancel,
) -> (
    tempfile::TempDir,
    smith_agent::RunOutcome,
    Vec<smith_store::Entry>,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let outcome = smith_agent::Agent::routed(route, &NoTools, RunLimits::default()).run(
        &mut session,
        &"g".parse().unwrap(),
        "hi",
        &mut |_| {},
        cancel,
    );
    let entries = read_session(session.path()).unwrap().entries;
    (dir, outcome, entries)
}

#[test]
fn a_partly_consumed_stream_is_never_replayed() {
    // Text arrived, then a transient failure: the round fails with what arrived; no retry
    // and no failover, though both are available.
    let partial = vec![
        StreamEvent::TextDelta {
            text: "half an ans".into(),
        },
        StreamEvent::Error(ProviderError::new(ProviderErrorKind::Transient, "cut")),
    ];
    let (a, a_calls) = candidate("p/a", 1.0, vec![partial]);
    let (b, b_calls) = candidate("p/b", 1.0, vec![answer("b", None)]);
    let route = Route::new("g".parse().unwrap(), None, vec![a, b]);
    let (_dir, outcome, entries) = run_route(&route, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::Error);
    assert_eq!(a_calls.calls.load(Ordering::SeqCst), 1);
    assert_eq!(b_calls.calls.load(Ordering::SeqCst), 0);
    let Record::Message(m) = &entries[6].record else {
        panic!("{:?}", kinds_of(&entries))
    };
    assert_eq!(m.message.text(), "half an ans");
    assert!(!kinds_of(&entries).contains(&"attempt_failed"));
}

#[test]
fn failover_walks_the_order_and_each_attempt_is_recorded_before_its_request() {
    let (a, a_calls) = candidate("p/a", 1.0, vec![refused(ProviderErrorKind::RateLimited)]);
    let (b, b_calls) = candidate("p/b", 2.0, vec![refused(ProviderErrorKind::Unavailable)]);
    let (c, c_calls) = candidate("p/c", 3.0, vec![answer("from c", Some(usage(1_000_000)))]);
    let route = Route::new("g".parse().unwrap(), None, vec![a, b, c]);
    let (_dir, outcome, entries) = run_route(&route, &Cancel::new());
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    for counted in [&a_calls, &b_calls, &c_calls] {
        assert_eq!(counted.calls.load(Ordering::SeqCst), 1);
    }
    assert_eq!(
        kinds_of(&entries)[4..],
        [
            "attempt",
            "request",
            "attempt_failed",
            "attempt",
            "request",
            "attempt_failed",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    // Each request went to its own physical model; the selection stayed `g`.
    assert_eq!(c_calls.seen.lock().unwrap()[0].model.to_string(), "p/c");
    for (i, want) in [(4, "p/a"), (7, "p/b"), (10, "p/c")] {
        let Record::Attempt(a) = &entries[i].record else {
            panic!()
        };
        assert_eq!(a.selection, "g");
        assert_eq!(a.model.to_string(), want);
        assert_eq!(a.routing.of, 3);
    }
    // Priced at the serving model's recorded prices: 2M tokens at $3 per million.
    assert_eq!(outcome.cost_usd, Some(6.0));
    let accounts = smith_agent::account(&entries);
    assert_eq!(accounts.cost_usd, Some(6.0));
    assert_eq!(accounts.total.responses, 1);
    assert_eq!(accounts.attempts.len(), 3);
    assert_eq!(
        accounts.attempts[0].failed,
        Some(ProviderErrorKind::RateLimited)
    );
    // Counting the same entries twice changes nothing: each observation counts once.
    let twice: Vec<_> = entries.iter().chain(entries.iter()).collect();
    assert_eq!(smith_agent::account(twice), accounts);
}

#[test]
fn an_abort_while_waiting_to_retry_sends_nothing_more() {
    // The abort comes inside the refused attempt, so the run always meets it in the backoff
    // wait, never earlier or later.
    let (a, a_calls) = candidate_aborting(
        "p/a",
        1.0,
        vec![refused(ProviderErrorKind::Transient), answer("late", None)],
        Some(1),
    );
    let mut route = Route::new("g".parse().unwrap(), None, vec![a]);
    route.retry = RetryPolicy {
        transient_retries: 2,
        backoff: Duration::from_secs(30),
    };
    let cancel = Cancel::new();
    let started = std::time::Instant::now();
    let (_dir, outcome, entries) = run_route(&route, &cancel);
    assert_eq!(outcome.stop_reason, StopReason::Aborted);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the wait observed the abort"
    );
    assert_eq!(a_calls.calls.load(Ordering::SeqCst), 1);
    let Record::AttemptFailed(f) = &entries[6].record else {
        panic!("{:?}", kinds_of(&entries))
    };
    assert_eq!(f.next, smith::Next::Retry);
    // No response was recorded: usage totals are a known zero, not unknown.
    let accounts = smith_agent::account(&entries);
    assert_eq!(accounts.total.responses, 0);
    assert_eq!(accounts.cost_usd, Some(0.0));
}

#[test]
fn the_last_candidates_failure_ends_the_round_as_its_response() {
    let (a, a_calls) = candidate("p/a", 1.0, vec![refused(ProviderErrorKind::RateLimited)]);
    let route = Route::new("g".parse().unwrap(), None, vec![a]);
    let (_dir, outcome, entries) = run_route(&route, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::Error);
    assert_eq!(
        a_calls.calls.load(Ordering::SeqCst),
        1,
        "no retry of a rate limit"
    );
    // The attempt's request is recorded with it, before it is sent.
    assert_eq!(
        kinds_of(&entries)[4..],
        ["attempt", "request", "message", "run_end"]
    );
    let Record::Message(m) = &entries[6].record else {
        panic!()
    };
    assert!(m.error.is_some() && m.attempt == Some(entries[4].id));
}

#[test]
fn a_candidate_whose_record_refuses_the_request_is_passed_over() {
    let (mut a, a_calls) = candidate("p/a", 1.0, vec![answer("a", None)]);
    a.capabilities.as_mut().unwrap().thinking = Some(vec![smith::ThinkingLevel::Off]);
    let (mut b, b_calls) = candidate("p/b", 1.0, vec![answer("b", None)]);
    b.capabilities.as_mut().unwrap().thinking =
        Some(vec![smith::ThinkingLevel::Off, smith::ThinkingLevel::High]);
    b.capabilities.as_mut().unwrap().output = Some(1234);
    let route = Route::new(
        "g".parse().unwrap(),
        Some(smith::ThinkingLevel::High),
        vec![a, b],
    );
    let (_dir, outcome, entries) = run_route(&route, &Cancel::new());
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    assert_eq!(a_calls.calls.load(Ordering::SeqCst), 0);
    let sent = &b_calls.seen.lock().unwrap()[0];
    assert_eq!(sent.thinking, Some(smith::ThinkingLevel::High));
    assert_eq!(sent.max_output, Some(1234), "the dispatched model's limit");
    let Record::Attempt(att) = &entries[4].record else {
        panic!()
    };
    assert_eq!(att.thinking, Some(smith::ThinkingLevel::High));
    assert!(att.routing.skipped[0].starts_with("p/a cannot take this request"));

    // When no candidate can take it, nothing is sent and the run says why for each.
    let (a, a_calls) = candidate("p/a", 1.0, vec![answer("a", None)]);
    let route = Route::new(
        "g".parse().unwrap(),
        Some(smith::ThinkingLevel::Max),
        vec![a],
    );
    let (_dir, outcome, entries) = run_route(&route, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::Error);
    assert_eq!(a_calls.calls.load(Ordering::SeqCst), 0);
    let text = outcome.error.unwrap().to_string();
    assert!(
        text.contains("nothing was sent") && text.contains("`max`"),
        "{text}"
    );
    assert!(!kinds_of(&entries).contains(&"attempt"));
}

#[test]
fn a_selection_the_route_does_not_serve_is_refused() {
    let (a, _) = candidate("p/a", 1.0, vec![answer("a", None)]);
    let route = Route::new("other".parse().unwrap(), None, vec![a]);
    let (_dir, outcome, _) = run_route(&route, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::Error);
    assert!(
        outcome
            .error
            .unwrap()
            .to_string()
            .contains("route serves `other`"),
    );
}

#[test]
fn input_no_candidate_can_take_is_refused_before_admission() {
    let (a, a_calls) = candidate("p/a", 1.0, vec![answer("a", None)]);
    let route = Route::new(
        "g".parse().unwrap(),
        Some(smith::ThinkingLevel::Max),
        vec![a],
    );
    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let before = read_session(session.path()).unwrap().entries.len();
    let model = "g".parse().unwrap();
    let submit = smith_agent::Submit {
        model: &model,
        input: "hi",
        dedup_key: None,
        destination: None,
        attachments: &[],
        images: &[],
    };
    let refused = smith_agent::Agent::routed(&route, &NoTools, RunLimits::default()).submit(
        &mut session,
        submit,
        &mut |_| {},
        &Cancel::new(),
    );
    let Err(smith_agent::AdmissionError::Unserviceable { selection, reasons }) = refused else {
        panic!("refused before admission")
    };
    assert_eq!(selection, "g");
    assert!(
        reasons.len() == 1 && reasons[0].contains("thinking level `max`"),
        "{reasons:?}"
    );
    assert_eq!(read_session(session.path()).unwrap().entries.len(), before);
    assert_eq!(a_calls.calls.load(Ordering::SeqCst), 0);
}
