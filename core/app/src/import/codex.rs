//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-TIME-ID.jsonl`, as codex-cli 0.171
//! writes them): every line `{timestamp, type, payload}`. The conversation is the
//! `response_item` lines — Responses API items: `message` (user, assistant, and the harness's
//! developer and context messages), `reasoning`, `function_call` and `custom_tool_call` with
//! their outputs — in order, one response being the items between two inputs; the model is the
//! latest `turn_context`'s and the provider `session_meta`'s; each response's usage is its
//! `token_usage_record` (older rollouts: the `token_count` event). The `event_msg` lines repeat
//! the items for display and are not read twice. A rollout has no branches.

use std::path::Path;

use serde_json::Value;
use smith::{ContentBlock, ModelRef, StopReason, ToolCall, ToolResult, Usage};

use super::{ImportError, Item, LineSource, Transcript, count, millis, model_ref, text_of};

/// The response being gathered from consecutive model items.
#[derive(Default)]
struct Pending {
    content: Vec<ContentBlock>,
    at: Option<i64>,
}

struct Reader {
    t: Transcript,
    provider: String,
    model: Option<String>,
    pending: Option<Pending>,
    last: Option<usize>,
    /// The latest response's node.
    last_response: Option<usize>,
    /// Whether the file has per-response usage records, as far as read (else `token_count`
    /// events serve).
    usage_records: bool,
    /// The ids of the items read, and the call ids called and answered: an item met again is
    /// not read twice.
    seen: std::collections::HashSet<String>,
}

pub(super) fn read(path: &Path, lines: &mut LineSource<'_>) -> Result<Transcript, ImportError> {
    let mut r = Reader {
        t: Transcript::new("codex"),
        provider: "openai".to_owned(),
        model: None,
        pending: None,
        last: None,
        last_response: None,
        usage_records: false,
        seen: std::collections::HashSet::new(),
    };
    for line in lines {
        let line = line?;
        let v = &line.value;
        let payload = v.get("payload").ok_or_else(|| ImportError::Malformed {
            path: path.to_owned(),
            line: line.number,
            reason: "a line without a `payload` (Codex rollout format)".into(),
        })?;
        let at = millis(v.get("timestamp").and_then(Value::as_str));
        match v.get("type").and_then(Value::as_str) {
            Some("session_meta") => r.meta(payload),
            Some("turn_context") => {
                if let Some(model) = payload.get("model").and_then(Value::as_str) {
                    r.model = Some(model.to_owned());
                }
            }
            Some("response_item") => r.item(payload, at),
            Some("token_usage_record") => {
                r.usage_records = true;
                if let Some(u) = payload.get("usage") {
                    r.usage_of_latest(usage(u));
                }
            }
            Some("event_msg")
                if !r.usage_records
                    && payload.get("type").and_then(Value::as_str) == Some("token_count") =>
            {
                // A rate-limits-only event (`info` null) says nothing of the response.
                let last = payload.get("info").and_then(|i| i.get("last_token_usage"));
                // It follows its response, before or after the tool outputs that ended it.
                if let Some(last) = last {
                    r.usage_of_latest(usage(last));
                }
            }
            Some("compacted") => r.t.drop_one("compaction summaries"),
            _ => {}
        }
    }
    r.flush(None);
    Ok(r.t)
}

impl Reader {
    fn meta(&mut self, payload: &Value) {
        let s = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_owned);
        self.t.version = self.t.version.take().or_else(|| s("cli_version"));
        self.t.cwd = self.t.cwd.take().or_else(|| s("cwd"));
        if let Some(p) = s("model_provider") {
            self.provider = p;
        }
    }

    fn model(&self) -> Option<ModelRef> {
        model_ref(&self.provider, self.model.as_deref()?)
    }

    fn item(&mut self, p: &Value, at: Option<i64>) {
        let s = |k: &str| {
            p.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        // An item met again (the same id, a call made or answered twice) is read once.
        let kind = p.get("type").and_then(Value::as_str).unwrap_or_default();
        let key = match kind {
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                Some(format!("call {}", s("call_id")))
            }
            "function_call_output" | "custom_tool_call_output" => {
                Some(format!("output {}", s("call_id")))
            }
            _ => p
                .get("id")
                .and_then(Value::as_str)
                .map(|id| format!("item {id}")),
        };
        if let Some(key) = key
            && !self.seen.insert(key)
        {
            self.t.drop_one("repeated items (an id met again)");
            return;
        }
        match p.get("type").and_then(Value::as_str) {
            Some("message") => match p.get("role").and_then(Value::as_str) {
                Some("user") if is_harness(p) => {
                    self.t.drop_one("context messages the harness added")
                }
                Some("user") => {
                    self.flush(None);
                    let text = text_of(p.get("content"));
                    self.last = Some(self.t.push(self.last, at, Item::User { text }));
                }
                Some("assistant") => {
                    let text = text_of(p.get("content"));
                    self.gather(at).content.push(ContentBlock::Text { text });
                }
                _ => self
                    .t
                    .drop_one("instructions the harness sent (developer messages)"),
            },
            Some("reasoning") => {
                let mut parts: Vec<String> = Vec::new();
                for key in ["summary", "content"] {
                    parts.extend(
                        p.get(key)
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(|x| {
                                x.get("text").and_then(Value::as_str).map(str::to_owned)
                            }),
                    );
                }
                if parts.is_empty() {
                    self.t.drop_one("encrypted reasoning");
                } else {
                    let text = parts.join("\n\n");
                    self.gather(at).content.push(ContentBlock::Thinking {
                        text,
                        signature: None,
                        redacted: false,
                    });
                }
            }
            Some("function_call") => {
                let raw = s("arguments");
                let arguments = serde_json::from_str(&raw).unwrap_or(Value::String(raw));
                let call = ToolCall {
                    id: s("call_id"),
                    name: s("name"),
                    arguments,
                };
                self.gather(at).content.push(ContentBlock::ToolCall(call));
            }
            Some("local_shell_call") => {
                let call = ToolCall {
                    id: s("call_id"),
                    name: "local_shell".to_owned(),
                    arguments: p.get("action").cloned().unwrap_or(Value::Null),
                };
                self.gather(at).content.push(ContentBlock::ToolCall(call));
            }
            Some("custom_tool_call") => {
                let call = ToolCall {
                    id: s("call_id"),
                    name: s("name"),
                    arguments: serde_json::json!({ "input": s("input") }),
                };
                self.gather(at).content.push(ContentBlock::ToolCall(call));
            }
            Some("function_call_output" | "custom_tool_call_output") => {
                self.flush(None);
                let call_id = s("call_id");
                let Some(name) = self.tool_name(&call_id) else {
                    // A result without its call would be refused by a provider.
                    self.t
                        .drop_one("tool results whose call was not carried over");
                    return;
                };
                let output = match p.get("output") {
                    Some(Value::Object(o)) => text_of(o.get("content")),
                    other => text_of(other),
                };
                let result = ToolResult {
                    call_id,
                    name,
                    output,
                    is_error: false,
                };
                self.last = Some(self.t.push(self.last, at, Item::ToolResult(result)));
            }
            Some(other) => self.t.drop_one(format!("`{other}` items")),
            None => self.t.drop_one("untyped items"),
        }
    }

    /// `usage` is the latest response's: the one being gathered (which it ends), else the one
    /// last ended when it has none yet (the record may follow the tool outputs).
    fn usage_of_latest(&mut self, usage: Usage) {
        if self.pending.is_some() {
            self.flush(Some(usage));
        } else if let Some(Item::Assistant {
            usage: u @ None, ..
        }) = self.last_response.map(|i| &mut self.t.nodes[i].item)
        {
            *u = Some(usage);
        }
    }

    /// The response being gathered, begun at `at` when there is none.
    fn gather(&mut self, at: Option<i64>) -> &mut Pending {
        self.pending.get_or_insert_with(|| Pending {
            content: Vec::new(),
            at,
        })
    }

    /// End the response being gathered, with `usage`.
    fn flush(&mut self, usage: Option<Usage>) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let calls = pending
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolCall(_)));
        let item = Item::Assistant {
            content: pending.content,
            model: self.model(),
            stop_reason: Some(if calls {
                StopReason::ToolUse
            } else {
                StopReason::EndTurn
            }),
            usage,
        };
        self.last = Some(self.t.push(self.last, pending.at, item));
        self.last_response = self.last;
    }

    /// The name of the tool call `id` among the responses so far.
    fn tool_name(&self, id: &str) -> Option<String> {
        self.t.nodes.iter().rev().find_map(|n| match &n.item {
            Item::Assistant { content, .. } => content.iter().find_map(|b| match b {
                ContentBlock::ToolCall(c) if c.id == id => Some(c.name.clone()),
                _ => None,
            }),
            _ => None,
        })
    }
}

/// Whether a user-role message is context the harness wrote (environment, instructions), not
/// the person: its metadata says so, or its text is one of the harness's tagged blocks.
fn is_harness(p: &Value) -> bool {
    let kinds = p
        .get("internal_chat_message_metadata_passthrough")
        .and_then(|m| m.get("content_item_kinds"))
        .and_then(Value::as_array);
    if let Some(kinds) = kinds {
        return !kinds.iter().any(|k| k.as_str() == Some("user.text"));
    }
    let text = text_of(p.get("content"));
    let text = text.trim_start();
    [
        "<environment_context>",
        "<user_instructions>",
        "# AGENTS.md",
    ]
    .iter()
    .any(|tag| text.starts_with(tag))
}

/// Smith's usage from an OpenAI-shaped record, whose input includes the tokens read from and
/// written to the cache (Smith's excludes both).
fn usage(u: &Value) -> Usage {
    let input = count(u.get("input_tokens"));
    let cached = count(u.get("cached_input_tokens"));
    let written = count(u.get("cache_write_input_tokens"));
    Usage {
        input: input.map(|i| {
            i.saturating_sub(cached.unwrap_or(0))
                .saturating_sub(written.unwrap_or(0))
        }),
        output: count(u.get("output_tokens")),
        cache_read: cached,
        cache_write: written,
    }
}
