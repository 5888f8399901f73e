//! The process facility behind `smith:plugin/process` (spec: Tools → Process and evaluation
//! effects): one external program, run directly (no shell unless the program is one) with an
//! explicit working directory, argument vector and environment, bounded output, a timeout,
//! cancellation and its exit status.
//!
//! Supervision (Unix): the program leads a new process group, so every descendant it starts
//! (unless it leaves the group on purpose) is terminated with it — `SIGTERM` to the group,
//! then `SIGKILL` after [`KILL_GRACE`]. That happens on timeout, on cancellation, and when the
//! program exits while descendants are still running (no process outlives its invocation).
//! The leader is observed with `waitid(WNOWAIT)` before it is reaped, so its process-group id
//! cannot be reused while the group is signalled.
//!
//! Output: stdout and stderr are read to their end on their own threads, also after the
//! program exits (what it wrote just before exiting is still in the pipes and is captured
//! whole). Each stream keeps its first and last halves of the bound and counts what it
//! dropped in between; the text says where it was cut.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

mod live;
pub(crate) mod resident;

pub use resident::stop_kept_program;

/// How often a running program's newest output is offered to a watcher, at most.
pub const PREVIEW_EVERY: Duration = Duration::from_millis(100);
/// Lines of a running program's newest output a live preview holds.
pub const PREVIEW_LINES: usize = 10;

/// How long the group gets between `SIGTERM` and `SIGKILL`.
pub const KILL_GRACE: Duration = Duration::from_millis(200);
/// How long output is still read after the program exits, waiting for the pipes to close
/// (descendants holding them are terminated after this).
pub const DRAIN: Duration = Duration::from_millis(500);
/// How often the supervisor checks the program, the deadline and cancellation.
const POLL: Duration = Duration::from_millis(5);

/// The environment variables a `baseline` environment passes through from Smith's own
/// environment when set: what ordinary build tools need, and no credentials.
pub const BASELINE_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TERM",
    "TMPDIR",
    "TZ",
];

/// One program to run.
#[derive(Clone, Debug)]
pub struct ProcessRequest {
    /// The program: a path, or a name looked up in the request's `PATH`.
    pub program: String,
    /// Its arguments (not including the program name).
    pub args: Vec<String>,
    /// The working directory, an absolute path the caller has confined.
    pub cwd: PathBuf,
    /// The complete environment of the program (nothing else is inherited).
    pub env: Vec<(String, String)>,
    /// Wall-time limit; the group is terminated when it passes.
    pub timeout: Duration,
    /// The most bytes kept of each of stdout and stderr.
    pub output_bytes: usize,
    /// The OS sandbox the program starts in, through the launcher ([`crate::sandbox`]);
    /// `None`: unconfined (`full-access`).
    pub confinement: Option<crate::sandbox::Confinement>,
}

/// How the program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// It exited with this code.
    Code(i32),
    /// It was ended by this signal.
    Signal(i32),
}

/// One captured output stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// What was kept, lossily decoded as UTF-8; when cut, the first and the last part with a
    /// `[… N bytes cut …]` line between them.
    pub text: String,
    /// How many bytes the program wrote to the stream in all.
    pub total_bytes: u64,
    /// Whether bytes were dropped.
    pub truncated: bool,
}

/// What a finished (or stopped) program left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessResult {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: Captured,
    /// Its standard error.
    pub stderr: Captured,
    /// It was stopped because it ran past its timeout.
    pub timed_out: bool,
    /// It was stopped because the call was cancelled.
    pub cancelled: bool,
    /// Descendants were still running after the program ended and were terminated.
    pub descendants_terminated: bool,
    /// The output pipes were still held open (by a process that left the group) when reading
    /// stopped; output written after that is not captured.
    pub output_abandoned: bool,
    /// Wall time from spawn to the end of output.
    pub duration: Duration,
}

/// Why a program did not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpawnFailure {
    /// The program does not exist.
    NotFound(String),
    /// The program or working directory is not accessible.
    Denied(String),
    /// Any other failure to start.
    Io(String),
    /// The sandbox could not be applied, so the program did not run.
    Sandbox(String),
}

impl std::fmt::Display for SpawnFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound(m) | Self::Denied(m) | Self::Io(m) | Self::Sandbox(m) => f.write_str(m),
        }
    }
}

/// A bounded capture: the first `half` bytes, the last `half` bytes, and a count.
#[derive(Debug)]
struct Capture {
    half: usize,
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    total: u64,
}

impl Capture {
    fn new(limit: usize) -> Self {
        Self {
            half: limit.div_ceil(2),
            head: Vec::new(),
            tail: std::collections::VecDeque::new(),
            total: 0,
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.half.saturating_sub(self.head.len());
        let take = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        if bytes.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.half..]);
        } else {
            let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.half);
            self.tail.drain(..overflow);
            self.tail.extend(bytes);
        }
    }

    fn finish(&self) -> Captured {
        let kept = (self.head.len() + self.tail.len()) as u64;
        let truncated = kept < self.total;
        // A cut never splits a character: the head ends and the tail starts on a boundary.
        let mut head: &[u8] = &self.head;
        let mut tail: Vec<u8> = self.tail.iter().copied().collect();
        if truncated {
            if let Err(e) = std::str::from_utf8(head)
                && e.error_len().is_none()
            {
                head = &head[..e.valid_up_to()];
            }
            let skip = tail
                .iter()
                .take(3)
                .take_while(|b| (**b & 0b1100_0000) == 0b1000_0000)
                .count();
            tail.drain(..skip);
        }
        let mut text = String::from_utf8_lossy(head).into_owned();
        if truncated {
            if !text.ends_with('\n') && !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&format!(
                "[… {} bytes cut: the output bound keeps the first and last {} bytes …]\n",
                self.total - kept,
                self.half
            ));
        }
        text.push_str(&String::from_utf8_lossy(&tail));
        Captured {
            text,
            total_bytes: self.total,
            truncated,
        }
    }
}

/// Read `stream` to its end into a shared capture; returns when the pipe closes.
fn drain(
    mut stream: impl Read + Send + 'static,
    limit: usize,
    live: live::LiveTail,
) -> (Arc<Mutex<Capture>>, std::sync::mpsc::Receiver<()>) {
    let capture = Arc::new(Mutex::new(Capture::new(limit)));
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let shared = Arc::clone(&capture);
    let _ = std::thread::Builder::new()
        .name("smith-process-output".into())
        .spawn(move || {
            let mut buf = [0u8; 16 * 1024];
            loop {
                match stream.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        shared
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(&buf[..n]);
                        live.push(&buf[..n]);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = done_tx.send(());
        });
    (capture, done_rx)
}

/// Terminate the group led by `pid`: `SIGTERM`, up to [`KILL_GRACE`] for it to go, then
/// `SIGKILL`. The leader must not be reaped yet (its pid keeps the group id reserved).
pub(crate) fn terminate_group(pid: rustix::process::Pid) {
    use rustix::process::{Signal, kill_process_group};
    if kill_process_group(pid, Signal::TERM).is_err() {
        return;
    }
    let until = Instant::now() + KILL_GRACE;
    while Instant::now() < until {
        if !group_alive(pid) {
            return;
        }
        std::thread::sleep(POLL);
    }
    let _ = kill_process_group(pid, Signal::KILL);
}

/// Whether the child has exited, without reaping it (its pid, and so the group id, stays
/// reserved until [`std::process::Child::wait`]).
pub(crate) fn exited(pid: rustix::process::Pid) -> bool {
    use rustix::process::{WaitId, WaitIdOptions};
    matches!(
        rustix::process::waitid(
            WaitId::Pid(pid),
            WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
        ),
        Ok(Some(_)) | Err(_)
    )
}

/// Start `request`'s program (through the sandbox launcher when it is confined) in a new
/// process group, with `stdin` and piped stdout and stderr, its environment exactly the
/// request's.
///
/// # Errors
/// [`SpawnFailure`] when it could not be started.
pub(crate) fn spawn(
    request: &ProcessRequest,
    stdin: Stdio,
) -> Result<std::process::Child, SpawnFailure> {
    let mut command = match &request.confinement {
        None => Command::new(&request.program),
        Some(confinement) => {
            let launcher = crate::sandbox::launcher().ok_or_else(|| {
                SpawnFailure::Sandbox(crate::sandbox::Unconfinable::NoLauncher.to_string())
            })?;
            let spec = serde_json::to_string(confinement)
                .map_err(|e| SpawnFailure::Sandbox(format!("the sandbox spec: {e}")))?;
            let mut command = Command::new(launcher);
            command
                .arg(crate::sandbox::LAUNCH_ARG)
                .arg(spec)
                .arg("--")
                .arg(&request.program);
            command
        }
    };
    command
        .args(&request.args)
        .current_dir(&request.cwd)
        .env_clear()
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.spawn().map_err(|e| {
        let what = format!(
            "`{}` could not be started in {}: {e}",
            request.program,
            request.cwd.display()
        );
        match e.kind() {
            std::io::ErrorKind::NotFound => SpawnFailure::NotFound(what),
            std::io::ErrorKind::PermissionDenied => SpawnFailure::Denied(what),
            _ => SpawnFailure::Io(what),
        }
    })
}

/// Run `request`, polling `cancelled` while it runs.
///
/// # Errors
/// [`SpawnFailure`] when the program could not be started (nothing ran).
pub fn run(
    request: &ProcessRequest,
    cancelled: &dyn Fn() -> bool,
) -> Result<ProcessResult, SpawnFailure> {
    run_watched(request, cancelled, &mut |_| {})
}

/// [`run`], offering `watch` the program's newest output while it runs: the last
/// [`PREVIEW_LINES`] lines of stdout and stderr together, in arrival order, at most every
/// [`PREVIEW_EVERY`] and only when new output arrived. The preview is transient (the result
/// holds the bounded capture); it is the raw output, so a caller that shows it redacts it.
///
/// # Errors
/// As [`run`].
pub fn run_watched(
    request: &ProcessRequest,
    cancelled: &dyn Fn() -> bool,
    watch: &mut dyn FnMut(&str),
) -> Result<ProcessResult, SpawnFailure> {
    let started = Instant::now();
    let mut child = spawn(request, Stdio::null())?;
    let pid = rustix::process::Pid::from_child(&child);
    let limit = request.output_bytes.max(2);
    let live = live::LiveTail::default();
    let stdout = child.stdout.take().map(|s| drain(s, limit, live.clone()));
    let stderr = child.stderr.take().map(|s| drain(s, limit, live.clone()));
    let mut seen = 0;
    let mut offered = started;

    let mut timed_out = false;
    let mut was_cancelled = false;
    while !exited(pid) {
        if started.elapsed() >= request.timeout {
            timed_out = true;
        } else if cancelled() {
            was_cancelled = true;
        }
        if timed_out || was_cancelled {
            terminate_group(pid);
            // Should the group signal not have reached it, the program itself is killed.
            if !exited(pid) {
                let _ = child.kill();
            }
            break;
        }
        if offered.elapsed() >= PREVIEW_EVERY {
            offered = Instant::now();
            if let Some(preview) = live.preview(&mut seen, PREVIEW_LINES) {
                watch(&preview);
            }
        }
        std::thread::sleep(POLL);
    }
    // The leader has ended (or was just killed). Read what is still in the pipes; if
    // descendants keep them open past the drain window, terminate them, then read again.
    let readers: Vec<&std::sync::mpsc::Receiver<()>> = [&stdout, &stderr]
        .into_iter()
        .flatten()
        .map(|(_, rx)| rx)
        .collect();
    // A reader signals once and then hangs up, so "done" is either; only a timeout is not.
    let closed = |within: Duration| {
        let until = Instant::now() + within;
        readers.iter().all(|rx| {
            let left = until.saturating_duration_since(Instant::now());
            !matches!(
                rx.recv_timeout(left),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout)
            )
        })
    };
    let mut all_closed = closed(DRAIN);
    // Anything of the group still running now outlives the program: terminate it.
    let descendants_terminated = group_alive(pid);
    if descendants_terminated {
        terminate_group(pid);
    }
    if !all_closed {
        all_closed = closed(DRAIN);
    }
    let status = reap(&mut child);
    let finish = |c: Option<(Arc<Mutex<Capture>>, _)>| {
        c.map(|(cap, _)| cap.lock().unwrap_or_else(PoisonError::into_inner).finish())
            .unwrap_or_default()
    };
    let stderr = finish(stderr);
    if let (Some(confinement), ExitStatus::Code(crate::sandbox::LAUNCH_FAILED)) =
        (&request.confinement, status)
        && let Some(reason) = crate::sandbox::launch_failure(confinement.nonce, &stderr.text)
    {
        let what = format!(
            "`{}` was not run: the sandbox could not be applied ({reason})",
            request.program
        );
        // The launcher's own `exec` of a program that does not exist is what an unconfined
        // spawn reports as not found.
        let missing = reason.starts_with("running") && reason.contains("No such file or directory");
        return Err(if missing {
            SpawnFailure::NotFound(format!(
                "`{}` could not be started in {}: it was not found",
                request.program,
                request.cwd.display()
            ))
        } else {
            SpawnFailure::Sandbox(what)
        });
    }
    Ok(ProcessResult {
        status,
        stdout: finish(stdout),
        stderr,
        timed_out,
        cancelled: was_cancelled,
        descendants_terminated,
        output_abandoned: !all_closed,
        duration: started.elapsed(),
    })
}

/// Wait for `child` (reaping it) and say how it ended; `Code(-1)` when the wait fails or the
/// status says neither.
pub(crate) fn reap(child: &mut std::process::Child) -> ExitStatus {
    match child.wait() {
        Ok(status) => {
            use std::os::unix::process::ExitStatusExt;
            match (status.code(), status.signal()) {
                (Some(code), _) => ExitStatus::Code(code),
                (None, Some(signal)) => ExitStatus::Signal(signal),
                (None, None) => ExitStatus::Code(-1),
            }
        }
        Err(_) => ExitStatus::Code(-1),
    }
}

/// Whether the group led by `pid` has a live (not zombie) member. Linux reads the members'
/// states from `/proc` (a zombie leader still answers signals, so `kill(-pgid, 0)` cannot
/// tell); elsewhere the group is alive while it answers.
pub(crate) fn group_alive(pid: rustix::process::Pid) -> bool {
    let group = pid.as_raw_nonzero().get();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return rustix::process::test_kill_process_group(pid).is_ok();
    };
    entries.flatten().any(|entry| {
        if !entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            return false;
        }
        std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|stat| {
                // After the parenthesised command name: state ppid pgrp …
                let rest = stat.get(stat.rfind(')')? + 2..)?;
                let mut fields = rest.split(' ');
                let state = fields.next()?;
                let pgrp = fields.nth(1)?.parse::<i32>().ok()?;
                Some(pgrp == group && state != "Z" && state != "X")
            })
            .unwrap_or(false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_keeps_head_and_tail_and_counts_the_cut() {
        let mut c = Capture::new(10);
        c.push(b"0123");
        c.push(b"456789abcdefghij");
        c.push(b"XYZ");
        let out = c.finish();
        assert_eq!(out.total_bytes, 23);
        assert!(out.truncated);
        assert!(
            out.text.starts_with("01234\n[… 13 bytes cut"),
            "{}",
            out.text
        );
        assert!(out.text.ends_with("]\nijXYZ"), "{}", out.text);
        // Multi-byte characters are never split at either side of the cut.
        let mut wide = Capture::new(9);
        wide.push("é".repeat(20).as_bytes());
        let out = wide.finish();
        assert!(!out.text.contains('\u{fffd}'), "{}", out.text);
        assert!(
            out.text.starts_with("éé\n[…") && out.text.ends_with("]\néé"),
            "{}",
            out.text
        );
        let mut small = Capture::new(10);
        small.push(b"hello");
        assert_eq!(small.finish().text, "hello");
        assert!(!small.finish().truncated);
    }
}
