//! Provider requests as the catalog says, through the bundled codecs (real wasm components)
//! against loopback servers: context-overflow errors recognised from each vendor's documented
//! shape (`tests/fixtures/overflow/`), the output limit with thinking inside it, prompt caching
//! in each vendor's form, images in each vendor's shape, and requests bounded before any plugin
//! runs (the 16 MiB transport bound, a request just under it, a plugin trap in one sentence).

mod common;

use common::codecs::{fixture, host, host_with, provider, request, sent_body};
use smith::{
    Cancel, ContentBlock, ContextItem, Message, ProviderErrorKind, ProviderRequest, Role,
    StreamEvent, ToolCall, ToolResult,
};
use smith_ai::http::{Bounds, HttpEngine};
use smith_ai::loopback;
use smith_host::{Limits, ProviderSetup};

#[test]
fn each_vendors_context_overflow_error_is_recognised_as_such() {
    let host = host();
    for (id, fixture_file) in [
        ("anthropic", "overflow/anthropic.json"),
        ("openai", "overflow/openai-chat.json"),
        ("openai", "overflow/openai-responses.json"),
        ("google", "overflow/google.json"),
        ("openai-compatible", "overflow/llama-cpp.json"),
        ("openai-compatible", "overflow/vllm.json"),
    ] {
        let body = String::from_utf8(fixture(fixture_file)).unwrap();
        let server = loopback::serve(vec![loopback::json_response("400 Bad Request", &body)]);
        let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
        let events: Vec<StreamEvent> =
            smith::Provider::stream(&p, &request(&format!("{id}/m1")), &Cancel::new())
                .unwrap()
                .collect();
        let [StreamEvent::Error(e)] = events.as_slice() else {
            panic!("{fixture_file}: {events:?}")
        };
        assert_eq!(
            e.kind,
            ProviderErrorKind::ContextOverflow,
            "{fixture_file}: {e:?}"
        );
        assert!(e.message.contains("400"), "{fixture_file}: {}", e.message);
    }
    // An invalid request that is not about the context stays one.
    let server = loopback::serve(vec![loopback::json_response(
        "400 Bad Request",
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}"#,
    )]);
    let p = provider(&host, "anthropic", &server.url, Some("sk-canary-0000"));
    let events: Vec<StreamEvent> =
        smith::Provider::stream(&p, &request("anthropic/m1"), &Cancel::new())
            .unwrap()
            .collect();
    assert!(
        matches!(events.as_slice(), [StreamEvent::Error(e)] if e.kind == ProviderErrorKind::InvalidRequest),
        "{events:?}"
    );
}

#[test]
fn each_codec_sends_the_output_limit_with_thinking_inside_it() {
    let host = host();
    let streams = [
        ("anthropic", fixture("anthropic/text.sse")),
        ("openai", fixture("openai/responses_text.sse")),
        ("google", fixture("google/text.sse")),
    ];
    // The field each vendor names the limit in.
    let limit_of = |id: &str, sent: &serde_json::Value| -> Option<u64> {
        match id {
            "anthropic" => sent["max_tokens"].as_u64(),
            "openai" => sent["max_output_tokens"].as_u64(),
            _ => sent["generationConfig"]["maxOutputTokens"].as_u64(),
        }
    };
    for (id, body) in &streams {
        for (max_output, thinking) in [
            (Some(64_000), None),
            (Some(64_000), Some(smith::ThinkingLevel::High)),
            (Some(2_000), Some(smith::ThinkingLevel::Max)),
            (None, None),
        ] {
            let server = loopback::serve(vec![loopback::sse_in_pieces(body, 64)]);
            let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
            let mut req = request(&format!("{id}/m1"));
            req.max_output = max_output;
            req.thinking = thinking;
            let sent = sent_body(&p, &server, &req);
            let case = format!("{id} {max_output:?} {thinking:?}");
            match (max_output, *id) {
                (Some(limit), _) => assert_eq!(limit_of(id, &sent), Some(limit), "{case}: {sent}"),
                // The Messages API requires a limit: its smallest model's.
                (None, "anthropic") => assert_eq!(sent["max_tokens"], 4096, "{case}"),
                (None, _) => assert_eq!(limit_of(id, &sent), None, "{case}: {sent}"),
            }
            let Some(limit) = max_output else { continue };
            // Thinking is a budget inside the limit, leaving room for the answer.
            let budget = match *id {
                "anthropic" => sent["thinking"]["budget_tokens"].as_u64(),
                "google" => sent["generationConfig"]["thinkingConfig"]["thinkingBudget"].as_u64(),
                _ => None,
            };
            if thinking.is_some() && *id != "openai" {
                let budget = budget.unwrap_or_else(|| panic!("{case}: {sent}"));
                assert!(budget > 0 && budget <= limit / 4 * 3, "{case}: {budget}");
            }
        }
    }
}

#[test]
fn caching_is_asked_for_only_when_the_request_says_so_in_each_vendors_form() {
    let host = host();
    let send = |id: &str, body: &[u8], cache: bool| -> serde_json::Value {
        let server = loopback::serve(vec![loopback::sse_in_pieces(body, 64)]);
        let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
        let mut req = request(&format!("{id}/m1"));
        req.cache = cache.then(|| smith::PromptCache {
            key: "01a22a94-a317-7338-916a-bf230df657af".into(),
        });
        sent_body(&p, &server, &req)
    };
    let ephemeral = serde_json::json!({"type": "ephemeral"});
    let anthropic = fixture("anthropic/text.sse");
    let sent = send("anthropic", &anthropic, true);
    assert_eq!(sent["system"][0]["text"], "Be brief.");
    assert_eq!(sent["system"][0]["cache_control"], ephemeral);
    assert_eq!(sent["tools"][0]["cache_control"], ephemeral);
    assert_eq!(
        sent["messages"][0]["content"][0]["cache_control"],
        ephemeral
    );
    let sent = send("anthropic", &anthropic, false);
    assert_eq!(sent["system"], "Be brief.");
    assert!(!sent.to_string().contains("cache_control"), "{sent}");

    let openai = fixture("openai/responses_text.sse");
    let sent = send("openai", &openai, true);
    assert_eq!(
        sent["prompt_cache_key"],
        "01a22a94-a317-7338-916a-bf230df657af"
    );
    assert!(
        send("openai", &openai, false)
            .get("prompt_cache_key")
            .is_none()
    );
    // Gemini caches implicitly: nothing to send.
    let sent = send("google", &fixture("google/text.sse"), true);
    assert!(!sent.to_string().contains("cache"), "{sent}");
}

#[test]
fn an_image_reaches_each_vendor_in_its_shape() {
    // A 1×1 PNG.
    let image = smith::Image {
        media_type: "image/png".into(),
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==".into(),
    };
    let url = format!("data:image/png;base64,{}", image.data);
    let host = host();
    for (id, stream, api) in [
        ("anthropic", fixture("anthropic/text.sse"), None),
        ("openai", fixture("openai/responses_text.sse"), None),
        (
            "openai",
            fixture("openai-compatible/text.sse"),
            Some("chat"),
        ),
        (
            "openai-compatible",
            fixture("openai-compatible/text.sse"),
            None,
        ),
        ("google", fixture("google/text.sse"), None),
    ] {
        let server = loopback::serve(vec![loopback::sse_in_pieces(&stream, 64)]);
        let p = host
            .loadout()
            .provider(
                id,
                ProviderSetup {
                    base_url: server.url.clone(),
                    api_key: Some("sk-canary-0000".into()),
                    transport: std::sync::Arc::new(HttpEngine::new(Bounds::default())),
                    options: api
                        .map(|a| [("api".to_owned(), a.to_owned())].into_iter().collect())
                        .unwrap_or_default(),
                    redactor: Default::default(),
                },
            )
            .unwrap();
        let mut req = request(&format!("{id}/m1"));
        let ContextItem::Message(m) = &mut req.context[0] else {
            unreachable!()
        };
        m.content.push(ContentBlock::Image(image.clone()));
        let sent = sent_body(&p, &server, &req);
        let (text, img) = match (id, api) {
            ("anthropic", _) => {
                let c = &sent["messages"][0]["content"];
                (c[0].clone(), c[1].clone())
            }
            ("openai", None) => {
                let c = &sent["input"][0]["content"];
                (c[0].clone(), c[1].clone())
            }
            ("google", _) => {
                let c = &sent["contents"][0]["parts"];
                (c[0].clone(), c[1].clone())
            }
            // Chat Completions: after the system message.
            _ => {
                let c = &sent["messages"][1]["content"];
                (c[0].clone(), c[1].clone())
            }
        };
        let case = format!("{id} {api:?}");
        assert!(text.to_string().contains("Hi"), "{case}: {sent}");
        let expected = match (id, api) {
            ("anthropic", _) => {
                serde_json::json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": image.data}})
            }
            ("openai", None) => serde_json::json!({"type": "input_image", "image_url": url}),
            ("google", _) => {
                serde_json::json!({"inlineData": {"mimeType": "image/png", "data": image.data}})
            }
            _ => serde_json::json!({"type": "image_url", "image_url": {"url": url}}),
        };
        assert_eq!(img, expected, "{case}");
    }
}

/// A request whose one tool result holds `bytes` of plain text.
fn request_of_size(model: &str, bytes: usize) -> ProviderRequest {
    let mut req = request(model);
    req.context.push(ContextItem::Message(Message {
        role: Role::Assistant,
        content: vec![ContentBlock::ToolCall(ToolCall {
            id: "call_1".into(),
            name: "read".into(),
            arguments: serde_json::json!({"path": "big.txt"}),
        })],
    }));
    // Varied printable text, so that no codec can shorten it.
    let output: String = (0..bytes)
        .map(|i| char::from(b'a' + ((i * 7 + i / 13) % 26) as u8))
        .collect();
    req.context.push(ContextItem::ToolResult(ToolResult {
        call_id: "call_1".into(),
        name: "read".into(),
        output,
        is_error: false,
    }));
    req
}

#[test]
fn a_request_over_the_transport_bound_is_refused_before_any_plugin_runs() {
    let host = host();
    let server = loopback::serve(vec![]);
    // A transport bounded at 64 KiB: the bound the host checks is the transport's own.
    let small = Bounds {
        max_request_bytes: 64 << 10,
        ..Bounds::default()
    };
    let p = host
        .loadout()
        .provider(
            "anthropic",
            ProviderSetup {
                base_url: server.url.clone(),
                api_key: Some("sk-canary-0000".into()),
                transport: std::sync::Arc::new(HttpEngine::new(small)),
                options: Default::default(),
                redactor: Default::default(),
            },
        )
        .unwrap();
    let Err(e) = smith::Provider::stream(
        &p,
        &request_of_size("anthropic/m1", 100 << 10),
        &Cancel::new(),
    ) else {
        panic!("refused")
    };
    assert_eq!(e.kind, ProviderErrorKind::ContextOverflow);
    assert!(
        e.message
            .contains("MiB a provider request may be, so nothing was encoded or sent")
            && e.message.contains("start a new session"),
        "{}",
        e.message
    );
    assert_eq!(server.requests_now(), 0);
}

#[test]
fn a_request_just_under_the_bound_goes_through_the_real_codecs() {
    let host = host();
    // 15.5 MiB of tool output: the encoded bodies stay under the 16 MiB transport bound.
    for (id, stream) in [
        ("anthropic", fixture("anthropic/text.sse")),
        ("openai", fixture("openai/responses_text.sse")),
    ] {
        let server = loopback::serve(vec![loopback::sse_in_pieces(&stream, 4096)]);
        let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
        let req = request_of_size(&format!("{id}/m1"), (15 << 20) + (1 << 19));
        let events: Vec<StreamEvent> = smith::Provider::stream(&p, &req, &Cancel::new())
            .unwrap()
            .collect();
        assert!(
            matches!(events.last(), Some(StreamEvent::Stop { .. })),
            "{id}: {:?}",
            events.last()
        );
        let raw = server.request().unwrap();
        assert!(
            raw.len() > 15 << 20 && raw.len() < 16 << 20,
            "{id}: {}",
            raw.len()
        );
    }
}

#[test]
fn a_plugin_trap_is_one_sentence_naming_the_plugin_and_the_next_step() {
    // A codec given too little memory for the request runs out while encoding it.
    let host = host_with(Limits {
        provider_memory_bytes: 2 << 20,
        ..Limits::default()
    });
    let server = loopback::serve(vec![]);
    let p = provider(&host, "anthropic", &server.url, Some("sk-canary-0000"));
    let events: Vec<StreamEvent> = smith::Provider::stream(
        &p,
        &request_of_size("anthropic/m1", 4 << 20),
        &Cancel::new(),
    )
    .unwrap()
    .collect();
    let [StreamEvent::Error(e)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert!(
        e.message.starts_with("provider plugin anthropic@")
            && e.message.contains("nothing more was sent")
            && !e.message.contains("wasm backtrace")
            && !e.message.contains('\n'),
        "{}",
        e.message
    );
    assert_eq!(server.requests_now(), 0);
}
