//! Building one plugin generation: every source's manifest parsed and every contribution
//! (tool, provider, handler role) held by one plugin only; then each plugin's component
//! compiled (through the cache), checked against its world, its tools' definitions read and
//! their input schemas compiled — at once for a plugin loaded eagerly, or on its first use
//! for one whose build declared its tools ahead ([`crate::Declared`]: the bundled plugins),
//! so a command pays only for the plugins it uses. A generation is immutable once built; a
//! plugin's lazily made form is set once ([`Lazy`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use smith::ToolDefinition;
use wasmtime::component::Component;

use crate::cache::Tier;
use crate::effects::CallState;
use crate::manifest::Manifest;
use crate::runtime::bindings::ToolPluginPre;
use crate::runtime::{PluginSource, Runtime, State};
use crate::{Contribution, Declared, Error};

/// A plugin's loaded form, made once: at build for a plugin loaded eagerly, else on first
/// use from the component its build declared. Counts the instances made from it.
pub(crate) struct Lazy<T> {
    /// The component to compile on first use (`None`: loaded at build).
    deferred: Option<&'static [u8]>,
    cell: OnceLock<Result<T, String>>,
    instances: AtomicU64,
}

impl<T> Lazy<T> {
    fn ready(value: T) -> Self {
        Self {
            deferred: None,
            cell: OnceLock::from(Ok(value)),
            instances: AtomicU64::new(0),
        }
    }

    fn deferred(component: &'static [u8]) -> Self {
        Self {
            deferred: Some(component),
            cell: OnceLock::new(),
            instances: AtomicU64::new(0),
        }
    }

    /// The loaded form, made now from the deferred component by `load` when it is the first
    /// use (other threads asking meanwhile wait for it); a failure to load is kept, as the
    /// message every later use gets.
    pub(crate) fn get(
        &self,
        load: impl FnOnce(&'static [u8]) -> Result<T, Error>,
    ) -> Result<&T, &str> {
        self.cell
            .get_or_init(|| match self.deferred {
                Some(component) => load(component).map_err(|e| e.to_string()),
                None => Err("the plugin was not loaded".to_owned()),
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// The loaded form, if it exists (made at build, or used since).
    pub(crate) fn loaded(&self) -> Option<&T> {
        self.cell.get().and_then(|r| r.as_ref().ok())
    }

    /// Count one more instance made from it: the host's hook for tests and diagnostics.
    pub(crate) fn count_instance(&self) {
        self.instances.fetch_add(1, Ordering::Relaxed);
    }

    /// How many instances were made from it.
    pub(crate) fn instances(&self) -> u64 {
        self.instances.load(Ordering::Relaxed)
    }
}

/// A component compiled and checked against its world: which compiler made it, and the
/// pre-instantiated form of its world's bindings.
pub(crate) struct Ready<P> {
    pub(crate) tier: Tier,
    pub(crate) pre: P,
}

/// What a tool plugin needs to run a call, made when it loads.
pub(crate) struct ToolReady {
    pub(crate) tier: Tier,
    pub(crate) pre: ToolPluginPre<State>,
    /// A validator of each tool's input schema, by tool name.
    pub(crate) validators: HashMap<String, jsonschema::Validator>,
    /// Each tool's output-schema validator (tools whose manifest declares one).
    pub(crate) output_validators: HashMap<String, jsonschema::Validator>,
    /// A product plugin's contributions and its `run` (`None` for a tool plugin).
    pub(crate) product: Option<crate::product::ProductPart>,
    /// Its `discover` export (a plugin whose manifest declares `dynamic-tools`).
    pub(crate) discover: Option<crate::dynamic::Pre>,
}

/// A tool plugin of a generation.
pub(crate) struct LoadedPlugin {
    pub(crate) manifest: Manifest,
    pub(crate) origin: String,
    /// Its tools, in the order its `definitions` export gives them (declared ahead, or read
    /// at build).
    pub(crate) definitions: Vec<ToolDefinition>,
    pub(crate) loaded: Lazy<ToolReady>,
    /// Set when an instance trapped or was destroyed: later calls get this error.
    pub(crate) failed: Mutex<Option<String>>,
    /// The tools it finds at run time (empty unless its manifest declares `dynamic-tools`).
    pub(crate) dynamic: crate::dynamic::DynamicSet,
}

impl LoadedPlugin {
    /// What a call needs, loading the plugin on its first use: its definitions are checked
    /// against those its build declared.
    pub(crate) fn ready(&self, runtime: &Runtime) -> Result<&ToolReady, &str> {
        self.loaded.get(|component| {
            let (ready, definitions) = load_tool(runtime, component, &self.manifest, &self.origin)?;
            if definitions != self.definitions {
                return Err(Error::Component {
                    origin: self.origin.clone(),
                    reason: "its component defines tools other than those its build declared (plugins/guests/DIR/tools.json); declare them again (SMITH_BLESS=1 cargo test -p smith-host --test bundled)".to_owned(),
                });
            }
            Ok(ready)
        })
    }
}

/// One published set of plugins. Immutable once built; a reload builds a new one.
pub(crate) struct Generation {
    pub(crate) number: u64,
    pub(crate) plugins: Vec<LoadedPlugin>,
    /// Lifecycle-handler plugins, in load order.
    pub(crate) handlers: Vec<crate::handlers::LoadedHandler>,
    /// Provider plugins, in load order.
    pub(crate) providers: Vec<crate::providers::LoadedProvider>,
    /// Policy plugins (tool and effect events), in load order.
    pub(crate) policies: Vec<crate::policy::LoadedPolicy>,
}

/// Check every manifest of `sources` and every contribution's single holder, then load the
/// plugins loaded eagerly (the others on first use) into generation `number`.
pub(crate) fn build(
    runtime: &Runtime,
    sources: &[PluginSource<'_>],
    number: u64,
) -> Result<Generation, Error> {
    let mut plugins: Vec<LoadedPlugin> = Vec::new();
    let mut handlers: Vec<crate::handlers::LoadedHandler> = Vec::new();
    let mut providers: Vec<crate::providers::LoadedProvider> = Vec::new();
    let mut policies: Vec<crate::policy::LoadedPolicy> = Vec::new();
    for source in sources {
        let manifest = match source.parsed {
            Some(parsed) => parsed.clone(),
            None => Manifest::parse(source.manifest, source.origin)?,
        };
        let origin = source.origin.to_owned();
        let bad = |reason: String| Error::Component {
            origin: origin.clone(),
            reason,
        };
        if let Some(decl) = &manifest.provider {
            if let Some(holder) = providers.iter().find(|p| {
                p.manifest
                    .provider
                    .as_ref()
                    .is_some_and(|d| d.id == decl.id)
            }) {
                return Err(Error::Conflict {
                    origin,
                    contribution: Contribution::Provider(decl.id.clone()),
                    holder: holder.manifest.label(),
                });
            }
            let loaded = match source.declared {
                Some(declared) => Lazy::deferred(declared.component),
                None => Lazy::ready(load_provider(runtime, source.component, &origin)?),
            };
            providers.push(crate::providers::LoadedProvider {
                manifest,
                origin,
                loaded,
            });
            continue;
        }
        if manifest.is_policy() {
            for role in &manifest.handlers {
                if let Some(holder) = policies.iter().find(|p| p.manifest.handlers.contains(role)) {
                    return Err(Error::Conflict {
                        origin,
                        contribution: Contribution::HandlerRole(role.clone()),
                        holder: holder.manifest.label(),
                    });
                }
            }
            let loaded = match source.declared {
                Some(declared) => Lazy::deferred(declared.component),
                None => Lazy::ready(load_policy(
                    runtime,
                    source.component,
                    &origin,
                    manifest.policy_events.iter().any(|e| e == "turn-end"),
                )?),
            };
            policies.push(crate::policy::LoadedPolicy::new(manifest, origin, loaded));
            continue;
        }
        if manifest.is_handler() {
            for role in &manifest.handlers {
                if let Some(holder) = handlers.iter().find(|h| h.manifest.handlers.contains(role)) {
                    return Err(Error::Conflict {
                        origin,
                        contribution: Contribution::HandlerRole(role.clone()),
                        holder: holder.manifest.label(),
                    });
                }
            }
            let loaded = match source.declared {
                Some(declared) => Lazy::deferred(declared.component),
                None => Lazy::ready(load_handler(runtime, source.component, &origin)?),
            };
            handlers.push(crate::handlers::LoadedHandler::new(
                manifest, origin, loaded,
            ));
            continue;
        }
        if let Some(prefix) = manifest.dynamic.as_ref().map(|d| &d.prefix)
            && let Some(holder) = plugins.iter().find(|p| {
                p.manifest
                    .tools
                    .iter()
                    .any(|t| t.starts_with(prefix.as_str()))
                    || p.manifest.dynamic.as_ref().is_some_and(|d| {
                        d.prefix.starts_with(prefix.as_str()) || prefix.starts_with(&d.prefix)
                    })
            })
        {
            return Err(Error::Conflict {
                origin,
                contribution: Contribution::ToolPrefix(prefix.clone()),
                holder: holder.manifest.label(),
            });
        }
        for name in &manifest.tools {
            if let Some(holder) = plugins.iter().find(|p| {
                p.manifest.tools.contains(name)
                    || p.manifest
                        .dynamic
                        .as_ref()
                        .is_some_and(|d| name.starts_with(&d.prefix))
            }) {
                return Err(Error::Conflict {
                    origin,
                    contribution: Contribution::Tool(name.clone()),
                    holder: holder.manifest.label(),
                });
            }
        }
        let (loaded, definitions) = match source.declared {
            Some(declared) => {
                let definitions = declared_tools(&declared, &manifest).map_err(&bad)?;
                (Lazy::deferred(declared.component), definitions)
            }
            None => {
                let (ready, definitions) =
                    load_tool(runtime, source.component, &manifest, &origin)?;
                (Lazy::ready(ready), definitions)
            }
        };
        plugins.push(LoadedPlugin {
            manifest,
            origin,
            definitions,
            loaded,
            failed: Mutex::new(None),
            dynamic: crate::dynamic::DynamicSet::default(),
        });
    }
    Ok(Generation {
        number,
        plugins,
        handlers,
        providers,
        policies,
    })
}

/// The tools `declared` gives, which must be those `manifest` lists, in its order.
fn declared_tools(declared: &Declared, manifest: &Manifest) -> Result<Vec<ToolDefinition>, String> {
    let definitions: Vec<ToolDefinition> = serde_json::from_str(declared.tools).map_err(|e| {
        format!("the tools its build declared are not a JSON list of tool definitions: {e}")
    })?;
    let listed: Vec<&String> = definitions.iter().map(|d| &d.name).collect();
    if listed != manifest.tools.iter().collect::<Vec<_>>() {
        return Err(format!(
            "its build declared the tools {listed:?} but its manifest lists {:?}; they must match (a bundled plugin's are plugins/guests/DIR/tools.json: SMITH_BLESS=1 cargo test -p smith-host --test bundled writes them)",
            manifest.tools
        ));
    }
    Ok(definitions)
}

/// Compile `wasm` through the runtime's cache and check the package version it was built
/// against.
fn compile(runtime: &Runtime, wasm: &[u8], origin: &str) -> Result<(Component, Tier), Error> {
    let (component, tier) = runtime.cache.load(&runtime.engines, wasm, origin)?;
    if let Some(found) = package_version(runtime.engines.get(tier), &component)
        && !crate::manifest::compatible(&found)
    {
        return Err(Error::Package {
            origin: origin.to_owned(),
            found,
        });
    }
    Ok((component, tier))
}

/// Load a handler plugin: compiled and checked against the `handler-plugin` world.
pub(crate) fn load_handler(
    runtime: &Runtime,
    wasm: &[u8],
    origin: &str,
) -> Result<Ready<crate::handlers::Pre>, Error> {
    let (component, tier) = compile(runtime, wasm, origin)?;
    let pre = crate::handlers::pre(runtime.linkers(tier)?, &component, origin)?;
    Ok(Ready { tier, pre })
}

/// Load a policy plugin: compiled and checked against the `policy-plugin` world (and the
/// `hooks-plugin` world when `turn_end`: its manifest names that event).
pub(crate) fn load_policy(
    runtime: &Runtime,
    wasm: &[u8],
    origin: &str,
    turn_end: bool,
) -> Result<Ready<crate::policy::Pre>, Error> {
    let (component, tier) = compile(runtime, wasm, origin)?;
    let pre = crate::policy::pre(runtime.linkers(tier)?, &component, origin, turn_end)?;
    Ok(Ready { tier, pre })
}

/// Load a provider plugin: compiled and checked against the `provider-plugin` world.
pub(crate) fn load_provider(
    runtime: &Runtime,
    wasm: &[u8],
    origin: &str,
) -> Result<Ready<crate::providers::Pre>, Error> {
    let (component, tier) = compile(runtime, wasm, origin)?;
    let pre = crate::providers::pre(runtime.linkers(tier)?, &component, origin)?;
    Ok(Ready { tier, pre })
}

/// Load a tool plugin: compiled, checked against the `tool-plugin` world (and the
/// `product-plugin` world for a product plugin, whose contributions are read), its
/// definitions read and matched with `manifest`, and each tool's schemas compiled.
fn load_tool(
    runtime: &Runtime,
    wasm: &[u8],
    manifest: &Manifest,
    origin: &str,
) -> Result<(ToolReady, Vec<ToolDefinition>), Error> {
    let bad = |reason: String| Error::Component {
        origin: origin.to_owned(),
        reason,
    };
    let (component, tier) = compile(runtime, wasm, origin)?;
    let instance_pre = runtime
        .linkers(tier)?
        .tool
        .instantiate_pre(&component)
        .map_err(|e| bad(format!("it does not fit the `tool-plugin` world: {e:#}")))?;
    let product = if manifest.is_product() {
        Some(
            crate::product::load(runtime, tier, instance_pre.clone(), &manifest.id)
                .map_err(&bad)?,
        )
    } else {
        None
    };
    let discover = if manifest.dynamic.is_some() {
        Some(crate::dynamic::Pre::new(instance_pre.clone()).map_err(|e| {
            bad(format!(
                "its manifest declares `dynamic-tools`, but it does not export the `dynamic-tool-plugin` world (its `discover`): {e:#}"
            ))
        })?)
    } else {
        None
    };
    let pre = ToolPluginPre::new(instance_pre)
        .map_err(|e| bad(format!("it does not export the `tool-plugin` world: {e:#}")))?;
    let definitions = definitions_of(runtime, tier, &pre, &manifest.id)
        .map_err(|e| bad(format!("its `definitions` export failed: {e}")))?;
    let listed: Vec<&String> = definitions.iter().map(|d| &d.name).collect();
    if listed != manifest.tools.iter().collect::<Vec<_>>() {
        return Err(bad(format!(
            "it defines the tools {listed:?} but its manifest lists {:?}; they must match",
            manifest.tools
        )));
    }
    let mut ready = ToolReady {
        tier,
        pre,
        validators: HashMap::new(),
        output_validators: HashMap::new(),
        product,
        discover,
    };
    for d in &definitions {
        let validator = jsonschema::validator_for(&d.input_schema).map_err(|e| {
            bad(format!(
                "tool `{}` has an invalid input schema: {e}",
                d.name
            ))
        })?;
        ready.validators.insert(d.name.clone(), validator);
        if let Some(schema) = manifest.output_schemas.get(&d.name) {
            // Checked when the manifest was parsed; a failure here is still refused.
            let validator = jsonschema::validator_for(schema).map_err(|e| {
                bad(format!(
                    "tool `{}` has an invalid output schema: {e}",
                    d.name
                ))
            })?;
            ready.output_validators.insert(d.name.clone(), validator);
        }
    }
    Ok((ready, definitions))
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

/// The tool definitions the plugin behind `pre` exports, read in an inert instance (nothing
/// granted).
fn definitions_of(
    runtime: &Runtime,
    tier: Tier,
    pre: &ToolPluginPre<State>,
    plugin: &str,
) -> Result<Vec<ToolDefinition>, String> {
    let call = CallState::inert(plugin);
    let mut store = runtime.store(tier, call, Duration::from_secs(10));
    let _kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
    let instance = pre.instantiate(&mut store).map_err(|e| format!("{e:#}"))?;
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
