//! The wasmtime host: the engine, one store per call with memory limits and an epoch
//! deadline, and the tool dispatch the agent calls.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use smith::{Cancel, ToolCall, ToolDefinition};
use smith_agent::{ToolContext, ToolDispatch, ToolOutput};
use wasmtime::component::{HasSelf, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::Error;
use crate::cache::CompileCache;
use crate::effects::CallState;
use crate::grants::{Policy, default_policy};
use crate::manifest::Manifest;

/// Generated bindings of the `tool-plugin` world.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "tool-plugin",
    });
}

use bindings::{ToolPlugin, ToolPluginPre};

/// Limits every plugin call runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest linear memory of an instance, in bytes.
    pub memory_bytes: usize,
    /// Longest a call may run (wall time, enforced at epoch ticks).
    pub deadline: Duration,
    /// How long a cancelled call may go on before its instance is destroyed.
    pub cancel_grace: Duration,
    /// Largest tool output returned to the model, in bytes; longer output is cut with a marker.
    pub output_bytes: usize,
}

impl Default for Limits {
    /// 64 MiB of memory, a 60 s deadline, 250 ms of grace after a cancel, 50 KiB of output.
    fn default() -> Self {
        Self {
            memory_bytes: 64 << 20,
            deadline: Duration::from_secs(60),
            cancel_grace: Duration::from_millis(250),
            output_bytes: 50 * 1024,
        }
    }
}

/// How often the epoch advances: the resolution of deadlines and cancellation.
const TICK: Duration = Duration::from_millis(5);

/// A plugin to load: its manifest text and component bytes, and where they came from.
#[derive(Clone, Copy, Debug)]
pub struct PluginSource<'a> {
    /// For messages: a path or `bundled:…`.
    pub origin: &'a str,
    /// The manifest, KDL text.
    pub manifest: &'a str,
    /// The wasm component.
    pub component: &'a [u8],
}

/// The store data of one call.
pub(crate) struct State {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: StoreLimits,
    pub(crate) call: CallState,
    /// When the current call began (a provider's decoder lives across many calls: each one
    /// restarts it).
    pub(crate) started: Instant,
    deadline: Duration,
    grace: Duration,
    cancelled_at: Option<Instant>,
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Why the host stopped an instance.
#[derive(Debug)]
pub(crate) enum Stopped {
    Deadline(Duration),
    Cancelled,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Deadline(d) => write!(f, "the call ran past its deadline of {d:?}"),
            Self::Cancelled => f.write_str("the call was cancelled and did not stop in time"),
        }
    }
}

impl std::error::Error for Stopped {}

struct LoadedPlugin {
    manifest: Manifest,
    pre: ToolPluginPre<State>,
    definitions: Vec<ToolDefinition>,
    /// A validator of each tool's input schema, by tool name.
    validators: std::collections::HashMap<String, jsonschema::Validator>,
    /// Set when an instance trapped or was destroyed: later calls get this error.
    failed: Mutex<Option<String>>,
}

/// The engine, the limits and the epoch ticker every generation shares.
pub(crate) struct Runtime {
    engine: Engine,
    limits: Limits,
    ticker: Arc<AtomicBool>,
}

impl Drop for Runtime {
    fn drop(&mut self) {
        self.ticker.store(true, Ordering::Relaxed);
    }
}

/// One published set of plugins. Immutable once built; a reload builds a new one.
struct Generation {
    number: u64,
    plugins: Vec<LoadedPlugin>,
    /// Lifecycle-handler plugins, in load order.
    handlers: Vec<crate::handlers::LoadedHandler>,
    /// Provider plugins, in load order.
    providers: Vec<crate::providers::LoadedProvider>,
}

/// The plugin host: the engine and the current generation of loaded tool plugins. A reload
/// builds and validates a whole new generation and publishes it atomically; a run takes a
/// [`Loadout`] (one generation, pinned) so its tools do not change under it.
pub struct Host {
    runtime: Arc<Runtime>,
    linker: Linker<State>,
    handler_linker: Linker<State>,
    provider_linker: Linker<State>,
    cache: CompileCache,
    current: RwLock<Arc<Generation>>,
}

/// The tools of one plugin generation, pinned for the duration of a run: implements the
/// agent's [`ToolDispatch`], so every tool a run sees comes from a plugin.
#[derive(Clone)]
pub struct Loadout {
    runtime: Arc<Runtime>,
    generation: Arc<Generation>,
    policy: Arc<Policy>,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("plugins", &self.loadout().plugins())
            .field("limits", &self.runtime.limits)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Loadout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loadout")
            .field("generation", &self.generation.number)
            .field("plugins", &self.plugins())
            .finish_non_exhaustive()
    }
}

fn engine() -> Result<Engine, Error> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    Engine::new(&config).map_err(|e| Error::Engine(format!("{e:#}")))
}

impl Host {
    /// Load `sources` (compiled through `cache`) under `limits` as generation 1. Every plugin
    /// is validated: its manifest, its component against the `tool-plugin` world, its
    /// `definitions` against the tools its manifest lists, and each input schema. Tool names
    /// must be unique across plugins.
    ///
    /// # Errors
    /// [`Error::Manifest`], [`Error::Component`], [`Error::Engine`] naming the plugin.
    pub fn load(
        sources: &[PluginSource<'_>],
        cache: &CompileCache,
        limits: Limits,
    ) -> Result<Self, Error> {
        let engine = engine()?;
        let mut linker: Linker<State> = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(|e| Error::Engine(format!("{e:#}")))?;
        ToolPlugin::add_to_linker::<State, HasSelf<State>>(&mut linker, |s| s)
            .map_err(|e| Error::Engine(format!("{e:#}")))?;
        let ticker = Arc::new(AtomicBool::new(false));
        {
            let engine = engine.clone();
            let stop = Arc::clone(&ticker);
            std::thread::Builder::new()
                .name("smith-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(TICK);
                        engine.increment_epoch();
                    }
                })
                .map_err(|e| Error::Engine(format!("cannot start the epoch thread: {e}")))?;
        }
        let runtime = Arc::new(Runtime {
            engine,
            limits,
            ticker,
        });
        let handler_linker = crate::handlers::linker(&runtime.engine)?;
        let provider_linker = crate::providers::linker(&runtime.engine)?;
        let first = build(
            &runtime,
            [&linker, &handler_linker, &provider_linker],
            cache,
            sources,
            1,
        )?;
        Ok(Self {
            runtime,
            linker,
            handler_linker,
            provider_linker,
            cache: cache.clone(),
            current: RwLock::new(Arc::new(first)),
        })
    }

    /// Build a new generation from `sources` and publish it atomically: either every plugin
    /// loads and validates and the new generation replaces the current one, or the current one
    /// stays exactly as it was. Loadouts taken earlier keep their generation. Returns the new
    /// generation's number.
    ///
    /// # Errors
    /// As [`Host::load`]; the current generation is then unchanged.
    pub fn reload(&self, sources: &[PluginSource<'_>]) -> Result<u64, Error> {
        let number = self.loadout().generation.number + 1;
        let next = build(
            &self.runtime,
            [&self.linker, &self.handler_linker, &self.provider_linker],
            &self.cache,
            sources,
            number,
        )?;
        *self
            .current
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(next);
        Ok(number)
    }

    /// The current generation, pinned: what a run should use from start to end.
    pub fn loadout(&self) -> Loadout {
        Loadout {
            policy: Arc::new(Policy::default()),
            runtime: Arc::clone(&self.runtime),
            generation: Arc::clone(
                &self
                    .current
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            ),
        }
    }
}

impl Loadout {
    /// The same tools under the user's `policy` (whether process execution is allowed, its
    /// bounds). A loadout starts with [`Policy::default`]: processes refused.
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = Arc::new(policy);
        self
    }

    /// The generation number (1 for the first load, then +1 per reload).
    pub fn generation(&self) -> u64 {
        self.generation.number
    }

    /// Every active tool with the id of the plugin contributing it, in load order.
    pub fn tools(&self) -> Vec<(String, ToolDefinition)> {
        self.generation
            .plugins
            .iter()
            .flat_map(|p| {
                p.definitions
                    .iter()
                    .map(|d| (p.manifest.id.clone(), d.clone()))
            })
            .collect()
    }

    /// The plugins' ids and versions, in load order: tool plugins, then handler plugins.
    pub fn plugins(&self) -> Vec<(String, String)> {
        self.manifests()
            .into_iter()
            .map(|m| (m.id.clone(), m.version.clone()))
            .collect()
    }

    /// The manifests of every loaded plugin, tool plugins then handler plugins.
    pub fn manifests(&self) -> Vec<&Manifest> {
        self.generation
            .plugins
            .iter()
            .map(|p| &p.manifest)
            .chain(self.generation.handlers.iter().map(|h| &h.manifest))
            .chain(self.generation.providers.iter().map(|p| &p.manifest))
            .collect()
    }

    pub(crate) fn handlers(&self) -> &[crate::handlers::LoadedHandler] {
        &self.generation.handlers
    }

    pub(crate) fn providers(&self) -> &[crate::providers::LoadedProvider] {
        &self.generation.providers
    }

    pub(crate) fn runtime(&self) -> &Runtime {
        &self.runtime
    }
}

/// Load and validate every plugin of `sources` into generation `number`.
fn build(
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
        let manifest = Manifest::parse(source.manifest, source.origin)?;
        let bad = |reason: String| Error::Component {
            origin: source.origin.to_owned(),
            reason,
        };
        let component = cache.load(&runtime.engine, source.component, source.origin)?;
        if let Some(decl) = &manifest.provider {
            if let Some(holder) = providers.iter().find(|p| {
                p.manifest
                    .provider
                    .as_ref()
                    .is_some_and(|d| d.id == decl.id)
            }) {
                return Err(bad(format!(
                    "provider `{}` is already contributed by plugin {}; disable one of them (--disable-plugin ID)",
                    decl.id,
                    holder.manifest.label()
                )));
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
                    return Err(bad(format!(
                        "handler role `{role}` is already taken by plugin {}; only one active plugin may hold it — disable one of them (--disable-plugin ID)",
                        holder.manifest.label()
                    )));
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
        let pre = ToolPluginPre::new(instance_pre)
            .map_err(|e| bad(format!("it does not export the `tool-plugin` world: {e:#}")))?;
        let mut loaded = LoadedPlugin {
            manifest,
            pre,
            definitions: Vec::new(),
            validators: std::collections::HashMap::new(),
            failed: Mutex::new(None),
        };
        let definitions = runtime
            .definitions_of(&loaded)
            .map_err(|e| bad(format!("its `definitions` export failed: {e}")))?;
        let listed: Vec<&String> = definitions.iter().map(|d| &d.name).collect();
        if listed != loaded.manifest.tools.iter().collect::<Vec<_>>() {
            return Err(bad(format!(
                "it defines the tools {listed:?} but its manifest lists {:?}; they must match",
                loaded.manifest.tools
            )));
        }
        for d in &definitions {
            if plugins.iter().any(|p| p.manifest.tools.contains(&d.name)) {
                return Err(bad(format!(
                    "tool `{}` is already contributed by another plugin",
                    d.name
                )));
            }
            let validator = jsonschema::validator_for(&d.input_schema).map_err(|e| {
                bad(format!(
                    "tool `{}` has an invalid input schema: {e}",
                    d.name
                ))
            })?;
            loaded.validators.insert(d.name.clone(), validator);
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

impl Runtime {
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    pub(crate) fn store(&self, call: CallState, deadline: Duration) -> Store<State> {
        let mut store = Store::new(
            &self.engine,
            State {
                // Deny by default: no preopens, no environment, no arguments, no network;
                // stdin closed, stdout and stderr discarded (never the host's).
                wasi: WasiCtx::builder().allow_tcp(false).allow_udp(false).build(),
                table: ResourceTable::new(),
                limits: StoreLimitsBuilder::new()
                    .memory_size(self.limits.memory_bytes)
                    .instances(16)
                    .memories(16)
                    .tables(64)
                    .table_elements(1 << 20)
                    .trap_on_grow_failure(true)
                    .build(),
                call,
                started: Instant::now(),
                deadline,
                grace: self.limits.cancel_grace,
                cancelled_at: None,
            },
        );
        store.limiter(|s| &mut s.limits);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(|mut ctx| {
            let s = ctx.data_mut();
            let now = Instant::now();
            // Time inside effects (a process may run for minutes) is bounded by the effect's
            // own limits; the plugin's deadline counts the rest.
            if now
                .duration_since(s.started)
                .saturating_sub(s.call.host_time)
                > s.deadline
            {
                return Err(wasmtime::Error::new(Stopped::Deadline(s.deadline)));
            }
            if s.call.cancel.is_cancelled() {
                let at = *s.cancelled_at.get_or_insert(now);
                if now.duration_since(at) > s.grace {
                    return Err(wasmtime::Error::new(Stopped::Cancelled));
                }
            }
            Ok(UpdateDeadline::Continue(1))
        });
        store
    }

    fn definitions_of(&self, plugin: &LoadedPlugin) -> Result<Vec<ToolDefinition>, String> {
        let call = CallState::inert(&plugin.manifest.id);
        let mut store = self.store(call, Duration::from_secs(10));
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

    fn bounded(&self, text: String, is_error: bool) -> ToolOutput {
        let limit = self.limits.output_bytes;
        if text.len() <= limit {
            return ToolOutput {
                output: text,
                is_error,
            };
        }
        let mut cut = limit;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        ToolOutput {
            output: format!(
                "{}\n[output cut at {limit} bytes of {}: the tool produced more than the output bound]",
                &text[..cut],
                text.len()
            ),
            is_error,
        }
    }
}

impl ToolDispatch for Loadout {
    fn definitions(&self) -> Vec<ToolDefinition> {
        self.generation
            .plugins
            .iter()
            .flat_map(|p| p.definitions.iter().cloned())
            .collect()
    }

    /// The tool plugins as `id@version`, in load order.
    fn provenance(&self) -> Vec<String> {
        self.generation
            .plugins
            .iter()
            .map(|p| p.manifest.label())
            .collect()
    }

    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput {
        let Some(plugin) = self
            .generation
            .plugins
            .iter()
            .find(|p| p.manifest.tools.contains(&call.name))
        else {
            return ToolOutput {
                output: format!("tool `{}` is not provided by any loaded plugin", call.name),
                is_error: true,
            };
        };
        let label = format!("{}@{}", plugin.manifest.id, plugin.manifest.version);
        if let Some(why) = plugin
            .failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
        {
            return ToolOutput {
                output: format!(
                    "plugin {label} is out of service after an earlier failure ({why}); restart Smith to load it again"
                ),
                is_error: true,
            };
        }
        // Arguments are validated before anything runs (spec: Security).
        if let Some(validator) = plugin.validators.get(&call.name)
            && let Some(error) = validator.iter_errors(&call.arguments).next()
        {
            let at = error.instance_path().to_string();
            let at = if at.is_empty() {
                "the arguments".to_owned()
            } else {
                format!("`{at}`")
            };
            return ToolOutput {
                output: format!(
                    "the arguments of `{}` do not match its input schema: {}: {}; nothing was run — call it again with arguments that match",
                    call.name,
                    cut(&at, 200),
                    cut(&error.to_string(), 500)
                ),
                is_error: true,
            };
        }
        let granted = default_policy(&plugin.manifest.grants, context.cwd.clone(), &self.policy);
        let state = CallState::new(
            format!("{label}#{}", self.generation.number),
            call,
            context,
            granted,
            Arc::clone(&self.policy),
            cancel.clone(),
        );
        let mut store = self.runtime.store(state, self.runtime.limits.deadline);
        let invocation = bindings::smith::plugin::types::Invocation {
            call_id: call.id.clone(),
            cwd: context
                .cwd
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        };
        // JSON Schema counts `2.0` as an integer; the plugin gets it written as one.
        let arguments = integral(&call.arguments).to_string();
        let result = plugin.pre.instantiate(&mut store).and_then(|instance| {
            instance.call_call(&mut store, &call.name, &arguments, &invocation)
        });
        let terminal = store.data_mut().call.terminal.take();
        match result {
            Ok(out) => {
                let mut text = out.text;
                let mut is_error = out.is_error;
                if let Some(why) = terminal {
                    text.push_str(&format!("\n[{why}]"));
                    is_error = true;
                }
                self.runtime.bounded(text, is_error)
            }
            Err(e) => {
                let why = match e.downcast_ref::<Stopped>() {
                    Some(stopped) => stopped.to_string(),
                    None => {
                        let text = format!("{e:#}");
                        if text.contains("growing memory")
                            || text.contains("memory") && text.contains("limit")
                        {
                            format!(
                                "the plugin exceeded its memory limit of {} bytes",
                                self.runtime.limits.memory_bytes
                            )
                        } else {
                            format!("the plugin trapped: {text}")
                        }
                    }
                };
                let cancelled = matches!(e.downcast_ref::<Stopped>(), Some(Stopped::Cancelled));
                if !cancelled {
                    // A trap or an overrun is the plugin's fault: it is out of service.
                    *plugin
                        .failed
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(why.clone());
                }
                let after = if cancelled {
                    "its instance was destroyed"
                } else {
                    "its instance was destroyed and the plugin is out of service until Smith restarts"
                };
                ToolOutput {
                    output: format!(
                        "tool `{}` of {label} failed: {why}; {after} (effects it recorded before this are in the session)",
                        call.name
                    ),
                    is_error: true,
                }
            }
        }
    }
}

/// `text` cut at about `max` bytes (on a character boundary), with `…` when cut: error
/// messages quote offending values, which may be huge.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

/// `value` with every integral float that fits an `i64` (`2.0`) written as an integer.
fn integral(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            #[allow(clippy::cast_possible_truncation)]
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(integral).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), integral(v))).collect())
        }
        other => other.clone(),
    }
}

impl ToolDispatch for Host {
    /// The current generation's tools.
    fn definitions(&self) -> Vec<ToolDefinition> {
        self.loadout().definitions()
    }

    /// Runs in the generation current when the call starts (a run that must not see a reload
    /// mid-way uses a [`Loadout`] instead).
    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput {
        self.loadout().call(call, context, cancel)
    }
}
