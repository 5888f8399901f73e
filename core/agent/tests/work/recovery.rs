//! Recovery and durability: reopening after a crash, forks, torn changes, unanswered calls,
//! huge tool output.

use super::*;

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
            memory: None,
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
