//! Helpers for running the built `smith` binary in an isolated home.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// An isolated environment: its own SMITH_HOME and TMPDIR inside one temp directory.
pub struct Env {
    pub root: tempfile::TempDir,
}

/// Tests send SIGINT to the binary and expect its default disposition; a test process started
/// with SIGINT ignored (a script's `cmd &`) would pass that on through `exec`. A handled signal
/// is reset to its default on `exec`, so when this process ignores SIGINT it handles it
/// instead (setting a flag nobody reads), once.
#[cfg(unix)]
fn children_start_with_sigint_default() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let ignored = status
            .lines()
            .find_map(|l| l.strip_prefix("SigIgn:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (signal_hook::consts::SIGINT - 1)) != 0);
        if ignored {
            let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            signal_hook::flag::register(signal_hook::consts::SIGINT, flag).unwrap();
        }
    });
}

impl Env {
    pub fn new() -> Self {
        #[cfg(unix)]
        children_start_with_sigint_default();
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("tmp")).unwrap();
        Self { root }
    }

    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    pub fn sessions(&self) -> PathBuf {
        self.home().join("sessions")
    }

    pub fn tmp(&self) -> PathBuf {
        self.root.path().join("tmp")
    }

    /// Session files (and temporaries) present now, sorted.
    pub fn session_files(&self) -> Vec<PathBuf> {
        let Ok(dir) = std::fs::read_dir(self.sessions()) else {
            return Vec::new();
        };
        // A writer's record of who writes (`.ID.smith.writer`) and its live feed
        // (`.ID.smith.live`) are not session files.
        let mut files: Vec<_> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        files.sort();
        files
    }

    /// Write the auth file (`$SMITH_HOME/auth.kdl`) with mode 0600, as Smith requires.
    pub fn write_auth(&self, text: &str) -> PathBuf {
        std::fs::create_dir_all(self.home()).unwrap();
        let path = self.home().join("auth.kdl");
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        path
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.root.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_smith"));
        cmd.args(args)
            .env("SMITH_HOME", self.home())
            .env("TMPDIR", self.tmp())
            // One compile cache for every test process (compiling a component takes seconds in a
            // debug build), not one per test home.
            .env(
                "SMITH_CACHE_HOME",
                std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("smith-cache"),
            )
            .env_remove("NO_COLOR")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("SMITH_MODEL")
            .env_remove("SMITH_MAX_ROUNDS")
            .env_remove("SMITH_MAX_COST")
            .env_remove("SMITH_THINKING")
            .env_remove("OPENAI_COMPATIBLE_API_KEY")
            .current_dir(self.root.path())
            .stdin(Stdio::null());
        cmd
    }

    /// Start `smith eval --json` playing `script` as model `model`, with stdout piped and
    /// stderr discarded: the child and its stdout, line by line.
    pub fn spawn_script_json(
        &self,
        model: &str,
        script: &Path,
        prompt: &str,
    ) -> (
        std::process::Child,
        std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    ) {
        use std::io::BufRead;
        let mut child = self
            .command(&[
                "eval",
                "--json",
                "-m",
                model,
                "--script",
                script.to_str().unwrap(),
                prompt,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        (child, lines)
    }

    /// Start `eval --json` as model `scripted/t` playing `script` with the prompt "do the job"
    /// in a new session, wait for gate `gate` (its
    /// `.waiting` file beside the script) or, with `None`, for `ready` to hold on the file, then
    /// SIGKILL it. The session's id and file.
    pub fn killed_at(
        &self,
        script: &Path,
        gate: Option<&str>,
        ready: impl Fn(&[smith_store::Entry]) -> bool,
    ) -> (String, PathBuf) {
        let (mut child, mut lines) = self.spawn_script_json("scripted/t", script, "do the job");
        let session = loop {
            let line = lines.next().unwrap().unwrap();
            let record: serde_json::Value = serde_json::from_str(&line).unwrap();
            if record["type"] == "run_start" {
                break record["session"].as_str().unwrap().to_owned();
            }
        };
        let path = self.sessions().join(format!("{session}.smith"));
        match gate {
            Some(gate) => {
                let waiting = script.with_file_name(format!("{gate}.waiting"));
                smith_testkit::wait_until("the stream waits at its gate", || waiting.exists());
            }
            None => smith_testkit::wait_until("the turn reached the point", || {
                smith_store::read_session(&path).is_ok_and(|o| ready(&o.entries))
            }),
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        (session, path)
    }

    /// A turn killed between rounds: its first round wrote `out.txt` (`once`), its second
    /// waited at gate `g` when the SIGKILL came; `out.txt` is then changed by hand
    /// (`changed`), so a write run again would show. Callable again for another session.
    /// The session's id and file.
    pub fn killed_after_a_write(&self) -> (String, PathBuf) {
        let gated = self.write(
            "gated.kdl",
            "round {\n  tool-call id=\"w1\" name=\"write\" arguments=#\"{\"path\": \"out.txt\", \"content\": \"once\\n\"}\"#\n  stop \"tool_use\"\n}\nround {\n  gate \"g\"\n  text \"never\"\n  stop \"end_turn\"\n}\n",
        );
        std::fs::remove_file(gated.with_file_name("g.waiting")).ok();
        let killed = self.killed_at(&gated, Some("g"), |_| true);
        std::fs::write(self.root.path().join("out.txt"), "changed\n").unwrap();
        killed
    }

    /// Run one offline demo turn in a new session; the session's id and file.
    pub fn demo_session(&self) -> (String, PathBuf) {
        let out = self.run(&["eval", "-m", "scripted/demo", "start"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let path = self.session_files().remove(0);
        let id = path.file_stem().unwrap().to_str().unwrap().to_owned();
        (id, path)
    }

    /// A plugin project directory `name` under the test's root holding `manifest` and
    /// `component` (as `plugin.wasm`, where `smith plugins install` looks for it).
    pub fn plugin_project(&self, name: &str, manifest: &str, component: &[u8]) -> PathBuf {
        let dir = self.root.path().join(name);
        std::fs::create_dir_all(dir.join("target/wasm32-wasip2/release")).unwrap();
        std::fs::write(dir.join("plugin.kdl"), manifest).unwrap();
        std::fs::write(
            dir.join("target/wasm32-wasip2/release/plugin.wasm"),
            component,
        )
        .unwrap();
        dir
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Start `smith ARGS` with `input` written to its stdin, which is then closed; stdout and
    /// stderr piped.
    pub fn spawn_with_stdin(&self, args: &[&str], input: &str) -> std::process::Child {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child
    }

    /// Run `smith ARGS` with `input` on its stdin (closed after it).
    pub fn run_with_stdin(&self, args: &[&str], input: &str) -> Output {
        self.spawn_with_stdin(args, input)
            .wait_with_output()
            .unwrap()
    }

    /// A session whose writer was killed (SIGKILL) inside an effect: call `c1` reads the
    /// FIFO `pipe` under the root, and opening a FIFO for reading blocks until a writer comes,
    /// so the read's intent is recorded and its completion never is. The session's id and
    /// file.
    #[cfg(unix)]
    pub fn session_killed_mid_effect(&self) -> (String, PathBuf) {
        let fifo = self.root.path().join("pipe");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let script = self.write(
            "fifo.kdl",
            "round {\n  tool-call id=\"c1\" name=\"read\" arguments=#\"{\"path\": \"pipe\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"never\"\n  stop \"end_turn\"\n}\n",
        );
        self.killed_at(&script, None, |entries| {
            entries
                .iter()
                .any(|e| matches!(e.record, smith_store::Record::EffectIntent(_)))
        })
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Parse every stdout line as JSON; panics naming the line that is not.
pub fn records(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Each tool call's `tool_end` record of an `eval --json` run: (call id, is_error, output).
pub fn tool_ends(o: &Output) -> Vec<(String, bool, String)> {
    records(o)
        .iter()
        .filter(|r| r["type"] == "tool_end")
        .map(|r| {
            (
                r["call_id"].as_str().unwrap().to_owned(),
                r["is_error"] == true,
                r["output"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The outcome of call `id` among [`tool_ends`]: (refused or failed, output).
pub fn outcome<'a>(calls: &'a [(String, bool, String)], id: &str) -> (bool, &'a str) {
    let (_, is_error, output) = calls
        .iter()
        .find(|(c, ..)| c == id)
        .unwrap_or_else(|| panic!("no result for {id} in {calls:?}"));
    (*is_error, output)
}

/// Wait until `path` exists (one generous deadline for every test).
#[allow(unused_imports)]
pub use smith_testkit::wait_for;

/// A vendor the bundled provider plugins speak to, for tests against loopback servers: its
/// provider id, a catalogued model, its key variable, a one-answer text stream saying
/// `from ID` in its documented wire format, and the request line it is sent to.
pub struct Vendor {
    pub id: &'static str,
    pub model: &'static str,
    pub key_var: &'static str,
    pub text_stream: &'static str,
    pub request_line: &'static str,
}

/// Anthropic Messages, OpenAI Responses and Google Gemini, each with a model of the bundled
/// catalog (streams after each vendor's API reference).
pub const VENDORS: [Vendor; 3] = [
    Vendor {
        id: "anthropic",
        model: "claude-haiku-4-5",
        key_var: "ANTHROPIC_API_KEY",
        text_stream: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"from anthropic\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
        request_line: "POST /v1/messages",
    },
    Vendor {
        id: "openai",
        model: "gpt-5-mini",
        key_var: "OPENAI_API_KEY",
        text_stream: "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"from openai\"}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n",
        request_line: "POST /responses",
    },
    Vendor {
        id: "google",
        model: "gemini-2.5-flash",
        key_var: "GEMINI_API_KEY",
        text_stream: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"from google\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}]}\n\n",
        request_line: "POST /models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    },
];

/// The JSON body of a raw HTTP request as a loopback server received it.
pub fn request_body(raw: &[u8]) -> serde_json::Value {
    let at = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a request head");
    serde_json::from_slice(&raw[at + 4..]).expect("a JSON body")
}

/// `cmd` run under a file-size limit of `blocks` 512-byte blocks with `SIGXFSZ` ignored, so a
/// write past the limit fails with `EFBIG` — a real storage failure (as a full disk's
/// `ENOSPC`), set up by the shell's `ulimit` and `trap`, with no hook in Smith.
pub fn under_file_size_limit(cmd: &std::process::Command, blocks: u32) -> std::process::Command {
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        sh.current_dir(dir);
    }
    sh
}

/// A 1×1 PNG.
pub const PIXEL_PNG: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x64, 0x60, 0xf8, 0x5f,
    0x0f, 0x00, 0x02, 0x87, 0x01, 0x80, 0xeb, 0x47, 0xba, 0x92, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];
