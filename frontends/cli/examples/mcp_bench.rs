//! Bench: `smith mcp` of the release binary through its pipes — spawn → `initialize` →
//! `tools/list` answered, whole process (median of 20); a `read` tool call round trip (median
//! of 30) beside the fsync of a small append on the same disk (a call records its intent and
//! its completion: two fsyncs); the peak RSS of an idle server after that handshake. Run by
//! `cargo xtask bench` after it builds `smith` in release; prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use common::{median, ms, smith};
use serde_json::{Value, json};

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Server {
    fn start(home: &Path) -> Self {
        let mut child = Command::new(smith())
            .arg("mcp")
            .env("SMITH_HOME", home)
            .current_dir(home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("smith mcp starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Self {
            child,
            stdin,
            stdout,
            next: 0,
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let line = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        loop {
            let mut text = String::new();
            self.stdout.read_line(&mut text).expect("read");
            let v: Value = serde_json::from_str(&text).expect("an MCP line");
            if v["id"] == self.next {
                return v;
            }
        }
    }

    fn handshake(&mut self) -> Value {
        self.call(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}),
        );
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(
            stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .expect("write");
        self.call("tools/list", json!({}))
    }

    fn peak_kib(&self) -> f64 {
        common::peak_rss_kib(self.child.id())
    }

    fn finish(mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

fn main() {
    assert!(
        smith().exists(),
        "{} is missing: build it with `cargo build --release -p smith-cli`",
        smith().display()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path();
    std::fs::write(home.join("notes.txt"), "a line to read\n").expect("fixture");

    // The first server compiles the tool plugins into the cache (a one-time cost of the first
    // use, measured by the host bench); the figures are of the servers after it.
    let mut warm = Server::start(home);
    assert!(warm.handshake()["result"]["tools"].is_array());
    warm.finish();

    let mut starts = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut server = Server::start(home);
        let tools = server.handshake();
        starts.push(ms(t.elapsed()));
        assert!(tools["result"]["tools"].is_array(), "{tools}");
        server.finish();
    }
    println!("mcp_start_tools_list_ms {:.3}", median(starts));

    let mut server = Server::start(home);
    server.handshake();
    println!("mcp_idle_rss_kib {}", server.peak_kib());
    // The first call creates the session; the round trips are the calls after it.
    let first = server.call(
        "tools/call",
        json!({"name": "read", "arguments": {"path": "notes.txt"}}),
    );
    assert_eq!(first["result"]["isError"], false, "{first}");
    let mut calls = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        let r = server.call(
            "tools/call",
            json!({"name": "read", "arguments": {"path": "notes.txt"}}),
        );
        calls.push(ms(t.elapsed()));
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
    server.finish();
    let call = median(calls);
    let mut fsyncs = Vec::new();
    let mut file = std::fs::File::create(home.join("fsync-probe")).expect("probe file");
    for _ in 0..30 {
        let t = Instant::now();
        file.write_all(&[0u8; 256]).expect("write");
        file.sync_data().expect("fsync");
        fsyncs.push(ms(t.elapsed()));
    }
    let fsync = median(fsyncs);
    println!("mcp_read_call_ms {call:.3}");
    println!("mcp_fsync_ms {fsync:.3}");
    println!("mcp_read_call_beyond_fsyncs_ms {:.3}", call - 2.0 * fsync);
}
