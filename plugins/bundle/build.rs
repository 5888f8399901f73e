//! Builds the guest workspace (`plugins/guests`, with `plugins/test-guests`) for `wasm32-wasip2`,
//! copies the components into `OUT_DIR`, and writes `OUT_DIR/plugins.rs` — the `BUNDLED` table
//! and the test plugins — from the one list of plugins, `plugins.kdl` beside this file. So a
//! fresh clone needs nothing but the README commands, and adding a plugin is one line there.
//!
//! A nested cargo on the outer target directory would deadlock on its build lock, and it would
//! inherit flags meant for the host build (`RUSTFLAGS`, `CARGO_ENCODED_RUSTFLAGS`, clippy's
//! `RUSTC_WORKSPACE_WRAPPER`, `CARGO_TARGET_DIR`), so the guests get their own target
//! directory (`<target>/guests`), one invocation, and a cleaned environment.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One entry of `plugins.kdl`.
struct Entry {
    /// `bundled` or `test`.
    kind: &'static str,
    /// The guest's directory name.
    dir: String,
}

impl Entry {
    /// The directory holding the guest.
    fn path(&self, plugins: &Path) -> PathBuf {
        plugins
            .join(if self.kind == "bundled" {
                "guests"
            } else {
                "test-guests"
            })
            .join(&self.dir)
    }

    /// The component file cargo writes: the crate `smith-DIR` as a library.
    fn wasm(&self) -> String {
        format!("smith_{}.wasm", self.dir.replace('-', "_"))
    }
}

/// The entries of `plugins.kdl`: lines `bundled "DIR"` and `test "DIR"`, comments and blank
/// lines aside; anything else fails the build, naming the line.
fn entries(table: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(table)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", table.display()));
    let mut out: Vec<Entry> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let parsed = line.split_once(' ').and_then(|(kind, rest)| {
            let kind = match kind {
                "bundled" => "bundled",
                "test" => "test",
                _ => return None,
            };
            let dir = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
            dir.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                .then(|| Entry {
                    kind,
                    dir: dir.to_owned(),
                })
        });
        let Some(entry) = parsed else {
            panic!(
                "{}:{}: expected `bundled \"DIR\"` or `test \"DIR\"` (DIR: lowercase letters, digits, `-`), found `{line}`",
                table.display(),
                n + 1
            );
        };
        assert!(
            !out.iter().any(|e| e.dir == entry.dir),
            "{}:{}: `{}` is listed twice",
            table.display(),
            n + 1,
            entry.dir
        );
        out.push(entry);
    }
    out
}

/// Every listed guest exists with a manifest, and every plugin directory is listed.
fn check(plugins: &Path, table: &Path, entries: &[Entry]) {
    for e in entries {
        let dir = e.path(plugins);
        assert!(
            dir.join("Cargo.toml").is_file() && dir.join("plugin.kdl").is_file(),
            "{} lists `{} \"{}\"`, but {} holds no Cargo.toml and plugin.kdl",
            table.display(),
            e.kind,
            e.dir,
            dir.display()
        );
    }
    for (kind, folder) in [("bundled", "guests"), ("test", "test-guests")] {
        let Ok(read) = std::fs::read_dir(plugins.join(folder)) else {
            continue;
        };
        for dir in read.filter_map(Result::ok).map(|d| d.path()) {
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            assert!(
                !dir.join("plugin.kdl").is_file()
                    || entries.iter().any(|e| e.kind == kind && e.dir == name),
                "{} is a plugin (it has a plugin.kdl) but {} does not list it: add `{kind} \"{name}\"`",
                dir.display(),
                table.display()
            );
        }
    }
}

/// The Rust source of the `BUNDLED` table and the test plugins' statics.
fn source(plugins: &Path, entries: &[Entry]) -> String {
    let item = |e: &Entry| {
        let origin = if e.kind == "bundled" {
            format!("bundled:{}/plugin.kdl", e.dir)
        } else {
            format!("test:{}/plugin.kdl", e.dir)
        };
        let tools = e.path(plugins).join("tools.json");
        let tools = if tools.is_file() {
            format!("include_str!({:?})", tools.display().to_string())
        } else {
            "\"[]\"".to_owned()
        };
        format!(
            "BundledPlugin {{\n    origin: {origin:?},\n    manifest: include_str!({:?}),\n    component: include_bytes!(concat!(env!(\"OUT_DIR\"), {:?})),\n    tools: {tools},\n}}",
            e.path(plugins).join("plugin.kdl").display().to_string(),
            format!("/{}", e.wasm()),
        )
    };
    let mut out = String::from(
        "/// The plugins every Smith starts with, in load order (generated from\n/// `plugins/bundle/plugins.kdl`).\npub static BUNDLED: &[BundledPlugin] = &[\n",
    );
    for e in entries.iter().filter(|e| e.kind == "bundled") {
        let _ = writeln!(out, "{},", item(e));
    }
    out.push_str("];\n");
    for e in entries.iter().filter(|e| e.kind == "test") {
        let _ = write!(
            out,
            "\n/// The test plugin `plugins/test-guests/{}`, only with the `test-plugins` feature; never\n/// part of the smith binary.\n#[cfg(feature = \"test-plugins\")]\npub static {}: BundledPlugin = {};\n",
            e.dir,
            e.dir.to_ascii_uppercase().replace('-', "_"),
            item(e)
        );
    }
    out
}

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let plugins = manifest_dir.parent().expect("plugins/").to_owned();
    let table = manifest_dir.join("plugins.kdl");
    let guests = plugins.join("guests");
    // The SDK builds the shared provider-neutral types into every guest; a directory watched
    // is scanned whole.
    let root = plugins.parent().expect("the workspace root");
    for watched in [
        table.clone(),
        root.join("core/smith"),
        guests.clone(),
        plugins.join("test-guests"),
        plugins.join("sdk"),
        plugins.join("wit"),
    ] {
        println!("cargo::rerun-if-changed={}", watched.display());
    }
    let entries = entries(&table);
    check(&plugins, &table, &entries);

    let target_root = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
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
    for e in &entries {
        let built = target_dir.join("wasm32-wasip2/release").join(e.wasm());
        copy(&built, &out_dir.join(e.wasm()));
    }
    std::fs::write(out_dir.join("plugins.rs"), source(&plugins, &entries))
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out_dir.join("plugins.rs").display()));
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", from.display(), to.display()));
}
