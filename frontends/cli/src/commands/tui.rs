//! `smith` with no subcommand: the fullscreen terminal UI (`smith-tui`). This module checks
//! that stdin and stdout are a terminal, decides the session (new, `--session ID`,
//! `--continue`), opens it as its writer or — when another process writes it — as a
//! read-only observer, and maps how the UI ended to an exit status.

use std::io::IsTerminal;
use std::sync::Arc;

use clap::Args;
use smith_app::runner::target::{self, Access, Target};
use smith_tui::{Exit, Opening, Options};
use smith_ui_intents::NoticeLevel;

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::exit;

/// What `smith` (the terminal UI) takes besides the global options.
#[derive(Debug, Args)]
pub(crate) struct TuiArgs {
    /// The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of
    /// models.kdl; default: the `model` setting, else the model the session last recorded.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,

    /// Open the existing session ID (a unique prefix is enough; `last`: the session most
    /// recently written among those started in this directory, else in the nearest directory
    /// above it in its project). Held by another Smith process, it opens read-only.
    #[arg(long, value_name = "ID", conflicts_with = "continue_latest")]
    pub(crate) session: Option<String>,

    /// Continue the session most recently written among those started in this directory,
    /// else in the nearest directory above it in its project (same as --session last).
    #[arg(long = "continue")]
    pub(crate) continue_latest: bool,

    /// Play this provider script (scripted provider only), as `smith eval --script` does.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<std::path::PathBuf>,
}

impl TuiArgs {
    /// The first of these options given (as written on the command line), if any: they
    /// apply to the terminal UI only, so one given with a subcommand is refused.
    pub(crate) fn given(&self) -> Option<&'static str> {
        [
            (self.model.is_some(), "--model"),
            (self.session.is_some(), "--session"),
            (self.continue_latest, "--continue"),
            (self.script.is_some(), "--script"),
        ]
        .into_iter()
        .find_map(|(set, flag)| set.then_some(flag))
    }
}

/// Run the terminal UI; the exit status, or a diagnostic with its status.
pub(crate) fn run(args: &TuiArgs, global: &Global) -> Result<u8, CliError> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(CliError::usage(
            "the terminal UI needs a terminal on stdin and stdout, and one of them is a pipe or a file; for scripts and pipes run one turn with `smith eval \"PROMPT\"` (e.g. `smith eval --model scripted/demo \"Hello\"`), or serve a program with `smith rpc`",
        ));
    }
    smith_store::holder::set_frontend("tui");
    let app = global.app_with_model(args.model.as_deref())?;
    // A model named by --model or the `model` setting that does not resolve is refused here,
    // before the terminal is taken, as `smith eval` refuses it (exit 2 with the fix).
    if app.settings.resolved.get("model").is_some() {
        app.checked_selection()?;
    }
    let mut notices: Vec<(NoticeLevel, String)> = app
        .settings
        .notices
        .iter()
        .map(|n| {
            let level = if n.is_warning() {
                NoticeLevel::Warning
            } else {
                NoticeLevel::Info
            };
            (level, n.to_string())
        })
        .collect();
    let cwd = command_error::current_dir()?;
    let (wanted, asked) = match (&args.session, args.continue_latest) {
        (_, true) => (Target::Latest, "--continue"),
        (Some(wanted), false) => (Target::named(wanted), "--session"),
        (None, false) => (Target::New, "--session"),
    };
    let asked = if wanted == Target::Latest && !args.continue_latest {
        "--session last"
    } else {
        asked
    };
    let app = Arc::new(app);
    let opening = match target::open_or_observe(Arc::clone(&app), &wanted, &cwd, smith_tui::refusal)
        .map_err(|e| crate::commands::eval::target::open_error(e, asked))?
    {
        Access::Writer(opened) => {
            notices.extend(smith_tui::open_notices(&opened.notices));
            Opening::Writer {
                runner: Box::new(opened.runner),
            }
        }
        Access::Observer {
            path,
            id,
            notices: said,
        } => {
            notices.extend(smith_tui::open_notices(&said));
            Opening::Observer { path, id }
        }
    };
    let outcome = smith_tui::run(Options {
        app,
        cwd,
        opening,
        notices,
        script: args.script.clone(),
    })
    .map_err(|e| match e {
        smith_tui::TuiError::Product(e) => CliError::usage(format!(
            "{e} (`smith config check` checks the whole configuration; `smith docs get commands` explains keys and themes)"
        )),
        e => CliError::new(
            exit::RUN_FAILED,
            format!("{e}; the terminal was restored and the session keeps everything acknowledged (resume it with `smith --continue`)"),
        ),
    })?;
    Ok(ended(outcome))
}

/// The exit status of a terminal UI that ended as `outcome`, after saying on stderr — the
/// terminal restored — how to come back to the session it left (Codex and Claude Code say
/// the same on leaving).
pub(crate) fn ended(outcome: smith_tui::Ended) -> u8 {
    if let Some(id) = outcome.resume {
        exit::report(&format!("resume this session with: smith --session {id}"));
    }
    match outcome.exit {
        Exit::Quit => exit::SUCCESS,
        Exit::Signal(n) => u8::try_from(128 + n).unwrap_or(exit::INTERRUPTED),
        Exit::TerminalLost => exit::RUN_FAILED,
    }
}
