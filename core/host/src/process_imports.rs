//! The `smith:plugin/process` import: one external program through [`crate::process`], a
//! durable effect whose mutation state is `unknown` once the program started (it may have
//! changed anything) and `not-applied` when it could not start.

use std::time::Duration;

use serde_json::json;
use smith::EffectOutcome;

use crate::effects::{CallState, Done, EffectCall, EffectError};
use crate::fsops::{FsFailure, Root};
use crate::grants::Effect;
use crate::process::{self, BASELINE_ENV, ExitStatus, ProcessRequest, SpawnFailure};
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::process as wit;

impl EffectError for wit::ProcessError {
    fn denied(message: String) -> Self {
        Self::Denied(message)
    }
    fn cancelled() -> Self {
        Self::Cancelled
    }
    fn io(message: String) -> Self {
        Self::Io(message)
    }
}

/// The largest request (program, arguments and environment together), in bytes.
const MAX_REQUEST_BYTES: usize = 1 << 20;

/// Check the request's shape before anything runs.
fn validate(r: &wit::ProcessRequest) -> Result<(), String> {
    if r.program.is_empty() {
        return Err("the program is empty; name a program, e.g. `cargo`".to_owned());
    }
    let size = r.program.len()
        + r.args.iter().map(String::len).sum::<usize>()
        + r.env.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>();
    if size > MAX_REQUEST_BYTES {
        return Err(format!(
            "the program, arguments and environment take {size} bytes; at most {MAX_REQUEST_BYTES} are accepted"
        ));
    }
    let texts = std::iter::once(&r.program)
        .chain(&r.args)
        .chain(std::iter::once(&r.cwd))
        .chain(r.env.iter().flat_map(|(k, v)| [k, v]));
    if texts.into_iter().any(|t| t.contains('\0')) {
        return Err(
            "the program, an argument, the directory or a variable holds a NUL byte, which no program can receive; remove it".to_owned(),
        );
    }
    if let Some((name, _)) = r.env.iter().find(|(k, _)| k.is_empty() || k.contains('=')) {
        return Err(format!(
            "`{name}` is not a valid environment variable name (empty or holding `=`)"
        ));
    }
    Ok(())
}

impl CallState {
    /// The program's environment: the baseline (plus `process.pass-env`) or nothing, then the
    /// request's variables.
    fn environment(&self, r: &wit::ProcessRequest) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = Vec::new();
        if r.env_base == wit::EnvBase::Baseline {
            let names = BASELINE_ENV
                .iter()
                .copied()
                .chain(self.policy.pass_env.iter().map(String::as_str));
            for name in names {
                if let Ok(value) = std::env::var(name)
                    && !env.iter().any(|(k, _)| k == name)
                {
                    env.push((name.to_owned(), value));
                }
            }
        }
        for (k, v) in &r.env {
            env.retain(|(name, _)| name != k);
            env.push((k.clone(), v.clone()));
        }
        env
    }

    /// Confine the requested working directory to the granted root.
    fn working_dir(&self, requested: &str) -> Result<std::path::PathBuf, FsFailure> {
        let root = self
            .granted
            .roots
            .first()
            .ok_or_else(|| FsFailure::Denied("the call has no working directory".to_owned()))?;
        let root = Root::open(root)?;
        if requested.is_empty() || requested == "." {
            return Ok(root.path().to_owned());
        }
        let rel = root.relative_path(requested)?;
        let dir = root
            .path()
            .join(rel)
            .canonicalize()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => {
                    FsFailure::NotFound(format!(
                        "the directory `{requested}` does not exist; pass an existing directory inside the working directory, or none for the working directory itself"
                    ))
                }
                _ => FsFailure::Io(format!("`{requested}`: {e}")),
            })?;
        if !dir.starts_with(root.path()) {
            return Err(FsFailure::Denied(format!(
                "`{requested}` leads outside the granted root {}",
                root.path().display()
            )));
        }
        if !dir.is_dir() {
            return Err(FsFailure::Invalid(format!(
                "`{requested}` is not a directory; pass the directory to run in"
            )));
        }
        Ok(dir)
    }

    /// The program request `r` makes, confined to the granted root and, unless `unconfined`
    /// (the policy allowed leaving it), to the OS sandbox; with the root it is confined to.
    /// Secret references become plaintext here where the secret policy lets `effect` have
    /// them (the intent already recorded the request as given).
    ///
    /// # Errors
    /// Why nothing can run, as the plugin's error and the recorded message.
    pub(crate) fn process_request(
        &self,
        r: &wit::ProcessRequest,
        unconfined: bool,
        effect: &str,
    ) -> Result<(ProcessRequest, std::path::PathBuf), (wit::ProcessError, String)> {
        self.process_request_in(r, unconfined, effect, &self.policy.sandbox)
    }

    /// [`CallState::process_request`] in `sandbox` (the run's, or a kept program's widened).
    pub(crate) fn process_request_in(
        &self,
        r: &wit::ProcessRequest,
        unconfined: bool,
        effect: &str,
        sandbox: &crate::sandbox::Sandbox,
    ) -> Result<(ProcessRequest, std::path::PathBuf), (wit::ProcessError, String)> {
        validate(r).map_err(|why| (wit::ProcessError::Invalid(why.clone()), why))?;
        let cwd = self.working_dir(&r.cwd).map_err(|failure| match failure {
            FsFailure::NotFound(m) => (wit::ProcessError::NotFound(m.clone()), m),
            FsFailure::Denied(m) => (wit::ProcessError::Denied(m.clone()), m),
            other => (
                wit::ProcessError::Invalid(other.to_string()),
                other.to_string(),
            ),
        })?;
        let limits = self.policy.process_limits;
        let timeout = match r.timeout_ms {
            0 => limits.default_timeout,
            ms => Duration::from_millis(ms).min(limits.max_timeout),
        };
        let output_bytes = match r.output_limit {
            0 => limits.output_bytes,
            n => (n as usize).min(limits.output_bytes),
        };
        let restore = |s: &str| self.restore(s, effect, &r.program);
        // The OS sandbox (fail closed: a sandbox that cannot be applied runs nothing).
        let root = self
            .granted
            .roots
            .first()
            .cloned()
            .unwrap_or_else(|| cwd.clone());
        let confinement = if unconfined {
            None
        } else {
            sandbox.confine(&root, &cwd).map_err(|why| {
                let m = why.to_string();
                (wit::ProcessError::Denied(m.clone()), m)
            })?
        };
        let mut env: Vec<(String, String)> = self
            .environment(r)
            .into_iter()
            .map(|(k, v)| (k, restore(&v)))
            .collect();
        if confinement.is_some()
            && let Ok(temp) = sandbox.temp_dir()
        {
            env.retain(|(k, _)| k != "TMPDIR");
            env.push(("TMPDIR".to_owned(), temp.display().to_string()));
        }
        let request = ProcessRequest {
            program: restore(&r.program),
            args: r.args.iter().map(|a| restore(a)).collect(),
            cwd,
            env,
            timeout,
            output_bytes,
            confinement,
        };
        Ok((request, root))
    }

    /// Run `r`, in the sandbox unless `unconfined` (the policy allowed leaving it).
    fn run_process(
        &self,
        r: &wit::ProcessRequest,
        unconfined: bool,
    ) -> Done<wit::ProcessOutput, wit::ProcessError> {
        let (request, root) = match self.process_request(r, unconfined, "process.run") {
            Ok(made) => made,
            Err((error, message)) => return Done::not_applied(error, message),
        };
        let timeout = request.timeout;
        let sandbox = &self.policy.sandbox;
        // Said as the program starts (transient: a tool update, an MCP progress or log
        // message), in the plugin's words: restored secrets are never shown.
        if let Some(events) = &self.events {
            let _ = events.send(smith::ToolEvent::Progress(format!(
                "running `{}` in {}",
                command_line(r),
                request.cwd.display()
            )));
        }
        // The newest output while it runs (a tool update: transient, never recorded),
        // redacted: a restored secret the program echoes is not shown.
        let mut watch = |preview: &str| {
            if let Some(events) = &self.events {
                let shown = self.policy.secrets.current().redact(preview).into_owned();
                let _ = events.send(smith::ToolEvent::Progress(shown));
            }
        };
        let ran = process::run_watched(&request, &|| self.cancel.is_cancelled(), &mut watch);
        if let Some(c) = &request.confinement {
            c.release();
        }
        let ran = match ran {
            Ok(ran) => ran,
            Err(failure) => {
                let text = failure.to_string();
                let error = match failure {
                    SpawnFailure::NotFound(m) => wit::ProcessError::NotFound(m),
                    SpawnFailure::Denied(m) => wit::ProcessError::Denied(m),
                    SpawnFailure::Io(m) => wit::ProcessError::Io(m),
                    SpawnFailure::Sandbox(m) => wit::ProcessError::Denied(m),
                };
                return Done::not_applied(error, text);
            }
        };
        let status = match ran.status {
            ExitStatus::Code(c) => wit::ExitStatus::Code(c),
            ExitStatus::Signal(s) => wit::ExitStatus::Signal(s),
        };
        let (code, signal) = match ran.status {
            ExitStatus::Code(c) => (Some(c), None),
            ExitStatus::Signal(s) => (None, Some(s)),
        };
        let mut ran = ran;
        // A failed confined program whose output looks like a refusal is told so (best
        // effort: the kernel reports EACCES/EPERM, not which rule).
        let refusal = match (request.confinement.is_some(), ran.status) {
            (true, ExitStatus::Code(c)) if c != 0 => {
                let text = format!("{}\n{}", ran.stdout.text, ran.stderr.text);
                crate::sandbox::refusal_note(sandbox, &root, &text)
            }
            _ => None,
        };
        if refusal.is_some() {
            self.sandbox_refused
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(note) = &refusal {
            if !ran.stderr.text.is_empty() && !ran.stderr.text.ends_with('\n') {
                ran.stderr.text.push('\n');
            }
            ran.stderr.text.push_str(note);
            ran.stderr.text.push('\n');
        }
        let mut output = ran.stdout.text.clone().into_bytes();
        if !ran.stderr.text.is_empty() {
            output.extend_from_slice(b"\n[stderr]\n");
            output.extend_from_slice(ran.stderr.text.as_bytes());
        }
        let duration_ms = u64::try_from(ran.duration.as_millis()).unwrap_or(u64::MAX);
        Done {
            // A program may have changed anything: never claimed as applied or not.
            outcome: EffectOutcome::Unknown,
            evidence: json!({
                "exit_code": code,
                "signal": signal,
                "timed_out": ran.timed_out,
                "cancelled": ran.cancelled,
                "descendants_terminated": ran.descendants_terminated,
                "output_abandoned": ran.output_abandoned,
                "stdout_bytes": ran.stdout.total_bytes,
                "stderr_bytes": ran.stderr.total_bytes,
                "timeout_ms": u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
                "duration_ms": duration_ms,
                "sandbox": if unconfined {
                    "none: run outside the sandbox, as the policy allowed".to_owned()
                } else {
                    sandbox.describe()
                },
                "sandbox_refusal_likely": refusal.is_some(),
            }),
            output,
            result: Ok(wit::ProcessOutput {
                status,
                stdout: captured(ran.stdout),
                stderr: captured(ran.stderr),
                timed_out: ran.timed_out,
                cancelled: ran.cancelled,
                descendants_terminated: ran.descendants_terminated,
                output_abandoned: ran.output_abandoned,
                duration_ms,
                timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            }),
        }
    }
}

/// The command line of `r` as a shell would read it (arguments with spaces or quotes
/// quoted), cut at 500 bytes.
fn command_line(r: &wit::ProcessRequest) -> String {
    let mut line = shell_line(&r.program, r.args.iter().map(String::as_str));
    if line.len() > 500 {
        let mut cut = 500;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push('…');
    }
    line
}

/// `program` and `args` as one command line, each argument that a POSIX shell would split or
/// expand single-quoted; whole.
pub(crate) fn shell_line<'a>(program: &str, args: impl Iterator<Item = &'a str>) -> String {
    let mut line = program.to_owned();
    for arg in args {
        line.push(' ');
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
            line.push('\'');
            line.push_str(&arg.replace('\'', "'\\''"));
            line.push('\'');
        } else {
            line.push_str(arg);
        }
    }
    line
}

/// A request as its effect's intent records it: as the plugin made it, but for the values of
/// the variables it sets, which are often credentials (an MCP server's token): each is
/// recorded by name and length only. Inherited variables are not part of it either.
pub(crate) fn recorded(request: &wit::ProcessRequest) -> serde_json::Value {
    json!({
        "program": request.program,
        "args": request.args,
        "cwd": request.cwd,
        "env_base": match request.env_base {
            wit::EnvBase::Clean => "clean",
            wit::EnvBase::Baseline => "baseline",
        },
        "env": request
            .env
            .iter()
            .map(|(name, value)| json!({"name": name, "bytes": value.len()}))
            .collect::<Vec<_>>(),
        "timeout_ms": request.timeout_ms,
        "output_limit": request.output_limit,
    })
}

fn captured(c: process::Captured) -> wit::Captured {
    wit::Captured {
        text: c.text,
        total_bytes: c.total_bytes,
        truncated: c.truncated,
    }
}

impl wit::Host for State {
    fn run(
        &mut self,
        request: wit::ProcessRequest,
    ) -> Result<wit::ProcessOutput, wit::ProcessError> {
        // The recorded input is the request as the plugin made it; inherited variables are
        // not part of it (their values never reach the session).
        let input = recorded(&request);
        let target = request.program.clone();
        let call = EffectCall {
            effect: Effect::Process,
            target: &target,
            input: input.clone(),
            leaves_sandbox: false,
            refused: None,
        };
        let confined = self
            .call
            .durable(call, |state| state.run_process(&request, false));
        let refused = self
            .call
            .sandbox_refused
            .swap(false, std::sync::atomic::Ordering::Relaxed);
        if !(refused && confined.is_ok() && self.call.gate.is_some()) {
            return confined;
        }
        // The sandbox refused it: the policy may let it run again outside, this call only —
        // a second effect, recorded as unconfined, or refused and recorded as not applied.
        let mut input = input;
        input["outside_sandbox"] = json!(true);
        let call = EffectCall {
            effect: Effect::Process,
            target: &target,
            input,
            leaves_sandbox: true,
            refused: None,
        };
        match self
            .call
            .durable(call, |state| state.run_process(&request, true))
        {
            Ok(out) => Ok(out),
            Err(wit::ProcessError::Denied(why)) => confined.map(|mut out| {
                out.stderr.text.push_str(&format!(
                    "\n[smith: running it again outside the sandbox was refused: {why}]\n"
                ));
                out
            }),
            Err(other) => Err(other),
        }
    }

    fn start_session(
        &mut self,
        name: String,
        request: wit::ProcessRequest,
    ) -> Result<wit::SessionInfo, wit::ProcessError> {
        crate::program_imports::start(self, &name, &request)
    }

    fn send(&mut self, name: String, bytes: Vec<u8>) -> Result<(), wit::ProcessError> {
        crate::program_imports::send(self, &name, &bytes)
    }

    fn receive(
        &mut self,
        name: String,
        max_bytes: u32,
        timeout_ms: u64,
    ) -> Result<wit::Received, wit::ProcessError> {
        crate::program_imports::receive(self, &name, max_bytes, timeout_ms)
    }

    fn stderr_tail(&mut self, name: String) -> Result<String, wit::ProcessError> {
        crate::program_imports::stderr_tail(self, &name)
    }

    fn stop_session(&mut self, name: String) -> Option<wit::ExitStatus> {
        crate::program_imports::stop(self, &name)
    }
}
