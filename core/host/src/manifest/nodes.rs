//! The parsers of a manifest's nodes that carry more than one string: `tool` (hints, output
//! schema), `event` (with `read-only=#false`), the provider's fields; and the id and file-name
//! rules. [`super::Manifest::parse`] puts them together.

use super::{ApiKey, POLICY_EVENTS, ProviderDecl, ToolHints};

/// A parsed `tool` node.
pub(super) struct ToolNode {
    pub(super) name: String,
    pub(super) hints: ToolHints,
    pub(super) output_schema: Option<serde_json::Value>,
    /// The setting it needs (`needs-setting="NAME"`): offered only when the user set it.
    pub(super) needs_setting: Option<String>,
}

/// A `tool "NAME" [read-only=#true] [destructive=…] [idempotent=…] [open-world=…]
/// [output-schema=#"{…}"#] [needs-setting="SETTING"]` node.
pub(super) fn tool_node(node: &kdl::KdlNode) -> Result<ToolNode, String> {
    let mut name = None;
    let mut hints = ToolHints::default();
    let mut output_schema = None;
    let mut needs_setting = None;
    for entry in node.entries() {
        match entry.name().map(|n| n.value()) {
            None if name.is_none() => {
                name = Some(entry.value().as_string().ok_or_else(|| {
                    "`tool` takes the tool's name as a string, e.g. tool \"read\"".to_owned()
                })?);
            }
            None => return Err("`tool` takes one name".to_owned()),
            Some("output-schema") => {
                output_schema = Some(output_schema_of(entry.value())?);
            }
            Some("needs-setting") => {
                let setting = entry.value().as_string().ok_or(
                    "tool property `needs-setting` takes the name of a setting the manifest declares, e.g. needs-setting=\"search-url\"",
                )?;
                needs_setting = Some(setting.to_owned());
            }
            Some(key) => {
                let value = entry
                    .value()
                    .as_bool()
                    .ok_or_else(|| format!("tool property `{key}` takes #true or #false"))?;
                let slot = match key {
                    "read-only" => &mut hints.read_only,
                    "destructive" => &mut hints.destructive,
                    "idempotent" => &mut hints.idempotent,
                    "open-world" => &mut hints.open_world,
                    other => {
                        return Err(format!(
                            "unknown tool property `{other}`; known: read-only, destructive, idempotent, open-world, output-schema, needs-setting"
                        ));
                    }
                };
                *slot = Some(value);
            }
        }
    }
    let name = name.ok_or_else(|| "`tool` takes the tool's name, e.g. tool \"read\"".to_owned())?;
    Ok(ToolNode {
        name: name.to_owned(),
        hints,
        output_schema,
        needs_setting,
    })
}

/// A `setting "NAME" doc="…"` node: a value the user gives the plugin as `plugin.ID.NAME`.
pub(super) fn setting_node(node: &kdl::KdlNode) -> Result<super::SettingDecl, String> {
    let mut name = None;
    let mut doc = None;
    for entry in node.entries() {
        match entry.name().map(|n| n.value()) {
            None if name.is_none() => name = entry.value().as_string().map(str::to_owned),
            Some("doc") if doc.is_none() => doc = entry.value().as_string().map(str::to_owned),
            _ => {
                return Err(
                    "`setting` takes a name and a `doc` string, e.g. setting \"search-url\" doc=\"The search endpoint's URL\"".to_owned(),
                );
            }
        }
    }
    let name = name.ok_or("`setting` takes the setting's name, e.g. setting \"search-url\"")?;
    if !valid_id(&name) {
        return Err(format!(
            "setting `{}` is not a setting name: lowercase letters, digits and `-`, at most 64",
            name.escape_debug()
        ));
    }
    let doc = doc.ok_or_else(|| {
        format!("setting `{name}` needs a `doc` string saying what it is, for `smith plugins` and the error a missing one gets")
    })?;
    Ok(super::SettingDecl { name, doc })
}

/// An `event "NAME"` node, with `read-only=#false` (only on `before-effect`): the event, and
/// whether read-only effects reach it.
pub(super) fn event_node(node: &kdl::KdlNode) -> Result<(String, bool), String> {
    let mut event = None;
    let mut reads = true;
    for entry in node.entries() {
        match entry.name().map(|n| n.value()) {
            None if event.is_none() => event = entry.value().as_string().map(str::to_owned),
            Some("read-only") => {
                reads = entry
                    .value()
                    .as_bool()
                    .ok_or("event property `read-only` takes #true or #false")?;
            }
            _ => {
                return Err(
                    "`event` takes one event name and, on `before-effect`, `read-only=#false`, e.g. event \"before-effect\" read-only=#false".to_owned(),
                );
            }
        }
    }
    let event = event.ok_or("`event` takes the event's name, e.g. event \"before-tool\"")?;
    if !POLICY_EVENTS.contains(&event.as_str()) {
        return Err(format!(
            "event `{event}` is not one a policy plugin takes; the events are {}",
            POLICY_EVENTS.join(", ")
        ));
    }
    if !reads && event != "before-effect" {
        return Err(format!(
            "`read-only=#false` belongs to event \"before-effect\", not `{event}`"
        ));
    }
    Ok((event, reads))
}

/// An `output-schema` value: JSON text of a valid JSON Schema whose `type` is `object` (MCP
/// requires structured content to be an object).
fn output_schema_of(value: &kdl::KdlValue) -> Result<serde_json::Value, String> {
    let text = value.as_string().ok_or(
        "tool property `output-schema` takes a JSON Schema as a string, e.g. output-schema=#\"{\"type\":\"object\"}\"#",
    )?;
    let schema: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("tool property `output-schema` is not JSON: {e}"))?;
    if schema.get("type").and_then(serde_json::Value::as_str) != Some("object") {
        return Err(
            "tool property `output-schema` must be an object schema (`\"type\": \"object\"`): structured results are JSON objects".to_owned(),
        );
    }
    jsonschema::validator_for(&schema)
        .map_err(|e| format!("tool property `output-schema` is not a valid JSON Schema: {e}"))?;
    Ok(schema)
}

/// A plain file name: no path separators, no `.`/`..`, no control characters, at most 255
/// bytes.
pub(super) fn valid_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == '\\' || c.is_control())
}

/// The provider declaration from a provider manifest's nodes.
pub(super) fn provider_decl(
    fields: &std::collections::BTreeMap<&'static str, String>,
) -> Result<ProviderDecl, String> {
    let id = fields
        .get("provider")
        .filter(|id| valid_id(id))
        .ok_or("a provider plugin names its provider id: provider \"ID\" (lowercase letters, digits, `-`)")?
        .clone();
    let base_url = fields
        .get("base-url")
        .filter(|u| u.starts_with("http://") || u.starts_with("https://") || *u == "script:")
        .ok_or("a provider plugin names its default base URL: base-url \"https://…\" (or \"script:\" for the scripted provider, whose transport plays a script)")?
        .trim_end_matches('/')
        .to_owned();
    let api_key = match (fields.get("api-key-env"), fields.get("api-key-header")) {
        (None, None) => None,
        (Some(env), Some(header)) => Some(ApiKey {
            env: env.clone(),
            header: header.to_ascii_lowercase(),
            prefix: fields.get("api-key-prefix").cloned().unwrap_or_default(),
            required: match fields.get("api-key").map(String::as_str) {
                None | Some("required") => true,
                Some("optional") => false,
                Some(other) => {
                    return Err(format!(
                        "api-key takes \"required\" or \"optional\", not `{other}`"
                    ));
                }
            },
        }),
        _ => {
            return Err(
                "api-key-env and api-key-header go together: the variable the key is read from and the header it is sent in".to_owned(),
            );
        }
    };
    let models_path = match fields.get("models-path") {
        None => None,
        Some(path)
            if path.starts_with('/')
                && !path.contains("://")
                && !path.chars().any(|c| c.is_control() || c == ' ') =>
        {
            Some(path.clone())
        }
        Some(other) => {
            return Err(format!(
                "models-path takes the path of the model listing under the base URL, starting with `/` (e.g. \"/models\"), not `{other}`"
            ));
        }
    };
    Ok(ProviderDecl {
        id,
        base_url,
        api_key,
        models_path,
    })
}

pub(crate) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A `dynamic-tools prefix="P" [cache="SLOT"] [source="SLOT"]` node (whether the slots are
/// declared, with scope `user`, is a rule across the nodes).
pub(super) fn dynamic_node(node: &kdl::KdlNode) -> Result<super::DynamicTools, String> {
    let example = "e.g. dynamic-tools prefix=\"mcp__\" cache=\"tools\"";
    let (mut prefix, mut cache, mut source) = (None, None, None);
    for entry in node.entries() {
        let value = entry.value().as_string().map(str::to_owned);
        match entry.name().map(|n| n.value()) {
            Some("prefix") => prefix = value,
            Some(name @ ("cache" | "source")) => {
                let slot = value
                    .ok_or_else(|| format!("`{name}` takes a state slot's name; {example}"))?;
                if name == "cache" {
                    cache = Some(slot);
                } else {
                    source = Some(slot);
                }
            }
            Some(other) => {
                return Err(format!(
                    "unknown dynamic-tools property `{other}`; known: prefix, cache, source"
                ));
            }
            None => return Err(format!("`dynamic-tools` takes properties only; {example}")),
        }
    }
    let prefix = prefix.filter(|p| valid_prefix(p)).ok_or_else(|| {
        format!(
            "`dynamic-tools` needs a `prefix` of 1 to 32 letters, digits, `_` and `-`; {example}"
        )
    })?;
    Ok(super::DynamicTools {
        prefix,
        cache,
        source,
    })
}

/// Whether `prefix` may begin the names of a plugin's run-time tools: 1 to 32 of
/// `A-Z a-z 0-9 _ -`.
fn valid_prefix(prefix: &str) -> bool {
    (1..=32).contains(&prefix.len())
        && prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}
