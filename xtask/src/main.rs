//! Smith's developer tasks, run as `cargo xtask <task>`.
//!
//! - `check`: the quality gate CI runs (fmt, clippy `-D warnings`, tests, docs, drift checks).
//! - `bench`: speed and memory figures against their targets, printed, never failing the build.
//!
//! Its unit tests hold the architecture check (`arch`): the crate graph against the rules of
//! `ARCHITECTURE.md`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod arch;
mod bench;
mod check;
mod deps;
mod dist;
mod fuzz;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

const USAGE: &str =
    "usage: cargo xtask <check|docs|man|arch|site|example|dist|deps|bench|soak|fuzz>
  check   fmt --check, clippy -D warnings (all targets), tests (including the reference drift
          test and the site link check), API docs (-D warnings), static site build + link check
  docs    regenerate everything generated from the declarations: the reference in
          docs-corpus/docs/reference/, the configuration guide's variable list, the manual
          pages in docs-corpus/man/ and the completion scripts in dist/completions/
  man     the same (the manual pages and completion scripts are among it)
  arch    check the crate graph against ARCHITECTURE.md (its rules and edge list); --bless
          rewrites the edge list
  site    render the docs corpus to a static site in target/site and check its links
  example the example plugin project (examples/hello-plugin) copied outside the checkout,
          built, installed and its tool run by `smith eval` (part of check; needs the debug
          `smith` built)
  dist    build smith in release for --target TRIPLE (default: the host's;
          x86_64-unknown-linux-gnu or aarch64-unknown-linux-gnu) and package it as
          target/dist/smith-VERSION-TARGET.tar.gz with target/dist/SHA256SUMS, then verify
          them; --debug packages a debug build instead
  deps    release verification of the dependency graph: the locked build, a freshly
          resolved graph built and tested, the declared minimums built (nightly's
          resolver), and the update report (target/deps/report.txt); `deps report` runs
          the report alone
  bench   speed and memory figures: figure / target / measured
  soak    the SIGKILL durability loop at 5,000 iterations (CI runs 200)
  fuzz    the session-decoder mutation fuzzer at 20,000 iterations with a fresh seed (CI
          runs 300 with a fixed one; SMITH_FUZZ_ITERATIONS and SMITH_FUZZ_SEED override),
          then the coverage-guided targets in fuzz/ (session, sse, kdl) for an hour each
          (CI runs 20 s each; SMITH_FUZZ_SECONDS overrides)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") => check::run_all(),
        Some("bench") => bench::run(),
        Some("docs" | "man") => check::bless_reference(),
        Some("arch") => arch::run(args.get(1).is_some_and(|a| a == "--bless")),
        Some("site") => check::site(false),
        Some("example") => check::example(),
        Some("dist") => dist::run_cli(&args[1..]),
        Some("deps") => deps::run_cli(&args[1..]),
        Some("soak") => check::soak(),
        Some("fuzz") => check::fuzz(),
        Some("peak-rss") => bench::peak_rss(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown task `{other}`\n{USAGE}")),
        None => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (the parent of this crate's directory).
fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or(manifest.clone(), PathBuf::from)
}

/// Run `cmd` in the workspace root (unless it names its own directory), echoing it; fail
/// with its status.
fn run(mut cmd: Command) -> Result<(), String> {
    if cmd.get_current_dir().is_none() {
        cmd.current_dir(root());
    }
    eprintln!("xtask: running {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
}
