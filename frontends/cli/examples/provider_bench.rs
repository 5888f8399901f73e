//! Bench: one `smith eval` turn against a loopback OpenAI-compatible server that answers at
//! once — whole-process wall time (median of 30) and peak RSS of one warm turn of the release
//! binary, and the bytes sent per request; then large sessions (the testkit fixture: 50 KB tool
//! results, the bulk on a branch the selected one does not include; and the bulk on the
//! selected branch, compacted at its end) of 1 MB and 100 MB — `sessions get --limit 50` and one
//! more loopback turn continuing the session, wall (median of 10), peak RSS and spawn → the
//! turn's request at the server; curl's request on the same server (the network floor) and the
//! turn's ratio to it; and first runs in a fresh home (nothing compiled yet): a scripted turn, and
//! `smith mcp` from spawn to its `tools/list` answer. Run by `cargo xtask bench` after it
//! builds `smith` in release; prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::smith;
use smith_ai::loopback;

const ANSWER: &[u8] = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n";

const RUNS: usize = 30;

/// Probe mode: run `smith args` (home `home`) as this process's only child and print its peak
/// RSS (KiB).
fn probe(smith: &std::path::Path, home: &str, args: &[String]) {
    let status = Command::new(smith)
        .args(args)
        .env("SMITH_HOME", home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("smith runs");
    assert!(status.success(), "the probed command failed: {args:?}");
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    // Linux reports ru_maxrss in KiB.
    println!("{}", usage.max_rss());
}

/// Peak RSS (KiB) of `smith args` in home `home`, measured by a probe process.
fn peak_rss(home: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(std::env::current_exe().expect("this bench"))
        .arg("--probe")
        .arg(home)
        .args(args)
        .output()
        .expect("the probe runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Wall time of `smith args` in home `home`.
fn timed(smith: &std::path::Path, home: &std::path::Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let status = Command::new(smith)
        .args(args)
        .env("SMITH_HOME", home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("smith runs");
    assert!(status.success(), "the bench command failed: {args:?}");
    start.elapsed()
}

fn median_of(n: usize, mut run: impl FnMut() -> Duration) -> f64 {
    let mut times: Vec<Duration> = (0..n).map(|_| run()).collect();
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

/// The large-session figures at `mb` megabytes: named `large_…` with the bulk beside the
/// selected branch, `compacted_…` with it on the selected branch before a compaction.
/// Returns the `sessions get` and the turn's medians, in milliseconds.
fn large(smith: &std::path::Path, cache: &std::path::Path, mb: u64, compacted: bool) -> (f64, f64) {
    let name = if compacted { "compacted" } else { "large" };
    let home = tempfile::tempdir().expect("a temp dir");
    let sessions = home.path().join("sessions");
    std::fs::create_dir_all(&sessions).expect("a sessions dir");
    // The compile cache of the main bench's home, so no turn here compiles a plugin.
    std::os::unix::fs::symlink(cache, home.path().join("cache")).expect("a link to the cache");
    let s = smith_testkit::large::large_session(
        &sessions,
        smith_testkit::large::Shape {
            result_bytes: 50 * 1024,
            file_bytes: mb << 20,
            bulk_off_branch: !compacted,
            compacted,
        },
        "/bench",
    );
    let id = s.id.to_string();
    let get = ["sessions", "get", id.as_str(), "--limit", "50"];
    timed(smith, home.path(), &get);
    let get_ms = median_of(10, || timed(smith, home.path(), &get));
    println!("{name}_get_{mb}mb_ms {get_ms:.3}");
    println!("{name}_get_{mb}mb_rss_kib {}", peak_rss(home.path(), &get));
    let responses = (0..23)
        .map(|_| loopback::sse_in_pieces(ANSWER, ANSWER.len()))
        .collect();
    let server = loopback::serve(responses);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let turn = [
        "eval",
        "--session",
        id.as_str(),
        "-c",
        base.as_str(),
        "-m",
        "openai-compatible/bench",
        "one more",
    ];
    timed(smith, home.path(), &turn);
    let turn_ms = median_of(10, || timed(smith, home.path(), &turn));
    println!("{name}_turn_{mb}mb_ms {turn_ms:.3}");
    println!(
        "{name}_turn_{mb}mb_rss_kib {}",
        peak_rss(home.path(), &turn)
    );
    // Spawn → the server holding the turn's request: what resuming costs before the network.
    let request_ms = median_of(10, || {
        server.requests_now();
        let start = Instant::now();
        let mut child = Command::new(smith)
            .args(turn)
            .env("SMITH_HOME", home.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("smith runs");
        server.request().expect("the turn's request");
        let elapsed = start.elapsed();
        assert!(child.wait().expect("smith ends").success());
        elapsed
    });
    println!("{name}_first_request_{mb}mb_ms {request_ms:.3}");
    (get_ms, turn_ms)
}

/// Median wall time of curl's streamed POST to `url`, each answered by the server's next
/// response: the network floor a turn is compared with.
fn curl_ms(url: &str, runs: usize) -> Option<f64> {
    let once = || {
        let start = Instant::now();
        let status = Command::new("curl")
            .args(["-s", "-o", "/dev/null", "-X", "POST", "-H"])
            .arg("content-type: application/json")
            .args(["-d", r#"{"model":"bench","stream":true,"messages":[]}"#])
            .arg(format!("{url}/v1/chat/completions"))
            .status()
            .ok()?;
        status.success().then(|| start.elapsed())
    };
    let mut times: Vec<Duration> = (0..runs).map(|_| once()).collect::<Option<_>>()?;
    times.sort();
    Some(times[times.len() / 2].as_secs_f64() * 1000.0)
}

/// A first run in a fresh home: a scripted turn, median of 5.
fn first_eval_ms(smith: &std::path::Path) -> f64 {
    median_of(5, || {
        let home = tempfile::tempdir().expect("a temp dir");
        timed(smith, home.path(), &["eval", "-m", "scripted/demo", "hi"])
    })
}

/// A first run in a fresh home: `smith mcp` from spawn until its `tools/list` answer is read,
/// median of 5.
fn first_mcp_list_ms(smith: &std::path::Path) -> f64 {
    median_of(5, || {
        let home = tempfile::tempdir().expect("a temp dir");
        let start = Instant::now();
        let mut child = Command::new(smith)
            .arg("mcp")
            .env("SMITH_HOME", home.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("smith mcp runs");
        let mut stdin = child.stdin.take().expect("a pipe");
        stdin
            .write_all(concat!(
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
                "\n"
            ).as_bytes())
            .expect("the requests are written");
        let mut lines = std::io::BufReader::new(child.stdout.take().expect("a pipe")).lines();
        let answered = lines
            .by_ref()
            .map_while(Result::ok)
            .any(|line| line.contains(r#""id":2"#) && line.contains("\"tools\""));
        let elapsed = start.elapsed();
        assert!(answered, "smith mcp did not answer tools/list");
        drop(stdin);
        let _ = child.wait();
        elapsed
    })
}

/// What the OS sandbox adds to starting a program: `bash -c true` through the launcher
/// `smith` uses (`smith-sandbox` beside it when built; `workspace-write`, network denied, a hidden directory) less `bash -c true` alone, medians
/// of 30; `None` where the kernel cannot enforce the sandbox.
fn sandbox_setup_ms(smith: &std::path::Path) -> Option<f64> {
    use smith_host::sandbox::{Confinement, Mode, Network};
    if !smith_host::sandbox::support().enforces() {
        return None;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let hidden = dir.path().join("hidden");
    std::fs::create_dir(&hidden).expect("a directory");
    let spec = Confinement {
        mode: Mode::WorkspaceWrite,
        network: Network::Deny,
        writable: vec![dir.path().to_owned()],
        protected: Vec::new(),
        pinned: Vec::new(),
        hidden: vec![hidden],
        nonce: 1,
        made: Vec::new(),
    };
    let spec = serde_json::to_string(&spec).expect("a spec");
    let run = |sandboxed: bool| {
        let mut command = if sandboxed {
            let mut c = Command::new(smith_host::sandbox::launcher_for(smith));
            c.args([smith_host::sandbox::LAUNCH_ARG, &spec, "--", "bash"]);
            c
        } else {
            Command::new("bash")
        };
        let start = Instant::now();
        let status = command
            .args(["-c", "true"])
            .current_dir(dir.path())
            .status()
            .expect("bash runs");
        assert!(status.success(), "the sandboxed `bash -c true` failed");
        start.elapsed()
    };
    run(true);
    let plain = median_of(RUNS, || run(false));
    let sandboxed = median_of(RUNS, || run(true));
    Some(sandboxed - plain)
}

/// What the policy events add to one tool call with the bundled `permissions` plugin: a
/// scripted turn of [`CALLS`] `read` calls (each with its `fs.read` effect: a before-tool
/// event, the effect's left out by its manifest) with and without the plugin, run in 30
/// interleaved pairs (so drift of the machine meets both alike), medians, the difference per
/// call. The plugin's load (once per process, a few milliseconds) is spread over the calls:
/// 100 of them, so the figure is what each further call costs.
fn policy_per_call_ms(smith: &std::path::Path) -> f64 {
    const CALLS: usize = 100;
    let home = tempfile::tempdir().expect("a temp dir");
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("a.txt"), "bench\n").expect("a file");
    let calls: String = (0..CALLS)
        .map(|i| {
            format!(
                "  tool-call id=\"c{i}\" name=\"read\" arguments=#\"{{\"path\":\"a.txt\"}}\"#\n"
            )
        })
        .collect();
    let script = dir.path().join("reads.kdl");
    std::fs::write(
        &script,
        format!("round {{\n{calls}  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"),
    )
    .expect("a script");
    let script = script.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let start = Instant::now();
        let status = Command::new(smith)
            .args([
                "eval",
                "--no-session",
                "-m",
                "scripted/reads",
                "--script",
                &script,
            ])
            .args(extra)
            .arg("go")
            .current_dir(dir.path())
            .env("SMITH_HOME", home.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("smith runs");
        assert!(status.success(), "the policy bench turn failed");
        start.elapsed()
    };
    let without = ["--disable-plugin", "permissions"];
    // Warm the compile cache for both.
    run(&[]);
    run(&without);
    let (mut with, mut bare) = (Vec::new(), Vec::new());
    for _ in 0..30 {
        with.push(run(&[]));
        bare.push(run(&without));
    }
    with.sort();
    bare.sort();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    (ms(with[with.len() / 2]) - ms(bare[bare.len() / 2])) / CALLS as f64
}

fn main() {
    let smith = smith();
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, home, rest @ ..] = args.as_slice()
        && flag == "--probe"
    {
        probe(&smith, home, rest);
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
    // The warm-up, the timed runs, the RSS probe and curl's requests.
    let responses = (0..3 * RUNS + 2)
        .map(|_| loopback::sse_in_pieces(ANSWER, ANSWER.len()))
        .collect();
    let server = loopback::serve(responses);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let run_with = |extra: &[&str]| {
        let start = Instant::now();
        let status = Command::new(&smith)
            .args([
                "eval",
                "--no-session",
                "-c",
                &base,
                "-m",
                "openai-compatible/bench",
            ])
            .args(extra)
            .arg("bench")
            .env("SMITH_HOME", home.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("smith runs");
        assert!(status.success(), "the bench turn failed");
        start.elapsed()
    };
    let run = || run_with(&[]);
    // One warm-up run (the compile cache) whose request is measured for size.
    run();
    let request = server.request().expect("a request");
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort();
    let median = times[times.len() / 2];
    let turn_ms = median.as_secs_f64() * 1000.0;
    println!("provider_turn_ms {turn_ms:.3}");
    if let Some(curl) = curl_ms(&server.url, RUNS) {
        println!("curl_request_ms {curl:.3}");
        println!("provider_turn_vs_curl {:.3}", turn_ms / curl);
    }
    println!("first_eval_ms {:.3}", first_eval_ms(&smith));
    println!("first_mcp_list_ms {:.3}", first_mcp_list_ms(&smith));
    if let Some(ms) = sandbox_setup_ms(&smith) {
        println!("sandbox_setup_ms {ms:.3}");
    }
    println!("policy_per_call_ms {:.3}", policy_per_call_ms(&smith));
    println!("provider_request_bytes {}", request.len());
    // The same turn without the plugins that write the instructions and read the docs: what
    // recording the request costs apart from them (the request is recorded either way).
    let bare = [
        "--disable-plugin",
        "prompt",
        "--disable-plugin",
        "agents-md",
        "--disable-plugin",
        "docs",
    ];
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run_with(&bare)).collect();
    times.sort();
    println!(
        "provider_turn_bare_ms {:.3}",
        times[times.len() / 2].as_secs_f64() * 1000.0
    );
    // Peak RSS of one warm turn, measured in a fresh process whose only child it is (this
    // process's children include the cold warm-up, which compiles the plugins).
    let rss = peak_rss(
        home.path(),
        &[
            "eval",
            "--no-session",
            "-c",
            &base,
            "-m",
            "openai-compatible/bench",
            "bench",
        ],
    );
    println!("provider_turn_rss_kib {rss}");
    for compacted in [false, true] {
        let small = large(&smith, &home.path().join("cache"), 1, compacted);
        let big = large(&smith, &home.path().join("cache"), 100, compacted);
        if compacted {
            println!("compacted_get_100mb_vs_1mb {:.3}", big.0 / small.0);
            println!("compacted_turn_100mb_vs_1mb {:.3}", big.1 / small.1);
        }
    }
}
