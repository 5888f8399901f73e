//! The coverage-guided fuzz targets (`fuzz/`: libFuzzer through `libfuzzer-sys`, on the stable
//! toolchain): built with coverage instrumentation for the host target, each run for a time
//! from its committed corpus (`fuzz/corpus/TARGET`, read-only) plus a working corpus under
//! the target directory. `cargo xtask check` runs them briefly; `cargo xtask fuzz` for hours.

use std::path::PathBuf;
use std::process::Command;

use crate::{cargo, root, run};

/// The targets, in the order they run.
pub(crate) const TARGETS: &[&str] = &["session", "sse", "kdl"];

/// The flags that instrument the code for libFuzzer's coverage feedback: stable rustc codegen
/// options (no sanitizer, which needs nightly).
const COVERAGE: &str = "-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares";

fn target_root() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from)
}

fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run {rustc} -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| format!("{rustc} -vV names no host triple"))
}

/// How the targets are built: both with overflow checks and debug assertions.
#[derive(Clone, Copy)]
pub(crate) enum Profile {
    /// `brief` (opt-level 1): for the short runs of `cargo xtask check`. Measured cold on the
    /// 2-core machine: the instrumented build took 4 min 6 s in `release`, 3 min 21 s in
    /// `brief`, and 2 min 50 s once the targets built `smith-ai` without its HTTP engine (no
    /// TLS stack); libFuzzer's C++ (46 s) and zstd's C (33 s) are most of what is left.
    Brief,
    /// `release` (opt-level 3): for the long runs of `cargo xtask fuzz`.
    Release,
}

impl Profile {
    fn name(self) -> &'static str {
        match self {
            Self::Brief => "brief",
            Self::Release => "release",
        }
    }
}

/// Build every target (instrumented, in `profile`), then run each for `seconds`. A finding
/// fails with the input that caused it and how to replay it.
pub(crate) fn run_targets(profile: Profile, seconds: u64) -> Result<(), String> {
    let triple = host_triple()?;
    let dir = target_root().join("fuzz");
    let mut build = cargo();
    // The triple is named so the flags instrument the targets, not build scripts or macros.
    build
        .args([
            "build",
            "--profile",
            profile.name(),
            "--locked",
            "--target",
            &triple,
            "--manifest-path",
        ])
        .arg(root().join("fuzz/Cargo.toml"))
        .arg("--target-dir")
        .arg(&dir)
        .env("RUSTFLAGS", COVERAGE)
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    run(build)?;
    let artifacts = dir.join("artifacts");
    std::fs::create_dir_all(&artifacts)
        .map_err(|e| format!("cannot create {}: {e}", artifacts.display()))?;
    for target in TARGETS {
        let work = dir.join("work").join(target);
        std::fs::create_dir_all(&work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        let binary = dir.join(&triple).join(profile.name()).join(target);
        let mut fuzz = Command::new(&binary);
        fuzz.arg(&work)
            .arg(root().join("fuzz/corpus").join(target))
            .arg(format!("-max_total_time={seconds}"))
            .arg(format!(
                "-artifact_prefix={}/{target}-",
                artifacts.display()
            ))
            .arg("-print_final_stats=1");
        if let Err(e) = run(fuzz) {
            return Err(format!(
                "{e}\nthe fuzz target `{target}` found an input that breaks its property (the input is under {}); replay it with `{} ARTIFACT`, then add it to fuzz/corpus/{target} once fixed",
                artifacts.display(),
                binary.display()
            ));
        }
    }
    Ok(())
}
