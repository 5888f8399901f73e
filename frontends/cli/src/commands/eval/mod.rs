//! `smith eval`: one agent turn without the terminal UI — the composition root makes the run
//! ready (settings, plugins, catalog, route), the prompt is read, the session opened, and the
//! one agent loop runs with the intents rendered to stdout and stderr ([`sink`]).

pub(crate) mod compact;
mod input;
pub(crate) mod replay;
mod sink;
pub(crate) mod target;

use std::io;
use std::path::PathBuf;

use clap::{ArgGroup, Args};
use smith::StopReason;
use std::sync::Arc;

use smith_app::runner::{self, Submission};
use smith_app::{App, Ready, RunSpec, RunnerError};

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::commands::plugins::process_refusal;
use crate::exit;
use crate::output::report_notices;
use sink::EvalSink;
use smith_app::runner::target::Target;

pub(crate) const EVAL_AFTER_HELP: &str = "\
Models:
  scripted/demo       built-in script: thinks, answers and echoes the prompt
  scripted/tool-call  built-in script: calls a tool, gets its result, answers
  scripted/edit       built-in script: writes, reads, edits and rereads notes.txt (run it in
                      an empty directory)
  scripted/NAME --script FILE   plays FILE (a KDL script of provider rounds); NAME is a label
  ALIAS or GROUP      a name from models.kdl: resolved offline, failing over in order
  `smith models` lists the catalog; a model gets only what its record advertises (tools,
  --thinking levels), else nothing is sent. Every attempt is recorded apart from the selection.
  Without --model, the `model` setting selects; else a continued session's last model does.

Prompt:
  PROMPT              the prompt; `@path` attaches a UTF-8 file of this directory (at most
                      256 KiB, 16 files; the path, size and SHA-256 are recorded), `@@` is `@`
  (no PROMPT) or -    the prompt is read from stdin, when stdin is not a terminal
  --stdin             appends stdin to PROMPT as a fenced block (at most 1 MiB); without it
                      stdin is never read when PROMPT is given

Output:
  plain (default)  the answer streams to stdout; thinking, tool activity and diagnostics go to
                   stderr; no escape sequences on stdout; colour on a terminal stderr unless
                   NO_COLOR is set
  --json           one JSON record per line on stdout: run_start first, run_end last, each
                   message's start, deltas and end in order (the end record is authoritative)

Tools:
  The active plugins' tools (`smith tools list`) run in the current directory: files and
  search inside it; `bash` as the permission mode lets it in a trusted project (`smith trust`)
  or with --allow-process; in an untrusted project each program is asked first, so eval
  refuses it (recorded; exit 0); with process.allow=false bash is not offered to the model.
  --disable-plugin ID leaves a plugin's tools out.
  --permission-mode plan|ask|auto-edit|auto and the permissions.allow / .ask / .deny rules
  decide each call and each effect (`smith docs get permissions`). eval answers no question:
  a call or effect the policy would ask about is refused, the refusal recorded and given to
  the model as the call's result — rules and modes still allow what they allow.

Retries:
  --session ID (or --session-id UUID) --dedup-key KEY makes a submission safe to repeat: the first admission runs;
  a repeat with the same KEY, model and prompt runs nothing and prints the original answer
  (its `receipt` record has deduplicated set), also after a crash or restart; the same
  KEY with another prompt or model fails with exit 2 and writes nothing. A repeat exits as
  the original work ended (0 when it succeeded, 1 when it failed or was interrupted).
  --session-id UUID creates that session or continues it, so a first prompt retries safely.

Sessions:
  Every run creates a new session file under $SMITH_HOME/sessions (default
  $XDG_DATA_HOME/smith/sessions). --session ID appends to an existing one (a unique prefix of
  its id is enough); --continue (or --session last) continues the session most recently
  written among those started in this directory (`smith sessions list --here`), else in the
  nearest directory above it in its project. --no-session uses a temporary store, removed
  when the run succeeds and kept (its path is printed) when it does not.

Exit status:
  0    the model finished its answer (or stopped at its output limit, with a warning), or stdout was
       closed early (the run stops quietly). A failed tool call does not fail the run: the
       model gets the error as the call's result.
  1    the run failed: provider error, a stream cut before its end, a storage failure
  2    usage or configuration error (no or unknown model, bad script, bad flags, empty
       prompt, an @path that names no file); nothing was run or written. With --json, an
       error before the run starts is also one `error` record on stdout
  3    the --session file is damaged or of a format version this Smith does not read
  4    the --session is open for writing by another Smith process
  130  interrupted (Ctrl-C or SIGTERM); the session records what happened";

/// Arguments of `smith eval`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("retry_target").args(["session", "session_id"])))]
pub(crate) struct EvalArgs {
    /// The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of
    /// models.kdl; default: the `model` setting, else (continuing a session) the model the
    /// session last recorded.
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

    /// Append to the existing session ID (a unique prefix is enough; `last`: the session most
    /// recently written among those started in this directory, else in the nearest directory
    /// above it in its project) instead of creating one.
    #[arg(long, value_name = "ID", conflicts_with_all = ["no_session", "continue_latest", "session_id"])]
    pub(crate) session: Option<String>,

    /// Continue the session most recently written among those started in this directory,
    /// else in the nearest directory above it in its project (same as --session last).
    #[arg(long = "continue", conflicts_with_all = ["no_session", "session_id"])]
    pub(crate) continue_latest: bool,

    /// Record into session ID (a UUID you choose), creating it if it does not exist yet and
    /// continuing it if it does: with --dedup-key, a retried first prompt is one admission.
    #[arg(long, value_name = "UUID", conflicts_with = "no_session")]
    pub(crate) session_id: Option<String>,

    /// Deduplicate this submission with KEY (needs --session or --session-id): if the session
    /// already admitted KEY with the same model and prompt, nothing runs and that
    /// submission's receipt and recorded answer are printed; KEY with other content fails
    /// (exit 2).
    #[arg(
        long,
        value_name = "KEY",
        requires = "retry_target",
        conflicts_with_all = ["no_session", "continue_latest"]
    )]
    pub(crate) dedup_key: Option<String>,

    /// Record into a temporary session store, removed when the run succeeds.
    #[arg(long)]
    pub(crate) no_session: bool,

    /// Play this provider script (scripted provider only); the model name becomes its label.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,

    /// Append standard input to the prompt as a fenced block (UTF-8, at most 1 MiB); without
    /// it stdin is not read when a prompt is given.
    #[arg(long = "stdin")]
    pub(crate) with_stdin: bool,

    /// Attach an image to the prompt (PNG, JPEG, GIF or WebP, at most 3.75 MiB each and 8 MiB
    /// in all, at most 16); repeatable.
    /// Sent only to a model whose catalog record says image input. `@shot.png` in the prompt
    /// attaches an image inside the working directory too.
    #[arg(long = "image", value_name = "FILE")]
    pub(crate) images: Vec<PathBuf>,

    /// The prompt; `@path` attaches a file of this directory (`@@` is a literal `@`). Absent
    /// or `-`: read from stdin when it is not a terminal (UTF-8, at most 8 MiB).
    #[arg(value_name = "PROMPT")]
    pub(crate) prompt: Option<String>,
}

/// Run `smith eval`; returns the exit status, or a diagnostic with its status. With `--json`,
/// a failure before the run starts is also one `error` record on stdout.
pub(crate) fn run(args: EvalArgs, global: &Global) -> Result<u8, CliError> {
    let json = args.json;
    match ready(args, global) {
        Ok(ready) => execute(ready),
        Err(e) => {
            if json {
                write_error_record(&e);
            }
            Err(e)
        }
    }
}

/// Write the `error` record of a failure before the run started (eval-json).
pub(crate) fn write_error_record(e: &CliError) {
    use std::io::Write;
    let record = serde_json::json!({"type": "error", "status": e.status, "message": exit::redact(&e.message)});
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{record}");
    let _ = out.flush();
}

/// Everything a run needs, checked before any effect (no session file is written yet).
struct Prepared {
    app: Arc<App>,
    args: EvalArgs,
    ready: Ready,
    /// `None`: not read yet — the existing session may hold an interrupted turn to continue.
    prompt: Option<smith_app::prompt::Prompt>,
    cwd: PathBuf,
    /// `None`: a temporary store.
    target: Option<Target>,
}

fn ready(args: EvalArgs, global: &Global) -> Result<Prepared, CliError> {
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
    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("cannot tell the working directory the tools run in: {e}; run smith from an existing directory"),
        )
    })?;
    let target = target::of(&args)?;
    let existing = match &target {
        Some(t) => target::resolve(&app, t, &cwd, target::asked(t, args.continue_latest))?,
        None => None,
    };
    let spec = RunSpec {
        selection: selection(&app, existing.as_ref())?,
        thinking: app.thinking(),
        script: args.script.clone(),
    };
    let ready = app.ready(spec, &cwd, process_refusal)?;
    exit::redact_with(ready.redactor().clone());
    report_notices(ready.notices());
    // An existing session named without a prompt may hold an interrupted turn to continue:
    // the prompt is read (from stdin) only once opening says it does not.
    let deferred = args.prompt.is_none()
        && !args.with_stdin
        && args.images.is_empty()
        && args.dedup_key.is_none()
        && existing.is_some();
    let prompt = if deferred {
        None
    } else {
        Some(read_prompt(&args, &cwd, &ready)?)
    };
    Ok(Prepared {
        app: Arc::new(app),
        args,
        ready,
        prompt,
        cwd,
        target,
    })
}

/// The prompt of the run: the argument or stdin, with the images `--image` attaches, checked
/// against what `ready`'s model takes.
fn read_prompt(
    args: &EvalArgs,
    cwd: &std::path::Path,
    ready: &Ready,
) -> Result<smith_app::prompt::Prompt, CliError> {
    let mut prompt = input::read(args.prompt.as_deref(), args.with_stdin, cwd)?;
    let bounds = smith_app::prompt::Bounds::default();
    let count = prompt.images.len() + args.images.len();
    if count > bounds.files {
        return Err(CliError::usage(format!(
            "{count} images are given (--image and @ mentions), more than the {} one prompt attaches",
            bounds.files
        )));
    }
    for path in &args.images {
        let shown = path.display().to_string();
        smith_app::prompt::attach_image(&mut prompt, path, &shown, bounds)
            .map_err(|e| CliError::usage(format!("--image {shown}: {e}")))?;
    }
    ready
        .check_images(prompt.images.len())
        .map_err(|e| CliError::usage(format!("{e} (`smith models` shows each model's record)")))?;
    Ok(prompt)
}

/// The selection of the run: a flag or setting, else the one the existing session last
/// recorded (said on stderr).
pub(super) fn selection(
    app: &App,
    existing: Option<&(PathBuf, smith::SessionId)>,
) -> Result<smith::Selection, CliError> {
    if app.settings.resolved.get("model").is_none()
        && let Some((path, id)) = existing
        && let Some(recorded) = smith_app::inspect::recorded_selection(path)
            .map_err(|e| target::store_error(&e, true))?
    {
        target::note(&format!(
            "continuing session {id} with {recorded}, the model it last recorded (select another with --model)"
        ));
        return Ok(recorded);
    }
    Ok(app.selection()?)
}

fn execute(prepared: Prepared) -> Result<u8, CliError> {
    let Prepared {
        app,
        args,
        ready,
        prompt,
        cwd,
        target,
    } = prepared;
    let cancel = crate::interrupt::cancel();
    crate::interrupt::phase("ready");
    let cost_line = !args.json && app.settings.bool("eval.cost-line", true);
    // Still before the run starts: a failure here is the run's one `error` record too.
    let not_started = |e: CliError| {
        if args.json {
            write_error_record(&e);
        }
        e
    };
    let opened = match &target {
        Some(t) => runner::target::open(app, t, &cwd, process_refusal)
            .map_err(|e| target::open_error(e, target::asked(t, args.continue_latest))),
        None => runner::target::open_temporary(app, &cwd, process_refusal)
            .map_err(|e| target::open_error(e, "--no-session")),
    }
    .map_err(not_started)?;
    target::report_open_notices(&opened.notices);
    // Opening checked the selected branch; the rest of an existing file is verified beside
    // the turn, and what it finds is said when the turn ends.
    let check = (target.is_some() && !opened.runner.is_created())
        .then(|| {
            runner::target::DamageCheck::start(
                opened.runner.path(),
                opened.runner.id(),
                &opened.notices,
            )
        })
        .flatten();
    let (mut runner, temp) = (opened.runner, opened.temp);
    // Every record from here on is redacted, and the session records what it redacts.
    runner
        .adopt(ready)
        .map_err(|e| not_started(runner_error(e)))?;
    let mut sink = EvalSink::new(args.json, cancel.clone());
    let outcome = if prompt.is_none()
        && let Some(turn) = runner.interrupted()
    {
        let (submission, session) = (turn.submission, runner.id());
        if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            target::note(
                "stdin is not read when an interrupted turn is continued; give `-` as the prompt to read one from it (it settles the turn as aborted)",
            );
        }
        // The turn continues with the selection it recorded, unless this invocation names one
        // (--model, `-c model=…` or SMITH_MODEL; then the continuation checks that it is the
        // same) — a configuration file's default does not rebind it.
        let named = args.model.is_some()
            || runner
                .app()
                .settings
                .resolved
                .get("model")
                .is_some_and(|v| {
                    matches!(
                        v.source.level,
                        smith_config::Level::Environment | smith_config::Level::CommandLine
                    )
                });
        let spec = if named {
            None
        } else {
            runner.interrupted_spec()
        };
        match runner.continue_interrupted(spec, &mut sink, &cancel) {
            Ok(end) => end,
            Err(e) => {
                let _ = runner.close(false);
                return Err(not_started(continue_error(e, session, submission)));
            }
        }
    } else {
        let prompt = match prompt {
            Some(prompt) => prompt,
            None => match runner
                .current()
                .ok_or_else(|| CliError::usage("no model is prepared"))
                .and_then(|ready| read_prompt(&args, &cwd, ready))
            {
                Ok(prompt) => prompt,
                Err(mut e) => {
                    // No prompt was given because there might have been a turn to continue.
                    e.message.push_str(&format!(
                        " (session {} has no interrupted turn to continue, so a prompt is needed)",
                        runner.id()
                    ));
                    let _ = runner.close(false);
                    return Err(not_started(e));
                }
            },
        };
        let held = runner.interrupted().map(|t| t.submission);
        let submission = Submission {
            prompt,
            spec: None,
            dedup_key: args.dedup_key.clone(),
            destination: None,
        };
        let submitted = runner.submit(submission, &mut sink, &cancel);
        if let Some(turn) = held.filter(|_| runner.interrupted().is_none()) {
            sink.diagnostic(&format!(
                "note: the interrupted turn {turn} was settled as aborted: this prompt moved on from it"
            ));
        }
        match submitted {
            Ok(end) => end,
            Err(e) => {
                // Input refused before admission leaves no empty session behind.
                let _ = runner.close(false);
                return Err(not_started(runner_error(e)));
            }
        }
    };
    if let Some(ready) = runner.current() {
        report_notices(&ready.later_notices());
    }
    if let Some(check) = check {
        target::report_open_notices(&check.finish());
    }
    if cost_line && !sink.output_closed && !outcome.deduplicated {
        sink.diagnostic(&sink::cost_line(&outcome.usage, outcome.cost_usd));
    }
    let path = runner.path().to_owned();
    // Best effort: closing records that every change is acknowledged. A failure loses
    // nothing (the next writer's recovery establishes it), so it is only noted.
    if let Err(e) = runner.close(true) {
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
            StopReason::Error | StopReason::Budget => exit::RUN_FAILED,
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

/// A continuation that did not start, with the CLI's status and what to do instead.
fn continue_error(e: RunnerError, session: smith::SessionId, turn: smith::EntryId) -> CliError {
    match e {
        RunnerError::Continue(e) => match *e {
            smith_app::ContinueError::Store(e) => command_error::store(&e),
            smith_app::ContinueError::Blocked { missing, .. } => {
                let mut hints: Vec<String> = Vec::new();
                for m in &missing {
                    let hint = match m {
                        smith_app::Missing::Model { recorded, .. } => format!(
                            "drop --model (it continues with {recorded}) or pass --model {recorded}"
                        ),
                        smith_app::Missing::Plugin { .. } | smith_app::Missing::Tools { .. } => {
                            "`smith plugins list` shows what is active; a --disable-plugin or a permission mode may withhold it".to_owned()
                        }
                    };
                    if !hints.contains(&hint) {
                        hints.push(hint);
                    }
                }
                let error = smith_app::ContinueError::Blocked {
                    submission: turn,
                    missing,
                };
                CliError::usage(format!(
                    "{error} — {}; then continue it with `smith eval --session {session}`, or give a prompt to settle turn {turn} as aborted and go on",
                    hints.join("; ")
                ))
            }
            other => CliError::usage(format!(
                "{other} (continue it with `smith eval --session {session}` once that is done, or give a prompt to settle turn {turn} as aborted and go on)"
            )),
        },
        other => runner_error(other),
    }
}

/// A runner's refusal or failure before or at admission, with the CLI's status.
pub(super) fn runner_error(e: RunnerError) -> CliError {
    match e {
        RunnerError::Store(e) => command_error::store(&e),
        RunnerError::App(e) => (*e).into(),
        other => CliError::usage(other.to_string()),
    }
}
