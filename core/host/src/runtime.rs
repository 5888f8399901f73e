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
use crate::cache::CompileCache;
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

/// The engine, the limits and the epoch ticker every generation shares.
pub(crate) struct Runtime {
    pub(crate) engine: Engine,
    pub(crate) limits: Limits,
    ticker: Arc<AtomicBool>,
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
    linker: Linker<State>,
    handler_linker: Linker<State>,
    provider_linker: Linker<State>,
    cache: CompileCache,
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

fn engine() -> Result<Engine, Error> {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    Engine::new(&config).map_err(|e| Error::Engine(format!("{e:#}")))
}

impl Host {
    /// Why the compile cache could not be written, when it could not (its directory and the
    /// I/O error): plugins still load, but are compiled again on every start.
    pub fn compile_cache_failure(&self) -> Option<String> {
        self.cache.write_failure()
    }

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

    /// What each loaded product plugin contributes, in load order: its id and contributions.
    pub fn products(&self) -> Vec<(&str, &crate::product::types::Contributions)> {
        self.generation
            .plugins
            .iter()
            .filter_map(|p| {
                p.product
                    .as_ref()
                    .map(|part| (p.manifest.id.as_str(), &part.contributions))
            })
            .collect()
    }

    /// Run the `handler` command `name` of product plugin `plugin` with `arguments` (parsed
    /// as the command declares them), in a fresh instance with nothing granted. Returns the
    /// intents to carry out, in order.
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
    ) -> Result<Vec<crate::product::types::Intent>, String> {
        let Some((loaded, part)) = self
            .generation
            .plugins
            .iter()
            .find(|p| p.manifest.id == plugin)
            .and_then(|p| p.product.as_ref().map(|part| (p, part)))
        else {
            return Err(format!("plugin {plugin} is not a loaded product plugin"));
        };
        part.run(&self.runtime, &loaded.manifest.label(), name, arguments)
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

impl Runtime {
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    pub(crate) fn store(&self, call: CallState, deadline: Duration) -> Store<State> {
        self.store_with_memory(call, deadline, self.limits.memory_bytes)
    }

    /// A store whose instances may grow to `memory_bytes` of linear memory.
    pub(crate) fn store_with_memory(
        &self,
        call: CallState,
        deadline: Duration,
        memory_bytes: usize,
    ) -> Store<State> {
        let mut store = Store::new(
            &self.engine,
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
