//! `cargo xtask deps`: release verification of the dependency graph (spec: Releases and
//! dependencies — "the locked graph, freshly resolved compatible dependencies, and declared
//! dependency minimums"; "update detection surfaces both compatible releases and releases
//! outside current requirements"; issue 73). A release task, not a CI step: each build is a
//! cold one.
//!
//! Steps, each reported, the task failing at the end when any failed:
//! 1. `locked`: the workspace builds with `Cargo.lock` as it is (`--locked`).
//! 2. `fresh`: a copy of the commit (`git worktree`) with both lock files (the workspace's and
//!    the guest plugins') freshly resolved by `cargo update` builds and passes its tests.
//! 3. `minimal`: a copy whose direct dependencies are resolved to their declared minimums
//!    (`cargo +nightly update -Z direct-minimal-versions`: the only resolver that does it is
//!    nightly's) builds; a failure is a minimum to raise in `Cargo.toml`.
//! 4. `report`: compatible releases (`cargo update --dry-run`: what `fresh` took) and
//!    releases outside the current requirements (its "available" notes), also written to
//!    `target/deps/report.txt`.
//!
//! `cargo xtask deps report` runs the report alone (no build).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, root, run};

/// `cargo xtask deps [report]`.
pub(crate) fn run_cli(args: &[String]) -> Result<(), String> {
    let only_report = match args.first().map(String::as_str) {
        None => false,
        Some("report") => true,
        Some(other) => {
            return Err(format!(
                "`cargo xtask deps` takes nothing or `report`, not `{other}`"
            ));
        }
    };
    let folder = target_dir().join("deps");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut failed = Vec::new();
    if !only_report {
        for (step, result) in [
            ("locked", locked()),
            ("fresh", fresh(&folder)),
            ("minimal", minimal(&folder)),
        ] {
            match result {
                Ok(()) => eprintln!("xtask: deps: {step}: passed"),
                Err(e) => {
                    eprintln!("xtask: deps: {step}: FAILED: {e}");
                    failed.push(step);
                }
            }
        }
    }
    let report = report()?;
    let path = folder.join("report.txt");
    std::fs::write(&path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("{report}");
    eprintln!("xtask: deps: the report is in {}", path.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("deps: {} failed (above)", failed.join(", ")))
    }
}

/// The build folder (`CARGO_TARGET_DIR` or `target/`).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

/// Step 1: the locked graph builds.
fn locked() -> Result<(), String> {
    let mut build = cargo();
    build.args(["build", "--workspace", "--all-targets", "--locked"]);
    run(build)
}

/// A detached worktree of `HEAD` at `folder/name`, made afresh.
fn worktree(folder: &Path, name: &str) -> Result<PathBuf, String> {
    let path = folder.join(name);
    let _ = Command::new("git")
        .args(["worktree", "remove", "--force"])
        .arg(&path)
        .current_dir(root())
        .status();
    let _ = std::fs::remove_dir_all(&path);
    let mut add = Command::new("git");
    add.args(["worktree", "add", "--detach"])
        .arg(&path)
        .arg("HEAD");
    run(add)?;
    Ok(path)
}

/// `cargo ARGS` in the worktree `at`, building into `at`'s own `target/`.
fn cargo_in(at: &Path, args: &[&str]) -> Command {
    let mut cmd = cargo();
    cmd.args(args)
        .current_dir(at)
        .env("CARGO_TARGET_DIR", at.join("target"));
    cmd
}

/// Step 2: both lock files freshly resolved; the workspace builds and its tests pass.
fn fresh(folder: &Path) -> Result<(), String> {
    let at = worktree(folder, "fresh")?;
    // The protocol clients the tests use, as `.ci/run` installed them into this checkout: a
    // worktree has none, and Node resolves an ES module's imports beside the script.
    for installed in [
        "xtask/openrpc/node_modules",
        "xtask/mcp/node/node_modules",
        "xtask/acp/node_modules",
        "xtask/mcp/.venv",
    ] {
        let from = root().join(installed);
        if from.exists() {
            std::os::unix::fs::symlink(&from, at.join(installed))
                .map_err(|e| format!("linking {installed} into the worktree: {e}"))?;
        }
    }
    run(cargo_in(&at, &["update"]))?;
    run(cargo_in(
        &at,
        &["update", "--manifest-path", "plugins/guests/Cargo.toml"],
    ))?;
    run(cargo_in(&at, &["test", "--workspace"]))
}

/// Step 3: direct dependencies at their declared minimums; the workspace builds.
fn minimal(folder: &Path) -> Result<(), String> {
    let nightly = Command::new("rustup")
        .args(["toolchain", "list"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("nightly"))
        .unwrap_or(false);
    if !nightly {
        return Err("resolving the declared minimums needs cargo's nightly resolver: run `rustup toolchain install nightly --profile minimal`".into());
    }
    let at = worktree(folder, "minimal")?;
    // Through rustup's proxy: `CARGO` (what `cargo()` runs) is the stable toolchain's own.
    let mut update = Command::new("cargo");
    update
        .args(["+nightly", "update", "-Z", "direct-minimal-versions"])
        .current_dir(&at);
    run(update)?;
    run(cargo_in(&at, &["build", "--workspace", "--all-targets"]))
}

/// Step 4: the releases `cargo update` would take (compatible) and those it cannot (outside
/// the requirements, or needing a newer Rust), for the workspace and the guest plugins.
fn report() -> Result<String, String> {
    let mut text = String::new();
    for (what, manifest) in [
        ("workspace", "Cargo.toml"),
        ("guest plugins", "plugins/guests/Cargo.toml"),
    ] {
        let out = cargo()
            .args([
                "update",
                "--dry-run",
                "--verbose",
                "--manifest-path",
                manifest,
            ])
            .current_dir(root())
            .output()
            .map_err(|e| format!("cannot run cargo update --dry-run: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cargo update --dry-run for the {what} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        // Cargo writes its plan to stderr.
        let plan = String::from_utf8_lossy(&out.stderr);
        let (compatible, outside) = classify(&plan);
        text.push_str(&format!(
            "# {what}: {} compatible releases, {} outside the requirements\n",
            compatible.len(),
            outside.len()
        ));
        text.push_str("\n## compatible (what `cargo update` takes)\n");
        for line in &compatible {
            text.push_str(&format!("{line}\n"));
        }
        text.push_str(
            "\n## outside the current requirements (a Cargo.toml change, or a newer Rust)\n",
        );
        for line in &outside {
            text.push_str(&format!("{line}\n"));
        }
        text.push('\n');
    }
    Ok(text)
}

/// The lines of `cargo update --dry-run --verbose`'s plan, as (compatible updates: `NAME
/// vA -> vB`, releases outside the requirements: `NAME vA: vC` with any note such as the Rust
/// it requires).
fn classify(plan: &str) -> (Vec<String>, Vec<String>) {
    let mut compatible = Vec::new();
    let mut outside = Vec::new();
    for line in plan.lines().map(str::trim) {
        let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
        let (change, available) = match rest.split_once(" (available: ") {
            Some((change, available)) => (change, Some(available.trim_end_matches(')'))),
            None => (rest, None),
        };
        match verb {
            "Updating" | "Downgrading" if change.contains(" -> ") => {
                compatible.push(change.to_owned());
            }
            "Adding" | "Removing" | "Unchanged" => {}
            _ => continue,
        }
        if let Some(available) = available {
            // `NAME vA -> vB` is at vB once updated; `NAME vA` stays at vA.
            let current = match change.split_once(" -> ") {
                Some((from, to)) => {
                    format!("{} {to}", from.split(' ').next().unwrap_or(from))
                }
                None => change.to_owned(),
            };
            outside.push(format!("{current}: {available}"));
        }
    }
    (compatible, outside)
}

#[cfg(test)]
mod tests {
    /// The plan's lines sort into compatible updates and releases outside the requirements,
    /// from what cargo 1.95 prints.
    #[test]
    fn the_update_plan_is_classified() {
        let plan = "    Updating crates.io index
     Locking 3 packages to latest compatible versions
    Updating zerocopy v0.8.64 -> v0.8.66
    Updating wasmtime-internal-winch v48.0.8 -> v48.0.10 (available: v48.0.11)
   Unchanged wasmtime-wasi v48.0.8 (available: v50.0.1, requires Rust 1.97.0)
      Adding windows-link v0.101.0
note: to see how you depend on a package, run `cargo tree --invert <dep>@<ver>`
warning: not updating lockfile due to dry run";
        let (compatible, outside) = super::classify(plan);
        assert_eq!(
            compatible,
            [
                "zerocopy v0.8.64 -> v0.8.66",
                "wasmtime-internal-winch v48.0.8 -> v48.0.10"
            ]
        );
        assert_eq!(
            outside,
            [
                "wasmtime-internal-winch v48.0.10: v48.0.11",
                "wasmtime-wasi v48.0.8: v50.0.1, requires Rust 1.97.0"
            ]
        );
    }
}
