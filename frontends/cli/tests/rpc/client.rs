//! A JSON-RPC client of the built `smith rpc`, over its real stdin and stdout pipes: every
//! line it reads is kept in order (`lines`), so tests can check what came before what.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::Env;

/// How long any one expected line may take (debug builds on a loaded 2-core machine).
const DEADLINE: Duration = Duration::from_secs(120);

pub struct Client {
    pub child: Child,
    stdin: Option<ChildStdin>,
    rx: mpsc::Receiver<Value>,
    next_id: u64,
    /// Every line read so far, in order (a line that is not JSON is kept as a string).
    pub lines: Vec<Value>,
    /// Lines before this index were already returned by [`Client::until`].
    cursor: usize,
    /// Set for a client started paused: sending on it lets the reader start reading.
    resume: Option<mpsc::Sender<()>>,
}

impl Client {
    /// Start `smith rpc ARGS` in `env`, in its root directory.
    pub fn start(env: &Env, args: &[&str]) -> Self {
        Self::start_in(env, args, env.root.path())
    }

    /// Start `smith rpc ARGS` in `env`, reading nothing of its output until
    /// [`Client::resume`]: a client that stops reading.
    pub fn start_paused(env: &Env, args: &[&str]) -> Self {
        Self::spawn(env, "rpc", args, env.root.path(), true)
    }

    /// Start `smith SUBCOMMAND ARGS` in `dir`, reading its first `lines` lines of output,
    /// then nothing more until [`Client::resume`]: a client that stops reading.
    #[allow(dead_code)] // the acp tests use it
    pub fn start_subcommand_pausing(
        env: &Env,
        subcommand: &'static str,
        args: &[&str],
        dir: &std::path::Path,
        lines: usize,
    ) -> Self {
        Self::spawn_reading(env, subcommand, args, dir, Some(lines))
    }

    /// Start reading the output of a client started paused.
    pub fn resume(&mut self) {
        if let Some(r) = self.resume.take() {
            r.send(()).unwrap();
        }
    }

    /// Start `smith rpc ARGS` in `env`, in `dir`.
    pub fn start_in(env: &Env, args: &[&str], dir: &std::path::Path) -> Self {
        Self::spawn(env, "rpc", args, dir, false)
    }

    /// Start `smith SUBCOMMAND ARGS` (another stdio protocol frontend, e.g. `mcp`) in `dir`.
    #[allow(dead_code)] // the mcp tests share this client
    pub fn start_subcommand(
        env: &Env,
        subcommand: &'static str,
        args: &[&str],
        dir: &std::path::Path,
    ) -> Self {
        Self::spawn(env, subcommand, args, dir, false)
    }

    fn spawn(
        env: &Env,
        subcommand: &'static str,
        args: &[&str],
        dir: &std::path::Path,
        paused: bool,
    ) -> Self {
        Self::spawn_reading(env, subcommand, args, dir, paused.then_some(0))
    }

    /// `pause_after`: read that many lines, then wait for [`Client::resume`].
    fn spawn_reading(
        env: &Env,
        subcommand: &'static str,
        args: &[&str],
        dir: &std::path::Path,
        pause_after: Option<usize>,
    ) -> Self {
        let mut all = vec![subcommand];
        all.extend_from_slice(args);
        let mut child = env
            .command(&all)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let (resume, resumed) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            for (n, line) in BufReader::new(stdout).lines().enumerate() {
                if pause_after == Some(n) && resumed.recv().is_err() {
                    return;
                }
                let Ok(line) = line else { break };
                let value = serde_json::from_str(&line).unwrap_or(Value::String(line));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            rx,
            next_id: 0,
            lines: Vec::new(),
            cursor: 0,
            resume: pause_after.is_some().then_some(resume),
        }
    }

    /// Write one raw line (an LF is added).
    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Send a request; its id.
    pub fn request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&line.to_string());
        id
    }

    fn read_one(&mut self, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(v) => {
                self.lines.push(v);
                true
            }
            Err(_) => false,
        }
    }

    /// The response to request `id`, waiting for it.
    pub fn response(&mut self, id: u64) -> Value {
        let deadline = Instant::now() + DEADLINE;
        let mut at = 0;
        loop {
            if let Some(found) = self.lines[at..]
                .iter()
                .find(|l| l["id"] == id && l.get("method").is_none())
            {
                return found.clone();
            }
            at = self.lines.len();
            assert!(
                self.read_one(deadline),
                "no response to request {id}; lines so far: {:#?}",
                self.lines
            );
        }
    }

    /// Call `method` and return the whole response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.response(id)
    }

    /// Call `method` and return its result (panicking on an error response).
    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params.clone());
        assert!(r.get("error").is_none(), "{method} {params} failed: {r}");
        r["result"].clone()
    }

    /// Call `method` and return its error object (panicking on success).
    pub fn error(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params.clone());
        assert!(
            r.get("result").is_none(),
            "{method} {params} succeeded: {r}"
        );
        r["error"].clone()
    }

    /// The next line after the ones already returned that satisfies `wanted`, waiting for it.
    pub fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(i) = self.lines[self.cursor..].iter().position(&wanted) {
                let at = self.cursor + i;
                self.cursor = at + 1;
                return self.lines[at].clone();
            }
            assert!(
                self.read_one(deadline),
                "the awaited line never came; lines so far: {:#?}",
                self.lines
            );
        }
    }

    /// A line read at any time (before or after the cursor) that satisfies `wanted`, waiting
    /// for it; the cursor does not move.
    pub fn seen(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + DEADLINE;
        let mut at = 0;
        loop {
            if let Some(found) = self.lines[at..].iter().find(|l| wanted(l)) {
                return found.clone();
            }
            at = self.lines.len();
            assert!(
                self.read_one(deadline),
                "the awaited line never came; lines so far: {:#?}",
                self.lines
            );
        }
    }

    /// The next `session.event` of `kind` (for `session`).
    pub fn event(&mut self, session: &str, kind: &str) -> Value {
        self.until(|l| {
            l["method"] == "session.event"
                && l["params"]["session"] == session
                && l["params"]["event"]["type"] == kind
        })
    }

    /// Close stdin (end of input) and wait for the process; every remaining line is read.
    pub fn finish(mut self) -> (std::process::ExitStatus, Vec<Value>, String) {
        self.resume();
        self.stdin.take();
        while let Ok(v) = self.rx.recv_timeout(DEADLINE) {
            self.lines.push(v);
        }
        let status = self.child.wait().unwrap();
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut stderr);
        }
        (status, self.lines, stderr)
    }

    /// Create a session; its id.
    pub fn create(&mut self) -> String {
        self.result("sessions.create", json!({}))["session"]
            .as_str()
            .unwrap()
            .to_owned()
    }
}

/// Every line is a JSON-RPC 2.0 message (nothing else ever reaches stdout).
pub fn all_protocol(lines: &[Value]) {
    for l in lines {
        assert_eq!(l["jsonrpc"], "2.0", "not a protocol line: {l}");
    }
}

/// The `session.event` params of `session` among `lines`, in order.
pub fn events<'a>(lines: &'a [Value], session: &str) -> Vec<&'a Value> {
    lines
        .iter()
        .filter(|l| l["method"] == "session.event" && l["params"]["session"] == session)
        .map(|l| &l["params"])
        .collect()
}
