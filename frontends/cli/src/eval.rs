//! `smith eval`: one agent run without the terminal UI.

use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use smith::{Cancel, Selection, SessionId, StopReason, ThinkingLevel};
use smith_agent::{AdmissionError, Agent, RunLimits, Session, Submit};
use smith_render_plain::{ColorChoice, JsonLinesRenderer, PlainRenderer};
use smith_ui_intents::{Delivery, Intent, IntentSink, Renderer, deliver};

use crate::cli::{EvalArgs, Global};
use crate::exit::{self, CliError};
use crate::paths;

/// Largest prompt, in bytes, from the command line or stdin. Well under the session format's
/// 16 MiB frame bound, so an accepted prompt can always be recorded.
const MAX_PROMPT_BYTES: u64 = 8 * 1024 * 1024;

/// Run `smith eval`; returns the exit status, or a diagnostic with its status.
pub(crate) fn run(args: EvalArgs, global: &Global) -> Result<u8, CliError> {
    // Everything that can be refused is checked before any effect (no session file yet).
    let flags: Vec<(&str, &str, &str)> = args
        .model
        .as_deref()
        .map(|m| ("--model", "model", m))
        .into_iter()
        .chain(
            args.thinking
                .as_deref()
                .map(|t| ("--thinking", "thinking", t)),
        )
        .collect();
    let mut loaded = crate::settings::load(global, &flags)?;
    let plugins = crate::registry::known(&mut loaded)?;
    crate::settings::report_notices(&loaded);
    let configured = loaded
        .resolved
        .get("model")
        .map(|v| (v.value.to_string(), v.source.to_string()));
    let model = select_model(configured.as_ref().map(|(m, s)| (m.as_str(), s.as_str())))?;
    let thinking = match loaded.resolved.get("thinking").map(|v| &v.value) {
        Some(smith_config::Value::String(level)) => ThinkingLevel::parse(level),
        _ => None,
    };
    let models = crate::models::load(&plugins)?;
    let targets = crate::providers::targets(&models, &model)?;
    let max_rounds = match loaded.resolved.get("run.max-rounds").map(|v| &v.value) {
        Some(smith_config::Value::Integer(n)) => u32::try_from(*n).unwrap_or(64),
        _ => 64,
    };
    // Tools, handlers, and only the provider plugins this run's route uses.
    let tools = crate::registry::load_where(&plugins, |m| {
        m.provider
            .as_ref()
            .is_none_or(|p| targets.iter().any(|t| t.model.provider == p.id))
    })?;
    let loadout = tools.loadout();
    let route = crate::providers::route(&crate::providers::RouteInput {
        loaded: &loaded,
        plugins: &plugins,
        loadout: &loadout,
        models: &models,
        selection: &model,
        thinking,
        script: args.script.as_deref(),
    })?;
    let prompt = read_prompt(&args.prompt)?;

    let cancel = Cancel::new();
    install_interrupt_handler(&cancel);

    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("cannot tell the working directory the tools run in: {e}; run smith from an existing directory"),
        )
    })?;
    let policy = crate::registry::policy(&loaded, &cwd)?;
    let (mut session, temp) = open_session(&args)?;
    let mut sink = EvalSink::new(args.json, cancel.clone());
    // One plugin generation for the whole run, under the user's policy.
    let tools = loadout.with_policy(policy);
    let submit = Submit {
        model: &model,
        input: &prompt,
        dedup_key: args.dedup_key.as_deref(),
        destination: None,
    };
    // The same pinned generation's handlers (the queue policy) see the run's safe points.
    let outcome = match Agent::routed(&route, &tools, RunLimits { max_rounds })
        .with_lifecycle(&tools)
        .in_dir(cwd)
        .submit(&mut session, submit, &mut sink, &cancel)
    {
        Ok(outcome) => outcome,
        Err(e) => {
            let _ = session.close();
            return Err(match e {
                AdmissionError::Store(e) => CliError::new(exit::store_status(&e), e.to_string()),
                other => CliError::usage(other.to_string()),
            });
        }
    };
    let path = session.path().to_owned();
    // Best effort: closing records that every change is acknowledged. A failure loses
    // nothing (the next writer's recovery establishes it), so it is only noted.
    if let Err(e) = session.close() {
        sink.diagnostic(&format!("note: closing the session: {e}"));
    }

    let status = if sink.pipe_closed {
        exit::SUCCESS
    } else if sink.output_closed {
        exit::RUN_FAILED
    } else {
        match outcome.stop_reason {
            StopReason::EndTurn | StopReason::MaxTokens | StopReason::ToolUse => exit::SUCCESS,
            // A repeated submission whose original work was interrupted: this command was not.
            StopReason::Aborted if outcome.deduplicated => exit::RUN_FAILED,
            StopReason::Aborted => exit::INTERRUPTED,
            StopReason::Error => exit::RUN_FAILED,
        }
    };
    if let Some(temp) = temp {
        if status == exit::SUCCESS {
            temp.remove()?;
        } else {
            sink.diagnostic(&format!(
                "the temporary session was kept for inspection at {}",
                path.display()
            ));
        }
    }
    Ok(status)
}

/// The model to run: its text and the source it came from (a flag, a file and line…).
fn select_model(given: Option<(&str, &str)>) -> Result<Selection, CliError> {
    let Some((text, source)) = given else {
        return Err(CliError::usage(
            "no model selected: eval needs one to answer the prompt; pass --model, e.g. `--model scripted/demo` for the offline scripted provider, or set a default with `smith config set model scripted/demo`",
        ));
    };
    text.parse::<Selection>()
        .map_err(|e| CliError::usage(format!("{source}: {e}")))
}

fn read_prompt(arg: &str) -> Result<String, CliError> {
    let prompt = if arg == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .take(MAX_PROMPT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::usage(format!("cannot read the prompt from stdin: {e}")))?;
        if bytes.len() as u64 > MAX_PROMPT_BYTES {
            return Err(CliError::usage(format!(
                "the prompt on stdin is longer than {MAX_PROMPT_BYTES} bytes; shorten it"
            )));
        }
        String::from_utf8(bytes).map_err(|e| {
            CliError::usage(format!(
                "the prompt on stdin is not valid UTF-8 (invalid byte at offset {}); pass UTF-8 text",
                e.utf8_error().valid_up_to()
            ))
        })?
    } else {
        if arg.len() as u64 > MAX_PROMPT_BYTES {
            return Err(CliError::usage(format!(
                "the prompt is longer than {MAX_PROMPT_BYTES} bytes; shorten it"
            )));
        }
        arg.to_owned()
    };
    if prompt.trim().is_empty() {
        return Err(CliError::usage(if arg == "-" {
            "the prompt read from stdin is empty; pipe the prompt text into smith, e.g. `echo \"Hello\" | smith eval -m scripted/demo -`"
        } else {
            "the prompt is empty; pass the prompt text, e.g. `smith eval -m scripted/demo \"Hello\"`"
        }));
    }
    Ok(prompt)
}

fn install_interrupt_handler(cancel: &Cancel) {
    static PRESSES: AtomicU32 = AtomicU32::new(0);
    let cancel = cancel.clone();
    // A first Ctrl-C aborts cooperatively (the session records it); a second one exits at once.
    let _ = ctrlc::set_handler(move || {
        if PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(i32::from(exit::INTERRUPTED));
        }
        cancel.cancel();
    });
}

/// A temporary session store for `--no-session`, removed only after a successful run.
struct TempStore {
    dir: PathBuf,
}

impl TempStore {
    fn create() -> Result<Self, CliError> {
        let dir = std::env::temp_dir().join(format!("smith-no-session-{}", SessionId::new_now()));
        std::fs::create_dir_all(&dir).map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!(
                    "cannot create the temporary session store {}: {e}; set TMPDIR to a writable directory",
                    dir.display()
                ),
            )
        })?;
        Ok(Self { dir })
    }

    fn remove(self) -> Result<(), CliError> {
        std::fs::remove_dir_all(&self.dir).map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!(
                    "the run succeeded but its temporary session store {} could not be removed: {e}",
                    self.dir.display()
                ),
            )
        })
    }
}

fn open_session(args: &EvalArgs) -> Result<(Session, Option<TempStore>), CliError> {
    let store_err = |e: smith_store::Error| {
        let status = exit::store_status(&e);
        let hint = match status {
            exit::DAMAGED => {
                " The file is left unchanged: inspect it with `smith sessions verify`, select an intact entry with `smith sessions select`, continue in a fork (`smith sessions fork --at ENTRY`), or start a new session by omitting --session."
            }
            exit::RUN_FAILED if args.session.is_some() => {
                " The session file must be a regular file you can read and write; fix its permissions, or omit --session to start a new session."
            }
            exit::RUN_FAILED => {
                " Make the sessions directory writable, set SMITH_HOME to a writable directory, or pass --no-session."
            }
            _ => return CliError::new(status, e.to_string()),
        };
        CliError::new(status, format!("{e}.{hint}"))
    };
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned));
    if args.no_session {
        let temp = TempStore::create()?;
        let session = Session::create(&temp.dir, SessionId::new_now(), cwd).map_err(store_err)?;
        return Ok((session, Some(temp)));
    }
    let dir = paths::sessions_dir()?;
    if let Some(wanted) = &args.session {
        let (path, id) = paths::find_session(
            &dir,
            wanted,
            "--session",
            "omit --session to start a new session",
        )?;
        let opened = Session::open(&path, id).map_err(store_err)?;
        for s in &opened.skipped {
            eprint_note(&format!(
                "session {id} has a damaged change at byte {} ({}); it is skipped and left unchanged — see `smith sessions verify {id}`",
                s.damage_at, s.reason
            ));
        }
        if let Some(tail) = &opened.truncated {
            eprint_note(&format!(
                "recovered session {id}: cut {} unacknowledged byte(s) at offset {} ({})",
                tail.len, tail.offset, tail.reason
            ));
        }
        return Ok((opened.session, None));
    }
    std::fs::create_dir_all(&dir).map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!(
                "cannot create the sessions directory {}: {e}; SMITH_HOME (or XDG_DATA_HOME) must lead to a directory you can write — set SMITH_HOME to one, or pass --no-session",
                dir.display()
            ),
        )
    })?;
    let session = Session::create(&dir, SessionId::new_now(), cwd).map_err(store_err)?;
    Ok((session, None))
}

fn eprint_note(text: &str) {
    exit::report(&format!("note: {text}"));
}

/// Forwards intents to the mode's renderer. When stdout goes away (a closed pipe) it stops
/// rendering and cancels the run, which then ends quietly.
struct EvalSink {
    renderer: Box<dyn Renderer>,
    cancel: Cancel,
    /// Output failed for any reason; nothing more is rendered.
    output_closed: bool,
    /// Output failed because the reader closed the pipe: the run ends quietly.
    pipe_closed: bool,
}

impl EvalSink {
    fn new(json: bool, cancel: Cancel) -> Self {
        let renderer: Box<dyn Renderer> = if json {
            Box::new(JsonLinesRenderer::new(io::stdout()))
        } else {
            let color = ColorChoice::detect(
                io::stderr().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
                std::env::var("TERM").ok().as_deref(),
            );
            Box::new(PlainRenderer::new(io::stdout(), io::stderr(), color))
        };
        Self {
            renderer,
            cancel,
            output_closed: false,
            pipe_closed: false,
        }
    }

    fn diagnostic(&self, text: &str) {
        exit::report(text);
    }
}

impl IntentSink for EvalSink {
    fn emit(&mut self, intent: Intent) -> Delivery {
        if self.output_closed {
            return Delivery::Dropped;
        }
        match deliver(self.renderer.as_mut(), &intent) {
            Ok(delivery) => delivery,
            Err(e) => {
                self.output_failed(&e);
                Delivery::Dropped
            }
        }
    }
}

impl EvalSink {
    /// Stdout failed: stop rendering and cancel the run (quietly for a closed pipe).
    fn output_failed(&mut self, e: &io::Error) {
        self.output_closed = true;
        self.cancel.cancel();
        if e.kind() == io::ErrorKind::BrokenPipe {
            self.pipe_closed = true;
        } else {
            self.diagnostic(&format!(
                "cannot write output ({e}); the run was stopped and the session records it"
            ));
        }
    }
}
