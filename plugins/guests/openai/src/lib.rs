//! The OpenAI codec: the Responses API (`POST {base}/responses`) by default, Chat Completions
//! (`POST {base}/chat/completions`) for the models served only there, and either one when the
//! request's option `api` says so (the setting `provider.openai.api`). Both stream server-sent events. OpenAI charges nothing to write its
//! prompt cache, so reported usage has a known zero of cache writes; cached input is counted
//! apart from other input, once.

mod responses;

use smith_openai_chat as chat;
use smith_plugin_sdk::decoder::{Resource, Stream};
use smith_plugin_sdk::export_provider_plugin;
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderErrorKind, StreamEvent, error_json, parse_request, request_options,
    status_kind,
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
        let (path, body) = if chat {
            ("/chat/completions", chat::encode(&request))
        } else {
            ("/responses", responses::encode(&request))
        };
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
        let kind = status_kind(status);
        let detail = chat::error_message(&body);
        let advice = match kind {
            ProviderErrorKind::Auth => "; check OPENAI_API_KEY",
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
enum Wire {
    Unknown(Vec<u8>),
    Chat(chat::Stream),
    Responses(responses::Stream),
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
                let text = String::from_utf8_lossy(seen);
                let kind = if text.contains("\"response.") || text.contains("event: response.") {
                    Some(false)
                } else if text.contains("chat.completion") || text.trim_start().starts_with('{') {
                    Some(true)
                } else {
                    None
                };
                match kind {
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
            // Too little to tell: read it as Responses, which then reports the cut.
            *self = Wire::Responses(responses::Stream::default());
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

export_provider_plugin!(Codec);
