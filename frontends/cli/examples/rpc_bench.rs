//! Bench: `smith rpc` of the release binary through its pipes — start to the first response
//! (`rpc.discover`, median of 30), submission to its durable receipt reply (median of 30)
//! beside the fsync of a small append on the same disk, 100,000 deltas streamed by a loopback
//! OpenAI-compatible server and read as fast as they come (peak RSS, every delta received),
//! and a client that stops reading during 20,000 and 100,000 unmergeable deltas (peak RSS:
//! flat). Run by `cargo xtask bench` after it
//! builds `smith` in release; prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use common::{median, ms, smith};
use serde_json::{Value, json};

struct Rpc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Rpc {
    fn start(home: &Path) -> Self {
        Self::start_with(home, &["rpc"])
    }

    fn start_with(home: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(smith())
            .args(args)
            .env("SMITH_HOME", home)
            .current_dir(home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("smith rpc starts");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Self {
            child,
            stdin,
            stdout,
            next: 0,
        }
    }

    fn send(&mut self, method: &str, params: Value) -> u64 {
        self.next += 1;
        let line = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        self.next
    }

    fn line(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read");
        serde_json::from_str(&line).expect("a protocol line")
    }

    /// Read until the response to `id`, handing every notification to `each`.
    fn response(&mut self, id: u64, each: &mut dyn FnMut(&Value)) -> Value {
        loop {
            let v = self.line();
            if v["id"] == id && v.get("method").is_none() {
                return v;
            }
            each(&v);
        }
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.response(id, &mut |_| {})["result"].clone()
    }

    fn peak_kib(&self) -> f64 {
        common::peak_rss_kib(self.child.id())
    }

    fn finish(mut self) {
        self.stdin.take();
        let mut rest = String::new();
        while self
            .stdout
            .read_line(&mut rest)
            .map(|n| n > 0)
            .unwrap_or(false)
        {
            rest.clear();
        }
        let _ = self.child.wait();
    }
}

/// An OpenAI-compatible chat stream of `n` deltas from a loopback server; `alternate`: text
/// and reasoning alternate (no two merge). Every text delta is `"0 "`..`"9 "`.
fn flood(n: usize, alternate: bool) -> (smith_ai::loopback::Server, String) {
    let mut body = Vec::with_capacity(n * 90);
    for i in 0..n {
        let delta = if alternate && i % 2 == 1 {
            json!({"reasoning_content": "h "})
        } else {
            json!({"content": format!("{} ", i % 10)})
        };
        let event = json!({"choices": [{"index": 0, "delta": delta, "finish_reason": null}]});
        body.extend_from_slice(format!("data: {event}\n\n").as_bytes());
    }
    body.extend_from_slice(b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    let server =
        smith_ai::loopback::serve(vec![smith_ai::loopback::sse_in_pieces(&body, 16 * 1024)]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    (server, base)
}

fn main() {
    assert!(
        smith().exists(),
        "{} is missing: build it with `cargo build --release -p smith-cli`",
        smith().display()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path();

    // Start to the first response.
    let mut starts = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        let mut rpc = Rpc::start(home);
        rpc.call("rpc.discover", json!({}));
        starts.push(ms(t.elapsed()));
        rpc.finish();
    }
    println!("rpc_discover_ms {:.3}", median(starts));

    // Submission to its receipt reply, and the fsync of a small append here.
    let mut rpc = Rpc::start(home);
    let s = rpc.call("sessions.create", json!({}))["session"].clone();
    let mut receipts = Vec::new();
    for i in 0..30 {
        let t = Instant::now();
        let id = rpc.send(
            "session.submit",
            json!({"session": s, "input": format!("bench {i}"), "model": "scripted/demo"}),
        );
        let reply = rpc.response(id, &mut |_| {});
        receipts.push(ms(t.elapsed()));
        rpc.call(
            "session.wait",
            json!({"session": s, "submission": reply["result"]["submission"]}),
        );
    }
    rpc.finish();
    let receipt = median(receipts);
    let mut fsyncs = Vec::new();
    let mut file = std::fs::File::create(home.join("fsync-probe")).expect("probe file");
    for _ in 0..30 {
        let t = Instant::now();
        file.write_all(&[0u8; 256]).expect("write");
        file.sync_data().expect("fsync");
        fsyncs.push(ms(t.elapsed()));
    }
    let fsync = median(fsyncs);
    println!("rpc_receipt_ms {receipt:.3}");
    println!("rpc_fsync_ms {fsync:.3}");
    println!("rpc_receipt_beyond_fsync_ms {:.3}", receipt - fsync);

    // The provider plugin these runs use is compiled once into the compile cache first (a
    // one-time cost of its first use, measured by the host bench, not here), so the figures
    // below are the streaming's own.
    let (_server, base) = flood(10, false);
    let warm = Command::new(smith())
        .args([
            "-c",
            &base,
            "eval",
            "--no-session",
            "-m",
            "openai-compatible/bench",
            "warm",
        ])
        .env("SMITH_HOME", home)
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("smith eval starts");
    assert!(warm.success(), "the warm-up run failed");

    // 100,000 deltas read as fast as they come: every one arrives (their text equals the
    // message's), and the peak RSS.
    let (_server, base) = flood(100_000, false);
    let mut rpc = Rpc::start_with(home, &["-c", &base, "rpc"]);
    let s = rpc.call("sessions.create", json!({}))["session"].clone();
    let t = Instant::now();
    let id = rpc.send(
        "session.submit",
        json!({"session": s, "input": "flood", "model": "openai-compatible/bench"}),
    );
    let mut deltas = String::new();
    let mut end_text = None;
    let mut lines = 0u64;
    rpc.response(id, &mut |_| {});
    while end_text.is_none() {
        let v = rpc.line();
        lines += 1;
        let e = &v["params"]["event"];
        match e["type"].as_str() {
            Some("message_delta") => deltas.push_str(e["text"].as_str().unwrap_or_default()),
            Some("message_end") if e["message"]["role"] == "assistant" => {
                end_text = Some(
                    e["message"]["content"][0]["text"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
            _ => {}
        }
    }
    let wall = t.elapsed();
    assert_eq!(Some(deltas), end_text, "deltas were lost");
    println!("rpc_100k_deltas_ms {:.3}", ms(wall));
    println!("rpc_100k_delta_lines {lines}");
    println!("rpc_100k_deltas_rss_kib {}", rpc.peak_kib());
    rpc.finish();

    // The same stream through `smith eval --json` (the engine alone), for comparison.
    let (_server, base) = flood(100_000, false);
    let mut eval = Rpc::start_with(
        home,
        &[
            "-c",
            &base,
            "eval",
            "--json",
            "--no-session",
            "-m",
            "openai-compatible/bench",
            "flood",
        ],
    );
    let _ = eval.stdin.take();
    let mut line = String::new();
    let mut peak = -1.0;
    while eval
        .stdout
        .read_line(&mut line)
        .map(|n| n > 0)
        .unwrap_or(false)
    {
        if line.contains("\"run_end\"") {
            peak = eval.peak_kib();
        }
        line.clear();
    }
    let _ = eval.child.wait();
    println!("eval_100k_deltas_rss_kib {peak}");

    // A client that stops reading, beside one that reads everything as it comes, at 20,000
    // and 100,000 unmergeable deltas (text and reasoning alternate, so the message itself
    // holds one block per delta and grows with the stream in both): what the slow reader
    // costs beyond the fast one is the bounded outbox, the same at both sizes.
    for n in [20_000, 100_000] {
        let (_server, base) = flood(n, true);
        let mut rpc = Rpc::start_with(home, &["-c", &base, "rpc"]);
        let s = rpc.call("sessions.create", json!({}))["session"].clone();
        let id = rpc.send(
            "session.submit",
            json!({"session": s, "input": "flood", "model": "openai-compatible/bench"}),
        );
        rpc.response(id, &mut |_| {});
        while rpc.line()["params"]["event"]["type"] != "run_end" {}
        let fast = rpc.peak_kib();
        println!("rpc_fast_reader_{}k_rss_kib {fast}", n / 1000);
        rpc.finish();
        let (_server, base) = flood(n, true);
        let mut rpc = Rpc::start_with(home, &["-c", &base, "rpc"]);
        let s = rpc.call("sessions.create", json!({}))["session"].clone();
        let s_text = s.as_str().unwrap_or_default().to_owned();
        rpc.send(
            "session.submit",
            json!({"session": s, "input": "flood", "model": "openai-compatible/bench"}),
        );
        let file = home.join("sessions").join(format!("{s_text}.smith"));
        let deadline = Instant::now() + Duration::from_secs(300);
        while !smith_store::read_session(&file)
            .map(|r| {
                r.entries
                    .iter()
                    .any(|e| matches!(e.record, smith_store::Record::RunEnd(_)))
            })
            .unwrap_or(false)
        {
            assert!(
                Instant::now() < deadline,
                "the run stalled behind a client that does not read"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let slow = rpc.peak_kib();
        println!("rpc_slow_reader_{}k_rss_kib {slow}", n / 1000);
        println!("rpc_slow_reader_{}k_extra_kib {}", n / 1000, slow - fast);
        rpc.finish();
    }
}
