//! The OpenAI Chat Completions wire format (`POST …/chat/completions`, streamed as server-sent
//! events of `chat.completion.chunk` objects): request encoding and the streamed-response
//! state machine, shared by the `openai` and `openai-compatible` codecs. Tolerant of the
//! quirks of local servers: usage may be missing (it stays unknown), a final chunk may carry
//! usage and no choices, tool calls may arrive whole in one chunk or in a non-streamed JSON
//! body, `[DONE]` may be missing after a `finish_reason`, reasoning may come as
//! `reasoning_content` or `reasoning`, and a server may finish with `stop` although it made
//! tool calls.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use smith_plugin_sdk::decoder::Stream as DecoderStream;
use smith_plugin_sdk::decoder::{JsonEvents, JsonSse, Next, malformed};
use smith_plugin_sdk::provider::{
    ContentBlock, ContextItem, ProviderError, ProviderErrorKind, ProviderRequest, Role, StopReason,
    StreamEvent, ToolCall, Usage, body_excerpt, says_context_overflow, status_kind,
};

/// The request body.
pub fn encode(request: &ProviderRequest) -> Value {
    let mut messages = Vec::new();
    if let Some(instructions) = &request.instructions {
        messages.push(json!({"role": "system", "content": instructions}));
    }
    for item in &request.context {
        match item {
            // Text alone is a string; with images, content parts (`image_url` data URLs).
            ContextItem::Message(m) if m.role == Role::User && m.images().next().is_none() => {
                messages.push(json!({"role": "user", "content": m.text()}));
            }
            ContextItem::Message(m) if m.role == Role::User => {
                let mut parts = vec![json!({"type": "text", "text": m.text()})];
                parts.extend(m.images().map(
                    |image| json!({"type": "image_url", "image_url": {"url": image.data_url()}}),
                ));
                messages.push(json!({"role": "user", "content": parts}));
            }
            ContextItem::Message(m) => {
                let calls: Vec<Value> = m
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::ToolCall(c) => Some(json!({
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments.to_string()},
                        })),
                        _ => None,
                    })
                    .collect();
                let text = m.text();
                let mut msg = Map::new();
                msg.insert("role".into(), json!("assistant"));
                msg.insert(
                    "content".into(),
                    if text.is_empty() && !calls.is_empty() {
                        Value::Null
                    } else {
                        json!(text)
                    },
                );
                if !calls.is_empty() {
                    msg.insert("tool_calls".into(), Value::Array(calls));
                }
                messages.push(Value::Object(msg));
            }
            ContextItem::ToolResult(r) => messages.push(json!({
                "role": "tool",
                "tool_call_id": r.call_id,
                "content": r.output,
            })),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(request.model.model));
    body.insert("messages".into(), Value::Array(messages));
    body.insert("stream".into(), json!(true));
    body.insert("stream_options".into(), json!({"include_usage": true}));
    // Asked only when the host passed them (checked against the model's catalog record).
    if let Some(level) = request.thinking {
        body.insert("reasoning_effort".into(), json!(effort(level)));
    }
    if let Some(limit) = request.max_output {
        body.insert("max_completion_tokens".into(), json!(limit));
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                }})
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    Value::Object(body)
}

/// The `reasoning_effort` word of a thinking level (`off` is `none`).
pub fn effort(level: smith_plugin_sdk::provider::ThinkingLevel) -> &'static str {
    use smith_plugin_sdk::provider::ThinkingLevel as L;
    match level {
        L::Off => "none",
        L::Minimal => "minimal",
        L::Low => "low",
        L::Medium => "medium",
        L::High => "high",
        L::Xhigh | L::Max => "xhigh",
    }
}

/// The class of a non-2xx response: a context overflow by its code (`context_length_exceeded`,
/// OpenAI; `exceed_context_size_error`, llama.cpp server) or its message
/// ([`says_context_overflow`]: vLLM and others), else by its status.
pub fn error_kind(status: u16, body: &[u8]) -> ProviderErrorKind {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|v| v.pointer(&format!("/error/{name}")))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let overflow_code = field("code").as_deref() == Some("context_length_exceeded")
        || field("type").as_deref() == Some("exceed_context_size_error");
    if (400..500).contains(&status)
        && (overflow_code || says_context_overflow(&error_message(body)))
    {
        return ProviderErrorKind::ContextOverflow;
    }
    status_kind(status)
}

/// The message of an error body (`{"error": {"message": …}}`, `{"error": "…"}`,
/// `{"message": …}`), or its first bytes as text.
pub fn error_message(body: &[u8]) -> String {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let found = parsed.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    found.unwrap_or_else(|| body_excerpt(body))
}

/// A tool call being assembled from its chunks.
#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// The decoder of one response: a streamed body through the SDK's SSE + JSON shell around
/// [`Chunks`], or a non-streamed JSON body decoded whole at its end.
#[derive(Debug, Default)]
pub struct Stream {
    sse: JsonSse<Chunks>,
    /// A non-streamed body (`{` first): kept whole and decoded at the end.
    whole: Option<Vec<u8>>,
    /// Whether the first non-whitespace byte was seen (and so the body kind known).
    kind_known: bool,
    /// The bytes before that: blank so far, kept until the kind is known.
    head: Vec<u8>,
    /// The non-streamed body was decoded.
    done: bool,
}

/// What the stream's chunks mean, chunk by chunk, and what they add up to.
#[derive(Debug, Default)]
pub struct Chunks {
    /// The vendor charges nothing for prompt-cache writes: reported usage has a known zero of
    /// them (else they stay unknown).
    cache_writes_free: bool,
    calls: BTreeMap<u64, PartialCall>,
    finish_reason: Option<String>,
    usage: Option<Usage>,
}

fn usage_of(v: &Value, cache_writes_free: bool) -> Option<Usage> {
    let u = v.get("usage").filter(|u| u.is_object())?;
    let prompt = u.get("prompt_tokens").and_then(Value::as_u64);
    let cached = u
        .pointer("/prompt_tokens_details/cached_tokens")
        .and_then(Value::as_u64);
    Some(Usage {
        // Prompt tokens include cached ones; Smith counts them apart, once each.
        input: prompt.map(|p| p.saturating_sub(cached.unwrap_or(0))),
        output: u.get("completion_tokens").and_then(Value::as_u64),
        cache_read: cached,
        cache_write: cache_writes_free.then_some(0),
    })
}

impl Stream {
    /// A decoder for one response.
    pub fn new(cache_writes_free: bool) -> Self {
        Self {
            sse: JsonSse::new(Chunks {
                cache_writes_free,
                ..Chunks::default()
            }),
            ..Self::default()
        }
    }

    /// Feed response bytes; returns the events they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        if self.done {
            return Vec::new();
        }
        if !self.kind_known {
            // The kind is told by the first non-blank byte, whichever push brings it; the
            // blank bytes before it belong to the body either way.
            self.head.extend_from_slice(bytes);
            let Some(&first) = self.head.iter().find(|b| !b.is_ascii_whitespace()) else {
                return Vec::new();
            };
            self.kind_known = true;
            let head = std::mem::take(&mut self.head);
            if first == b'{' {
                self.whole = Some(head);
                return Vec::new();
            }
            return self.sse.push(&head);
        }
        if let Some(whole) = &mut self.whole {
            whole.extend_from_slice(bytes);
            return Vec::new();
        }
        self.sse.push(bytes)
    }

    /// The response ended: the remaining events, or an error when it was cut off.
    pub fn finish(&mut self) -> Vec<StreamEvent> {
        if self.done {
            return Vec::new();
        }
        if let Some(whole) = self.whole.take() {
            self.done = true;
            return self.sse.codec_mut().whole_body(&whole);
        }
        // A blank body so far: the stream parser reports how it ends.
        let head = std::mem::take(&mut self.head);
        let mut out = self.sse.push(&head);
        out.extend(self.sse.finish());
        out
    }
}

impl DecoderStream for Stream {
    fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        Stream::push(self, bytes)
    }

    fn finish(&mut self) -> Vec<StreamEvent> {
        Stream::finish(self)
    }
}

impl JsonEvents for Chunks {
    const UNIT: &'static str = "chunk";

    fn sentinel(&mut self, data: &str, out: &mut Vec<StreamEvent>) -> Option<Result<Next, String>> {
        (data == "[DONE]").then(|| {
            out.extend(self.terminal());
            Ok(Next::Done)
        })
    }

    fn event(
        &mut self,
        _name: &str,
        chunk: Value,
        out: &mut Vec<StreamEvent>,
    ) -> Result<Next, String> {
        if let Some(error) = chunk.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("the server reported an error mid-stream");
            let kind = if says_context_overflow(message) {
                ProviderErrorKind::ContextOverflow
            } else {
                ProviderErrorKind::Other
            };
            out.push(StreamEvent::Error(ProviderError::new(
                kind,
                format!("the OpenAI-compatible server failed mid-stream: {message}"),
            )));
            return Ok(Next::Done);
        }
        if let Some(u) = usage_of(&chunk, self.cache_writes_free) {
            self.usage = Some(u);
        }
        let Some(choice) = chunk.pointer("/choices/0") else {
            return Ok(Next::Continue);
        };
        if let Some(delta) = choice.get("delta") {
            self.delta(delta, out);
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_owned());
        }
        Ok(Next::Continue)
    }

    /// No `[DONE]`: a finish reason is enough (some servers omit it); nothing is not.
    fn end(&mut self, out: &mut Vec<StreamEvent>) -> Result<(), String> {
        if self.finish_reason.is_none() {
            return Err("the stream ended before its terminal event (no finish_reason, no [DONE]); the response was cut off — retry".to_owned());
        }
        out.extend(self.terminal());
        Ok(())
    }
}

impl Chunks {
    fn delta(&mut self, delta: &Value, out: &mut Vec<StreamEvent>) {
        for key in ["reasoning_content", "reasoning"] {
            if let Some(text) = delta.get(key).and_then(Value::as_str)
                && !text.is_empty()
            {
                out.push(StreamEvent::ThinkingDelta {
                    text: text.to_owned(),
                });
            }
        }
        if let Some(text) = delta.get("content").and_then(Value::as_str)
            && !text.is_empty()
        {
            out.push(StreamEvent::TextDelta {
                text: text.to_owned(),
            });
        }
        if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
            for (position, call) in calls.iter().enumerate() {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                let entry = self.calls.entry(index).or_default();
                if let Some(id) = call.get("id").and_then(Value::as_str) {
                    entry.id = id.to_owned();
                }
                if let Some(name) = call.pointer("/function/name").and_then(Value::as_str) {
                    entry.name.push_str(name);
                }
                match call.pointer("/function/arguments") {
                    Some(Value::String(piece)) => entry.arguments.push_str(piece),
                    // Some servers send the arguments as an object, whole.
                    Some(v @ Value::Object(_)) => entry.arguments = v.to_string(),
                    _ => {}
                }
            }
        }
    }

    /// The terminal events: the assembled tool calls, the usage, the stop.
    fn terminal(&mut self) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        for (index, call) in std::mem::take(&mut self.calls) {
            let arguments = if call.arguments.trim().is_empty() {
                Value::Object(Map::new())
            } else {
                match serde_json::from_str(&call.arguments) {
                    Ok(v) => v,
                    Err(e) => {
                        return vec![malformed(format!(
                            "tool call {} (`{}`) has arguments that are not JSON ({e}); the response was cut or malformed — retry",
                            if call.id.is_empty() {
                                index.to_string()
                            } else {
                                call.id.clone()
                            },
                            call.name
                        ))];
                    }
                }
            };
            let id = if call.id.is_empty() {
                format!("call_{index}")
            } else {
                call.id
            };
            out.push(StreamEvent::ToolCall(ToolCall {
                id,
                name: call.name,
                arguments,
            }));
        }
        let made_calls = !out.is_empty();
        if let Some(usage) = self.usage {
            out.push(StreamEvent::Usage(usage));
        }
        let reason = match self.finish_reason.as_deref() {
            Some("tool_calls" | "function_call") => StopReason::ToolUse,
            // A server that made tool calls but says `stop`.
            _ if made_calls => StopReason::ToolUse,
            Some("length") => StopReason::MaxTokens,
            Some("content_filter") => {
                out.push(StreamEvent::Error(ProviderError::new(
                    ProviderErrorKind::Other,
                    "the server's content filter stopped the response",
                )));
                return out;
            }
            _ => StopReason::EndTurn,
        };
        out.push(StreamEvent::Stop { reason });
        out
    }

    /// A non-streamed `chat.completion` body.
    fn whole_body(&mut self, body: &[u8]) -> Vec<StreamEvent> {
        let v: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => return vec![malformed(format!("the response body is not JSON ({e})"))],
        };
        if let Some(error) = v.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("the server reported an error");
            return vec![StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Other,
                format!("the OpenAI-compatible server failed: {message}"),
            ))];
        }
        self.usage = usage_of(&v, self.cache_writes_free);
        let Some(choice) = v.pointer("/choices/0") else {
            return vec![malformed("the response has no choices")];
        };
        let mut out = Vec::new();
        if let Some(message) = choice.get("message") {
            // The whole message is one delta, tool calls with their index.
            let mut delta = message.clone();
            if let Some(calls) = delta.get_mut("tool_calls").and_then(Value::as_array_mut) {
                for (i, c) in calls.iter_mut().enumerate() {
                    if let Some(obj) = c.as_object_mut() {
                        obj.entry("index").or_insert(json!(i));
                    }
                }
            }
            self.delta(&delta, &mut out);
        }
        self.finish_reason = choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or(Some("stop".to_owned()));
        out.extend(self.terminal());
        out
    }
}
