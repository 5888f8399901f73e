//! Building one plugin generation: every source's manifest parsed, its component compiled
//! (through the cache) and checked against its world, its tools' definitions read and their
//! input schemas compiled, and every contribution (tool, provider, handler role) held by one
//! plugin only. A generation is immutable once built.

use std::sync::Mutex;
use std::time::Duration;

use smith::ToolDefinition;
use wasmtime::component::{Component, Linker};

use crate::cache::CompileCache;
use crate::effects::CallState;
use crate::manifest::Manifest;
use crate::runtime::bindings::ToolPluginPre;
use crate::runtime::{PluginSource, Runtime, State};
use crate::{Contribution, Error};

/// A loaded tool plugin.
pub(crate) struct LoadedPlugin {
    pub(crate) manifest: Manifest,
    pub(crate) pre: ToolPluginPre<State>,
    pub(crate) definitions: Vec<ToolDefinition>,
    /// A validator of each tool's input schema, by tool name.
    pub(crate) validators: std::collections::HashMap<String, jsonschema::Validator>,
    /// Each tool's output-schema validator (tools whose manifest declares one).
    pub(crate) output_validators: std::collections::HashMap<String, jsonschema::Validator>,
    /// Set when an instance trapped or was destroyed: later calls get this error.
    pub(crate) failed: Mutex<Option<String>>,
    /// A product plugin's contributions and its `run` (`None` for a tool plugin).
    pub(crate) product: Option<crate::product::ProductPart>,
}

/// One published set of plugins. Immutable once built; a reload builds a new one.
pub(crate) struct Generation {
    pub(crate) number: u64,
    pub(crate) plugins: Vec<LoadedPlugin>,
    /// Lifecycle-handler plugins, in load order.
    pub(crate) handlers: Vec<crate::handlers::LoadedHandler>,
    /// Provider plugins, in load order.
    pub(crate) providers: Vec<crate::providers::LoadedProvider>,
}

/// Load and validate every plugin of `sources` into generation `number`.
pub(crate) fn build(
    runtime: &Runtime,
    [linker, handler_linker, provider_linker]: [&Linker<State>; 3],
    cache: &CompileCache,
    sources: &[PluginSource<'_>],
    number: u64,
) -> Result<Generation, Error> {
    let mut plugins: Vec<LoadedPlugin> = Vec::new();
    let mut handlers: Vec<crate::handlers::LoadedHandler> = Vec::new();
    let mut providers: Vec<crate::providers::LoadedProvider> = Vec::new();
    for source in sources {
        let manifest = match source.parsed {
            Some(parsed) => parsed.clone(),
            None => Manifest::parse(source.manifest, source.origin)?,
        };
        let bad = |reason: String| Error::Component {
            origin: source.origin.to_owned(),
            reason,
        };
        let component = cache.load(&runtime.engine, source.component, source.origin)?;
        if let Some(found) = package_version(&runtime.engine, &component)
            && found != crate::manifest::PACKAGE_VERSION
        {
            return Err(Error::Package {
                origin: source.origin.to_owned(),
                found,
            });
        }
        if let Some(decl) = &manifest.provider {
            if let Some(holder) = providers.iter().find(|p| {
                p.manifest
                    .provider
                    .as_ref()
                    .is_some_and(|d| d.id == decl.id)
            }) {
                return Err(Error::Conflict {
                    origin: source.origin.to_owned(),
                    contribution: Contribution::Provider(decl.id.clone()),
                    holder: holder.manifest.label(),
                });
            }
            providers.push(crate::providers::load(
                provider_linker,
                &component,
                manifest,
                source.origin,
            )?);
            continue;
        }
        if manifest.is_handler() {
            for role in &manifest.handlers {
                if let Some(holder) = handlers.iter().find(|h| h.manifest.handlers.contains(role)) {
                    return Err(Error::Conflict {
                        origin: source.origin.to_owned(),
                        contribution: Contribution::HandlerRole(role.clone()),
                        holder: holder.manifest.label(),
                    });
                }
            }
            handlers.push(crate::handlers::load(
                handler_linker,
                &component,
                manifest,
                source.origin,
            )?);
            continue;
        }
        let instance_pre = linker
            .instantiate_pre(&component)
            .map_err(|e| bad(format!("it does not fit the `tool-plugin` world: {e:#}")))?;
        let product = if manifest.is_product() {
            Some(crate::product::load(runtime, instance_pre.clone(), &manifest.id).map_err(&bad)?)
        } else {
            None
        };
        let pre = ToolPluginPre::new(instance_pre)
            .map_err(|e| bad(format!("it does not export the `tool-plugin` world: {e:#}")))?;
        let mut loaded = LoadedPlugin {
            manifest,
            pre,
            definitions: Vec::new(),
            validators: std::collections::HashMap::new(),
            output_validators: std::collections::HashMap::new(),
            failed: Mutex::new(None),
            product,
        };
        let definitions = definitions_of(runtime, &loaded)
            .map_err(|e| bad(format!("its `definitions` export failed: {e}")))?;
        let listed: Vec<&String> = definitions.iter().map(|d| &d.name).collect();
        if listed != loaded.manifest.tools.iter().collect::<Vec<_>>() {
            return Err(bad(format!(
                "it defines the tools {listed:?} but its manifest lists {:?}; they must match",
                loaded.manifest.tools
            )));
        }
        for d in &definitions {
            if let Some(holder) = plugins.iter().find(|p| p.manifest.tools.contains(&d.name)) {
                return Err(Error::Conflict {
                    origin: source.origin.to_owned(),
                    contribution: Contribution::Tool(d.name.clone()),
                    holder: holder.manifest.label(),
                });
            }
            let validator = jsonschema::validator_for(&d.input_schema).map_err(|e| {
                bad(format!(
                    "tool `{}` has an invalid input schema: {e}",
                    d.name
                ))
            })?;
            loaded.validators.insert(d.name.clone(), validator);
            if let Some(schema) = loaded.manifest.output_schemas.get(&d.name) {
                // Checked when the manifest was parsed; a failure here is still refused.
                let validator = jsonschema::validator_for(schema).map_err(|e| {
                    bad(format!(
                        "tool `{}` has an invalid output schema: {e}",
                        d.name
                    ))
                })?;
                loaded.output_validators.insert(d.name.clone(), validator);
            }
        }
        loaded.definitions = definitions;
        plugins.push(loaded);
    }
    Ok(Generation {
        number,
        plugins,
        handlers,
        providers,
    })
}

/// The version of the `smith:plugin` package `component` was built against: the version of
/// the first `smith:plugin/…@VERSION` interface it imports or exports.
fn package_version(engine: &wasmtime::Engine, component: &Component) -> Option<String> {
    let ty = component.component_type();
    let names: Vec<String> = ty
        .imports(engine)
        .map(|(name, _)| name.to_owned())
        .chain(ty.exports(engine).map(|(name, _)| name.to_owned()))
        .collect();
    names.iter().find_map(|name| {
        name.strip_prefix("smith:plugin/")
            .and_then(|rest| rest.split_once('@'))
            .map(|(_, version)| version.to_owned())
    })
}

/// The tool definitions `plugin` exports, read in an inert instance (nothing granted).
fn definitions_of(runtime: &Runtime, plugin: &LoadedPlugin) -> Result<Vec<ToolDefinition>, String> {
    let call = CallState::inert(&plugin.manifest.id);
    let mut store = runtime.store(call, Duration::from_secs(10));
    let instance = plugin
        .pre
        .instantiate(&mut store)
        .map_err(|e| format!("{e:#}"))?;
    let defs = instance
        .call_definitions(&mut store)
        .map_err(|e| format!("{e:#}"))?;
    defs.into_iter()
        .map(|d| {
            let input_schema = serde_json::from_str(&d.input_schema).map_err(|e| {
                format!(
                    "tool `{}` has an input schema that is not JSON: {e}",
                    d.name
                )
            })?;
            Ok(ToolDefinition {
                name: d.name,
                description: d.description,
                input_schema,
            })
        })
        .collect()
}
