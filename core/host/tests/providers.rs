//! The bundled provider codecs (`anthropic`, `openai-compatible`: real wasm components in the
//! `provider-plugin` world) over the host's HTTP engine, against loopback servers serving byte
//! streams built from each vendor's documented wire format (`tests/fixtures/`, each labelled
//! with its source), delivered in small pieces that split lines and UTF-8 characters. No test
//! reaches the internet.

mod common;

use common::codecs::{fixture, host, provider, request};

use smith::{
    Cancel, ContentBlock, ContextItem, Message, ProviderErrorKind, Role, StopReason, StreamEvent,
    ToolCall, ToolResult, Usage,
};
use smith_ai::http::HttpEngine;
use smith_ai::loopback::{self, Step};
use smith_host::{ProviderSetup, ProviderSetupError};

/// Play `body` from a loopback server in pieces of `piece` bytes and collect the events.
fn play(id: &str, body: &[u8], piece: usize) -> (Vec<StreamEvent>, serde_json::Value, String) {
    let host = host();
    let server = loopback::serve(vec![loopback::sse_in_pieces(body, piece)]);
    let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
    let model = format!("{id}/m1");
    let events: Vec<StreamEvent> = smith::Provider::stream(&p, &request(&model), &Cancel::new())
        .unwrap()
        .collect();
    let raw = server.request().unwrap();
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..at]).into_owned();
    let sent: serde_json::Value = serde_json::from_slice(&raw[at + 4..]).unwrap();
    (events, sent, head)
}

fn calls_of(events: &[StreamEvent]) -> Vec<&ToolCall> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::ToolCall(c) => Some(c),
            _ => None,
        })
        .collect()
}

fn text_of(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn anthropic_text_in_any_split_with_pings_padding_and_no_final_newline() {
    let body = fixture("anthropic/text.sse");
    for piece in [1, 3, 7, 64, body.len()] {
        let (events, sent, head) = play("anthropic", &body, piece);
        assert_eq!(text_of(&events), "Héllo, 世界!", "piece {piece}");
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::EndTurn
            })
        );
        assert!(events.contains(&StreamEvent::Usage(Usage {
            input: Some(25),
            output: Some(15),
            cache_read: Some(0),
            cache_write: Some(0),
        })));
        assert_eq!(events.iter().filter(|e| e.is_terminal()).count(), 1);
        // The request: the vendor's path, headers and body shape; the key in its header.
        assert!(head.starts_with("POST /v1/messages HTTP/1.1"), "{head}");
        assert!(head.contains("x-api-key: sk-canary-0000"), "{head}");
        assert!(head.contains("anthropic-version: 2023-06-01"), "{head}");
        assert_eq!(sent["model"], "m1");
        assert_eq!(sent["system"], "Be brief.");
        assert_eq!(sent["stream"], true);
        assert_eq!(sent["tools"][0]["input_schema"]["type"], "object");
    }
}

#[test]
fn anthropic_thinking_signatures_redaction_and_parallel_tool_calls_split_mid_character() {
    let body = fixture("anthropic/tools_thinking.sse");
    for piece in [1, 5, 13] {
        let (events, _, _) = play("anthropic", &body, piece);
        let thinking: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::ThinkingDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(thinking, "Two files to read: naïve.txt and 日本.md.");
        assert!(events.contains(&StreamEvent::ThinkingSignature {
            signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds".into()
        }));
        assert!(events.iter().any(
            |e| matches!(e, StreamEvent::RedactedThinking { data } if data.starts_with("EmwK"))
        ));
        let calls = calls_of(&events);
        assert_eq!(calls.len(), 2, "piece {piece}");
        assert_eq!(
            (calls[0].id.as_str(), calls[0].arguments["path"].as_str()),
            ("toolu_01A", Some("naïve.txt"))
        );
        assert_eq!(calls[1].arguments["path"], "日本.md");
        assert!(events.contains(&StreamEvent::Usage(Usage {
            input: Some(400),
            output: Some(89),
            cache_read: Some(2000),
            cache_write: Some(1000),
        })));
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::ToolUse
            })
        );
    }
}

#[test]
fn openai_compatible_text_reasoning_and_usage_only_in_the_final_chunk() {
    let body = fixture("openai-compatible/text.sse");
    for piece in [1, 4, 9, body.len()] {
        let (events, sent, head) = play("openai-compatible", &body, piece);
        assert_eq!(text_of(&events), "Héllo, 世界!", "piece {piece}");
        assert!(events.contains(&StreamEvent::ThinkingDelta {
            text: "Greet back.".into()
        }));
        // 30 prompt tokens of which 20 cached: counted apart, once each.
        assert!(events.contains(&StreamEvent::Usage(Usage {
            input: Some(10),
            output: Some(9),
            cache_read: Some(20),
            cache_write: None,
        })));
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::EndTurn
            })
        );
        assert!(
            head.starts_with("POST /chat/completions HTTP/1.1"),
            "{head}"
        );
        assert!(
            head.contains("authorization: Bearer sk-canary-0000"),
            "{head}"
        );
        assert_eq!(sent["model"], "m1");
        assert_eq!(
            sent["messages"][0],
            serde_json::json!({"role": "system", "content": "Be brief."})
        );
        assert_eq!(sent["tools"][0]["function"]["name"], "read");
    }
}

#[test]
fn openai_compatible_parallel_tool_calls_assembled_across_chunks_without_usage() {
    let body = fixture("openai-compatible/tools.sse");
    for piece in [1, 6, 17] {
        let (events, _, _) = play("openai-compatible", &body, piece);
        let calls = calls_of(&events);
        assert_eq!(calls.len(), 2);
        assert_eq!(
            (calls[0].id.as_str(), calls[0].arguments["path"].as_str()),
            ("call_A", Some("naïve.txt"))
        );
        assert_eq!(
            (calls[1].id.as_str(), calls[1].arguments["path"].as_str()),
            ("call_B", Some("日本.md"))
        );
        // No usage reported: none invented.
        assert!(!events.iter().any(|e| matches!(e, StreamEvent::Usage(_))));
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::ToolUse
            })
        );
    }
}

#[test]
fn an_error_event_mid_stream_ends_it_once_as_an_error() {
    for (id, file, says) in [
        ("anthropic", "anthropic/error_mid_stream.sse", "Overloaded"),
        (
            "openai-compatible",
            "openai-compatible/error_mid_stream.sse",
            "out of memory",
        ),
    ] {
        let (events, _, _) = play(id, &fixture(file), 5);
        assert_eq!(text_of(&events), "Partial");
        let last = events.last().unwrap();
        assert!(
            matches!(last, StreamEvent::Error(e) if e.message.contains(says)),
            "{id}: {last:?}"
        );
        assert_eq!(events.iter().filter(|e| e.is_terminal()).count(), 1);
    }
}

#[test]
fn a_stream_cut_before_its_terminal_event_fails_explicitly() {
    for (id, file, cut_at) in [
        ("anthropic", "anthropic/text.sse", "event: message_delta"),
        (
            "openai-compatible",
            "openai-compatible/text.sse",
            "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1694268190,\"model\":\"local\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\"",
        ),
    ] {
        let body = fixture(file);
        let text = String::from_utf8(body).unwrap();
        let cut = &text[..text.find(cut_at).unwrap()];
        let (events, _, _) = play(id, cut.as_bytes(), 11);
        let last = events.last().unwrap();
        assert!(
            matches!(last, StreamEvent::Error(e) if e.kind == ProviderErrorKind::Malformed && e.message.contains("cut")),
            "{id}: {last:?}"
        );
    }
}

#[test]
fn non_2xx_json_error_bodies_become_classified_provider_errors() {
    let host = host();
    for (id, status, body, kind, says) in [
        (
            "anthropic",
            "429 Too Many Requests",
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
            ProviderErrorKind::RateLimited,
            "rate limit",
        ),
        (
            "anthropic",
            "401 Unauthorized",
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
            ProviderErrorKind::Auth,
            // The runtime, not the codec, names the credential sent and where it came from.
            "invalid x-api-key",
        ),
        (
            "openai-compatible",
            "404 Not Found",
            r#"{"error":{"message":"model 'm1' not found","type":"invalid_request_error"}}"#,
            ProviderErrorKind::Unavailable,
            "base-url",
        ),
        (
            "openai-compatible",
            "400 Bad Request",
            r#"{"error":"context length exceeded"}"#,
            ProviderErrorKind::ContextOverflow,
            "context length exceeded",
        ),
    ] {
        let server = loopback::serve(vec![loopback::json_response(status, body)]);
        let p = provider(&host, id, &server.url, Some("sk-canary-0000"));
        let events: Vec<StreamEvent> =
            smith::Provider::stream(&p, &request(&format!("{id}/m1")), &Cancel::new())
                .unwrap()
                .collect();
        let [StreamEvent::Error(e)] = events.as_slice() else {
            panic!("{id} {status}: {events:?}")
        };
        assert_eq!(e.kind, kind, "{id} {status}");
        assert!(
            e.message.contains(says) && e.message.contains(&status[..3]),
            "{}",
            e.message
        );
        assert!(!e.message.contains("canary"));
    }
}

#[test]
fn a_required_key_that_is_missing_stops_before_anything_is_sent() {
    let host = host();
    let err = host
        .loadout()
        .provider(
            "anthropic",
            ProviderSetup {
                base_url: "http://127.0.0.1:9".into(),
                api_key: None,
                transport: std::sync::Arc::new(HttpEngine::default()),
                options: Default::default(),
                redactor: Default::default(),
            },
        )
        .unwrap_err();
    assert!(matches!(err, ProviderSetupError::MissingKey { .. }));
    assert!(err.to_string().contains("ANTHROPIC_API_KEY"), "{err}");
    // An optional key may be absent: the local server needs none, and no header is sent.
    let server = loopback::serve(vec![loopback::sse_in_pieces(
        &fixture("openai-compatible/text.sse"),
        64,
    )]);
    let p = provider(&host, "openai-compatible", &server.url, None);
    let events: Vec<_> =
        smith::Provider::stream(&p, &request("openai-compatible/any"), &Cancel::new())
            .unwrap()
            .collect();
    assert!(matches!(events.last(), Some(StreamEvent::Stop { .. })));
    let raw = String::from_utf8_lossy(&server.request().unwrap()).to_lowercase();
    assert!(!raw.contains("authorization:"), "{raw}");
}

#[test]
fn a_tool_round_pairs_each_result_with_its_call_and_sends_thinking_back_unchanged() {
    let host = host();
    let context = vec![
        ContextItem::Message(Message::user_text("read both")),
        ContextItem::Message(Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking {
                    text: "Two files.".into(),
                    signature: Some("sig-abc".into()),
                    redacted: false,
                },
                ContentBlock::Thinking {
                    text: String::new(),
                    signature: Some("redacted-data".into()),
                    redacted: true,
                },
                ContentBlock::ToolCall(ToolCall {
                    id: "toolu_01A".into(),
                    name: "read".into(),
                    arguments: serde_json::json!({"path": "a"}),
                }),
                ContentBlock::ToolCall(ToolCall {
                    id: "toolu_01B".into(),
                    name: "read".into(),
                    arguments: serde_json::json!({"path": "b"}),
                }),
            ],
        }),
        ContextItem::ToolResult(ToolResult {
            call_id: "toolu_01A".into(),
            name: "read".into(),
            output: "A".into(),
            is_error: false,
        }),
        ContextItem::ToolResult(ToolResult {
            call_id: "toolu_01B".into(),
            name: "read".into(),
            output: "no such file".into(),
            is_error: true,
        }),
        ContextItem::Message(Message::user_text("and now?")),
    ];
    for id in ["anthropic", "openai-compatible"] {
        let server = loopback::serve(vec![loopback::sse_in_pieces(
            &fixture(&format!("{id}/text.sse")),
            64,
        )]);
        let p = provider(&host, id, &server.url, Some("k"));
        let mut req = request(&format!("{id}/m1"));
        req.context = context.clone();
        let _: Vec<_> = smith::Provider::stream(&p, &req, &Cancel::new())
            .unwrap()
            .collect();
        let sent = server.request_json().unwrap();
        let messages = sent["messages"].as_array().unwrap();
        if id == "anthropic" {
            // Roles alternate: the results and the next user text share one user message.
            assert_eq!(messages.len(), 3, "{sent:#}");
            let assistant = &messages[1]["content"];
            assert_eq!(
                assistant[0],
                serde_json::json!({"type": "thinking", "thinking": "Two files.", "signature": "sig-abc"})
            );
            assert_eq!(
                assistant[1],
                serde_json::json!({"type": "redacted_thinking", "data": "redacted-data"})
            );
            assert_eq!(assistant[2]["id"], "toolu_01A");
            let user = &messages[2]["content"];
            assert_eq!(user[0]["tool_use_id"], "toolu_01A");
            assert_eq!(user[1]["tool_use_id"], "toolu_01B");
            assert_eq!(user[1]["is_error"], true);
            assert_eq!(
                user[2],
                serde_json::json!({"type": "text", "text": "and now?"})
            );
        } else {
            let calls = &messages[2]["tool_calls"];
            assert_eq!(calls[0]["id"], "toolu_01A");
            assert_eq!(calls[1]["function"]["arguments"], "{\"path\":\"b\"}");
            assert_eq!(
                messages[3],
                serde_json::json!({"role": "tool", "tool_call_id": "toolu_01A", "content": "A"})
            );
            assert_eq!(messages[4]["tool_call_id"], "toolu_01B");
            assert_eq!(
                messages[5],
                serde_json::json!({"role": "user", "content": "and now?"})
            );
        }
    }
}

#[test]
fn cancellation_mid_body_ends_the_stream_as_aborted() {
    let host = host();
    let body = fixture("anthropic/text.sse");
    let text = String::from_utf8(body).unwrap();
    let first = &text[..text.find("event: content_block_stop").unwrap()];
    let mut steps = loopback::sse_in_pieces(first.as_bytes(), 50);
    steps.pop(); // no last chunk: the server holds the body open
    steps.push(Step::Wait);
    let server = loopback::serve(vec![steps]);
    let p = provider(&host, "anthropic", &server.url, Some("k"));
    let cancel = Cancel::new();
    let mut stream = smith::Provider::stream(&p, &request("anthropic/m1"), &cancel).unwrap();
    let mut seen = Vec::new();
    for e in stream.by_ref() {
        let is_text = matches!(e, StreamEvent::TextDelta { .. });
        seen.push(e);
        if is_text && text_of(&seen) == "Héllo, 世界!" {
            cancel.cancel();
        }
        if seen.last().is_some_and(StreamEvent::is_terminal) {
            break;
        }
    }
    assert_eq!(
        seen.last(),
        Some(&StreamEvent::Stop {
            reason: StopReason::Aborted
        })
    );
    drop(server);
}

#[test]
fn openai_responses_text_reasoning_and_parallel_function_calls() {
    let (events, sent, head) = play("openai", &fixture("openai/responses_text.sse"), 3);
    assert_eq!(text_of(&events), "Héllo, 世界!");
    // 36 input tokens of which 20 cached; cache writes are free (a known zero).
    assert!(events.contains(&StreamEvent::Usage(Usage {
        input: Some(16),
        output: Some(9),
        cache_read: Some(20),
        cache_write: Some(0),
    })));
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Stop {
            reason: StopReason::EndTurn
        })
    );
    assert!(head.starts_with("POST /responses HTTP/1.1"), "{head}");
    assert!(head.contains("authorization: Bearer sk-canary-0000"));
    assert_eq!(sent["store"], false);
    assert_eq!(sent["instructions"], "Be brief.");
    assert_eq!(sent["input"][0]["content"][0]["type"], "input_text");
    assert_eq!(sent["tools"][0]["type"], "function");
    for piece in [1, 7, 19] {
        let (events, _, _) = play("openai", &fixture("openai/responses_tools.sse"), piece);
        let calls = calls_of(&events);
        assert_eq!(calls.len(), 2, "piece {piece}");
        assert_eq!(
            (calls[0].id.as_str(), calls[0].arguments["path"].as_str()),
            ("call_A", Some("naïve.txt"))
        );
        assert_eq!(calls[1].arguments["path"], "日本.md");
        assert!(events.contains(&StreamEvent::ThinkingDelta {
            text: "Read naïve.txt and 日本.md.".into()
        }));
        let signature = events.iter().find_map(|e| match e {
            StreamEvent::ThinkingSignature { signature } => Some(signature.clone()),
            _ => None,
        });
        let signature: serde_json::Value = serde_json::from_str(&signature.unwrap()).unwrap();
        assert_eq!(
            signature,
            serde_json::json!({"id": "rs_1", "encrypted_content": "gAAAAABo-encrypted"})
        );
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::ToolUse
            })
        );
    }
    let (events, _, _) = play("openai", &fixture("openai/responses_failed.sse"), 5);
    assert!(
        matches!(events.last(), Some(StreamEvent::Error(e)) if e.kind == ProviderErrorKind::Transient && e.message.contains("processing your request"))
    );
}

#[test]
fn openai_chooses_chat_completions_for_chat_only_models() {
    let host = host();
    let server = loopback::serve(vec![loopback::sse_in_pieces(
        &fixture("openai-compatible/text.sse"),
        64,
    )]);
    let p = provider(&host, "openai", &server.url, Some("k"));
    let events: Vec<_> =
        smith::Provider::stream(&p, &request("openai/gpt-4o-search-preview"), &Cancel::new())
            .unwrap()
            .collect();
    assert_eq!(text_of(&events), "Héllo, 世界!");
    let raw = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(raw.starts_with("POST /chat/completions HTTP/1.1"), "{raw}");
}

#[test]
fn openai_chat_completions_is_chosen_by_the_api_option() {
    let host = host();
    let server = loopback::serve(vec![loopback::sse_in_pieces(
        &fixture("openai-compatible/text.sse"),
        9,
    )]);
    let mut options = std::collections::BTreeMap::new();
    options.insert("api".to_owned(), "chat".to_owned());
    let p = host
        .loadout()
        .provider(
            "openai",
            ProviderSetup {
                base_url: server.url.clone(),
                api_key: Some("k".into()),
                transport: std::sync::Arc::new(HttpEngine::default()),
                options,
                redactor: Default::default(),
            },
        )
        .unwrap();
    let events: Vec<_> = smith::Provider::stream(&p, &request("openai/gpt-x"), &Cancel::new())
        .unwrap()
        .collect();
    assert_eq!(text_of(&events), "Héllo, 世界!");
    // OpenAI's cache writes are free: a known zero, unlike an OpenAI-compatible server.
    assert!(events.contains(&StreamEvent::Usage(Usage {
        input: Some(10),
        output: Some(9),
        cache_read: Some(20),
        cache_write: Some(0),
    })));
    let raw = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(raw.starts_with("POST /chat/completions HTTP/1.1"), "{raw}");
    assert!(
        !raw.contains("\"options\""),
        "options are for the codec, not the vendor"
    );
}

#[test]
fn google_text_thoughts_usage_and_function_calls_without_ids() {
    for piece in [1, 8, 200] {
        let (events, sent, head) = play("google", &fixture("google/text.sse"), piece);
        assert_eq!(text_of(&events), "Héllo, 世界!", "piece {piece}");
        assert!(events.contains(&StreamEvent::ThinkingDelta {
            text: "Greet back.".into()
        }));
        assert!(events.contains(&StreamEvent::Usage(Usage {
            input: Some(20),
            output: Some(9),
            cache_read: Some(10),
            cache_write: None,
        })));
        assert_eq!(
            events.last(),
            Some(&StreamEvent::Stop {
                reason: StopReason::EndTurn
            })
        );
        assert!(
            head.starts_with("POST /models/m1:streamGenerateContent?alt=sse HTTP/1.1"),
            "{head}"
        );
        assert!(head.contains("x-goog-api-key: sk-canary-0000"));
        assert_eq!(sent["systemInstruction"]["parts"][0]["text"], "Be brief.");
        assert_eq!(sent["tools"][0]["functionDeclarations"][0]["name"], "read");
    }
    let (events, _, _) = play("google", &fixture("google/tools.sse"), 6);
    let calls = calls_of(&events);
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[1].id.as_str()),
        ("gemini-call-1", "gemini-call-2")
    );
    assert_eq!(calls[1].arguments["path"], "日本.md");
    assert!(events.contains(&StreamEvent::ThinkingSignature {
        signature: "CiQB0e2Kb-signature".into()
    }));
    assert_eq!(
        events.last(),
        Some(&StreamEvent::Stop {
            reason: StopReason::ToolUse
        })
    );
    // Cut before the chunk with finishReason: an explicit error.
    let text = String::from_utf8(fixture("google/text.sse")).unwrap();
    let cut = &text[..text.rfind("data:").unwrap()];
    let (events, _, _) = play("google", cut.as_bytes(), 10);
    assert!(
        matches!(events.last(), Some(StreamEvent::Error(e)) if e.kind == ProviderErrorKind::Malformed)
    );
}

#[test]
fn openai_and_google_send_each_result_paired_by_call_id_and_signatures_back() {
    let host = host();
    let context = vec![
        ContextItem::Message(Message::user_text("read it")),
        ContextItem::Message(Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking {
                    text: "Need the file.".into(),
                    signature: Some(r#"{"id":"rs_9","encrypted_content":"enc"}"#.into()),
                    redacted: false,
                },
                ContentBlock::ToolCall(ToolCall {
                    id: "call_A".into(),
                    name: "read".into(),
                    arguments: serde_json::json!({"path": "a"}),
                }),
            ],
        }),
        ContextItem::ToolResult(ToolResult {
            call_id: "call_A".into(),
            name: "read".into(),
            output: "A".into(),
            is_error: false,
        }),
    ];
    let server = loopback::serve(vec![loopback::sse_in_pieces(
        &fixture("openai/responses_text.sse"),
        64,
    )]);
    let p = provider(&host, "openai", &server.url, Some("k"));
    let mut req = request("openai/m1");
    req.context = context.clone();
    let _: Vec<_> = smith::Provider::stream(&p, &req, &Cancel::new())
        .unwrap()
        .collect();
    let input = server.request_json().unwrap()["input"].clone();
    assert_eq!(
        input[1],
        serde_json::json!({"id": "rs_9", "encrypted_content": "enc", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Need the file."}]})
    );
    assert_eq!(input[2]["call_id"], "call_A");
    assert_eq!(
        input[3],
        serde_json::json!({"type": "function_call_output", "call_id": "call_A", "output": "A"})
    );

    let server = loopback::serve(vec![loopback::sse_in_pieces(
        &fixture("google/text.sse"),
        64,
    )]);
    let p = provider(&host, "google", &server.url, Some("k"));
    let mut req = request("google/m1");
    req.context = context;
    let _: Vec<_> = smith::Provider::stream(&p, &req, &Cancel::new())
        .unwrap()
        .collect();
    let contents = server.request_json().unwrap()["contents"].clone();
    let call = &contents[1]["parts"][0];
    assert_eq!(call["functionCall"]["name"], "read");
    assert_eq!(call["functionCall"]["id"], "call_A");
    assert_eq!(
        call["thoughtSignature"],
        r#"{"id":"rs_9","encrypted_content":"enc"}"#
    );
    assert_eq!(contents[2]["parts"][0]["functionResponse"]["id"], "call_A");
    assert_eq!(
        contents[2]["parts"][0]["functionResponse"]["response"]["output"],
        "A"
    );
}
