//! Bench: `smith acp` of the release binary through its pipes — spawn → `initialize`
//! answered (median of 20), spawn → `initialize` → `session/new` answered (median of 20), the
//! peak RSS of an idle agent after that; and, in the same run, `opencode acp` spawned →
//! `initialize` answered when `opencode` is on the `PATH` (the side-by-side; `-1`:
//! not installed). Run by `cargo xtask bench`; prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use common::{median, ms, smith};
use serde_json::{Value, json};

struct Agent {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Agent {
    fn start(program: &Path, args: &[&str], home: &Path) -> Option<Self> {
        let mut child = Command::new(program)
            .args(args)
            .env("SMITH_HOME", home)
            .current_dir(home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take()?);
        Some(Self {
            child,
            stdin,
            stdout,
            next: 0,
        })
    }

    /// Send a request; its response (lines before it — notifications — are skipped).
    fn call(&mut self, method: &str, params: Value) -> Option<Value> {
        self.next += 1;
        let line = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let stdin = self.stdin.as_mut()?;
        writeln!(stdin, "{line}").ok()?;
        stdin.flush().ok()?;
        loop {
            let mut text = String::new();
            if self.stdout.read_line(&mut text).ok()? == 0 {
                return None;
            }
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if v["id"] == self.next && v.get("method").is_none() {
                return Some(v);
            }
        }
    }

    fn initialize(&mut self) -> Option<Value> {
        self.call(
            "initialize",
            json!({"protocolVersion": 1, "clientCapabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}),
        )
    }

    fn peak_kib(&self) -> f64 {
        common::peak_rss_kib(self.child.id())
    }

    fn finish(mut self) {
        self.stdin.take();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `program args` on the `PATH`, spawned → `initialize` answered, median of `n`; `None` when
/// it cannot be run.
fn initialize_ms(program: &Path, args: &[&str], home: &Path, n: usize) -> Option<f64> {
    let mut samples = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        let mut agent = Agent::start(program, args, home)?;
        let answer = agent.initialize()?;
        samples.push(ms(t.elapsed()));
        assert!(answer.get("result").is_some(), "{answer}");
        agent.finish();
    }
    Some(median(samples))
}

fn main() {
    assert!(
        smith().exists(),
        "{} is missing: build it with `cargo build --release -p smith-cli`",
        smith().display()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().canonicalize().expect("tempdir path");
    let model = ["-m", "scripted/demo", "acp"];

    let init = initialize_ms(&smith(), &model, &home, 20).expect("smith acp answers");
    println!("acp_initialize_ms {init:.3}");

    let mut samples = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut agent = Agent::start(&smith(), &model, &home).expect("smith acp starts");
        agent.initialize().expect("initialize");
        let created = agent
            .call("session/new", json!({"cwd": home, "mcpServers": []}))
            .expect("session/new");
        samples.push(ms(t.elapsed()));
        assert!(created["result"]["sessionId"].is_string(), "{created}");
        agent.finish();
    }
    println!("acp_new_session_ms {:.3}", median(samples));

    let mut agent = Agent::start(&smith(), &model, &home).expect("smith acp starts");
    agent.initialize().expect("initialize");
    agent
        .call("session/new", json!({"cwd": home, "mcpServers": []}))
        .expect("session/new");
    println!("acp_idle_rss_kib {}", agent.peak_kib());
    agent.finish();

    // The peer, side by side in the same run, when installed.
    let opencode = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("opencode"))
            .find(|p| p.is_file())
    });
    let peer = opencode
        .and_then(|p| initialize_ms(&p, &["acp"], &home, 5))
        .unwrap_or(-1.0);
    println!("acp_opencode_initialize_ms {peer:.3}");
}
