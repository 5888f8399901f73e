//! The Gemini codec: `POST {base}/models/{model}:streamGenerateContent?alt=sse`, each event a
//! `GenerateContentResponse`. Thought parts stream as thinking; a part's `thoughtSignature` is
//! kept and sent back on the same kind of part (the function call, or the text, it came
//! with). Gemini may give function calls no id: they get `gemini-call-N` ids, and results are sent
//! back by function name (and id, when it gave one). The stream has no end marker: the last
//! chunk carries `finishReason`, and a stream without one was cut off.
// Natively (the fuzz targets) only the decoder is used; the component exports the rest.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

pub mod gemini;

use smith_plugin_sdk::decoder::Resource;
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderErrorKind, error_json, parse_request, says_context_overflow,
    status_kind,
};

struct Codec;

impl Guest for Codec {
    type Decoder = Resource<gemini::Stream>;

    fn encode_request(json: String) -> Result<HttpRequest, String> {
        let request = parse_request(&json)?;
        let model = &request.model.model;
        if model.is_empty() || model.contains(['/', '?', '#', ' ']) {
            return Err(format!(
                "`{model}` is not a Gemini model name (e.g. gemini-2.5-flash)"
            ));
        }
        let body = gemini::encode(&request);
        Ok(HttpRequest {
            method: "POST".into(),
            path: format!("/models/{model}:streamGenerateContent?alt=sse"),
            headers: vec![
                ("content-type".into(), "application/json".into()),
                ("accept".into(), "text/event-stream".into()),
            ],
            body: serde_json::to_vec(&body).map_err(|e| e.to_string())?,
        })
    }

    fn decode_error(status: u16, body: Vec<u8>) -> String {
        let (code, detail) = gemini::error_of(&body);
        let kind = match code.as_deref() {
            Some("RESOURCE_EXHAUSTED") => ProviderErrorKind::RateLimited,
            Some("UNAVAILABLE" | "INTERNAL") => ProviderErrorKind::Transient,
            Some("UNAUTHENTICATED" | "PERMISSION_DENIED") => ProviderErrorKind::Auth,
            Some("NOT_FOUND") => ProviderErrorKind::Unavailable,
            Some("INVALID_ARGUMENT") if says_context_overflow(&detail) => {
                ProviderErrorKind::ContextOverflow
            }
            Some("INVALID_ARGUMENT" | "FAILED_PRECONDITION") => ProviderErrorKind::InvalidRequest,
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
            format!("Gemini answered HTTP {status}: {detail}{advice}"),
        )
    }
}

/// The response decoder, also outside the component (the native fuzz targets feed it).
pub type ResponseStream = gemini::Stream;

// The component's exports, only in the component: a native build links several codecs.
#[cfg(target_arch = "wasm32")]
smith_plugin_sdk::export_provider_plugin!(Codec);
