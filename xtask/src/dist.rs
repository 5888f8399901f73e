//! `cargo xtask dist [--target T] [--debug]`: a release archive of `smith` for one target, and
//! its checksum (spec: Packaging — "Release archives include versioned binaries and SHA-256
//! checksums"; issue 73).
//!
//! `target/dist/VERSION-COMMIT/smith-VERSION-TARGET.tar.gz` holds one directory of the same
//! name: the binaries `smith` and `smith-sandbox` (the launcher programs start through),
//! `README.md`, `LICENSE-MIT`, `LICENSE-APACHE`, `man/` (the manual pages of
//! `docs-corpus/man/`) and `completions/` (the scripts of `dist/completions/`). `SHA256SUMS`
//! beside it lists every archive of that commit in `sha256sum`'s format, so
//! `sha256sum -c SHA256SUMS` verifies them. The packaging is deterministic — entries sorted,
//! owned by 0:0, modes fixed, dated at the commit, gzip without a name or time — so the same
//! binaries give the same archive bytes.
//!
//! Nothing has to be compiled ahead of time for a first run: the bundled plugins are wasm in
//! the binary, compiled by the baseline compiler on first use for whatever CPU runs them.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::Digest;

use crate::{cargo, root, run};

/// A target an archive can be made for: its triple, and the C cross toolchain that links it
/// (and compiles the C and assembly of `ring`) when it is not the host: the compiler's name
/// and the Debian package that brings it.
struct Target {
    triple: &'static str,
    gcc: &'static str,
    package: &'static str,
}

/// The targets archives are made for (Windows is its own issue; macOS cannot be built here).
const TARGETS: &[Target] = &[
    Target {
        triple: "x86_64-unknown-linux-gnu",
        gcc: "x86_64-linux-gnu-gcc",
        package: "gcc-x86-64-linux-gnu",
    },
    Target {
        triple: "aarch64-unknown-linux-gnu",
        gcc: "aarch64-linux-gnu-gcc",
        package: "gcc-aarch64-linux-gnu",
    },
];

/// What `cargo xtask dist` builds: the release profile, or the debug binary the gate has
/// already built (`--debug`: a check of the packaging, never shipped).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Profile {
    Release,
    Debug,
}

/// `cargo xtask dist` with its arguments: build, package, write the checksums, verify.
pub(crate) fn run_cli(args: &[String]) -> Result<(), String> {
    let mut target = None;
    let mut profile = Profile::Release;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--target" => {
                target = Some(args.next().ok_or("--target needs a target triple")?.clone());
            }
            "--debug" => profile = Profile::Debug,
            other => {
                return Err(format!(
                    "`cargo xtask dist` takes `--target TRIPLE` and `--debug`, not `{other}`"
                ));
            }
        }
    }
    let target = match target {
        Some(t) => t,
        None => host()?,
    };
    let binary = build(&target, profile)?;
    let dir = dist_dir();
    let archive = archive(&binary, &target, &dir, Compression::Best)?;
    verify(&dir)?;
    eprintln!(
        "xtask: {} and {} (verify with `sha256sum -c SHA256SUMS` in {})",
        archive.display(),
        dir.join("SHA256SUMS").display(),
        dir.display()
    );
    Ok(())
}

/// The build folder (`CARGO_TARGET_DIR` or `target/`).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Where the archives of this version and commit and their `SHA256SUMS` are written:
/// `target/dist/VERSION-COMMIT` (`VERSION-unknown` outside a git checkout), so one list of
/// checksums never covers archives of two commits.
fn dist_dir() -> PathBuf {
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .chars()
                .take(12)
                .collect()
        })
        .filter(|c: &String| !c.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    target_dir()
        .join("dist")
        .join(format!("{}-{commit}", env!("CARGO_PKG_VERSION")))
}

/// The host's target triple, as `rustc -vV` says.
pub(crate) fn host() -> Result<String, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| "rustc -vV names no host target".to_owned())
}

/// Whether archives are made for `triple`.
pub(crate) fn made_for(triple: &str) -> bool {
    TARGETS.iter().any(|t| t.triple == triple)
}

/// The target `triple` names, or why no archive is made for it.
fn known(triple: &str) -> Result<&'static Target, String> {
    TARGETS.iter().find(|t| t.triple == triple).ok_or_else(|| {
        format!(
            "no archive is made for `{triple}`; the targets are {}",
            TARGETS
                .iter()
                .map(|t| t.triple)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Build `smith` and `smith-sandbox` for `triple` in `profile`; the path of `smith` (the
/// launcher is beside it). The host's build goes to the usual folder (the one `cargo build`
/// uses, so nothing is built twice); a cross build needs the target's standard library and
/// its C toolchain, each named when missing.
fn build(triple: &str, profile: Profile) -> Result<PathBuf, String> {
    let known = known(triple)?;
    let cross = triple != host()?;
    let mut build = cargo();
    build.args([
        "build",
        "--locked",
        "-p",
        "smith-cli",
        "--bin",
        "smith",
        "--bin",
        "smith-sandbox",
    ]);
    if profile == Profile::Release {
        build.arg("--release");
    }
    if cross {
        cross_toolchain(known)?;
        let upper = triple.to_uppercase().replace('-', "_");
        build
            .args(["--target", triple])
            .env(format!("CARGO_TARGET_{upper}_LINKER"), known.gcc)
            .env(format!("CC_{}", triple.replace('-', "_")), known.gcc);
    }
    run(build)?;
    let mut binary = target_dir();
    if cross {
        binary.push(triple);
    }
    binary.push(match profile {
        Profile::Release => "release",
        Profile::Debug => "debug",
    });
    binary.push("smith");
    Ok(binary)
}

/// How hard gzip works: the best for what is shipped, the fastest for the gate's check of
/// the packaging (a debug binary is over 100 MB).
#[derive(Clone, Copy)]
pub(crate) enum Compression {
    Best,
    Fast,
}

/// Package `binary` (`smith`, with `smith-sandbox` beside it), built for `triple`, as
/// `dir/smith-VERSION-TARGET.tar.gz` and rewrite `dir/SHA256SUMS`; the archive's path.
///
/// # Errors
/// An unknown target, or what failed copying, archiving or hashing, naming the file.
pub(crate) fn archive(
    binary: &Path,
    triple: &str,
    dir: &Path,
    compression: Compression,
) -> Result<PathBuf, String> {
    known(triple)?;
    let name = format!("smith-{}-{triple}", env!("CARGO_PKG_VERSION"));
    let stage = dir.join("stage");
    let _ = std::fs::remove_dir_all(&stage);
    let top = stage.join(&name);
    for (from, to) in contents(binary) {
        let to = top.join(to);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(&from, &to)
            .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))?;
    }
    let archive = dir.join(format!("{name}.tar.gz"));
    let mut tar = Command::new("tar");
    tar.args([
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        "--format=gnu",
        "--mode=u=rwX,go=rX",
    ])
    .arg(format!("--mtime=@{}", commit_time()))
    .arg("-I")
    .arg(match compression {
        Compression::Best => "gzip -n -9",
        Compression::Fast => "gzip -n -1",
    })
    .arg("-cf")
    .arg(&archive)
    .arg("-C")
    .arg(&stage)
    .arg(&name);
    run(tar)?;
    std::fs::remove_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    write_sums(dir)?;
    Ok(archive)
}

/// The C cross toolchain and the standard library a cross build of `target` needs, each
/// named with how to get it when missing.
fn cross_toolchain(target: &Target) -> Result<(), String> {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(target.gcc).is_file()));
    if !on_path {
        return Err(format!(
            "cross-building for {} needs the C toolchain `{}`, which is not on PATH: install Debian's package `{}` (apt-get install {})",
            target.triple, target.gcc, target.package, target.package
        ));
    }
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !installed.lines().any(|l| l.trim() == target.triple) {
        return Err(format!(
            "cross-building for {} needs its standard library, which rustup has not installed: run `rustup target add {}`",
            target.triple, target.triple
        ));
    }
    Ok(())
}

/// The binaries an archive holds, executable.
const BINARIES: [&str; 2] = ["smith", "smith-sandbox"];

/// What an archive holds: each file's source and its path inside the archive's directory,
/// the binaries first (`binary` is `smith`; `smith-sandbox` is beside it).
fn contents(binary: &Path) -> Vec<(PathBuf, PathBuf)> {
    let root = root();
    let mut files: Vec<(PathBuf, PathBuf)> = BINARIES
        .iter()
        .map(|name| (binary.with_file_name(name), PathBuf::from(name)))
        .collect();
    for name in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        files.push((root.join(name), PathBuf::from(name)));
    }
    for (dir, into) in [
        ("docs-corpus/man", "man"),
        ("dist/completions", "completions"),
    ] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        names.sort();
        for name in names {
            files.push((root.join(dir).join(&name), Path::new(into).join(name)));
        }
    }
    files
}

/// The commit's time in seconds since the epoch (`SOURCE_DATE_EPOCH` when set), the date of
/// every entry: an archive made twice from one commit is the same bytes.
fn commit_time() -> u64 {
    if let Some(t) = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return t;
    }
    Command::new("git")
        .args(["log", "-1", "--format=%ct"])
        .current_dir(root())
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0)
}

/// The SHA-256 of the file at `path`, in lowercase hex.
fn sha256(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Write `dir/SHA256SUMS` for every `smith-*.tar.gz` in `dir`, sorted by name, in the
/// format `sha256sum -c` reads (`HEX  NAME`).
fn write_sums(dir: &Path) -> Result<(), String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("smith-") && n.ends_with(".tar.gz"))
        .collect();
    names.sort();
    let mut sums = String::new();
    for name in names {
        sums.push_str(&format!("{}  {name}\n", sha256(&dir.join(&name))?));
    }
    let path = dir.join("SHA256SUMS");
    std::fs::write(&path, sums).map_err(|e| format!("{}: {e}", path.display()))
}

/// Check the archives `dir/SHA256SUMS` lists: each one's SHA-256, what it holds (exactly the
/// files an archive is made of, the binaries executable), and that the `smith` it holds runs
/// and names its version, commit and target — the host's directly, another's under
/// `qemu-user` when that is installed (else said and passed over).
///
/// # Errors
/// What is wrong, naming the archive: a checksum that does not match, a missing or
/// unexpected entry, a binary that does not run or names another version or target.
pub(crate) fn verify(dir: &Path) -> Result<(), String> {
    let sums_path = dir.join("SHA256SUMS");
    let sums =
        std::fs::read_to_string(&sums_path).map_err(|e| format!("{}: {e}", sums_path.display()))?;
    if sums.trim().is_empty() {
        return Err(format!("{} lists no archive", sums_path.display()));
    }
    let host = host()?;
    for line in sums.lines() {
        let (want, name) = line
            .split_once("  ")
            .ok_or_else(|| format!("{}: `{line}` is not `SHA256  NAME`", sums_path.display()))?;
        let archive = dir.join(name);
        let have = sha256(&archive)?;
        if have != want {
            return Err(format!(
                "{}: its SHA-256 is {have}, but SHA256SUMS says {want}: the archive changed after it was made; make it again with `cargo xtask dist`",
                archive.display()
            ));
        }
        check_layout(&archive, name)?;
        let triple = name
            .strip_prefix(&format!("smith-{}-", env!("CARGO_PKG_VERSION")))
            .and_then(|n| n.strip_suffix(".tar.gz"))
            .ok_or_else(|| {
                format!(
                    "{name}: not named smith-{}-TARGET.tar.gz",
                    env!("CARGO_PKG_VERSION")
                )
            })?;
        check_runs(&archive, triple, triple != host)?;
    }
    Ok(())
}

/// `archive` holds exactly what [`contents`] makes of the checkout, under one directory named
/// as the archive is, with the binary executable.
fn check_layout(archive: &Path, name: &str) -> Result<(), String> {
    let top = name.trim_end_matches(".tar.gz");
    let out = Command::new("tar")
        .arg("-tvzf")
        .arg(archive)
        .output()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{}: tar cannot list it: {}",
            archive.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let listing = String::from_utf8_lossy(&out.stdout);
    // `MODE OWNER/GROUP SIZE DATE TIME PATH`: the path is what follows the fifth field.
    let mut files: Vec<(String, String)> = listing
        .lines()
        .filter_map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            let mode = fields.first()?;
            let path = fields.get(5..).filter(|p| !p.is_empty())?.join(" ");
            (!mode.starts_with('d')).then(|| (path, (*mode).to_owned()))
        })
        .collect();
    files.sort();
    let mut expected: Vec<String> = contents(Path::new("smith"))
        .into_iter()
        .map(|(_, to)| format!("{top}/{}", to.display()))
        .collect();
    expected.sort();
    let names: Vec<&String> = files.iter().map(|(p, _)| p).collect();
    if names != expected.iter().collect::<Vec<_>>() {
        return Err(format!(
            "{}: holds {names:?}, expected {expected:?}",
            archive.display()
        ));
    }
    for (path, mode) in &files {
        let executable = BINARIES.iter().any(|b| *path == format!("{top}/{b}"));
        let wanted = if executable {
            "-rwxr-xr-x"
        } else {
            "-rw-r--r--"
        };
        if mode != wanted {
            return Err(format!(
                "{}: {path} has mode {mode}, not {wanted}",
                archive.display()
            ));
        }
    }
    Ok(())
}

/// The `qemu-user` emulator for `triple`'s CPU and the folder holding that target's C
/// library (Debian's cross packages), when the emulator is on PATH.
fn emulator(triple: &str) -> Option<(String, String)> {
    let arch = triple.split('-').next()?;
    let qemu = format!("qemu-{arch}");
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .any(|dir| dir.join(&qemu).is_file())
        .then(|| (qemu, format!("/usr/{arch}-linux-gnu")))
}

/// Unpack `archive` in a scratch folder and run its `smith --version` (under `qemu-user` when
/// `emulated`): it names this version and `triple`.
fn check_runs(archive: &Path, triple: &str, emulated: bool) -> Result<(), String> {
    let emulator = if emulated {
        match emulator(triple) {
            Some(found) => Some(found),
            None => {
                eprintln!(
                    "xtask: {} was not run: no qemu-user emulator for {triple} is installed (Debian's package `qemu-user`)",
                    archive.display()
                );
                return Ok(());
            }
        }
    } else {
        None
    };
    let scratch = std::env::temp_dir().join(format!("smith-dist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let mut unpack = Command::new("tar");
    unpack.arg("-xzf").arg(archive).arg("-C").arg(&scratch);
    run(unpack)?;
    let top = archive
        .file_name()
        .map(|n| n.to_string_lossy().trim_end_matches(".tar.gz").to_owned())
        .unwrap_or_default();
    let smith = scratch.join(top).join("smith");
    let mut version = match &emulator {
        Some((qemu, sysroot)) => {
            let mut cmd = Command::new(qemu);
            cmd.arg("-L").arg(sysroot).arg(&smith);
            cmd
        }
        None => Command::new(&smith),
    };
    let out = version
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", smith.display()))?;
    let _ = std::fs::remove_dir_all(&scratch);
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let prefix = format!("smith {} (", env!("CARGO_PKG_VERSION"));
    if !out.status.success()
        || !said.starts_with(&prefix)
        || !said.ends_with(&format!(" {triple})"))
    {
        return Err(format!(
            "{}: its smith --version said `{said}` ({}), expected `{prefix}COMMIT {triple})`",
            archive.display(),
            out.status
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An archive changed after its checksum was written fails verification, naming it; so
    /// does an unknown target.
    #[test]
    fn a_changed_archive_and_an_unknown_target_are_refused() {
        let dir = tempdir();
        let made = dir.join("smith-0.0.0-test.tar.gz");
        std::fs::write(&made, b"not yet changed").unwrap();
        write_sums(&dir).unwrap();
        let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
        assert_eq!(
            sums,
            format!("{}  smith-0.0.0-test.tar.gz\n", sha256(&made).unwrap())
        );
        std::fs::write(&made, b"changed afterwards").unwrap();
        let err = verify(&dir).unwrap_err();
        assert!(
            err.contains("smith-0.0.0-test.tar.gz") && err.contains("SHA256SUMS says"),
            "{err}"
        );
        // The documented command fails loudly too.
        let out = Command::new("sha256sum")
            .args(["-c", "SHA256SUMS"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = archive(
            Path::new("smith"),
            "sparc-sun-solaris",
            &dir,
            Compression::Fast,
        )
        .unwrap_err();
        assert!(err.contains("aarch64-unknown-linux-gnu"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tempdir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "xtask-dist-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
