//! The degradation law and the bounded stream (spec SMH-SPEC-SPEC0001: User interface
//! abstraction; Sessions → Observation).

use std::collections::HashSet;
use std::io;

use smith_ui_intents::{
    Backpressure, Degradation, Delivery, DeltaKind, Durability, Intent, IntentKind, IntentQueue,
    NoticeLevel, Pushed, Renderer, deliver, examples,
};

#[test]
fn every_kind_has_a_name_rules_and_an_example() {
    let names: HashSet<_> = IntentKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names.len(), IntentKind::ALL.len(), "kind names are unique");
    let sampled: Vec<IntentKind> = examples().iter().map(Intent::kind).collect();
    for kind in IntentKind::ALL {
        assert!(
            sampled.contains(kind),
            "`{}` needs an example (the golden sequence and the reference use them)",
            kind.name()
        );
        assert!(!kind.summary().is_empty());
    }
    for intent in examples() {
        let json = serde_json::to_value(&intent).unwrap();
        assert_eq!(
            json["type"],
            intent.kind().name(),
            "JSON type is the kind name"
        );
    }
}

#[test]
fn durable_kinds_persist_and_are_never_dropped_or_merged() {
    for kind in IntentKind::ALL {
        if kind.durability() == Durability::Transcript {
            assert_eq!(kind.degradation(), Degradation::Persist, "{}", kind.name());
            assert_eq!(kind.backpressure(), Backpressure::Block, "{}", kind.name());
        }
    }
}

#[test]
fn refused_kinds_are_exactly_the_requests() {
    for intent in examples() {
        let refused = intent.kind().degradation() == Degradation::Refuse;
        assert_eq!(
            refused,
            intent.request_id().is_some(),
            "{}",
            intent.kind().name()
        );
    }
}

/// A non-interactive renderer that shows text, notices and refusals only.
struct Minimal {
    shown: Vec<String>,
}

impl Renderer for Minimal {
    fn name(&self) -> &'static str {
        "minimal test output"
    }
    fn supports(&self, kind: IntentKind) -> bool {
        matches!(
            kind,
            IntentKind::Notice | IntentKind::RequestRefused | IntentKind::MessageDelta
        )
    }
    fn render(&mut self, intent: &Intent) -> io::Result<()> {
        assert!(self.supports(intent.kind()), "rendered an unsupported kind");
        self.shown.push(serde_json::to_string(intent).unwrap());
        Ok(())
    }
}

#[test]
fn delivery_follows_each_kinds_rule_and_never_blocks_on_requests() {
    let mut r = Minimal { shown: Vec::new() };
    for intent in examples() {
        let delivery = deliver(&mut r, &intent).unwrap();
        let kind = intent.kind();
        let expected = if r.supports(kind) {
            "shown"
        } else {
            match kind.degradation() {
                Degradation::Drop => "dropped",
                Degradation::Refuse => "refused",
                Degradation::Persist => "kept",
            }
        };
        let got = match &delivery {
            Delivery::Shown => "shown",
            Delivery::Dropped => "dropped",
            Delivery::Refused { reason } => {
                assert!(reason.contains("minimal test output"), "{reason}");
                "refused"
            }
            Delivery::Kept => "kept",
        };
        assert_eq!(got, expected, "{}", kind.name());
    }
    let refusals = r
        .shown
        .iter()
        .filter(|s| s.contains("request_refused"))
        .count();
    assert_eq!(
        refusals, 4,
        "three refused requests plus the example refusal"
    );
    assert!(
        r.shown.iter().any(|s| s.contains("tool_end: ")),
        "persist kinds kept generically"
    );
}

#[test]
fn an_extension_reaches_only_frontends_declaring_its_capability() {
    struct Caps(Vec<String>);
    impl Renderer for Caps {
        fn name(&self) -> &'static str {
            "caps"
        }
        fn supports(&self, _: IntentKind) -> bool {
            true
        }
        fn capabilities(&self) -> &[&'static str] {
            &["terminal.image"]
        }
        fn render(&mut self, intent: &Intent) -> io::Result<()> {
            self.0.push(intent.kind().name().to_owned());
            Ok(())
        }
    }
    let mut r = Caps(Vec::new());
    let image = Intent::Extension {
        capability: "terminal.image".into(),
        payload: serde_json::json!({}),
    };
    let other = Intent::Extension {
        capability: "gui.window".into(),
        payload: serde_json::json!({}),
    };
    assert_eq!(deliver(&mut r, &image).unwrap(), Delivery::Shown);
    assert_eq!(deliver(&mut r, &other).unwrap(), Delivery::Dropped);
}

fn delta(id: u64, text: &str) -> Intent {
    Intent::MessageDelta {
        message_id: id,
        kind: DeltaKind::Text,
        text: text.into(),
    }
}

fn progress(n: u64) -> Intent {
    Intent::Progress {
        id: "p".into(),
        label: "work".into(),
        done: Some(n),
        total: Some(10_000),
    }
}

fn notice(n: u64) -> Intent {
    Intent::Notice {
        level: NoticeLevel::Info,
        text: format!("n{n}"),
    }
}

#[test]
fn merge_rules() {
    let mut a = delta(1, "ab");
    assert!(a.merge(delta(1, "cd")).is_ok());
    assert_eq!(a, delta(1, "abcd"));
    assert!(a.merge(delta(2, "x")).is_err());
    let mut p = progress(1);
    assert!(p.merge(progress(2)).is_ok());
    assert_eq!(p, progress(2));
    assert!(p.merge(notice(1)).is_err());
    let mut n = notice(1);
    assert!(n.merge(notice(2)).is_err(), "notices never merge");
}

#[test]
fn a_flood_of_progress_keeps_every_durable_intent_in_order() {
    let queue = IntentQueue::new(4);
    let total = 10_000u64;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for i in 0..total {
                queue.push(progress(i));
                if i % 100 == 0 {
                    // Interleave blocking intents: they must all arrive, in order.
                    assert_eq!(queue.push(notice(i)), Pushed::Queued);
                    queue.push(delta(1, "x"));
                }
            }
            queue.push(progress(total));
            queue.close();
        });
        let mut notices = Vec::new();
        let mut last_progress = None;
        let mut text = String::new();
        while let Some(intent) = queue.pop() {
            match intent {
                Intent::Notice { text, .. } => notices.push(text),
                Intent::Progress { done, .. } => {
                    assert!(done >= last_progress, "progress never goes backwards");
                    last_progress = done;
                }
                Intent::MessageDelta { text: t, .. } => text.push_str(&t),
                other => panic!("unexpected {other:?}"),
            }
        }
        let expected: Vec<String> = (0..total).step_by(100).map(|i| format!("n{i}")).collect();
        assert_eq!(notices, expected);
        assert_eq!(
            text,
            "x".repeat(expected.len()),
            "merged deltas lose no text"
        );
        assert_eq!(
            last_progress,
            Some(total),
            "the newest progress report arrives"
        );
    });
    let stats = queue.stats();
    assert!(stats.merged > 0, "the flood was coalesced: {stats:?}");
    assert_eq!(queue.push(notice(0)), Pushed::Closed);
}
