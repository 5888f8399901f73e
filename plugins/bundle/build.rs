//! Builds the guest workspace (`plugins/guests`) for `wasm32-wasip2` and copies the components
//! into `OUT_DIR`, so a fresh clone needs nothing but the README commands.
//!
//! DESIGN §3: a nested cargo on the outer target directory deadlocks on its build lock and
//! inherits flags meant for the host build, so the guests get their own target directory
//! (`<target>/guests`), one invocation, and a cleaned environment.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::Command;

const GUESTS: &[&str] = &[
    "smith_anthropic",
    "smith_files",
    "smith_google",
    "smith_hostile",
    "smith_hostile_handler",
    "smith_openai",
    "smith_openai_compatible",
    "smith_queue",
    "smith_scripted",
    "smith_shell",
];

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let plugins = manifest_dir.parent().expect("plugins/").to_owned();
    let guests = plugins.join("guests");
    // The SDK builds the shared provider-neutral types into every guest.
    println!(
        "cargo::rerun-if-changed={}",
        plugins
            .parent()
            .expect("the workspace root")
            .join("core/smith")
            .display()
    );
    for watched in [
        "guests/Cargo.toml",
        "guests/Cargo.lock",
        "guests/anthropic",
        "guests/files",
        "guests/google",
        "guests/hostile",
        "guests/hostile-handler",
        "guests/openai",
        "guests/openai-chat",
        "guests/openai-compatible",
        "guests/queue",
        "guests/scripted",
        "guests/shell",
        "sdk",
        "wit",
    ] {
        println!(
            "cargo::rerun-if-changed={}",
            plugins.join(watched).display()
        );
    }
    let target_root = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| plugins.parent().expect("the workspace root").join("target"));
    let target_dir = target_root.join("guests");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());

    let mut cmd = Command::new(cargo);
    cmd.env_clear();
    for keep in [
        "PATH",
        "HOME",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "TMPDIR",
        "SYSTEMROOT",
        "USERPROFILE",
    ] {
        if let Some(v) = std::env::var_os(keep) {
            cmd.env(keep, v);
        }
    }
    cmd.args([
        "build",
        "--release",
        "--locked",
        "--target",
        "wasm32-wasip2",
        "--manifest-path",
    ])
    .arg(guests.join("Cargo.toml"))
    .arg("--target-dir")
    .arg(&target_dir);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the bundled plugins: {e}"));
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr.contains("wasm32-wasip2")
            && (stderr.contains("may not be installed") || stderr.contains("can't find crate"))
        {
            panic!(
                "building the bundled plugins needs the wasm32-wasip2 target, which is not installed: run `rustup target add wasm32-wasip2` and build again\n\n{stderr}"
            );
        }
        panic!(
            "building the bundled plugins (plugins/guests) for wasm32-wasip2 failed:\n\n{stderr}"
        );
    }
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    for guest in GUESTS {
        let built = target_dir
            .join("wasm32-wasip2/release")
            .join(format!("{guest}.wasm"));
        copy(&built, &out_dir.join(format!("{guest}.wasm")));
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", from.display(), to.display()));
}
