//! Provider requests as the catalog says, through the built binary against loopback servers
//! with the real provider plugins (spec: Providers, models, and authentication → Model
//! capabilities): each vendor is sent the dispatched model's catalog output limit or the
//! lower `max-output` setting, and each attempt records the limit and its source; a context
//! overflow is said with the model's window.

mod common;

use common::{Env, Vendor, records, request_body, stderr};
use smith_ai::loopback;

const CANARY: &str = "sk-canary-requests-91c2";

/// Run `eval --json` of `model` of vendor `v` against a loopback server playing `steps`.
fn eval_at(env: &Env, v: &Vendor, model: &str, url: &str, extra: &[&str]) -> std::process::Output {
    let base = format!("provider.{}.base-url={url}", v.id);
    let model = format!("{}/{model}", v.id);
    let mut args = vec!["eval", "--json", "-c", &base, "-m", &model];
    args.extend_from_slice(extra);
    args.push("hi");
    env.command(&args).env(v.key_var, CANARY).output().unwrap()
}

fn attempt(out: &std::process::Output) -> serde_json::Value {
    records(out)
        .into_iter()
        .find(|r| r["type"] == "attempt")
        .unwrap_or_else(|| panic!("no attempt record: {}", stderr(out)))["attempt"]
        .clone()
}

/// The output limit in a vendor's request body.
fn sent_limit(id: &str, sent: &serde_json::Value) -> Option<u64> {
    match id {
        "anthropic" => sent["max_tokens"].as_u64(),
        "openai" => sent["max_output_tokens"].as_u64(),
        "google" => sent["generationConfig"]["maxOutputTokens"].as_u64(),
        _ => sent["max_completion_tokens"].as_u64(),
    }
}

#[test]
fn each_vendor_is_sent_the_catalogs_output_limit_or_the_lower_setting() {
    for v in &common::VENDORS {
        let env = Env::new();
        let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
        let out = eval_at(&env, v, v.model, &server.url, &[]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", v.id, stderr(&out));
        let a = attempt(&out);
        let catalog = a["capabilities"]["output"]
            .as_u64()
            .unwrap_or_else(|| panic!("{}: the catalog knows the limit: {a}", v.id));
        assert!(catalog > 8192, "{}: {catalog}", v.id);
        assert_eq!(
            a["output_limit"],
            serde_json::json!({"tokens": catalog, "source": "catalog"}),
            "{}",
            v.id
        );
        let sent = request_body(&server.request().unwrap());
        assert_eq!(sent_limit(v.id, &sent), Some(catalog), "{}: {sent}", v.id);

        // A lower setting wins, and is said; a higher one does not.
        for (setting, tokens, source) in [
            ("max-output=1000", 1000, "setting"),
            ("max-output=99000000", catalog, "catalog"),
        ] {
            let server =
                loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
            let out = eval_at(&env, v, v.model, &server.url, &["-c", setting]);
            assert_eq!(out.status.code(), Some(0), "{}: {}", v.id, stderr(&out));
            assert_eq!(
                attempt(&out)["output_limit"],
                serde_json::json!({"tokens": tokens, "source": source}),
                "{} {setting}",
                v.id
            );
            let sent = request_body(&server.request().unwrap());
            assert_eq!(sent_limit(v.id, &sent), Some(tokens), "{} {setting}", v.id);
        }
    }
}

#[test]
fn a_model_with_no_known_limit_gets_the_providers_default_and_the_attempt_says_so() {
    let env = Env::new();
    let chat = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(chat.as_bytes(), 64)]);
    let local = Vendor {
        id: "openai-compatible",
        model: "",
        key_var: "OPENAI_COMPATIBLE_API_KEY",
        text_stream: chat,
        request_line: "",
    };
    let out = eval_at(
        &env,
        &local,
        "my-local-model",
        &format!("{}/v1", server.url),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        attempt(&out)["output_limit"],
        serde_json::json!({"tokens": null, "source": "provider-default"})
    );
    let sent = request_body(&server.request().unwrap());
    assert_eq!(sent_limit("openai-compatible", &sent), None, "{sent}");
}

#[test]
fn a_context_overflow_names_the_models_window() {
    let env = Env::new();
    let v = &common::VENDORS[0];
    let body = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../core/host/tests/fixtures/overflow/anthropic.json"),
    )
    .unwrap();
    let server = loopback::serve(vec![loopback::json_response("400 Bad Request", &body)]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let a = attempt(&out);
    let window = a["capabilities"]["context"].as_u64().unwrap();
    let end = records(&out).pop().unwrap();
    let error = end["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("prompt is too long")
            && error.contains(&format!("context window is {window} tokens"))
            && error.contains("compact the session"),
        "{end}"
    );
    assert!(!error.contains(CANARY));
}
