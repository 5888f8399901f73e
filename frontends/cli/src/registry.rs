//! The plugin registry of one command: which plugins load (bundled ones, minus those disabled
//! by `--disable-plugin` or `plugins.ID.enabled`), the user's process policy (project trust,
//! `process.allow`), and `smith tools list` / `smith plugins list`.

use std::path::Path;

use serde_json::json;
use smith_config::Value;
use smith_host::{Host, Manifest, Policy, ProcessLimits, ProcessPolicy};

use crate::cli::{Global, PluginsArgs, PluginsCommand, ToolsArgs, ToolsCommand};
use crate::exit::{self, CliError};
use crate::paths;
use crate::settings::{Loaded, write_stdout};

/// A plugin this Smith knows, with its manifest and, when disabled, the setting's source.
pub(crate) struct Known {
    bundled: &'static smith_plugins::BundledPlugin,
    manifest: Manifest,
    disabled_by: Option<String>,
}

/// Every known plugin, each marked enabled or disabled by the resolved settings.
///
/// # Errors
/// `--disable-plugin` naming no known plugin (exit 2, with the known ids); a bundled manifest
/// that does not parse (a defect of the build).
pub(crate) fn known(loaded: &mut Loaded) -> Result<Vec<Known>, CliError> {
    let mut plugins = Vec::new();
    for bundled in smith_plugins::BUNDLED {
        let manifest = Manifest::parse(bundled.manifest, bundled.origin).map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!("{e}; this is a defect of this Smith build — please report it"),
            )
        })?;
        plugins.push(Known {
            bundled,
            manifest,
            disabled_by: None,
        });
    }
    let ids: Vec<String> = plugins.iter().map(|p| p.manifest.id.clone()).collect();
    for (key, value) in loaded.resolved.iter() {
        let Some(id) = key
            .strip_prefix("plugins.")
            .and_then(|k| k.strip_suffix(".enabled"))
        else {
            continue;
        };
        match plugins.iter_mut().find(|p| p.manifest.id == id) {
            Some(p) => {
                if value.value == Value::Bool(false) {
                    p.disabled_by = Some(value.source.to_string());
                }
            }
            None => {
                let message = format!(
                    "{}: no plugin `{id}` is installed; the known plugins are {}",
                    value.source,
                    ids.join(", ")
                );
                // An explicit flag is a mistake to stop at; a file entry may outlive a plugin.
                if matches!(value.source.origin, smith_config::Origin::Flag { .. }) {
                    return Err(CliError::usage(message));
                }
                loaded
                    .notices
                    .push(format!("{message}; the setting has no effect"));
            }
        }
    }
    Ok(plugins)
}

/// The manifests of the enabled plugins, in registry order.
pub(crate) fn enabled(plugins: &[Known]) -> impl Iterator<Item = &Manifest> {
    plugins
        .iter()
        .filter(|p| p.disabled_by.is_none())
        .map(|p| &p.manifest)
}

/// The component bytes of plugin `id`, if known.
pub(crate) fn component(plugins: &[Known], id: &str) -> Option<&'static [u8]> {
    plugins
        .iter()
        .find(|p| p.manifest.id == id)
        .map(|p| p.bundled.component)
}

/// Load the enabled plugins through the shared compile cache.
///
/// # Errors
/// A plugin that does not load (for bundled plugins, a defect of the build).
pub(crate) fn load(plugins: &[Known]) -> Result<Host, CliError> {
    load_where(plugins, |_| true)
}

/// The providers (of enabled plugins) that take an API key, with how, in load order.
pub(crate) fn api_keys(plugins: &[Known]) -> Vec<(String, smith_host::manifest::ApiKey)> {
    plugins
        .iter()
        .filter(|p| p.disabled_by.is_none())
        .filter_map(|p| p.manifest.provider.as_ref())
        .filter_map(|d| d.api_key.clone().map(|k| (d.id.clone(), k)))
        .collect()
}

/// The ids of the providers the enabled plugins contribute, in load order.
pub(crate) fn provider_ids(plugins: &[Known]) -> Vec<String> {
    plugins
        .iter()
        .filter(|p| p.disabled_by.is_none())
        .filter_map(|p| p.manifest.provider.as_ref().map(|d| d.id.clone()))
        .collect()
}

/// Load the enabled plugins whose manifest `wanted` accepts (a run loads only the provider
/// plugin it uses: each loaded plugin costs start-up time).
///
/// # Errors
/// As [`load`].
pub(crate) fn load_where(
    plugins: &[Known],
    wanted: impl Fn(&Manifest) -> bool,
) -> Result<Host, CliError> {
    let sources: Vec<smith_host::PluginSource<'_>> = plugins
        .iter()
        .filter(|p| p.disabled_by.is_none() && wanted(&p.manifest))
        .map(|p| smith_host::PluginSource {
            origin: p.bundled.origin,
            manifest: p.bundled.manifest,
            component: p.bundled.component,
        })
        .collect();
    let cache = smith_host::CompileCache::new(paths::compile_cache());
    Host::load(&sources, &cache, smith_host::Limits::default()).map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("{e}; this is a defect of this Smith build — please report it"),
        )
    })
}

fn integer(loaded: &Loaded, key: &str, default: i64) -> i64 {
    match loaded.resolved.get(key).map(|v| &v.value) {
        Some(Value::Integer(n)) => *n,
        _ => default,
    }
}

/// The user's policy for tools run from `cwd`: process execution allowed by `process.allow`,
/// else by the project's trust; the process bounds and environment pass-through settings.
///
/// # Errors
/// The trust records cannot be read.
pub(crate) fn policy(loaded: &Loaded, cwd: &Path) -> Result<Policy, CliError> {
    let project = paths::project_of(cwd)
        .or_else(|| cwd.canonicalize().ok())
        .unwrap_or_else(|| cwd.to_owned());
    let shown = project.display().to_string();
    let process = match loaded.resolved.get("process.allow") {
        Some(v) if v.value == Value::Bool(true) => {
            ProcessPolicy::Allowed(format!("process.allow is true ({})", v.source))
        }
        Some(v) => ProcessPolicy::Refused(format!(
            "running programs is switched off: process.allow is false ({}); remove that setting to allow it in trusted projects, or pass --allow-process",
            v.source
        )),
        None => {
            let trust = smith_config::TrustStore::load(&paths::trust_file()?)
                .map_err(|e| CliError::usage(e.to_string()))?;
            if trust.is_trusted(&project) {
                ProcessPolicy::Allowed(format!("the project {shown} is trusted"))
            } else {
                ProcessPolicy::Refused(format!(
                    "running programs is not allowed here: the project {shown} is not trusted. Trust it with `smith trust {shown}`, or allow programs for one command with `--allow-process` (or the setting process.allow=true)"
                ))
            }
        }
    };
    let defaults = ProcessLimits::default();
    let max_timeout = integer(loaded, "process.max-timeout", 600).max(1);
    let output_bytes = integer(loaded, "process.output-limit", 1 << 20).max(1024);
    let max_timeout = std::time::Duration::from_secs(max_timeout.unsigned_abs());
    let mut pass_env = Vec::new();
    if let Some(setting) = loaded.resolved.get("process.pass-env")
        && let Value::String(names) = &setting.value
    {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let valid = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if !valid {
                return Err(CliError::usage(format!(
                    "{}: process.pass-env: `{name}` is not an environment variable name (letters, digits and `_`, not starting with a digit); list names separated by commas, e.g. CARGO_HOME,RUSTUP_HOME",
                    setting.source
                )));
            }
            pass_env.push(name.to_owned());
        }
    }
    Ok(Policy {
        process,
        process_limits: ProcessLimits {
            default_timeout: defaults.default_timeout.min(max_timeout),
            max_timeout,
            output_bytes: usize::try_from(output_bytes).unwrap_or(usize::MAX),
        },
        pass_env,
    })
}

/// `smith tools …`.
pub(crate) fn run_tools(args: ToolsArgs, global: &Global) -> Result<u8, CliError> {
    let ToolsCommand::List { json } = args.command;
    let mut loaded = crate::settings::load(global, &[])?;
    let plugins = known(&mut loaded)?;
    crate::settings::report_notices(&loaded);
    let host = load(&plugins)?;
    let loadout = host.loadout();
    let mut out = String::new();
    for (plugin, definition) in loadout.tools() {
        if json {
            let record = json!({
                "name": definition.name,
                "plugin": plugin,
                "description": definition.description,
                "input_schema": definition.input_schema,
            });
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{}  ({plugin})  {}\n",
                definition.name,
                first_sentence(&definition.description)
            ));
        }
    }
    if out.is_empty() && !json {
        out.push_str("no tools are active: every tool-contributing plugin is disabled\n");
    }
    write_stdout(&smith_render_plain::printable(&out))
}

fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |end| &text[..=end])
}

/// `smith plugins …`.
pub(crate) fn run_plugins(args: PluginsArgs, global: &Global) -> Result<u8, CliError> {
    let PluginsCommand::List { json } = args.command;
    let mut loaded = crate::settings::load(global, &[])?;
    let plugins = known(&mut loaded)?;
    crate::settings::report_notices(&loaded);
    // Loading proves the active ones load; a failure is reported with its plugin.
    load(&plugins)?;
    // Whether `process.exec` would be given to a plugin run from here.
    let cwd = std::env::current_dir().ok();
    let process = match &cwd {
        Some(cwd) => policy(&loaded, cwd)?.process,
        None => ProcessPolicy::Refused("the current directory is not accessible".to_owned()),
    };
    let mut out = String::new();
    for p in &plugins {
        let m = &p.manifest;
        let grants: Vec<String> = m.grants.iter().map(ToString::to_string).collect();
        let state = if p.disabled_by.is_some() {
            "disabled"
        } else {
            "active"
        };
        if json {
            let mut record = json!({
                "id": m.id,
                "version": m.version,
                "world": m.world,
                "grants": grants,
                "state": state,
                "tools": m.tools,
                "handlers": m.handlers,
                "provider": m.provider.as_ref().map(|p| json!({
                    "id": p.id,
                    "base_url": p.base_url,
                    "api_key_env": p.api_key.as_ref().map(|k| k.env.clone()),
                    "api_key_required": p.api_key.as_ref().is_some_and(|k| k.required),
                })),
                "origin": p.bundled.origin,
            });
            if let Some(by) = &p.disabled_by {
                record["disabled_by"] = json!(by);
            }
            if let (true, ProcessPolicy::Refused(why)) = (
                m.grants.contains(&smith_host::grants::Grant::ProcessExec),
                &process,
            ) {
                record["refused_grants"] = json!([{"grant": "process.exec", "why": why}]);
            }
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            let grants = if grants.is_empty() {
                "no grants".to_owned()
            } else {
                grants.join(", ")
            };
            let state = match &p.disabled_by {
                Some(by) => format!("disabled by {by}"),
                None => state.to_owned(),
            };
            let contributes = if let Some(p) = &m.provider {
                format!("provider: {}", p.id)
            } else if m.is_handler() {
                format!("handlers: {}", m.handlers.join(", "))
            } else {
                format!("tools: {}", m.tools.join(", "))
            };
            out.push_str(&format!(
                "{} {}  {}  [{grants}]  {state}  {contributes}\n",
                m.id, m.version, m.world
            ));
            if let (true, ProcessPolicy::Refused(why)) = (
                m.grants.contains(&smith_host::grants::Grant::ProcessExec),
                &process,
            ) {
                out.push_str(&format!("  process.exec is not given here: {why}\n"));
            }
        }
    }
    write_stdout(&smith_render_plain::printable(&out))
}
