//! Runtime contracts with real session files and the real scripted provider (spec: Agent
//! behavior, Sessions → Submission and receipts, Work and recovery, Scoped state, Observation,
//! Access ownership). The queue policy here is a small Rust [`Lifecycle`] that exercises the
//! runtime's safe points and validation; the bundled wasm policy is tested in `core/host`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use smith::{
    Action, Cancel, ContentBlock, ContextItem, Delivery, EntryId, HandlerReply, Lifecycle,
    LifecycleEvent, SessionId, StopReason, ToolCall, ToolContext, ToolOutput, ToolRegistry,
};
use smith_agent::{
    Access, AdmissionError, Agent, Enqueue, Inbox, ObserveError, Observer, Position, ReceiptState,
    RunLimits, Session, WithdrawError, WorkLimits,
};
use smith_ai::scripted::ScriptedProvider;
use smith_store::{EffectIntent, Record, read_session};
use smith_testkit::{kinds, scripted, selection, wait_for};
use smith_ui_intents::Intent;

fn model() -> smith::Selection {
    selection("scripted/t")
}

fn provider(src: &str, dir: &Path) -> ScriptedProvider {
    scripted(src, Some(dir))
}

/// The steer/follow-up policy the bundled plugin implements, as a Rust handler.
struct Policy {
    label: &'static str,
    /// Replace the policy's answer (to test validation).
    answer: Option<Vec<Action>>,
}

impl Policy {
    fn new() -> Self {
        Self {
            label: "policy@1.0.0",
            answer: None,
        }
    }
}

impl Lifecycle for Policy {
    fn queue_policy(&self) -> Option<String> {
        Some(self.label.to_owned())
    }

    fn handle(&self, event: &LifecycleEvent, _cancel: &Cancel) -> Vec<HandlerReply> {
        let actions = self.answer.clone().unwrap_or_else(|| match event {
            LifecycleEvent::ToolEnd { queued, .. } => queued
                .iter()
                .any(|q| q.delivery == Delivery::Steer)
                .then(|| Action::SkipRemaining("the user steered the work".into()))
                .into_iter()
                .collect(),
            LifecycleEvent::BatchEnd { queued, .. } => queued
                .iter()
                .filter(|q| q.delivery == Delivery::Steer)
                .map(|q| Action::Deliver(q.submission))
                .collect(),
            LifecycleEvent::Idle { queued, .. } => queued
                .iter()
                .map(|q| Action::Deliver(q.submission))
                .collect(),
        });
        vec![HandlerReply {
            handler: self.label.to_owned(),
            actions: Ok(actions),
        }]
    }
}

type Hook = Box<dyn Fn(&ToolCall, &ToolContext) + Send + Sync>;

/// Tools whose calls run `hook` (to act while a call is running) and answer `ran NAME`.
struct Tools {
    hook: Hook,
    calls: Mutex<Vec<String>>,
}

impl Tools {
    fn new(hook: impl Fn(&ToolCall, &ToolContext) + Send + Sync + 'static) -> Self {
        Self {
            hook: Box::new(hook),
            calls: Mutex::new(Vec::new()),
        }
    }
}

impl ToolRegistry for Tools {
    fn definitions(&self) -> Vec<smith::ToolDefinition> {
        vec![smith::ToolDefinition {
            name: "step".into(),
            description: "a step".into(),
            input_schema: serde_json::json!({"type": "object"}),
        }]
    }

    fn call(&self, call: &ToolCall, context: &ToolContext, _cancel: &Cancel) -> ToolOutput {
        self.calls.lock().unwrap().push(call.id.clone());
        (self.hook)(call, context);
        ToolOutput {
            output: format!("ran {}", call.id),
            is_error: false,
            structured: None,
        }
    }

    fn provenance(&self) -> Vec<String> {
        vec!["steps@1.0.0".into()]
    }
}

const THREE_CALLS: &str = r#"
round {
    tool-call id="c1" name="step" arguments="{}"
    tool-call id="c2" name="step" arguments="{}"
    tool-call id="c3" name="step" arguments="{}"
    stop "tool_use"
}
round { echo; stop "end_turn" }
round { echo; stop "end_turn" }
round { echo; stop "end_turn" }
"#;

struct Fixture {
    dir: tempfile::TempDir,
    session: Session,
    inbox_slot: Arc<Mutex<Option<Inbox>>>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    Fixture {
        dir,
        session,
        inbox_slot: Arc::new(Mutex::new(None)),
    }
}

fn enqueue(inbox: &Inbox, input: &str, delivery: Delivery) -> EntryId {
    inbox
        .enqueue(Enqueue {
            model: &model(),
            input,
            delivery,
            dedup_key: None,
        })
        .unwrap()
}

/// The context recorded in a session file (one branch): its messages and tool results.
fn reopened_context(path: &Path, _id: SessionId) -> Vec<ContextItem> {
    read_session(path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Message(m) => Some(ContextItem::Message(m.message)),
            Record::ToolResult(r) => Some(ContextItem::ToolResult(r.result)),
            _ => None,
        })
        .collect()
}

#[test]
fn steering_skips_the_rest_of_the_batch_with_explicit_results_and_is_delivered_after_it() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let slot = Arc::clone(&f.inbox_slot);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            enqueue(&inbox, "stop, run the linter first", Delivery::Steer);
        }
    });
    let policy = Policy::new();
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let mut intents = Vec::new();
    let outcome = agent.run(
        &mut f.session,
        &model(),
        "do three steps",
        &mut |i| intents.push(i),
        &Cancel::new(),
    );
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    assert_eq!(*tools.calls.lock().unwrap(), ["c1"], "c2 and c3 never ran");
    let path = f.session.path().to_owned();
    assert_eq!(
        kinds(&path),
        [
            "session_start",
            "submission",
            "model_change",
            "message",
            "request_input",
            "attempt",
            "request",
            "message",
            "submission",
            "tool_result",
            "tool_result",
            "tool_result",
            "checkpoint",
            "message",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    let entries = read_session(&path).unwrap().entries;
    // Each skipped call has an explicit result saying why.
    for (i, id) in [(10, "c2"), (11, "c3")] {
        let Record::ToolResult(r) = &entries[i].record else {
            panic!()
        };
        assert_eq!(r.result.call_id, id);
        assert!(r.result.is_error);
        assert!(
            r.result.output.contains("skipped: the user steered"),
            "{}",
            r.result.output
        );
    }
    // The steering message follows the complete batch and pairs with its submission.
    let Record::Message(m) = &entries[13].record else {
        panic!()
    };
    assert_eq!(m.message.role, smith::Role::User);
    assert_eq!(entries[13].pair, Some(entries[8].id));
    // The next request (echoed) saw every call paired before the steering message.
    let ctx = reopened_context(&path, f.session.id());
    smith::check_pairing(&ctx).unwrap();
    let ContextItem::Message(answer) = ctx.last().unwrap() else {
        panic!()
    };
    let ContentBlock::Text { text } = &answer.content[0] else {
        panic!()
    };
    assert!(text.contains("stop, run the linter first"), "{text}");
    // The steering input's receipt follows the work it was delivered into.
    let receipts = smith_agent::receipts(&path, f.session.id()).unwrap();
    assert_eq!(receipts.len(), 2);
    assert_eq!(receipts[1].delivery, Some(Delivery::Steer));
    assert!(matches!(
        receipts[1].state,
        ReceiptState::Terminal {
            stop_reason: StopReason::EndTurn,
            ..
        }
    ));
    assert!(f.session.queued().is_empty());
}

#[test]
fn follow_up_waits_until_the_work_would_stop_then_continues_it() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let slot = Arc::clone(&f.inbox_slot);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            enqueue(&inbox, "then summarise", Delivery::FollowUp);
        }
    });
    let policy = Policy::new();
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let outcome = agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    // Follow-up input skips nothing.
    assert_eq!(*tools.calls.lock().unwrap(), ["c1", "c2", "c3"]);
    let entries = read_session(f.session.path()).unwrap().entries;
    let kinds = smith_testkit::kinds_of(&entries);
    // Round 1 (tools), round 2 ends the turn, then the follow-up and round 3.
    assert_eq!(
        &kinds[12..],
        [
            "checkpoint",
            "attempt",
            "request",
            "message",
            "message",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    assert_eq!(
        entries[16].pair,
        Some(entries[8].id),
        "the delivery pairs with the input"
    );
}

#[test]
fn queued_input_can_be_listed_and_withdrawn_and_a_withdrawn_input_is_never_delivered() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let slot = Arc::clone(&f.inbox_slot);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            let id = enqueue(&inbox, "never mind", Delivery::Steer);
            assert_eq!(inbox.queued().len(), 1);
            assert_eq!(inbox.queued()[0].submission, id);
            inbox.withdraw(id, "withdrawn by the user").unwrap();
            assert!(inbox.queued().is_empty());
            assert!(matches!(
                inbox.withdraw(id, "again"),
                Err(WithdrawError::NotQueued(_))
            ));
        }
    });
    let policy = Policy::new();
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    assert_eq!(*tools.calls.lock().unwrap(), ["c1", "c2", "c3"]);
    let receipts = smith_agent::receipts(f.session.path(), f.session.id()).unwrap();
    assert!(matches!(receipts[1].state, ReceiptState::Withdrawn { .. }));
    let users = read_session(f.session.path())
        .unwrap()
        .entries
        .iter()
        .filter(|e| matches!(&e.record, Record::Message(m) if m.message.role == smith::Role::User))
        .count();
    assert_eq!(users, 1, "only the original prompt");
}

#[test]
fn conflicting_handler_actions_are_rejected_whole_with_a_notice() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let slot = Arc::clone(&f.inbox_slot);
    let ids = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&ids);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            seen.lock()
                .unwrap()
                .push(enqueue(&inbox, "a", Delivery::Steer));
        }
    });
    // The queued input is entry 9 (after the start, submission, model, prompt, the tool
    // definitions, the attempt, its request and the assistant message); the policy answers every event by delivering it twice.
    let id = EntryId(9);
    let policy = Policy {
        label: "policy@1.0.0",
        answer: Some(vec![Action::Deliver(id), Action::Deliver(id)]),
    };
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let mut intents = Vec::new();
    agent.run(
        &mut f.session,
        &model(),
        "go",
        &mut |i| intents.push(i),
        &Cancel::new(),
    );
    assert_eq!(ids.lock().unwrap().as_slice(), [id]);
    let notices: Vec<String> = intents
        .iter()
        .filter_map(|i| match i {
            Intent::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        notices
            .iter()
            .any(|n| n.contains("delivered twice") && n.contains("nothing was applied")),
        "{notices:?}"
    );
    // Nothing was delivered: the input is still queued, also after reopening.
    assert_eq!(f.session.queued().len(), 1);
    let path = f.session.path().to_owned();
    let id_s = f.session.id();
    // The session and every inbox release the writer.
    *f.inbox_slot.lock().unwrap() = None;
    drop(agent);
    drop(f.session);
    let reopened = Session::open(&path, id_s).unwrap().session;
    assert_eq!(reopened.queued()[0].submission, id);
}

#[test]
fn input_queued_under_a_policy_that_is_gone_stays_queued_and_is_reported() {
    let f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let original = Policy::new();
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default()).with_lifecycle(&original);
    let id = enqueue(&agent.inbox(&f.session), "later", Delivery::FollowUp);
    let before = kinds(f.session.path());
    let path = f.session.path().to_owned();
    let sid = f.session.id();
    drop(f.session);
    // Reopen with a different policy (same name, other version): no silent rebinding.
    let mut session = Session::open(&path, sid).unwrap().session;
    assert_eq!(session.queued()[0].submission, id, "rebuilt from the file");
    let other = Policy {
        label: "policy@2.0.0",
        answer: None,
    };
    let tools = Tools::new(|_, _| {});
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&other);
    let mut intents = Vec::new();
    agent.run(
        &mut session,
        &model(),
        "go",
        &mut |i| intents.push(i),
        &Cancel::new(),
    );
    let notice = intents
        .iter()
        .find_map(|i| match i {
            Intent::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
        .expect("a diagnostic");
    assert!(
        notice.contains(&id.to_string())
            && notice.contains("policy@1.0.0")
            && notice.contains("policy@2.0.0")
            && notice.contains("withdraw"),
        "{notice}"
    );
    assert_eq!(session.queued().len(), 1, "the input is kept, not erased");
    let after = kinds(&path);
    assert_eq!(&after[..before.len()], before.as_slice());
    let receipts = smith_agent::receipts(&path, sid).unwrap();
    assert!(
        receipts
            .iter()
            .any(|r| r.submission == id && r.state == ReceiptState::Queued)
    );
}

#[test]
fn a_parent_settles_after_the_child_work_it_owns_and_observers_wait_for_both() {
    let mut f = fixture();
    let p = provider(
        r#"
        round { tool-call id="c1" name="step" arguments="{}"; stop "tool_use" }
        round { text "parent done"; stop "end_turn" }
        round { text "child done"; stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let slot = Arc::clone(&f.inbox_slot);
    let child_id = Arc::new(Mutex::new(None));
    let child_seen = Arc::clone(&child_id);
    let tools = Tools::new(move |_, _| {
        let inbox = slot.lock().unwrap().clone().unwrap();
        let (parent, _) = inbox.live_work()[0];
        let child = inbox.submit_child(parent, &model(), "child task").unwrap();
        *child_seen.lock().unwrap() = Some((parent, child));
    });
    let agent = Agent::new(&p, &tools, RunLimits::default());
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    // An observer waits for the parent from another thread; a second wait is cancelled.
    let path = f.session.path().to_owned();
    let observer = Observer::open(&path, f.session.id()).unwrap();
    let cancelled = Cancel::new();
    cancelled.cancel();
    let waiter = {
        let observer = observer.clone();
        std::thread::spawn(move || {
            // Wait for the submission to exist, then for its settlement.
            loop {
                if let Ok(r) = observer.receipts()
                    && let Some(first) = r.first()
                {
                    let id = first.submission;
                    return observer.wait_settled(id, &Cancel::new(), Duration::from_millis(2));
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let outcome = agent.run(
        &mut f.session,
        &model(),
        "parent task",
        &mut |_| {},
        &Cancel::new(),
    );
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    let (parent, child) = child_id.lock().unwrap().unwrap();
    let entries = read_session(&path).unwrap().entries;
    let end_of = |work: EntryId| {
        entries
            .iter()
            .position(|e| matches!(e.record, Record::RunEnd(_)) && e.pair == Some(work))
            .unwrap()
    };
    assert!(end_of(child) < end_of(parent), "the child ends first");
    // The parent's end references the child; its own usage excludes the child's, and the
    // work's total counts each response once: the session's whole accounting.
    let Record::RunEnd(parent_end) = &entries[end_of(parent)].record else {
        panic!()
    };
    assert_eq!(parent_end.children, [child]);
    assert_eq!(parent_end.usage.responses, 2);
    let whole = smith_agent::work_usage(&entries, parent).unwrap();
    assert_eq!(whole.responses, 3);
    assert_eq!(whole, smith_agent::account(&entries).total);
    // The child's input was delivered as a user message paired with it, then it ran.
    let delivered = entries
        .iter()
        .position(|e| e.pair == Some(child) && matches!(e.record, Record::Message(_)))
        .unwrap();
    assert!(delivered < end_of(child));
    let settled = waiter.join().unwrap().unwrap();
    assert_eq!(settled.submission, parent);
    let receipts = observer.receipts().unwrap();
    let child_receipt = receipts.iter().find(|r| r.submission == child).unwrap();
    assert_eq!(child_receipt.owner, Some(parent));
    assert!(child_receipt.is_terminal());
    let (_, answer) = child_receipt.answer.as_ref().unwrap();
    assert_eq!(
        answer.message.content,
        vec![ContentBlock::Text {
            text: "child done".into()
        }]
    );
    // Cancelling an observation ends the wait and changes nothing.
    let before = std::fs::read(&path).unwrap();
    assert!(matches!(
        observer.wait_settled(EntryId(999), &cancelled, Duration::from_millis(1)),
        Err(ObserveError::UnknownSubmission(_))
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn cancelling_a_wait_ends_only_the_observation() {
    let mut f = fixture();
    let p = provider(
        r#"round { gate "hold"; text "done"; stop "end_turn" }"#,
        f.dir.path(),
    );
    let path = f.session.path().to_owned();
    let sid = f.session.id();
    let gate_dir = f.dir.path().to_owned();
    let runner = std::thread::spawn(move || {
        let agent = Agent::new(&p, &smith::NoTools, RunLimits::default());
        let outcome = agent.run(&mut f.session, &model(), "x", &mut |_| {}, &Cancel::new());
        (outcome.stop_reason, f)
    });
    wait_for(&gate_dir.join("hold.waiting"));
    let observer = Observer::open(&path, sid).unwrap();
    let work = observer.receipts().unwrap()[0].submission;
    // The wait is cancelled before it begins, so no timing decides which path runs: it sees
    // the work unsettled, then the cancellation, and ends — the work does not.
    let cancel = Cancel::new();
    cancel.cancel();
    let waited = observer.wait_settled(work, &cancel, Duration::from_millis(2));
    assert!(matches!(waited, Err(ObserveError::Cancelled)), "{waited:?}");
    // The work was untouched and completes normally once released.
    assert_eq!(
        observer.receipt(work).unwrap().state,
        ReceiptState::Admitted
    );
    std::fs::write(gate_dir.join("hold.release"), "").unwrap();
    let (stop, _f) = runner.join().unwrap();
    assert_eq!(stop, StopReason::EndTurn);
    assert!(observer.receipt(work).unwrap().is_terminal());
}

#[test]
fn admission_over_the_limits_fails_without_writing_anything() {
    let f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let limits = WorkLimits {
        max_live_work: 2,
        max_depth: 2,
        max_queued_items: 2,
        max_queued_bytes: 10,
    };
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default())
        .with_lifecycle(&policy)
        .with_work_limits(limits);
    let inbox = agent.inbox(&f.session);
    let path = f.session.path().to_owned();
    // Queue: items and bytes.
    enqueue(&inbox, "12345", Delivery::Steer);
    let size = std::fs::metadata(&path).unwrap().len();
    let over_bytes = inbox.enqueue(Enqueue {
        model: &model(),
        input: "123456",
        delivery: Delivery::Steer,
        dedup_key: None,
    });
    assert!(
        matches!(
            over_bytes,
            Err(AdmissionError::Limit {
                what: "queued input bytes",
                ..
            })
        ),
        "{over_bytes:?}"
    );
    enqueue(&inbox, "12345", Delivery::Steer);
    let size2 = std::fs::metadata(&path).unwrap().len();
    assert!(size2 > size);
    let over_items = inbox.enqueue(Enqueue {
        model: &model(),
        input: "",
        delivery: Delivery::FollowUp,
        dedup_key: None,
    });
    assert!(matches!(
        over_items,
        Err(AdmissionError::Limit {
            what: "queued inputs",
            ..
        })
    ));
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        size2,
        "nothing written"
    );
    // Work: an owner that is not live, then depth and live-work limits.
    assert!(matches!(
        inbox.submit_child(EntryId(2), &model(), "x"),
        Err(AdmissionError::UnknownOwner { .. })
    ));
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size2);
    let err = AdmissionError::Limit {
        what: "live work",
        limit: 2,
        current: 2,
    };
    assert!(err.to_string().contains("nothing was written"));
}

#[test]
fn ownership_depth_and_live_work_limits_refuse_child_work_during_a_run() {
    let mut f = fixture();
    let p = provider(
        r#"
        round { tool-call id="c1" name="step" arguments="{}"; stop "tool_use" }
        round { stop "end_turn" }
        round { stop "end_turn" }
        round { stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let slot = Arc::clone(&f.inbox_slot);
    let results = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&results);
    let tools = Tools::new(move |_, _| {
        let inbox = slot.lock().unwrap().clone().unwrap();
        let (parent, _) = inbox.live_work()[0];
        let child = inbox.submit_child(parent, &model(), "child").unwrap();
        // Depth 3 is over the limit of 2; a third child is over the live-work limit of 3.
        let mut seen = seen.lock().unwrap();
        seen.push(inbox.submit_child(child, &model(), "grandchild"));
        seen.push(inbox.submit_child(parent, &model(), "second child"));
        seen.push(inbox.submit_child(parent, &model(), "third child"));
    });
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_work_limits(WorkLimits {
        max_live_work: 3,
        max_depth: 2,
        ..WorkLimits::default()
    });
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let outcome = agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    let results = results.lock().unwrap();
    assert!(
        matches!(
            &results[0],
            Err(AdmissionError::Limit {
                what: "ownership depth",
                ..
            })
        ),
        "{:?}",
        results[0]
    );
    assert!(results[1].is_ok());
    assert!(
        matches!(
            &results[2],
            Err(AdmissionError::Limit {
                what: "live work",
                ..
            })
        ),
        "{:?}",
        results[2]
    );
    let submissions = kinds(f.session.path())
        .iter()
        .filter(|k| **k == "submission")
        .count();
    assert_eq!(
        submissions, 3,
        "the parent and the two admitted children only"
    );
    // Both children ran and ended before the parent.
    let receipts = smith_agent::receipts(f.session.path(), f.session.id()).unwrap();
    assert!(receipts.iter().all(smith_agent::Receipt::is_terminal));
}

/// A copy of the session file as it is at this instant: every change is durable when its
/// append returns, so this is exactly what a crash now would leave.
fn crash_image(from: &Path, to_dir: &Path) -> PathBuf {
    let to = to_dir.join(from.file_name().unwrap());
    std::fs::copy(from, &to).unwrap();
    to
}

#[test]
fn reopen_reconstructs_input_ownership_checkpoints_and_receipts_without_running_effects() {
    let mut f = fixture();
    let p = provider(
        r#"
        round { tool-call id="c1" name="step" arguments="{}"; stop "tool_use" }
        round {
            tool-call id="c2" name="step" arguments="{}"
            tool-call id="c3" name="step" arguments="{}"
            stop "tool_use"
        }
        round { stop "end_turn" }
        round { stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let crash_dir = tempfile::tempdir().unwrap();
    let image = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&f.inbox_slot);
    let (image_slot, crash_to) = (Arc::clone(&image), crash_dir.path().to_owned());
    let policy = Policy::new();
    let tools = Tools::new(move |call, context| {
        let inbox = slot.lock().unwrap().clone().unwrap();
        if call.id == "c2" {
            let (parent, _) = inbox.live_work()[0];
            inbox.submit_child(parent, &model(), "child").unwrap();
            enqueue(&inbox, "queued follow-up", Delivery::FollowUp);
            // An effect whose completion the crash cuts off.
            context
                .journal
                .intent(
                    EffectIntent {
                        effect_id: "e1".into(),
                        call_id: call.id.clone(),
                        plugin: "steps@1.0.0#1".into(),
                        tool: "step".into(),
                        effect: "file.write".into(),
                        target: Some("a.txt".into()),
                        input: serde_json::json!({}),
                    },
                    context.cause,
                )
                .unwrap();
            let path = inbox.path().to_owned();
            *image_slot.lock().unwrap() = Some(crash_image(&path, &crash_to));
        }
    });
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    let inbox = agent.inbox(&f.session);
    *f.inbox_slot.lock().unwrap() = Some(inbox);
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let image = image.lock().unwrap().clone().unwrap();

    // Reopen the crash image with tools that count calls: none may run.
    let calls_before = tools.calls.lock().unwrap().len();
    let opened = Session::open(&image, f.session.id()).unwrap();
    assert_eq!(tools.calls.lock().unwrap().len(), calls_before);
    let mut session = opened.session;
    // Queued input is rebuilt and stays queued.
    assert_eq!(session.queued().len(), 1);
    assert_eq!(session.queued()[0].input, "queued follow-up");
    // Every call has a result (c2 and c3 interrupted), so the session can continue.
    smith::check_pairing(session.context().unwrap()).unwrap();
    let receipts = smith_agent::receipts(&image, session.id()).unwrap();
    let work: Vec<_> = receipts.iter().filter(|r| r.delivery.is_none()).collect();
    assert_eq!(work.len(), 2);
    let (parent, child) = (work[0], work[1]);
    assert_eq!(child.owner, Some(parent.submission));
    let (_, checkpoint) = parent.checkpoint.as_ref().expect("round 1's checkpoint");
    assert_eq!(checkpoint.round, 1);
    assert_eq!(checkpoint.requires, ["steps@1.0.0"]);
    for r in [parent, child] {
        assert!(
            matches!(
                r.state,
                ReceiptState::Terminal {
                    stop_reason: StopReason::Aborted,
                    ..
                }
            ),
            "{r:?}"
        );
    }
    // The child ended before its owner; the cut-off effect is unknown, never retried.
    let entries = read_session(&image).unwrap().entries;
    let ends: Vec<Option<EntryId>> = entries
        .iter()
        .filter(|e| matches!(e.record, Record::RunEnd(_)))
        .map(|e| e.pair)
        .collect();
    assert_eq!(ends, [Some(child.submission), Some(parent.submission)]);
    assert!(entries.iter().any(|e| matches!(&e.record,
        Record::EffectCompletion(c) if c.effect_id == "e1" && c.outcome == smith_store::EffectOutcome::Unknown)));
}

#[test]
fn observers_reject_submit_and_abort_before_any_effect() {
    let f = fixture();
    let path = f.session.path().to_owned();
    // The writer holds the session: a second opener gets observer access, not a wait.
    let access = Session::open_or_observe(&path, f.session.id()).unwrap();
    let Access::Observer(observer) = access else {
        panic!("expected observer access")
    };
    let before = std::fs::read(&path).unwrap();
    assert!(matches!(
        observer.submit("hello"),
        Err(AdmissionError::ReadOnly(_))
    ));
    assert!(matches!(
        observer.abort(EntryId(2)),
        Err(AdmissionError::ReadOnly(_))
    ));
    assert!(
        observer
            .submit("x")
            .unwrap_err()
            .to_string()
            .contains("fork the session")
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing written");
    // Observation reads committed history from a position, in bounded batches, without gaps.
    let start = Position {
        session: f.session.id(),
        next: EntryId(1),
    };
    let (first, next) = observer.changes(start, 1).unwrap();
    assert_eq!(first.len(), 1);
    assert_eq!(next.next, EntryId(2));
    let other = Position {
        session: SessionId::new_now(),
        next: EntryId(1),
    };
    assert!(matches!(
        observer.changes(other, 1),
        Err(ObserveError::OtherSession { .. })
    ));
    // Once the writer is gone, opening gives writer access again.
    drop(f.session);
    assert!(matches!(
        Session::open_or_observe(&path, observer.id()).unwrap(),
        Access::Writer(_)
    ));
}

#[test]
fn closing_seals_admission() {
    let f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default()).with_lifecycle(&policy);
    let inbox = agent.inbox(&f.session);
    let path = f.session.path().to_owned();
    f.session.close().unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    let refused = inbox.enqueue(Enqueue {
        model: &model(),
        input: "late",
        delivery: Delivery::Steer,
        dedup_key: None,
    });
    assert!(
        matches!(refused, Err(AdmissionError::Closed)),
        "{refused:?}"
    );
    assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
}

/// A handler that blocks until the run is cancelled, then asks for a delivery anyway.
struct Stuck(Arc<std::sync::Barrier>);

impl Lifecycle for Stuck {
    fn queue_policy(&self) -> Option<String> {
        Some("stuck@1.0.0".into())
    }

    fn handle(&self, event: &LifecycleEvent, cancel: &Cancel) -> Vec<HandlerReply> {
        self.0.wait();
        while !cancel.is_cancelled() {
            std::thread::sleep(Duration::from_millis(1));
        }
        vec![HandlerReply {
            handler: "stuck@1.0.0".into(),
            actions: Ok(event
                .queued()
                .iter()
                .map(|q| Action::Deliver(q.submission))
                .collect()),
        }]
    }
}

#[test]
fn abort_during_a_handler_call_applies_nothing_and_leaves_every_call_paired() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let barrier = Arc::new(std::sync::Barrier::new(2));
    let handler = Stuck(Arc::clone(&barrier));
    let slot = Arc::clone(&f.inbox_slot);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            enqueue(&inbox, "steer", Delivery::Steer);
        }
    });
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&handler);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let cancel = Cancel::new();
    let canceller = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            barrier.wait();
            cancel.cancel();
        })
    };
    let outcome = agent.run(&mut f.session, &model(), "go", &mut |_| {}, &cancel);
    canceller.join().unwrap();
    assert_eq!(outcome.stop_reason, StopReason::Aborted);
    // The handler was consulted at c1's end; c2 and c3 did not run but have results.
    assert_eq!(*tools.calls.lock().unwrap(), ["c1"]);
    let path = f.session.path().to_owned();
    let ctx = reopened_context(&path, f.session.id());
    smith::check_pairing(&ctx).unwrap();
    let results = ctx
        .iter()
        .filter(|i| matches!(i, ContextItem::ToolResult(_)))
        .count();
    assert_eq!(results, 3);
    // The handler's late delivery was not applied; the abort is recorded.
    assert_eq!(f.session.queued().len(), 1);
    let kinds = kinds(&path);
    assert!(kinds.contains(&"abort"));
    assert_eq!(kinds.last(), Some(&"run_end"));
}

#[test]
fn a_fork_keeps_source_evidence_without_adopting_queued_input_or_live_work() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    // Each call records an effect whose outcome is unknown.
    let tools = Tools::new(|call, context| {
        let intent = context
            .journal
            .intent(
                EffectIntent {
                    effect_id: format!("e-{}", call.id),
                    call_id: call.id.clone(),
                    plugin: "steps@1.0.0#1".into(),
                    tool: "step".into(),
                    effect: "process.run".into(),
                    target: None,
                    input: serde_json::json!({}),
                },
                context.cause,
            )
            .unwrap();
        context
            .journal
            .complete(
                intent,
                smith_store::EffectCompletion {
                    effect_id: format!("e-{}", call.id),
                    outcome: smith_store::EffectOutcome::Unknown,
                    output: b"timed out".to_vec(),
                    evidence: serde_json::Value::Null,
                },
            )
            .unwrap();
    });
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let queued = enqueue(&agent.inbox(&f.session), "later", Delivery::FollowUp);
    let fork_id = SessionId::new_now();
    let forked = smith_store::fork(f.session.path(), f.dir.path(), fork_id, None).unwrap();
    let fork = Session::open(&forked.path, fork_id).unwrap().session;
    assert!(
        fork.queued().is_empty(),
        "the source's queue is not the fork's"
    );
    // The source's effect evidence is history in the fork, unknown outcomes included.
    let unknown = read_session(&forked.path)
        .unwrap()
        .entries
        .iter()
        .filter(|e| {
            matches!(&e.record, Record::EffectCompletion(c)
                if c.outcome == smith_store::EffectOutcome::Unknown)
        })
        .count();
    assert_eq!(unknown, 3);
    let receipts = smith_agent::receipts(&forked.path, fork_id).unwrap();
    // Inherited receipts keep their source attribution.
    assert!(receipts.iter().all(|r| r.session == f.session.id()));
    let inherited = receipts.iter().find(|r| r.submission == queued).unwrap();
    assert!(
        matches!(inherited.state, ReceiptState::Withdrawn { .. }),
        "never delivered in the fork: {inherited:?}"
    );
    // The source still has it.
    assert_eq!(f.session.queued()[0].submission, queued);
}

/// The end of the first committed change after byte `from` (at most `to`).
fn next_change_end(image: &[u8], from: u64, to: u64, id: SessionId) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{id}.smith"));
    std::fs::write(&path, &image[..from as usize]).unwrap();
    let before = read_session(&path).unwrap().entries.len();
    (from + 1..=to)
        .find(|n| {
            std::fs::write(&path, &image[..*n as usize]).unwrap();
            read_session(&path).unwrap().entries.len() > before
        })
        .expect("a change ends before `to`")
}

/// Every cut of the file inside a change reads exactly as the file before that change: no
/// partial entry, queue item, checkpoint or receipt.
fn assert_torn_changes_expose_nothing(image: &[u8], before: u64, after: u64, id: SessionId) {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{id}.smith");
    let path = dir.path().join(&name);
    std::fs::write(&path, &image[..before as usize]).unwrap();
    let want_entries = read_session(&path).unwrap().entries;
    let want_receipts = smith_agent::receipts(&path, id).unwrap();
    assert!(after > before);
    for cut in before + 1..after {
        std::fs::write(&path, &image[..cut as usize]).unwrap();
        let read = read_session(&path).unwrap();
        assert_eq!(read.entries, want_entries, "cut at {cut}");
        assert_eq!(
            smith_agent::receipts(&path, id).unwrap(),
            want_receipts,
            "cut at {cut}"
        );
    }
    // And the whole change is visible once complete.
    std::fs::write(&path, &image[..after as usize]).unwrap();
    assert!(read_session(&path).unwrap().entries.len() > want_entries.len());
}

#[test]
fn torn_admission_queue_withdrawal_and_checkpoint_changes_expose_no_partial_state() {
    let mut f = fixture();
    let p = provider(
        r#"
        round {
            tool-call id="c1" name="step" arguments="{}"
            tool-call id="c2" name="step" arguments="{}"
            stop "tool_use"
        }
        round { gate "after-batch"; stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let path = f.session.path().to_owned();
    let sid = f.session.id();
    let size = {
        let path = path.clone();
        move || std::fs::metadata(&path).unwrap().len()
    };
    let policy = Policy::new();
    let slot = Arc::clone(&f.inbox_slot);
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&sizes);
    let size_in_tool = size.clone();
    let tools = Tools::new(move |call, _| {
        if call.id == "c2" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            let mut seen = seen.lock().unwrap();
            seen.push(size_in_tool());
            let id = enqueue(&inbox, "queued", Delivery::FollowUp);
            seen.push(size_in_tool());
            inbox.withdraw(id, "test").unwrap();
            seen.push(size_in_tool());
        }
    });
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let gate = f.dir.path().join("after-batch.waiting");
    let release = f.dir.path().join("after-batch.release");
    let at_gate = {
        let size = size.clone();
        std::thread::spawn(move || {
            wait_for(&gate);
            let n = size();
            std::fs::write(release, "").unwrap();
            n
        })
    };
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let batch_done = at_gate.join().unwrap();
    let image = std::fs::read(&path).unwrap();
    let sizes = sizes.lock().unwrap().clone();
    // The queued submission, its withdrawal, then c2's result with the checkpoint, then the
    // next round's attempt record (written before its request, which waits at the gate).
    assert_torn_changes_expose_nothing(&image, sizes[0], sizes[1], sid);
    assert_torn_changes_expose_nothing(&image, sizes[1], sizes[2], sid);
    let checkpoint_end = next_change_end(&image, sizes[2], batch_done, sid);
    assert_torn_changes_expose_nothing(&image, sizes[2], checkpoint_end, sid);
    assert_torn_changes_expose_nothing(&image, checkpoint_end, batch_done, sid);
    // The admission itself: session start, then submission + model + prompt in one change.
    let first_change_end = {
        let dir = tempfile::tempdir().unwrap();
        let probe = dir.path().join(format!("{sid}.smith"));
        (1..image.len() as u64)
            .find(|n| {
                std::fs::write(&probe, &image[..*n as usize]).unwrap();
                read_session(&probe).is_ok_and(|r| r.entries.len() == 1)
            })
            .unwrap()
    };
    let admitted_end = {
        let dir = tempfile::tempdir().unwrap();
        let probe = dir.path().join(format!("{sid}.smith"));
        (first_change_end..image.len() as u64)
            .find(|n| {
                std::fs::write(&probe, &image[..*n as usize]).unwrap();
                read_session(&probe).is_ok_and(|r| r.entries.len() > 1)
            })
            .unwrap()
    };
    assert_torn_changes_expose_nothing(&image, first_change_end, admitted_end, sid);
}

#[test]
fn an_abort_request_is_recorded_once_with_its_reason_and_the_work_winds_down_paired() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let slot = Arc::clone(&f.inbox_slot);
    let refusals = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&refusals);
    let tools = Tools::new(move |call, _| {
        if call.id == "c1" {
            let inbox = slot.lock().unwrap().clone().unwrap();
            let (work, _) = inbox.live_work()[0];
            let child = inbox.submit_child(work, &model(), "child").unwrap();
            inbox.submit_child(child, &model(), "grandchild").unwrap();
            let mut seen = seen.lock().unwrap();
            seen.push(inbox.abort(child, "x").unwrap_err().to_string());
            seen.push(inbox.abort(EntryId(1), "x").unwrap_err().to_string());
            inbox.abort(work, "the user pressed stop").unwrap();
            // A second request is acknowledged without a second record.
            inbox.abort(work, "again").unwrap();
        }
    });
    let agent = Agent::new(&p, &tools, RunLimits::default());
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    let cancel = Cancel::new();
    let outcome = agent.run(&mut f.session, &model(), "go", &mut |_| {}, &cancel);
    assert_eq!(outcome.stop_reason, StopReason::Aborted);
    let refusals = refusals.lock().unwrap();
    assert!(refusals[0].contains("abort 2 instead"), "{}", refusals[0]);
    assert!(refusals[1].contains("not live work"), "{}", refusals[1]);
    assert_eq!(*tools.calls.lock().unwrap(), ["c1"]);
    let entries = read_session(f.session.path()).unwrap().entries;
    let aborts: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::Abort(a) => Some((a.reason.clone(), e.pair)),
            _ => None,
        })
        .collect();
    assert_eq!(
        aborts,
        [("the user pressed stop".to_owned(), Some(EntryId(2)))]
    );
    smith::check_pairing(&reopened_context(f.session.path(), f.session.id())).unwrap();
    // The unstarted child ended with its owner, before it.
    let receipts = smith_agent::receipts(f.session.path(), f.session.id()).unwrap();
    assert!(
        receipts.iter().all(smith_agent::Receipt::is_terminal),
        "{receipts:?}"
    );
    let ends: Vec<_> = entries
        .iter()
        .filter(|e| matches!(e.record, Record::RunEnd(_)))
        .map(|e| e.pair)
        .collect();
    // Deepest first: the grandchild, the child, then the owner.
    assert_eq!(
        ends,
        [
            Some(receipts[2].submission),
            Some(receipts[1].submission),
            Some(EntryId(2))
        ]
    );
}

#[test]
fn input_is_not_delivered_when_no_round_is_left_to_answer_it() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let tools = Tools::new(|_, _| {});
    let agent = Agent::new(&p, &tools, RunLimits { max_rounds: 2 }).with_lifecycle(&policy);
    enqueue(&agent.inbox(&f.session), "later", Delivery::FollowUp);
    // Round 1 uses tools, round 2 ends the turn: the last round, so nothing is delivered.
    let outcome = agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    assert_eq!(f.session.queued().len(), 1);
}

#[test]
fn another_branch_cannot_be_chosen_while_input_is_queued() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default()).with_lifecycle(&policy);
    let id = enqueue(&agent.inbox(&f.session), "later", Delivery::FollowUp);
    let m = model();
    let submit = smith_agent::Submit {
        model: &m,
        input: "elsewhere",
        dedup_key: None,
        destination: Some(EntryId(1)),
        attachments: &[],
        images: &[],
    };
    let err = agent
        .submit(&mut f.session, submit, &mut |_| {}, &Cancel::new())
        .unwrap_err();
    assert!(
        matches!(&err, AdmissionError::Destination { why, .. } if why.contains(&id.to_string())),
        "{err}"
    );
}

#[test]
fn message_ids_stay_matched_when_input_is_committed_while_a_message_streams() {
    let mut f = fixture();
    let p = provider(
        r#"round { text "a"; gate "mid"; text "b"; stop "end_turn" }
           round { echo; stop "end_turn" }"#,
        f.dir.path(),
    );
    let policy = Policy::new();
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default()).with_lifecycle(&policy);
    let inbox = agent.inbox(&f.session);
    let gate_dir = f.dir.path().to_owned();
    let helper = std::thread::spawn(move || {
        wait_for(&gate_dir.join("mid.waiting"));
        enqueue(&inbox, "and this", Delivery::FollowUp);
        std::fs::write(gate_dir.join("mid.release"), "").unwrap();
    });
    let mut intents = Vec::new();
    agent.run(
        &mut f.session,
        &model(),
        "go",
        &mut |i| intents.push(i),
        &Cancel::new(),
    );
    helper.join().unwrap();
    // Every end closes a started id, and names the entry it was committed as.
    let mut started = std::collections::HashSet::new();
    for i in &intents {
        match i {
            Intent::MessageStart { message_id, .. } => {
                started.insert(*message_id);
            }
            Intent::MessageEnd {
                message_id,
                entry_id,
                ..
            } => {
                assert!(started.contains(message_id), "{intents:#?}");
                assert!(entry_id.is_some());
            }
            _ => {}
        }
    }
    let ends: Vec<(u64, Option<u64>)> = intents
        .iter()
        .filter_map(|i| match i {
            Intent::MessageEnd {
                message_id,
                entry_id,
                ..
            } => Some((*message_id, *entry_id)),
            _ => None,
        })
        .collect();
    // The first answer streamed as 7 (after its attempt, 5, and request, 6) but was
    // committed as 8 (the queued input took 7).
    assert_eq!(ends[1], (7, Some(8)));
}

#[test]
fn a_sink_may_consult_the_inbox_while_intents_arrive() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let tools = Tools::new(|_, _| {});
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    let inbox = agent.inbox(&f.session);
    let mut seen = 0;
    let outcome = agent.run(
        &mut f.session,
        &model(),
        "go",
        &mut |_| {
            seen += inbox.queued().len() + inbox.live_work().len();
        },
        &Cancel::new(),
    );
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    assert!(seen > 0, "live work was visible to the sink");
}

#[test]
fn huge_tool_output_is_recorded_cut_and_the_call_stays_answered() {
    struct Huge;
    impl ToolRegistry for Huge {
        fn definitions(&self) -> Vec<smith::ToolDefinition> {
            Tools::new(|_, _| {}).definitions()
        }
        fn call(&self, _: &ToolCall, _: &ToolContext, _: &Cancel) -> ToolOutput {
            ToolOutput {
                output: "é".repeat(9 << 20),
                is_error: false,
                structured: None,
            }
        }
    }
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let outcome = Agent::new(&p, &Huge, RunLimits::default()).run(
        &mut f.session,
        &model(),
        "go",
        &mut |_| {},
        &Cancel::new(),
    );
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let entries = read_session(f.session.path()).unwrap().entries;
    let results: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some(&r.result),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 3);
    for r in results {
        assert!(r.output.len() < smith_agent::MAX_RECORDED_OUTPUT_BYTES + 200);
        assert!(
            r.output.contains("[output cut at"),
            "{}",
            &r.output[r.output.len() - 100..]
        );
    }
}

#[test]
fn an_unanswered_call_before_a_recorded_end_is_answered_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut w = smith_store::SessionWriter::create(dir.path(), id).unwrap();
    let call = smith::ToolCall {
        id: "c9".into(),
        name: "step".into(),
        arguments: serde_json::json!({}),
    };
    w.append(&[
        Record::Message(smith_store::MessageRecord {
            message: smith::Message::user_text("x"),
            model: None,
            stop_reason: None,
            usage: None,
            error: None,
            attempt: None,
        }),
        Record::Message(smith_store::MessageRecord {
            message: smith::Message {
                role: smith::Role::Assistant,
                content: vec![ContentBlock::ToolCall(call)],
            },
            model: "scripted/demo".parse().ok(),
            stop_reason: Some(StopReason::ToolUse),
            usage: None,
            error: None,
            attempt: None,
        }),
        Record::RunEnd(smith_store::RunEnd {
            children: Vec::new(),
            stop_reason: StopReason::Error,
            usage: smith::UsageTotals::default(),
            error: Some("the session could not record a result".into()),
        }),
    ])
    .unwrap();
    let path = w.path().to_owned();
    drop(w);
    let mut session = Session::open(&path, id).unwrap().session;
    smith::check_pairing(session.context().unwrap()).unwrap();
    let kinds = kinds(&path);
    assert_eq!(kinds.last(), Some(&"tool_result"), "{kinds:?}");
    assert_eq!(
        kinds.iter().filter(|k| **k == "run_end").count(),
        1,
        "no second end"
    );
}

#[test]
fn an_inbox_outliving_its_session_writes_nothing() {
    let f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let agent = Agent::new(&p, &smith::NoTools, RunLimits::default()).with_lifecycle(&policy);
    let inbox = agent.inbox(&f.session);
    let queued = enqueue(&inbox, "x", Delivery::Steer);
    let path = f.session.path().to_owned();
    let sid = f.session.id();
    drop(f.session);
    // The session was dropped: the writer lock is released even though the inbox lives.
    let reopened = Session::open(&path, sid).unwrap().session;
    assert!(matches!(
        inbox.enqueue(Enqueue {
            model: &model(),
            input: "y",
            delivery: Delivery::Steer,
            dedup_key: None
        }),
        Err(AdmissionError::Closed)
    ));
    assert!(matches!(
        inbox.withdraw(queued, "x"),
        Err(WithdrawError::Closed)
    ));
    assert_eq!(reopened.queued().len(), 1);
}
