//! `mint`: create a token, hand it to the secret proxy as `MINTED` (the one-time handoff), and
//! return it in the output — which the proxy must then show only as its reference. The
//! argument `name` overrides the name (an invalid one must be refused).

use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, export_tool_plugin, secrets, serde_json, tool,
};

struct SecretMaker;

/// The token `mint` creates (fixed, so tests know what must not appear).
const TOKEN: &str = "minted-token-5f1e2d3c4b5a6978";

impl Guest for SecretMaker {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "mint",
            "Mint a token and register it as a secret",
            r#"{"type":"object","properties":{"name":{"type":"string"}}}"#,
        )]
    }

    fn call(_name: String, args: String, _invocation: Invocation) -> ToolOutput {
        let args: serde_json::Value = serde_json::from_str(&args).unwrap_or_default();
        let name = args["name"].as_str().unwrap_or("MINTED");
        match secrets::register(name, TOKEN, Some("a token mint created")) {
            Ok(reference) => ToolOutput::ok(format!("minted {TOKEN}, registered as {reference}")),
            Err(why) => ToolOutput::error(format!("not registered: {why}")),
        }
    }
}

export_tool_plugin!(SecretMaker);
