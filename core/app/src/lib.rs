//! Smith's composition root: what every frontend (the CLI's `eval`, the terminal UI, JSON-RPC,
//! MCP) builds a ready runtime from, so that none of them copies another (`ARCHITECTURE.md`).
//!
//! From an [`Invocation`] (the frontend's overrides and per-command settings, its working
//! directory) it resolves, in order:
//!
//! 1. [`Paths`] — where configuration, sessions, trust records, the auth file and the compile
//!    cache live;
//! 2. [`Settings`] — the seven precedence levels with the provenance of every value;
//! 3. the plugin [`Registry`] — the known plugins, which are disabled and by what, loading the
//!    enabled ones ([`App::load_plugins`]) and the user's process policy ([`App::policy`]);
//! 4. the model catalog and routing table ([`Models`]);
//! 5. routes and accounts ([`route`]): a selection resolved to physical candidates, each with
//!    its credentials (the auth file included, renewable credentials renewed) and its
//!    provider plugin bound to its transport;
//! 6. session access ([`SessionStore`], [`TempStore`]): create, find, open as writer or
//!    observer; and the session layer every frontend drives ([`runner`]): targets, the
//!    [`Runner`] that owns an open session and carries out each typed [`Command`];
//!
//! and it holds the typed, serializable views session inspection prints ([`inspect`]).
//!
//! The agent loop (`smith-agent`) and the plugin host (`smith-host`) meet only through the
//! ports in `smith`; this crate is where the two are wired.
//!
//! It never prints. Every failure is a typed error named for what failed, whose message says
//! what happened, why and the fix by value — never a command-line flag: each frontend maps the
//! errors to its own statuses and adds its own hints ([`Error`]).
//!
//! ```no_run
//! use smith_app::{App, Invocation, Paths, RunSpec};
//! # fn demo() -> Result<(), smith_app::Error> {
//! let invocation = Invocation { cwd: std::env::current_dir().ok(), ..Invocation::default() };
//! let app = App::load(Paths::from_env(), &invocation)?;
//! let spec = RunSpec { selection: app.selection()?, thinking: app.thinking(), script: None };
//! let cwd = std::env::current_dir().unwrap_or_default();
//! // The route and the tools under the user's policy, checked before any session is touched.
//! let ready = app.ready(spec, &cwd, |refusal| refusal.to_string())?;
//! // A new session, owned by the runner every frontend drives.
//! let target = smith_app::runner::target::Target::New;
//! let mut opened = smith_app::runner::target::open(std::sync::Arc::new(app), &target, &cwd, |r| r.to_string())
//!     .expect("a session");
//! opened.runner.adopt(ready).expect("secrets registered");
//! # Ok(()) }
//! ```

pub mod auth;
pub mod catalog;
pub mod docs;
pub mod history;
pub mod hooks;
pub mod import;
pub mod inspect;
pub mod installed;
pub mod interrupts;
pub mod live;
pub mod mcp;
pub mod models;
pub mod paths;
pub mod permissions;

/// The permission mode of a session (`permissions.mode`), as frontends show and change it.
pub use smith_host::PermissionMode;
pub mod playback;
pub mod product;
pub mod prompt;
pub mod reexec;
pub mod refresh;
pub mod registry;
pub mod removal;
pub mod route;
pub mod runner;
pub mod sandbox;
pub mod secrets;
pub mod sessions;
pub mod settings;
pub mod state;
pub mod verdicts;

use std::path::{Path, PathBuf};

pub use auth::AuthError;
pub use models::{Models, ModelsError};
pub use paths::{NoHome, Paths};
pub use registry::{ProcessRefusal, Registry, RegistryError};
pub use route::{NoImageInput, PassedOver, RouteError, RunSpec};
pub use runner::{Command, Done, Ready, RefusalWords, Runner, RunnerError};
pub use sessions::{CreateError, FindError, SessionStore, TempStore};
pub use settings::{Invocation, Notice, Settings, SettingsError};
/// An interrupted turn a session holds for a decision ([`Runner::interrupted`]), and why
/// continuing one was refused.
pub use smith_agent::{ContinueError, InterruptedTurn, Missing};
/// The pinned plugin generation a run uses (re-exported for frontends that keep one).
pub use smith_host::{Loadout, ToolHints};

use smith::{Selection, ThinkingLevel};
use smith_agent::{Route, RunLimits};
use smith_host::{Host, Manifest, Policy};

/// Any failure of the composition root. Each variant is the error of the step that failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path no home variable leads to.
    #[error(transparent)]
    NoHome(#[from] NoHome),
    /// Configuration could not be loaded.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// The plugin registry could not be built or loaded, or the process policy decided.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// The model catalog could not be built.
    #[error(transparent)]
    Models(#[from] ModelsError),
    /// No model is selected, or the selection is not one.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// No route could be built.
    #[error(transparent)]
    Route(#[from] RouteError),
    /// The auth file could not be used.
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// The secret store could not be used, or a secret is refused.
    #[error(transparent)]
    Secrets(#[from] secrets::SecretsError),
    /// A session id names no single session.
    #[error(transparent)]
    Find(#[from] FindError),
    /// A session or a temporary store could not be created or removed.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// A session file could not be opened, read or written.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// Why a recorded request could not be encoded again ([`App::encode_recorded`]).
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// No installed provider plugin has that id and version.
    #[error(
        "the provider plugin that encoded this request ({generation}) is not installed here; the provider-neutral request is still shown in full"
    )]
    NotInstalled {
        /// The recorded generation.
        generation: String,
    },
    /// The installed plugin of that id and version is another build.
    #[error(
        "the request was encoded by {recorded}, but the installed plugin is {installed} (another build), whose bytes may differ; the provider-neutral request is still shown in full"
    )]
    OtherGeneration {
        /// The recorded generation.
        recorded: String,
        /// The installed one.
        installed: String,
    },
    /// The plugin could not be loaded.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// The codec refused the request or trapped.
    #[error("{0}")]
    Codec(smith::ProviderError),
}

/// No model is selected, or the selected text is not a model reference, alias or group name.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// Neither the invocation nor any configuration level sets `model`.
    #[error(
        "no model selected: a run needs one to answer the prompt; select one (e.g. scripted/demo, the offline scripted provider) or set a default with the `model` setting"
    )]
    None,
    /// The `model` setting holds something that is not a selection.
    #[error("{source_text}: {error}")]
    Invalid {
        /// Where the value came from.
        source_text: String,
        /// Why it is not a selection.
        error: smith::ModelRefError,
    },
}

/// Why the product layer could not be composed.
#[derive(Debug, thiserror::Error)]
pub enum ProductError {
    /// The product plugins could not be loaded.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// A product setting (`keys.*`, `theme.*.*`, `tui.theme`, `tui.layout`) is unusable.
    #[error(transparent)]
    Config(#[from] product::ConfigError),
}

/// The composition root of one invocation: paths, settings and the plugin registry, with
/// what loading them had to tell the user.
#[derive(Debug)]
pub struct App {
    /// Where Smith keeps its files.
    pub paths: Paths,
    /// The resolved configuration.
    pub settings: Settings,
    /// The known plugins.
    pub registry: Registry,
}

/// A run made ready: its route and the plugins it uses (tools, handlers and only the
/// provider plugins its route needs), before any session is touched.
pub struct Prepared {
    /// The route: the selection's physical candidates with their credentials and providers.
    pub route: Route<'static>,
    /// The pinned plugin generation (with the default policy: processes refused; give it the
    /// user's with [`Loadout::with_policy`]).
    pub tools: Loadout,
    /// Notices (renewal failures) to tell the user.
    pub notices: Vec<Notice>,
    /// The secrets the run redacts: give the session its registrations
    /// (`Session::register_secrets`) and wrap every output in the redactor.
    pub secrets: secrets::Secrets,
}

/// Set the process's memory ceilings from `memory.ceiling.KIND` (spec: Performance and
/// portability → Memory accounting); a kind left unset has none. The values were checked when
/// the settings were read (an integer of at least 1).
fn memory_ceilings(settings: &Settings) {
    for kind in smith_memory::Kind::ALL {
        let bytes = settings.integer(&format!("memory.ceiling.{}", kind.name()), 0);
        smith_memory::set_ceiling(
            kind,
            u64::try_from(bytes)
                .ok()
                .and_then(std::num::NonZeroU64::new),
        );
    }
}

impl App {
    /// Resolve the settings and the plugin registry of `invocation`. Notices of both are in
    /// [`Settings::notices`].
    ///
    /// # Errors
    /// [`Error::Settings`] or [`Error::Registry`].
    pub fn load(paths: Paths, invocation: &Invocation) -> Result<Self, Error> {
        let mut settings = Settings::load(&paths, invocation)?;
        let (registry, notices) = Registry::resolve(&paths, &settings)?;
        settings.notices.extend(notices);
        memory_ceilings(&settings);
        Ok(Self {
            paths,
            settings,
            registry,
        })
    }

    /// The selected model: the `model` setting, from whichever level set it.
    ///
    /// # Errors
    /// [`SelectError`].
    pub fn selection(&self) -> Result<Selection, SelectError> {
        let setting = self
            .settings
            .resolved
            .get("model")
            .ok_or(SelectError::None)?;
        setting
            .value
            .to_string()
            .parse::<Selection>()
            .map_err(|error| SelectError::Invalid {
                source_text: setting.source.to_string(),
                error,
            })
    }

    /// The selection ([`App::selection`]) checked without loading a plugin
    /// ([`route::precheck`]): it resolves and names a provider an enabled plugin contributes.
    ///
    /// # Errors
    /// [`Error::Select`], [`Error::Models`] (`models.kdl` unreadable), [`Error::Route`].
    pub fn checked_selection(&self) -> Result<Selection, Error> {
        let selection = self.selection()?;
        let models = self.models()?;
        route::precheck(&models, &self.registry.provider_ids(), &selection)?;
        Ok(selection)
    }

    /// The thinking level the `thinking` setting asks for, if any.
    pub fn thinking(&self) -> Option<ThinkingLevel> {
        self.settings
            .string("thinking")
            .and_then(ThinkingLevel::parse)
    }

    /// The run bounds of the settings (`run.max-rounds`, `run.max-cost`).
    pub fn run_limits(&self) -> RunLimits {
        RunLimits {
            max_rounds: u32::try_from(self.settings.integer("run.max-rounds", 64)).unwrap_or(64),
            // Checked when the setting was read: a positive, finite amount.
            max_cost: self
                .settings
                .string("run.max-cost")
                .and_then(|s| s.parse::<f64>().ok()),
        }
    }

    /// When and how much sessions are compacted (`compaction.auto`, `compaction.threshold`,
    /// `compaction.keep-tokens`).
    pub fn compaction_policy(&self) -> smith_agent::CompactionPolicy {
        let default = smith_agent::CompactionPolicy::default();
        let threshold = self
            .settings
            .integer("compaction.threshold", 80)
            .clamp(10, 100);
        smith_agent::CompactionPolicy {
            auto: self.settings.bool("compaction.auto", default.auto),
            #[allow(clippy::cast_precision_loss)] // a percentage
            threshold: threshold as f64 / 100.0,
            keep_tokens: u64::try_from(self.settings.integer("compaction.keep-tokens", 20_000))
                .unwrap_or(default.keep_tokens),
            max_failures: default.max_failures,
        }
    }

    /// The model catalog and routing table.
    ///
    /// # Errors
    /// [`ModelsError`].
    pub fn models(&self) -> Result<Models, ModelsError> {
        Models::load(&self.paths, &self.registry)
    }

    /// Load the enabled plugins `wanted` accepts.
    ///
    /// # Errors
    /// [`RegistryError`].
    pub fn load_plugins(&self, wanted: impl Fn(&Manifest) -> bool) -> Result<Host, RegistryError> {
        self.registry.load(&self.paths, wanted)
    }

    /// The product layer: the enabled product plugins loaded (only those), composed with
    /// the frontend's `built_in` keys and the configuration. Returns the layer and the loadout
    /// its handler commands run through.
    ///
    /// # Errors
    /// [`ProductError`]: the plugins cannot load, or a product setting is unusable.
    pub fn product(
        &self,
        built_in: &[(product::KeySpec, smith_host::product::types::KeyAction)],
        cwd: &Path,
    ) -> Result<(product::ProductLayer, Loadout), ProductError> {
        let host = self.load_plugins(Manifest::is_product)?;
        let loadout = host.loadout();
        let (prompts, notices) = self.prompt_commands(cwd);
        let mut layer =
            product::ProductLayer::compose(&loadout, built_in, &self.settings.resolved, prompts)?;
        layer.notices.extend(notices);
        Ok((layer, loadout))
    }

    /// The prompt commands for `cwd` ([`product::prompts::discover`]).
    pub fn prompt_commands(
        &self,
        cwd: &Path,
    ) -> (Vec<product::prompts::PromptCommand>, Vec<String>) {
        product::prompts::discover(&self.paths, cwd)
    }

    /// The user's policy for tools run from `cwd`, a refusal worded by `words`.
    ///
    /// # Errors
    /// [`RegistryError`]: the trust records, or `process.pass-env`.
    pub fn policy(
        &self,
        cwd: &Path,
        words: &dyn Fn(&ProcessRefusal) -> String,
    ) -> Result<Policy, RegistryError> {
        let mut policy = registry::policy(&self.paths, &self.settings, cwd, words)?;
        policy.tree = smith_host::Tree(self.working_tree(cwd));
        Ok(policy)
    }

    /// The trusted project `dir` is in, or `None` when it is not trusted (the trust rule of
    /// [`App::policy`]: the nearest ancestor with a `.smith` directory, else `dir`).
    ///
    /// # Errors
    /// [`RegistryError`]: the trust records cannot be placed or read.
    pub fn trusted_project(&self, dir: &Path) -> Result<Option<PathBuf>, RegistryError> {
        registry::trusted_project(&self.paths, dir)
    }

    /// The secrets this invocation redacts: the user's secret store, the auth file's
    /// credentials of every known provider, and the values of the providers' key variables
    /// (as the `provider.ID.key-env` settings name them) set in the environment.
    ///
    /// # Errors
    /// [`secrets::SecretsError`] from the store or the auth file.
    pub fn secrets(&self) -> Result<secrets::Secrets, secrets::SecretsError> {
        let mut variables: Vec<(String, String)> = self
            .registry
            .api_keys()
            .into_iter()
            .map(|(id, key)| {
                let variable = route::key_variable(&self.settings, &id, &key.env);
                (format!("the {id} key variable"), variable)
            })
            .collect();
        let named = registry::variable_names(&self.settings, "secrets.env")
            .map_err(|(source_text, name)| secrets::SecretsError::Setting { source_text, name })?;
        variables.extend(
            named
                .into_iter()
                .map(|name| ("named by the secrets.env setting".to_owned(), name)),
        );
        secrets::gather(
            self.paths.secrets_file().as_deref(),
            self.paths.auth_file().ok().as_deref(),
            &self.registry.provider_ids(),
            &variables,
            &|name| std::env::var(name).ok(),
        )
    }

    /// Encode a recorded request again with the provider plugin generation that encoded it
    /// (`id@version#digest`, as the attempt recorded it) and the recorded codec `options`:
    /// the exact HTTP request dispatch built, without its credential — nothing is sent and no
    /// credential is read. Secrets are replaced by their references against `redactor`.
    ///
    /// # Errors
    /// [`EncodeError`]: that generation is not installed (another version or build of the
    /// plugin is), the plugin cannot be loaded, or its codec refused the request.
    pub fn encode_recorded(
        &self,
        generation: &str,
        request: &smith::ProviderRequest,
        options: &std::collections::BTreeMap<String, String>,
        redactor: &smith_secrets::Redactor,
    ) -> Result<smith_host::EncodedRequest, EncodeError> {
        let label = generation.split('#').next().unwrap_or(generation);
        let manifest = self
            .registry
            .enabled()
            .find(|m| m.is_provider() && m.label() == label)
            .ok_or_else(|| EncodeError::NotInstalled {
                generation: generation.to_owned(),
            })?;
        let installed = route::generation(&self.registry, manifest);
        if installed != generation {
            return Err(EncodeError::OtherGeneration {
                recorded: generation.to_owned(),
                installed,
            });
        }
        let id = manifest
            .provider
            .as_ref()
            .map(|p| p.id.clone())
            .unwrap_or_default();
        let host = self.load_plugins(|m| m.label() == label)?;
        host.loadout()
            .encode_request(&id, request, options, redactor)
            .map_err(EncodeError::Codec)
    }

    /// The sessions directory as a store.
    ///
    /// # Errors
    /// [`NoHome`].
    pub fn sessions(&self) -> Result<SessionStore, NoHome> {
        Ok(SessionStore::new(self.paths.sessions()?))
    }

    /// Make a run of `spec` ready: the catalog, the selection's physical models, the plugins
    /// it uses (tools, handlers, and only the provider plugins of those models: each loaded
    /// plugin costs start-up time), and its route.
    ///
    /// # Errors
    /// [`Error::Models`], [`Error::Route`], [`Error::Registry`].
    pub fn prepare(&self, spec: &RunSpec) -> Result<Prepared, Error> {
        let models = self.models()?;
        let targets = route::targets(&models, &spec.selection)?;
        let host = self.load_plugins(|m| {
            m.provider
                .as_ref()
                .is_none_or(|p| targets.iter().any(|t| t.model.provider == p.id))
        })?;
        let tools = host.loadout();
        // What every turn needs — the handlers and the route's providers — loads in parallel
        // now; tool plugins load on their first call.
        let providers: Vec<&str> = targets.iter().map(|t| t.model.provider.as_str()).collect();
        tools.prefetch(&providers);
        let secrets = self.secrets()?;
        let cx = route::RouteContext {
            paths: &self.paths,
            settings: &self.settings,
            registry: &self.registry,
            loadout: &tools,
            models: &models,
            redactor: secrets.redactor.clone(),
        };
        let (route, mut notices) = route::route(&cx, spec)?;
        notices.extend(host.compile_cache_failure().map(Notice::CacheUnwritable));
        Ok(Prepared {
            route,
            tools,
            notices,
            secrets,
        })
    }
}
