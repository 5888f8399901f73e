//! Link options for the `smith` binaries, and what `smith --version` names.
//!
//! On Linux with glibc the binaries pack their relative relocations (`-z
//! pack-relative-relocs`, DT_RELR: GNU ld 2.38, glibc 2.36): about 47,000 relocation records
//! of 24 bytes each become a bitmap of a few KiB, so the binary is about 1 MiB smaller and
//! the dynamic loader reads and processes that much less at every start. A linker or C
//! library older than those refuses the option or the binary; it is then the place to look.
//!
//! `SMITH_COMMIT` and `SMITH_TARGET` (the target triple) are set for the crate: `smith
//! --version` names both. The commit is `SMITH_COMMIT` from the environment when set (a build
//! from a source archive without `.git` may set it); else, in a release build, the checkout's
//! commit (12 hex digits); else `unknown`. Debug builds do not ask git: a commit would rebuild
//! the whole package — its library, binaries and every integration test — after each commit.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo::rerun-if-env-changed=SMITH_COMMIT");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let commit = std::env::var("SMITH_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| release.then(checkout_commit).flatten())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo::rustc-env=SMITH_COMMIT={commit}");
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".to_owned());
    println!("cargo::rustc-env=SMITH_TARGET={target}");
}

/// The commit checked out (`git rev-parse`), watching what a commit, a checkout or a reset
/// changes: `HEAD`, its log, the branch it names and the packed refs. `None` outside a git
/// checkout.
fn checkout_commit() -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let commit: String = git(&["rev-parse", "HEAD"])?.chars().take(12).collect();
    let mut watched = vec![
        "HEAD".to_owned(),
        "logs/HEAD".to_owned(),
        "packed-refs".to_owned(),
    ];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = Path::new(&path);
            // Relative to the directory git ran in, the crate's.
            if path.exists() {
                println!("cargo::rerun-if-changed={}", path.display());
            }
        }
    }
    Some(commit)
}
