//! Queued input: steering and follow-up delivery at the safe points, listing and withdrawal,
//! rejected handler batches, a policy that is gone, branches and message ids while input is
//! committed.

use super::*;

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
fn input_is_not_delivered_when_no_round_is_left_to_answer_it() {
    let mut f = fixture();
    let p = provider(THREE_CALLS, f.dir.path());
    let policy = Policy::new();
    let tools = Tools::new(|_, _| {});
    let agent = Agent::new(
        &p,
        &tools,
        RunLimits {
            max_rounds: 2,
            ..RunLimits::default()
        },
    )
    .with_lifecycle(&policy);
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

/// The queue policy of [`Policy`], which queues follow-up input itself at one moment: at its
/// `at`-th consultation of the active policy after the sink saw the turn's last round end —
/// the moment between the last look at the queue and the work's end, when a person typing
/// ahead of a finishing turn queues input.
struct LatePolicy {
    inner: Policy,
    inbox: Arc<Mutex<Option<Inbox>>>,
    armed: Arc<std::sync::atomic::AtomicBool>,
    asked: std::sync::atomic::AtomicU32,
    at: u32,
}

impl Lifecycle for LatePolicy {
    fn queue_policy(&self) -> Option<String> {
        use std::sync::atomic::Ordering;
        if self.armed.load(Ordering::SeqCst)
            && self.asked.fetch_add(1, Ordering::SeqCst) + 1 == self.at
        {
            let inbox = self.inbox.lock().unwrap().clone().unwrap();
            enqueue(&inbox, "typed as the turn ended", Delivery::FollowUp);
        }
        self.inner.queue_policy()
    }

    fn handle(&self, event: &LifecycleEvent, cancel: &Cancel) -> Vec<HandlerReply> {
        self.inner.handle(event, cancel)
    }
}

#[test]
fn follow_up_queued_while_the_turn_ends_is_delivered_not_left_behind() {
    // The moment before the last look at the queue (delivered as usual) and the one after it,
    // before the work's end is recorded (offered late, and the turn goes on).
    for at in [1, 2] {
        let mut f = fixture();
        let p = provider(
            "round { text \"first\"; stop \"end_turn\" }\nround { echo; stop \"end_turn\" }\n",
            f.dir.path(),
        );
        let tools = Tools::new(|_, _| {});
        let armed = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let policy = LatePolicy {
            inner: Policy::new(),
            inbox: Arc::clone(&f.inbox_slot),
            armed: Arc::clone(&armed),
            asked: std::sync::atomic::AtomicU32::new(0),
            at,
        };
        let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
        *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
        let mut sink = |intent: Intent| {
            if let Intent::RoundEnd { round: 1, .. } = intent {
                armed.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        };
        let outcome = agent.run(&mut f.session, &model(), "go", &mut sink, &Cancel::new());
        assert_eq!(outcome.stop_reason, StopReason::EndTurn, "at {at}");
        assert!(
            agent.inbox(&f.session).queued().is_empty(),
            "at {at}: the follow-up was left in the queue"
        );
        let entries = read_session(f.session.path()).unwrap().entries;
        let texts: Vec<String> = entries
            .iter()
            .filter_map(|e| match &e.record {
                Record::Message(m) => Some(format!("{:?}", m.message)),
                _ => None,
            })
            .collect();
        assert!(
            texts.last().unwrap().contains("typed as the turn ended"),
            "at {at}: the turn went on to answer it: {texts:?}"
        );
        let ends = smith_testkit::kinds_of(&entries)
            .iter()
            .filter(|k| **k == "run_end")
            .count();
        assert_eq!(ends, 1, "at {at}: one work, ended once");
    }
}
