//! Grants: what a plugin may do. Everything is denied unless granted, decided by one
//! exhaustive match so a new effect cannot be added without deciding who may perform it.
//!
//! Default grants (documented in the `plugins` guide): a plugin gets the file grants
//! it requests, rooted in the invocation's working directory; it gets `process.exec` only when
//! the user's [`Policy`] allows process execution here (a trusted project, the
//! `process.allow` setting or the `--allow-process` flag), and otherwise every process effect
//! is refused with the fix named.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// A capability a plugin requests in its manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grant {
    /// Read, list, find and grep files inside the granted roots.
    FsRead,
    /// Create, replace and edit files inside the granted roots.
    FsWrite,
    /// Run external programs (the process effect), subject to the user's [`Policy`].
    ProcessExec,
    /// Hand a secret the plugin created to the secret proxy (`secrets.register`).
    SecretsRegister,
    /// Read Smith's built-in documentation (`docs.read`; tool plugins).
    DocsRead,
    /// Read the standing context files the manifest names (`context-file`) in the directories
    /// of a `context` event (`context.read`; `context` handlers).
    ContextRead,
    /// Snapshot the project's working tree and diff snapshots (`vcs.snapshot`; tool plugins
    /// and `history` handlers).
    VcsSnapshot,
    /// Restore the working tree to a snapshot (`vcs.restore`; tool plugins and `history`
    /// handlers).
    VcsRestore,
    /// Send HTTP requests to the hosts the manifest's `net-host` patterns name, as the user's
    /// `plugins.ID.net.*` settings change them (`net.http`; tool plugins, package 1.2.0).
    NetHttp,
}

/// Every grant, in the order the manifest reference lists them.
pub const ALL_GRANTS: &[Grant] = &[
    Grant::FsRead,
    Grant::FsWrite,
    Grant::ProcessExec,
    Grant::SecretsRegister,
    Grant::DocsRead,
    Grant::ContextRead,
    Grant::VcsSnapshot,
    Grant::VcsRestore,
    Grant::NetHttp,
];

impl Grant {
    /// The grant's manifest name (`fs.read`…).
    pub fn name(self) -> &'static str {
        match self {
            Self::FsRead => "fs.read",
            Self::FsWrite => "fs.write",
            Self::ProcessExec => "process.exec",
            Self::SecretsRegister => "secrets.register",
            Self::DocsRead => "docs.read",
            Self::ContextRead => "context.read",
            Self::VcsSnapshot => "vcs.snapshot",
            Self::VcsRestore => "vcs.restore",
            Self::NetHttp => "net.http",
        }
    }
}

/// A grant name this Smith does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown grant `{0}`; this Smith grants {known}", known = ALL_GRANTS.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>().join(", "))]
pub struct UnknownGrant(pub String);

impl std::str::FromStr for Grant {
    type Err = UnknownGrant;

    fn from_str(s: &str) -> Result<Self, UnknownGrant> {
        ALL_GRANTS
            .iter()
            .copied()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGrant(s.to_owned()))
    }
}

impl std::fmt::Display for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An effect a plugin asks the host to perform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `fs.read-lines`.
    ReadFile,
    /// `fs.list-dir`.
    ListDir,
    /// `fs.find`.
    Find,
    /// `fs.grep`.
    Grep,
    /// `fs.write-file`.
    WriteFile,
    /// `fs.edit-file`.
    EditFile,
    /// `process.run`.
    Process,
    /// `process.start`: a program kept running across calls (`start-session`).
    ProcessStart,
    /// `process.send`: bytes written to a kept program's standard input.
    ProcessSend,
    /// `vcs.snapshot`.
    VcsSnapshot,
    /// `vcs.diff`.
    VcsDiff,
    /// `vcs.restore`.
    VcsRestore,
    /// `net.fetch`.
    NetFetch,
}

impl Effect {
    /// The effect's name as recorded in the session (`fs.read`, `process.run`…).
    pub fn name(self) -> &'static str {
        match self {
            Self::ReadFile => "fs.read",
            Self::ListDir => "fs.list",
            Self::Find => "fs.find",
            Self::Grep => "fs.grep",
            Self::WriteFile => "fs.write",
            Self::EditFile => "fs.edit",
            Self::Process => "process.run",
            Self::ProcessStart => "process.start",
            Self::ProcessSend => "process.send",
            Self::VcsSnapshot => "vcs.snapshot",
            Self::VcsDiff => "vcs.diff",
            Self::VcsRestore => "vcs.restore",
            Self::NetFetch => "net.fetch",
        }
    }

    /// Whether the effect only reads: the file reads and searches, a snapshot, a diff (a
    /// snapshot writes only to Smith's own store).
    pub fn read_only(self) -> bool {
        matches!(
            self,
            Self::ReadFile
                | Self::ListDir
                | Self::Find
                | Self::Grep
                | Self::VcsSnapshot
                | Self::VcsDiff
        )
    }

    /// The grant the effect needs.
    pub fn needs(self) -> Grant {
        match self {
            Self::ReadFile | Self::ListDir | Self::Find | Self::Grep => Grant::FsRead,
            Self::WriteFile | Self::EditFile => Grant::FsWrite,
            Self::Process | Self::ProcessStart | Self::ProcessSend => Grant::ProcessExec,
            Self::VcsSnapshot | Self::VcsDiff => Grant::VcsSnapshot,
            Self::VcsRestore => Grant::VcsRestore,
            Self::NetFetch => Grant::NetHttp,
        }
    }
}

/// Whether the user allows process execution for this invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessPolicy {
    /// Allowed; the text says why (e.g. "the project /p is trusted").
    Allowed(String),
    /// Refused; the text says why and how to allow it.
    Refused(String),
    /// Each program runs only when a `permissions` policy handler explicitly allows it (the
    /// person said yes, or a rule or a lasting choice of theirs covers it): an untrusted
    /// project. Where no such handler is active, programs are refused as with
    /// [`ProcessPolicy::Refused`]; the text says why and how to let them run.
    AskFirst(String),
}

/// Bounds of process effects, from the user's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// The timeout when a request gives none (`0`).
    pub default_timeout: Duration,
    /// The longest timeout a request may ask for (`process.max-timeout`).
    pub max_timeout: Duration,
    /// The most bytes kept of each output stream (`process.output-limit`).
    pub output_bytes: usize,
}

impl Default for ProcessLimits {
    /// 120 s by default, at most 600 s, 1 MiB per stream.
    fn default() -> Self {
        Self {
            default_timeout: Duration::from_secs(120),
            max_timeout: Duration::from_secs(600),
            output_bytes: 1 << 20,
        }
    }
}

/// The user's side of the grant decision for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Process execution.
    pub process: ProcessPolicy,
    /// Process bounds.
    pub process_limits: ProcessLimits,
    /// Environment variables a `baseline` process environment passes through besides
    /// [`crate::process::BASELINE_ENV`] (`process.pass-env`).
    pub pass_env: Vec<String>,
    /// The registered secrets whose references (`⟦secret:NAME⟧`) are restored to plaintext at
    /// the local effect boundaries this policy authorizes: a process's program, arguments and
    /// environment, and the content of a file write or edit inside the granted roots — never a
    /// network effect. Records keep the reference (spec: the secret proxy restores secrets
    /// "only for authorized local effects").
    pub secrets: smith_secrets::Shared,
    /// Where the run is, for the `prompt` and `context` handlers.
    pub scope: RequestScope,
    /// Smith's documentation, for tools granted `docs.read` (none: they are told it is not
    /// available).
    pub docs: crate::Docs,
    /// The project's working-tree history the `vcs` facility works on (none: the
    /// `history.snapshots` setting is off, and `vcs` calls say so).
    pub tree: crate::Tree,
    /// The OS sandbox every program starts in (`sandbox.*`; the user's settings only).
    pub sandbox: crate::sandbox::Sandbox,
    /// How the user widened it for programs plugins keep across calls, by plugin id and then
    /// by the kept program's session name (`plugins.ID.programs.NAME.*`; the user's settings
    /// only).
    pub programs: BTreeMap<String, BTreeMap<String, crate::sandbox::Widening>>,
    /// The permission mode and rules every policy event carries (`permissions.*`).
    pub permissions: crate::policy::Permissions,
    /// Where plugins' project and user state is kept (branch and session state is the
    /// session's, [`smith::ToolContext::state`]).
    pub state_files: crate::StateFiles,
    /// The user's network rules per plugin (`plugins.ID.net.allow` / `.deny`).
    pub net: crate::net::NetRules,
    /// The plugins' settings as configured (`plugin.ID.NAME`), by plugin id and then by
    /// name; a plugin reads those its manifest declares (`host.setting`), and a tool that
    /// `needs-setting` one is withheld while it is unset.
    pub plugin_settings: BTreeMap<String, BTreeMap<String, String>>,
    /// The hooks the user configured (`hooks.NAME.*`), in name order: a `configured-hooks`
    /// policy handler runs those matching each call ([`crate::hooks`]).
    pub hooks: Vec<crate::hooks::Hook>,
    /// The inputs given to plugins for this run, by plugin id and then by input name: JSON
    /// values a plugin whose manifest declares the input (`input "NAME"`) reads, read only
    /// (the MCP client's `mcp-servers`: the servers configured and those an editor passed).
    pub inputs: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
}

/// Where a run is, for the request-preparing handlers: what `prompt` and `context` events
/// tell them, and the directories a `context` handler's `context.read` grant covers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestScope {
    /// The session's working directory.
    pub cwd: Option<PathBuf>,
    /// The directories standing context files are read from, in order: the user's Smith
    /// configuration directory, then the project root (the git work tree's root, never above
    /// the home directory) down to the working directory.
    pub context_dirs: Vec<PathBuf>,
    /// The user's Smith configuration directory (the first of `context_dirs`), when known.
    pub user_dir: Option<PathBuf>,
    /// The standing context file names to look for in each directory, in order of
    /// preference (`context.files`; empty: each handler's declared order).
    pub context_files: Vec<String>,
}

impl Policy {
    /// The values of the settings `manifest` declares that are set (`plugin.ID.NAME`), by
    /// name.
    pub fn settings_of(&self, manifest: &crate::manifest::Manifest) -> BTreeMap<String, String> {
        let Some(set) = self.plugin_settings.get(&manifest.id) else {
            return BTreeMap::new();
        };
        manifest
            .settings
            .iter()
            .filter_map(|d| set.get(&d.name).map(|v| (d.name.clone(), v.clone())))
            .collect()
    }
}

impl Default for Policy {
    /// Process execution refused (no trust decision was made).
    fn default() -> Self {
        Self {
            process: ProcessPolicy::Refused(
                "process execution was not allowed for this run: no decision about the project's trust was made; trust the project, or set process.allow to true".to_owned(),
            ),
            process_limits: ProcessLimits::default(),
            pass_env: Vec::new(),
            secrets: smith_secrets::Shared::default(),
            scope: RequestScope::default(),
            docs: crate::Docs::default(),
            tree: crate::Tree::default(),
            sandbox: crate::sandbox::Sandbox::default(),
            programs: BTreeMap::new(),
            permissions: crate::policy::Permissions::default(),
            state_files: crate::StateFiles::default(),
            net: crate::net::NetRules::default(),
            plugin_settings: BTreeMap::new(),
            hooks: Vec::new(),
            inputs: BTreeMap::new(),
        }
    }
}

/// The grants a plugin instance holds for one call: what it requested, intersected with the
/// host's policy, and the roots its file grants cover.
#[derive(Clone, Debug, Default)]
pub struct Granted {
    /// Granted capabilities.
    pub grants: Vec<Grant>,
    /// Directories file effects may touch (canonical paths); empty: none.
    pub roots: Vec<PathBuf>,
    /// Why `process.exec` was withheld although requested (the fix included).
    pub process_refused: Option<String>,
    /// The hosts `net.http` covers (empty without the grant).
    pub net: crate::net::NetGrant,
    /// The values of the settings the plugin's manifest declares that are set, by name
    /// (`host.setting`).
    pub settings: BTreeMap<String, String>,
}

/// Why an effect is not granted. The message is what the plugin (and the model) is told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    /// The plugin holds the file grant, but the call has no working directory to root it in.
    #[error(
        "plugin {plugin} may not use {effect}: the call has no working directory to root its files in"
    )]
    NoRoot {
        /// The plugin.
        plugin: String,
        /// The effect's name.
        effect: &'static str,
    },
    /// The user's policy refuses process execution here; the text says why and the fix.
    #[error("{0}")]
    Refused(String),
    /// The plugin's manifest does not request the grant the effect needs.
    #[error(
        "plugin {plugin} has no `{grant}` grant, which {effect} needs; its manifest must request it"
    )]
    NoGrant {
        /// The plugin.
        plugin: String,
        /// The grant needed.
        grant: Grant,
        /// The effect's name.
        effect: &'static str,
    },
}

impl Granted {
    /// Whether `effect` is allowed. Deny by default: every effect names the grant it needs.
    ///
    /// # Errors
    /// [`Denied`], naming the plugin's missing grant or the user's policy.
    pub fn check(&self, effect: Effect, plugin: &str) -> Result<(), Denied> {
        let needed = effect.needs();
        if self.grants.contains(&needed) {
            return match needed {
                Grant::FsRead | Grant::FsWrite if self.roots.is_empty() => Err(Denied::NoRoot {
                    plugin: plugin.to_owned(),
                    effect: effect.name(),
                }),
                Grant::FsRead
                | Grant::FsWrite
                | Grant::ProcessExec
                | Grant::SecretsRegister
                | Grant::DocsRead
                | Grant::ContextRead
                | Grant::VcsSnapshot
                | Grant::VcsRestore
                | Grant::NetHttp => Ok(()),
            };
        }
        match (needed, &self.process_refused) {
            (Grant::ProcessExec, Some(why)) => Err(Denied::Refused(why.clone())),
            _ => Err(Denied::NoGrant {
                plugin: plugin.to_owned(),
                grant: needed,
                effect: effect.name(),
            }),
        }
    }
}

/// The default policy: the file grants a plugin requests, rooted in the
/// invocation's working directory, `secrets.register` when requested, and `process.exec` when
/// requested and `policy` allows it.
pub fn default_policy(requested: &[Grant], cwd: Option<PathBuf>, policy: &Policy) -> Granted {
    let mut process_refused = None;
    let grants = requested
        .iter()
        .copied()
        .filter(|g| match g {
            // Handing a secret over only ever hides more, and the documentation and the
            // standing context files are read-only and bounded: granted when requested. The
            // history facility works on the project as the file grants do, and every restore
            // is checked and can itself be restored back.
            Grant::FsRead
            | Grant::FsWrite
            | Grant::SecretsRegister
            | Grant::DocsRead
            | Grant::ContextRead
            | Grant::VcsSnapshot
            | Grant::VcsRestore => true,
            // Bounded by the hosts the manifest names and the user's rules
            // ([`crate::net::NetGrant`]), each request asked of the policy plugins.
            Grant::NetHttp => true,
            Grant::ProcessExec => match &policy.process {
                // The tools are withheld where no permissions handler is active, and each
                // program needs its explicit allow (`Loadout::before_effect`).
                ProcessPolicy::Allowed(_) | ProcessPolicy::AskFirst(_) => true,
                ProcessPolicy::Refused(why) => {
                    process_refused = Some(why.clone());
                    false
                }
            },
        })
        .collect();
    Granted {
        grants,
        roots: cwd.into_iter().collect(),
        process_refused,
        net: crate::net::NetGrant::default(),
        settings: BTreeMap::new(),
    }
}
