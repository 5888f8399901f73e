//! `smith compact SESSION`: compact a recorded session now — the selected model summarizes its
//! context before the recent part kept verbatim, and later requests start from the summary
//! (the compaction guide). Shares eval's session target, sink and interrupt handling: the
//! same intents, plain or as JSON lines.

use std::path::PathBuf;

use clap::Args;
use std::sync::Arc;

use smith_app::runner::CompactRequest;
use smith_app::runner::target::{OpenError, Target};
use smith_app::{RunSpec, RunnerError};

use super::sink::EvalSink;
use super::target;
use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::commands::plugins::process_refusal;
use crate::exit;
use crate::output::report_notices;

/// What `smith compact --help` adds.
pub(crate) const COMPACT_AFTER_HELP: &str = "\
What is kept: the summary stands for the context before the most recent part (about
compaction.keep-tokens estimated tokens, from a turn's start where it can, never separating a
tool call from its results), which stays verbatim after it. Nothing is deleted: `smith
sessions get SESSION` shows the raw history and the summary, and selecting an entry before the
compaction (`smith sessions select`) continues as if it never happened.

A summary that ended at the output limit, a cut stream, an error or an abort is not kept: the
command fails and the session's context is unchanged. The prompt is the `compaction` plugin's.

Output: plain — a line per step on stderr, the summary on stdout; --json — the intents as
LF-delimited JSON records on stdout (compaction_start, attempt, compaction_end).

Exit status:
  0    the summary was recorded
  1    it was not (the reason on stderr); nothing that changes the context was written
  2    usage error, or there is nothing to compact
  3    the session file is damaged or of a format version this Smith does not read
  4    the session is open for writing by another Smith process
  130  interrupted (Ctrl-C or SIGTERM); the session records the abort";

/// Arguments of `smith compact`.
#[derive(Debug, Args)]
pub(crate) struct CompactArgs {
    /// The session (a unique prefix of its id is enough; `last`: the session most recently
    /// written among those started in this directory, else in the nearest directory above it
    /// in its project).
    #[arg(value_name = "SESSION")]
    pub(crate) session: String,

    /// What the summary should focus on (given to the compaction plugin).
    #[arg(long, value_name = "TEXT")]
    pub(crate) instructions: Option<String>,

    /// Keep about N estimated tokens of recent context verbatim (default: the
    /// `compaction.keep-tokens` setting).
    #[arg(long, value_name = "N")]
    pub(crate) keep_tokens: Option<u64>,

    /// The model that writes the summary, as PROVIDER/MODEL or an alias or group; default:
    /// the `model` setting, else the model the session last recorded.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,

    /// Play this provider script (scripted provider only).
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,

    /// Emit the intents as LF-delimited JSON records on stdout instead of plain text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Run `smith compact`; the exit status, or a diagnostic with its status.
pub(crate) fn run(args: &CompactArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app_with_model(args.model.as_deref())?;
    report_notices(&app.settings.notices);
    let cwd = std::env::current_dir().map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("cannot tell the working directory: {e}; run smith from an existing directory"),
        )
    })?;
    let wanted = Target::named(&args.session);
    let asked = if wanted == Target::Latest {
        "`last` (the most recently written session of this directory)"
    } else {
        "SESSION"
    };
    let wording = |e: OpenError| match e {
        OpenError::Find(e) => command_error::find(
            &e,
            "SESSION",
            "list the sessions with `smith sessions list`",
        ),
        other => target::open_error(other, asked),
    };
    let existing = smith_app::runner::target::resolve(&app, &wanted, &cwd).map_err(wording)?;
    let spec = RunSpec {
        selection: super::selection(&app, existing.as_ref())?,
        thinking: app.thinking(),
        script: args.script.clone(),
    };
    let ready = app.ready(spec, &cwd, process_refusal)?;
    exit::redact_with(ready.redactor().clone());
    report_notices(ready.notices());
    let cancel = crate::interrupt::cancel();
    crate::interrupt::phase("ready");
    let wanted = existing.map_or(wanted, |(path, id)| Target::Existing { path, id });
    let opened = smith_app::runner::target::open(Arc::new(app), &wanted, &cwd, process_refusal)
        .map_err(wording)?;
    target::report_open_notices(&opened.notices);
    let mut runner = opened.runner;
    runner.adopt(ready).map_err(super::runner_error)?;
    let mut sink = EvalSink::new(args.json, cancel.clone());
    let request = CompactRequest {
        instructions: args.instructions.clone(),
        keep_tokens: args.keep_tokens,
        spec: None,
    };
    let outcome = runner.compact(request, &mut sink, &cancel);
    if let Err(e) = runner.close(true) {
        sink.diagnostic(&format!("note: closing the session: {e}"));
    }
    match outcome {
        Ok(compacted) => {
            if !args.json {
                crate::output::Out::new().line(&compacted.summary)?;
            }
            Ok(exit::SUCCESS)
        }
        Err(RunnerError::CompactionAborted) => Ok(exit::INTERRUPTED),
        // Said once more here: plain output showed it as a warning, JSON as a record.
        Err(e @ RunnerError::NothingToCompact(_)) => Err(CliError::usage(format!(
            "{e}; --keep-tokens N keeps less verbatim"
        ))),
        Err(RunnerError::Store(e)) => Err(command_error::store(&e)),
        Err(e @ RunnerError::Interrupted { session, .. }) => Err(CliError::usage(format!(
            "{e} (`smith eval --session {session}` with no prompt continues it)"
        ))),
        Err(_) => Ok(exit::RUN_FAILED),
    }
}
