//! Continuing an interrupted turn from a crash image (the file exactly as a SIGKILL at that
//! instant leaves it): a call whose id repeats an earlier response's is run when it recorded
//! no effect of its own, the turn's usage and round numbering carry over, input delivered
//! before the crash is answered, and a turn whose abort was recorded is settled, not held.

use super::*;

use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_repeated_call_id_runs_when_it_recorded_no_effect_and_usage_and_rounds_carry_over() {
    let mut f = fixture();
    // Both responses name their call `call_0` (as some providers number calls per stream).
    let p = provider(
        r#"
        round { tool-call id="call_0" name="step" arguments="{}"; usage input=10 output=5; stop "tool_use" }
        round { tool-call id="call_0" name="step" arguments="{}"; usage input=20 output=6; stop "tool_use" }
        round { stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let crash_dir = tempfile::tempdir().unwrap();
    let image = Arc::new(Mutex::new(None));
    let seen = Arc::new(AtomicUsize::new(0));
    let (image_slot, crash_to, path) = (
        Arc::clone(&image),
        crash_dir.path().to_owned(),
        f.session.path().to_owned(),
    );
    let tools = Tools::new(move |call, context| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            // The first response's call writes, recorded whole.
            let intent = context
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
            context
                .journal
                .complete(
                    intent,
                    smith_store::EffectCompletion {
                        effect_id: "e1".into(),
                        outcome: smith_store::EffectOutcome::Applied,
                        output: b"wrote a.txt".to_vec(),
                        evidence: serde_json::Value::Null,
                    },
                )
                .unwrap();
        } else {
            // The second is cut off before it did anything.
            *image_slot.lock().unwrap() = Some(crash_image(&path, &crash_to));
        }
    });
    let agent = Agent::new(&p, &tools, RunLimits::default());
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let image = image.lock().unwrap().clone().unwrap();

    let opened = Session::open_holding(&image, f.session.id()).unwrap();
    let turn = opened.interrupted.clone().expect("the turn is held");
    assert_eq!(
        (turn.rounds, turn.calls_answered, turn.calls_pending),
        (2, 1, 1)
    );
    let mut session = opened.session;
    let rest = provider(
        r#"round { text "done"; usage input=30 output=7; stop "end_turn" }"#,
        f.dir.path(),
    );
    let counting = Tools::new(|_, _| {});
    let mut intents = Vec::new();
    let outcome = Agent::new(&rest, &counting, RunLimits::default())
        .continue_interrupted(
            &mut session,
            &model(),
            &mut |i| intents.push(i),
            &Cancel::new(),
        )
        .unwrap();
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    assert_eq!(*counting.calls.lock().unwrap(), vec!["call_0".to_owned()]);
    // Every response of the turn counted once, those before the crash included.
    assert_eq!(outcome.usage.responses, 3);
    assert_eq!(outcome.usage.usage.input, Some(60));
    // The next request is round 3.
    assert!(
        intents
            .iter()
            .any(|i| matches!(i, Intent::RoundStart { round: 3 })),
        "{intents:?}"
    );
    let ends: Vec<_> = read_session(&image)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::RunEnd(end) => Some(end),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].usage.usage.input, Some(60));
}

#[test]
fn input_delivered_before_the_crash_is_answered_when_the_turn_continues() {
    let mut f = fixture();
    let p = provider(
        r#"
        round { tool-call id="c1" name="step" arguments="{}"; stop "tool_use" }
        round { text "first answer"; stop "end_turn" }
        round { gate "g"; echo; stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let slot = Arc::clone(&f.inbox_slot);
    let tools = Tools::new(move |_, _| {
        let inbox = slot.lock().unwrap().clone().unwrap();
        enqueue(&inbox, "and the follow-up", Delivery::FollowUp);
    });
    let policy = Policy::new();
    let agent = Agent::new(&p, &tools, RunLimits::default()).with_lifecycle(&policy);
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    // At the gate of the request that answers the delivered follow-up, the file is imaged.
    let crash_dir = tempfile::tempdir().unwrap();
    let (dir, path, to) = (
        f.dir.path().to_owned(),
        f.session.path().to_owned(),
        crash_dir.path().to_owned(),
    );
    let imager = std::thread::spawn(move || {
        wait_for(&dir.join("g.waiting"));
        let image = crash_image(&path, &to);
        std::fs::write(dir.join("g.release"), "").unwrap();
        image
    });
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let image = imager.join().unwrap();

    let opened = Session::open_holding(&image, f.session.id()).unwrap();
    let turn = opened.interrupted.clone().expect("the turn is held");
    assert_eq!(turn.last_stop, None, "input came after the last response");
    let mut session = opened.session;
    let rest = provider(r#"round { echo; stop "end_turn" }"#, f.dir.path());
    let outcome = Agent::new(&rest, &tools, RunLimits::default())
        .continue_interrupted(&mut session, &model(), &mut |_| {}, &Cancel::new())
        .unwrap();
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let last = reopened_context(&image, f.session.id())
        .into_iter()
        .rev()
        .find_map(|item| match item {
            ContextItem::Message(m) if m.role == smith::Role::Assistant => Some(m.text()),
            _ => None,
        })
        .unwrap();
    assert_eq!(last, "and the follow-up");
}

#[test]
fn a_turn_whose_abort_was_recorded_is_settled_not_held() {
    let mut f = fixture();
    let p = provider(
        r#"
        round { tool-call id="c1" name="step" arguments="{}"; stop "tool_use" }
        round { stop "end_turn" }
        "#,
        f.dir.path(),
    );
    let crash_dir = tempfile::tempdir().unwrap();
    let image = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&f.inbox_slot);
    let (image_slot, crash_to) = (Arc::clone(&image), crash_dir.path().to_owned());
    let tools = Tools::new(move |_, _| {
        let inbox = slot.lock().unwrap().clone().unwrap();
        let (work, _) = inbox.live_work()[0];
        inbox.abort(work, "stop it").unwrap();
        *image_slot.lock().unwrap() = Some(crash_image(inbox.path(), &crash_to));
    });
    let agent = Agent::new(&p, &tools, RunLimits::default());
    *f.inbox_slot.lock().unwrap() = Some(agent.inbox(&f.session));
    agent.run(&mut f.session, &model(), "go", &mut |_| {}, &Cancel::new());
    let image = image.lock().unwrap().clone().unwrap();

    let opened = Session::open_holding(&image, f.session.id()).unwrap();
    assert!(opened.interrupted.is_none());
    let ends: Vec<_> = read_session(&image)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::RunEnd(end) => Some(end.stop_reason),
            _ => None,
        })
        .collect();
    assert_eq!(ends, vec![StopReason::Aborted]);
}

/// A turn `go` whose one call (`c1`, its response's round carrying `usage`, KDL) is cut off by
/// a crash as it starts: the fixture, the crash's directory, the session file the crash left
/// (its image) and the tools.
fn crashed_in_its_call(usage: &str) -> (Fixture, tempfile::TempDir, PathBuf, Tools) {
    let mut f = fixture();
    let p = provider(
        &format!(
            r#"
        round {{ tool-call id="c1" name="step" arguments="{{}}";{usage} stop "tool_use" }}
        round {{ stop "end_turn" }}
        "#
        ),
        f.dir.path(),
    );
    let crash_dir = tempfile::tempdir().unwrap();
    let image = Arc::new(Mutex::new(None));
    let (slot, to, path) = (
        Arc::clone(&image),
        crash_dir.path().to_owned(),
        f.session.path().to_owned(),
    );
    let tools = Tools::new(move |_, _| {
        *slot.lock().unwrap() = Some(crash_image(&path, &to));
    });
    Agent::new(&p, &tools, RunLimits::default()).run(
        &mut f.session,
        &model(),
        "go",
        &mut |_| {},
        &Cancel::new(),
    );
    let image = image.lock().unwrap().clone().unwrap();
    (f, crash_dir, image, tools)
}

/// Input refused before admission writes nothing, with a destination too (issue 68): neither
/// the branch there is selected nor the interrupted turn held here settled — the input is
/// checked against the destination's context before either is written.
#[test]
fn input_refused_with_a_destination_leaves_the_held_turn_and_the_selection() {
    let (f, _crash_dir, image, tools) = crashed_in_its_call("");
    let mut opened = Session::open_holding(&image, f.session.id()).unwrap();
    assert!(opened.interrupted.is_some(), "the turn is held");
    // The turn's prompt: a branch that ends cleanly, before the cut-off call.
    let prompt = read_session(&image)
        .unwrap()
        .entries
        .iter()
        .find(|e| matches!(&e.record, Record::Message(m) if m.message.role == smith::Role::User))
        .unwrap()
        .id;
    let before = std::fs::read(&image).unwrap();
    // A candidate whose catalog record takes no thinking level `max`: the input is refused.
    let mut info = smith::ModelInfo::unknown(
        "scripted/t".parse().unwrap(),
        smith::Source {
            id: "test".into(),
            title: "test".into(),
            date: None,
        },
    );
    info.tools = Some(true);
    let refusing = smith_agent::Candidate {
        model: "scripted/t".parse().unwrap(),
        account: None,
        credential: None,
        routing: smith::Routing {
            source: smith::RouteSource::Direct,
            path: vec!["scripted/t".into()],
            position: 0,
            of: 0,
            skipped: Vec::new(),
        },
        capabilities: Some(info),
        generation: "scripted@1.0.0#000000000000".into(),
        options: Default::default(),
        provider: Box::new(provider("round { stop \"end_turn\" }", f.dir.path())),
    };
    let route = smith_agent::Route::new(model(), Some(smith::ThinkingLevel::Max), vec![refusing]);
    let refused = Agent::routed(&route, &tools, RunLimits::default()).submit(
        &mut opened.session,
        smith_agent::Submit {
            model: &model(),
            input: "elsewhere",
            dedup_key: None,
            destination: Some(prompt),
            attachments: &[],
            images: &[],
        },
        &mut |_| {},
        &Cancel::new(),
    );
    assert!(
        matches!(refused, Err(AdmissionError::Unserviceable { .. })),
        "{refused:?}"
    );
    assert!(
        std::fs::read(&image).unwrap() == before,
        "the refused input wrote"
    );
}

/// A turn settled as aborted on opening counts the responses it recorded (issue 68): its end's
/// usage is theirs, as the end of a run that finished would be.
#[test]
fn a_settled_turn_counts_the_responses_it_recorded() {
    let (f, _crash_dir, image, _) = crashed_in_its_call(" usage input=10 output=5;");
    // Opened without holding it, the turn is settled at once.
    let opened = Session::open(&image, f.session.id()).unwrap();
    drop(opened);
    let ends: Vec<smith::UsageTotals> = read_session(&image)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::RunEnd(end) => Some(end.usage),
            _ => None,
        })
        .collect();
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert_eq!(ends[0].responses, 1, "{ends:?}");
    assert_eq!(ends[0].usage.input, Some(10), "{ends:?}");
    assert_eq!(ends[0].usage.output, Some(5), "{ends:?}");
}
