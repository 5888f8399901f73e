//! The wasmtime host: the engine, one store per call with memory limits and an epoch
//! deadline, the [`Host`] and its pinned [`Loadout`]s. Building a generation is
//! [`crate::generation`]; a tool call through the tool port is [`crate::tool_call`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use smith::ToolDefinition;
use wasmtime::component::{HasSelf, Linker, ResourceTable};
use wasmtime::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::Error;
use crate::cache::{CompileCache, Engines, Tier};
use crate::effects::CallState;
use crate::generation::{Generation, build};
use crate::grants::Policy;
use crate::manifest::Manifest;

/// Generated bindings of the `tool-plugin` world.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "tool-plugin",
    });
}

use bindings::ToolPlugin;

/// Limits every plugin call runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest linear memory of a tool or handler instance, in bytes.
    pub memory_bytes: usize,
    /// Largest linear memory of a provider codec instance, in bytes: enough for the largest
    /// admissible request (16 MiB of request JSON in, its parsed form, the encoded body out)
    /// with headroom. Measured with the bundled codecs on a 15.5 MiB request: the anthropic
    /// codec needs 112 MiB, openai and google 96 MiB; the default 256 MiB leaves over 2×.
    pub provider_memory_bytes: usize,
    /// Longest a call may run (wall time, enforced at epoch ticks).
    pub deadline: Duration,
    /// How long a cancelled call may go on before its instance is destroyed.
    pub cancel_grace: Duration,
    /// Largest tool output returned to the model, in bytes; longer output is cut with a marker.
    pub output_bytes: usize,
}

impl Default for Limits {
    /// 64 MiB of memory (256 MiB for a provider codec), a 60 s deadline, 250 ms of grace
    /// after a cancel, 50 KiB of output.
    fn default() -> Self {
        Self {
            memory_bytes: 64 << 20,
            provider_memory_bytes: 256 << 20,
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
    /// `manifest` already parsed (a registry that read it), so loading does not parse it
    /// again (KDL parsing is a measurable share of start-up); `None`: parse `manifest`.
    pub parsed: Option<&'a crate::Manifest>,
    /// What its build declared ahead (a bundled plugin): the host then compiles and checks
    /// the component on its first use instead of at load. `None`: loaded and checked now.
    pub declared: Option<Declared>,
}

impl<'a> PluginSource<'a> {
    /// A plugin from its `origin` (for messages: a path or `bundled:…`), its `manifest` (KDL
    /// text) and its wasm `component`: the manifest parsed and the component compiled and
    /// checked when it loads.
    pub fn new(origin: &'a str, manifest: &'a str, component: &'a [u8]) -> Self {
        Self {
            origin,
            manifest,
            component,
            parsed: None,
            declared: None,
        }
    }
}

/// What a build declared of one of its plugins ahead of time (Smith's bundled plugins, which
/// its tests load and check whole), so a host may leave the component uncompiled until the
/// plugin is first used: a command pays only for the plugins it uses.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    /// The component: the source's bytes, kept by the host for the first use.
    pub component: &'static [u8],
    /// The tools its `definitions` export gives, in order, as a JSON list of
    /// `{"name", "description", "input_schema"}` (`[]` for a plugin without tools); matched
    /// with its manifest at load and with the component at its first use.
    pub tools: &'static str,
}

/// The store data of one call.
pub(crate) struct State {
    wasi: WasiCtx,
    pub(crate) table: ResourceTable,
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

/// The engines and their linkers, the compile cache, the limits and the epoch ticker every
/// generation shares.
pub(crate) struct Runtime {
    pub(crate) engines: Engines,
    /// Each engine's linkers, made when the engine's first component loads.
    linkers: [std::sync::OnceLock<Result<Linkers, String>>; 2],
    pub(crate) cache: CompileCache,
    pub(crate) limits: Limits,
    ticker: Arc<AtomicBool>,
}

/// One engine's linkers: one per plugin world.
pub(crate) struct Linkers {
    pub(crate) tool: Linker<State>,
    pub(crate) handler: Linker<State>,
    pub(crate) provider: Linker<State>,
    pub(crate) policy: Linker<State>,
}

impl Drop for Runtime {
    fn drop(&mut self) {
        self.ticker.store(true, Ordering::Relaxed);
    }
}

/// The plugin host: the engine and the current generation of loaded tool plugins. A reload
/// builds and validates a whole new generation and publishes it atomically; a run takes a
/// [`Loadout`] (one generation, pinned) so its tools do not change under it.
pub struct Host {
    runtime: Arc<Runtime>,
    current: RwLock<Arc<Generation>>,
}

/// The tools of one plugin generation, pinned for the duration of a run: implements the
/// [`smith::ToolRegistry`] port, so every tool a run sees comes from a plugin.
#[derive(Clone)]
pub struct Loadout {
    pub(crate) runtime: Arc<Runtime>,
    pub(crate) generation: Arc<Generation>,
    pub(crate) policy: Arc<Policy>,
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

fn engine(strategy: wasmtime::Strategy) -> Result<Engine, Error> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    config.strategy(strategy);
    Engine::new(&config).map_err(|e| Error::Engine(format!("{e:#}")))
}

impl Host {
    /// Why the compile cache could not be written, when it could not (its directory and the
    /// I/O error): plugins still load, but are compiled again on every start.
    pub fn compile_cache_failure(&self) -> Option<String> {
        self.runtime.cache.write_failure()
    }

    /// Load `sources` (compiled through `cache`) under `limits` as generation 1. Every plugin
    /// is validated: its manifest, and each contribution held by one plugin only; then, now
    /// for a plugin loaded eagerly or on its first use for one its build declared
    /// ([`Declared`]), its component against its world, its `definitions` against the tools
    /// its manifest lists, and each input schema.
    ///
    /// # Errors
    /// [`Error::Manifest`], [`Error::Component`], [`Error::Conflict`], [`Error::Package`],
    /// [`Error::Engine`] naming the plugin.
    pub fn load(
        sources: &[PluginSource<'_>],
        cache: &CompileCache,
        limits: Limits,
    ) -> Result<Self, Error> {
        let engines = Engines {
            optimized: engine(wasmtime::Strategy::Cranelift)?,
            baseline: engine(wasmtime::Strategy::Winch)?,
        };
        let ticker = Arc::new(AtomicBool::new(false));
        {
            let engines = engines.clone();
            let stop = Arc::clone(&ticker);
            std::thread::Builder::new()
                .name("smith-epoch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(TICK);
                        engines.optimized.increment_epoch();
                        engines.baseline.increment_epoch();
                    }
                })
                .map_err(|e| Error::Engine(format!("cannot start the epoch thread: {e}")))?;
        }
        let runtime = Arc::new(Runtime {
            engines,
            linkers: Default::default(),
            cache: cache.clone(),
            limits,
            ticker,
        });
        let first = build(&runtime, sources, 1)?;
        Ok(Self {
            runtime,
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
        let next = build(&self.runtime, sources, number)?;
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

    /// Why the compile cache could not keep a component, when it could not (the entry's path
    /// and the I/O error): also for one compiled after load, on its first use.
    pub fn compile_cache_failure(&self) -> Option<String> {
        self.runtime.cache.write_failure()
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
                let found = self.found(p);
                p.definitions
                    .iter()
                    .chain(found.iter().flat_map(|f| f.definitions.iter()))
                    .map(|d| (p.manifest.id.clone(), d.clone()))
                    .collect::<Vec<_>>()
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
            .chain(self.generation.policies.iter().map(|p| &p.manifest))
            .chain(self.generation.providers.iter().map(|p| &p.manifest))
            .collect()
    }

    /// What each product plugin contributes, in load order: its id and its contributions,
    /// or why it could not be loaded (a deferred plugin loads here, on first use).
    pub fn products(&self) -> Vec<(&str, Result<&crate::product::types::Contributions, &str>)> {
        self.generation
            .plugins
            .iter()
            .filter(|p| p.manifest.is_product())
            .filter_map(|p| {
                let part = match p.ready(&self.runtime) {
                    Ok(ready) => Ok(ready.product.as_ref()?),
                    Err(why) => Err(why),
                };
                Some((p.manifest.id.as_str(), part.map(|part| &part.contributions)))
            })
            .collect()
    }

    /// Run the `handler` command `name` of product plugin `plugin` with `arguments` (parsed
    /// as the command declares them), in a fresh instance with nothing granted; its `runtime`
    /// questions are answered by `query` (none: no session to ask about). Returns the intents
    /// to carry out, in order.
    ///
    /// # Errors
    /// The plugin is not a loaded product plugin, it trapped or ran past
    /// [`crate::product::PRODUCT_DEADLINE`], or its `run` failed: a message naming the plugin
    /// and the command.
    pub fn run_command(
        &self,
        plugin: &str,
        name: &str,
        arguments: &[(String, crate::product::types::ArgumentValue)],
        query: Option<crate::SharedQuery>,
    ) -> Result<Vec<crate::product::types::Intent>, String> {
        let Some(loaded) = self
            .generation
            .plugins
            .iter()
            .find(|p| p.manifest.id == plugin && p.manifest.is_product())
        else {
            return Err(format!("plugin {plugin} is not a loaded product plugin"));
        };
        let ready = loaded
            .ready(&self.runtime)
            .map_err(|why| format!("plugin {plugin} cannot be loaded: {why}"))?;
        let Some(part) = &ready.product else {
            return Err(format!("plugin {plugin} is not a loaded product plugin"));
        };
        loaded.loaded.count_instance();
        part.run(
            &self.runtime,
            &loaded.manifest.label(),
            (name, arguments),
            query,
        )
    }

    /// Each plugin of the generation with whether its component is loaded and how many
    /// instances were made of it, in load order (tool, handler, then provider plugins): the
    /// host's account of what a command used. A deferred plugin loads on its first use.
    pub fn usage(&self) -> Vec<PluginUsage> {
        let tools = self.generation.plugins.iter().map(|p| PluginUsage {
            id: p.manifest.id.clone(),
            tier: p.loaded.loaded().map(|r| r.tier),
            instances: p.loaded.instances(),
        });
        let handlers = self.generation.handlers.iter().map(|h| {
            let (tier, instances) = h.usage();
            PluginUsage {
                id: h.manifest.id.clone(),
                tier,
                instances,
            }
        });
        let providers = self.generation.providers.iter().map(|p| PluginUsage {
            id: p.manifest.id.clone(),
            tier: p.loaded.loaded().map(|r| r.tier),
            instances: p.loaded.instances(),
        });
        let policies = self.generation.policies.iter().map(|p| {
            let (tier, instances) = p.usage();
            PluginUsage {
                id: p.manifest.id.clone(),
                tier,
                instances,
            }
        });
        tools
            .chain(handlers)
            .chain(policies)
            .chain(providers)
            .collect()
    }

    /// Load now, in parallel, what every turn uses and is not loaded yet: the handler
    /// plugins that prepare each request (`prompt`, `context`) and the plugins of providers
    /// `providers`, so the first turn does not load them one after another. The others load
    /// when their event first fires: a queue policy once input is queued (the runtime asks
    /// it nothing before), the secret policy at a secret's first restore, compaction and
    /// history when they run. Failures are not reported here: each is the answer of the
    /// plugin's first use.
    pub fn prefetch(&self, providers: &[&str]) {
        let runtime = &self.runtime;
        let every_request = |role: &String| matches!(role.as_str(), "prompt" | "context");
        std::thread::scope(|scope| {
            for h in &self.generation.handlers {
                if h.usage().0.is_none() && h.manifest.handlers.iter().any(every_request) {
                    scope.spawn(move || {
                        let _ = h.ready(runtime);
                    });
                }
            }
            for p in &self.generation.providers {
                let wanted = p
                    .manifest
                    .provider
                    .as_ref()
                    .is_some_and(|d| providers.contains(&d.id.as_str()));
                if wanted && p.loaded.loaded().is_none() {
                    scope.spawn(move || {
                        let _ = p.loaded.get(|component| {
                            crate::generation::load_provider(runtime, component, &p.origin)
                        });
                    });
                }
            }
        });
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

/// What a command used of one plugin ([`Loadout::usage`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginUsage {
    /// The plugin's id.
    pub id: String,
    /// The tier of its code once its component is compiled and checked (at load, or on
    /// first use); `None` while it is not.
    pub tier: Option<Tier>,
    /// How many instances were made of it (tool calls, handler events, provider requests).
    pub instances: u64,
}

impl Runtime {
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The linkers of the engine of `tier`, made on first use.
    pub(crate) fn linkers(&self, tier: Tier) -> Result<&Linkers, Error> {
        let engine = self.engines.get(tier);
        let slot = &self.linkers[match tier {
            Tier::Optimized => 0,
            Tier::Baseline => 1,
        }];
        slot.get_or_init(|| {
            let mut tool: Linker<State> = Linker::new(engine);
            wasmtime_wasi::p2::add_to_linker_sync(&mut tool).map_err(|e| format!("{e:#}"))?;
            ToolPlugin::add_to_linker::<State, HasSelf<State>>(&mut tool, |s| s)
                .map_err(|e| format!("{e:#}"))?;
            // The product world's own import (1.7.0): a tool plugin does not import it.
            crate::product::bindings::smith::plugin::runtime::add_to_linker::<
                State,
                HasSelf<State>,
            >(&mut tool, |s| s)
            .map_err(|e| format!("{e:#}"))?;
            Ok(Linkers {
                tool,
                handler: crate::handlers::linker(engine).map_err(|e| e.to_string())?,
                provider: crate::providers::linker(engine).map_err(|e| e.to_string())?,
                policy: crate::policy::linker(engine).map_err(|e| e.to_string())?,
            })
        })
        .as_ref()
        .map_err(|e| Error::Engine(e.clone()))
    }

    pub(crate) fn store(&self, tier: Tier, call: CallState, deadline: Duration) -> Store<State> {
        self.store_with_memory(tier, call, deadline, self.limits.memory_bytes)
    }

    /// A store of the engine of `tier` whose instances may grow to `memory_bytes` of linear
    /// memory.
    pub(crate) fn store_with_memory(
        &self,
        tier: Tier,
        call: CallState,
        deadline: Duration,
        memory_bytes: usize,
    ) -> Store<State> {
        let mut store = Store::new(
            self.engines.get(tier),
            State {
                // Deny by default: no preopens, no environment, no arguments, no network;
                // stdin closed, stdout and stderr discarded (never the host's).
                wasi: WasiCtx::builder().allow_tcp(false).allow_udp(false).build(),
                table: ResourceTable::new(),
                limits: StoreLimitsBuilder::new()
                    .memory_size(memory_bytes)
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
}
