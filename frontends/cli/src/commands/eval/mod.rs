//! `smith eval`: one agent turn without the terminal UI — the composition root makes the run
//! ready (settings, plugins, catalog, route), the prompt is read, the session opened, and the
//! one agent loop runs with the intents rendered to stdout and stderr ([`sink`]).

mod sink;

use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use clap::Args;
use smith::{Cancel, StopReason};
use smith_agent::{AdmissionError, Agent, Session, Submit};
use smith_app::{App, RunSpec, TempStore};

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::commands::plugins::process_refusal;
use crate::exit;
use crate::output::report_notices;
use sink::EvalSink;

/// Largest prompt, in bytes, from the command line or stdin. Well under the session format's
/// 16 MiB frame bound, so an accepted prompt can always be recorded.
const MAX_PROMPT_BYTES: u64 = 8 * 1024 * 1024;

pub(crate) const EVAL_AFTER_HELP: &str = "\
Models:
  scripted/demo       built-in script: thinks, answers and echoes the prompt
  scripted/tool-call  built-in script: calls a tool, gets its result, answers
  scripted/NAME --script FILE   plays FILE (a KDL script of provider rounds); NAME is a label
  ALIAS or GROUP      a name from models.kdl: resolved offline, failing over in order
  `smith models` lists the catalog; a model gets only what its record advertises (tools,
  --thinking levels), else nothing is sent. Every attempt is recorded apart from the selection.

Output:
  plain (default)  the answer streams to stdout; thinking, tool activity and diagnostics go to
                   stderr; no escape sequences on stdout; colour on a terminal stderr unless
                   NO_COLOR is set
  --json           one JSON record per line on stdout: run_start first, run_end last, each
                   message's start, deltas and end in order (the end record is authoritative)

Tools:
  The active plugins' tools (`smith tools list`) run in the current directory: files and
  search inside it; `bash` only in a trusted project (`smith trust`) or with --allow-process.
  --disable-plugin ID leaves a plugin's tools out.

Retries:
  --session ID --dedup-key KEY makes a submission safe to repeat: the first admission runs;
  a repeat with the same KEY, model and prompt runs nothing and prints the original answer
  (its `receipt` record has deduplicated set), also after a crash or restart; the same
  KEY with another prompt or model fails with exit 2 and writes nothing. A repeat exits as
  the original work ended (0 when it succeeded, 1 when it failed or was interrupted).

Sessions:
  Every run creates a new session file under $SMITH_HOME/sessions (default
  $XDG_DATA_HOME/smith/sessions). --session ID appends to an existing one (a unique prefix of
  its id is enough). --no-session uses a temporary store, removed when the run succeeds and
  kept (its path is printed) when it does not.

Exit status:
  0    the model finished its answer (or stopped at its output limit, with a warning), or stdout was
       closed early (the run stops quietly). A failed tool call does not fail the run: the
       model gets the error as the call's result.
  1    the run failed: provider error, a stream cut before its end, a storage failure
  2    usage or configuration error (no or unknown model, bad script, bad flags, empty
       prompt); nothing was run or written
  3    the --session file is damaged or of a format version this Smith does not read
  4    the --session is open for writing by another Smith process
  130  interrupted (Ctrl-C or SIGTERM); the session records what happened";

/// Arguments of `smith eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of
    /// models.kdl; default: the `model` setting.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,

    /// The thinking level to ask for: off, minimal, low, medium, high, xhigh or max (the
    /// model's catalog record must list it); default: the `thinking` setting, else the
    /// model's own default.
    #[arg(long, value_name = "LEVEL")]
    pub(crate) thinking: Option<String>,

    /// Emit LF-delimited JSON records on stdout instead of plain text.
    #[arg(long)]
    pub(crate) json: bool,

    /// Append to the existing session ID (a unique prefix is enough) instead of creating one.
    #[arg(long, value_name = "ID", conflicts_with = "no_session")]
    pub(crate) session: Option<String>,

    /// Deduplicate this submission with KEY (needs --session): if the session already
    /// admitted KEY with the same model and prompt, nothing runs and that submission's
    /// receipt and recorded answer are printed; KEY with other content fails (exit 2).
    #[arg(
        long,
        value_name = "KEY",
        requires = "session",
        conflicts_with = "no_session"
    )]
    pub(crate) dedup_key: Option<String>,

    /// Record into a temporary session store, removed when the run succeeds.
    #[arg(long)]
    pub(crate) no_session: bool,

    /// Play this provider script (scripted provider only); the model name becomes its label.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,

    /// The prompt; `-` reads it from standard input (UTF-8, at most 8 MiB).
    #[arg(value_name = "PROMPT")]
    pub(crate) prompt: String,
}

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
    let app = global.app(&flags)?;
    report_notices(&app.settings.notices);
    let spec = RunSpec {
        selection: app.selection()?,
        thinking: app.thinking(),
        script: args.script.clone(),
    };
    let prepared = app.prepare(&spec)?;
    report_notices(&prepared.notices);
    let prompt = read_prompt(&args.prompt)?;

    let cancel = Cancel::new();
    install_interrupt_handler(&cancel);

    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("cannot tell the working directory the tools run in: {e}; run smith from an existing directory"),
        )
    })?;
    let policy = app.policy(&cwd, &process_refusal)?;
    let (mut session, temp) = open_session(&app, &args)?;
    let mut sink = EvalSink::new(args.json, cancel.clone());
    // One plugin generation for the whole run, under the user's policy.
    let tools = prepared.tools.with_policy(policy);
    let submit = Submit {
        model: &spec.selection,
        input: &prompt,
        dedup_key: args.dedup_key.as_deref(),
        destination: None,
    };
    // The same pinned generation's handlers (the queue policy) see the run's safe points.
    let outcome = match Agent::routed(&prepared.route, &tools, app.run_limits())
        .with_lifecycle(&tools)
        .in_dir(cwd)
        .submit(&mut session, submit, &mut sink, &cancel)
    {
        Ok(outcome) => outcome,
        Err(e) => {
            let _ = session.close();
            return Err(match e {
                AdmissionError::Store(e) => command_error::store(&e),
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
            temp.remove().map_err(|e| command_error::create(&e))?;
        } else {
            sink.diagnostic(&format!(
                "the temporary session was kept for inspection at {}",
                path.display()
            ));
        }
    }
    Ok(status)
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

/// The session this run records into: a temporary store's (`--no-session`), the existing
/// one `--session` names, or a new one.
fn open_session(app: &App, args: &EvalArgs) -> Result<(Session, Option<TempStore>), CliError> {
    let store_err = |e: smith_store::Error| {
        let status = command_error::store_status(&e);
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
            _ => return command_error::store(&e),
        };
        CliError::new(
            status,
            format!("{}.{hint}", command_error::store_message(&e)),
        )
    };
    let create_err = |e: smith_app::CreateError| match e {
        smith_app::CreateError::Store(e) => store_err(e),
        other => command_error::create(&other),
    };
    let cwd = std::env::current_dir()
        .ok()
        .and_then(|p| p.to_str().map(str::to_owned));
    if args.no_session {
        let temp = TempStore::create().map_err(|e| command_error::create(&e))?;
        let session = temp.store().create(cwd).map_err(create_err)?;
        return Ok((session, Some(temp)));
    }
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    if let Some(wanted) = &args.session {
        let (path, id) = store.find(wanted).map_err(|e| {
            command_error::find(&e, "--session", "omit --session to start a new session")
        })?;
        let opened = store.open(&path, id).map_err(store_err)?;
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
    let session = store.create(cwd).map_err(create_err)?;
    Ok((session, None))
}

fn eprint_note(text: &str) {
    exit::report(&format!("note: {text}"));
}
