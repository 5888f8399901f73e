//! The secret proxy's one-time handoff through a real wasm component: a plugin that mints a
//! secret registers it with the `secrets.register` grant, and from then on the shared
//! registry every holder reads redacts it; without the grant, or with a name or value the proxy
//! refuses, nothing is registered.

mod common;

use common::{Fixture, cache, source};
use serde_json::json;
use smith_host::{Host, Limits, PluginSource, Policy};

const TOKEN: &str = "minted-token-5f1e2d3c4b5a6978";

fn loadout_with(manifest: &'static str, secrets: &smith_secrets::Shared) -> smith_host::Loadout {
    let sources = [PluginSource {
        manifest,
        ..source(&smith_plugins::SECRET_MAKER)
    }];
    let host = Host::load(&sources, &cache(), Limits::default()).unwrap();
    host.loadout().with_policy(Policy {
        secrets: secrets.clone(),
        ..Policy::default()
    })
}

#[test]
fn a_granted_plugin_hands_over_a_secret_that_every_holder_then_redacts() {
    let f = Fixture::new();
    let secrets = smith_secrets::Shared::default();
    let tools = loadout_with(smith_plugins::SECRET_MAKER.manifest, &secrets);
    let out = f.call(&tools, "mint", json!({}));
    assert!(!out.is_error, "{}", out.output);
    assert!(out.output.contains("⟦secret:MINTED⟧"), "{}", out.output);
    // The output the plugin returned still holds the value; every holder of the registry now
    // replaces it.
    assert!(out.output.contains(TOKEN));
    let redacted = secrets.current().redact(&out.output).into_owned();
    assert!(!redacted.contains(TOKEN), "{redacted}");
    let (added, seen) = secrets.added_since(0);
    assert_eq!(seen, 1);
    assert_eq!(added[0].name, "MINTED");
    assert_eq!(added[0].source, "plugin:secret-maker@0.1.0");
    assert_eq!(added[0].label.as_deref(), Some("a token mint created"));
    // A name the proxy refuses is refused, and nothing more is registered.
    let out = f.call(&tools, "mint", json!({"name": "not a name"}));
    assert!(
        out.is_error && out.output.contains("not valid"),
        "{}",
        out.output
    );
    assert_eq!(secrets.added_since(0).1, 1);
}

#[test]
fn without_the_grant_a_plugin_cannot_hand_over_a_secret() {
    let f = Fixture::new();
    let secrets = smith_secrets::Shared::default();
    let manifest = "plugin \"secret-maker\" {\n    version \"0.1.0\"\n    world \"tool-plugin@1.2.0\"\n    tool \"mint\"\n}\n";
    let tools = loadout_with(manifest, &secrets);
    let out = f.call(&tools, "mint", json!({}));
    assert!(out.is_error, "{}", out.output);
    assert!(out.output.contains("secrets.register"), "{}", out.output);
    assert!(secrets.current().is_empty());
}
