//! Bench: one `smith eval` turn against a loopback OpenAI-compatible server that answers at
//! once — whole-process wall time (median of 30) and peak RSS of one warm turn of the release
//! binary, and the bytes sent per request. Run by `cargo xtask bench` after it builds `smith` in release;
//! prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use smith_ai::loopback;

const ANSWER: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n";

const RUNS: usize = 30;

fn smith() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("release").join("smith")
}

/// Probe mode: run one turn as this process's only child and print its peak RSS (KiB).
fn probe(smith: &std::path::Path, base: &str, home: &str) {
    let status = Command::new(smith)
        .args([
            "eval",
            "--no-session",
            "-c",
            base,
            "-m",
            "openai-compatible/bench",
            "bench",
        ])
        .env("SMITH_HOME", home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("smith runs");
    assert!(status.success(), "the probed turn failed");
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    // Linux reports ru_maxrss in KiB.
    println!("{}", usage.max_rss());
}

fn main() {
    let smith = smith();
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, base, home] = args.as_slice()
        && flag == "--probe"
    {
        probe(&smith, base, home);
        return;
    }
    if !smith.exists() {
        eprintln!(
            "{} is missing: build it with `cargo build --release -p smith-cli`",
            smith.display()
        );
        std::process::exit(1);
    }
    let home = tempfile::tempdir().expect("a temp dir");
    // The warm-up, the timed runs, and the RSS probe.
    let responses = (0..RUNS + 2)
        .map(|_| loopback::sse_in_pieces(ANSWER, ANSWER.len()))
        .collect();
    let server = loopback::serve(responses);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let run = || {
        let start = Instant::now();
        let status = Command::new(&smith)
            .args([
                "eval",
                "--no-session",
                "-c",
                &base,
                "-m",
                "openai-compatible/bench",
                "bench",
            ])
            .env("SMITH_HOME", home.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("smith runs");
        assert!(status.success(), "the bench turn failed");
        start.elapsed()
    };
    // One warm-up run (the compile cache) whose request is measured for size.
    run();
    let request = server.request().expect("a request");
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort();
    let median = times[times.len() / 2];
    println!("provider_turn_ms {:.3}", median.as_secs_f64() * 1000.0);
    println!("provider_request_bytes {}", request.len());
    // Peak RSS of one warm turn, measured in a fresh process whose only child it is (this
    // process's children include the cold warm-up, which compiles the plugins).
    let out = Command::new(std::env::current_exe().expect("this bench"))
        .args(["--probe", &base, &home.path().display().to_string()])
        .output()
        .expect("the probe runs");
    let rss = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    println!("provider_turn_rss_kib {rss}");
}
