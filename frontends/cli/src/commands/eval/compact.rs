//! `smith compact SESSION`: compact a recorded session now — the selected model summarizes its
//! context before the recent part kept verbatim, and later requests start from the summary
//! (the compaction guide). Shares eval's session target, sink and interrupt handling: the
//! same intents, plain or as JSON lines.

use std::path::PathBuf;

use clap::Args;
use smith::Cancel;
use smith_agent::{Agent, Compact, CompactError};
use smith_app::RunSpec;
use smith_ui_intents::RedactingSink;

use super::sink::EvalSink;
use super::target::{self, Target};
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
    /// The session (a unique prefix of its id is enough; `last`: the latest session started
    /// in this directory).
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
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    let target = if args.session == super::target::LAST {
        target::latest(&store, cwd.to_str(), false)?
    } else {
        let (path, id) = store.find(&args.session).map_err(|e| {
            command_error::find(
                &e,
                "SESSION",
                "list the sessions with `smith sessions list`",
            )
        })?;
        Target::Existing { path, id }
    };
    let selection = super::selection(&app, &target)?;
    let spec = RunSpec {
        selection,
        thinking: app.thinking(),
        script: args.script.clone(),
    };
    let prepared = app.prepare(&spec)?;
    exit::redact_with(prepared.secrets.redactor.clone());
    report_notices(&prepared.notices);
    let mut policy = app.policy(&cwd, &process_refusal)?;
    policy.secrets = prepared.secrets.redactor.clone();
    let cancel = Cancel::new();
    super::install_interrupt_handler(&cancel);
    let (mut session, _) = target::open(&app, target, cwd.to_str().map(str::to_owned))?;
    session
        .register_secrets(
            prepared.secrets.redactor.clone(),
            &prepared.secrets.registrations,
        )
        .map_err(|e| command_error::store(&e))?;
    let mut sink = EvalSink::new(args.json, cancel.clone());
    let mut shown = RedactingSink::new(&mut sink, prepared.secrets.redactor.clone());
    let tools = prepared.tools.with_policy(policy);
    let compact = Compact {
        model: &spec.selection,
        instructions: args.instructions.as_deref(),
        keep_tokens: args.keep_tokens,
    };
    let outcome = Agent::routed(&prepared.route, &tools, app.run_limits())
        .with_lifecycle(&tools)
        .with_compaction(app.compaction_policy())
        .in_dir(cwd)
        .compact(&mut session, compact, &mut shown, &cancel);
    drop(shown);
    if let Err(e) = session.close() {
        sink.diagnostic(&format!("note: closing the session: {e}"));
    }
    match (outcome.compacted, outcome.error) {
        (Some(compacted), _) => {
            if !args.json {
                crate::output::Out::new().line(&compacted.summary)?;
            }
            Ok(exit::SUCCESS)
        }
        (None, Some(CompactError::Aborted)) => Ok(exit::INTERRUPTED),
        // Said once more here: plain output showed it as a warning, JSON as a record.
        (None, Some(e @ CompactError::Nothing { .. })) => Err(CliError::usage(format!(
            "{e}; --keep-tokens N keeps less verbatim"
        ))),
        (None, Some(CompactError::Run(smith_agent::RunError::Store(e)))) => {
            Err(command_error::store(&e))
        }
        (None, _) => Ok(exit::RUN_FAILED),
    }
}
