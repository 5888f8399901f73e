//! Messages, content blocks, tool calls and tool results.

use serde::{Deserialize, Serialize};

/// Who authored a message. Tool results are not messages: they are [`ToolResult`]s paired to
/// the assistant's [`ToolCall`] by call id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The person (or script) driving the agent.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The lowercase wire name: `user` or `assistant`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// A call the model asks the runtime to make: a provider-assigned id that pairs it with its
/// [`ToolResult`], the tool name as the model wrote it, and the arguments as a JSON value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call id, unique within its message; pairs the call with its result.
    pub id: String,
    /// The tool name the model asked for. It may name no active tool.
    pub name: String,
    /// The arguments; validated against the tool's input schema before any effect.
    pub arguments: serde_json::Value,
}

/// One piece of a message's content, in the order the model produced it. Its wire form is a
/// map tagged by `type` (`text`, `thinking`, `tool_call`, `image`); it is read in one pass when
/// `type` comes first (`content_de.rs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// Visible text.
    Text {
        /// The text, UTF-8.
        text: String,
    },
    /// Model reasoning shown separately from the answer.
    Thinking {
        /// The reasoning text, UTF-8 (empty for redacted reasoning).
        text: String,
        /// The vendor's opaque signature of the reasoning (or, when `redacted`, its encrypted
        /// content), sent back unchanged on the next request to the same model. Absent when
        /// the vendor gave none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signature: Option<String>,
        /// The vendor withheld the reasoning: `signature` carries it encrypted, `text` is
        /// empty.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        redacted: bool,
    },
    /// A tool call.
    ToolCall(ToolCall),
    /// An image in a user message, sent only to models whose catalog record says image
    /// input.
    Image(Image),
}

/// An image's bytes as a provider takes them: its media type and its base64 encoding
/// (RFC 4648 §4, with padding), which every vendor's request carries as is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Image {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp` (see [`Image::sniff`]).
    pub media_type: String,
    /// The image bytes, base64-encoded.
    pub data: String,
}

impl Image {
    /// The media types images may have: the formats every supported vendor accepts.
    pub const MEDIA_TYPES: [&'static str; 4] =
        ["image/png", "image/jpeg", "image/gif", "image/webp"];

    /// The media type of `bytes` by their signature and first structure, or `None` for
    /// anything else: PNG `\x89PNG\r\n\x1a\n` then its `IHDR` chunk (33 bytes at least),
    /// JPEG `FF D8 FF`, GIF `GIF87a`/`GIF89a` with its screen descriptor (13 bytes), WebP
    /// `RIFF….WEBP` with a chunk header (20 bytes). A bare signature is not an image.
    pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() >= 33 && &bytes[12..16] == b"IHDR"
        {
            Some("image/png")
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) && bytes.len() >= 4 {
            Some("image/jpeg")
        } else if (bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a"))
            && bytes.len() >= 13
        {
            Some("image/gif")
        } else if bytes.len() >= 20 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some("image/webp")
        } else {
            None
        }
    }

    /// The size of the image's bytes, from the length of `data` (4 characters per 3 bytes,
    /// less the padding); never more than `data` could hold.
    pub fn decoded_len(&self) -> u64 {
        let padding = self
            .data
            .bytes()
            .rev()
            .take(2)
            .filter(|b| *b == b'=')
            .count();
        ((self.data.len() / 4 * 3).saturating_sub(padding)) as u64
    }

    /// `data:` URL of the image (RFC 2397), as OpenAI's APIs take it.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.media_type, self.data)
    }
}

/// A message of the conversation: its role and its content blocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its content, in order.
    pub content: Vec<ContentBlock>,
}

impl Message {
    /// A user message holding one text block.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: vec![ContentBlock::Text { text: text.into() }],
        }
    }

    /// The concatenation of the message's text blocks (thinking and tool calls excluded).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for block in &self.content {
            if let ContentBlock::Text { text } = block {
                out.push_str(text);
            }
        }
        out
    }

    /// The images of the message, in order.
    pub fn images(&self) -> impl Iterator<Item = &Image> {
        self.content.iter().filter_map(|block| match block {
            ContentBlock::Image(image) => Some(image),
            _ => None,
        })
    }

    /// The tool calls of the message, in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.content.iter().filter_map(|block| match block {
            ContentBlock::ToolCall(call) => Some(call),
            _ => None,
        })
    }
}

/// The result of one tool call, paired with it by `call_id`.
///
/// A call that could not run (unknown or inactive tool, invalid arguments, abort before it
/// started) still gets a result with `is_error = true` whose output says why, so that every
/// provider request pairs every call with a result (spec: Agent behavior).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the [`ToolCall`] this answers.
    pub call_id: String,
    /// The tool name from the call.
    pub name: String,
    /// The bounded output text shown to the model.
    pub output: String,
    /// Whether the call failed or did not run.
    pub is_error: bool,
}
