//! The golden intent test (spec SMH-SPEC-SPEC0001: User interface abstraction): one scripted
//! sequence holding every intent kind — requests a non-interactive frontend must refuse among
//! them — delivered to each renderer under the degradation law and snapshotted whole.
//! The RPC and MCP renderers join this test when they exist.

use smith_render_plain::{ColorChoice, JsonLinesRenderer, PlainRenderer};
use smith_ui_intents::{Delivery, Renderer, deliver, examples};

fn delivery_line(kind: &str, d: &Delivery) -> String {
    match d {
        Delivery::Shown => format!("{kind}: shown"),
        Delivery::Dropped => format!("{kind}: dropped"),
        Delivery::Refused { reason } => format!("{kind}: refused ({reason})"),
        Delivery::Kept => format!("{kind}: kept"),
    }
}

fn run(renderer: &mut dyn Renderer) -> String {
    examples()
        .iter()
        .map(|intent| delivery_line(intent.kind().name(), &deliver(renderer, intent).unwrap()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn plain_renderer_golden() {
    let mut r = PlainRenderer::new(Vec::new(), Vec::new(), ColorChoice::Never);
    let deliveries = run(&mut r);
    let (out, err) = r.into_inner();
    let text = format!(
        "--- deliveries\n{deliveries}\n--- stdout\n{}--- stderr\n{}",
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap()
    );
    insta::assert_snapshot!("plain", text);
}

#[test]
fn json_renderer_golden() {
    let mut r = JsonLinesRenderer::new(Vec::new());
    let deliveries = run(&mut r);
    let out = String::from_utf8(r.into_inner()).unwrap();
    for line in out.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap();
    }
    insta::assert_snapshot!(
        "json",
        format!("--- deliveries\n{deliveries}\n--- stdout\n{out}")
    );
}

#[test]
fn every_renderer_shows_notices_and_every_durable_kind() {
    // The generic form of a persist-rule kind is a notice, so every renderer must show
    // notices; and eval output shows every durable kind itself.
    let renderers: Vec<Box<dyn Renderer>> = vec![
        Box::new(PlainRenderer::new(
            Vec::new(),
            Vec::new(),
            ColorChoice::Never,
        )),
        Box::new(JsonLinesRenderer::new(Vec::new())),
    ];
    for r in &renderers {
        assert!(
            r.supports(smith_ui_intents::IntentKind::Notice),
            "{}",
            r.name()
        );
        for kind in smith_ui_intents::IntentKind::ALL {
            if kind.durability() == smith_ui_intents::Durability::Transcript {
                assert!(r.supports(*kind), "{} lacks {}", r.name(), kind.name());
            }
        }
    }
}

#[test]
fn requests_in_non_interactive_eval_are_refused_at_once_with_the_refusal_event() {
    for intent in examples().iter().filter(|i| i.request_id().is_some()) {
        let mut plain = PlainRenderer::new(Vec::new(), Vec::new(), ColorChoice::Never);
        let d = deliver(&mut plain, intent).unwrap();
        assert!(matches!(d, Delivery::Refused { .. }), "{d:?}");
        let (_, err) = plain.into_inner();
        assert!(
            String::from_utf8(err)
                .unwrap()
                .contains("request refused: plain eval output cannot answer `")
        );

        let mut json = JsonLinesRenderer::new(Vec::new());
        let d = deliver(&mut json, intent).unwrap();
        assert!(matches!(d, Delivery::Refused { .. }), "{d:?}");
        let out = String::from_utf8(json.into_inner()).unwrap();
        let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(record["type"], "request_refused");
        assert_eq!(record["request_id"], intent.request_id().unwrap());
    }
}
