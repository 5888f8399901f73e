//! The Responses API wire format: request encoding (`input` items, `function` tools,
//! `store: false` with encrypted reasoning included so it can be sent back) and the streamed
//! events (`response.output_item.added` / `.done`, `response.output_text.delta`,
//! `response.reasoning_summary_text.delta`, `response.function_call_arguments.delta`,
//! `response.completed` / `.incomplete` / `.failed`, `error`).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use smith_plugin_sdk::decoder::{JsonEvents, JsonSse, Next};
use smith_plugin_sdk::provider::{
    ContentBlock, ContextItem, ProviderError, ProviderErrorKind, ProviderRequest, Role, StopReason,
    StreamEvent, ToolCall, Usage,
};

/// The request body.
pub(crate) fn encode(request: &ProviderRequest) -> Value {
    let mut input = Vec::new();
    for item in &request.context {
        match item {
            ContextItem::Message(m) if m.role == Role::User => {
                // The text first, then each image (`input_image` with a data URL).
                let mut content = vec![json!({"type": "input_text", "text": m.text()})];
                content
                    .extend(m.images().map(
                        |image| json!({"type": "input_image", "image_url": image.data_url()}),
                    ));
                input.push(json!({"role": "user", "content": content}));
            }
            ContextItem::Message(m) => {
                for block in &m.content {
                    match block {
                        // The reasoning item as the API returned it (id and encrypted content).
                        ContentBlock::Thinking {
                            text,
                            signature: Some(signature),
                            ..
                        } => {
                            if let Ok(Value::Object(mut item)) = serde_json::from_str(signature) {
                                item.insert("type".into(), json!("reasoning"));
                                let summary = if text.is_empty() {
                                    json!([])
                                } else {
                                    json!([{"type": "summary_text", "text": text}])
                                };
                                item.insert("summary".into(), summary);
                                input.push(Value::Object(item));
                            }
                        }
                        ContentBlock::Thinking { .. } => {}
                        ContentBlock::Text { text } if text.is_empty() => {}
                        ContentBlock::Text { text } => input.push(json!({
                            "type": "message",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": text}],
                        })),
                        // Images are user content; an assistant message has none.
                        ContentBlock::Image(_) => {}
                        ContentBlock::ToolCall(c) => input.push(json!({
                            "type": "function_call",
                            "call_id": c.id,
                            "name": c.name,
                            "arguments": c.arguments.to_string(),
                        })),
                    }
                }
            }
            ContextItem::ToolResult(r) => input.push(json!({
                "type": "function_call_output",
                "call_id": r.call_id,
                "output": r.output,
            })),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model.model));
    if let Some(instructions) = &request.instructions {
        body.insert("instructions".into(), json!(instructions));
    }
    body.insert("input".into(), Value::Array(input));
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                })
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(level) = request.thinking {
        body.insert(
            "reasoning".into(),
            json!({"effort": smith_openai_chat::effort(level)}),
        );
    }
    if let Some(limit) = request.max_output {
        body.insert("max_output_tokens".into(), json!(limit));
    }
    body.insert("stream".into(), json!(true));
    body.insert("store".into(), json!(false));
    body.insert("include".into(), json!(["reasoning.encrypted_content"]));
    Value::Object(body)
}

/// A function call being streamed.
#[derive(Debug, Default)]
struct Call {
    call_id: String,
    name: String,
    arguments: String,
}

/// The decoder of one response: the SDK's SSE + JSON shell around [`Events`].
pub type Stream = JsonSse<Events>;

/// What the Responses stream's events mean, event by event.
#[derive(Debug, Default)]
pub struct Events {
    /// Function calls by output index.
    calls: BTreeMap<u64, Call>,
    made_calls: bool,
}

fn usage(response: &Value) -> Option<Usage> {
    let u = response.get("usage").filter(|u| u.is_object())?;
    let input = u.get("input_tokens").and_then(Value::as_u64);
    let cached = u
        .pointer("/input_tokens_details/cached_tokens")
        .and_then(Value::as_u64);
    Some(Usage {
        input: input.map(|i| i.saturating_sub(cached.unwrap_or(0))),
        output: u.get("output_tokens").and_then(Value::as_u64),
        cache_read: cached.or(input.map(|_| 0)),
        cache_write: Some(0),
    })
}

impl Events {
    fn call_done(
        &mut self,
        index: u64,
        item: &Value,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), String> {
        let streamed = self.calls.remove(&index).unwrap_or_default();
        let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_owned);
        let call_id = text("call_id").unwrap_or(streamed.call_id);
        let name = text("name").unwrap_or(streamed.name);
        // The done item's arguments are authoritative; the deltas are the fallback.
        let raw = text("arguments").unwrap_or(streamed.arguments);
        let arguments = if raw.trim().is_empty() {
            Value::Object(Map::new())
        } else {
            match serde_json::from_str(&raw) {
                Ok(v) => v,
                Err(e) => {
                    return Err(format!(
                        "function call {call_id} (`{name}`) has arguments that are not JSON ({e}); retry"
                    ));
                }
            }
        };
        self.made_calls = true;
        out.push(StreamEvent::ToolCall(ToolCall {
            id: call_id,
            name,
            arguments,
        }));
        Ok(())
    }
}

impl JsonEvents for Events {
    fn sentinel(
        &mut self,
        data: &str,
        _out: &mut Vec<StreamEvent>,
    ) -> Option<Result<Next, String>> {
        // Some servers end a Responses stream with the Chat Completions sentinel.
        (data == "[DONE]").then_some(Ok(Next::Continue))
    }

    fn event(&mut self, name: &str, v: Value, out: &mut Vec<StreamEvent>) -> Result<Next, String> {
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(name)
            .to_owned();
        let index = v.get("output_index").and_then(Value::as_u64).unwrap_or(0);
        let delta = || {
            v.get("delta")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        match kind.as_str() {
            "response.output_item.added" => {
                let item = &v["item"];
                if item.get("type").and_then(Value::as_str) == Some("function_call") {
                    self.calls.insert(
                        index,
                        Call {
                            call_id: item["call_id"].as_str().unwrap_or("").to_owned(),
                            name: item["name"].as_str().unwrap_or("").to_owned(),
                            arguments: String::new(),
                        },
                    );
                }
            }
            "response.output_text.delta" => out.push(StreamEvent::TextDelta { text: delta() }),
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                out.push(StreamEvent::ThinkingDelta { text: delta() });
            }
            "response.function_call_arguments.delta" => {
                if let Some(call) = self.calls.get_mut(&index) {
                    call.arguments.push_str(&delta());
                }
            }
            "response.output_item.done" => {
                let item = &v["item"];
                match item.get("type").and_then(Value::as_str) {
                    Some("function_call") => self.call_done(index, item, out)?,
                    Some("reasoning") => {
                        // Kept whole (id and encrypted content) to be sent back.
                        if let Some(encrypted) =
                            item.get("encrypted_content").and_then(Value::as_str)
                        {
                            let signature = json!({
                                "id": item.get("id").cloned().unwrap_or(Value::Null),
                                "encrypted_content": encrypted,
                            });
                            out.push(StreamEvent::ThinkingSignature {
                                signature: signature.to_string(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            "response.completed" | "response.incomplete" => {
                let response = &v["response"];
                if let Some(u) = usage(response) {
                    out.push(StreamEvent::Usage(u));
                }
                let reason = if kind == "response.incomplete" {
                    StopReason::MaxTokens
                } else if self.made_calls {
                    StopReason::ToolUse
                } else {
                    StopReason::EndTurn
                };
                out.push(StreamEvent::Stop { reason });
                return Ok(Next::Done);
            }
            "response.failed" | "error" => {
                let error = v
                    .pointer("/response/error")
                    .filter(|e| !e.is_null())
                    .unwrap_or(&v);
                let code = error.get("code").and_then(Value::as_str).unwrap_or("");
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error");
                let kind = match code {
                    "rate_limit_exceeded" => ProviderErrorKind::RateLimited,
                    "server_error" | "server_is_overloaded" => ProviderErrorKind::Transient,
                    "context_length_exceeded" => ProviderErrorKind::ContextOverflow,
                    _ => ProviderErrorKind::Other,
                };
                out.push(StreamEvent::Error(ProviderError::new(
                    kind,
                    format!("OpenAI failed mid-stream: {message}"),
                )));
                return Ok(Next::Done);
            }
            _ => {}
        }
        Ok(Next::Continue)
    }

    fn end(&mut self, _out: &mut Vec<StreamEvent>) -> Result<(), String> {
        Err(
            "the stream ended before response.completed; the response was cut off — retry"
                .to_owned(),
        )
    }
}
