//! The agent loop against the real scripted provider and real session files
//! (spec SMH-SPEC-SPEC0001: Agent behavior; acceptance "a mock provider completes a tool-using
//! turn with ordered durable events").

use smith::NoTools;
use smith::{Cancel, ContentBlock, Role, SessionId, StopReason};
use smith_agent::{Agent, RunError, RunLimits, Session};
use smith_ai::scripted::ScriptedProvider;
use smith_store::{Record, read_session};
use smith_testkit::{scripted, selection};
use smith_ui_intents::Intent;

fn provider(src: &str, dir: &std::path::Path) -> ScriptedProvider {
    scripted(src, Some(dir))
}

fn model() -> smith::Selection {
    selection("scripted/t")
}

fn run(
    src: &str,
    prompt: &str,
) -> (
    tempfile::TempDir,
    Vec<Intent>,
    smith_agent::RunOutcome,
    std::path::PathBuf,
) {
    let dir = tempfile::tempdir().unwrap();
    let p = provider(src, dir.path());
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let mut intents = Vec::new();
    let outcome = Agent::new(&p, &NoTools, RunLimits::default()).run(
        &mut session,
        &model(),
        prompt,
        &mut |i| intents.push(i),
        &Cancel::new(),
    );
    let path = session.path().to_owned();
    (dir, intents, outcome, path)
}

const TOOL_SCRIPT: &str = r##"
round {
    text "Reading."
    tool-call id="c1" name="read" arguments=#"{"path": "a.txt"}"#
    usage input=5 output=2
    stop "tool_use"
}
round {
    text "Done."
    usage input=9 output=1
    stop "end_turn"
}
"##;

#[test]
fn a_tool_using_turn_records_ordered_durable_events_and_pairs_the_call() {
    let (_dir, intents, outcome, path) = run(TOOL_SCRIPT, "read a.txt");
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    assert!(outcome.error.is_none());
    assert_eq!(outcome.usage.usage.input, Some(14));

    let kinds: Vec<_> = intents.iter().map(|i| i.kind().name()).collect();
    assert_eq!(
        kinds,
        [
            "run_start",
            "message_start", // user
            "message_end",
            "receipt", // admitted durably before any provider request
            "round_start",
            "attempt",       // recorded before the request is sent
            "message_start", // assistant round 1
            "message_delta",
            "message_end",
            "usage",
            "context_use", // what the answer reported the conversation holds
            "tool_start",
            "tool_end",
            "round_end",
            "round_start",
            "attempt",
            "message_start", // assistant round 2
            "message_delta",
            "message_end",
            "usage",
            "context_use",
            "round_end",
            "run_end"
        ]
    );
    let Some(Intent::ToolEnd {
        output,
        is_error,
        call_id,
        ..
    }) = intents.iter().find(|i| i.kind().name() == "tool_end")
    else {
        panic!("no tool_end")
    };
    assert!(*is_error);
    assert_eq!(call_id, "c1");
    assert!(output.contains("unknown tool `read`"), "{output}");

    let entries = read_session(&path).unwrap().entries;
    let kinds = smith_testkit::kinds_of(&entries);
    assert_eq!(
        kinds,
        [
            "session_start",
            "submission",
            "model_change",
            "message",
            "attempt",
            "request",
            "message",
            "tool_result",
            "checkpoint",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    // The batch's last result and the work's checkpoint are one committed change, the
    // checkpoint paired with the work.
    assert_eq!(entries[8].pair, Some(entries[1].id));
    let Record::Checkpoint(c) = &entries[8].record else {
        panic!()
    };
    assert_eq!((c.round, c.phase.as_str()), (1, "tool_batch_complete"));
    // The run's end is the submission's terminal receipt.
    assert_eq!(entries[12].pair, Some(entries[1].id));
    assert_eq!(outcome.submission, Some(entries[1].id));
    let Record::ToolResult(r) = &entries[7].record else {
        panic!()
    };
    assert_eq!(r.result.call_id, "c1");
    let Record::Message(m) = &entries[6].record else {
        panic!()
    };
    assert_eq!(m.message.role, Role::Assistant);
    assert!(matches!(&m.message.content[1], ContentBlock::ToolCall(c) if c.id == "c1"));
    // Each response names the attempt recorded before it; a provider given directly is
    // dispatched unchecked (no catalog record) under the selection as given.
    assert_eq!(m.attempt, Some(entries[4].id));
    // The attempt's request is recorded with it, paired with it, anchored at the prompt.
    let Record::Request(r) = &entries[5].record else {
        panic!()
    };
    assert_eq!(entries[5].pair, Some(entries[4].id));
    assert_eq!(r.anchor, Some(entries[3].id));
    let Record::Attempt(a) = &entries[4].record else {
        panic!()
    };
    assert_eq!(
        (a.round, a.number, a.selection.as_str()),
        (1, 1, "scripted/t")
    );
    assert_eq!(a.model.to_string(), "scripted/t");
    assert!(a.capabilities.is_none() && a.after.is_none());
    let Record::Attempt(a) = &entries[9].record else {
        panic!()
    };
    assert_eq!((a.round, a.number), (2, 1));
    // Every entry is parented to the one before it.
    for pair in entries.windows(2) {
        assert_eq!(pair[1].parent, Some(pair[0].id));
    }
    // The message ids the intents carried are the committed entry ids.
    let ends: Vec<u64> = intents
        .iter()
        .filter_map(|i| match i {
            Intent::MessageEnd { message_id, .. } => Some(*message_id),
            _ => None,
        })
        .collect();
    assert_eq!(ends, [4, 7, 12]);
}

#[test]
fn a_stream_without_terminal_fails_explicitly_and_is_recorded() {
    let (_dir, intents, outcome, path) = run("round { text \"partial\"; disconnect }", "x");
    assert_eq!(outcome.stop_reason, StopReason::Error);
    let Some(RunError::Provider(e)) = &outcome.error else {
        panic!("{:?}", outcome.error)
    };
    assert_eq!(e.kind, smith::ProviderErrorKind::Malformed);
    assert_eq!(
        intents
            .iter()
            .filter(|i| i.kind().name() == "run_end")
            .count(),
        1
    );
    let entries = read_session(&path).unwrap().entries;
    let Record::Message(m) = &entries[6].record else {
        panic!()
    };
    assert_eq!(m.stop_reason, Some(StopReason::Error));
    assert_eq!(m.message.text(), "partial");
    assert!(m.error.is_some());
}

#[test]
fn a_provider_error_ends_the_run_once_with_its_message() {
    let (_dir, intents, outcome, _) = run(
        "round { text \"a\"; error \"overloaded\" kind=\"transient\" }",
        "x",
    );
    assert_eq!(outcome.stop_reason, StopReason::Error);
    assert!(outcome.error.unwrap().to_string().contains("overloaded"));
    let last = intents.last().unwrap();
    assert!(matches!(
        last,
        Intent::RunEnd {
            stop_reason: StopReason::Error,
            ..
        }
    ));
}

#[test]
fn running_out_of_rounds_is_an_error_not_a_hang() {
    let (_dir, _, outcome, _) = run("round { tool-call name=\"ls\"; stop \"tool_use\" }", "x");
    let err = outcome.error.unwrap().to_string();
    assert!(err.contains("has 1 round(s)"), "{err}");
}

#[test]
fn the_round_limit_stops_a_looping_model() {
    let dir = tempfile::tempdir().unwrap();
    let src = "round { tool-call name=\"ls\"; stop \"tool_use\" }\n".repeat(5);
    let p = provider(&src, dir.path());
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let outcome = Agent::new(
        &p,
        &NoTools,
        RunLimits {
            max_rounds: 3,
            ..RunLimits::default()
        },
    )
    .run(&mut session, &model(), "x", &mut |_| {}, &Cancel::new());
    assert!(matches!(
        outcome.error,
        Some(RunError::RoundLimit { limit: 3 })
    ));
}

#[test]
fn abort_at_a_gate_pairs_every_call_and_records_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let p = provider(
        "round { tool-call id=\"c1\" name=\"ls\"; gate \"hold\"; stop \"tool_use\" }",
        dir.path(),
    );
    let mut session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    let cancel = Cancel::new();
    let waiting = dir.path().join("hold.waiting");
    let canceller = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            while !waiting.exists() {
                std::thread::yield_now();
            }
            cancel.cancel();
        })
    };
    let outcome = Agent::new(&p, &NoTools, RunLimits::default()).run(
        &mut session,
        &model(),
        "x",
        &mut |_| {},
        &cancel,
    );
    canceller.join().unwrap();
    assert_eq!(outcome.stop_reason, StopReason::Aborted);
    let entries = read_session(session.path()).unwrap().entries;
    // The abort request is recorded when it comes (it may land before the call's result); the
    // result still pairs with the call's message.
    let Some(Record::ToolResult(r)) = entries
        .iter()
        .map(|e| &e.record)
        .find(|r| matches!(r, Record::ToolResult(_)))
    else {
        panic!("{entries:?}")
    };
    assert!(
        entries
            .iter()
            .any(|e| matches!(e.record, Record::Abort(_)) && e.pair == Some(entries[1].id))
    );
    assert_eq!(r.result.call_id, "c1");
    assert!(r.result.is_error);
    assert!(smith::check_pairing(session.context().unwrap()).is_ok());
}

#[test]
fn reopening_answers_calls_an_interrupted_run_left_unpaired() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let path = {
        let mut session = Session::create(dir.path(), id, None).unwrap();
        let p = provider("round { text \"hi\"; stop \"end_turn\" }", dir.path());
        Agent::new(&p, &NoTools, RunLimits::default()).run(
            &mut session,
            &model(),
            "first",
            &mut |_| {},
            &Cancel::new(),
        );
        session.path().to_owned()
    };
    // Simulate a process killed between recording a tool call and its result.
    {
        let (mut w, _) = smith_store::SessionWriter::open(&path, id).unwrap();
        w.append(&[Record::Message(smith_store::MessageRecord {
            message: smith::Message {
                role: Role::Assistant,
                content: vec![ContentBlock::ToolCall(smith::ToolCall {
                    id: "lost".into(),
                    name: "bash".into(),
                    arguments: serde_json::json!({}),
                })],
            },
            model: "scripted/demo".parse().ok(),
            stop_reason: Some(StopReason::ToolUse),
            usage: None,
            error: None,
            attempt: None,
        })])
        .unwrap();
    }
    let mut opened = Session::open(&path, id).unwrap().session;
    assert_eq!(opened.model(), Some(&model()));
    let p = provider("round { text \"again\"; stop \"end_turn\" }", dir.path());
    let outcome = Agent::new(&p, &NoTools, RunLimits::default()).run(
        &mut opened,
        &model(),
        "second",
        &mut |_| {},
        &Cancel::new(),
    );
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    let entries = read_session(&path).unwrap().entries;
    let answered = entries.iter().any(|e| {
        matches!(&e.record, Record::ToolResult(r) if r.result.call_id == "lost" && r.result.output.contains("unknown"))
    });
    assert!(answered);
    // Same model: no second model_change entry.
    let changes = entries
        .iter()
        .filter(|e| e.record.kind_name() == "model_change")
        .count();
    assert_eq!(changes, 1);
}

/// A provider that sends the same tool call id twice in one response — a malformed stream no
/// script can express (the script parser refuses it).
struct RepeatsCallIds;

impl smith::Provider for RepeatsCallIds {
    fn id(&self) -> &str {
        "repeats"
    }

    fn stream<'a>(
        &'a self,
        _request: &smith::ProviderRequest,
        _cancel: &Cancel,
    ) -> Result<smith::EventStream<'a>, smith::ProviderError> {
        let call = |name: &str| {
            smith::StreamEvent::ToolCall(smith::ToolCall {
                id: "same".into(),
                name: name.into(),
                arguments: serde_json::json!({}),
            })
        };
        Ok(Box::new(
            vec![
                call("read"),
                call("write"),
                smith::StreamEvent::Stop {
                    reason: StopReason::ToolUse,
                },
            ]
            .into_iter(),
        ))
    }
}

#[test]
fn a_repeated_call_id_fails_the_response_and_keeps_the_session_usable() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut session = Session::create(dir.path(), id, None).unwrap();
    let outcome = Agent::new(&RepeatsCallIds, &NoTools, RunLimits::default()).run(
        &mut session,
        &model(),
        "x",
        &mut |_| {},
        &Cancel::new(),
    );
    let Some(RunError::Provider(e)) = &outcome.error else {
        panic!("{:?}", outcome.error)
    };
    assert_eq!(e.kind, smith::ProviderErrorKind::Malformed);
    assert!(e.message.contains("`same` twice"), "{e}");
    assert!(smith::check_pairing(session.context().unwrap()).is_ok());
    let path = session.path().to_owned();
    drop(session);
    // The session goes on: the next run's request is well formed.
    let mut reopened = Session::open(&path, id).unwrap().session;
    let p = provider("round { text \"ok\"; stop \"end_turn\" }", dir.path());
    let outcome = Agent::new(&p, &NoTools, RunLimits::default()).run(
        &mut reopened,
        &model(),
        "again",
        &mut |_| {},
        &Cancel::new(),
    );
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
}

#[test]
fn submissions_are_admitted_durably_and_a_repeated_key_is_not_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut session = Session::create(dir.path(), id, None).unwrap();
    let p = provider("round { text \"once\"; stop \"end_turn\" }", dir.path());
    let agent = Agent::new(&p, &NoTools, RunLimits::default());
    let m = model();
    let submit = smith_agent::Submit {
        model: &m,
        input: "hello",
        dedup_key: Some("key-1"),
        destination: None,
        attachments: &[],
        images: &[],
    };
    let mut intents = Vec::new();
    let first = agent
        .submit(
            &mut session,
            submit,
            &mut |i| intents.push(i),
            &Cancel::new(),
        )
        .unwrap();
    assert!(!first.deduplicated);
    let submission = first.submission.expect("admitted");
    // The receipt was emitted before the first provider request.
    let at = |name: &str| {
        intents
            .iter()
            .position(|i| i.kind().name() == name)
            .unwrap()
    };
    assert!(at("receipt") < at("round_start"));
    // The script has one round: a second run would fail. The repeat runs nothing.
    let mut replayed = Vec::new();
    let again = agent
        .submit(
            &mut session,
            submit,
            &mut |i| replayed.push(i),
            &Cancel::new(),
        )
        .unwrap();
    assert!(again.deduplicated);
    assert_eq!(again.submission, Some(submission));
    assert_eq!(again.stop_reason, StopReason::EndTurn);
    assert!(replayed.iter().all(|i| i.kind().name() != "round_start"));
    // Other content under the same key: refused, nothing written.
    let before = read_session(session.path()).unwrap().entries.len();
    let other = smith_agent::Submit {
        input: "something else",
        ..submit
    };
    let err = agent
        .submit(&mut session, other, &mut |_| {}, &Cancel::new())
        .unwrap_err();
    assert!(
        matches!(err, smith_agent::AdmissionError::Conflict { original, .. } if original == submission),
        "{err}"
    );
    assert_eq!(read_session(session.path()).unwrap().entries.len(), before);
    // Receipts are rebuilt from the file alone, after the writer is gone.
    let path = session.path().to_owned();
    session.close().unwrap();
    let receipts = smith_agent::receipts(&path, id).unwrap();
    assert_eq!(receipts[0].session, id);
    assert_eq!(receipts.len(), 1);
    assert_eq!(receipts[0].submission, submission);
    assert!(matches!(
        receipts[0].state,
        smith_agent::ReceiptState::Terminal {
            stop_reason: StopReason::EndTurn,
            ..
        }
    ));
    assert_eq!(
        receipts[0].answer.as_ref().unwrap().1.message.text(),
        "once"
    );
}

#[test]
fn an_explicit_destination_branches_from_that_entry_and_conflicts_under_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut session = Session::create(dir.path(), id, None).unwrap();
    let p = provider(
        "round { echo; stop \"end_turn\" }\nround { echo; stop \"end_turn\" }\nround { echo; stop \"end_turn\" }",
        dir.path(),
    );
    let agent = Agent::new(&p, &NoTools, RunLimits::default());
    let m = model();
    let plain = |input| smith_agent::Submit {
        model: &m,
        input,
        dedup_key: None,
        destination: None,
        attachments: &[],
        images: &[],
    };
    agent
        .submit(&mut session, plain("first"), &mut |_| {}, &Cancel::new())
        .unwrap();
    // Entries: 1 start, 2 submission, 3 model, 4 "first", 5 answer, 6 end.
    let branch_at = smith::EntryId(1);
    let submit = smith_agent::Submit {
        model: &m,
        input: "instead",
        dedup_key: Some("b"),
        destination: Some(branch_at),
        attachments: &[],
        images: &[],
    };
    let out = agent
        .submit(&mut session, submit, &mut |_| {}, &Cancel::new())
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::EndTurn);
    // The new work continued from entry 1: the context holds only it.
    let texts: Vec<String> = session
        .context()
        .unwrap()
        .iter()
        .filter_map(|i| match i {
            smith::ContextItem::Message(m) => Some(m.text()),
            smith::ContextItem::ToolResult(_) => None,
        })
        .collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts.iter().all(|t| !t.contains("first")), "{texts:?}");
    let entries = read_session(session.path()).unwrap().entries;
    let sub = entries
        .iter()
        .find(|e| matches!(&e.record, Record::Submission(s) if s.input == "instead"))
        .unwrap();
    assert_eq!(sub.parent, Some(branch_at));
    let Record::Submission(s) = &sub.record else {
        panic!()
    };
    assert!(s.explicit_destination);
    assert_eq!(s.destination, Some(branch_at));
    // The same key with another explicit destination: a conflict, nothing written.
    let before = entries.len();
    let moved = smith_agent::Submit {
        destination: Some(smith::EntryId(5)),
        ..submit
    };
    let err = agent
        .submit(&mut session, moved, &mut |_| {}, &Cancel::new())
        .unwrap_err();
    assert!(err.to_string().contains("different destination"), "{err}");
    // An entry that does not exist is refused before anything is written.
    let nowhere = smith_agent::Submit {
        destination: Some(smith::EntryId(999)),
        dedup_key: None,
        ..submit
    };
    let err = agent
        .submit(&mut session, nowhere, &mut |_| {}, &Cancel::new())
        .unwrap_err();
    assert!(
        matches!(err, smith_agent::AdmissionError::Destination { .. }),
        "{err}"
    );
    assert_eq!(read_session(session.path()).unwrap().entries.len(), before);
}
