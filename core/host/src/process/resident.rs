//! Programs kept running across tool calls (`process.start-session`, WIT 1.3.0): a server a
//! plugin talks to over its stdin and stdout — an MCP server — started by one call and reached
//! again, by name, by the fresh instances of later calls of the same session.
//!
//! Ownership: the [`Programs`] of one open session live in its [`smith::Resident`]; when the
//! session is dropped they are dropped, and every program's process group is terminated
//! (`SIGTERM`, then `SIGKILL` after [`super::KILL_GRACE`]) and reaped. Nothing outlives the
//! session that started it.
//!
//! Bounds: at most [`MAX_PER_PLUGIN`] programs per plugin per session. Standard output is read
//! by a thread into a buffer of at most the request's output bound; when it is full the thread
//! stops reading, so the program blocks on its next write (back-pressure — nothing is
//! dropped). Standard error is read to its end and its last [`STDERR_TAIL`] bytes kept.
//! Writes to standard input never block the calling thread past cancellation: the pipe is
//! non-blocking and a full pipe is waited on in steps of [`super::POLL`].

use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::{ExitStatus, ProcessRequest, SpawnFailure};

/// The most programs one plugin keeps running in one session.
pub(crate) const MAX_PER_PLUGIN: usize = 8;
/// The bytes of a program's standard error kept: its last ones.
pub(crate) const STDERR_TAIL: usize = 64 * 1024;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The programs one session keeps for its plugins, by plugin id and name.
#[derive(Default)]
pub(crate) struct Programs {
    running: Mutex<HashMap<(String, String), Arc<Program>>>,
}

impl Programs {
    /// Plugin `plugin`'s program `name`, if it has one (running or ended, not yet stopped).
    pub(crate) fn get(&self, plugin: &str, name: &str) -> Option<Arc<Program>> {
        lock(&self.running)
            .get(&(plugin.to_owned(), name.to_owned()))
            .cloned()
    }

    /// How many programs `plugin` keeps.
    pub(crate) fn count(&self, plugin: &str) -> usize {
        lock(&self.running)
            .keys()
            .filter(|(p, _)| p == plugin)
            .count()
    }

    /// Keep `program` as `plugin`'s `name`, replacing (and stopping) an earlier one.
    pub(crate) fn insert(&self, plugin: &str, name: &str, program: Arc<Program>) {
        let old = lock(&self.running).insert((plugin.to_owned(), name.to_owned()), program);
        if let Some(old) = old {
            old.stop();
        }
    }

    /// Stop and forget `plugin`'s `name`: how it ended, `None` when there was none.
    pub(crate) fn remove(&self, plugin: &str, name: &str) -> Option<ExitStatus> {
        let program = lock(&self.running).remove(&(plugin.to_owned(), name.to_owned()))?;
        Some(program.stop())
    }
}

/// Stop plugin `plugin`'s program `name` kept in the session `resident` holds (a person asked
/// to reconnect an MCP server): how it ended, in words; `None` when none was kept. The next
/// `start-session` of that name starts it afresh.
pub fn stop_kept_program(resident: &smith::Resident, plugin: &str, name: &str) -> Option<String> {
    let programs = resident.get::<Programs>()?;
    programs.remove(plugin, name).map(|status| match status {
        ExitStatus::Code(code) => format!("exit status {code}"),
        ExitStatus::Signal(signal) => format!("signal {signal}"),
    })
}

impl Drop for Programs {
    fn drop(&mut self) {
        let running: Vec<Arc<Program>> = lock(&self.running).drain().map(|(_, p)| p).collect();
        for program in running {
            program.stop();
        }
    }
}

/// Standard output not yet received.
#[derive(Default)]
struct Output {
    bytes: VecDeque<u8>,
    /// The pipe closed (the program and its group no longer hold it).
    closed: bool,
    /// The program was stopped: the reader stops too, even while the buffer is full.
    stopped: bool,
}

/// One program kept running.
pub(crate) struct Program {
    /// Its process id (the leader of its own process group).
    pub(crate) pid: u32,
    /// The request it was started with, as recorded (to tell a second start of the same
    /// program from a different one under the same name).
    pub(crate) fingerprint: String,
    /// What the sandbox was, in words.
    pub(crate) sandbox: String,
    child: Mutex<Option<std::process::Child>>,
    stdin: Mutex<Option<std::process::ChildStdin>>,
    output: Arc<(Mutex<Output>, Condvar)>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    ended: Mutex<Option<ExitStatus>>,
    confinement: Option<crate::sandbox::Confinement>,
}

/// What one `receive` got.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Received {
    /// Standard output bytes, in order.
    pub(crate) bytes: Vec<u8>,
    /// Set once the program has ended and its output has all been received.
    pub(crate) ended: Option<ExitStatus>,
}

/// Why a write or a read did not happen.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PipeFailure {
    /// The program has ended (how), or closed its standard input.
    Ended(Option<ExitStatus>),
    /// The call was cancelled while it waited.
    Cancelled,
    /// The operating system failed.
    Io(String),
}

impl Program {
    /// Start `request` (confined as it says) with its stdin, stdout and stderr piped;
    /// `capacity` bounds the unreceived standard output.
    ///
    /// # Errors
    /// [`SpawnFailure`] when it could not be started.
    pub(crate) fn start(
        request: ProcessRequest,
        capacity: usize,
        fingerprint: String,
        sandbox: String,
    ) -> Result<Arc<Self>, SpawnFailure> {
        let mut child = super::spawn(&request, std::process::Stdio::piped())?;
        let stdin = child.stdin.take();
        if let Some(pipe) = &stdin {
            use std::os::fd::AsFd;
            let flags = rustix::fs::fcntl_getfl(pipe.as_fd())
                .map_err(|e| SpawnFailure::Io(format!("the program's input pipe: {e}")))?;
            rustix::fs::fcntl_setfl(pipe.as_fd(), flags | rustix::fs::OFlags::NONBLOCK)
                .map_err(|e| SpawnFailure::Io(format!("the program's input pipe: {e}")))?;
        }
        let output = Arc::new((Mutex::new(Output::default()), Condvar::new()));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let capacity = capacity.max(1);
        if let Some(out) = child.stdout.take() {
            read_output(out, Arc::clone(&output), capacity);
        }
        if let Some(err) = child.stderr.take() {
            read_stderr(err, Arc::clone(&stderr));
        }
        Ok(Arc::new(Self {
            pid: child.id(),
            fingerprint,
            sandbox,
            child: Mutex::new(Some(child)),
            stdin: Mutex::new(stdin),
            output,
            stderr,
            ended: Mutex::new(None),
            confinement: request.confinement,
        }))
    }

    fn leader(&self) -> Option<rustix::process::Pid> {
        rustix::process::Pid::from_raw(i32::try_from(self.pid).ok()?)
    }

    /// How the program ended, once it has (its process is left unreaped, so its group id
    /// stays reserved until [`Program::stop`]).
    pub(crate) fn status(&self) -> Option<ExitStatus> {
        let mut ended = lock(&self.ended);
        if ended.is_none()
            && let Some(pid) = self.leader()
        {
            use rustix::process::{WaitId, WaitIdOptions};
            let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
            if let Ok(Some(status)) = rustix::process::waitid(WaitId::Pid(pid), options) {
                *ended = Some(match (status.exit_status(), status.terminating_signal()) {
                    (Some(code), _) => ExitStatus::Code(code),
                    (None, Some(signal)) => ExitStatus::Signal(signal),
                    (None, None) => ExitStatus::Code(-1),
                });
            }
        }
        *ended
    }

    /// Write all of `bytes` to the program's standard input, waiting while the pipe is full
    /// until `cancelled` says stop or the program ends.
    ///
    /// # Errors
    /// [`PipeFailure`]: ended, cancelled part way, or an I/O error; `written` says how much
    /// went in before.
    pub(crate) fn send(
        &self,
        bytes: &[u8],
        cancelled: &dyn Fn() -> bool,
    ) -> (usize, Result<(), PipeFailure>) {
        let mut stdin = lock(&self.stdin);
        let Some(pipe) = stdin.as_mut() else {
            return (0, Err(PipeFailure::Ended(self.status())));
        };
        let mut written = 0;
        while written < bytes.len() {
            match pipe.write(&bytes[written..]) {
                Ok(0) => return (written, Err(PipeFailure::Ended(self.status()))),
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if cancelled() {
                        return (written, Err(PipeFailure::Cancelled));
                    }
                    if self.status().is_some() {
                        return (written, Err(PipeFailure::Ended(self.status())));
                    }
                    std::thread::sleep(super::POLL);
                }
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    *stdin = None;
                    return (written, Err(PipeFailure::Ended(self.status())));
                }
                Err(e) => return (written, Err(PipeFailure::Io(e.to_string()))),
            }
        }
        (written, Ok(()))
    }

    /// Up to `max` bytes of standard output: what is buffered now, else what arrives within
    /// `wait` (none: return at once). Empty bytes with no `ended` means nothing arrived in
    /// time.
    ///
    /// # Errors
    /// [`PipeFailure::Cancelled`] when the call was cancelled while it waited with nothing
    /// received.
    pub(crate) fn receive(
        &self,
        max: usize,
        wait: Duration,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Received, PipeFailure> {
        let (output, arrived) = &*self.output;
        let until = Instant::now() + wait;
        let mut out = lock(output);
        loop {
            if !out.bytes.is_empty() {
                let take = max.max(1).min(out.bytes.len());
                let bytes: Vec<u8> = out.bytes.drain(..take).collect();
                // Room again: the reader may go on.
                arrived.notify_all();
                return Ok(Received { bytes, ended: None });
            }
            if out.closed {
                drop(out);
                return Ok(Received {
                    bytes: Vec::new(),
                    ended: self.ended_after_close(),
                });
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Received::default());
            }
            if cancelled() {
                return Err(PipeFailure::Cancelled);
            }
            let step = left.min(super::POLL * 10);
            out = arrived
                .wait_timeout(out, step)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// How the program ended, once its output closed: its leader may still be on its way out
    /// (a closed pipe comes just before the exit), so it is looked at for up to
    /// [`super::DRAIN`]; a group that keeps running without output is reported as running.
    fn ended_after_close(&self) -> Option<ExitStatus> {
        let until = Instant::now() + super::DRAIN;
        loop {
            if let Some(status) = self.status() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(super::POLL);
        }
    }

    /// The last [`STDERR_TAIL`] bytes of standard error, lossily decoded.
    pub(crate) fn stderr_tail(&self) -> String {
        let tail = lock(&self.stderr);
        let (a, b) = tail.as_slices();
        let mut bytes = Vec::with_capacity(tail.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        // A cut tail may start inside a character.
        let skip = bytes
            .iter()
            .take(3)
            .take_while(|b| (**b & 0b1100_0000) == 0b1000_0000)
            .count();
        String::from_utf8_lossy(&bytes[skip..]).into_owned()
    }

    /// Terminate the program's group (whatever of it still runs), reap it and release its
    /// sandbox: how it ended.
    pub(crate) fn stop(&self) -> ExitStatus {
        // Closing its input first lets a well-behaved server end on its own.
        lock(&self.stdin).take();
        let mut child = lock(&self.child);
        let Some(mut process) = child.take() else {
            return self.status().unwrap_or(ExitStatus::Code(-1));
        };
        if let Some(pid) = self.leader()
            && super::group_alive(pid)
        {
            super::terminate_group(pid);
        }
        let status = super::reap(&mut process);
        lock(&self.ended).get_or_insert(status);
        if let Some(c) = &self.confinement {
            c.release();
        }
        // The reader waiting for room stops (the program is gone).
        lock(&self.output.0).stopped = true;
        self.output.1.notify_all();
        status
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Read standard output into `shared`, at most `capacity` bytes unreceived: a full buffer
/// stops the reading until `receive` makes room.
fn read_output(
    mut pipe: std::process::ChildStdout,
    shared: Arc<(Mutex<Output>, Condvar)>,
    capacity: usize,
) {
    let _ = std::thread::Builder::new()
        .name("smith-program-stdout".into())
        .spawn(move || {
            let (output, room) = &*shared;
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                let free = {
                    let mut out = lock(output);
                    while out.bytes.len() >= capacity && !out.stopped {
                        out = room.wait(out).unwrap_or_else(PoisonError::into_inner);
                    }
                    if out.stopped {
                        break;
                    }
                    capacity - out.bytes.len()
                };
                let want = free.min(buf.len());
                match pipe.read(&mut buf[..want]) {
                    Ok(0) => break,
                    Ok(n) => {
                        lock(output).bytes.extend(&buf[..n]);
                        room.notify_all();
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            lock(output).closed = true;
            room.notify_all();
        });
}

/// Read standard error to its end, keeping its last [`STDERR_TAIL`] bytes.
fn read_stderr(mut pipe: std::process::ChildStderr, tail: Arc<Mutex<VecDeque<u8>>>) {
    let _ = std::thread::Builder::new()
        .name("smith-program-stderr".into())
        .spawn(move || {
            let mut buf = [0u8; 8 * 1024];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut kept = lock(&tail);
                        kept.extend(&buf[..n]);
                        let over = kept.len().saturating_sub(STDERR_TAIL);
                        kept.drain(..over);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        });
}
