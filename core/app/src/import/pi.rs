//! pi sessions (`~/.pi/agent/sessions/--CWD--/TIME_ID.jsonl`, format version 3, as pi 0.73
//! writes it): a `session` header, then entries with 8-digit `id` and `parentId` forming a
//! tree — `message` (roles `user`, `assistant`, `toolResult`), `model_change` and others. The
//! current branch ends at the last entry.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use smith::{ContentBlock, StopReason, ToolCall, ToolResult, Usage};

use super::{ImportError, Item, Line, LineSource, Transcript, count, millis, model_ref, text_of};

/// The format versions read.
const SUPPORTED: &str = "versions 2 and 3";

pub(super) fn read(path: &Path, lines: &mut LineSource<'_>) -> Result<Transcript, ImportError> {
    let mut t = Transcript::new("pi");
    let Some(header) = lines.next() else {
        return Err(ImportError::Empty {
            path: path.to_owned(),
        });
    };
    let header = header?.value;
    let version = header.get("version").and_then(Value::as_u64).unwrap_or(0);
    if !(2..=3).contains(&version) {
        return Err(ImportError::UnsupportedVersion {
            path: path.to_owned(),
            format: "pi",
            version: header
                .get("version")
                .map_or_else(String::new, Value::to_string),
            supported: SUPPORTED,
        });
    }
    t.version = Some(version.to_string());
    t.cwd = header.get("cwd").and_then(Value::as_str).map(str::to_owned);
    // Entry id → the node it became (or, for an entry that became none, its parent's node).
    let mut nodes: HashMap<String, Option<usize>> = HashMap::new();
    let mut last = None;
    for line in lines {
        let line = line?;
        let line = &line;
        let v = &line.value;
        let id = v
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(path, line, "an entry without an `id`"))?;
        if nodes.contains_key(id) {
            t.drop_one("repeated entries (an id met again)");
            continue;
        }
        let parent = match v.get("parentId").and_then(Value::as_str) {
            None => None,
            Some(p) => match nodes.get(p) {
                Some(node) => *node,
                // A parent the file does not hold (a line lost): it follows the entry before.
                None => {
                    t.drop_one(
                        "links to a parent the file does not hold (followed the entry before)",
                    );
                    last
                }
            },
        };
        let at = millis(v.get("timestamp").and_then(Value::as_str));
        let node = match v.get("type").and_then(Value::as_str) {
            Some("message") => message(&mut t, path, line, parent, at)?,
            Some("model_change" | "thinking_level_change" | "session_info" | "label") => parent,
            Some(other) => {
                t.drop_one(format!("`{other}` entries"));
                parent
            }
            None => return Err(malformed(path, line, "an entry without a `type`")),
        };
        nodes.insert(id.to_owned(), node);
        last = node;
    }
    t.leaf = last;
    Ok(t)
}

fn message(
    t: &mut Transcript,
    path: &Path,
    line: &Line,
    parent: Option<usize>,
    at: Option<i64>,
) -> Result<Option<usize>, ImportError> {
    let m = line
        .value
        .get("message")
        .ok_or_else(|| malformed(path, line, "a `message` entry without its `message`"))?;
    let item = match m.get("role").and_then(Value::as_str) {
        Some("user") => {
            if let Some(Value::Array(parts)) = m.get("content") {
                let images = parts
                    .iter()
                    .filter(|p| p.get("type").and_then(Value::as_str) == Some("image"))
                    .count();
                t.drop_many("images in prompts", images);
            }
            Item::User {
                text: text_of(m.get("content")),
            }
        }
        Some("assistant") => assistant(t, m),
        Some("toolResult") => Item::ToolResult(ToolResult {
            call_id: str_of(m, "toolCallId"),
            name: str_of(m, "toolName"),
            output: text_of(m.get("content")),
            is_error: m.get("isError").and_then(Value::as_bool).unwrap_or(false),
        }),
        Some(other) => {
            t.drop_one(format!("`{other}` messages"));
            return Ok(parent);
        }
        None => return Err(malformed(path, line, "a message without a `role`")),
    };
    Ok(Some(t.push(parent, at, item)))
}

fn assistant(t: &mut Transcript, m: &Value) -> Item {
    let mut content = Vec::new();
    for part in m
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match part.get("type").and_then(Value::as_str) {
            Some("text") => content.push(ContentBlock::Text {
                text: str_of(part, "text"),
            }),
            Some("thinking") => content.push(ContentBlock::Thinking {
                text: str_of(part, "thinking"),
                signature: None,
                redacted: false,
            }),
            Some("toolCall") => content.push(ContentBlock::ToolCall(ToolCall {
                id: str_of(part, "id"),
                name: str_of(part, "name"),
                arguments: part.get("arguments").cloned().unwrap_or(Value::Null),
            })),
            Some(other) => t.drop_one(format!("`{other}` parts of responses")),
            None => t.drop_one("untyped parts of responses"),
        }
    }
    let usage = m.get("usage").map(|u| Usage {
        input: count(u.get("input")),
        output: count(u.get("output")),
        cache_read: count(u.get("cacheRead")),
        cache_write: count(u.get("cacheWrite")),
    });
    let stop_reason = match m.get("stopReason").and_then(Value::as_str) {
        Some("toolUse") => Some(StopReason::ToolUse),
        Some("stop") => Some(StopReason::EndTurn),
        Some("length") => Some(StopReason::MaxTokens),
        Some("aborted") => Some(StopReason::Aborted),
        Some("error") => Some(StopReason::Error),
        _ => None,
    };
    let model = match (
        m.get("provider").and_then(Value::as_str),
        m.get("model").and_then(Value::as_str),
    ) {
        (Some(p), Some(id)) => model_ref(p, id),
        _ => None,
    };
    Item::Assistant {
        content,
        model,
        stop_reason,
        usage,
    }
}

fn str_of(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn malformed(path: &Path, line: &Line, reason: &str) -> ImportError {
    ImportError::Malformed {
        path: path.to_owned(),
        line: line.number,
        reason: format!("{reason} (pi session format)"),
    }
}
