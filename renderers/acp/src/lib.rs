//! Smith's ACP renderer: UI intents as Agent Client Protocol `session/update` notifications
//! (spec: Interface modes; ACP v1, <https://agentclientprotocol.com/protocol/v1>, the wire
//! types of `agent-client-protocol-schema`), the stop reasons a `session/prompt` is answered
//! with, the permission options a question offers, and the session modes.
//!
//! Pure: no I/O. The frontend (`frontends/acp`) writes what this returns through the JSON-RPC
//! framing of `smith-render-jsonrpc`.
//!
//! Each intent kind has one rule ([`Updates::update`]):
//!
//! | intent | update | rule |
//! |---|---|---|
//! | `message_delta` text / thinking | `agent_message_chunk` / `agent_thought_chunk` | each piece |
//! | `message_end` (assistant) | `agent_message_chunk` | only when no delta streamed it |
//! | `message_end` (user) | `user_message_chunk` | a loaded session's history only |
//! | `tool_start` | `tool_call` | kind and title from the tool, its path as location, the diff of an edit or a write |
//! | `tool_update` | `tool_call_update` | the newest output replaces the shown content |
//! | `tool_end` | `tool_call_update` | `completed` or `failed`, the output as content |
//! | `plan` | `plan` | every step (medium priority: Smith's plans have none) |
//! | `context_use`, `usage` | `usage_update` | the window's use, the cost so far in USD |
//! | `transcript_append` | `agent_message_chunk` | its text |
//! | `notice` | `agent_thought_chunk` | errors only, prefixed `error:`; information and warnings are the frontend's log |
//! | `compaction_end` | `agent_thought_chunk` | a one-line account |
//! | requests | — | the frontend asks with `session/request_permission` |
//! | everything else | — | dropped: the editor shows no attempts, receipts, rounds or status |

pub mod modes;

use std::collections::{HashMap, HashSet};

use agent_client_protocol_schema::v1::{
    ContentBlock, ContentChunk, Cost, Diff, Plan, PlanEntry, PlanEntryPriority, PlanEntryStatus,
    SessionUpdate, StopReason, TextContent, ToolCall, ToolCallContent, ToolCallLocation,
    ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, ToolKind, UsageUpdate,
};
use serde_json::Value;
use smith::{PlanItem, PlanStatus, Role};
use smith_ui_intents::{DeltaKind, Intent, NoticeLevel};

/// The protocol version served: ACP v1 (the `initialize` answer names it whatever the client
/// asked for; a client that cannot speak it disconnects).
pub const PROTOCOL_VERSION: u16 = 1;

/// The stop reason a `session/prompt` is answered with for a turn that ended with `reason`.
/// `error` has none: the prompt is answered with an error instead. `budget` (the cost budget
/// stopped the turn) is `max_turn_requests`, the protocol's "a limit stopped the turn".
pub fn stop_reason(reason: smith::StopReason) -> Option<StopReason> {
    Some(match reason {
        smith::StopReason::EndTurn | smith::StopReason::ToolUse => StopReason::EndTurn,
        smith::StopReason::MaxTokens => StopReason::MaxTokens,
        smith::StopReason::Aborted => StopReason::Cancelled,
        smith::StopReason::Budget => StopReason::MaxTurnRequests,
        smith::StopReason::Error => return None,
    })
}

/// The kind of a tool call by its tool's name (the bundled tools'; `other` for the rest, which
/// an editor shows with a generic icon).
pub fn tool_kind(name: &str) -> ToolKind {
    match name {
        "read" | "ls" => ToolKind::Read,
        "write" | "edit" => ToolKind::Edit,
        "find" | "grep" | "docs" | "web_search" => ToolKind::Search,
        "bash" | "nu" => ToolKind::Execute,
        "web_fetch" => ToolKind::Fetch,
        "todo_write" | "todo_read" => ToolKind::Think,
        _ => ToolKind::Other,
    }
}

/// The string argument `key` of a call, if it has one.
fn arg<'a>(arguments: &'a Value, key: &str) -> Option<&'a str> {
    arguments.get(key).and_then(Value::as_str)
}

/// A call's title as an editor lists it: the tool and its main argument (`read src/lib.rs`,
/// `bash: cargo test`), one line, at most 120 characters.
pub fn tool_title(name: &str, arguments: &Value) -> String {
    let subject = [
        "command", "path", "pattern", "url", "query", "search", "get",
    ]
    .iter()
    .find_map(|k| arg(arguments, k));
    let title = match subject {
        Some(s) if name == "bash" => format!("bash: {s}"),
        Some(s) => format!("{name} {s}"),
        None => name.to_owned(),
    };
    let line = title.lines().next().unwrap_or_default();
    if line.chars().count() <= 120 && line.len() == title.len() {
        return title;
    }
    let mut cut: String = line.chars().take(119).collect();
    cut.push('…');
    cut
}

/// What an edit or a write changes, as diff content: a write's whole new text, each of an
/// edit's replacements (`edits: [{old_text, new_text}]`) with the text it replaces.
fn diffs(
    name: &str,
    arguments: &Value,
    absolute: impl Fn(&str) -> std::path::PathBuf,
) -> Vec<ToolCallContent> {
    let Some(path) = arg(arguments, "path").map(absolute) else {
        return Vec::new();
    };
    match name {
        "write" => arg(arguments, "content")
            .map(|c| ToolCallContent::Diff(Diff::new(path.clone(), c)))
            .into_iter()
            .collect(),
        "edit" => arguments
            .get("edits")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let new = arg(e, "new_text")?;
                let old = arg(e, "old_text").map(str::to_owned);
                Some(ToolCallContent::Diff(
                    Diff::new(path.clone(), new).old_text(old),
                ))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Text as tool call content.
fn text_content(text: &str) -> ToolCallContent {
    ToolCallContent::from(ContentBlock::Text(TextContent::new(text)))
}

/// A text chunk.
fn chunk(text: &str) -> ContentChunk {
    ContentChunk::new(ContentBlock::Text(TextContent::new(text)))
}

/// The session's plan as an ACP plan.
pub fn plan(items: &[PlanItem]) -> Plan {
    Plan::new(
        items
            .iter()
            .map(|i| {
                let status = match i.status {
                    PlanStatus::Pending => PlanEntryStatus::Pending,
                    PlanStatus::InProgress => PlanEntryStatus::InProgress,
                    PlanStatus::Completed => PlanEntryStatus::Completed,
                };
                PlanEntry::new(i.content.clone(), PlanEntryPriority::Medium, status)
            })
            .collect(),
    )
}

/// A message's thinking text (its thinking blocks joined).
fn thinking(message: &smith::Message) -> String {
    message
        .content
        .iter()
        .filter_map(|b| match b {
            smith::ContentBlock::Thinking { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether the updates are a live turn's or a loaded session's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A turn running now: the person's prompt is the client's own, never echoed.
    Live,
    /// A session's history streamed back by `session/load`: the person's messages included.
    History,
}

/// The mapping's state for one session's stream of intents: which messages streamed deltas,
/// which tool calls run, and the cost so far.
#[derive(Debug)]
pub struct Updates {
    source: Source,
    /// Messages at least one delta was sent for (their end sends nothing more, unless they
    /// are in `withheld`).
    streamed: HashSet<u64>,
    /// The bytes of text and of thinking sent so far, by message.
    sent: HashMap<u64, (usize, usize)>,
    /// Messages some of whose pieces were withheld while the client was behind: their end
    /// sends what it did not get.
    withheld: HashSet<u64>,
    /// Calls started and not ended, in start order, with their tool name.
    running: Vec<(String, String)>,
    /// Calls started, by id: the tool's name (for the end's diff and kind).
    names: HashMap<String, String>,
    /// The cost of the responses so far, in US dollars; `None` once one is unknown.
    cost_usd: Option<f64>,
    /// The context window's last known use: (used, size) tokens.
    window: Option<(u64, u64)>,
    /// The session's directory: a tool's relative path is shown under it (ACP's locations and
    /// diffs carry absolute paths).
    root: Option<std::path::PathBuf>,
}

impl Updates {
    /// A mapping for intents from `source`.
    pub fn new(source: Source) -> Self {
        Self {
            source,
            streamed: HashSet::new(),
            sent: HashMap::new(),
            withheld: HashSet::new(),
            running: Vec::new(),
            names: HashMap::new(),
            cost_usd: Some(0.0),
            window: None,
            root: None,
        }
    }

    /// The same, with `root` the session's directory: relative paths are shown under it.
    #[must_use]
    pub fn with_root(mut self, root: std::path::PathBuf) -> Self {
        self.root = Some(root);
        self
    }

    /// `path` as an absolute path under the session's directory.
    fn absolute(&self, path: &str) -> std::path::PathBuf {
        match &self.root {
            Some(root) => root.join(path),
            None => std::path::PathBuf::from(path),
        }
    }

    /// The call asking now: the latest started call that has not ended (a batch's calls run
    /// one at a time, so the one whose question arrives is the one running).
    pub fn running_call(&self) -> Option<(&str, &str)> {
        self.running
            .last()
            .map(|(id, name)| (id.as_str(), name.as_str()))
    }

    /// The updates `intent` makes, by the rules in the crate's table (none for most kinds).
    ///
    /// `behind`: the client is not reading (lines wait for it). Then a message's pieces are
    /// withheld and its end sends, in one chunk, the text and thinking the client did not
    /// get, and a running tool's partial output is skipped (its end carries the output):
    /// what the client falls behind on arrives whole, later, and the agent never waits.
    pub fn update(&mut self, intent: &Intent, behind: bool) -> Vec<SessionUpdate> {
        match intent {
            Intent::MessageDelta {
                message_id,
                kind,
                text,
            } => {
                if text.is_empty() {
                    return Vec::new();
                }
                self.streamed.insert(*message_id);
                // Once a piece is withheld, every later piece of the message is too: the end
                // sends the rest after what was sent, in order.
                if behind || self.withheld.contains(message_id) {
                    self.withheld.insert(*message_id);
                    return Vec::new();
                }
                let sent = self.sent.entry(*message_id).or_default();
                vec![match kind {
                    DeltaKind::Text => {
                        sent.0 += text.len();
                        SessionUpdate::AgentMessageChunk(chunk(text))
                    }
                    DeltaKind::Thinking => {
                        sent.1 += text.len();
                        SessionUpdate::AgentThoughtChunk(chunk(text))
                    }
                }]
            }
            Intent::MessageEnd {
                message_id,
                message,
                ..
            } => self.message_end(*message_id, message),
            Intent::ToolStart {
                call_id,
                name,
                arguments,
            } => {
                self.running.push((call_id.clone(), name.clone()));
                self.names.insert(call_id.clone(), name.clone());
                let mut call = ToolCall::new(call_id.clone(), tool_title(name, arguments))
                    .kind(tool_kind(name))
                    .status(ToolCallStatus::InProgress)
                    .content(diffs(name, arguments, |p| self.absolute(p)))
                    .raw_input(arguments.clone());
                if let Some(path) = arg(arguments, "path") {
                    call = call.locations(vec![ToolCallLocation::new(self.absolute(path))]);
                }
                vec![SessionUpdate::ToolCall(call)]
            }
            Intent::ToolUpdate { .. } if behind => Vec::new(),
            Intent::ToolUpdate { call_id, text } => {
                vec![SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                    call_id.clone(),
                    ToolCallUpdateFields::new().content(vec![text_content(text)]),
                ))]
            }
            Intent::ToolEnd {
                call_id,
                output,
                is_error,
                ..
            } => {
                self.running.retain(|(id, _)| id != call_id);
                let status = if *is_error {
                    ToolCallStatus::Failed
                } else {
                    ToolCallStatus::Completed
                };
                let mut content = Vec::new();
                if !output.is_empty() {
                    content.push(text_content(output));
                }
                vec![SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
                    call_id.clone(),
                    ToolCallUpdateFields::new()
                        .status(status)
                        .content(content)
                        .raw_output(Value::String(output.clone())),
                ))]
            }
            Intent::Plan { items } => vec![SessionUpdate::Plan(plan(items))],
            Intent::ContextUse {
                used_tokens: Some(used),
                limit_tokens: Some(size),
            } => {
                self.window = Some((*used, *size));
                vec![self.usage()]
            }
            Intent::Usage { cost_usd, .. } => {
                self.cost_usd = match (self.cost_usd, cost_usd) {
                    (Some(sum), Some(c)) => Some(sum + c),
                    _ => None,
                };
                match self.window {
                    Some(_) => vec![self.usage()],
                    None => Vec::new(),
                }
            }
            Intent::TranscriptAppend { text, .. } if !text.is_empty() => {
                vec![SessionUpdate::AgentMessageChunk(chunk(text))]
            }
            Intent::Notice { level, text } => match level {
                // Information and warnings (an abort requested, a plugin skipped) are the
                // frontend's to log (an editor's agent log), never the conversation.
                NoticeLevel::Info | NoticeLevel::Warning => Vec::new(),
                NoticeLevel::Error => {
                    vec![SessionUpdate::AgentThoughtChunk(chunk(&format!(
                        "error: {text}\n"
                    )))]
                }
            },
            Intent::CompactionEnd { error, summary, .. } => {
                let line = match (error, summary) {
                    (Some(e), _) => format!("compaction failed: {e}\n"),
                    (None, Some(_)) => "the context was compacted into a summary\n".to_owned(),
                    (None, None) => return Vec::new(),
                };
                vec![SessionUpdate::AgentThoughtChunk(chunk(&line))]
            }
            _ => Vec::new(),
        }
    }

    fn message_end(&mut self, id: u64, message: &smith::Message) -> Vec<SessionUpdate> {
        let (sent_text, sent_thinking) = self.sent.remove(&id).unwrap_or_default();
        let withheld = self.withheld.remove(&id);
        if self.streamed.remove(&id) && !withheld {
            return Vec::new();
        }
        let text = message.text();
        match message.role {
            Role::Assistant => {
                // What the client did not get: past what was sent, when that is a prefix.
                let rest = |whole: &str, sent: usize| -> String {
                    whole.get(sent..).unwrap_or(whole).to_owned()
                };
                let mut out = Vec::new();
                let thinking = rest(&thinking(message), sent_thinking);
                if !thinking.is_empty() {
                    out.push(SessionUpdate::AgentThoughtChunk(chunk(&thinking)));
                }
                let text = rest(&text, sent_text);
                if !text.is_empty() {
                    out.push(SessionUpdate::AgentMessageChunk(chunk(&text)));
                }
                out
            }
            Role::User if self.source == Source::History && !text.is_empty() => {
                vec![SessionUpdate::UserMessageChunk(chunk(&text))]
            }
            _ => Vec::new(),
        }
    }

    fn usage(&self) -> SessionUpdate {
        let (used, size) = self.window.unwrap_or_default();
        let update = UsageUpdate::new(used, size);
        SessionUpdate::UsageUpdate(match self.cost_usd {
            Some(c) => update.cost(Cost::new(c, "USD")),
            None => update,
        })
    }
}

#[cfg(test)]
mod tests;
