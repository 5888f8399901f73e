//! The OpenAI codec: the Responses API (`POST {base}/responses`) by default, Chat Completions
//! (`POST {base}/chat/completions`) for the models served only there, and either one when the
//! request's option `api` says so (the setting `provider.openai.api`). Both stream server-sent events. OpenAI charges nothing to write its
//! prompt cache, so reported usage has a known zero of cache writes; cached input is counted
//! apart from other input, once.
// Natively (the fuzz targets) only the decoder is used; the component exports the rest.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

pub mod responses;

use smith_openai_chat as chat;
use smith_plugin_sdk::decoder::{Resource, Stream};
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderErrorKind, StreamEvent, error_json, parse_request, request_options,
};

struct Codec;

/// Models OpenAI serves through Chat Completions only (its model documentation: the audio and
/// search previews); every other model uses the Responses API unless configured otherwise.
const CHAT_ONLY: &[&str] = &[
    "gpt-4o-audio-preview",
    "gpt-4o-mini-audio-preview",
    "gpt-4o-search-preview",
    "gpt-4o-mini-search-preview",
];

/// Which API a request uses: the option `api` (`provider.openai.api`) when set, else Chat
/// Completions for the chat-only models and Responses for the rest.
fn use_chat(json: &str, model: &str) -> Result<bool, String> {
    match request_options(json).get("api").map(String::as_str) {
        None => Ok(CHAT_ONLY
            .iter()
            .any(|m| model == *m || model.starts_with(&format!("{m}-")))),
        Some("responses") => Ok(false),
        Some("chat") => Ok(true),
        Some(other) => Err(format!(
            "provider.openai.api is `{other}`; use `responses` or `chat`"
        )),
    }
}

impl Guest for Codec {
    type Decoder = Resource<Wire>;

    fn encode_request(json: String) -> Result<HttpRequest, String> {
        let request = parse_request(&json)?;
        let chat = use_chat(&json, &request.model.model)?;
        let (path, mut body) = if chat {
            ("/chat/completions", chat::encode(&request))
        } else {
            ("/responses", responses::encode(&request))
        };
        // OpenAI caches prompt prefixes by itself; a key stable across a conversation's rounds
        // routes them to the same cache (both APIs take `prompt_cache_key`).
        if let (Some(cache), Some(fields)) = (&request.cache, body.as_object_mut()) {
            fields.insert("prompt_cache_key".into(), cache.key.clone().into());
        }
        Ok(HttpRequest {
            method: "POST".into(),
            path: path.into(),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("accept".into(), "text/event-stream".into()),
            ],
            body: serde_json::to_vec(&body).map_err(|e| e.to_string())?,
        })
    }

    fn decode_error(status: u16, body: Vec<u8>) -> String {
        let kind = chat::error_kind(status, &body);
        let detail = chat::error_message(&body);
        let advice = match kind {
            // Authentication failures: the runtime names the credential sent and its source.
            ProviderErrorKind::Unavailable => "; check the model name",
            ProviderErrorKind::RateLimited | ProviderErrorKind::Transient => "; retry in a moment",
            _ => "",
        };
        error_json(
            kind,
            format!("OpenAI answered HTTP {status}: {detail}{advice}"),
        )
    }
}

/// The decoder: which wire format it reads is known from the first bytes — Chat Completions
/// chunks are `chat.completion.chunk` objects, Responses events have a `response.` type.
pub enum Wire {
    /// Not enough bytes yet to tell (kept until they are).
    Unknown(Vec<u8>),
    /// Chat Completions chunks.
    Chat(chat::Stream),
    /// Responses events.
    Responses(responses::Stream),
}

/// Which wire format `text` (the body so far) is, when it can be told: `Some(true)` for Chat
/// Completions (a `{` as the first non-blank character: a body that is not streamed, or a
/// `chat.completion` chunk), `Some(false)` for Responses (a `"response.` type or an
/// `event: response.` line). The earliest sign wins, and a sign counts only once no longer
/// sign could still begin before it in bytes not yet seen (unless the body is `complete`), so
/// the verdict never depends on how the body was split.
fn detect(text: &str, complete: bool) -> Option<bool> {
    const SIGNS: [(&str, bool); 3] = [
        ("\"response.", false),
        ("event: response.", false),
        ("chat.completion", true),
    ];
    let longest = SIGNS.iter().map(|(sign, _)| sign.len()).max().unwrap_or(0);
    let mut earliest: Option<(usize, bool)> = text
        .find(|c: char| !c.is_whitespace())
        .filter(|&i| text[i..].starts_with('{'))
        .map(|i| (i, true));
    for (sign, chat) in SIGNS {
        if let Some(at) = text.find(sign)
            && earliest.is_none_or(|(first, _)| at < first)
        {
            earliest = Some((at, chat));
        }
    }
    let (at, chat) = earliest?;
    (complete || text.len() >= at + longest).then_some(chat)
}

impl Default for Wire {
    /// Nothing read yet: the wire format is told from the first bytes.
    fn default() -> Self {
        Wire::Unknown(Vec::new())
    }
}

impl Stream for Wire {
    fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        match self {
            Wire::Chat(s) => s.push(bytes),
            Wire::Responses(s) => s.push(bytes),
            Wire::Unknown(seen) => {
                seen.extend_from_slice(bytes);
                match detect(&String::from_utf8_lossy(seen), false) {
                    None => Vec::new(),
                    Some(chat) => {
                        let seen = std::mem::take(seen);
                        *self = if chat {
                            Wire::Chat(chat::Stream::new(true))
                        } else {
                            Wire::Responses(responses::Stream::default())
                        };
                        self.push(&seen)
                    }
                }
            }
        }
    }

    fn finish(&mut self) -> Vec<StreamEvent> {
        if let Wire::Unknown(seen) = self {
            let seen = std::mem::take(seen);
            // Told now, from the whole body; too little to tell: read it as Responses, which
            // then reports the cut.
            *self = match detect(&String::from_utf8_lossy(&seen), true) {
                Some(true) => Wire::Chat(chat::Stream::new(true)),
                _ => Wire::Responses(responses::Stream::default()),
            };
            let mut out = self.push(&seen);
            out.extend(self.finish());
            return out;
        }
        match self {
            Wire::Chat(s) => s.finish(),
            Wire::Responses(s) => s.finish(),
            Wire::Unknown(_) => Vec::new(),
        }
    }
}

/// The response decoder, also outside the component (the native fuzz targets feed it).
pub type ResponseStream = Wire;

// The component's exports, only in the component: a native build links several codecs.
#[cfg(target_arch = "wasm32")]
smith_plugin_sdk::export_provider_plugin!(Codec);
