//! The plugin registry of one invocation: which plugins are known (the bundled ones), which
//! are disabled (`plugins.ID.enabled false`, with the setting's source), loading the enabled
//! ones through the shared compile cache, and the user's process policy (project trust,
//! `process.allow`, the process bounds and environment pass-through).

use std::path::{Path, PathBuf};

use smith_config::{Origin, TrustStore, Value};
use smith_host::{CompileCache, Host, Manifest, Policy, ProcessLimits, ProcessPolicy};

use crate::paths::{NoHome, Paths, project_of};
use crate::settings::{Notice, Settings};

/// Where a known plugin's manifest and component come from.
#[derive(Debug)]
enum Source {
    /// Built into this binary.
    Bundled(&'static smith_plugins::BundledPlugin),
    /// Installed by the user (`smith plugins install`), verified against its record.
    Installed(crate::installed::Installed),
}

/// A plugin this Smith knows, with its manifest and, when disabled, the setting's source.
#[derive(Debug)]
pub struct Known {
    source: Source,
    /// Its parsed manifest.
    pub manifest: Manifest,
    /// The source of the setting that disabled it (`None`: enabled).
    pub disabled_by: Option<String>,
}

impl Known {
    /// Where the plugin comes from (`bundled:files/plugin.kdl`, `installed:PATH`).
    pub fn origin(&self) -> &str {
        match &self.source {
            Source::Bundled(b) => b.origin,
            Source::Installed(i) => &i.origin,
        }
    }

    /// Its component bytes.
    pub fn component(&self) -> &[u8] {
        match &self.source {
            Source::Bundled(b) => b.component,
            Source::Installed(i) => &i.component,
        }
    }

    /// Its manifest text.
    pub fn manifest_text(&self) -> &str {
        match &self.source {
            Source::Bundled(b) => b.manifest,
            Source::Installed(i) => &i.manifest,
        }
    }

    /// What this build declared of it ahead of time: a bundled plugin's, which the host
    /// compiles on first use; `None` for an installed plugin, loaded and checked at once.
    pub fn declared(&self) -> Option<smith_host::Declared> {
        match &self.source {
            Source::Bundled(b) => Some(smith_host::Declared {
                component: b.component,
                tools: b.tools,
            }),
            Source::Installed(_) => None,
        }
    }

    /// Whether the user installed it (else it is bundled).
    pub fn is_installed(&self) -> bool {
        matches!(self.source, Source::Installed(_))
    }
}

/// A plugin switch named no plugin the registry knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no plugin `{id}`; known: {}", known.join(", "))]
pub struct UnknownPlugin {
    /// The id as given.
    pub id: String,
    /// The ids of the known plugins, in load order.
    pub known: Vec<String>,
}

/// Why the registry could not be built or loaded.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A setting given for this invocation names a plugin that is not installed.
    #[error("{source_text}: no plugin `{id}` is installed; the known plugins are {}", known.join(", "))]
    UnknownPlugin {
        /// The setting's source (e.g. `--disable-plugin shell`).
        source_text: String,
        /// The id it names.
        id: String,
        /// The known ids.
        known: Vec<String>,
    },
    /// A bundled manifest does not parse, or a bundled plugin does not load: a defect of the
    /// build, never of the user's input.
    #[error("{0}; this is a defect of this Smith build — please report it")]
    Defect(String),
    /// The installed plugins' records cannot be read, or an installed plugin does not load.
    #[error(
        "{0}; uninstall or reinstall the installed plugin at fault, or disable it (setting plugins.ID.enabled false)"
    )]
    Installed(String),
    /// Two active plugins contribute the same tool, provider or handler role.
    #[error(transparent)]
    Conflict(smith_host::Error),
    /// The trust records cannot be read.
    #[error(transparent)]
    Trust(#[from] smith_config::ConfigError),
    /// The trust records cannot be placed.
    #[error(transparent)]
    NoHome(#[from] NoHome),
    /// A `provider.ID.…` setting names a provider no known plugin provides.
    #[error(
        "{source_text}: `{key}` names the provider `{}`, which no plugin provides; {}the providers are {} (settings apply to a provider by its id, e.g. provider.openai-compatible.base-url)",
        provider_of(key),
        crate::route::did_you_mean(&closest_provider(key, known)).replace("If not, ", ""),
        known.join(", ")
    )]
    UnknownProvider {
        /// The setting's source (a file and line, a variable, a flag).
        source_text: String,
        /// The setting's key (`provider.ID.…`).
        key: String,
        /// Every known provider id.
        known: Vec<String>,
    },
    /// `process.pass-env` holds something that is not a variable name.
    #[error(
        "{source_text}: process.pass-env: `{name}` is not an environment variable name (letters, digits and `_`, not starting with a digit); list names separated by commas, e.g. CARGO_HOME,RUSTUP_HOME"
    )]
    PassEnv {
        /// The setting's source.
        source_text: String,
        /// The offending name.
        name: String,
    },
    /// A rule of `permissions.allow`, `.ask` or `.deny` does not parse.
    #[error(
        "{source_text}: {key}: rule `{rule}` {reason}; write rules as TOOL or TOOL(PATTERN), e.g. bash(git status*) or edit(src/**), separated by commas"
    )]
    PermissionRule {
        /// The setting's source (file and line, variable, flag).
        source_text: String,
        /// The key.
        key: &'static str,
        /// The offending rule as given.
        rule: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A configured hook cannot be used (`hooks.NAME.*`).
    #[error("{source_text}: {key}: {why}")]
    Hook {
        /// The setting's source (file and line, variable, flag).
        source_text: String,
        /// The key at fault.
        key: String,
        /// What is wrong and what to write instead.
        why: String,
    },
    /// A server the configuration declares cannot be used (`mcp.server.NAME.*`).
    #[error("{source_text}: {key}: {why}")]
    McpServer {
        /// The setting's source (file and line, variable, flag).
        source_text: String,
        /// The key at fault.
        key: String,
        /// What is wrong and what to write instead.
        why: String,
    },
    /// A host pattern of `plugins.ID.net.allow` or `.deny` cannot be read.
    #[error("{source_text}: {key}: {why}")]
    NetPattern {
        /// The setting's source (file and line, variable, flag).
        source_text: String,
        /// The key.
        key: String,
        /// What is wrong, the pattern named.
        why: String,
    },
    /// A path of `sandbox.writable-roots`, `sandbox.deny-read` or
    /// `plugins.ID.programs.NAME.writable-roots` is unusable.
    #[error("{source_text}: {key}: `{path}` {reason}")]
    SandboxPath {
        /// The setting's source (file and line, variable, flag).
        source_text: String,
        /// The key.
        key: String,
        /// The offending path as given.
        path: String,
        /// What is wrong and what to do.
        reason: String,
    },
}

/// The provider id of a `provider.ID.…` key.
fn provider_of(key: &str) -> &str {
    key.strip_prefix("provider.")
        .and_then(|k| k.split('.').next())
        .unwrap_or(key)
}

/// The known provider ids closest to the one `key` names, best first.
fn closest_provider(key: &str, known: &[String]) -> Vec<String> {
    smith_config::closest(provider_of(key), known.iter().map(String::as_str))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// Every known plugin, each marked enabled or disabled; and the installed plugins that are
/// not loaded.
#[derive(Debug)]
pub struct Registry {
    plugins: Vec<Known>,
    refused: Vec<crate::installed::Refused>,
    /// Plugins enabled (`true`) or disabled for the rest of this process, over what the
    /// settings say (the terminal UI's `plugin-enable` and `plugin-disable`).
    overrides: std::sync::RwLock<std::collections::BTreeMap<String, bool>>,
}

/// Who disabled a plugin for this process (the `disabled_by` of such a plugin).
pub const DISABLED_FOR_PROCESS: &str = "this process (plugin-disable)";

impl Registry {
    /// The bundled plugins, marked by the resolved `plugins.ID.enabled` settings. A setting
    /// naming no known plugin fails when it came from the invocation itself (a mistake to stop
    /// at) and is a [`Notice`] when it came from a file or variable (an entry may outlive its
    /// plugin).
    ///
    /// A `provider.ID.…` setting naming a provider no known plugin (enabled or not) provides
    /// is refused, wherever it came from: such a value would silently apply to nothing.
    ///
    /// # Errors
    /// [`RegistryError::UnknownPlugin`], [`RegistryError::UnknownProvider`], or
    /// [`RegistryError::Defect`] for a bundled manifest that does not parse.
    pub fn resolve(
        paths: &Paths,
        settings: &Settings,
    ) -> Result<(Self, Vec<Notice>), RegistryError> {
        let mut plugins = Vec::new();
        for (bundled, manifest) in smith_plugins::BUNDLED.iter().zip(bundled_manifests()) {
            plugins.push(Known {
                source: Source::Bundled(bundled),
                manifest: manifest.map_err(|e| RegistryError::Defect(e.to_string()))?,
                disabled_by: None,
            });
        }
        let mut notices = Vec::new();
        let (installed, mut refused) =
            crate::installed::read(paths).map_err(|e| RegistryError::Installed(e.to_string()))?;
        for plugin in installed {
            match Manifest::parse(&plugin.manifest, &plugin.origin) {
                Ok(manifest) if !plugins.iter().any(|p| p.manifest.id == manifest.id) => {
                    plugins.push(Known {
                        source: Source::Installed(plugin),
                        manifest,
                        disabled_by: None,
                    });
                }
                Ok(manifest) => refused.push(crate::installed::Refused {
                    why: format!(
                        "installed plugin `{}` ({}) is not loaded: a bundled plugin has that id",
                        manifest.id, plugin.origin
                    ),
                    id: manifest.id,
                    dir: std::path::PathBuf::from(&plugin.from),
                }),
                Err(e) => refused.push(crate::installed::Refused {
                    why: format!("an installed plugin is not loaded: {e}; install it again"),
                    id: String::new(),
                    dir: std::path::PathBuf::from(&plugin.from),
                }),
            }
        }
        let known: Vec<String> = plugins.iter().map(|p| p.manifest.id.clone()).collect();
        let providers: Vec<String> = plugins
            .iter()
            .filter_map(|p| p.manifest.provider.as_ref().map(|d| d.id.clone()))
            .collect();
        for (key, value) in settings.resolved.iter() {
            let Some(id) = key
                .strip_prefix("provider.")
                .and_then(|k| k.split('.').next())
            else {
                continue;
            };
            if !providers.iter().any(|p| p == id) {
                return Err(RegistryError::UnknownProvider {
                    source_text: value.source.to_string(),
                    key: key.clone(),
                    known: providers,
                });
            }
        }
        for (key, value) in settings.resolved.iter() {
            let Some(rest) = key.strip_prefix("plugins.") else {
                continue;
            };
            let Some(id) = [".enabled", ".net.allow", ".net.deny", ".net.credentials"]
                .iter()
                .find_map(|suffix| rest.strip_suffix(suffix))
            else {
                continue;
            };
            match plugins.iter_mut().find(|p| p.manifest.id == id) {
                Some(p) => {
                    if key.ends_with(".enabled") && value.value == Value::Bool(false) {
                        p.disabled_by = Some(value.source.to_string());
                    }
                }
                None if matches!(value.source.origin, Origin::Flag { .. }) => {
                    return Err(RegistryError::UnknownPlugin {
                        source_text: value.source.to_string(),
                        id: id.to_owned(),
                        known,
                    });
                }
                None => notices.push(Notice::UnknownPlugin {
                    source: value.source.to_string(),
                    id: id.to_owned(),
                    known: known.clone(),
                }),
            }
        }
        for (key, value) in settings.resolved.iter() {
            let Some((id, name)) = plugin_setting(key) else {
                continue;
            };
            let source = value.source.to_string();
            match plugins.iter().find(|p| p.manifest.id == id) {
                None => notices.push(Notice::UnknownPlugin {
                    source,
                    id: id.to_owned(),
                    known: known.clone(),
                }),
                Some(p) if !p.manifest.settings.iter().any(|d| d.name == name) => {
                    notices.push(Notice::UnknownPluginSetting {
                        source,
                        id: id.to_owned(),
                        name: name.to_owned(),
                        declared: p.manifest.settings.iter().map(|d| d.name.clone()).collect(),
                    });
                }
                Some(_) => {}
            }
        }
        if let Some(setting) = settings.resolved.get("context.files") {
            let read: Vec<String> = plugins
                .iter()
                .filter(|p| p.disabled_by.is_none())
                .flat_map(|p| p.manifest.context_files.iter().cloned())
                .collect();
            let names = context_files(settings);
            let passed: Vec<String> = names
                .iter()
                .filter(|n| !read.contains(n))
                .cloned()
                .collect();
            // Without any context handler the setting is moot: nothing to say.
            if !read.is_empty() && (!passed.is_empty() || names.is_empty()) {
                notices.push(Notice::ContextFiles {
                    source: setting.source.to_string(),
                    passed,
                    read,
                    fallback: !names.iter().any(|n| read_has(&plugins, n)),
                });
            }
        }
        notices.extend(refused.iter().map(|r| Notice::Plugin(r.why.clone())));
        Ok((
            Self {
                plugins,
                refused,
                overrides: std::sync::RwLock::default(),
            },
            notices,
        ))
    }

    /// Every known plugin, in load order.
    pub fn plugins(&self) -> &[Known] {
        &self.plugins
    }

    /// What the host loads for the enabled plugins whose manifest `wanted` accepts, in load
    /// order.
    pub fn sources(&self, wanted: impl Fn(&Manifest) -> bool) -> Vec<smith_host::PluginSource<'_>> {
        self.plugins
            .iter()
            .filter(|p| self.disabled_by(p).is_none() && wanted(&p.manifest))
            .map(|p| smith_host::PluginSource {
                origin: p.origin(),
                manifest: p.manifest_text(),
                component: p.component(),
                parsed: Some(&p.manifest),
                declared: p.declared(),
            })
            .collect()
    }

    /// Whether `plugin` is enabled, in words: `enabled`, or `disabled by SOURCE`.
    pub fn state_words(&self, plugin: &Known) -> String {
        match self.disabled_by(plugin) {
            Some(by) => format!("disabled by {by}"),
            None => "enabled".to_owned(),
        }
    }

    /// Why `plugin` is disabled (the source of the setting, or [`DISABLED_FOR_PROCESS`]);
    /// `None` when it is enabled — by the settings, or for this process.
    pub fn disabled_by(&self, plugin: &Known) -> Option<String> {
        let overrides = self
            .overrides
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match overrides.get(&plugin.manifest.id) {
            Some(true) => None,
            Some(false) => Some(DISABLED_FOR_PROCESS.to_owned()),
            None => plugin.disabled_by.clone(),
        }
    }

    /// Enable or disable plugin `id` for the rest of this process: what loads next (a run
    /// prepared after this) follows it; plugins loaded already are not changed. Whether it
    /// was enabled before.
    ///
    /// # Errors
    /// [`UnknownPlugin`]: no known plugin has that id (it names the known ones).
    pub fn set_enabled(&self, id: &str, enabled: bool) -> Result<bool, UnknownPlugin> {
        let Some(plugin) = self.plugins.iter().find(|p| p.manifest.id == id) else {
            return Err(UnknownPlugin {
                id: id.to_owned(),
                known: self.plugins.iter().map(|p| p.manifest.id.clone()).collect(),
            });
        };
        let was = self.disabled_by(plugin).is_none();
        self.overrides
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.to_owned(), enabled);
        Ok(was)
    }

    /// The installed plugins that are not loaded, each with why.
    pub fn refused(&self) -> &[crate::installed::Refused] {
        &self.refused
    }

    /// The manifests of the enabled plugins, in load order.
    pub fn enabled(&self) -> impl Iterator<Item = &Manifest> {
        self.plugins
            .iter()
            .filter(|p| self.disabled_by(p).is_none())
            .map(|p| &p.manifest)
    }

    /// The component bytes of plugin `id`, if known.
    pub fn component(&self, id: &str) -> Option<&[u8]> {
        self.plugins
            .iter()
            .find(|p| p.manifest.id == id)
            .map(Known::component)
    }

    /// The providers of enabled plugins that take an API key, with how, in load order.
    pub fn api_keys(&self) -> Vec<(String, smith_host::manifest::ApiKey)> {
        self.enabled()
            .filter_map(|m| m.provider.as_ref())
            .filter_map(|d| d.api_key.clone().map(|k| (d.id.clone(), k)))
            .collect()
    }

    /// The ids of the providers the enabled plugins contribute, in load order.
    pub fn provider_ids(&self) -> Vec<String> {
        self.enabled()
            .filter_map(|m| m.provider.as_ref().map(|d| d.id.clone()))
            .collect()
    }

    /// Load the enabled plugins whose manifest `wanted` accepts, through the compile cache of
    /// `paths` (a run loads only the provider plugin it uses: each loaded plugin costs
    /// start-up time). Installed plugins are compiled and checked now; bundled ones, which
    /// this build declared, on their first use.
    ///
    /// # Errors
    /// [`RegistryError::Conflict`] for two plugins holding one contribution;
    /// [`RegistryError::Defect`] for a bundled plugin that does not load.
    pub fn load(
        &self,
        paths: &Paths,
        wanted: impl Fn(&Manifest) -> bool,
    ) -> Result<Host, RegistryError> {
        let sources = self.sources(wanted);
        // Winch first, Cranelift in the background: a first run does not wait for the
        // optimizing compiler (the compile cache's module docs).
        let cache =
            CompileCache::new(paths.compile_cache().map(Path::to_path_buf)).baseline_first();
        let installed = self.plugins.iter().any(Known::is_installed);
        Host::load(&sources, &cache, smith_host::Limits::default()).map_err(|e| match e {
            smith_host::Error::Conflict { .. } => RegistryError::Conflict(e),
            // An installed plugin's failure is the user's to fix, not a defect of the build.
            other if installed => RegistryError::Installed(other.to_string()),
            other => RegistryError::Defect(other.to_string()),
        })
    }
}

/// The bundled plugins' manifests, parsed on two threads: KDL parsing is most of what knowing
/// the plugins costs (measured: about 7 ms of a 9 ms `smith plugins list`), and every command
/// pays it.
fn bundled_manifests() -> Vec<Result<Manifest, smith_host::Error>> {
    let parse = |list: &[smith_plugins::BundledPlugin]| -> Vec<_> {
        list.iter()
            .map(|b| Manifest::parse(b.manifest, b.origin))
            .collect()
    };
    let (first, second) = smith_plugins::BUNDLED.split_at(smith_plugins::BUNDLED.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| parse(second));
        let mut all = parse(first);
        // A thread that panicked: its half parsed again here, where the panic surfaces.
        all.extend(other.join().unwrap_or_else(|_| parse(second)));
        all
    })
}

/// Why process execution is refused in a directory. The frontend words it for the model and
/// the user, with its own way of changing the decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessRefusal {
    /// `process.allow` is `false` (its source).
    SwitchedOff {
        /// Where the setting came from.
        source: String,
    },
    /// The project is not trusted and nothing else allows it.
    Untrusted {
        /// The project (or the directory, when it is in none).
        project: PathBuf,
    },
}

impl std::fmt::Display for ProcessRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SwitchedOff { source } => write!(
                f,
                "running programs is switched off: process.allow is false ({source}); remove that setting to allow it in trusted projects"
            ),
            Self::Untrusted { project } => write!(
                f,
                "running programs is not allowed here: the project {} is not trusted; trust the project, or set process.allow to true",
                project.display()
            ),
        }
    }
}

/// The environment variable names the comma-separated string setting `key` lists (empty when
/// unset); `Err((source, name))` for the first that is not a name (letters, digits and `_`,
/// not starting with a digit).
pub(crate) fn variable_names(
    settings: &Settings,
    key: &str,
) -> Result<Vec<String>, (String, String)> {
    let mut out = Vec::new();
    if let Some(setting) = settings.resolved.get(key)
        && let Value::String(names) = &setting.value
    {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let valid = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if !valid {
                return Err((setting.source.to_string(), name.to_owned()));
            }
            out.push(name.to_owned());
        }
    }
    Ok(out)
}

/// Whether an enabled plugin reads context file `name`.
fn read_has(plugins: &[Known], name: &str) -> bool {
    plugins
        .iter()
        .any(|p| p.disabled_by.is_none() && p.manifest.context_files.iter().any(|n| n == name))
}

/// The standing context file names of `context.files`, in order (empty: unset).
fn context_files(settings: &Settings) -> Vec<String> {
    match settings.resolved.get("context.files").map(|s| &s.value) {
        Some(Value::String(names)) => names
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// The trusted project `dir` is in (the nearest ancestor with a `.smith` directory, or `dir`
/// itself when none has one), or `None` when that project is not trusted.
///
/// # Errors
/// The trust records cannot be placed or read.
pub fn trusted_project(paths: &Paths, dir: &Path) -> Result<Option<PathBuf>, RegistryError> {
    let project = project_of(dir)
        .or_else(|| dir.canonicalize().ok())
        .unwrap_or_else(|| dir.to_owned());
    let trusted = TrustStore::load(&paths.trust_file()?)?.is_trusted(&project);
    Ok(trusted.then_some(project))
}

/// The user's policy for tools run from `cwd`: process execution allowed by `process.allow`,
/// else by the project's trust — in an untrusted project each program is asked first
/// ([`ProcessPolicy::AskFirst`]); the process bounds (`process.max-timeout`,
/// `process.output-limit`) and the environment pass-through (`process.pass-env`); where the
/// run is for the request-preparing handlers ([`crate::paths::context_dirs`]); Smith's
/// documentation for tools granted `docs.read`. A refusal is worded by `words` (the frontend
/// names its own fix).
///
/// # Errors
/// The trust records cannot be placed or read; `process.pass-env` is malformed.
pub fn policy(
    paths: &Paths,
    settings: &Settings,
    cwd: &Path,
    words: &dyn Fn(&ProcessRefusal) -> String,
) -> Result<Policy, RegistryError> {
    let project = project_of(cwd)
        .or_else(|| cwd.canonicalize().ok())
        .unwrap_or_else(|| cwd.to_owned());
    let state_files = smith_host::StateFiles(paths.state().map(|root| {
        std::sync::Arc::new(crate::state::StateFiles::new(&root, &project))
            as std::sync::Arc<dyn smith::ScopedState>
    }));
    let process = match settings.resolved.get("process.allow") {
        Some(v) if v.value == Value::Bool(true) => {
            ProcessPolicy::Allowed(format!("process.allow is true ({})", v.source))
        }
        Some(v) => ProcessPolicy::Refused(words(&ProcessRefusal::SwitchedOff {
            source: v.source.to_string(),
        })),
        None => {
            if TrustStore::load(&paths.trust_file()?)?.is_trusted(&project) {
                ProcessPolicy::Allowed(format!("the project {} is trusted", project.display()))
            } else {
                // Each program is the person's call (the `permissions` handler asks); withheld
                // where no such handler is active.
                ProcessPolicy::AskFirst(words(&ProcessRefusal::Untrusted { project }))
            }
        }
    };
    let defaults = ProcessLimits::default();
    let max_timeout = settings.integer("process.max-timeout", 600).max(1);
    let output_bytes = settings.integer("process.output-limit", 1 << 20).max(1024);
    let max_timeout = std::time::Duration::from_secs(max_timeout.unsigned_abs());
    let pass_env = variable_names(settings, "process.pass-env")
        .map_err(|(source_text, name)| RegistryError::PassEnv { source_text, name })?;
    let sandbox = crate::sandbox::from_settings(paths, settings, cwd)?;
    let permissions =
        crate::permissions::from_settings(settings, matches!(process, ProcessPolicy::Allowed(_)))?
            .with_project_config(
                trusted_project(paths, cwd)?.map(|p| p.join(".smith").join("config.kdl")),
            );
    let mut programs = crate::sandbox::program_widenings(settings)?;
    crate::mcp::widenings(settings, &mut programs)?;
    let servers = crate::mcp::declared(settings)?;
    // A declared server named like an added one but for case: refused, naming the file.
    if let Ok(added) = crate::mcp::Servers::new(paths).and_then(|s| s.list())
        && let Err(why) = crate::mcp::distinct(servers.keys(), added.keys())
    {
        let (name, d) = servers
            .iter()
            .find(|(n, _)| added.keys().any(|a| a != *n && a.eq_ignore_ascii_case(n)))
            .map_or((String::new(), String::new()), |(n, d)| {
                (n.clone(), d.origin.clone())
            });
        return Err(RegistryError::McpServer {
            source_text: d,
            key: format!("mcp.server.{name}"),
            why,
        });
    }
    let mut policy = Policy {
        process,
        process_limits: ProcessLimits {
            default_timeout: defaults.default_timeout.min(max_timeout),
            max_timeout,
            output_bytes: usize::try_from(output_bytes).unwrap_or(usize::MAX),
        },
        pass_env,
        secrets: smith_secrets::Shared::default(),
        scope: smith_host::RequestScope {
            cwd: Some(cwd.canonicalize().unwrap_or_else(|_| cwd.to_owned())),
            context_dirs: crate::paths::context_dirs(paths, cwd),
            user_dir: paths
                .user_config_dir()
                .map(|d| d.canonicalize().unwrap_or_else(|_| d.to_owned())),
            context_files: context_files(settings),
        },
        docs: crate::docs::embedded(),
        tree: smith_host::Tree::default(),
        sandbox,
        permissions,
        state_files,
        net: net_rules(settings)?,
        programs,
        plugin_settings: plugin_settings(settings),
        hooks: crate::hooks::from_settings(settings, max_timeout)?,
        inputs: std::collections::BTreeMap::new(),
    };
    crate::mcp::give(&mut policy, &servers);
    Ok(policy)
}

/// The plugin id and setting name of a key `plugin.ID.NAME`.
fn plugin_setting(key: &str) -> Option<(&str, &str)> {
    key.strip_prefix("plugin.")?.split_once('.')
}

/// The plugins' own settings (`plugin.ID.NAME`, the namespace kept as given) by plugin id
/// and name; each plugin reads those its manifest declares.
fn plugin_settings(
    settings: &Settings,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
    let mut by_plugin = std::collections::BTreeMap::<_, std::collections::BTreeMap<_, _>>::new();
    for (key, value) in settings.resolved.iter() {
        let Some((id, name)) = plugin_setting(key) else {
            continue;
        };
        // An empty value is no value: the tool that needs it stays withheld.
        let Value::String(text) = &value.value else {
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        by_plugin
            .entry(id.to_owned())
            .or_default()
            .insert(name.to_owned(), text.clone());
    }
    by_plugin
}

/// The user's `plugins.ID.net.allow`, `.deny` and `.credentials` by plugin id (a project's
/// never reach here: [`crate::settings`] drops them).
fn net_rules(settings: &Settings) -> Result<smith_host::net::NetRules, RegistryError> {
    let mut rules = smith_host::net::NetRules::default();
    for (key, value) in settings.resolved.iter() {
        let Some(rest) = key.strip_prefix("plugins.") else {
            continue;
        };
        let Value::String(text) = &value.value else {
            continue;
        };
        let bad = |e: smith_host::net::BadPattern| RegistryError::NetPattern {
            source_text: value.source.to_string(),
            key: key.clone(),
            why: e.to_string(),
        };
        if let Some(id) = rest.strip_suffix(".net.credentials") {
            let credentials = text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::parse::<smith_host::net::Credential>)
                .collect::<Result<Vec<_>, _>>()
                .map_err(bad)?;
            rules.credentials.insert(id.to_owned(), credentials);
            continue;
        }
        let (id, list) = if let Some(id) = rest.strip_suffix(".net.allow") {
            (id, &mut rules.allow)
        } else if let Some(id) = rest.strip_suffix(".net.deny") {
            (id, &mut rules.deny)
        } else {
            continue;
        };
        let patterns = smith_host::net::parse_patterns(text.split(',')).map_err(bad)?;
        list.insert(id.to_owned(), patterns);
    }
    Ok(rules)
}
