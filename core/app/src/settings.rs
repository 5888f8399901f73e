//! Resolved configuration for one invocation: the seven precedence levels (spec: Plugin system
//! and configuration → Configuration) folded with the provenance of every value, and what
//! loading had to tell the user ([`Notice`]s). The frontend describes its invocation — the
//! `-c KEY=VALUE` overrides, the plugins it disables, its per-command settings with the words
//! that name their origin (a flag, an RPC parameter) — and gets [`Settings`].

use std::path::{Path, PathBuf};

use smith_config::{ConfigError, Level, Origin, Resolved, Resolver, TrustStore, Value, parse_file};

use crate::paths::{NoHome, Paths, project_of};

/// One per-invocation setting with the words that name where it came from (e.g. `--model`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvocationSetting {
    /// How the frontend names the origin, recorded as the value's source.
    pub origin: String,
    /// The setting's key (`model`, `process.allow`, …).
    pub key: String,
    /// The value as text, checked against the setting's type.
    pub value: String,
}

/// What the frontend was asked to do, as far as configuration goes: command-line level 7.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// `KEY=VALUE` overrides, in order (each is its own source).
    pub overrides: Vec<String>,
    /// Settings the frontend's own options set, in order, after the overrides.
    pub settings: Vec<InvocationSetting>,
    /// The working directory whose project configuration applies (when trusted).
    pub cwd: Option<PathBuf>,
}

impl Invocation {
    /// Add a per-invocation setting.
    pub fn set(
        &mut self,
        origin: impl Into<String>,
        key: impl Into<String>,
        value: impl Into<String>,
    ) {
        self.settings.push(InvocationSetting {
            origin: origin.into(),
            key: key.into(),
            value: value.into(),
        });
    }
}

/// Something loading had to tell the user; nothing stopped.
#[derive(Debug)]
pub enum Notice {
    /// A project's configuration file was skipped because the project is not trusted.
    UntrustedProject {
        /// The skipped file.
        file: PathBuf,
        /// The project (the directory holding `.smith/`).
        project: PathBuf,
        /// The names of the hooks it configures (`hooks.NAME.*`), which were not run.
        hooks: Vec<String>,
    },
    /// A configuration file enables or disables a plugin that is not installed.
    UnknownPlugin {
        /// Where the setting came from (file and line, variable).
        source: String,
        /// The plugin id it names.
        id: String,
        /// The known plugin ids.
        known: Vec<String>,
    },
    /// A configuration sets `plugin.ID.NAME` for a plugin whose manifest declares no setting
    /// of that name: it has no effect.
    UnknownPluginSetting {
        /// Where the setting came from (file and line, variable, flag).
        source: String,
        /// The plugin.
        id: String,
        /// The setting it names.
        name: String,
        /// The settings the plugin declares.
        declared: Vec<String>,
    },
    /// `context.files` names files no enabled context handler reads (or none at all): they
    /// are passed over, and when none is left the handlers' own order applies.
    ContextFiles {
        /// Where the setting came from.
        source: String,
        /// The names passed over.
        passed: Vec<String>,
        /// The names the context handlers read.
        read: Vec<String>,
        /// Whether no name is left, so the handlers' declared order applies.
        fallback: bool,
    },
    /// A renewable credential could not be renewed; its account is passed over.
    RenewalFailed(crate::auth::AuthError),
    /// The compile cache could not be written (its directory and the I/O error): plugins are
    /// compiled again on every start.
    CacheUnwritable(String),
    /// An installed plugin is not loaded (its files are missing, its component changed since
    /// it was installed, its id is a bundled plugin's): the sentence says which and what to do.
    Plugin(String),
    /// A project's configuration sets a `sandbox.*` key, a plugin's `plugins.ID.net.*`
    /// rules or a plugin's own `plugin.ID.NAME` setting, which only the user may set: it was
    /// ignored (a project must not loosen the
    /// sandbox its own programs run in, nor open hosts to a plugin).
    ProjectSandbox {
        /// Where (file and line).
        source: String,
        /// The key.
        key: String,
    },
}

impl Notice {
    /// Whether it warns of something that will not work (a passed-over account), rather than
    /// noting something skipped by design.
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            Self::RenewalFailed(_)
                | Self::CacheUnwritable(_)
                | Self::Plugin(_)
                | Self::ProjectSandbox { .. }
                | Self::UnknownPluginSetting { .. }
                | Self::ContextFiles { .. }
        )
    }
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UntrustedProject { file, hooks, .. } => {
                write!(
                    f,
                    "project settings in {} were skipped: the project is not trusted",
                    file.display()
                )?;
                if !hooks.is_empty() {
                    write!(
                        f,
                        "; its hooks were not run ({})",
                        hooks
                            .iter()
                            .map(|h| format!("`{h}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )?;
                }
                Ok(())
            }
            Self::ContextFiles {
                source,
                passed,
                read,
                fallback,
            } => {
                let passed = if passed.is_empty() {
                    "it names no file".to_owned()
                } else {
                    format!(
                        "no context handler reads {}",
                        passed
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                write!(
                    f,
                    "{source}: context.files: {passed} (they read {}){}",
                    read.join(", "),
                    if *fallback {
                        format!("; their own order applies: {}", read.join(", "))
                    } else {
                        "; those names are passed over".to_owned()
                    }
                )
            }
            Self::UnknownPluginSetting {
                source,
                id,
                name,
                declared,
            } => write!(
                f,
                "{source}: plugin {id} declares no setting `{name}`, so plugin.{id}.{name} has no effect; {}",
                if declared.is_empty() {
                    "it declares none".to_owned()
                } else {
                    format!(
                        "it declares {}",
                        declared
                            .iter()
                            .map(|d| format!("plugin.{id}.{d}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ),
            Self::ProjectSandbox { source, key } if key.starts_with("plugin.") => write!(
                f,
                "{source}: {key} was ignored: a plugin's settings come from your own configuration, the environment or the command line, never from a project's (a project could point a plugin at a server of its choosing); set it in your own configuration if you mean it"
            ),
            Self::ProjectSandbox { source, key } if key.starts_with("plugins.") => write!(
                f,
                "{source}: {key} was ignored: a plugin's network rules come from your own configuration, the environment or the command line, never from a project's (a project could open hosts to a plugin); set it in your own configuration if you mean it"
            ),
            Self::ProjectSandbox { source, key } => write!(
                f,
                "{source}: {key} was ignored: sandbox settings come from your own configuration, the environment or the command line, never from a project's (its programs would choose their own confinement); set it in your own configuration if you mean it"
            ),
            Self::UnknownPlugin { source, id, known } => write!(
                f,
                "{source}: no plugin `{id}` is installed; the known plugins are {}; the setting has no effect",
                known.join(", ")
            ),
            Self::RenewalFailed(e) => write!(f, "{e}"),
            Self::CacheUnwritable(why) => write!(
                f,
                "the compile cache cannot be written ({why}), so the plugins it could not keep are compiled again on every start"
            ),
            Self::Plugin(sentence) => f.write_str(sentence),
        }
    }
}

/// Why configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A value, key or file is invalid (the message names source, key and an example).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A configuration file exists but could not be read.
    #[error("cannot read the configuration file {}: {source}; fix its permissions or remove it", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The directory a configuration file would be in cannot be read (or is not a
    /// directory): named itself, not the file inside it.
    #[error("cannot read the directory {}{}: {source}; {}", dir.display(), if *home { " (SMITH_HOME)" } else { "" }, if *home { "set SMITH_HOME to a directory you can read and write" } else { "fix its permissions, or point the variable that leads there elsewhere" })]
    UnreadableDirectory {
        /// The directory.
        dir: PathBuf,
        /// Whether it is `SMITH_HOME`.
        home: bool,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A configuration file is not UTF-8.
    #[error("the configuration file {} is not UTF-8 text (invalid byte at offset {offset}); fix or remove it", path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The offset of the first invalid byte.
        offset: usize,
    },
    /// The trust records cannot be placed.
    #[error(transparent)]
    NoHome(#[from] NoHome),
}

/// Resolved configuration and what loading it has to tell the user.
#[derive(Debug)]
pub struct Settings {
    /// Every resolved value with its source.
    pub resolved: Resolved,
    /// Notices for the user (e.g. skipped untrusted project settings).
    pub notices: Vec<Notice>,
}

impl Settings {
    /// Resolve all seven levels for `invocation`: defaults, (plugin levels: none yet), the
    /// user file, the trusted project file of `invocation.cwd`, the environment, then the
    /// overrides and the invocation's own settings.
    ///
    /// # Errors
    /// [`SettingsError`] naming the file, variable or override at fault.
    pub fn load(paths: &Paths, invocation: &Invocation) -> Result<Self, SettingsError> {
        let mut resolver = Resolver::with_defaults();
        let mut notices = Vec::new();
        if let Some(user) = paths.user_config() {
            add_file(&mut resolver, Level::User, user, paths.smith_home())?;
        }
        if let Some(cwd) = &invocation.cwd
            && let Some(project) = project_of(cwd)
        {
            let file = project.join(".smith").join("config.kdl");
            if file.is_file() {
                if TrustStore::load(&paths.trust_file()?)?.is_trusted(&project) {
                    notices.extend(add_file(&mut resolver, Level::Project, &file, None)?);
                } else {
                    let hooks = hook_names(&file);
                    notices.push(Notice::UntrustedProject {
                        file,
                        project,
                        hooks,
                    });
                }
            }
        }
        resolver.add_env(|var| std::env::var(var).ok())?;
        for text in &invocation.overrides {
            resolver.add_override(text)?;
        }
        for setting in &invocation.settings {
            let origin = Origin::Flag {
                flag: setting.origin.clone(),
            };
            resolver.add_text(Level::CommandLine, origin, &setting.key, &setting.value)?;
        }
        Ok(Self {
            resolved: resolver.resolve(),
            notices,
        })
    }

    /// The resolved value of `key`, if any.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.resolved.get(key).map(|v| &v.value)
    }

    /// The string value of `key`, if it is set to one.
    pub fn string(&self, key: &str) -> Option<&str> {
        match self.value(key) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    /// The boolean value of `key`, else `default`.
    pub fn bool(&self, key: &str, default: bool) -> bool {
        match self.value(key) {
            Some(Value::Bool(b)) => *b,
            _ => default,
        }
    }

    /// The integer value of `key`, else `default`.
    pub fn integer(&self, key: &str, default: i64) -> i64 {
        match self.value(key) {
            Some(Value::Integer(n)) => *n,
            _ => default,
        }
    }
}

/// Validate the configuration file at `path` on its own, applying it nowhere: what `config
/// check` does with a project file that is skipped because the project is not trusted.
/// Returns how many settings it sets (0 for a missing file).
///
/// # Errors
/// [`SettingsError`] naming the file and line at fault.
pub fn check_file(path: &Path) -> Result<usize, SettingsError> {
    let mut resolver = Resolver::default();
    add_file(&mut resolver, Level::Project, path, None)?;
    Ok(resolver.resolve().iter().count())
}

/// Check `-c KEY=VALUE` overrides alone, resolving nothing else: a command that reads no
/// configuration still refuses a malformed or unknown override.
///
/// # Errors
/// The first override's [`ConfigError`].
pub fn check_overrides(overrides: &[String]) -> Result<(), ConfigError> {
    let mut resolver = Resolver::default();
    for text in overrides {
        resolver.add_override(text)?;
    }
    Ok(())
}

/// Add the file at `path` (absent: nothing) at `level`; `home` is `SMITH_HOME`, named when
/// it is the directory that cannot be read.
fn add_file(
    resolver: &mut Resolver,
    level: Level,
    path: &Path,
    home: Option<&Path>,
) -> Result<Vec<Notice>, SettingsError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| SettingsError::NotUtf8 {
            path: path.to_owned(),
            offset: e.utf8_error().valid_up_to(),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A home that is a file reads as "not found" on some systems: name it.
            if let Some(dir) = path.parent()
                && dir.is_file()
            {
                return Err(SettingsError::UnreadableDirectory {
                    dir: dir.to_owned(),
                    home: home == Some(dir),
                    source: std::io::ErrorKind::NotADirectory.into(),
                });
            }
            return Ok(Vec::new());
        }
        Err(source) => {
            // The directory itself is the problem (no permission, not a directory): name it.
            if let Some(dir) = path.parent()
                && let Err(source) = std::fs::read_dir(dir)
            {
                return Err(SettingsError::UnreadableDirectory {
                    dir: dir.to_owned(),
                    home: home == Some(dir),
                    source,
                });
            }
            return Err(SettingsError::Unreadable {
                path: path.to_owned(),
                source,
            });
        }
    };
    let label = path.display().to_string();
    let mut entries = parse_file(&text, &label)?;
    // A project never sets its own sandbox (spec: Security; the sandbox guide).
    let mut ignored = Vec::new();
    if level == Level::Project {
        entries.retain(|e| {
            // A plugin's network rules likewise: a project must not open hosts to a plugin.
            // And how a plugin's kept programs' sandbox is widened.
            let net = e.key.starts_with("plugins.")
                && (e.key.ends_with(".net.allow")
                    || e.key.ends_with(".net.deny")
                    || e.key.ends_with(".net.credentials")
                    || e.key.contains(".programs."));
            // And a plugin's own settings (`plugin.ID.NAME`): a project must not point a
            // plugin at a server of its choosing (a search endpoint would get every query).
            let own = e.key.starts_with("plugin.");
            // And how an MCP server's program is let out of the sandbox.
            let server = e.key.starts_with("mcp.server.")
                && (e.key.ends_with(".network") || e.key.ends_with(".writable-roots"));
            let sandbox = e.key.starts_with("sandbox.") || net || own || server;
            if sandbox {
                ignored.push(Notice::ProjectSandbox {
                    source: format!("{label}:{}", e.line),
                    key: e.key.clone(),
                });
            }
            !sandbox
        });
    }
    resolver.add_file(level, &label, &entries)?;
    Ok(ignored)
}

/// The names of the hooks a configuration file configures (`hooks.NAME.*`), for the notice
/// that an untrusted project's were not run; none when the file cannot be read or parsed
/// (reading it for real reports that).
fn hook_names(file: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let Ok(entries) = parse_file(&text, &file.display().to_string()) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .iter()
        .filter_map(|e| e.key.strip_prefix("hooks.")?.split_once('.'))
        .map(|(name, _)| name.to_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}
