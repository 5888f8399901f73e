//! The OS sandbox around every program a process effect starts (spec: Security; Tools →
//! Process and evaluation effects).
//!
//! Design (the sandbox guide says the same for users): Smith starts a *launcher* — the small
//! `smith-sandbox` binary installed beside `smith` ([`LAUNCHER_NAME`]), or `smith` itself
//! where there is none, as `LAUNCHER __sandbox SPEC -- PROGRAM ARGS…` — which, while it is a
//! single-threaded process, applies the confinement in ordinary safe code and then `exec`s the
//! program, so every descendant inherits it. On Linux ([`linux`]):
//! - a user namespace with a mount namespace: each path of the read deny list is covered (an
//!   empty read-only tmpfs over a directory, `/dev/null` over a file), and inside a writable
//!   root the paths that would run code unconfined later (`.smith/`, `.git/hooks`,
//!   `.git/config`) are bound read-only onto themselves (`.git` itself is pinned by a bind of
//!   its own, so it cannot be renamed away);
//! - Landlock: reads and execution everywhere, writes only beneath the writable roots (the
//!   working root, the private temporary directory, `sandbox.writable-roots`), signals only to
//!   processes inside the sandbox; Landlock also forbids a confined process to change mounts,
//!   so the covers above cannot be lifted;
//! - with the network denied: a seccomp filter that refuses creating a socket of any family
//!   (TCP, UDP, raw, netlink, and Unix sockets — a path-named one outside would otherwise reach
//!   a Docker daemon, an ssh-agent or D-Bus; `socketpair` stays) and `io_uring` (whose
//!   operations seccomp cannot see), Landlock's TCP rules, and abstract Unix sockets scoped to
//!   the sandbox.
//!
//! Fail closed: a launcher that cannot apply every part never runs the program; a kernel whose
//! Landlock cannot enforce the mode refuses process effects before anything starts
//! ([`Sandbox::check`]). `full-access` is the only way to run unconfined, and only by the
//! user's explicit setting.
//!
//! macOS: [`seatbelt`] writes the same policy as a Seatbelt profile for `sandbox-exec`
//! (generated and unit-tested here; it cannot run on this project's machines). Windows: no
//! backend, so process effects need `full-access`.

#[cfg(target_os = "linux")]
pub mod linux;
pub mod seatbelt;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The hidden first argument that makes the `smith` binary a launcher.
pub const LAUNCH_ARG: &str = "__sandbox";

/// The exit status of a launcher that could not confine the program (nothing ran), with a
/// [`FAILURE_MARK`] line on stderr.
pub const LAUNCH_FAILED: i32 = 125;

/// The start of the stderr line a failed launcher writes, followed by the spec's nonce, `: `
/// and the reason. The nonce was in the launcher's arguments only, which `exec` replaced, so a
/// program cannot forge the line.
pub const FAILURE_MARK: &str = "smith-sandbox-failure";

/// The environment variable that simulates a kernel without Landlock, for tests of the
/// fail-closed path (`landlock`); it can only take confinement away from process effects by
/// refusing them, never grant anything.
pub const SIMULATE_UNAVAILABLE: &str = "SMITH_SANDBOX_SIMULATE_UNAVAILABLE";

/// How much a program may do (`sandbox.mode`; the names Codex users know).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Read everything but the deny list; write only the private temporary directory.
    ReadOnly,
    /// Read everything but the deny list; write beneath the working root, the private
    /// temporary directory and `sandbox.writable-roots`, except the protected paths.
    WorkspaceWrite,
    /// No OS confinement: only by explicit setting.
    FullAccess,
}

impl Mode {
    /// Every mode, in the order the settings reference lists them.
    pub const ALL: [Mode; 3] = [Mode::ReadOnly, Mode::WorkspaceWrite, Mode::FullAccess];

    /// The setting's word for the mode.
    pub fn name(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::WorkspaceWrite => "workspace-write",
            Self::FullAccess => "full-access",
        }
    }

    /// The mode a setting's word names.
    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == word)
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a confined program may use the network (`sandbox.network`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Network {
    /// TCP, UDP, raw and Unix sockets to the outside work as usual.
    Allow,
    /// No socket reaches outside the sandbox.
    Deny,
}

impl Network {
    /// The setting's word.
    pub fn name(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Deny => "deny",
        }
    }
}

/// The user's sandbox for one run: what [`crate::Policy`] carries. Paths are absolute.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// The mode.
    pub mode: Mode,
    /// The network.
    pub network: Network,
    /// Writable roots besides the working root and the private temporary directory
    /// (`sandbox.writable-roots`; unused in `read-only`).
    pub writable_roots: Vec<PathBuf>,
    /// Paths no confined program may read (Smith's homes, the usual credential places and
    /// `sandbox.deny-read`).
    pub deny_read: Vec<PathBuf>,
    /// The private temporary directory, made on the first confined program.
    temp: Arc<OnceLock<Result<tempfile::TempDir, String>>>,
}

impl Default for Sandbox {
    /// `workspace-write` with the network denied and no deny list (the frontends' policy adds
    /// Smith's homes and the credential places).
    fn default() -> Self {
        Self::new(Mode::WorkspaceWrite, Network::Deny)
    }
}

impl PartialEq for Sandbox {
    fn eq(&self, other: &Self) -> bool {
        self.mode == other.mode
            && self.network == other.network
            && self.writable_roots == other.writable_roots
            && self.deny_read == other.deny_read
    }
}

impl Eq for Sandbox {}

/// How the user widened the sandbox of one program a plugin keeps across calls
/// (`plugins.ID.programs.NAME.network` and `.writable-roots`, the user's own configuration
/// only): an MCP server that needs the network or a directory of its own. It only widens:
/// nothing here narrows the run's sandbox, and `full-access` stays as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Widening {
    /// Whether its network is allowed although the run's is denied.
    pub network: bool,
    /// Directories it may write beneath besides the run's (absolute, existing).
    pub writable_roots: Vec<PathBuf>,
}

impl Widening {
    /// What it adds, in words (`network allowed, writable /data`); empty when nothing.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.network {
            parts.push("network allowed".to_owned());
        }
        if !self.writable_roots.is_empty() {
            let roots: Vec<String> = self
                .writable_roots
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            parts.push(format!("writable {}", roots.join(", ")));
        }
        parts.join(", ")
    }
}

/// The credential places under the home directory every mode hides (spec: Security; the
/// sandbox guide lists them).
pub const CREDENTIAL_PLACES: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".password-store",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
];

/// Why a process effect cannot run confined: said to the plugin and the model as a refusal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unconfinable {
    /// The kernel lacks what the mode needs.
    #[error(
        "programs cannot run here: sandbox.mode is {mode}, which needs {needed}, and this kernel ({kernel}) {lacks}; nothing ran. A newer kernel enforces it; to accept running programs with no OS confinement, the user may set sandbox.mode to full-access"
    )]
    Kernel {
        /// The mode asked for.
        mode: Mode,
        /// What the mode needs.
        needed: &'static str,
        /// The running kernel's release.
        kernel: String,
        /// What it lacks.
        lacks: String,
    },
    /// No launcher is known (a library embedding the host without the `smith` binary).
    #[error(
        "programs cannot run confined: this process has no sandbox launcher (the `smith` binary sets one); nothing ran. The user may set sandbox.mode to full-access to run programs unconfined"
    )]
    NoLauncher,
    /// This platform has no sandbox backend.
    #[error(
        "programs cannot run confined on {os}: Smith has no sandbox for it yet; nothing ran. The user may set sandbox.mode to full-access to run programs with no OS confinement"
    )]
    Platform {
        /// The operating system.
        os: &'static str,
    },
    /// The working directory is inside a path the sandbox hides.
    #[error(
        "programs cannot run in {}: it is inside {}, which the sandbox hides from programs (sandbox.deny-read or Smith's own data); run from a project outside it",
        cwd.display(),
        hidden.display()
    )]
    InsideHidden {
        /// The working directory.
        cwd: PathBuf,
        /// The hidden path containing it.
        hidden: PathBuf,
    },
    /// The private temporary directory could not be made.
    #[error(
        "programs cannot run confined: the private temporary directory could not be made ({0}); nothing ran. Free space in the system's temporary directory or point TMPDIR elsewhere"
    )]
    Temp(String),
    /// A place the sandbox holds read-only (`.smith/`, `.git/hooks`) is missing and could not
    /// be made.
    #[error(
        "programs cannot run confined: {} does not exist and could not be made ({why}), so the sandbox cannot hold it read-only; nothing ran. Make it yourself, or check the working directory's permissions",
        path.display()
    )]
    Hold {
        /// The place.
        path: PathBuf,
        /// The operating system's reason.
        why: String,
    },
}

/// What the kernel offers the sandbox (what `smith doctor` reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Support {
    /// The kernel's release (`uname -r`), or the operating system elsewhere.
    pub kernel: String,
    /// The Landlock ABI version, 0 without Landlock.
    pub landlock_abi: u8,
    /// Whether the probe was told to pretend Landlock is missing ([`SIMULATE_UNAVAILABLE`]).
    pub simulated: bool,
}

/// The Landlock ABI every confined mode needs: 6 (Linux 6.12) — files with rename across
/// directories and truncation (ABI 2, 3), TCP (4) and scoping signals and abstract Unix
/// sockets to the sandbox (6).
pub const REQUIRED_LANDLOCK_ABI: u8 = 6;

impl Support {
    /// Probe the running kernel (cheap; cached by [`Sandbox::check`]).
    pub fn probe() -> Self {
        let simulated = std::env::var_os(SIMULATE_UNAVAILABLE).is_some();
        #[cfg(target_os = "linux")]
        {
            let kernel = nix::sys::utsname::uname()
                .map(|u| format!("Linux {}", u.release().to_string_lossy()))
                .unwrap_or_else(|_| "Linux".to_owned());
            let landlock_abi = if simulated { 0 } else { linux::landlock_abi() };
            Self {
                kernel,
                landlock_abi,
                simulated,
            }
        }
        #[cfg(not(target_os = "linux"))]
        Self {
            kernel: std::env::consts::OS.to_owned(),
            landlock_abi: 0,
            simulated,
        }
    }

    /// Whether confined modes can be enforced here.
    pub fn enforces(&self) -> bool {
        cfg!(target_os = "linux") && self.landlock_abi >= REQUIRED_LANDLOCK_ABI
    }

    /// What this kernel lacks for confined modes, in words ("offers no Landlock", "offers
    /// Landlock ABI 3 only").
    pub fn lacks(&self) -> String {
        match self.landlock_abi {
            0 if self.simulated => format!("offers no Landlock (simulated by {SIMULATE_UNAVAILABLE})"),
            0 => "offers no Landlock (not built in, or not enabled at boot: `lsm=` on the kernel command line)".to_owned(),
            abi => format!("offers Landlock ABI {abi} only"),
        }
    }
}

/// The file name of the dedicated launcher, installed beside `smith`: a small binary that
/// starts in a fraction of the time the whole `smith` binary takes (every program a tool runs
/// pays that start once).
pub const LAUNCHER_NAME: &str = "smith-sandbox";

/// The launcher binary: set once by the `smith` binary at start.
static LAUNCHER: OnceLock<PathBuf> = OnceLock::new();

/// Set the launcher (see [`launcher_for`]). The first call wins.
pub fn set_launcher(path: PathBuf) {
    let _ = LAUNCHER.set(path);
}

/// The launcher for the `smith` binary at `me`: [`LAUNCHER_NAME`] in the same directory when
/// that is a file, else `me` itself (a build that made only `smith`, e.g. `cargo run`). Both
/// take the same arguments, `__sandbox SPEC -- PROGRAM ARGS…`.
pub fn launcher_for(me: &Path) -> PathBuf {
    let beside = me.with_file_name(format!("{LAUNCHER_NAME}{}", std::env::consts::EXE_SUFFIX));
    if beside.is_file() {
        beside
    } else {
        me.to_owned()
    }
}

/// Be the launcher: `args` are what follows [`LAUNCH_ARG`] (`SPEC -- PROGRAM ARGS…`). On
/// success this never returns (the process became the program); otherwise it returns the
/// line to write to stderr as it is (see [`failure_line`]) before exiting with
/// [`LAUNCH_FAILED`].
pub fn launch(args: &[std::ffi::OsString]) -> String {
    let nonce = args
        .first()
        .and_then(|spec| serde_json::from_str::<Confinement>(&spec.to_string_lossy()).ok())
        .map_or(0, |c| c.nonce);
    #[cfg(target_os = "linux")]
    let reason = match linux::launch(args) {
        Ok(never) => match never {},
        Err(e) => e.to_string(),
    };
    #[cfg(not(target_os = "linux"))]
    let reason = "this platform has no sandbox launcher".to_owned();
    format!("{}\n", failure_line(nonce, &reason))
}

/// The launcher, when one was set.
pub fn launcher() -> Option<&'static Path> {
    LAUNCHER.get().map(PathBuf::as_path)
}

/// The kernel's support, probed once per process.
pub fn support() -> &'static Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    SUPPORT.get_or_init(Support::probe)
}

/// What the launcher applies: the spec it receives as JSON. Paths are absolute and existed
/// when the spec was made.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Confinement {
    /// The mode (never `full-access`).
    pub mode: Mode,
    /// The network.
    pub network: Network,
    /// Directories writable beneath.
    pub writable: Vec<PathBuf>,
    /// Paths inside writable roots bound read-only onto themselves.
    pub protected: Vec<PathBuf>,
    /// Directories bound onto themselves so they cannot be renamed away (`.git`).
    pub pinned: Vec<PathBuf>,
    /// Paths covered so they cannot be read.
    pub hidden: Vec<PathBuf>,
    /// The number a failure line carries, so the host knows it from the program's output.
    pub nonce: u64,
    /// The empty directories made to be held read-only ([`Confinement::release`] removes
    /// them when still empty). Not part of what the launcher receives.
    #[serde(skip)]
    pub made: Vec<PathBuf>,
}

impl Confinement {
    /// Remove the directories made for the program that are still empty once no other program
    /// of this process holds them, so a program leaves no `.smith/` behind (a directory that
    /// gained something stays). Call once, when the program has ended.
    pub fn release(&self) {
        let mut held = HELD
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for dir in self.made.iter().rev() {
            let last = match held.get_mut(dir) {
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                _ => true,
            };
            if last {
                held.remove(dir);
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}

/// The directories made to be held, and how many running programs hold each: one is removed
/// only when the last program holding it ends (a program still running must keep its view).
static HELD: std::sync::Mutex<std::collections::BTreeMap<PathBuf, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The paths inside a writable root that stay read-only (writing them would run code
/// unconfined later), relative to the root.
pub const PROTECTED: &[&str] = &[
    ".smith",
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",
    ".git/modules",
];

impl Sandbox {
    /// A sandbox of `mode` and `network` with no extra roots and no deny list.
    pub fn new(mode: Mode, network: Network) -> Self {
        Self {
            mode,
            network,
            writable_roots: Vec::new(),
            deny_read: Vec::new(),
            temp: Arc::default(),
        }
    }

    /// No OS confinement (`full-access`): what tests of the process facility itself use.
    pub fn full_access() -> Self {
        Self::new(Mode::FullAccess, Network::Allow)
    }

    /// The private temporary directory (made on first use, removed when the last clone of
    /// this sandbox is dropped).
    ///
    /// # Errors
    /// [`Unconfinable::Temp`] when it cannot be made.
    pub fn temp_dir(&self) -> Result<&Path, Unconfinable> {
        let made = self.temp.get_or_init(|| {
            tempfile::Builder::new()
                .prefix("smith-sandbox-")
                .tempdir()
                .map_err(|e| e.to_string())
        });
        match made {
            Ok(dir) => Ok(dir.path()),
            Err(why) => Err(Unconfinable::Temp(why.clone())),
        }
    }

    /// Whether process effects can run confined here, before anything starts.
    ///
    /// # Errors
    /// [`Unconfinable`] naming the kernel, what it lacks and the setting that accepts the risk.
    pub fn check(&self) -> Result<(), Unconfinable> {
        if self.mode == Mode::FullAccess {
            return Ok(());
        }
        if !cfg!(target_os = "linux") {
            return Err(Unconfinable::Platform {
                os: std::env::consts::OS,
            });
        }
        let support = support();
        if !support.enforces() {
            return Err(Unconfinable::Kernel {
                mode: self.mode,
                needed: "Landlock ABI 6 (Linux 6.12 or newer)",
                kernel: support.kernel.clone(),
                lacks: support.lacks(),
            });
        }
        if launcher().is_none() {
            return Err(Unconfinable::NoLauncher);
        }
        Ok(())
    }

    /// The confinement of a program run in `cwd` beneath the working `root`; `None` in
    /// `full-access`.
    ///
    /// # Errors
    /// [`Unconfinable`] as [`Sandbox::check`] says, or when `cwd` is inside a hidden path.
    pub fn confine(&self, root: &Path, cwd: &Path) -> Result<Option<Confinement>, Unconfinable> {
        self.check()?;
        if self.mode == Mode::FullAccess {
            return Ok(None);
        }
        let hidden: Vec<PathBuf> = self
            .deny_read
            .iter()
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        if let Some(h) = hidden.iter().find(|h| cwd.starts_with(h)) {
            return Err(Unconfinable::InsideHidden {
                cwd: cwd.to_owned(),
                hidden: h.clone(),
            });
        }
        let temp = self.temp_dir()?.to_owned();
        let mut writable = vec![temp];
        let mut protected = Vec::new();
        let mut pinned = Vec::new();
        let mut made = Vec::new();
        if self.mode == Mode::WorkspaceWrite {
            let roots = std::iter::once(root.to_owned()).chain(
                self.writable_roots
                    .iter()
                    .filter_map(|p| p.canonicalize().ok()),
            );
            made = hold_places(root)?;
            for root in roots {
                let git = root.join(".git");
                if git.is_dir() {
                    pinned.push(git);
                } else if git.is_file() {
                    // A worktree's `.git` file: a `gitdir:` pointing at a planted repository
                    // would have git run its config unconfined.
                    protected.push(git);
                }
                protected.extend(
                    PROTECTED
                        .iter()
                        .map(|rel| root.join(rel))
                        .filter(|p| p.symlink_metadata().is_ok()),
                );
                writable.push(root);
            }
        }
        Ok(Some(Confinement {
            mode: self.mode,
            network: self.network,
            writable,
            protected,
            pinned,
            hidden,
            nonce: nonce(),
            made,
        }))
    }

    /// This sandbox with `widening` applied (its private temporary directory shared).
    pub fn widened(&self, widening: &Widening) -> Self {
        let mut wide = self.clone();
        if widening.network {
            wide.network = Network::Allow;
        }
        for root in &widening.writable_roots {
            if !wide.writable_roots.contains(root) {
                wide.writable_roots.push(root.clone());
            }
        }
        wide
    }

    /// A one-line description for the program's report: "workspace-write, network denied".
    pub fn describe(&self) -> String {
        match (self.mode, self.network) {
            (Mode::FullAccess, _) => "full-access (no OS confinement)".to_owned(),
            (mode, Network::Deny) => format!("{mode}, network denied"),
            (mode, Network::Allow) => format!("{mode}, network allowed"),
        }
    }
}

/// Make the working root's `.smith/` (and `.git/hooks` in a `.git` directory) when missing,
/// empty, so the mount namespace has something to hold read-only: a mount can only cover a
/// path that exists, and a program that made `.smith/config.kdl` could otherwise loosen what
/// runs there next. Git does not track empty directories, so `git status` is unchanged; the
/// directories made are returned, to be removed when the program ends if still empty.
///
/// `.smith/` is made only when no directory above the root holds one: then the root is its own
/// project (a trusted project's settings are read from it). Below a project's `.smith/`, one
/// made here would make the root a project of its own, cut off from its project's trust and
/// settings; one a program makes there is as harmless (a new project is untrusted, and its
/// settings are skipped).
///
/// # Errors
/// [`Unconfinable::Hold`] when one cannot be made.
fn hold_places(root: &Path) -> Result<Vec<PathBuf>, Unconfinable> {
    let git = root.join(".git");
    let in_project = root.ancestors().skip(1).any(|a| a.join(".smith").is_dir());
    let places = (!in_project)
        .then(|| root.join(".smith"))
        .into_iter()
        .chain(git.is_dir().then(|| git.join("hooks")));
    let mut made = Vec::new();
    let mut held = HELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for place in places {
        if let Some(n) = held.get_mut(&place) {
            // Made for a program still running: held for this one too.
            *n += 1;
            made.push(place);
            continue;
        }
        if place.symlink_metadata().is_ok() {
            continue;
        }
        match std::fs::create_dir(&place) {
            Ok(()) => {
                held.insert(place.clone(), 1);
                made.push(place);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(Unconfinable::Hold {
                    path: place,
                    why: e.to_string(),
                });
            }
        }
    }
    Ok(made)
}

/// A number no program can predict from what it sees (the process's hash seed and the clock).
fn nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// The launcher's failure line for `nonce`, as it writes it to stderr.
pub fn failure_line(nonce: u64, reason: &str) -> String {
    format!("{FAILURE_MARK} {nonce:016x}: {reason}")
}

/// The reason of a failed launch: the rest of the failure line for `nonce` when `stderr`
/// starts with it.
pub fn launch_failure(nonce: u64, stderr: &str) -> Option<&str> {
    let prefix = format!("{FAILURE_MARK} {nonce:016x}: ");
    let rest = stderr.strip_prefix(&prefix)?;
    Some(rest.lines().next().unwrap_or(rest))
}

/// What a failed program's output says that a sandbox refusal explains, in words for the
/// report ("a write was refused"), or `None` when nothing in it points at the sandbox. Best
/// effort, from the error texts programs print for EACCES, EPERM, EROFS and ENETUNREACH.
pub fn likely_refusal(output: &str) -> Option<&'static str> {
    const SIGNS: &[(&str, &str)] = &[
        (
            "Read-only file system",
            "a write to a read-only path was refused",
        ),
        ("Permission denied", "an access was refused (EACCES)"),
        (
            "Operation not permitted",
            "an operation was refused (EPERM)",
        ),
        ("Network is unreachable", "a network connection was refused"),
        (
            "Temporary failure in name resolution",
            "a network name lookup failed",
        ),
        ("Could not resolve host", "a network name lookup failed"),
        (
            "Invalid cross-device link",
            "a link or rename across the sandbox's boundary was refused",
        ),
    ];
    SIGNS
        .iter()
        .find(|(sign, _)| output.contains(sign))
        .map(|(_, what)| *what)
}

/// The note added to a failed confined program's stderr, or `None` when its output shows no
/// sign of a refusal.
pub fn refusal_note(sandbox: &Sandbox, root: &Path, output: &str) -> Option<String> {
    let what = likely_refusal(output)?;
    let writes = match sandbox.mode {
        Mode::ReadOnly => "no writes except the private TMPDIR".to_owned(),
        Mode::WorkspaceWrite => format!(
            "writes only beneath {} (not .smith/, .git/hooks, .git/config) and TMPDIR",
            root.display()
        ),
        Mode::FullAccess => return None,
    };
    let network = match sandbox.network {
        Network::Deny => "no network",
        Network::Allow => "network allowed",
    };
    Some(format!(
        "[smith sandbox: {} — {writes}; {network}; Smith's data and credential files hidden. The output suggests {what}: likely the sandbox, not the program]",
        sandbox.mode
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_line_is_known_only_with_its_nonce() {
        let line = failure_line(0xabc, "unshare: Operation not permitted");
        assert_eq!(
            launch_failure(0xabc, &format!("{line}\nmore")),
            Some("unshare: Operation not permitted")
        );
        assert_eq!(launch_failure(0xabd, &line), None);
        assert_eq!(launch_failure(0xabc, "program output"), None);
    }

    #[test]
    fn the_launcher_beside_smith_is_chosen_and_smith_itself_without_it() {
        let dir = tempfile::tempdir().unwrap();
        let me = dir.path().join("smith");
        std::fs::write(&me, "").unwrap();
        assert_eq!(launcher_for(&me), me);
        let beside = dir.path().join(LAUNCHER_NAME);
        std::fs::create_dir(&beside).unwrap();
        assert_eq!(launcher_for(&me), me, "a directory is no launcher");
        std::fs::remove_dir(&beside).unwrap();
        std::fs::write(&beside, "").unwrap();
        assert_eq!(launcher_for(&me), beside);
    }

    #[test]
    fn modes_round_trip_their_names() {
        for mode in Mode::ALL {
            assert_eq!(Mode::parse(mode.name()), Some(mode));
        }
        assert_eq!(Mode::parse("workspace"), None);
    }

    #[test]
    fn a_refusal_note_names_the_mode_and_the_likely_cause() {
        let sandbox = Sandbox::default();
        let note = refusal_note(
            &sandbox,
            Path::new("/p"),
            "touch: cannot touch '/etc/x': Permission denied",
        )
        .unwrap();
        assert!(note.contains("workspace-write"), "{note}");
        assert!(note.contains("beneath /p"), "{note}");
        assert!(note.contains("EACCES"), "{note}");
        assert_eq!(refusal_note(&sandbox, Path::new("/p"), "exit 1"), None);
        assert_eq!(
            refusal_note(
                &Sandbox::full_access(),
                Path::new("/p"),
                "Permission denied"
            ),
            None
        );
    }
}
