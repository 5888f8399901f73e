//! The Anthropic Messages codec (`POST {base}/v1/messages`, streamed as server-sent events:
//! `message_start`, `content_block_start` / `_delta` / `_stop`, `message_delta`,
//! `message_stop`, `ping`, `error`). Thinking blocks keep their signatures, and redacted
//! thinking its data, and both are sent back unchanged; tool results pair with their call by
//! `tool_use_id`.
// Natively (the fuzz targets) only the decoder is used; the component exports the rest.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

pub mod messages;

use smith_plugin_sdk::decoder::Resource;
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderErrorKind, error_json, parse_request, says_context_overflow,
    status_kind,
};

/// The API version every request names (Anthropic's `anthropic-version` header).
const API_VERSION: &str = "2023-06-01";

struct Codec;

impl Guest for Codec {
    type Decoder = Resource<messages::Stream>;

    fn encode_request(request: String) -> Result<HttpRequest, String> {
        let request = parse_request(&request)?;
        let body = messages::encode(&request);
        Ok(HttpRequest {
            method: "POST".into(),
            path: "/v1/messages".into(),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("anthropic-version".into(), API_VERSION.into()),
                ("accept".into(), "text/event-stream".into()),
            ],
            body: serde_json::to_vec(&body).map_err(|e| e.to_string())?,
        })
    }

    fn decode_error(status: u16, body: Vec<u8>) -> String {
        let (kind_name, detail) = messages::error_of(&body);
        let kind = match kind_name.as_deref() {
            Some("rate_limit_error") => ProviderErrorKind::RateLimited,
            Some("overloaded_error" | "api_error") => ProviderErrorKind::Transient,
            Some("authentication_error" | "permission_error") => ProviderErrorKind::Auth,
            Some("not_found_error") => ProviderErrorKind::Unavailable,
            Some("invalid_request_error") if says_context_overflow(&detail) => {
                ProviderErrorKind::ContextOverflow
            }
            Some("invalid_request_error" | "request_too_large") => {
                ProviderErrorKind::InvalidRequest
            }
            _ => status_kind(status),
        };
        let advice = match kind {
            // Authentication failures: the runtime names the credential sent and its source.
            ProviderErrorKind::Unavailable => "; check the model name",
            ProviderErrorKind::RateLimited | ProviderErrorKind::Transient => "; retry in a moment",
            _ => "",
        };
        error_json(
            kind,
            format!("Anthropic answered HTTP {status}: {detail}{advice}"),
        )
    }
}

/// The response decoder, also outside the component (the native fuzz targets feed it).
pub type ResponseStream = messages::Stream;

// The component's exports, only in the component: a native build links several codecs.
#[cfg(target_arch = "wasm32")]
smith_plugin_sdk::export_provider_plugin!(Codec);
