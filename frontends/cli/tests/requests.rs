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

/// An Anthropic stream whose one content block is a call of the `ls` tool.
const ANTHROPIC_LS_CALL: &str = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":30,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"ls\",\"input\":{}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":5}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

/// The JSON paths of every `cache_control` in an Anthropic request body.
fn breakpoints(sent: &serde_json::Value) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(last) = sent["tools"].as_array().and_then(|t| t.last())
        && !last["cache_control"].is_null()
    {
        found.push("tools[-1]".to_owned());
    }
    for (i, t) in sent["tools"].as_array().into_iter().flatten().enumerate() {
        let last = sent["tools"].as_array().map_or(0, Vec::len) - 1;
        assert!(
            i == last || t["cache_control"].is_null(),
            "only the last tool"
        );
    }
    if sent["system"][0]["cache_control"] == serde_json::json!({"type": "ephemeral"}) {
        found.push("system".to_owned());
    }
    for (m, message) in sent["messages"].as_array().unwrap().iter().enumerate() {
        for (b, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if !block["cache_control"].is_null() {
                found.push(format!("messages[{m}].content[{b}]"));
            }
        }
    }
    found
}

#[test]
fn anthropic_requests_mark_the_stable_prefix_and_the_next_round_reuses_it() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let v = &common::VENDORS[0];
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(ANTHROPIC_LS_CALL.as_bytes(), 64),
        loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
    ]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = request_body(&server.request().unwrap());
    let second = request_body(&server.request().unwrap());
    // Round 1: the tool definitions and the prompt (no system prompt is sent yet).
    assert_eq!(
        breakpoints(&first),
        ["tools[-1]", "messages[0].content[0]"],
        "{first}"
    );
    // Round 2: the same two, so it reads what round 1 wrote, and the tool result, which the
    // next round will read; never more than the API's four.
    let second_points = breakpoints(&second);
    assert_eq!(
        second_points,
        [
            "tools[-1]",
            "messages[0].content[0]",
            "messages[2].content[0]"
        ],
        "{second}"
    );
    assert_eq!(second["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(first["tools"], second["tools"]);
    assert_eq!(
        first["messages"][0], second["messages"][0],
        "the prefix is byte-identical"
    );

    // A model whose record does not advertise caching is sent no breakpoint.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"anthropic/claude-private\" {\n    tools #true\n    output 8000\n}\n",
    )
    .unwrap();
    let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
    let out = eval_at(&env, v, "claude-private", &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = request_body(&server.request().unwrap());
    assert!(breakpoints(&sent).is_empty(), "{sent}");
}

#[test]
fn openai_requests_carry_a_prompt_cache_key_stable_across_the_session() {
    let env = Env::new();
    let v = &common::VENDORS[1];
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
        loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
    ]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();
    let key = request_body(&server.request().unwrap())["prompt_cache_key"].clone();
    assert_eq!(key, session.as_str(), "the session id");
    let out = eval_at(&env, v, v.model, &server.url, &["--session", &session]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        request_body(&server.request().unwrap())["prompt_cache_key"],
        key
    );
}
