//! The bundled queue delivery policy (`plugins/guests/queue`, a real wasm component in the
//! `handler-plugin` world) wired to the real agent runtime — the host and the agent meet only
//! through the ports, here as in the composition root — driving it over real session files and the real
//! bundled file tools (spec: Agent behavior — queued input delivered at defined lifecycle
//! events; tool calls skipped by steering get explicit results; injected messages never split
//! a tool call from its result).

mod common;

use smith::{Cancel, ContentBlock, ContextItem, Delivery, Lifecycle, SessionId, StopReason};
use smith_agent::{AdmissionError, Agent, Enqueue, ReceiptState, RunLimits, Session};
use smith_host::{Host, Limits, PluginSource};
use smith_store::{Record, read_session};

fn model() -> smith::Selection {
    smith_testkit::selection("scripted/t")
}

fn bundled(without: &[&str]) -> Host {
    let sources: Vec<PluginSource<'static>> = smith_plugins::BUNDLED
        .iter()
        .filter(|p| !without.iter().any(|w| p.origin.contains(w)))
        .map(common::source)
        .collect();
    Host::load(&sources, &common::cache(), Limits::default()).unwrap()
}

const TWO_READS: &str = r##"
round {
    tool-call id="c1" name="read" arguments=#"{"path": "a.txt"}"#
    tool-call id="c2" name="read" arguments=#"{"path": "a.txt"}"#
    stop "tool_use"
}
round { echo; stop "end_turn" }
round { echo; stop "end_turn" }
"##;

struct Setup {
    work: tempfile::TempDir,
    sessions: tempfile::TempDir,
}

fn setup() -> Setup {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("a.txt"), "alpha\n").unwrap();
    Setup {
        work,
        sessions: tempfile::tempdir().unwrap(),
    }
}

fn last_text(context: &[ContextItem]) -> String {
    let Some(ContextItem::Message(m)) = context.last() else {
        panic!("no final message")
    };
    m.content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_bundled_policy_skips_the_batch_rest_for_steering_and_delivers_it_after_the_batch() {
    let s = setup();
    let host = bundled(&[]);
    let loadout = host.loadout();
    assert_eq!(loadout.queue_policy().as_deref(), Some("queue@0.1.0"));
    let p = smith_testkit::scripted(TWO_READS, None);
    let mut session = Session::create(s.sessions.path(), SessionId::new_now(), None).unwrap();
    let agent = Agent::new(&p, &loadout, RunLimits::default())
        .with_lifecycle(&loadout)
        .in_dir(s.work.path().to_owned());
    let steer = agent
        .inbox(&session)
        .enqueue(Enqueue {
            model: &model(),
            input: "use the other file",
            delivery: Delivery::Steer,
            dedup_key: None,
        })
        .unwrap();
    let outcome = agent.run(
        &mut session,
        &model(),
        "read twice",
        &mut |_| {},
        &Cancel::new(),
    );
    assert_eq!(
        outcome.stop_reason,
        StopReason::EndTurn,
        "{:?}",
        outcome.error
    );
    let entries = read_session(session.path()).unwrap().entries;
    let results: Vec<&smith::ToolResult> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some(&r.result),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 2);
    assert!(
        !results[0].is_error && results[0].output.contains("alpha"),
        "{}",
        results[0].output
    );
    assert!(results[1].is_error);
    assert!(
        results[1].output.contains("skipped")
            && results[1].output.contains(&format!("submission {steer}")),
        "the plugin's reason reaches the model: {}",
        results[1].output
    );
    // Only c1's read ran: one effect pair.
    let intents = entries
        .iter()
        .filter(|e| matches!(e.record, Record::EffectIntent(_)))
        .count();
    assert_eq!(intents, 1);
    // Delivered after the complete batch, paired with its submission.
    let delivered = entries
        .iter()
        .position(|e| e.pair == Some(steer) && matches!(e.record, Record::Message(_)))
        .unwrap();
    let last_result = entries
        .iter()
        .rposition(|e| matches!(e.record, Record::ToolResult(_)))
        .unwrap();
    assert!(delivered > last_result);
    smith::check_pairing(session.context().unwrap()).unwrap();
    assert!(last_text(session.context().unwrap()).contains("use the other file"));
    let receipts = smith_agent::receipts(session.path(), session.id()).unwrap();
    let r = receipts.iter().find(|r| r.submission == steer).unwrap();
    assert!(matches!(r.state, ReceiptState::Terminal { .. }), "{r:?}");
}

#[test]
fn the_bundled_policy_delivers_follow_up_input_when_the_work_would_stop() {
    let s = setup();
    let host = bundled(&[]);
    let loadout = host.loadout();
    let p = smith_testkit::scripted(
        r#"round { text "first"; stop "end_turn" }
           round { echo; stop "end_turn" }"#,
        None,
    );
    let mut session = Session::create(s.sessions.path(), SessionId::new_now(), None).unwrap();
    let agent = Agent::new(&p, &loadout, RunLimits::default()).with_lifecycle(&loadout);
    agent
        .inbox(&session)
        .enqueue(Enqueue {
            model: &model(),
            input: "and then the summary",
            delivery: Delivery::FollowUp,
            dedup_key: None,
        })
        .unwrap();
    let outcome = agent.run(&mut session, &model(), "go", &mut |_| {}, &Cancel::new());
    assert_eq!(outcome.stop_reason, StopReason::EndTurn);
    assert!(last_text(session.context().unwrap()).contains("and then the summary"));
    assert!(session.queued().is_empty());
}

#[test]
fn without_the_queue_plugin_input_cannot_be_queued() {
    let s = setup();
    let host = bundled(&["queue"]);
    let loadout = host.loadout();
    assert_eq!(loadout.queue_policy(), None);
    let p = smith_testkit::scripted(TWO_READS, None);
    let session = Session::create(s.sessions.path(), SessionId::new_now(), None).unwrap();
    let agent = Agent::new(&p, &loadout, RunLimits::default()).with_lifecycle(&loadout);
    let size = std::fs::metadata(session.path()).unwrap().len();
    let refused = agent.inbox(&session).enqueue(Enqueue {
        model: &model(),
        input: "x",
        delivery: Delivery::Steer,
        dedup_key: None,
    });
    assert!(
        matches!(refused, Err(AdmissionError::NoQueuePolicy)),
        "{refused:?}"
    );
    assert!(refused.unwrap_err().to_string().contains("`queue` plugin"));
    assert_eq!(std::fs::metadata(session.path()).unwrap().len(), size);
}

#[test]
fn two_plugins_cannot_both_hold_the_queue_policy() {
    let queue = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("queue"))
        .unwrap();
    let twin_manifest = queue
        .manifest
        .replace("plugin \"queue\"", "plugin \"queue-twin\"");
    let sources = [
        common::source(queue),
        PluginSource::new("test:queue-twin", &twin_manifest, queue.component),
    ];
    let err = Host::load(&sources, &common::cache(), Limits::default()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("queue-policy")
            && text.contains("queue@0.1.0")
            && text.contains("plugins.ID.enabled"),
        "{text}"
    );
}

/// The hostile handler as the queue policy, beside the bundled file tools, with short limits.
fn hostile_host(deadline: std::time::Duration) -> Host {
    let files = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("files"))
        .unwrap();
    let sources = [
        common::source(files),
        common::source(&smith_plugins::HOSTILE_HANDLER),
    ];
    Host::load(
        &sources,
        &common::cache(),
        Limits {
            deadline,
            memory_bytes: 32 << 20,
            ..Limits::default()
        },
    )
    .unwrap()
}

/// Lifecycle handlers that request the run's abort as a handler call begins (when `cancel`
/// is given), then consult `inner`.
struct AbortInside<'a> {
    inner: &'a smith_host::Loadout,
    cancel: Option<Cancel>,
}

impl Lifecycle for AbortInside<'_> {
    fn queue_policy(&self) -> Option<String> {
        self.inner.queue_policy()
    }

    fn handle(&self, event: &smith::LifecycleEvent, cancel: &Cancel) -> Vec<smith::HandlerReply> {
        if let Some(abort) = &self.cancel {
            abort.cancel();
        }
        self.inner.handle(event, cancel)
    }
}

/// Run `script` with one queued input of `bytes` bytes under the hostile handler; returns the
/// notices, the outcome and the session.
fn run_hostile(
    script: &str,
    bytes: usize,
    delivery: Delivery,
    cancel_after_first_tool: bool,
) -> (Vec<String>, smith_agent::RunOutcome, Session, Setup) {
    let s = setup();
    let cancel = Cancel::new();
    let host = hostile_host(std::time::Duration::from_millis(
        if cancel_after_first_tool { 5000 } else { 400 },
    ));
    let loadout = host.loadout();
    let p = smith_testkit::scripted(script, None);
    let mut session = Session::create(s.sessions.path(), SessionId::new_now(), None).unwrap();
    // Aborting from inside the handler call: the wasm handler always starts with the abort
    // requested, whatever the machine's load, and is destroyed while it spins.
    let handlers = AbortInside {
        inner: &loadout,
        cancel: cancel_after_first_tool.then(|| cancel.clone()),
    };
    let agent = Agent::new(&p, &loadout, RunLimits::default())
        .with_lifecycle(&handlers)
        .in_dir(s.work.path().to_owned());
    agent
        .inbox(&session)
        .enqueue(Enqueue {
            model: &model(),
            input: &"x".repeat(bytes),
            delivery,
            dedup_key: None,
        })
        .unwrap();
    let mut notices = Vec::new();
    let outcome = agent.run(
        &mut session,
        &model(),
        "go",
        &mut |i| {
            if let smith_ui_intents::Intent::Notice { text, .. } = i {
                notices.push(text);
            }
        },
        &cancel,
    );
    (notices, outcome, session, s)
}

const END_TURN: &str = r#"round { text "done"; stop "end_turn" }"#;

#[test]
fn a_failing_trapping_or_overrunning_handler_applies_nothing_and_the_work_goes_on() {
    for (bytes, says) in [
        (1, "deadline"),
        (2, "trapped"),
        (3, "memory"),
        (4, "the hostile handler refuses"),
        (5, "not queued input it may deliver"),
    ] {
        let (notices, outcome, session, _s) =
            run_hostile(END_TURN, bytes, Delivery::FollowUp, false);
        assert_eq!(
            outcome.stop_reason,
            StopReason::EndTurn,
            "{bytes}: {:?}",
            outcome.error
        );
        assert!(
            notices
                .iter()
                .any(|n| n.contains(says) && n.contains("hostile-handler")),
            "{bytes}: {notices:?}"
        );
        // Nothing was delivered: the input is still queued.
        assert_eq!(session.queued().len(), 1, "{bytes}");
    }
}

#[test]
fn abort_during_a_wasm_handler_call_destroys_it_and_leaves_every_call_paired() {
    // A steering input of 1 byte makes the handler spin at the first tool end.
    let (_notices, outcome, mut session, _s) = run_hostile(
        r##"
        round {
            tool-call id="c1" name="ls" arguments=#"{}"#
            tool-call id="c2" name="ls" arguments=#"{}"#
            stop "tool_use"
        }
        round { stop "end_turn" }
        "##,
        1,
        Delivery::Steer,
        true,
    );
    assert_eq!(
        outcome.stop_reason,
        StopReason::Aborted,
        "{:?}",
        outcome.error
    );
    smith::check_pairing(session.context().unwrap()).unwrap();
    let entries = read_session(session.path()).unwrap().entries;
    let results: Vec<&smith::ToolResult> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some(&r.result),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 2, "{entries:#?}");
    assert!(!results[0].is_error, "c1 ran: {}", results[0].output);
    assert!(
        results[1].output.contains("aborted"),
        "{}",
        results[1].output
    );
    assert!(entries.iter().any(|e| matches!(e.record, Record::Abort(_))));
    assert_eq!(
        session.queued().len(),
        1,
        "nothing the handler asked for applied"
    );
}
