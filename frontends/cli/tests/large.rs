//! Large sessions cost what small ones cost (issue "Large sessions stay fast and safe"), with
//! the built binary: a 1 MB and a 100 MB session of ordinary tool turns (50 KB `read` results,
//! incompressible), built by the testkit fixture with the bulk on a branch the selected one does
//! not include, are paged (`sessions get --limit 50`), listed, and continued by one more turn
//! against a loopback openai-compatible server. Each process's bytes read (the kernel's count
//! of every byte it reads, `rchar`) and peak resident set (`ru_maxrss`) stay within 2× between
//! the two sizes.
//!
//! No libtest harness (`harness = false` in `Cargo.toml`): the binary is also its own
//! measuring wrapper. Run as `large --measure-child PROGRAM ARGS…`, it runs the program as its
//! only child, waits for it to exit without reaping it (so the kernel still holds its counters),
//! and writes `rchar maxrss_kib` to the file `SMITH_MEASURE_OUT` names — a fresh process per
//! measurement, so the peak is that child's alone.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::Env;
use smith_ai::loopback;
use smith_testkit::large::{self, Large, Shape};

const MEASURE: &str = "--measure-child";
const NAME: &str = "large_sessions_cost_what_small_ones_cost";

/// Below these, differences are fixed costs and noise, not growth.
const READ_FLOOR_KIB: u64 = 1024;
const RSS_FLOOR_KIB: u64 = 8 * 1024;

const ANSWER: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"one more\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(MEASURE) {
        std::process::exit(measure_child(&args[2..]));
    }
    // `cargo test FILTER` passes its filter on: run only when it matches this test's name.
    let filters: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    if !filters.is_empty() && !filters.iter().any(|f| NAME.contains(f.as_str())) {
        println!("running 0 tests (filtered out: {NAME})");
        return;
    }
    println!("running 1 test");
    large_sessions_cost_what_small_ones_cost();
    println!("test {NAME} ... ok");
}

/// Wrapper mode: run `program args…`, measure it, exit with its status.
#[cfg(target_os = "linux")]
fn measure_child(command: &[String]) -> i32 {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::wait::{Id, WaitPidFlag, waitid};
    let out = std::env::var_os("SMITH_MEASURE_OUT").expect("SMITH_MEASURE_OUT names a file");
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .spawn()
        .expect("the measured program starts");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
    waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT)
        .expect("the measured program exits");
    let read = large::bytes_read_by(child.id());
    let status = child.wait().expect("the measured program is reaped");
    let peak_kib = getrusage(UsageWho::RUSAGE_CHILDREN)
        .expect("the child's resource usage")
        .max_rss();
    std::fs::write(out, format!("{read} {peak_kib}")).expect("the measurement is written");
    status.code().unwrap_or(128)
}

#[cfg(not(target_os = "linux"))]
fn measure_child(_: &[String]) -> i32 {
    eprintln!("measuring a child needs Linux's /proc");
    1
}

/// What one process cost: KiB read and peak resident KiB.
#[derive(Clone, Copy, Debug)]
struct Cost {
    read_kib: u64,
    peak_kib: u64,
}

/// Run `smith args` in `env` through the measuring wrapper; its stdout and cost.
fn measure(env: &Env, args: &[&str]) -> (String, Cost) {
    let inner = env.command(args);
    let out_file = env.tmp().join("measure.out");
    let mut wrapper = Command::new(std::env::current_exe().expect("this test binary"));
    wrapper
        .arg(MEASURE)
        .arg(inner.get_program())
        .args(inner.get_args());
    for (k, v) in inner.get_envs() {
        match v {
            Some(v) => wrapper.env(k, v),
            None => wrapper.env_remove(k),
        };
    }
    let output = wrapper
        .current_dir(env.root.path())
        .env("SMITH_MEASURE_OUT", &out_file)
        .stdin(Stdio::null())
        .output()
        .expect("the wrapper runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "smith {args:?}: {stderr}");
    let text = std::fs::read_to_string(&out_file).expect("the wrapper's measurement");
    let mut parts = text.split_whitespace().map(|p| p.parse::<u64>().unwrap());
    let cost = Cost {
        read_kib: parts.next().unwrap() / 1024,
        peak_kib: parts.next().unwrap(),
    };
    (String::from_utf8_lossy(&output.stdout).into_owned(), cost)
}

/// A home holding one session of about `file_bytes`.
fn home_with(file_bytes: u64) -> (Env, Large) {
    let env = Env::new();
    std::fs::create_dir_all(env.sessions()).unwrap();
    let cwd = env.root.path().to_str().unwrap().to_owned();
    let s = large::large_session(
        &env.sessions(),
        Shape {
            result_bytes: 50 * 1024,
            file_bytes,
            bulk_off_branch: true,
            compacted: false,
        },
        &cwd,
    );
    (env, s)
}

fn base_url(server: &loopback::Server) -> String {
    format!("provider.openai-compatible.base-url={}/v1", server.url)
}

/// Page, list and continue the session in `env`: each operation's cost.
fn costs(env: &Env, s: &Large) -> Vec<(&'static str, Cost)> {
    let id = s.id.to_string();
    let (page, get) = measure(env, &["sessions", "get", &id, "--limit", "50", "--json"]);
    assert_eq!(page.lines().count(), 51, "50 entries and the page record");
    let (branch, get_branch) = measure(env, &["sessions", "get", &id, "--branch", "--json"]);
    let records: Vec<serde_json::Value> = branch
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (first, last) = (records.first().unwrap(), records.last().unwrap());
    assert_eq!(
        first["id"], last["leaf"],
        "the branch page starts at the leaf"
    );
    let (listed, list) = measure(env, &["sessions", "list"]);
    assert!(listed.contains(&id), "{listed}");
    let server = loopback::serve(vec![loopback::sse_in_pieces(ANSWER.as_bytes(), 7)]);
    let url = base_url(&server);
    let (answer, turn) = measure(
        env,
        &[
            "eval",
            "--session",
            &id,
            "-c",
            &url,
            "-m",
            "openai-compatible/local",
            "one more",
        ],
    );
    assert!(answer.contains("one more"), "{answer}");
    // The request carries the selected branch only: the small turn, not the 100 MB beside it.
    let raw = server.request().expect("the turn's request");
    assert!(raw.len() < 64 * 1024, "a {} byte request", raw.len());
    vec![
        ("sessions get --limit 50", get),
        ("sessions get --branch", get_branch),
        ("sessions list", list),
        ("one more loopback turn (resume included)", turn),
    ]
}

fn large_sessions_cost_what_small_ones_cost() {
    let (small_env, small) = home_with(1 << 20);
    let (large_env, large) = home_with(100 << 20);
    assert!(std::fs::metadata(&large.path).unwrap().len() >= 100 << 20);
    // Warm the shared compile cache and the page cache, so both sizes meet the same state.
    costs(&small_env, &small);
    let small_costs = costs(&small_env, &small);
    let large_costs = costs(&large_env, &large);
    for ((what, s), (_, l)) in small_costs.iter().zip(&large_costs) {
        println!(
            "{what}: read {} KiB at 1 MB, {} KiB at 100 MB; peak RSS {} KiB, {} KiB",
            s.read_kib, l.read_kib, s.peak_kib, l.peak_kib
        );
        assert!(
            l.read_kib <= 2 * s.read_kib.max(READ_FLOOR_KIB),
            "{what} read {} KiB at 100 MB, {} KiB at 1 MB",
            l.read_kib,
            s.read_kib
        );
        assert!(
            l.peak_kib <= 2 * s.peak_kib.max(RSS_FLOOR_KIB),
            "{what} peaked at {} KiB at 100 MB, {} KiB at 1 MB",
            l.peak_kib,
            s.peak_kib
        );
    }
    remove(&[small.path, large.path]);
}

fn remove(paths: &[PathBuf]) {
    for p in paths {
        let _ = std::fs::remove_file(Path::new(p));
    }
}
