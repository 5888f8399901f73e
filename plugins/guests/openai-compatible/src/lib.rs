//! The OpenAI-compatible Chat Completions codec (`POST {base}/chat/completions`, streamed as
//! server-sent events) for local and third-party servers; the wire format and its quirks are
//! in `smith-openai-chat`. Cache-write usage is unknown here (servers do not report it).
// Natively (the fuzz targets) only the decoder is used; the component exports the rest.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use smith_openai_chat as chat;

use smith_plugin_sdk::decoder::Resource;
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderErrorKind, error_json, parse_request,
};

struct Codec;

impl Guest for Codec {
    type Decoder = Resource<chat::Stream>;

    fn encode_request(request: String) -> Result<HttpRequest, String> {
        let request = parse_request(&request)?;
        let body = chat::encode(&request);
        Ok(HttpRequest {
            method: "POST".into(),
            path: "/chat/completions".into(),
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
            ProviderErrorKind::Unavailable => {
                "; check the model name and provider.openai-compatible.base-url (it usually ends in /v1)"
            }
            ProviderErrorKind::RateLimited | ProviderErrorKind::Transient => "; retry in a moment",
            _ => "",
        };
        error_json(
            kind,
            format!("the OpenAI-compatible server answered HTTP {status}: {detail}{advice}"),
        )
    }
}

/// The response decoder, also outside the component (the native fuzz targets feed it).
pub type ResponseStream = chat::Stream;

// The component's exports, only in the component: a native build links several codecs.
#[cfg(target_arch = "wasm32")]
smith_plugin_sdk::export_provider_plugin!(Codec);
