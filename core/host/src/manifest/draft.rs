//! A manifest as its nodes are read ([`Draft::take`]), then checked as a whole
//! ([`Draft::finish`]): the rules across nodes (the world and what it may hold).

use std::collections::BTreeMap;

use super::nodes::{ToolNode, event_node, provider_decl, setting_node, tool_node, valid_file_name};
use super::{
    Error, HANDLER_ROLES, HANDLER_WORLD, MAX_CONTEXT_FILES, MAX_NET_HOSTS, MAX_SETTINGS, Manifest,
    PACKAGE_VERSION, POLICY_ROLES, POLICY_WORLD, PRODUCT_WORLD, PROVIDER_WORLD, SettingDecl,
    TOOL_WORLD, ToolHints, WORLD_NAMES, compatible, predates, schema,
};
use crate::grants::Grant;

/// The nodes of a `plugin` block read so far.
#[derive(Default)]
pub(super) struct Draft {
    version: Option<String>,
    world: Option<String>,
    grants: Vec<Grant>,
    net_hosts: Vec<crate::net::HostPattern>,
    tools: Vec<String>,
    tool_hints: BTreeMap<String, ToolHints>,
    tool_needs: BTreeMap<String, String>,
    settings: Vec<SettingDecl>,
    output_schemas: BTreeMap<String, serde_json::Value>,
    handlers: Vec<String>,
    context_files: Vec<String>,
    policy_events: Vec<String>,
    state: Vec<crate::StateSlot>,
    inputs: Vec<String>,
    skips_reads: bool,
    configured_hooks: bool,
    provider_fields: BTreeMap<&'static str, String>,
    catalog: Option<String>,
    dynamic: Option<super::DynamicTools>,
}

impl Draft {
    /// Take one child node of the `plugin` block; `text` is the whole manifest (a `catalog`
    /// block keeps its own text). The error is the reason, naming the node.
    pub(super) fn take(&mut self, node: &kdl::KdlNode, text: &str) -> Result<(), String> {
        let Self {
            tools,
            tool_hints,
            tool_needs,
            settings,
            output_schemas,
            policy_events,
            state,
            inputs,
            skips_reads,
            configured_hooks,
            catalog,
            dynamic,
            ..
        } = self;
        let name = node.name().value();
        if name == "input" {
            let input = match node.entries() {
                [entry] if entry.name().is_none() && node.children().is_none() => {
                    entry.value().as_string().map(str::to_owned)
                }
                _ => None,
            }
            .filter(|n| super::valid_id(n))
            .ok_or("`input` takes one name of lowercase letters, digits and `-`, e.g. input \"mcp-servers\"")?;
            if inputs.contains(&input) {
                return Err(format!("input `{input}` is declared twice"));
            }
            if inputs.len() == crate::MAX_INPUTS {
                return Err(format!(
                    "a plugin may declare at most {} inputs",
                    crate::MAX_INPUTS
                ));
            }
            inputs.push(input);
            return Ok(());
        }
        if name == "configured-hooks" {
            if !node.entries().is_empty() || node.children().is_some() {
                return Err("`configured-hooks` takes no value".to_owned());
            }
            *configured_hooks = true;
            return Ok(());
        }
        if name == "dynamic-tools" {
            if dynamic.is_some() {
                return Err("`dynamic-tools` is declared twice".to_owned());
            }
            *dynamic = Some(super::nodes::dynamic_node(node)?);
            return Ok(());
        }
        if name == "catalog" {
            // The block's own text, as written (line numbers stay meaningful).
            let block = node
                .children()
                .map(|c| {
                    let span = c.span();
                    text.get(span.offset()..span.offset() + span.len())
                        .unwrap_or_default()
                        .to_owned()
                })
                .ok_or("`catalog` takes a block of `model` and `default-model` records")?;
            *catalog = Some(block);
            return Ok(());
        }
        if name == "event" {
            let (event, reads) = event_node(node)?;
            if !policy_events.contains(&event) {
                policy_events.push(event.clone());
            }
            if event == "before-effect" && !reads {
                *skips_reads = true;
            }
            return Ok(());
        }
        if name == "state" {
            let slot = crate::state_imports::state_node(node)?;
            if state.iter().any(|s| s.name == slot.name) {
                return Err(format!("state `{}` is declared twice", slot.name));
            }
            if state.len() == crate::MAX_STATE_SLOTS {
                return Err(format!(
                    "a plugin may declare at most {} state slots",
                    crate::MAX_STATE_SLOTS
                ));
            }
            state.push(slot);
            return Ok(());
        }
        if name == "tool" {
            let ToolNode {
                name: tool,
                hints,
                output_schema,
                needs_setting,
            } = tool_node(node)?;
            if tools.contains(&tool) {
                return Err(format!("tool `{tool}` is listed twice"));
            }
            if hints != ToolHints::default() {
                tool_hints.insert(tool.clone(), hints);
            }
            if let Some(schema) = output_schema {
                output_schemas.insert(tool.clone(), schema);
            }
            if let Some(setting) = needs_setting {
                tool_needs.insert(tool.clone(), setting);
            }
            tools.push(tool);
            return Ok(());
        }
        if name == "setting" {
            let setting = setting_node(node)?;
            if settings
                .iter()
                .any(|s: &SettingDecl| s.name == setting.name)
            {
                return Err(format!("setting `{}` is declared twice", setting.name));
            }
            if settings.len() == MAX_SETTINGS {
                return Err(format!(
                    "a plugin may declare at most {MAX_SETTINGS} settings"
                ));
            }
            settings.push(setting);
            return Ok(());
        }
        let value = schema::single_string(node)
            .map(str::to_owned)
            .ok_or_else(|| format!("`{name}` takes one string value"))?;
        self.take_value(name, value)
    }

    /// Take a node holding one string `value`.
    fn take_value(&mut self, name: &str, value: String) -> Result<(), String> {
        let Self {
            version,
            world,
            grants,
            net_hosts,
            handlers,
            context_files,
            provider_fields,
            ..
        } = self;
        match name {
            "version" => *version = Some(value),
            "world" => *world = Some(value),
            "grant" => grants.push(value.parse::<Grant>().map_err(|e| e.to_string())?),
            "net-host" => {
                if net_hosts.len() == MAX_NET_HOSTS {
                    return Err(format!(
                        "a plugin may name at most {MAX_NET_HOSTS} net-host patterns"
                    ));
                }
                net_hosts.push(
                    value
                        .parse::<crate::net::HostPattern>()
                        .map_err(|e| e.to_string())?,
                );
            }
            "handler" => {
                if !HANDLER_ROLES.contains(&value.as_str()) {
                    return Err(format!(
                        "handler role `{value}` is not one this Smith knows; known roles: {}",
                        HANDLER_ROLES.join(", ")
                    ));
                }
                if !handlers.contains(&value) {
                    handlers.push(value);
                }
            }
            "context-file" => {
                if !valid_file_name(&value) {
                    return Err(format!(
                        "context-file `{value}` is not a plain file name (no `/`, `\\`, `..` or control characters), e.g. context-file \"AGENTS.md\""
                    ));
                }
                if context_files.len() == MAX_CONTEXT_FILES {
                    return Err(format!(
                        "a plugin may declare at most {MAX_CONTEXT_FILES} context files"
                    ));
                }
                if !context_files.contains(&value) {
                    context_files.push(value);
                }
            }
            field @ ("provider" | "base-url" | "api-key-env" | "api-key-header"
            | "api-key-prefix" | "api-key" | "models-path") => {
                let key: &'static str = match field {
                    "provider" => "provider",
                    "base-url" => "base-url",
                    "models-path" => "models-path",
                    "api-key-env" => "api-key-env",
                    "api-key-header" => "api-key-header",
                    "api-key-prefix" => "api-key-prefix",
                    _ => "api-key",
                };
                provider_fields.insert(key, value);
            }
            other => {
                return Err(format!(
                    "unknown manifest node `{other}`; expected version, world, grant, net-host, tool, setting, handler, event, state, input, context-file, provider, base-url or api-key…"
                ));
            }
        }
        Ok(())
    }

    /// Check the rules across the nodes and make the manifest of plugin `id`, from `origin`.
    pub(super) fn finish(self, id: String, origin: &str) -> Result<Manifest, Error> {
        let bad = |reason: String| Error::Manifest {
            origin: origin.to_owned(),
            reason,
        };
        let version = self
            .version
            .clone()
            .ok_or_else(|| bad("missing `version \"X.Y.Z\"`".to_owned()))?;
        let world = self
            .world
            .clone()
            .ok_or_else(|| bad(format!("missing `world \"{TOOL_WORLD}\"`")))?;
        // A known world: of a compatible package version it is this host's world (the
        // version it was built against kept); of another, said as such before anything else.
        let (world, package) = match world.split_once('@') {
            Some((name, found)) if WORLD_NAMES.contains(&name) => {
                if !compatible(found) {
                    return Err(Error::Package {
                        origin: origin.to_owned(),
                        found: found.to_owned(),
                    });
                }
                (format!("{name}@{PACKAGE_VERSION}"), found.to_owned())
            }
            _ => (world, PACKAGE_VERSION.to_owned()),
        };
        self.rules(&world, &package).map_err(&bad)?;
        let Self {
            version: _,
            world: _,
            grants,
            net_hosts,
            tools,
            tool_hints,
            tool_needs,
            settings,
            output_schemas,
            handlers,
            context_files,
            policy_events,
            state,
            inputs,
            skips_reads,
            configured_hooks,
            provider_fields,
            catalog,
            dynamic,
        } = self;
        let provider = if world == PROVIDER_WORLD {
            Some(provider_decl(&provider_fields).map_err(&bad)?)
        } else if provider_fields.is_empty() {
            None
        } else {
            return Err(bad(format!(
                "provider nodes belong to a `{PROVIDER_WORLD}` plugin; this one is `{world}`"
            )));
        };
        if let Some(text) = &catalog {
            let Some(decl) = &provider else {
                return Err(bad(format!(
                    "a `catalog` block belongs to a `{PROVIDER_WORLD}` plugin; this one is `{world}`"
                )));
            };
            smith_ai::catalog::parse(text, &format!("{origin} catalog"), Some(&decl.id))
                .map_err(|e| bad(e.to_string()))?;
        }
        Ok(Manifest {
            id,
            version,
            world,
            package,
            grants,
            net_hosts,
            tools,
            tool_hints,
            tool_needs,
            settings,
            output_schemas,
            handlers,
            context_files,
            policy_events,
            skips_reads,
            configured_hooks,
            state,
            inputs,
            provider,
            catalog,
            dynamic,
        })
    }

    /// The rules across the nodes once the `world` (built against `package`) is known: what
    /// each world may hold. The error is the reason.
    fn rules(&self, world: &str, package: &str) -> Result<(), String> {
        let Self {
            grants,
            net_hosts,
            tools,
            tool_needs,
            settings,
            handlers,
            context_files,
            policy_events,
            state,
            inputs,
            dynamic,
            configured_hooks,
            ..
        } = self;
        if let Some(d) = dynamic {
            if world != TOOL_WORLD {
                return Err(format!(
                    "`dynamic-tools` belongs to a `{TOOL_WORLD}` plugin (built as the `dynamic-tool-plugin` world); this one is `{world}`"
                ));
            }
            if predates(package, 4) {
                return Err(format!(
                    "`dynamic-tools` needs a plugin built against package 1.4.0 or later (the `discover` export); this one is built against {package}"
                ));
            }
            if let Some(tool) = tools.iter().find(|t| t.starts_with(&d.prefix)) {
                return Err(format!(
                    "tool `{tool}` starts with the prefix `{}` its `dynamic-tools` takes for the tools it finds at run time; rename it",
                    d.prefix
                ));
            }
            for (slot, role) in [
                (&d.cache, "caches its tools in"),
                (&d.source, "finds its tools from"),
            ] {
                if let Some(slot) = slot
                    && !state
                        .iter()
                        .any(|s| &s.name == slot && s.scope == smith::StateScope::User)
                {
                    return Err(format!(
                        "`dynamic-tools` {role} state `{slot}`, which the manifest does not declare with scope=\"user\"; add state \"{slot}\" scope=\"user\" version=1 max-bytes=N"
                    ));
                }
            }
        }
        if let Some((tool, setting)) = tool_needs
            .iter()
            .find(|(_, setting)| !settings.iter().any(|s| &s.name == *setting))
        {
            return Err(format!(
                "tool `{tool}` needs setting `{setting}`, which the manifest does not declare; add setting \"{setting}\" doc=\"…\""
            ));
        }
        let wants_net = grants.contains(&Grant::NetHttp);
        if !net_hosts.is_empty() && !wants_net {
            return Err("`net-host` patterns go with `grant \"net.http\"`, which this manifest does not request".to_owned());
        }
        if wants_net && (world != TOOL_WORLD && world != PRODUCT_WORLD || predates(package, 2)) {
            return Err(format!(
                "`grant \"net.http\"` needs a tool or product plugin built against package 1.2.0 or later (the `net` import); this one is `{world}` built against {package}"
            ));
        }
        if let Some(input) = inputs.iter().find(|i| state.iter().any(|s| &s.name == *i)) {
            return Err(format!(
                "`{input}` is declared both as an input and as a state slot; rename one"
            ));
        }
        if !inputs.is_empty() && world != TOOL_WORLD && world != POLICY_WORLD {
            return Err(format!(
                "`input` belongs to a `{TOOL_WORLD}` or `{POLICY_WORLD}` plugin (it is read through the `state` import); this one is `{world}`"
            ));
        }
        if !state.is_empty() && world != TOOL_WORLD && world != POLICY_WORLD {
            return Err(format!(
                "`state` slots belong to a `{TOOL_WORLD}` or `{POLICY_WORLD}` plugin (the worlds that import `state`); this one is `{world}`"
            ));
        }
        if world == PROVIDER_WORLD {
            if !tools.is_empty() || !handlers.is_empty() || !grants.is_empty() {
                return Err(
                    "a provider plugin is a pure codec: it lists no tools, handlers or grants"
                        .to_owned(),
                );
            }
        } else if world == POLICY_WORLD {
            if *configured_hooks && !handlers.iter().any(|h| h == "hooks") {
                return Err(
                    "`configured-hooks` belongs to a plugin of the `hooks` role (`handler \"hooks\"`)"
                        .to_owned(),
                );
            }
            if policy_events.iter().any(|e| e == "turn-end") && predates(package, 6) {
                return Err(format!(
                    "`event \"turn-end\"` needs a plugin built against package 1.6.0 or later (the `hooks-plugin` world's `turn-end` export); this one is built against {package}"
                ));
            }
            // From 1.5.0 a policy plugin imports `process` (a `hooks` handler runs the user's
            // programs): that is the one grant it may hold.
            if handlers.is_empty()
                || !tools.is_empty()
                || grants.iter().any(|g| *g != Grant::ProcessExec)
                || handlers.iter().any(|h| !POLICY_ROLES.contains(&h.as_str()))
            {
                return Err(format!(
                    "a policy plugin lists at least one of the roles {POLICY_ROLES:?} (`handler \"permissions\"`), no tools, and no grant but `process.exec`"
                ));
            }
        } else if !policy_events.is_empty() || *configured_hooks {
            return Err(format!(
                "`event` and `configured-hooks` nodes belong to a `{POLICY_WORLD}` plugin; this one is `{world}`"
            ));
        } else if handlers.iter().any(|h| POLICY_ROLES.contains(&h.as_str())) {
            return Err(format!(
                "the roles {POLICY_ROLES:?} belong to a `{POLICY_WORLD}` plugin; this one is `{world}`"
            ));
        } else if world == HANDLER_WORLD {
            if handlers.is_empty() || !tools.is_empty() {
                return Err("a handler plugin lists at least one `handler \"ROLE\"` (e.g. handler \"queue-policy\") and no tools".to_owned());
            }
            let history = handlers.iter().any(|h| h == "history");
            let vcs = |g: &Grant| matches!(g, Grant::VcsSnapshot | Grant::VcsRestore);
            if let Some(g) = grants
                .iter()
                .find(|g| **g != Grant::ContextRead && !(history && vcs(g)))
            {
                return Err(format!(
                    "a handler plugin may request only `context.read` (to read its `context-file`s), and a `history` handler `vcs.snapshot` and `vcs.restore`; remove `grant \"{g}\"`"
                ));
            }
            let reads = grants.contains(&Grant::ContextRead);
            let context = handlers.iter().any(|h| h == "context");
            if reads == context_files.is_empty() || (reads && !context) {
                return Err("`grant \"context.read\"` and `context-file \"NAME\"` go together, in a plugin holding `handler \"context\"`".to_owned());
            }
        } else if world == TOOL_WORLD || world == PRODUCT_WORLD {
            if grants.contains(&Grant::ContextRead) || !context_files.is_empty() {
                return Err(
                    "`context.read` and `context-file` belong to a `context` handler plugin"
                        .to_owned(),
                );
            }
            if (world == TOOL_WORLD && tools.is_empty() && dynamic.is_none())
                || !handlers.is_empty()
            {
                return Err("a tool plugin lists at least one `tool \"NAME\"` (or finds its tools at run time: `dynamic-tools`) and no handlers (a product plugin may list none)".to_owned());
            }
        } else {
            return Err(format!(
                "world `{world}` is not one this Smith hosts; it hosts `{TOOL_WORLD}`, `{PRODUCT_WORLD}`, `{HANDLER_WORLD}`, `{POLICY_WORLD}` and `{PROVIDER_WORLD}`"
            ));
        }
        Ok(())
    }
}
