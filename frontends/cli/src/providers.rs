//! Choosing the provider a model selection names: the built-in scripted provider, or a
//! provider plugin bound to its base URL (`provider.<id>.base-url`, else the plugin's default)
//! and its API key (the environment variable its manifest declares, else the auth file). Key
//! values are never printed.

use smith_config::Value;
use smith_host::{Loadout, ProviderSetup};

use crate::exit::CliError;
use crate::settings::Loaded;

/// The provider for `model`: scripted (optionally playing `script`), or a provider plugin of
/// `loadout`.
///
/// # Errors
/// A usage error naming the unknown provider (and the known ones) or the missing key.
pub(crate) fn resolve(
    loaded: &Loaded,
    loadout: &Loadout,
    known: &[String],
    model: &smith::ModelRef,
    script: Option<&std::path::Path>,
) -> Result<Box<dyn smith::Provider>, CliError> {
    let id = model.provider.as_str();
    if id == smith_ai::scripted::PROVIDER_ID
        || script.is_some()
        || loadout.provider_manifest(id).is_none()
    {
        return smith_ai::resolve(model, script).map_err(|e| {
            let mut text = e.to_string();
            if matches!(e, smith_ai::ResolveError::UnknownProvider { .. }) {
                let plugins = known;
                if !plugins.is_empty() {
                    text = format!(
                        "unknown provider `{id}` in model `{model}`; known providers: {}, {}. Try `--model scripted/demo`",
                        smith_ai::PROVIDERS.join(", "),
                        plugins.join(", ")
                    );
                }
            }
            CliError::usage(text)
        });
    }
    let manifest = loadout
        .provider_manifest(id)
        .ok_or_else(|| CliError::usage(format!("unknown provider `{id}`")))?;
    let decl = manifest.provider.clone().ok_or_else(|| {
        CliError::usage(format!("plugin {} provides no provider", manifest.label()))
    })?;
    let base_url = match loaded
        .resolved
        .get(&format!("provider.{id}.base-url"))
        .map(|v| &v.value)
    {
        Some(Value::String(url)) => url.clone(),
        _ => decl.base_url.clone(),
    };
    // The variable the plugin declares first, then the auth file.
    let mut api_key = decl
        .api_key
        .as_ref()
        .and_then(|k| std::env::var(&k.env).ok())
        .filter(|v| !v.is_empty());
    if api_key.is_none()
        && decl.api_key.is_some()
        && let Some(path) = crate::paths::auth_file()
    {
        api_key = crate::auth::key_from(&path, id)?;
    }
    let mut options = std::collections::BTreeMap::new();
    if let Some(Value::String(api)) = loaded
        .resolved
        .get(&format!("provider.{id}.api"))
        .map(|v| &v.value)
    {
        options.insert("api".to_owned(), api.clone());
    }
    let setup = ProviderSetup {
        base_url,
        api_key,
        engine: smith_ai::http::HttpEngine::default(),
        options,
    };
    loadout
        .provider(id, setup)
        .map(|p| Box::new(p) as Box<dyn smith::Provider>)
        .map_err(|e| CliError::usage(e.to_string()))
}
