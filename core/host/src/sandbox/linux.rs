//! The Linux launcher: namespaces, mounts, Landlock and seccomp applied to a still
//! single-threaded process, then `exec` (the design is in the [parent module](super)).
//!
//! Order matters: the namespaces first (a user namespace can only be entered by a
//! single-threaded process), then the mounts (Landlock forbids changing mounts once applied),
//! then Landlock (which also sets `no_new_privs`), then seccomp (installing a filter needs
//! `no_new_privs`), then `exec`.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope,
};
use nix::mount::{MsFlags, mount};
use nix::sched::CloneFlags;

use super::{Confinement, Mode, Network};

/// Why the launcher could not confine the program (it did not run).
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The arguments are not `SPEC -- PROGRAM ARGS…`.
    #[error("the launcher's arguments are not `SPEC -- PROGRAM ARGS…`: {0}")]
    Usage(String),
    /// A step of the confinement failed.
    #[error("{step}: {source}")]
    Step {
        /// What was being done, naming the path.
        step: String,
        /// The error.
        source: std::io::Error,
    },
    /// Landlock could not be applied in full.
    #[error("Landlock: {0}")]
    Landlock(String),
    /// The seccomp filter could not be built or installed.
    #[error("seccomp: {0}")]
    Seccomp(String),
}

fn step(what: impl Into<String>) -> impl FnOnce(nix::errno::Errno) -> LaunchError {
    let step = what.into();
    move |e| LaunchError::Step {
        step,
        source: std::io::Error::from(e),
    }
}

fn io_step(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> LaunchError {
    let step = what.into();
    move |source| LaunchError::Step { step, source }
}

/// The Landlock ABI this kernel offers (0: none).
pub fn landlock_abi() -> u8 {
    // Creating (not applying) a ruleset that handles every right of an ABI succeeds exactly
    // when the kernel knows that ABI; nothing is restricted.
    const ABIS: [(ABI, u8); 7] = [
        (ABI::V7, 7),
        (ABI::V6, 6),
        (ABI::V5, 5),
        (ABI::V4, 4),
        (ABI::V3, 3),
        (ABI::V2, 2),
        (ABI::V1, 1),
    ];
    for (abi, n) in ABIS {
        let created = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| {
                if n >= 4 {
                    r.handle_access(AccessNet::from_all(abi))
                } else {
                    Ok(r)
                }
            })
            .and_then(|r| {
                if n >= 6 {
                    r.scope(Scope::from_all(abi))
                } else {
                    Ok(r)
                }
            })
            .and_then(|r| r.create());
        if created.is_ok() {
            return n;
        }
    }
    0
}

/// The launcher: `args` are what follows [`super::LAUNCH_ARG`] — `SPEC -- PROGRAM ARGS…`.
/// Returns only on failure (on success the process becomes the program). Must be called while
/// the process is single-threaded (first thing in `main`).
///
/// # Errors
/// [`LaunchError`]: the program did not run.
pub fn launch(args: &[OsString]) -> Result<Infallible, LaunchError> {
    let (spec, program) = match args {
        [spec, dashes, program @ ..] if dashes == "--" && !program.is_empty() => (spec, program),
        _ => return Err(LaunchError::Usage(format!("{} arguments", args.len()))),
    };
    let spec: Confinement = serde_json::from_str(&spec.to_string_lossy())
        .map_err(|e| LaunchError::Usage(format!("the spec is not valid: {e}")))?;
    confine(&spec)?;
    let error = std::process::Command::new(&program[0])
        .args(&program[1..])
        .exec();
    Err(LaunchError::Step {
        step: format!("running `{}`", program[0].to_string_lossy()),
        source: error,
    })
}

/// Apply `spec` to this process (and so to whatever it executes).
///
/// # Errors
/// [`LaunchError`] naming the step that failed.
pub fn confine(spec: &Confinement) -> Result<(), LaunchError> {
    if spec.mode == Mode::FullAccess {
        return Err(LaunchError::Usage(
            "full-access is never confined by the launcher".to_owned(),
        ));
    }
    namespaces()?;
    mounts(spec)?;
    landlock(spec)?;
    if spec.network == Network::Deny {
        seccomp()?;
    }
    Ok(())
}

/// A user namespace (mapping this user to itself) with a mount namespace. (A denied network is
/// seccomp's and Landlock's: a network namespace of its own would cost a process effect about
/// 0.8 ms more to make and tear down, for nothing they do not already refuse.)
fn namespaces() -> Result<(), LaunchError> {
    let uid = nix::unistd::getuid();
    let gid = nix::unistd::getgid();
    let flags = CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNS;
    nix::sched::unshare(flags).map_err(step("entering new user and mount namespaces"))?;
    std::fs::write("/proc/self/setgroups", "deny")
        .map_err(io_step("writing /proc/self/setgroups"))?;
    std::fs::write("/proc/self/uid_map", format!("{uid} {uid} 1"))
        .map_err(io_step("writing /proc/self/uid_map"))?;
    std::fs::write("/proc/self/gid_map", format!("{gid} {gid} 1"))
        .map_err(io_step("writing /proc/self/gid_map"))?;
    // Nothing mounted here propagates back to the host's namespace.
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(step("making the mount namespace private"))?;
    Ok(())
}

/// The flags of the mount holding `path` that a remount in a user namespace must keep (the
/// kernel refuses to drop them: they are locked).
fn locked_flags(path: &Path) -> Result<MsFlags, LaunchError> {
    use nix::sys::statvfs::FsFlags;
    let stat = nix::sys::statvfs::statvfs(path).map_err(step(format!(
        "reading the mount flags of {}",
        path.display()
    )))?;
    let mut flags = MsFlags::empty();
    for (st, ms) in [
        (FsFlags::ST_NOSUID, MsFlags::MS_NOSUID),
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if stat.flags().contains(st) {
            flags |= ms;
        }
    }
    Ok(flags)
}

/// Bind `source` onto `target`, read-only when `read_only`.
fn bind(source: &Path, target: &Path, read_only: bool) -> Result<(), LaunchError> {
    mount(
        Some(source),
        target,
        None::<&str>,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        None::<&str>,
    )
    .map_err(step(format!(
        "binding {} onto {}",
        source.display(),
        target.display()
    )))?;
    if read_only {
        let flags =
            MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | locked_flags(target)?;
        mount(None::<&str>, target, None::<&str>, flags, None::<&str>)
            .map_err(step(format!("making {} read-only", target.display())))?;
    }
    Ok(())
}

/// Pin `.git`, bind the protected paths read-only, cover the hidden ones.
fn mounts(spec: &Confinement) -> Result<(), LaunchError> {
    for dir in &spec.pinned {
        bind(dir, dir, false)?;
    }
    for path in &spec.protected {
        bind(path, path, true)?;
    }
    for path in &spec.hidden {
        let Ok(meta) = std::fs::metadata(path) else {
            continue; // gone since the spec was made: nothing to read
        };
        if meta.is_dir() {
            mount(
                Some("tmpfs"),
                path,
                Some("tmpfs"),
                MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC | MsFlags::MS_RDONLY,
                Some("mode=000,size=4k,nr_inodes=2"),
            )
            .map_err(step(format!("covering {}", path.display())))?;
        } else {
            bind(Path::new("/dev/null"), path, true)?;
        }
    }
    Ok(())
}

/// Reads and execution everywhere, writes beneath the writable roots, the usual device files,
/// signals and abstract Unix sockets scoped to the sandbox, and TCP denied with the network.
fn landlock(spec: &Confinement) -> Result<(), LaunchError> {
    let abi = ABI::V6;
    let fail = |e: landlock::RulesetError| LaunchError::Landlock(e.to_string());
    let path_fd = |p: &Path| {
        PathFd::new(p).map_err(|e| LaunchError::Landlock(format!("{}: {e}", p.display())))
    };
    let mut scopes = landlock::BitFlags::from(Scope::Signal);
    if spec.network == Network::Deny {
        scopes |= Scope::AbstractUnixSocket;
    }
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .map_err(fail)?
        .scope(scopes)
        .map_err(fail)?;
    if spec.network == Network::Deny {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(fail)?;
    }
    let mut created = ruleset
        .create()
        .map_err(fail)?
        .add_rule(PathBeneath::new(
            path_fd(Path::new("/"))?,
            AccessFs::from_read(abi),
        ))
        .map_err(fail)?;
    for device in ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"] {
        if Path::new(device).exists() {
            created = created
                .add_rule(PathBeneath::new(
                    path_fd(Path::new(device))?,
                    AccessFs::from_file(abi),
                ))
                .map_err(fail)?;
        }
    }
    for root in &spec.writable {
        created = created
            .add_rule(PathBeneath::new(path_fd(root)?, AccessFs::from_all(abi)))
            .map_err(fail)?;
    }
    let status = created.restrict_self().map_err(fail)?;
    if status.ruleset != landlock::RulesetStatus::FullyEnforced || !status.no_new_privs {
        return Err(LaunchError::Landlock(format!(
            "the kernel enforced the rules only partly ({:?})",
            status.ruleset
        )));
    }
    Ok(())
}

/// Refuse creating Unix sockets (`socket(AF_UNIX, …)`; `socketpair` stays) and `io_uring`.
fn seccomp() -> Result<(), LaunchError> {
    use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};
    fn fail(e: impl std::fmt::Display) -> LaunchError {
        LaunchError::Seccomp(e.to_string())
    }
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(fail)?;
    // An empty rule list matches every call of the syscall: no socket of any family (TCP, UDP,
    // raw, netlink, a path-named Unix socket outside) can be made; `socketpair` stays.
    let mut rules: BTreeMap<i64, Vec<seccompiler::SeccompRule>> = BTreeMap::new();
    rules.insert(nix::libc::SYS_socket, Vec::new());
    rules.insert(nix::libc::SYS_io_uring_setup, Vec::new());
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(nix::libc::EPERM as u32),
        arch,
    )
    .map_err(fail)?;
    let program: BpfProgram = filter.try_into().map_err(fail)?;
    seccompiler::apply_filter(&program).map_err(fail)
}
