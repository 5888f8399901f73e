//! What the codec tests share: the bundled provider plugins loaded alone, a provider bound to
//! a loopback server, a small request, fixtures, and the body a server received.

use smith::{Cancel, ContextItem, Message, ModelRef, ProviderRequest, StreamEvent, ToolDefinition};
use smith_ai::http::{Bounds, HttpEngine};
use smith_ai::loopback;
use smith_host::{Host, Limits, PluginProvider, ProviderSetup};

pub fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(path),
    )
    .unwrap()
}

pub fn host() -> Host {
    host_with(Limits::default())
}

pub fn host_with(limits: Limits) -> Host {
    let sources: Vec<_> = smith_plugins::BUNDLED
        .iter()
        .filter(|p| {
            ["anthropic", "openai", "google"]
                .iter()
                .any(|v| p.origin.contains(v))
        })
        .map(super::source)
        .collect();
    Host::load(&sources, &super::cache(), limits).unwrap()
}

pub fn provider(host: &Host, id: &str, url: &str, key: Option<&str>) -> PluginProvider {
    host.loadout()
        .provider(
            id,
            ProviderSetup {
                base_url: url.to_owned(),
                api_key: key.map(str::to_owned),
                transport: std::sync::Arc::new(HttpEngine::new(Bounds::default())),
                options: Default::default(),
                redactor: Default::default(),
            },
        )
        .unwrap()
}

pub fn request(model: &str) -> ProviderRequest {
    ProviderRequest {
        model: model.parse::<ModelRef>().unwrap(),
        instructions: Some("Be brief.".into()),
        context: vec![ContextItem::Message(Message::user_text("Hi"))],
        tools: vec![ToolDefinition {
            name: "read".into(),
            description: "Read a file.".into(),
            input_schema: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        thinking: None,
        max_output: None,
        cache: None,
    }
}

/// Stream `req` through `p` to its end and return the JSON body `server` received.
pub fn sent_body(
    p: &PluginProvider,
    server: &loopback::Server,
    req: &ProviderRequest,
) -> serde_json::Value {
    let _: Vec<StreamEvent> = smith::Provider::stream(p, req, &Cancel::new())
        .unwrap()
        .collect();
    let raw = server.request().unwrap();
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    serde_json::from_slice(&raw[at + 4..]).unwrap()
}
