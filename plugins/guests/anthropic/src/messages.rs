//! The Messages wire format: request encoding and the streamed-response state machine.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use smith_plugin_sdk::decoder::{JsonEvents, JsonSse, Next};
use smith_plugin_sdk::provider::{
    ContentBlock, ContextItem, ProviderError, ProviderErrorKind, ProviderRequest, Role, StopReason,
    StreamEvent, ToolCall, Usage, body_excerpt,
};

/// Output tokens asked for when the request names no limit: the Messages API requires
/// `max_tokens` and documents no default, so this is the smallest output limit of its models
/// (claude-3-haiku's 4,096), which every model accepts. The attempt record says the limit was
/// left to the provider.
const DEFAULT_MAX_TOKENS: u64 = 4096;

/// The least thinking budget the Messages API accepts (`budget_tokens` ≥ 1,024).
const MIN_THINKING_BUDGET: u64 = 1024;

/// The thinking budget (tokens) of a level; `None` for `off`.
fn thinking_budget(level: smith_plugin_sdk::provider::ThinkingLevel) -> Option<u64> {
    use smith_plugin_sdk::provider::ThinkingLevel as L;
    match level {
        L::Off => None,
        L::Minimal => Some(1024),
        L::Low => Some(4096),
        L::Medium => Some(10_000),
        L::High => Some(32_000),
        L::Xhigh => Some(48_000),
        L::Max => Some(64_000),
    }
}

/// A cache breakpoint (Anthropic prompt caching: `cache_control` on the block that ends a
/// cacheable prefix; the cache lives five minutes, refreshed on each hit).
fn breakpoint() -> Value {
    json!({"type": "ephemeral"})
}

/// How many user messages, from the newest back, end with a breakpoint. With one on the tool
/// definitions and one on the system prompt this makes four, the API's limit per request.
/// The newest user message ends the prefix the next round reads; the one before it ends the
/// prefix this round reads (written by the previous round).
const MESSAGE_BREAKPOINTS: usize = 2;

/// Mark the last block of each of the newest [`MESSAGE_BREAKPOINTS`] user messages.
fn mark_message_breakpoints(messages: &mut [Value]) {
    let users = messages
        .iter_mut()
        .rev()
        .filter(|m| m["role"] == "user")
        .take(MESSAGE_BREAKPOINTS);
    for message in users {
        if let Some(Value::Object(block)) = message["content"]
            .as_array_mut()
            .and_then(|blocks| blocks.last_mut())
        {
            block.insert("cache_control".into(), breakpoint());
        }
    }
}

/// Append `block` to the conversation as `role`, merging with the previous message of the
/// same role (the API wants roles to alternate; tool results are user content).
fn push(messages: &mut Vec<Value>, role: &str, block: Value) {
    if let Some(last) = messages.last_mut()
        && last["role"] == role
        && let Some(content) = last["content"].as_array_mut()
    {
        content.push(block);
        return;
    }
    messages.push(json!({"role": role, "content": [block]}));
}

/// The request body.
pub(crate) fn encode(request: &ProviderRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for item in &request.context {
        match item {
            ContextItem::Message(m) => {
                let role = if m.role == Role::User {
                    "user"
                } else {
                    "assistant"
                };
                for block in &m.content {
                    let encoded = match block {
                        ContentBlock::Text { text } if text.is_empty() => continue,
                        ContentBlock::Text { text } => json!({"type": "text", "text": text}),
                        ContentBlock::Thinking {
                            signature: Some(data),
                            redacted: true,
                            ..
                        } => json!({"type": "redacted_thinking", "data": data}),
                        ContentBlock::Thinking {
                            text,
                            signature: Some(signature),
                            ..
                        } => json!({"type": "thinking", "thinking": text, "signature": signature}),
                        // Unsigned thinking (another vendor's) cannot be sent back.
                        ContentBlock::Thinking { .. } => continue,
                        ContentBlock::Image(image) => json!({
                            "type": "image",
                            "source": {
                                "type": "base64",
                                "media_type": image.media_type,
                                "data": image.data,
                            },
                        }),
                        ContentBlock::ToolCall(c) => json!({
                            "type": "tool_use",
                            "id": c.id,
                            "name": c.name,
                            "input": c.arguments,
                        }),
                    };
                    push(&mut messages, role, encoded);
                }
            }
            ContextItem::ToolResult(r) => push(
                &mut messages,
                "user",
                json!({
                    "type": "tool_result",
                    "tool_use_id": r.call_id,
                    "content": r.output,
                    "is_error": r.is_error,
                }),
            ),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model.model));
    // `max_tokens` is the model's output limit (the catalog's, or the configured lower one);
    // thinking is a budget inside it (`budget_tokens` < `max_tokens`), capped at three quarters
    // so that the answer keeps room.
    let max_tokens = request.max_output.unwrap_or(DEFAULT_MAX_TOKENS);
    body.insert("max_tokens".into(), json!(max_tokens));
    let budget = request
        .thinking
        .and_then(thinking_budget)
        .map(|b| b.min(max_tokens / 4 * 3));
    match (request.thinking, budget) {
        (Some(_), Some(b)) if b >= MIN_THINKING_BUDGET => {
            body.insert(
                "thinking".into(),
                json!({"type": "enabled", "budget_tokens": b}),
            );
        }
        // Off, or an output limit too small to hold the least budget.
        (Some(_), _) => {
            body.insert("thinking".into(), json!({"type": "disabled"}));
        }
        (None, _) => {}
    }
    body.insert("stream".into(), json!(true));
    // Prompt caching, when the model's record advertises it: breakpoints on the stable prefix
    // in the API's cache order — tool definitions, system prompt, then the conversation.
    let caching = request.cache.is_some();
    if let Some(instructions) = &request.instructions {
        let system = if caching {
            json!([{"type": "text", "text": instructions, "cache_control": breakpoint()}])
        } else {
            json!(instructions)
        };
        body.insert("system".into(), system);
    }
    if caching {
        mark_message_breakpoints(&mut messages);
    }
    body.insert("messages".into(), Value::Array(messages));
    if !request.tools.is_empty() {
        let mut tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect();
        if caching && let Some(Value::Object(last)) = tools.last_mut() {
            last.insert("cache_control".into(), breakpoint());
        }
        body.insert("tools".into(), Value::Array(tools));
    }
    Value::Object(body)
}

/// The error type and message of an error body (`{"type":"error","error":{"type","message"}}`).
pub(crate) fn error_of(body: &[u8]) -> (Option<String>, String) {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let kind = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/type"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let message = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/message"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| body_excerpt(body));
    (kind, message)
}

/// A content block being streamed.
#[derive(Debug)]
enum Block {
    Text,
    Thinking {
        signature: Option<String>,
    },
    Tool {
        id: String,
        name: String,
        json: String,
    },
    Other,
}

/// The decoder of one response: the SDK's SSE + JSON shell around [`Events`].
pub type Stream = JsonSse<Events>;

/// What the Messages stream's events mean, event by event.
#[derive(Debug, Default)]
pub struct Events {
    blocks: BTreeMap<u64, Block>,
    usage: Usage,
    usage_seen: bool,
    stop_reason: Option<String>,
}

impl Events {
    fn take_usage(&mut self, u: &Value) {
        let mut set = |field: &mut Option<u64>, key: &str| {
            if let Some(n) = u.get(key).and_then(Value::as_u64) {
                *field = Some(n);
                self.usage_seen = true;
            }
        };
        let usage = &mut self.usage;
        set(&mut usage.input, "input_tokens");
        set(&mut usage.output, "output_tokens");
        set(&mut usage.cache_read, "cache_read_input_tokens");
        set(&mut usage.cache_write, "cache_creation_input_tokens");
    }
}

impl JsonEvents for Events {
    fn event(&mut self, name: &str, v: Value, out: &mut Vec<StreamEvent>) -> Result<Next, String> {
        // The JSON's own `type` is authoritative; the `event:` line names the same.
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_owned();
        match kind.as_str() {
            "message_start" => {
                if let Some(u) = v.pointer("/message/usage") {
                    self.take_usage(u);
                }
            }
            "content_block_start" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                let block = &v["content_block"];
                let b = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str)
                            && !t.is_empty()
                        {
                            out.push(StreamEvent::TextDelta { text: t.to_owned() });
                        }
                        Block::Text
                    }
                    Some("thinking") => Block::Thinking { signature: None },
                    Some("redacted_thinking") => {
                        if let Some(data) = block.get("data").and_then(Value::as_str) {
                            out.push(StreamEvent::RedactedThinking {
                                data: data.to_owned(),
                            });
                        }
                        Block::Other
                    }
                    Some("tool_use") => Block::Tool {
                        id: block
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        name: block
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, b);
            }
            "content_block_delta" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                let delta = &v["delta"];
                let text = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or("");
                match (
                    delta.get("type").and_then(Value::as_str),
                    self.blocks.get_mut(&index),
                ) {
                    (Some("text_delta"), _) => out.push(StreamEvent::TextDelta {
                        text: text("text").to_owned(),
                    }),
                    (Some("thinking_delta"), _) => out.push(StreamEvent::ThinkingDelta {
                        text: text("thinking").to_owned(),
                    }),
                    (Some("signature_delta"), Some(Block::Thinking { signature })) => {
                        signature
                            .get_or_insert_with(String::new)
                            .push_str(text("signature"));
                    }
                    (Some("input_json_delta"), Some(Block::Tool { json, .. })) => {
                        json.push_str(text("partial_json"));
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
                match self.blocks.remove(&index) {
                    Some(Block::Thinking {
                        signature: Some(signature),
                    }) => out.push(StreamEvent::ThinkingSignature { signature }),
                    Some(Block::Tool { id, name, json }) => {
                        let arguments = if json.trim().is_empty() {
                            Value::Object(Map::new())
                        } else {
                            match serde_json::from_str(&json) {
                                Ok(a) => a,
                                Err(e) => {
                                    return Err(format!(
                                        "tool call {id} (`{name}`) has input that is not JSON ({e}); the response was malformed — retry"
                                    ));
                                }
                            }
                        };
                        out.push(StreamEvent::ToolCall(ToolCall {
                            id,
                            name,
                            arguments,
                        }));
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_owned());
                }
                if let Some(u) = v.get("usage") {
                    self.take_usage(u);
                }
            }
            "message_stop" => {
                if self.usage_seen {
                    out.push(StreamEvent::Usage(self.usage));
                }
                let reason = match self.stop_reason.as_deref() {
                    Some("tool_use") => StopReason::ToolUse,
                    Some("max_tokens" | "model_context_window_exceeded") => StopReason::MaxTokens,
                    Some("refusal") => {
                        out.push(StreamEvent::Error(ProviderError::new(
                            ProviderErrorKind::Other,
                            "the model declined to answer (stop reason `refusal`)",
                        )));
                        return Ok(Next::Done);
                    }
                    _ => StopReason::EndTurn,
                };
                out.push(StreamEvent::Stop { reason });
                return Ok(Next::Done);
            }
            "error" => {
                let kind = match v.pointer("/error/type").and_then(Value::as_str) {
                    Some("overloaded_error" | "api_error") => ProviderErrorKind::Transient,
                    Some("rate_limit_error") => ProviderErrorKind::RateLimited,
                    _ => ProviderErrorKind::Other,
                };
                let message = v
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error");
                out.push(StreamEvent::Error(ProviderError::new(
                    kind,
                    format!("Anthropic failed mid-stream: {message}"),
                )));
                return Ok(Next::Done);
            }
            // `ping` and event types added later.
            _ => {}
        }
        Ok(Next::Continue)
    }

    fn end(&mut self, _out: &mut Vec<StreamEvent>) -> Result<(), String> {
        Err("the stream ended before message_stop; the response was cut off — retry".to_owned())
    }
}
