//! The session programs of `smith:plugin/process` (1.3.0): `start-session`, `send`,
//! `receive`, `stderr-tail`, `stop-session` on the programs [`crate::process::resident`]
//! keeps for the call's session.
//!
//! Effects: starting is a `process.start` effect (granted, asked and confined as
//! `process.run` is; recorded `unknown` once it runs, a program may change anything). Each
//! `send` is a `process.send` effect: its intent records the bytes sent, and its completion —
//! recorded at the call's next send to the same program, when the program is stopped, or when
//! the call ends ([`end_all`]) — what the call received from the program meanwhile: one
//! exchange, request and response together in the session.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use smith::EffectOutcome;

use crate::effects::{CallState, Done, EffectCall, Pending};
use crate::grants::Effect;
use crate::process::resident::{MAX_PER_PLUGIN, PipeFailure, Program, Programs};
use crate::process::{ExitStatus, SpawnFailure};
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::process as wit;

/// The longest session name, in bytes.
const MAX_NAME: usize = 64;
/// The most bytes one `send` writes.
const MAX_SEND: usize = 16 << 20;
/// The bytes of a send recorded in its intent.
const RECORDED_SENT: usize = 64 << 10;
/// The bytes received in an exchange recorded in its completion.
const RECORDED_RECEIVED: usize = 1 << 20;
/// What `receive` returns at most when asked for 0 bytes.
const DEFAULT_RECEIVE: usize = 64 << 10;

/// One send of this call and what the call received from the program since.
pub(crate) struct Exchange {
    name: String,
    pid: u32,
    pending: Pending,
    sent: usize,
    received: Vec<u8>,
    received_total: u64,
}

fn status(s: ExitStatus) -> wit::ExitStatus {
    match s {
        ExitStatus::Code(c) => wit::ExitStatus::Code(c),
        ExitStatus::Signal(s) => wit::ExitStatus::Signal(s),
    }
}

fn status_json(s: Option<ExitStatus>) -> serde_json::Value {
    match s {
        None => json!("running"),
        Some(ExitStatus::Code(c)) => json!({"exit_code": c}),
        Some(ExitStatus::Signal(s)) => json!({"signal": s}),
    }
}

/// `bytes` as recorded text: lossily decoded, cut at `max` bytes on a character boundary.
fn recorded(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(max)]).into_owned();
    if bytes.len() > max {
        format!("{text}\n[… {} more bytes not recorded]", bytes.len() - max)
    } else {
        text
    }
}

fn check_name(name: &str) -> Result<(), wit::ProcessError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(wit::ProcessError::Invalid(format!(
            "`{name}` is not a session name: use 1 to {MAX_NAME} of A-Z a-z 0-9 _ . -"
        )))
    }
}

impl CallState {
    /// The programs the call's session keeps, if the call runs in one.
    fn programs(&self) -> Result<Arc<Programs>, wit::ProcessError> {
        self.resident
            .as_ref()
            .map(|r| r.get_or_default::<Programs>())
            .ok_or_else(|| {
                wit::ProcessError::Denied(
                    "programs kept across calls belong to a session, and this call runs outside one; use `run` instead".to_owned(),
                )
            })
    }

    /// How the user widened the sandbox of this plugin's kept program `session`, if at all.
    fn widening(&self, session: &str) -> Option<&crate::sandbox::Widening> {
        self.policy
            .programs
            .get(self.plugin_id())?
            .get(session)
            .filter(|w| **w != crate::sandbox::Widening::default())
    }

    /// The plugin's id (programs are kept per plugin, across its versions).
    fn plugin_id(&self) -> &str {
        self.plugin.split('@').next().unwrap_or(&self.plugin)
    }

    /// Session `name` of this plugin, or `not-found`.
    fn program(&self, name: &str) -> Result<Arc<Program>, wit::ProcessError> {
        self.programs()?.get(self.plugin_id(), name).ok_or_else(|| {
            wit::ProcessError::NotFound(format!(
                "no session named `{name}` is running for plugin {}: start it with start-session",
                self.plugin_id()
            ))
        })
    }
}

/// `start-session`.
pub(crate) fn start(
    state: &mut State,
    name: &str,
    request: &wit::ProcessRequest,
) -> Result<wit::SessionInfo, wit::ProcessError> {
    check_name(name)?;
    let programs = state.call.programs()?;
    let plugin = state.call.plugin_id().to_owned();
    let mut input = crate::process_imports::recorded(request);
    input["session"] = json!(name);
    let fingerprint = input.to_string();
    if let Some(running) = programs.get(&plugin, name) {
        if running.status().is_none() {
            if running.fingerprint == fingerprint {
                // Reaching a running program needs what starting one needs (the policy may
                // have changed since it started).
                state
                    .call
                    .granted
                    .check(Effect::ProcessStart, &state.call.plugin)
                    .map_err(|denied| wit::ProcessError::Denied(denied.to_string()))?;
                return Ok(wit::SessionInfo {
                    name: name.to_owned(),
                    pid: running.pid,
                    started: false,
                    sandbox: running.sandbox.clone(),
                });
            }
            return Err(wit::ProcessError::Invalid(format!(
                "session `{name}` is running another program or was started with another request; stop it first (stop-session) or use another name"
            )));
        }
        // It ended: it is started again below.
        end_exchange(state, name);
        programs.remove(&plugin, name);
    } else if programs.count(&plugin) >= MAX_PER_PLUGIN {
        return Err(wit::ProcessError::Invalid(format!(
            "plugin {plugin} keeps {MAX_PER_PLUGIN} programs running in this session, the most it may; stop one (stop-session) before starting `{name}`"
        )));
    }
    let target = request.program.clone();
    let call = EffectCall {
        effect: Effect::ProcessStart,
        target: &target,
        input,
        leaves_sandbox: false,
        refused: None,
    };
    let program = state.call.durable(call, |cs| {
        // The user may have widened this program's sandbox (a server that needs the network).
        let widening = cs.widening(name).cloned();
        let sandbox = match &widening {
            Some(w) => cs.policy.sandbox.widened(w),
            None => cs.policy.sandbox.clone(),
        };
        let (made, _root) = match cs.process_request_in(request, false, "process.start", &sandbox) {
            Ok(made) => made,
            Err((error, message)) => return Done::not_applied(error, message),
        };
        let sandbox = match (&made.confinement, &widening) {
            (None, _) => "none".to_owned(),
            (Some(_), None) => sandbox.describe(),
            (Some(_), Some(w)) => format!(
                "{} (widened by plugins.{}.programs.{name}: {})",
                sandbox.describe(),
                cs.plugin_id(),
                w.describe()
            ),
        };
        let capacity = made.output_bytes;
        match Program::start(made, capacity, fingerprint, sandbox.clone()) {
            Ok(program) => Done {
                // A running program may change anything: never claimed as applied or not.
                outcome: EffectOutcome::Unknown,
                evidence: json!({
                    "pid": program.pid,
                    "sandbox": sandbox,
                    "output_capacity": capacity,
                }),
                output: format!(
                    "started `{}` as session {name} (pid {})",
                    crate::process_imports::shell_line(
                        &request.program,
                        request.args.iter().map(String::as_str)
                    ),
                    program.pid
                )
                .into_bytes(),
                result: Ok(program),
            },
            Err(failure) => {
                let text = failure.to_string();
                let error = match failure {
                    SpawnFailure::NotFound(m) => wit::ProcessError::NotFound(m),
                    SpawnFailure::Denied(m) | SpawnFailure::Sandbox(m) => {
                        wit::ProcessError::Denied(m)
                    }
                    SpawnFailure::Io(m) => wit::ProcessError::Io(m),
                };
                Done::not_applied(error, text)
            }
        }
    })?;
    programs.insert(&plugin, name, Arc::clone(&program));
    Ok(wit::SessionInfo {
        name: name.to_owned(),
        pid: program.pid,
        started: true,
        sandbox: program.sandbox.clone(),
    })
}

/// `send`.
pub(crate) fn send(state: &mut State, name: &str, bytes: &[u8]) -> Result<(), wit::ProcessError> {
    let program = state.call.program(name)?;
    if bytes.len() > MAX_SEND {
        return Err(wit::ProcessError::Invalid(format!(
            "a send of {} bytes is over the bound of {MAX_SEND}; send it in parts",
            bytes.len()
        )));
    }
    end_exchange(state, name);
    let began = Instant::now();
    let result = send_recorded(&mut state.call, &program, name, bytes);
    state.call.host_time += began.elapsed();
    result
}

fn send_recorded(
    call: &mut CallState,
    program: &Arc<Program>,
    name: &str,
    bytes: &[u8],
) -> Result<(), wit::ProcessError> {
    let input = json!({
        "session": name,
        "pid": program.pid,
        "bytes": bytes.len(),
        "message": recorded(bytes, RECORDED_SENT),
    });
    let pending = call.begin::<wit::ProcessError>(EffectCall {
        effect: Effect::ProcessSend,
        target: name,
        input,
        leaves_sandbox: false,
        refused: None,
    })?;
    // The local effect boundary: references become plaintext for the program only where the
    // secret policy allows it (the intent recorded them as given).
    let restored;
    let bytes = match std::str::from_utf8(bytes) {
        Ok(text) if text.contains("⟦secret:") => {
            restored = call.restore(text, "process.send", name);
            restored.as_bytes()
        }
        _ => bytes,
    };
    let cancel = call.cancel.clone();
    let (written, outcome) = program.send(bytes, &|| cancel.is_cancelled());
    let failure = match outcome {
        Ok(()) => {
            call.exchanges.push(Exchange {
                name: name.to_owned(),
                pid: program.pid,
                pending,
                sent: written,
                received: Vec::new(),
                received_total: 0,
            });
            return Ok(());
        }
        Err(failure) => failure,
    };
    let (error, why) = match failure {
        PipeFailure::Ended(how) => {
            let how = match how {
                Some(ExitStatus::Code(c)) => format!("it exited with status {c}"),
                Some(ExitStatus::Signal(s)) => format!("it was ended by signal {s}"),
                None => "it closed its standard input".to_owned(),
            };
            let why = format!(
                "session `{name}` takes no more input: {how}; its standard error ends: {}",
                last_line(&program.stderr_tail())
            );
            (wit::ProcessError::Io(why.clone()), why)
        }
        PipeFailure::Cancelled => (
            wit::ProcessError::Cancelled,
            "cancelled while the program's input was full".to_owned(),
        ),
        PipeFailure::Io(e) => {
            let why = format!("writing to session `{name}` failed: {e}");
            (wit::ProcessError::Io(why.clone()), why)
        }
    };
    let done = Done {
        outcome: if written == 0 {
            EffectOutcome::NotApplied
        } else {
            EffectOutcome::Unknown
        },
        result: Err(error),
        output: why.into_bytes(),
        evidence: json!({"written": written, "ended": status_json(program.status())}),
    };
    call.finish(pending, done)
}

/// The last non-empty line of `text`, or `(nothing)`.
fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(nothing)")
}

/// `receive`.
pub(crate) fn receive(
    state: &mut State,
    name: &str,
    max_bytes: u32,
    timeout_ms: u64,
) -> Result<wit::Received, wit::ProcessError> {
    let program = state.call.program(name)?;
    let max = match max_bytes {
        0 => DEFAULT_RECEIVE,
        n => (n as usize).min(MAX_SEND),
    };
    let wait = Duration::from_millis(timeout_ms).min(state.call.policy.process_limits.max_timeout);
    let cancel = state.call.cancel.clone();
    let began = Instant::now();
    let got = program.receive(max, wait, &|| cancel.is_cancelled());
    state.call.host_time += began.elapsed();
    let got = got.map_err(|failure| match failure {
        PipeFailure::Cancelled => wit::ProcessError::Cancelled,
        PipeFailure::Ended(_) | PipeFailure::Io(_) => {
            wit::ProcessError::Io(format!("reading session `{name}` failed"))
        }
    })?;
    if let Some(exchange) = state.call.exchanges.iter_mut().find(|e| e.name == name) {
        exchange.received_total += got.bytes.len() as u64;
        let room = RECORDED_RECEIVED.saturating_sub(exchange.received.len());
        exchange
            .received
            .extend_from_slice(&got.bytes[..got.bytes.len().min(room)]);
    }
    Ok(wit::Received {
        bytes: got.bytes,
        ended: got.ended.map(status),
    })
}

/// `stderr-tail`.
pub(crate) fn stderr_tail(state: &mut State, name: &str) -> Result<String, wit::ProcessError> {
    Ok(state.call.program(name)?.stderr_tail())
}

/// `stop-session`.
pub(crate) fn stop(state: &mut State, name: &str) -> Option<wit::ExitStatus> {
    end_exchange(state, name);
    let programs = state.call.programs().ok()?;
    let plugin = state.call.plugin_id().to_owned();
    programs.remove(&plugin, name).map(status)
}

/// Record the completion of the call's open exchange with `name`, if any.
fn end_exchange(state: &mut State, name: &str) {
    if let Some(at) = state.call.exchanges.iter().position(|e| e.name == name) {
        let exchange = state.call.exchanges.remove(at);
        settle(&mut state.call, exchange);
    }
}

fn settle(call: &mut CallState, exchange: Exchange) {
    let ended = call
        .programs()
        .ok()
        .and_then(|p| p.get(call.plugin_id(), &exchange.name))
        .and_then(|p| p.status());
    let truncated = exchange.received_total > exchange.received.len() as u64;
    let mut output = exchange.received;
    if truncated {
        output.extend_from_slice(
            format!(
                "\n[… {} more bytes received, not recorded]",
                exchange.received_total - output.len() as u64
            )
            .as_bytes(),
        );
    }
    let done: Done<(), wit::ProcessError> = Done {
        // What the program did with the message is not known.
        outcome: EffectOutcome::Unknown,
        result: Ok(()),
        output,
        evidence: json!({
            "session": exchange.name,
            "pid": exchange.pid,
            "sent_bytes": exchange.sent,
            "received_bytes": exchange.received_total,
            "ended": status_json(ended),
        }),
    };
    // A completion that cannot be recorded is terminal for the call (`finish` says so).
    let _ = call.finish(exchange.pending, done);
}

/// Record the completion of every exchange still open: the call has ended.
pub(crate) fn end_all(state: &mut State) {
    for exchange in std::mem::take(&mut state.call.exchanges) {
        settle(&mut state.call, exchange);
    }
}
