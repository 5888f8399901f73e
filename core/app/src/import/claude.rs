//! Claude Code project sessions (`~/.claude/projects/-MANGLED-CWD/UUID.jsonl`, as Claude Code
//! 2.1 writes them): transcript lines (`user`, `assistant`, `attachment`, `system`) linked by
//! `uuid` and `parentUuid` into a tree, and bookkeeping lines without a `uuid` (requests, costs,
//! queue operations) that are not conversation. One model response is written as one line per
//! content block sharing `message.id` (and its usage): they become one response again. The
//! current branch ends at the last `last-prompt` line's `leafUuid`, else at the last line.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use smith::{ContentBlock, StopReason, ToolCall, ToolResult, Usage};

use super::{ImportError, Item, Line, LineSource, Transcript, count, millis, model_ref, text_of};

pub(super) fn read(path: &Path, lines: &mut LineSource<'_>) -> Result<Transcript, ImportError> {
    let mut t = Transcript::new("claude-code");
    // Line uuid → the node it became (or, for a line that became none, its parent's node).
    let mut nodes: HashMap<String, Option<usize>> = HashMap::new();
    // `message.id` → its response node, to join the lines of one response.
    let mut responses: HashMap<String, usize> = HashMap::new();
    // Tool call id → tool name, for the results.
    let mut tools: HashMap<String, String> = HashMap::new();
    let mut leaf_uuid = None;
    let mut last = None;
    // Whether conversation lines follow the last `last-prompt` line (its leaf is then stale).
    let mut after_leaf = false;
    for line in lines {
        let line = line?;
        let line = &line;
        let v = &line.value;
        if t.version.is_none() {
            t.version = v.get("version").and_then(Value::as_str).map(str::to_owned);
        }
        if t.cwd.is_none() {
            t.cwd = v.get("cwd").and_then(Value::as_str).map(str::to_owned);
        }
        let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
        if kind == "last-prompt" {
            leaf_uuid = v.get("leafUuid").and_then(Value::as_str).map(str::to_owned);
            after_leaf = false;
        }
        let Some(uuid) = v.get("uuid").and_then(Value::as_str) else {
            continue;
        };
        if nodes.contains_key(uuid) {
            t.drop_one("repeated lines (a uuid met again)");
            continue;
        }
        after_leaf = true;
        // A compaction boundary starts a new root; its logical parent is where it follows.
        let parent_key = v
            .get("parentUuid")
            .and_then(Value::as_str)
            .or_else(|| v.get("logicalParentUuid").and_then(Value::as_str));
        let parent = match parent_key {
            None => None,
            Some(p) => match nodes.get(p) {
                Some(node) => *node,
                // A parent the file does not hold (a line lost, or a session resumed from
                // another file): it follows the line before it.
                None => {
                    t.drop_one(
                        "links to a parent the file does not hold (followed the line before)",
                    );
                    last
                }
            },
        };
        let at = millis(v.get("timestamp").and_then(Value::as_str));
        let node = if v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            t.drop_one("sub-agent (sidechain) entries");
            parent
        } else {
            match kind {
                "user" if v.get("isMeta").and_then(Value::as_bool) == Some(true) => {
                    t.drop_one("messages the harness added to prompts");
                    parent
                }
                "user" if v.get("isCompactSummary").and_then(Value::as_bool) == Some(true) => {
                    t.drop_one("compaction summaries");
                    parent
                }
                "user" => user(&mut t, path, line, parent, at, &tools)?,
                "assistant" => assistant(&mut t, line, parent, at, &mut responses, &mut tools),
                "attachment" => {
                    t.drop_one("context attachments the harness added");
                    parent
                }
                other => {
                    t.drop_one(format!("`{other}` entries"));
                    parent
                }
            }
        };
        nodes.insert(uuid.to_owned(), node);
        last = node;
    }
    t.leaf = if after_leaf {
        last
    } else {
        leaf_uuid
            .and_then(|u| nodes.get(&u).copied().flatten())
            .or(last)
    };
    Ok(t)
}

fn user(
    t: &mut Transcript,
    path: &Path,
    line: &Line,
    parent: Option<usize>,
    at: Option<i64>,
    tools: &HashMap<String, String>,
) -> Result<Option<usize>, ImportError> {
    let content = line
        .value
        .get("message")
        .and_then(|m| m.get("content"))
        .ok_or_else(|| ImportError::Malformed {
            path: path.to_owned(),
            line: line.number,
            reason: "a `user` line without `message.content` (Claude Code session format)".into(),
        })?;
    let parts = match content {
        Value::String(text) => {
            if text.starts_with("<command-") || text.starts_with("<local-command-") {
                t.drop_one("slash-command records");
                return Ok(parent);
            }
            if text.starts_with("[Request interrupted") {
                t.drop_one("interruption markers");
                return Ok(parent);
            }
            return Ok(Some(t.push(parent, at, Item::User { text: text.clone() })));
        }
        Value::Array(parts) => parts,
        _ => return Ok(parent),
    };
    let mut at_node = parent;
    let mut text = Vec::new();
    for part in parts {
        match part.get("type").and_then(Value::as_str) {
            Some("tool_result") => {
                let call_id = part
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let name = tools.get(&call_id).cloned().unwrap_or_default();
                let result = ToolResult {
                    output: text_of(part.get("content")),
                    is_error: part
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    call_id,
                    name,
                };
                at_node = Some(t.push(at_node, at, Item::ToolResult(result)));
            }
            Some("text") => {
                text.push(part.get("text").and_then(Value::as_str).unwrap_or_default());
            }
            Some(other) => t.drop_one(format!("`{other}` parts of prompts")),
            None => t.drop_one("untyped parts of prompts"),
        }
    }
    let before = text.len();
    text.retain(|t| !t.starts_with("[Request interrupted"));
    t.drop_many("interruption markers", before - text.len());
    if !text.is_empty() {
        let text = text.join("\n");
        at_node = Some(t.push(at_node, at, Item::User { text }));
    }
    Ok(at_node)
}

fn assistant(
    t: &mut Transcript,
    line: &Line,
    parent: Option<usize>,
    at: Option<i64>,
    responses: &mut HashMap<String, usize>,
    tools: &mut HashMap<String, String>,
) -> Option<usize> {
    let Some(m) = line.value.get("message") else {
        t.drop_one("`assistant` lines without a message");
        return parent;
    };
    let mut blocks = Vec::new();
    for part in m
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let s = |key: &str| {
            part.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        match part.get("type").and_then(Value::as_str) {
            Some("text") => blocks.push(ContentBlock::Text { text: s("text") }),
            Some("thinking") => blocks.push(ContentBlock::Thinking {
                text: s("thinking"),
                signature: part
                    .get("signature")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                redacted: false,
            }),
            Some("redacted_thinking") => blocks.push(ContentBlock::Thinking {
                text: String::new(),
                signature: Some(s("data")),
                redacted: true,
            }),
            Some("tool_use") => {
                tools.insert(s("id"), s("name"));
                blocks.push(ContentBlock::ToolCall(ToolCall {
                    id: s("id"),
                    name: s("name"),
                    arguments: part.get("input").cloned().unwrap_or(Value::Null),
                }));
            }
            Some(other) => t.drop_one(format!("`{other}` parts of responses")),
            None => t.drop_one("untyped parts of responses"),
        }
    }
    let id = m.get("id").and_then(Value::as_str).unwrap_or_default();
    let stop = match m.get("stop_reason").and_then(Value::as_str) {
        Some("tool_use") => Some(StopReason::ToolUse),
        Some("end_turn" | "stop_sequence") => Some(StopReason::EndTurn),
        Some("max_tokens") => Some(StopReason::MaxTokens),
        _ => None,
    };
    let line_usage = m.get("usage").map(|u| Usage {
        input: count(u.get("input_tokens")),
        output: count(u.get("output_tokens")),
        cache_read: count(u.get("cache_read_input_tokens")),
        cache_write: count(u.get("cache_creation_input_tokens")),
    });
    // The next block of a response an earlier line began (each line repeats the response's
    // usage, the later ones with the final figures).
    if let Some(&node) = responses.get(id).filter(|_| !id.is_empty())
        && let Item::Assistant {
            content,
            stop_reason,
            usage,
            ..
        } = &mut t.nodes[node].item
    {
        content.extend(blocks);
        if stop.is_some() {
            *stop_reason = stop;
        }
        if line_usage.is_some() {
            *usage = line_usage;
        }
        return parent.max(Some(node));
    }
    let usage = line_usage;
    let model = m
        .get("model")
        .and_then(Value::as_str)
        .filter(|m| !m.starts_with('<'))
        .and_then(|m| model_ref("anthropic", m));
    let node = t.push(
        parent,
        at,
        Item::Assistant {
            content: blocks,
            model,
            stop_reason: stop,
            usage,
        },
    );
    if !id.is_empty() {
        responses.insert(id.to_owned(), node);
    }
    Some(node)
}
