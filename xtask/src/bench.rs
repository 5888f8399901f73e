//! `cargo xtask bench`: speed and memory figures, printed as figure / target / measured.
//!
//! Targets come from the issues and the spec; a miss is reported, never a failure.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{cargo, root, run as run_cmd};

struct Figure {
    name: &'static str,
    target: String,
    measured: String,
    met: Option<bool>,
}

pub(crate) fn run() -> Result<(), String> {
    let mut build = cargo();
    build.args(["build", "--release", "--locked", "-p", "smith-cli"]);
    run_cmd(build)?;
    let smith = root().join("target").join("release").join("smith");
    let smith = std::env::var_os("CARGO_TARGET_DIR")
        .map(|d| Path::new(&d).join("release").join("smith"))
        .unwrap_or(smith);
    let home = std::env::temp_dir().join(format!("smith-bench-{}", std::process::id()));
    std::fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;

    let mut figures = Vec::new();

    let help = median(50, || time(Command::new(&smith).arg("--help")))?;
    figures.push(Figure {
        name: "`smith --help` whole process, median of 50",
        target: "≤ 10 ms".into(),
        measured: ms(help),
        met: Some(help <= Duration::from_millis(10)),
    });

    let eval = |cmd: &mut Command| {
        cmd.args(["eval", "--model", "scripted/demo", "bench"])
            .env("SMITH_HOME", &home);
    };
    let turn = median(30, || {
        let mut cmd = Command::new(&smith);
        eval(&mut cmd);
        time(&mut cmd)
    })?;
    figures.push(Figure {
        name: "scripted eval turn (scripted/demo) whole process, median of 30",
        target: "report".into(),
        measured: ms(turn),
        met: None,
    });

    let xtask = std::env::current_exe().map_err(|e| format!("cannot find xtask itself: {e}"))?;
    let mut probe = Command::new(xtask);
    probe.arg("peak-rss").arg(&smith);
    eval(&mut probe);
    let out = probe
        .output()
        .map_err(|e| format!("cannot run the peak-RSS probe: {e}"))?;
    let rss = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    figures.push(Figure {
        name: "scripted eval turn peak RSS",
        target: "report".into(),
        measured: if rss.is_empty() {
            "unavailable".to_owned()
        } else {
            format!("{rss} KiB")
        },
        met: None,
    });

    let search = median(30, || {
        time(Command::new(&smith).args(["docs", "search", "session file format"]))
    })?;
    figures.push(Figure {
        name: "`smith docs search` whole process, median of 30",
        target: "≤ 20 ms".into(),
        measured: ms(search),
        met: Some(search <= Duration::from_millis(20)),
    });
    let mut probe = Command::new(std::env::current_exe().map_err(|e| e.to_string())?);
    probe
        .arg("peak-rss")
        .arg(&smith)
        .args(["docs", "search", "session file format"]);
    let out = probe
        .output()
        .map_err(|e| format!("cannot run the peak-RSS probe: {e}"))?;
    let rss = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    figures.push(Figure {
        name: "`smith docs search` peak RSS",
        target: "report".into(),
        measured: format!("{rss} KiB"),
        met: None,
    });
    let ms_limit = |limit: f64| Limit::Ms(limit);
    let docs = [
        (
            "query",
            "docs query in process (search + snippets)",
            ms_limit(5.0),
        ),
        (
            "corpus_load",
            "docs corpus decompress + parse",
            Limit::ReportMs,
        ),
        (
            "index_open_embedded",
            "docs index open (built at compile time)",
            Limit::ReportMs,
        ),
        (
            "index_build_in_ram",
            "docs index build in RAM (the alternative)",
            Limit::ReportMs,
        ),
    ];
    let store = [
        (
            "encode_1000_ms",
            "encode 1,000 representative entries",
            ms_limit(0.5),
        ),
        (
            "open_last50_10000_ms",
            "open + last 50 entries, 10,000-entry session",
            ms_limit(50.0),
        ),
        (
            "open_last50_10000_rss_kib",
            "open + last 50, 10,000 entries: peak RSS",
            Limit::RssMib(64.0),
        ),
        (
            "open_last50_100000_ms",
            "open + last 50 entries, 100,000-entry session",
            ms_limit(50.0),
        ),
        (
            "open_last50_100000_rss_kib",
            "open + last 50, 100,000 entries: peak RSS",
            Limit::RssMib(64.0),
        ),
        (
            "open_torn_100000_ms",
            "recovery open (torn tail: full scan), 100,000 entries",
            Limit::ReportMs,
        ),
        (
            "open_torn_100000_rss_kib",
            "recovery open, 100,000 entries: peak RSS",
            Limit::RssMib(64.0),
        ),
    ];
    let host = [
        (
            "plugins_start_warm_ms",
            "start all bundled plugins, warm compile cache (release)",
            ms_limit(5.0),
        ),
        (
            "plugins_start_cold_ms",
            "start all bundled plugins, cold cache: compile (release)",
            Limit::ReportMs,
        ),
        (
            "tool_call_ms",
            "one trivial tool call with durable intent + completion",
            Limit::ReportMs,
        ),
    ];
    let host_debug = [(
        "plugins_start_warm_ms",
        "start all bundled plugins, warm compile cache (debug build)",
        Limit::ReportMs,
    )];
    let search = [
        (
            "grep_50000_ms",
            "grep a literal across 50,000 files (in process, sorted walk)",
            Limit::ReportMs,
        ),
        (
            "rg_50000_ms",
            "the same search with ripgrep `rg -F` (same tree, same run)",
            Limit::ReportMsIfInstalled,
        ),
        (
            "find_50000_ms",
            "find `*.rs` (first 1,000) in the same tree",
            Limit::ReportMs,
        ),
    ];
    let turn = [
        (
            "turn_wall_ms",
            "one scripted turn with one tool call: wall (one fsync per commit)",
            Limit::ReportMs,
        ),
        (
            "turn_allocations",
            "one scripted turn with one tool call: heap allocations",
            Limit::ReportCount,
        ),
        (
            "turn_alloc_kib",
            "one scripted turn with one tool call: KiB allocated",
            Limit::ReportCount,
        ),
        (
            "turn_fsyncs",
            "one scripted turn with one tool call: fsyncs (commits)",
            Limit::ReportCount,
        ),
    ];
    let provider = [
        (
            "provider_turn_ms",
            "eval turn vs loopback openai-compatible server: wall, median of 30",
            ms_limit(30.0),
        ),
        (
            "curl_request_ms",
            "curl's request on the same loopback server (the network floor), median of 30",
            Limit::ReportMs,
        ),
        (
            "provider_turn_vs_curl",
            "eval turn ÷ curl's request, same server, same run",
            Limit::Ratio(1.5),
        ),
        (
            "first_eval_ms",
            "first run in a fresh SMITH_HOME: scripted eval turn, median of 5",
            ms_limit(60.0),
        ),
        (
            "first_mcp_list_ms",
            "first run in a fresh SMITH_HOME: `smith mcp` spawn → tools/list answered, median of 5",
            ms_limit(40.0),
        ),
        (
            "provider_turn_bare_ms",
            "the same without the prompt, agents-md and docs plugins",
            Limit::ReportMs,
        ),
        (
            "provider_turn_rss_kib",
            "eval turn vs loopback openai-compatible server: peak RSS",
            Limit::RssMib(24.0),
        ),
        (
            "provider_request_bytes",
            "eval turn vs loopback openai-compatible server: bytes sent per request",
            Limit::ReportCount,
        ),
        (
            "large_get_1mb_ms",
            "`sessions get --limit 50`, 1 MB session of 50 KB tool results",
            Limit::ReportMs,
        ),
        (
            "large_get_100mb_ms",
            "`sessions get --limit 50`, 100 MB session of 50 KB tool results",
            ms_limit(20.0),
        ),
        (
            "large_get_100mb_rss_kib",
            "`sessions get --limit 50`, 100 MB session: peak RSS",
            Limit::RssMib(16.0),
        ),
        (
            "large_turn_1mb_ms",
            "resume + one loopback turn, 1 MB session (short selected branch)",
            Limit::ReportMs,
        ),
        (
            "large_turn_100mb_ms",
            "resume + one loopback turn, 100 MB beside a short selected branch",
            ms_limit(40.0),
        ),
        (
            "large_turn_1mb_rss_kib",
            "resume + one loopback turn, 1 MB session: peak RSS",
            Limit::ReportCount,
        ),
        (
            "large_turn_100mb_rss_kib",
            "resume + one loopback turn, 100 MB beside a short branch: peak RSS",
            Limit::RssMib(32.0),
        ),
    ];
    let projection = [
        (
            "projection_10k_ms",
            "project a 10,000-entry selected branch from its file (resume)",
            ms_limit(5.0),
        ),
        (
            "projection_10k_resident_ms",
            "next request's context in a running 10,000-entry session",
            ms_limit(5.0),
        ),
        (
            "projection_1k_ms",
            "project a 1,000-entry selected branch from its file",
            Limit::ReportMs,
        ),
        (
            "projection_1k_beside_9k_ms",
            "the same beside 9,000 unrelated entries (flat: ≈ the line above)",
            Limit::ReportMs,
        ),
        (
            "projection_compacted_1k_ms",
            "project a branch whose 1,000 older entries a compaction summarizes",
            ms_limit(5.0),
        ),
        (
            "projection_compacted_100k_ms",
            "the same with 100,000 summarized entries (flat: ≈ the line above)",
            ms_limit(5.0),
        ),
        (
            "open_compacted_1k_ms",
            "open (resume) a session whose 1,000 older entries a compaction summarizes",
            ms_limit(5.0),
        ),
        (
            "open_compacted_100k_ms",
            "the same with 100,000 summarized entries (flat: ≈ the line above)",
            ms_limit(5.0),
        ),
        (
            "open_compacted_1k_rss_kib",
            "open and project the 1,000-entry compacted session: peak RSS",
            Limit::ReportCount,
        ),
        (
            "open_compacted_100k_rss_kib",
            "the same with 100,000 summarized entries: peak RSS (flat: ≈ the line above)",
            Limit::ReportCount,
        ),
    ];
    let rpc = [
        (
            "rpc_discover_ms",
            "`smith rpc` start to first response (`rpc.discover`), median of 30",
            ms_limit(10.0),
        ),
        (
            "rpc_receipt_ms",
            "`session.submit` to its durable receipt reply, median of 30",
            Limit::ReportMs,
        ),
        (
            "rpc_fsync_ms",
            "fsync of a small append on the same disk, median of 30",
            Limit::ReportMs,
        ),
        (
            "rpc_receipt_beyond_fsync_ms",
            "receipt reply beyond that fsync",
            ms_limit(3.0),
        ),
        (
            "rpc_100k_deltas_ms",
            "100,000 streamed deltas through the pipe, all received: wall",
            Limit::ReportMs,
        ),
        (
            "rpc_100k_deltas_rss_kib",
            "100,000 streamed deltas through the pipe: peak RSS",
            Limit::RssMib(32.0),
        ),
        (
            "rpc_fast_reader_20k_rss_kib",
            "20,000 unmergeable deltas (one message block each), read as they come: peak RSS",
            Limit::ReportCount,
        ),
        (
            "rpc_slow_reader_20k_rss_kib",
            "the same, the client not reading until the run ended: peak RSS",
            Limit::ReportCount,
        ),
        (
            "rpc_slow_reader_20k_extra_kib",
            "what the slow reader costs beyond the fast one (the bounded outbox)",
            Limit::ReportCount,
        ),
        (
            "rpc_fast_reader_100k_rss_kib",
            "the same at 100,000, read as they come (the message grows with the stream)",
            Limit::ReportCount,
        ),
        (
            "rpc_slow_reader_100k_rss_kib",
            "the same at 100,000, the client not reading",
            Limit::ReportCount,
        ),
        (
            "rpc_slow_reader_100k_extra_kib",
            "what the slow reader costs at 100,000 (flat: ≈ the 20,000 figure, within 8 MiB)",
            Limit::RssMib(8.0),
        ),
    ];
    let mcp = [
        (
            "mcp_start_tools_list_ms",
            "`smith mcp` spawn → initialize → tools/list answered, median of 20",
            ms_limit(15.0),
        ),
        (
            "mcp_read_call_ms",
            "a `read` tool call round trip, median of 30",
            Limit::ReportMs,
        ),
        (
            "mcp_fsync_ms",
            "fsync of a small append on the same disk, median of 30",
            Limit::ReportMs,
        ),
        (
            "mcp_read_call_beyond_fsyncs_ms",
            "the round trip beyond its two fsyncs (intent, completion)",
            ms_limit(2.0),
        ),
        (
            "mcp_idle_rss_kib",
            "an idle `smith mcp` after initialize and tools/list: peak RSS",
            Limit::RssMib(24.0),
        ),
    ];
    let tui = [
        (
            "tui_first_frame_ms",
            "`smith` (terminal UI) spawn → first frame drawn, median of 10",
            ms_limit(30.0),
        ),
        (
            "tui_key_echo_streaming_ms",
            "a key press → its character echoed, while 100 deltas/s stream, median of 40",
            ms_limit(8.0),
        ),
        (
            "tui_bytes_per_delta",
            "terminal bytes written per streamed delta (changed cells only)",
            Limit::ReportCount,
        ),
        (
            "tui_full_clears_while_streaming",
            "full-screen clears written while streaming (none expected)",
            Limit::ReportCount,
        ),
        (
            "tui_paste_2000_lines_ms",
            "a 2,000-line bracketed paste → its chip drawn",
            ms_limit(50.0),
        ),
        (
            "tui_attach_100mb_first_screen_ms",
            "`smith --session` on a 100 MB session spawn → its last turn drawn, median of 5",
            ms_limit(50.0),
        ),
        (
            "tui_attach_100mb_peak_rss_kib",
            "the same, after ten pages up: peak RSS",
            Limit::RssMib(64.0),
        ),
    ];
    let window = [
        (
            "tui_frame_p99_paging_10k_ms",
            "terminal UI frame paging through a 10,000-entry session, p99",
            ms_limit(2.0),
        ),
        (
            "tui_frame_p99_live_10k_ms",
            "terminal UI frame with 10,000 live blocks, the newest streaming, p99",
            ms_limit(2.0),
        ),
        (
            "tui_search_10k_first_hit_ms",
            "terminal UI search across 10,000 entries → first hit (the oldest turn)",
            ms_limit(50.0),
        ),
    ];
    let pickers = [
        (
            "tui_palette_first_paint_ms",
            "terminal UI `/` → the command palette's first paint, median of 50",
            ms_limit(16.0),
        ),
        (
            "tui_model_picker_first_paint_ms",
            "`/model ` → the model picker's first paint (catalog models, details), median of 50",
            ms_limit(16.0),
        ),
        (
            "tui_picker_first_paint_ms",
            "the resume picker opened → its first paint (before any row), median of 5",
            ms_limit(16.0),
        ),
        (
            "tui_resume_5000_first_rows_ms",
            "the resume picker with 5,000 sessions on disk → its first rows drawn, median of 5",
            ms_limit(50.0),
        ),
        (
            "tui_resume_5000_all_rows_ms",
            "the same → all 5,000 listed",
            Limit::ReportMs,
        ),
        (
            "tui_branches_10k_ms",
            "the branches picker on a 10,000-entry session → its tree drawn",
            Limit::ReportMs,
        ),
    ];
    let catalog = [
        (
            "catalog_load_ms",
            "bundled model catalog load (embedded records), median of 50",
            Limit::Ms(1.0),
        ),
        (
            "catalog_records",
            "bundled model catalog: records",
            Limit::ReportCount,
        ),
        (
            "catalog_kdl_parse_ms",
            "the same records parsed from KDL (as models.kdl is)",
            Limit::ReportMs,
        ),
    ];
    let secrets = [
        (
            "redact_64mib_100_ms",
            "redact 64 MiB of tool output against 100 secrets (all forms)",
            ms_limit(100.0),
        ),
        (
            "redactor_build_100_ms",
            "build the redactor of 100 secrets",
            Limit::ReportMs,
        ),
    ];
    let vcs = [
        (
            "vcs_snapshot_10k_first_ms",
            "VCS snapshot of a 10,000-file tree, first (every file hashed)",
            Limit::ReportMs,
        ),
        (
            "vcs_snapshot_10k_one_changed_ms",
            "VCS snapshot of a 10,000-file tree with one changed file",
            ms_limit(50.0),
        ),
        (
            "vcs_undo_3_files_ms",
            "VCS undo of a 3-file change (1,000-file tree; scan, check, write)",
            ms_limit(20.0),
        ),
        (
            "vcs_undo_3_files_10k_ms",
            "VCS undo of a 3-file change in the 10,000-file tree",
            Limit::ReportMs,
        ),
    ];
    let replay = [
        (
            "replay_10k_json_ms",
            "`smith replay ID --json` of a 10,000-entry session, spawn → exit, median of 10",
            ms_limit(200.0),
        ),
        (
            "replay_10k_peak_rss_kib",
            "the same: peak RSS",
            Limit::RssMib(32.0),
        ),
        (
            "replay_50k_json_ms",
            "the same for a 50,000-entry session (reported)",
            Limit::ReportMs,
        ),
        (
            "replay_50k_peak_rss_kib",
            "its peak RSS (flat in history size: ≈ the 10,000 figure)",
            Limit::RssMib(32.0),
        ),
    ];
    for (package, example, release, table) in [
        ("smith-ai", "catalog_bench", true, &catalog[..]),
        ("smith-docs", "search_bench", true, &docs[..]),
        ("smith-store", "store_bench", true, &store[..]),
        ("smith-secrets", "redact_bench", true, &secrets[..]),
        ("smith-host", "host_bench", true, &host[..]),
        ("smith-host", "host_bench", false, &host_debug[..]),
        ("smith-host", "grep_bench", true, &search[..]),
        ("smith-agent", "projection_bench", true, &projection[..]),
        ("smith-app", "turn_bench", true, &turn[..]),
        ("smith-cli", "provider_bench", true, &provider[..]),
        ("smith-cli", "rpc_bench", true, &rpc[..]),
        ("smith-cli", "mcp_bench", true, &mcp[..]),
        ("smith-cli", "tui_bench", true, &tui[..]),
        ("smith-cli", "replay_bench", true, &replay[..]),
        ("smith-tui", "window_bench", true, &window[..]),
        ("smith-tui", "picker_bench", true, &pickers[..]),
        ("smith-vcs", "vcs_bench", true, &vcs[..]),
    ] {
        for (name, value) in example_figures_in(package, example, release)? {
            if let Some((_, label, limit)) = table.iter().find(|(n, _, _)| *n == name) {
                figures.push(limit.figure(label, value));
            }
        }
    }

    let _ = std::fs::remove_dir_all(&home);
    println!("{:<66} {:>10} {:>12}", "figure", "target", "measured");
    for f in &figures {
        let mark = match f.met {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "",
        };
        println!("{:<66} {:>10} {:>12}  {mark}", f.name, f.target, f.measured);
    }
    Ok(())
}

/// How a bench example's figure is judged.
#[derive(Clone, Copy)]
enum Limit {
    /// Milliseconds with a target: met when at most this.
    Ms(f64),
    /// Milliseconds, reported only.
    ReportMs,
    /// Milliseconds of an optional outside tool, reported only; negative: not installed.
    ReportMsIfInstalled,
    /// A count (or size), reported only.
    ReportCount,
    /// A peak RSS in KiB with a target in MiB.
    RssMib(f64),
    /// A ratio of two figures of one run, with a target: met when at most this.
    Ratio(f64),
}

impl Limit {
    fn figure(self, name: &'static str, value: f64) -> Figure {
        let (target, measured, met) = match self {
            Limit::Ms(limit) => (
                format!("≤ {limit} ms"),
                format!("{value:.3} ms"),
                Some(value <= limit),
            ),
            Limit::ReportMs => ("report".to_owned(), format!("{value:.3} ms"), None),
            Limit::ReportMsIfInstalled if value < 0.0 => {
                ("report".to_owned(), "not installed".to_owned(), None)
            }
            Limit::ReportMsIfInstalled => ("report".to_owned(), format!("{value:.3} ms"), None),
            Limit::ReportCount => ("report".to_owned(), format!("{value}"), None),
            Limit::RssMib(limit) => (
                format!("≤ {limit} MiB"),
                format!("{:.1} MiB", value / 1024.0),
                Some(value <= limit * 1024.0),
            ),
            Limit::Ratio(limit) => (
                format!("≤ {limit}×"),
                format!("{value:.2}×"),
                Some(value <= limit),
            ),
        };
        Figure {
            name,
            target,
            measured,
            met,
        }
    }
}

/// Run a bench example of `package` (in release or debug) and read its `name value` lines.
fn example_figures_in(
    package: &str,
    example: &str,
    release: bool,
) -> Result<Vec<(String, f64)>, String> {
    let mut cmd = cargo();
    cmd.arg("run");
    if release {
        cmd.arg("--release");
    }
    cmd.args(["--quiet", "--locked", "-p", package, "--example", example]);
    let out = cmd
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run the {example} bench: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the {example} bench failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(' ')?;
            Some((name.to_owned(), value.parse().unwrap_or(f64::NAN)))
        })
        .collect())
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn time(cmd: &mut Command) -> Result<Duration, String> {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let took = start.elapsed();
    if status.success() {
        Ok(took)
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn median(
    n: usize,
    mut sample: impl FnMut() -> Result<Duration, String>,
) -> Result<Duration, String> {
    sample()?; // warm the page cache
    let mut samples = (0..n).map(|_| sample()).collect::<Result<Vec<_>, _>>()?;
    samples.sort();
    Ok(samples[n / 2])
}

/// `xtask peak-rss CMD ARGS…`: run one command (its environment inherited) and print its peak
/// resident set size in KiB. A fresh process per probe, so the children's maximum is the
/// command's own.
pub(crate) fn peak_rss(args: &[String]) -> Result<(), String> {
    let Some((program, rest)) = args.split_first() else {
        return Err("usage: xtask peak-rss CMD [ARGS…]".to_owned());
    };
    let status = Command::new(program)
        .args(rest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if !status.success() {
        return Err(format!("{program} failed with {status}"));
    }
    #[cfg(unix)]
    {
        use nix::sys::resource::{UsageWho, getrusage};
        let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| format!("getrusage: {e}"))?;
        println!("{}", usage.max_rss());
    }
    Ok(())
}
