//! The provider boundary: a normalized request in, a stream of normalized events out.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Cancel, Message, ModelRef, ToolCall, ToolResult, Usage};

/// A tool as the model sees it: name, description and the JSON Schema of its input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The tool name the model calls it by.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema (draft 2020-12) of the call arguments.
    pub input_schema: serde_json::Value,
}

/// One item of the context sent to a provider, in conversation order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContextItem {
    /// A user or assistant message.
    Message(Message),
    /// The result of a tool call of the preceding assistant message.
    ToolResult(ToolResult),
}

/// A provider-neutral request: the dispatched model, instructions, the ordered context and the
/// advertised tool definitions.
///
/// Invariant checked by [`check_pairing`] before dispatch: every tool call of an assistant
/// message is answered by exactly one result, and all of them come right after that message,
/// before any other message (spec: Agent behavior — "tool calls and results remain correctly
/// paired and ordered").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProviderRequest {
    /// The physical model the request is dispatched to.
    pub model: ModelRef,
    /// System instructions, if any.
    pub instructions: Option<String>,
    /// The conversation so far.
    pub context: Vec<ContextItem>,
    /// The tools the model may call.
    pub tools: Vec<ToolDefinition>,
    /// The thinking level to ask for; `None` leaves it to the model's default. Checked against
    /// the dispatched model's catalog record before dispatch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<crate::ThinkingLevel>,
    /// The most output tokens to ask for; `None` leaves it to the provider plugin. Set from
    /// the dispatched model's catalog `output` limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output: Option<u64>,
    /// Prompt caching to ask for; `None` asks for none. Set at dispatch only when the
    /// dispatched model's catalog record advertises cache reads or writes (spec: Model
    /// capabilities — "Provider requests use only advertised capabilities").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<PromptCache>,
}

/// Prompt caching asked of a provider. Each codec uses it in its vendor's form: Anthropic
/// marks cache breakpoints on the stable prefix (`cache_control`), OpenAI routes requests by
/// `prompt_cache_key`, Gemini caches implicitly and is sent nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptCache {
    /// A key stable across the rounds of one conversation (the session id), for vendors
    /// that route requests to caches by key. Never a secret.
    pub key: String,
}

/// Bytes of text per estimated token in [`ProviderRequest::estimated_input_tokens`]: the usual
/// figure for English prose; code and other languages run fewer bytes per token, so the
/// estimate tends low and a refusal from it is a clear overflow.
pub const BYTES_PER_TOKEN: u64 = 4;

/// Tokens counted per image in the estimate: Anthropic's figure for an image at the largest
/// size it keeps (about 1.15 megapixels).
pub const TOKENS_PER_IMAGE: u64 = 1600;

impl ProviderRequest {
    /// An estimate of the request's input tokens made before encoding, in linear time and no
    /// allocation: [`BYTES_PER_TOKEN`] bytes per token of the instructions, every text,
    /// thinking, tool call (name and arguments) and tool result, and the tool definitions,
    /// plus [`TOKENS_PER_IMAGE`] per image.
    pub fn estimated_input_tokens(&self) -> u64 {
        let mut bytes = self.instructions.as_ref().map_or(0, String::len) as u64;
        let mut images = 0u64;
        for item in &self.context {
            let (b, i) = item.estimated_parts();
            bytes += b;
            images += i;
        }
        for tool in &self.tools {
            bytes +=
                (tool.name.len() + tool.description.len() + json_len(&tool.input_schema)) as u64;
        }
        bytes.div_ceil(BYTES_PER_TOKEN) + images * TOKENS_PER_IMAGE
    }

    /// The text of the last user message in the context, if any.
    pub fn last_user_text(&self) -> Option<String> {
        self.context.iter().rev().find_map(|item| match item {
            ContextItem::Message(m) if m.role == crate::Role::User => Some(m.text()),
            _ => None,
        })
    }
}

impl ContextItem {
    /// An estimate of the item's input tokens, as [`ProviderRequest::estimated_input_tokens`]
    /// counts it: [`BYTES_PER_TOKEN`] bytes per token of its texts, thinking, tool calls and
    /// tool output, plus [`TOKENS_PER_IMAGE`] per image.
    pub fn estimated_tokens(&self) -> u64 {
        let (bytes, images) = self.estimated_parts();
        bytes.div_ceil(BYTES_PER_TOKEN) + images * TOKENS_PER_IMAGE
    }

    /// The bytes the estimate counts, and the images.
    fn estimated_parts(&self) -> (u64, u64) {
        match self {
            ContextItem::Message(m) => {
                m.content
                    .iter()
                    .fold((0, 0), |(bytes, images), block| match block {
                        crate::ContentBlock::Text { text } => (bytes + text.len() as u64, images),
                        crate::ContentBlock::Thinking {
                            text, signature, ..
                        } => (
                            bytes + (text.len() + signature.as_ref().map_or(0, String::len)) as u64,
                            images,
                        ),
                        crate::ContentBlock::ToolCall(c) => (
                            bytes + (c.name.len() + json_len(&c.arguments)) as u64,
                            images,
                        ),
                        crate::ContentBlock::Image(_) => (bytes, images + 1),
                    })
            }
            ContextItem::ToolResult(r) => ((r.name.len() + r.output.len()) as u64, 0),
        }
    }
}

/// The length of `value` as compact JSON, counted without building the text.
fn json_len(value: &serde_json::Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Why a model response ended. Wire names are snake_case (`end_turn`, `tool_use`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The model asks for its tool calls to be run.
    ToolUse,
    /// The model hit its output limit.
    MaxTokens,
    /// The work was cancelled.
    Aborted,
    /// The provider failed.
    Error,
    /// The turn stopped before a request that would have taken its cost past its budget
    /// (the `run.max-cost` setting; the hooks-and-budget issue).
    Budget,
}

impl StopReason {
    /// The snake_case wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::MaxTokens => "max_tokens",
            StopReason::Aborted => "aborted",
            StopReason::Error => "error",
            StopReason::Budget => "budget",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The class of a provider failure; it decides retry and failover policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderErrorKind {
    /// HTTP 429 or the vendor's equivalent.
    RateLimited,
    /// A transport failure that may succeed when retried.
    Transient,
    /// The request was refused as invalid; retrying it cannot help.
    InvalidRequest,
    /// The model or endpoint does not exist or is unavailable.
    Unavailable,
    /// Credentials are missing, wrong or expired.
    Auth,
    /// The request's context (input plus the output asked for) does not fit the model's context
    /// window; the same request cannot succeed, a shorter context (compaction) or a model with
    /// a larger window can. Mapped by each codec from its vendor's documented error shapes.
    ContextOverflow,
    /// The stream broke the provider's wire format or ended without a terminal event.
    Malformed,
    /// Anything else the provider reported.
    Other,
}

/// A provider failure: its class and a message that says what happened and what to do.
/// Never contains credential values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct ProviderError {
    /// The failure class.
    pub kind: ProviderErrorKind,
    /// What happened, why, and the next corrective action.
    pub message: String,
}

impl ProviderError {
    /// An error of `kind` with `message`.
    pub fn new(kind: ProviderErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// One normalized event of a provider response stream.
///
/// A well-formed stream is any number of deltas, tool calls and usage reports followed by
/// exactly one terminal event ([`StreamEvent::Stop`] or [`StreamEvent::Error`]). The runtime
/// enforces this: a stream that ends without a terminal fails as
/// [`ProviderErrorKind::Malformed`], and nothing after the first terminal is read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    /// A piece of visible text.
    TextDelta {
        /// The text piece.
        text: String,
    },
    /// A piece of thinking.
    ThinkingDelta {
        /// The text piece.
        text: String,
    },
    /// The signature of the thinking just streamed (it ends that thinking block).
    ThinkingSignature {
        /// The vendor's opaque signature, to be sent back unchanged.
        signature: String,
    },
    /// Reasoning the vendor withheld: its encrypted content, to be sent back unchanged.
    RedactedThinking {
        /// The opaque data.
        data: String,
    },
    /// A complete tool call, arguments assembled.
    ToolCall(ToolCall),
    /// Usage for the response; a later report replaces an earlier one.
    Usage(Usage),
    /// Terminal: the response ended for `reason`.
    Stop {
        /// Why it ended.
        reason: StopReason,
    },
    /// Terminal: the provider failed.
    Error(ProviderError),
}

impl StreamEvent {
    /// Whether this event ends the stream.
    pub fn is_terminal(&self) -> bool {
        matches!(self, StreamEvent::Stop { .. } | StreamEvent::Error(_))
    }
}

/// A response stream: a blocking iterator of events. It may block while the provider waits
/// for bytes (or, for the scripted provider, for a gate) and must observe the request's
/// [`Cancel`] at every such wait.
pub type EventStream<'a> = Box<dyn Iterator<Item = StreamEvent> + Send + 'a>;

/// The provider boundary: turns a normalized request into a stream of normalized events.
///
/// Implementations own everything vendor-specific (wire format, endpoints, credentials); the
/// runtime sees only this trait. `stream` returns `Err` when the request cannot be sent at all
/// (for example a script that has no round left); failures after that arrive as a terminal
/// [`StreamEvent::Error`].
pub trait Provider: Send + Sync {
    /// The provider id, as in `provider/model`.
    fn id(&self) -> &str;

    /// Start one response for `request`, observing `cancel` at every wait.
    ///
    /// # Errors
    /// A [`ProviderError`] when the request cannot be dispatched.
    fn stream<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<EventStream<'a>, ProviderError>;
}

/// A context that breaks the tool call/result pairing rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// A tool call has no result before the next message (or the end of the context).
    #[error(
        "tool call `{call_id}` of context item {index} has no result before the next message; every call must be answered by a tool result"
    )]
    Unanswered {
        /// The unanswered call id.
        call_id: String,
        /// Index of the assistant message in the context.
        index: usize,
    },
    /// A tool result answers no pending call of the preceding assistant message.
    #[error(
        "tool result for `{call_id}` at context item {index} answers no pending call of the preceding assistant message"
    )]
    Orphan {
        /// The result's call id.
        call_id: String,
        /// Index of the result in the context.
        index: usize,
    },
    /// Two calls of one message share an id.
    #[error(
        "tool call id `{call_id}` appears twice in context item {index}; call ids must be unique"
    )]
    DuplicateCall {
        /// The repeated id.
        call_id: String,
        /// Index of the assistant message.
        index: usize,
    },
}

/// Check that every tool call is answered by exactly one result placed right after its
/// message and before any other message, and that no result is orphaned.
///
/// # Errors
/// The first [`PairingError`] found, scanning in order.
pub fn check_pairing(context: &[ContextItem]) -> Result<(), PairingError> {
    let mut pending: Vec<String> = Vec::new();
    let mut pending_from = 0usize;
    for (index, item) in context.iter().enumerate() {
        match item {
            ContextItem::Message(message) => {
                if let Some(call_id) = pending.first() {
                    return Err(PairingError::Unanswered {
                        call_id: call_id.clone(),
                        index: pending_from,
                    });
                }
                let mut seen = HashSet::new();
                for call in message.tool_calls() {
                    if !seen.insert(call.id.as_str()) {
                        return Err(PairingError::DuplicateCall {
                            call_id: call.id.clone(),
                            index,
                        });
                    }
                    pending.push(call.id.clone());
                }
                pending_from = index;
            }
            ContextItem::ToolResult(result) => {
                match pending.iter().position(|id| *id == result.call_id) {
                    Some(at) => {
                        pending.remove(at);
                    }
                    None => {
                        return Err(PairingError::Orphan {
                            call_id: result.call_id.clone(),
                            index,
                        });
                    }
                }
            }
        }
    }
    match pending.first() {
        Some(call_id) => Err(PairingError::Unanswered {
            call_id: call_id.clone(),
            index: pending_from,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ContentBlock, Role};

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolCall(ToolCall {
            id: id.into(),
            name: "read".into(),
            arguments: serde_json::json!({}),
        })
    }

    fn assistant(blocks: Vec<ContentBlock>) -> ContextItem {
        ContextItem::Message(Message {
            role: Role::Assistant,
            content: blocks,
        })
    }

    fn result(id: &str) -> ContextItem {
        ContextItem::ToolResult(ToolResult {
            call_id: id.into(),
            name: "read".into(),
            output: String::new(),
            is_error: true,
        })
    }

    fn user() -> ContextItem {
        ContextItem::Message(Message::user_text("hi"))
    }

    #[test]
    fn paired_context_passes() {
        let ctx = vec![
            user(),
            assistant(vec![call("a"), call("b")]),
            result("b"),
            result("a"),
            assistant(vec![]),
        ];
        assert_eq!(check_pairing(&ctx), Ok(()));
    }

    #[test]
    fn message_between_call_and_result_fails() {
        let ctx = vec![user(), assistant(vec![call("a")]), user(), result("a")];
        assert!(matches!(
            check_pairing(&ctx),
            Err(PairingError::Unanswered { index: 1, .. })
        ));
    }

    #[test]
    fn unanswered_at_end_fails() {
        let ctx = vec![user(), assistant(vec![call("a")])];
        assert!(matches!(
            check_pairing(&ctx),
            Err(PairingError::Unanswered { .. })
        ));
    }

    #[test]
    fn orphan_and_duplicate_fail() {
        assert!(matches!(
            check_pairing(&[user(), result("x")]),
            Err(PairingError::Orphan { index: 1, .. })
        ));
        assert!(matches!(
            check_pairing(&[assistant(vec![call("a"), call("a")])]),
            Err(PairingError::DuplicateCall { .. })
        ));
        assert!(matches!(
            check_pairing(&[assistant(vec![call("a")]), result("a"), result("a")]),
            Err(PairingError::Orphan { index: 2, .. })
        ));
    }
}
