//! What the catalog commands of every frontend list, in one structured form: the models the
//! installed providers serve ([`model_records`]) and the tools a run from a directory is
//! offered ([`tool_records`]). The CLI prints them as lines or JSON; `smith rpc` returns them.

use serde::Serialize;
use smith::ToolRegistry as _;

use crate::{App, Models, ProcessRefusal, RegistryError};

/// One model the catalog lists for an installed provider plugin: its record, and whether it
/// is an uncatalogued provider default (a model the provider names but the catalog does not
/// describe).
#[derive(Clone, Debug)]
pub struct ModelRecord<'a> {
    /// The catalog record.
    pub info: &'a smith::ModelInfo,
    /// Whether it is an uncatalogued provider default.
    pub default: bool,
}

impl ModelRecord<'_> {
    /// The JSON form: `provider`, `id`, `uncatalogued_default`, then the record's own fields
    /// (as `smith models --json` prints them; reference: `docs/models.md`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut head = serde_json::Map::new();
        head.insert("provider".into(), self.info.model.provider.clone().into());
        head.insert("id".into(), self.info.model.model.clone().into());
        head.insert("uncatalogued_default".into(), self.default.into());
        if let Ok(serde_json::Value::Object(mut rest)) = serde_json::to_value(self.info) {
            rest.remove("model");
            head.extend(rest);
        }
        serde_json::Value::Object(head)
    }
}

/// The catalog's models of the installed provider plugins, catalogued ones first.
pub fn model_records<'a>(models: &'a Models, app: &App) -> Vec<ModelRecord<'a>> {
    let providers = app.registry.provider_ids();
    models
        .catalog
        .models()
        .map(|info| ModelRecord {
            info,
            default: false,
        })
        .chain(models.catalog.defaults().map(|info| ModelRecord {
            info,
            default: true,
        }))
        .filter(|r| providers.contains(&r.info.model.provider))
        .collect()
}

/// One active tool: where it comes from, its schema, and whether a run from the directory it
/// was listed for offers it to the model (and why not).
#[derive(Clone, Debug, Serialize)]
pub struct ToolRecord {
    /// The tool's name.
    pub name: String,
    /// The plugin that contributes it.
    pub plugin: String,
    /// Its description, as the model sees it.
    pub description: String,
    /// Its input JSON Schema.
    pub input_schema: serde_json::Value,
    /// Whether a run from the directory offers it.
    pub offered: bool,
    /// Why it is withheld there (a grant the directory does not give).
    pub withheld: Option<String>,
}

/// The tools of the enabled plugins, as a run from `cwd` (when given) would offer them under
/// the user's policy, a process refusal worded by `words`.
///
/// # Errors
/// [`RegistryError`]: a plugin could not be loaded, or the policy could not be decided.
pub fn tool_records(
    app: &App,
    cwd: Option<&std::path::Path>,
    words: &dyn Fn(&ProcessRefusal) -> String,
) -> Result<Vec<ToolRecord>, RegistryError> {
    let host = app.load_plugins(|_| true)?;
    let mut loadout = host.loadout();
    if let Some(cwd) = cwd {
        loadout = loadout.with_policy(app.policy(cwd, words)?);
    }
    let withheld = loadout.withheld();
    Ok(loadout
        .tools()
        .into_iter()
        .map(|(plugin, definition)| {
            let why = withheld
                .iter()
                .find(|w| w.name == definition.name)
                .map(|w| w.why.clone());
            ToolRecord {
                name: definition.name.clone(),
                plugin: plugin.to_string(),
                description: definition.description.clone(),
                input_schema: definition.input_schema.clone(),
                offered: why.is_none(),
                withheld: why,
            }
        })
        .collect())
}

/// One known plugin as `smith plugins list --json` prints it: id, version, world, grants,
/// state (`active` or `disabled`, with `disabled_by`), what it contributes (`tools`, the
/// `dynamic_tools` prefix, `handlers`, `provider`), its origin, and
/// the grants a run from the listed directory refuses it (`process`: that run's process
/// policy).
pub fn plugin_record(
    registry: &crate::registry::Registry,
    plugin: &crate::registry::Known,
    process: &smith_host::ProcessPolicy,
) -> serde_json::Value {
    use serde_json::json;
    let m = &plugin.manifest;
    let grants: Vec<String> = m.grants.iter().map(ToString::to_string).collect();
    let disabled_by = registry.disabled_by(plugin);
    let state = if disabled_by.is_some() {
        "disabled"
    } else {
        "active"
    };
    let mut record = json!({
        "id": m.id,
        "version": m.version,
        "world": m.built_world(),
        "grants": grants,
        "net_hosts": m.net_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "state": state,
        "tools": m.tools,
        // The prefix of the tools it finds at run time (`dynamic-tools`), if it does.
        "dynamic_tools": m.dynamic.as_ref().map(|d| &d.prefix),
        "handlers": m.handlers,
        "provider": m.provider.as_ref().map(|p| json!({
            "id": p.id,
            "base_url": p.base_url,
            "api_key_env": p.api_key.as_ref().map(|k| k.env.clone()),
            "api_key_required": p.api_key.as_ref().is_some_and(|k| k.required),
        })),
        "origin": plugin.origin(),
        // The settings it declares (`plugin.ID.NAME`) and the tools withheld without each.
        "settings": m.settings.iter().map(|d| json!({
            "key": format!("plugin.{}.{}", m.id, d.name),
            "doc": d.doc,
            "needed_by": m.tool_needs.iter().filter(|(_, s)| **s == d.name).map(|(t, _)| t).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    if let Some(by) = &disabled_by {
        record["disabled_by"] = json!(by);
    }
    if let (true, smith_host::ProcessPolicy::Refused(why)) = (
        m.grants.contains(&smith_host::grants::Grant::ProcessExec),
        process,
    ) {
        record["refused_grants"] = json!([{"grant": "process.exec", "why": why}]);
    }
    if let (true, smith_host::ProcessPolicy::AskFirst(why)) = (
        m.grants.contains(&smith_host::grants::Grant::ProcessExec),
        process,
    ) {
        record["asked_grants"] = json!([{"grant": "process.exec", "why": why}]);
    }
    record
}

/// Every setting key `config show` lists: the schema's (without patterns) and every resolved
/// one, sorted.
pub fn setting_keys(resolved: &smith_config::Resolved) -> Vec<String> {
    let mut keys: Vec<String> = smith_config::SCHEMA
        .iter()
        .filter(|s| !s.key.contains('*'))
        .map(|s| s.key.to_owned())
        .collect();
    keys.extend(resolved.iter().map(|(k, _)| k.clone()));
    keys.sort();
    keys.dedup();
    keys
}

/// One setting as `smith config show --json` prints it: key, value, source (with level and
/// origin) and the values it overrides; `null`s when nothing sets it.
pub fn setting_record(key: &str, resolved: &smith_config::Resolved) -> serde_json::Value {
    use serde_json::json;
    match resolved.get(key) {
        Some(v) => json!({
            "key": key,
            "value": v.value,
            "source": v.source.to_string(),
            "level": v.source.level,
            "origin": v.source.origin,
            "overridden": v.overridden.iter().map(ToString::to_string).collect::<Vec<_>>(),
        }),
        None => json!({"key": key, "value": null, "source": null, "level": null}),
    }
}
