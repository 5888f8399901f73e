//! From a selection to its route: aliases and groups resolved offline (models.kdl), each
//! physical model checked for a catalog record, each provider's credential accounts in a
//! fixed order (its plugin's environment variable, then the auth file's key, then the auth
//! file's named accounts), and each candidate bound to its provider plugin and transport —
//! the script player for `scripted` (its built-in script, or `--script FILE`), else the HTTP
//! engine with its base URL (`provider.<id>.base-url`, else the plugin's default). Key values
//! are never printed.

use std::collections::BTreeMap;
use std::sync::Arc;

use sha2::Digest;
use smith::{ModelRef, Routing, Selection, ThinkingLevel};
use smith_agent::{Candidate, Route};
use smith_config::Value;
use smith_host::{Loadout, Manifest, ProviderSetup};

use crate::exit::CliError;
use crate::models::Models;
use crate::registry::Known;
use crate::settings::Loaded;

/// What a route is built from.
pub(crate) struct RouteInput<'a> {
    pub(crate) loaded: &'a Loaded,
    pub(crate) plugins: &'a [Known],
    pub(crate) loadout: &'a Loadout,
    pub(crate) models: &'a Models,
    pub(crate) selection: &'a Selection,
    pub(crate) thinking: Option<ThinkingLevel>,
    pub(crate) script: Option<&'a std::path::Path>,
}

/// The physical models `selection` resolves to, in failover order (no plugin loaded).
///
/// # Errors
/// A usage error listing every routing problem (cycles, ambiguity, unknown names).
pub(crate) fn targets(
    models: &Models,
    selection: &Selection,
) -> Result<Vec<smith_ai::routing::Target>, CliError> {
    models
        .routes
        .resolve(&selection.to_string())
        .map_err(|e| CliError::usage(e.to_string()))
}

/// Build the route of `input.selection`.
///
/// # Errors
/// A usage error when no candidate remains — naming, for each physical model, why (unknown
/// or disabled provider, no catalog record, a key variable holding a control character) — or
/// when `--script` names a provider other than the scripted one.
pub(crate) fn route(input: &RouteInput<'_>) -> Result<Route<'static>, CliError> {
    let targets = targets(input.models, input.selection)?;
    let scripted_id = smith_ai::scripted::PROVIDER_ID;
    if input.script.is_some() && targets.iter().any(|t| t.model.provider != scripted_id) {
        let model = targets
            .iter()
            .find(|t| t.model.provider != scripted_id)
            .map(|t| t.model.clone())
            .unwrap_or_else(|| targets[0].model.clone());
        return Err(CliError::usage(
            smith_ai::ResolveError::ScriptNeedsScripted { model }.to_string(),
        ));
    }
    let known = crate::registry::provider_ids(input.plugins);
    let mut passed_over: Vec<String> = Vec::new();
    let mut candidates = Vec::new();
    for target in targets {
        let model = &target.model;
        let id = model.provider.as_str();
        let Some(manifest) = input.loadout.provider_manifest(id) else {
            passed_over.push(if id == scripted_id {
                format!("{model}: the scripted provider's plugin `scripted` is disabled (by --disable-plugin or plugins.scripted.enabled); enable it to run scripted models")
            } else {
                format!(
                    "{model}: unknown provider `{id}`; known providers: {}. Try `--model scripted/demo`",
                    if known.is_empty() {
                        "none (every provider plugin is disabled)".to_owned()
                    } else {
                        known.join(", ")
                    }
                )
            });
            continue;
        };
        let Some(info) = input.models.catalog.get(model) else {
            passed_over.push(format!(
                "{model}: not in the model catalog (no bundled record, none in models.kdl, and plugin {} declares nothing for models it does not list), so nothing is known of its limits, tools or prices and Smith sends it nothing; `smith models` lists the known models, or declare it in {}: model \"{model}\" {{ tools #true }}",
                manifest.label(),
                crate::models::user_file()
                    .map_or("models.kdl".to_owned(), |p| p.display().to_string())
            ));
            continue;
        };
        let generation = generation(input.plugins, manifest);
        let routing = Routing {
            source: target.source,
            path: target.path.clone(),
            position: 0,
            of: 0,
            skipped: Vec::new(),
        };
        for account in accounts(input.loaded, manifest, &mut passed_over)? {
            let provider = bind(input, manifest, model, account.key)?;
            candidates.push(Candidate {
                model: model.clone(),
                account: account.label,
                routing: routing.clone(),
                capabilities: Some(info.clone()),
                generation: generation.clone(),
                provider,
            });
        }
    }
    if candidates.is_empty() {
        return Err(CliError::usage(if passed_over.len() == 1 {
            passed_over.remove(0)
        } else {
            format!(
                "no model of `{}` can be used: {}",
                input.selection,
                passed_over.join("; ")
            )
        }));
    }
    // Models passed over here are routing decisions too: the first attempt records them.
    if let Some(first) = candidates.first_mut() {
        first.routing.skipped = passed_over;
    }
    Ok(Route::new(
        input.selection.clone(),
        input.thinking,
        candidates,
    ))
}

/// `id@version#` and the first 12 hex digits of the SHA-256 of the plugin's component: the
/// generation that encodes and decodes the requests.
fn generation(plugins: &[Known], manifest: &Manifest) -> String {
    let digest = crate::registry::component(plugins, &manifest.id)
        .map(|bytes| {
            let hash = sha2::Sha256::digest(bytes);
            hash.iter()
                .take(6)
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        })
        .unwrap_or_default();
    format!("{}#{digest}", manifest.label())
}

/// One account of a provider's bucket: its label (never its secret) and the secret sent.
struct Account {
    label: Option<String>,
    key: Option<String>,
}

/// The credential accounts of `manifest`'s provider, in order: the environment variable its
/// plugin declares (`env:VAR`), the auth file's key (`auth-file`), then the auth file's named
/// accounts — a renewable one renewed first when it has expired (an account that cannot be
/// renewed is passed over, with why, into `passed_over`). A provider that takes no key, or
/// has none set, gets one account-less candidate (the plugin then refuses a required key
/// before sending).
fn accounts(
    loaded: &Loaded,
    manifest: &Manifest,
    passed_over: &mut Vec<String>,
) -> Result<Vec<Account>, CliError> {
    let Some(declared) = manifest.provider.as_ref().and_then(|p| p.api_key.as_ref()) else {
        return Ok(vec![Account {
            label: None,
            key: None,
        }]);
    };
    let mut out = Vec::new();
    let mut unusable = false;
    let id = manifest.provider.as_ref().map_or("", |p| p.id.as_str());
    let variable = key_variable(loaded, id, &declared.env);
    if let Some(key) = std::env::var(&variable).ok().filter(|v| !v.is_empty()) {
        if key.chars().any(char::is_control) {
            return Err(CliError::usage(format!(
                "{variable} holds a control character (a newline?), which no request header can carry; set it to the key alone"
            )));
        }
        out.push(Account {
            label: Some(format!("env:{variable}")),
            key: Some(key),
        });
    }
    if let Some(path) = crate::paths::auth_file() {
        let setting = |name: &str| match loaded
            .resolved
            .get(&format!("provider.{id}.{name}"))
            .map(|v| &v.value)
        {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let endpoint = setting("token-url").map(|url| smith_ai::credentials::TokenEndpoint {
            url,
            client_id: setting("client-id"),
        });
        for (label, secret) in crate::auth_file::accounts(&path, id)? {
            let secret = match &secret {
                crate::auth_file::Secret::Renewable(r)
                    if r.needs_renewal(crate::auth_file::now()) =>
                {
                    match crate::auth_file::renew(&path, id, &label, endpoint.as_ref()) {
                        Ok(renewed) => renewed,
                        Err(e) => {
                            // Said now, and recorded in the first attempt's routing.
                            crate::exit::report(&format!("warning: {}", e.message));
                            passed_over.push(e.message);
                            unusable = true;
                            continue;
                        }
                    }
                }
                _ => secret,
            };
            out.push(Account {
                label: Some(label),
                key: Some(secret.value().to_owned()),
            });
        }
    }
    // No secret at all: one keyless candidate (the plugin refuses a required key before
    // sending). Secrets that could not be renewed: no candidate, and the reason is kept.
    if out.is_empty() && !unusable {
        out.push(Account {
            label: None,
            key: None,
        });
    }
    Ok(out)
}

/// The environment variable provider `id`'s key is read from: `provider.ID.api-key-env` when
/// configured (explicit configuration), else the one its plugin declares.
pub(crate) fn key_variable(loaded: &Loaded, id: &str, declared: &str) -> String {
    match loaded
        .resolved
        .get(&format!("provider.{id}.api-key-env"))
        .map(|v| &v.value)
    {
        Some(Value::String(name)) if !name.is_empty() => name.clone(),
        _ => declared.to_owned(),
    }
}

/// The provider plugin of `manifest` bound to `key` and its transport.
fn bind(
    input: &RouteInput<'_>,
    manifest: &Manifest,
    model: &ModelRef,
    api_key: Option<String>,
) -> Result<Box<dyn smith::Provider>, CliError> {
    let id = model.provider.as_str();
    let setup = if id == smith_ai::scripted::PROVIDER_ID {
        // The scripted codec's transport plays the script: the built-in one the model names,
        // or `--script FILE`.
        let player = smith_ai::scripted::load(model, input.script)
            .map_err(|e| CliError::usage(e.to_string()))?;
        ProviderSetup {
            base_url: "script:".to_owned(),
            api_key: None,
            transport: Arc::new(smith_ai::scripted::ScriptTransport::new(player)),
            options: BTreeMap::new(),
        }
    } else {
        let decl = manifest.provider.clone().ok_or_else(|| {
            CliError::usage(format!("plugin {} provides no provider", manifest.label()))
        })?;
        let setting = |name: &str| match input
            .loaded
            .resolved
            .get(&format!("provider.{id}.{name}"))
            .map(|v| &v.value)
        {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        let mut options = BTreeMap::new();
        if let Some(api) = setting("api") {
            options.insert("api".to_owned(), api);
        }
        ProviderSetup {
            base_url: setting("base-url").unwrap_or(decl.base_url),
            api_key,
            transport: Arc::new(smith_ai::http::HttpEngine::default()),
            options,
        }
    };
    input
        .loadout
        .provider(id, setup)
        .map(|p| Box::new(p) as Box<dyn smith::Provider>)
        .map_err(|e| CliError::usage(e.to_string()))
}
