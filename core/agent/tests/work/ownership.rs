//! Work ownership and limits: children settle before their owners, observation waits and
//! cancels, admission and depth limits, observers and closed sessions refuse, aborts.

use super::*;

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
