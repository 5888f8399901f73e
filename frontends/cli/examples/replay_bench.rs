//! Instant replay speed and memory (issue: Replay — "instant replay of a 10,000-entry session
//! to `--json` ≤ 200 ms and peak RSS ≤ 32 MiB, flat in history size"): the release `smith
//! replay ID --json` on sessions of the large-session builder, stdout to /dev/null, spawn to
//! exit, median of 10; peak RSS from the children's resource usage. Prints `name value`
//! lines for `cargo xtask bench`.
#![allow(clippy::print_stdout)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{median, ms, smith};

/// A session of at least `entries` entries under `home`'s sessions: its id and entry count.
fn session(home: &Path, entries: u64) -> (String, u64) {
    let sessions = home.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    // Each turn of the builder is a handful of entries holding two 512-byte tool results;
    // grow the file bound until the session has enough entries.
    let mut bytes = entries * 300;
    loop {
        let large = smith_testkit::large::large_session(
            &sessions,
            smith_testkit::large::Shape {
                result_bytes: 512,
                file_bytes: bytes,
                bulk_off_branch: false,
                compacted: false,
            },
            &home.display().to_string(),
        );
        if large.last_id >= entries {
            return (large.id.to_string(), large.last_id);
        }
        std::fs::remove_file(&large.path).unwrap();
        bytes = bytes * 3 / 2;
    }
}

/// Spawn-to-exit times of `smith replay ID --json` (median, ms) over `runs` runs.
fn replay(home: &Path, id: &str, runs: usize) -> f64 {
    let times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new(smith())
                .args(["replay", id, "--json"])
                .env("SMITH_HOME", home)
                .env_remove("XDG_DATA_HOME")
                .env_remove("XDG_CONFIG_HOME")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "smith replay failed: {status}");
            ms(start.elapsed())
        })
        .collect();
    median(times)
}

/// The peak RSS of one `smith replay ID --json`, in KiB: measured by a fresh process of this
/// bench (`peak-rss HOME ID`), so the children's maximum is the replay's own and not pages
/// shared with this process's session builder.
fn peak_rss_kib(home: &Path, id: &str) -> i64 {
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("peak-rss")
        .arg(home)
        .arg(id)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, probe, home, id] = &args[..]
        && probe == "peak-rss"
    {
        replay(Path::new(home), id, 1);
        let usage =
            nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
        println!("{}", usage.max_rss());
        return;
    }
    let home = std::env::temp_dir().join(format!("smith-replay-bench-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let (small, entries) = session(&home, 10_000);
    let (large, large_entries) = session(&home, 50_000);
    let ms_10k = replay(&home, &small, 10);
    let rss_10k = peak_rss_kib(&home, &small);
    let ms_50k = replay(&home, &large, 3);
    let rss_50k = peak_rss_kib(&home, &large);
    println!("replay_10k_entries {entries}");
    println!("replay_10k_json_ms {ms_10k:.3}");
    println!("replay_10k_peak_rss_kib {rss_10k}");
    println!("replay_50k_entries {large_entries}");
    println!("replay_50k_json_ms {ms_50k:.3}");
    println!("replay_50k_peak_rss_kib {rss_50k}");
    let _ = std::fs::remove_dir_all(&home);
}
