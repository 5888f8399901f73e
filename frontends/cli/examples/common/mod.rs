//! What the benches of the release `smith` share: where the binary is, and how a figure is
//! taken (the median of its samples, in milliseconds).
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

/// The release `smith` under `CARGO_TARGET_DIR` (else the workspace's `target`), which
/// `cargo xtask bench` builds first.
pub(crate) fn smith() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("release").join("smith")
}

/// The median of `samples` (the upper one of an even count). Panics on no samples: a bench
/// always takes some.
pub(crate) fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// `d` in milliseconds.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The peak resident set size of process `pid` in KiB (`VmHWM` of `/proc/PID/status`); `-1`
/// where it cannot be read (not Linux, the process gone).
pub(crate) fn peak_rss_kib(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(-1.0)
}
