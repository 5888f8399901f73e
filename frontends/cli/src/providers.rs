//! Choosing the provider a model selection names: a provider plugin bound to its transport —
//! the script player for `scripted` (its built-in script, or `--script FILE`), else the HTTP
//! engine with its base URL (`provider.<id>.base-url`, else the plugin's default)
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
    let scripted = id == smith_ai::scripted::PROVIDER_ID;
    if script.is_some() && !scripted {
        return Err(CliError::usage(
            smith_ai::ResolveError::ScriptNeedsScripted {
                model: model.clone(),
            }
            .to_string(),
        ));
    }
    if loadout.provider_manifest(id).is_none() {
        return Err(CliError::usage(if scripted {
            "the scripted provider's plugin `scripted` is disabled (by --disable-plugin or plugins.scripted.enabled); enable it to run scripted models".to_owned()
        } else {
            format!(
                "unknown provider `{id}` in model `{model}`; known providers: {}. Try `--model scripted/demo`",
                if known.is_empty() {
                    "none (every provider plugin is disabled)".to_owned()
                } else {
                    known.join(", ")
                }
            )
        }));
    }
    if scripted {
        // The scripted codec's transport plays the script: the built-in one the model names,
        // or `--script FILE`.
        let player =
            smith_ai::scripted::load(model, script).map_err(|e| CliError::usage(e.to_string()))?;
        let setup = ProviderSetup {
            base_url: "script:".to_owned(),
            api_key: None,
            transport: std::sync::Arc::new(smith_ai::scripted::ScriptTransport::new(player)),
            options: std::collections::BTreeMap::new(),
        };
        return loadout
            .provider(id, setup)
            .map(|p| Box::new(p) as Box<dyn smith::Provider>)
            .map_err(|e| CliError::usage(e.to_string()));
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
    if let (Some(key), Some(declared)) = (&api_key, &decl.api_key)
        && key.chars().any(char::is_control)
    {
        return Err(CliError::usage(format!(
            "{} holds a control character (a newline?), which no request header can carry; set it to the key alone",
            declared.env
        )));
    }
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
        transport: std::sync::Arc::new(smith_ai::http::HttpEngine::default()),
        options,
    };
    loadout
        .provider(id, setup)
        .map(|p| Box::new(p) as Box<dyn smith::Provider>)
        .map_err(|e| CliError::usage(e.to_string()))
}
