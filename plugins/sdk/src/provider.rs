//! Provider plugins (the `provider-plugin` world): a pure codec between Smith's
//! provider-neutral request and events and a vendor's wire format. Implement [`Guest`] (the
//! request encoder and the error decoder) and [`GuestDecoder`] (the streaming decoder), and
//! export them with [`export_provider_plugin!`](crate::export_provider_plugin).
//!
//! Requests and events cross the boundary as JSON text of the [`smith`] types re-exported
//! here ([`ProviderRequest`], [`StreamEvent`]); [`parse_request`] and [`events`] do the
//! conversions.

#[doc(hidden)]
pub mod generated {
    wit_bindgen::generate!({
        path: "../wit",
        world: "provider-plugin",
        pub_export_macro: true,
        export_macro_name: "export_provider_plugin",
        default_bindings_module: "smith_plugin_sdk::provider::generated",
    });
}

pub use generated::exports::smith::plugin::codec::{Guest, GuestDecoder, HttpRequest};
pub use smith::{
    ContentBlock, ContextItem, Message, ProviderError, ProviderErrorKind, ProviderRequest, Role,
    StopReason, StreamEvent, ThinkingLevel, ToolCall, ToolDefinition, ToolResult, Usage,
};

/// The request the host sent, parsed.
///
/// # Errors
/// A description when the JSON is not a provider request (a host defect).
pub fn parse_request(json: &str) -> Result<ProviderRequest, String> {
    serde_json::from_str(json).map_err(|e| format!("the request is not a provider request: {e}"))
}

/// The provider options the host added to the request (`options`: from the user's
/// configuration, e.g. `provider.openai.api`), name to value.
pub fn request_options(json: &str) -> std::collections::BTreeMap<String, String> {
    let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    value
        .get("options")
        .and_then(serde_json::Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
                .collect()
        })
        .unwrap_or_default()
}

/// Events as the JSON text the host expects.
pub fn events(list: Vec<StreamEvent>) -> Vec<String> {
    list.iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default())
        .collect()
}

/// A provider error as the JSON text `decode-error` returns.
pub fn error_json(kind: ProviderErrorKind, message: impl Into<String>) -> String {
    serde_json::to_string(&ProviderError::new(kind, message)).unwrap_or_default()
}

/// The start of an error body for a message when its JSON names no message: its first 300
/// bytes as text, trimmed, or `(no body)`.
pub fn body_excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(300)])
        .trim()
        .to_owned();
    if text.is_empty() {
        "(no body)".to_owned()
    } else {
        text
    }
}

/// Whether an error `message` says the request's context does not fit the model's window, in
/// the words the vendors document or send (matched case-insensitively):
///
/// - Anthropic: `prompt is too long: 208310 tokens > 200000 maximum` (Messages API errors,
///   `invalid_request_error`);
/// - OpenAI and vLLM: `This model's maximum context length is 128000 tokens…` (code
///   `context_length_exceeded`), Responses: `Your input exceeds the context window of this
///   model`;
/// - Gemini: `The input token count (1200000) exceeds the maximum number of tokens allowed
///   (1048576)`;
/// - llama.cpp server: `the request exceeds the available context size` (type
///   `exceed_context_size_error`); others: `context length exceeded`.
pub fn says_context_overflow(message: &str) -> bool {
    const PHRASES: [&str; 7] = [
        "prompt is too long",
        "maximum context length",
        "context_length_exceeded",
        "context length exceeded",
        "exceeds the context window",
        "exceeds the maximum number of tokens allowed",
        "exceeds the available context size",
    ];
    let lower = message.to_ascii_lowercase();
    PHRASES.iter().any(|p| lower.contains(p))
}

/// The usual class of an HTTP status: 429 rate limited, 401/403 auth, 404 unavailable,
/// other 4xx invalid, 5xx transient.
pub fn status_kind(status: u16) -> ProviderErrorKind {
    match status {
        429 => ProviderErrorKind::RateLimited,
        401 | 403 => ProviderErrorKind::Auth,
        404 => ProviderErrorKind::Unavailable,
        400..=499 => ProviderErrorKind::InvalidRequest,
        500..=599 => ProviderErrorKind::Transient,
        _ => ProviderErrorKind::Other,
    }
}
