//! The Gemini wire format: `contents` with `user` and `model` turns of parts, function
//! declarations with a JSON Schema (`parametersJsonSchema`), and the streamed
//! `GenerateContentResponse` chunks.

use serde_json::{Map, Value, json};
use smith_plugin_sdk::decoder::{JsonEvents, JsonSse, Next};
use smith_plugin_sdk::provider::{
    ContentBlock, ContextItem, ProviderError, ProviderErrorKind, ProviderRequest, Role, StopReason,
    StreamEvent, ToolCall, Usage, body_excerpt,
};

/// Prefix of the ids given to function calls Gemini sent without one.
const SYNTHETIC_ID: &str = "gemini-call-";

/// Append `part` to the turn of `role`, merging consecutive parts of one role.
fn push(contents: &mut Vec<Value>, role: &str, part: Value) {
    if let Some(last) = contents.last_mut()
        && last["role"] == role
        && let Some(parts) = last["parts"].as_array_mut()
    {
        parts.push(part);
        return;
    }
    contents.push(json!({"role": role, "parts": [part]}));
}

/// The request body.
pub(crate) fn encode(request: &ProviderRequest) -> Value {
    let mut contents: Vec<Value> = Vec::new();
    for item in &request.context {
        match item {
            ContextItem::Message(m) if m.role == Role::User => {
                push(&mut contents, "user", json!({"text": m.text()}));
                for image in m.images() {
                    push(
                        &mut contents,
                        "user",
                        json!({"inlineData": {"mimeType": image.media_type, "data": image.data}}),
                    );
                }
            }
            ContextItem::Message(m) => {
                // A signature travels on the next part of the turn, as it came.
                let mut signature: Option<&String> = None;
                for block in &m.content {
                    let mut part = match block {
                        ContentBlock::Thinking {
                            signature: Some(s), ..
                        } => {
                            signature = Some(s);
                            continue;
                        }
                        ContentBlock::Thinking { .. } | ContentBlock::Image(_) => continue,
                        ContentBlock::Text { text } if text.is_empty() => continue,
                        ContentBlock::Text { text } => json!({"text": text}),
                        ContentBlock::ToolCall(c) => {
                            let mut call = json!({"name": c.name, "args": c.arguments});
                            if !c.id.starts_with(SYNTHETIC_ID) {
                                call["id"] = json!(c.id);
                            }
                            json!({"functionCall": call})
                        }
                    };
                    if let Some(s) = signature.take() {
                        part["thoughtSignature"] = json!(s);
                    }
                    push(&mut contents, "model", part);
                }
            }
            ContextItem::ToolResult(r) => {
                let mut response = json!({
                    "name": r.name,
                    "response": if r.is_error {
                        json!({"error": r.output})
                    } else {
                        json!({"output": r.output})
                    },
                });
                if !r.call_id.starts_with(SYNTHETIC_ID) {
                    response["id"] = json!(r.call_id);
                }
                push(&mut contents, "user", json!({"functionResponse": response}));
            }
        }
    }
    let mut body = Map::new();
    if let Some(instructions) = &request.instructions {
        body.insert(
            "systemInstruction".into(),
            json!({"parts": [{"text": instructions}]}),
        );
    }
    body.insert("contents".into(), Value::Array(contents));
    let mut generation = Map::new();
    if let Some(level) = request.thinking {
        use smith_plugin_sdk::provider::ThinkingLevel as L;
        let budget = match level {
            L::Off => 0,
            L::Minimal => 512,
            L::Low => 1024,
            L::Medium => 8192,
            L::High => 24_576,
            L::Xhigh | L::Max => 32_768,
        };
        // Thinking counts against `maxOutputTokens`: keep a quarter of it for the answer.
        let budget = request
            .max_output
            .map_or(budget, |limit| budget.min(limit / 4 * 3));
        generation.insert(
            "thinkingConfig".into(),
            json!({"thinkingBudget": budget, "includeThoughts": budget > 0}),
        );
    }
    if let Some(limit) = request.max_output {
        generation.insert("maxOutputTokens".into(), json!(limit));
    }
    if !generation.is_empty() {
        body.insert("generationConfig".into(), Value::Object(generation));
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "description": t.description,
                    "parametersJsonSchema": t.input_schema,
                })
            })
            .collect();
        body.insert(
            "tools".into(),
            json!([{"functionDeclarations": declarations}]),
        );
    }
    Value::Object(body)
}

/// The status and message of an error body (`{"error": {"code", "message", "status"}}`).
pub(crate) fn error_of(body: &[u8]) -> (Option<String>, String) {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    // Gemini sometimes wraps the error object in an array.
    let error = parsed.as_ref().map(|v| match v {
        Value::Array(items) => items.first().cloned().unwrap_or(Value::Null),
        other => other.clone(),
    });
    let status = error
        .as_ref()
        .and_then(|v| v.pointer("/error/status"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let message = error
        .as_ref()
        .and_then(|v| v.pointer("/error/message"))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| body_excerpt(body));
    (status, message)
}

/// The decoder of one response: the SDK's SSE + JSON shell around [`Chunks`].
pub type Stream = JsonSse<Chunks>;

/// What the stream's `GenerateContentResponse` chunks mean, and what they add up to.
#[derive(Debug, Default)]
pub struct Chunks {
    calls: u32,
    usage: Option<Usage>,
    finish_reason: Option<String>,
}

impl JsonEvents for Chunks {
    const UNIT: &'static str = "chunk";

    /// Gemini sends no terminal event: the stream's end is its end, with the last chunk's
    /// finish reason.
    fn end(&mut self, out: &mut Vec<StreamEvent>) -> Result<(), String> {
        let Some(reason) = self.finish_reason.clone() else {
            return Err(
                "the stream ended without a finishReason; the response was cut off — retry"
                    .to_owned(),
            );
        };
        if let Some(usage) = self.usage {
            out.push(StreamEvent::Usage(usage));
        }
        match reason.as_str() {
            _ if self.calls > 0 => out.push(StreamEvent::Stop {
                reason: StopReason::ToolUse,
            }),
            "STOP" => out.push(StreamEvent::Stop {
                reason: StopReason::EndTurn,
            }),
            "MAX_TOKENS" => out.push(StreamEvent::Stop {
                reason: StopReason::MaxTokens,
            }),
            other => out.push(StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Other,
                format!("Gemini stopped the response: finishReason {other}"),
            ))),
        }
        Ok(())
    }

    fn event(&mut self, _name: &str, v: Value, out: &mut Vec<StreamEvent>) -> Result<Next, String> {
        if let Some(error) = v.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("unknown error");
            out.push(StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Other,
                format!("Gemini failed mid-stream: {message}"),
            )));
            return Ok(Next::Done);
        }
        if let Some(u) = v.get("usageMetadata") {
            let n = |k: &str| u.get(k).and_then(Value::as_u64);
            let cached = n("cachedContentTokenCount");
            self.usage = Some(Usage {
                // The prompt count includes cached content; counted apart, once.
                input: n("promptTokenCount").map(|p| p.saturating_sub(cached.unwrap_or(0))),
                // Output includes thinking.
                output: n("candidatesTokenCount").map(|c| c + n("thoughtsTokenCount").unwrap_or(0)),
                cache_read: cached.or(Some(0)),
                cache_write: None,
            });
        }
        let Some(candidate) = v.pointer("/candidates/0") else {
            return Ok(Next::Continue);
        };
        if let Some(parts) = candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
        {
            for part in parts {
                let signature = part.get("thoughtSignature").and_then(Value::as_str);
                if let Some(s) = signature {
                    out.push(StreamEvent::ThinkingSignature {
                        signature: s.to_owned(),
                    });
                }
                if let Some(call) = part.get("functionCall") {
                    self.calls += 1;
                    let id = call
                        .get("id")
                        .and_then(Value::as_str)
                        .map_or_else(|| format!("{SYNTHETIC_ID}{}", self.calls), str::to_owned);
                    out.push(StreamEvent::ToolCall(ToolCall {
                        id,
                        name: call
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        arguments: call.get("args").cloned().unwrap_or(json!({})),
                    }));
                } else if let Some(text) = part.get("text").and_then(Value::as_str) {
                    if text.is_empty() {
                        continue;
                    }
                    let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
                    out.push(if thought {
                        StreamEvent::ThinkingDelta {
                            text: text.to_owned(),
                        }
                    } else {
                        StreamEvent::TextDelta {
                            text: text.to_owned(),
                        }
                    });
                }
            }
        }
        if let Some(reason) = candidate.get("finishReason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_owned());
        }
        Ok(Next::Continue)
    }
}
