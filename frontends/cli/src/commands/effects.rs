//! `smith effects ID`: the effects of a session whose outcome is unknown, with their evidence
//! and any verdict; `smith effects reconcile ID EFFECT applied|not-applied --note TEXT`
//! records a verdict (`smith_app::verdicts`).

use clap::{Args, Subcommand, ValueEnum};
use smith::EffectOutcome;
use smith_app::SessionStore;
use smith_app::verdicts::{self, ReconcileError, UnknownEffect};

use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

pub(crate) const EFFECTS_AFTER_HELP: &str = "\
An effect's outcome is unknown when the process running it ended between its intent and its
completion (a crash, a kill, a power loss), or when what a program changed could not be
judged. Smith never retries such an effect. Look at what it did (the target, the evidence,
your files), then record what you found: the verdict is kept beside the original record and
its evidence, which stay as they were; replay shows it and re-execution compares against it.
A later verdict on the same effect replaces an earlier one.

Exit status: 0 success; 1 the session could not be read or written; 2 bad arguments (unknown
session or effect, an effect whose outcome is known, a note over 4096 bytes); 4 another
process is writing the session (reconcile once it is done).";

/// Arguments of `smith effects`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct EffectsArgs {
    #[command(subcommand)]
    pub(crate) command: Option<EffectsCommand>,
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: Option<String>,
    /// One JSON record per effect.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `smith effects` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum EffectsCommand {
    /// Record your verdict on an effect whose outcome is unknown.
    Reconcile(ReconcileArgs),
}

/// Arguments of `smith effects reconcile`.
#[derive(Debug, Args)]
pub(crate) struct ReconcileArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// The effect's id, as `smith effects ID` lists it.
    #[arg(value_name = "EFFECT")]
    pub(crate) effect: String,
    /// What you found.
    #[arg(value_name = "VERDICT")]
    pub(crate) verdict: VerdictArg,
    /// Why: what you checked (kept with the verdict; at most 4096 bytes).
    #[arg(long, default_value = "")]
    pub(crate) note: String,
}

/// A verdict as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum VerdictArg {
    /// The effect happened.
    Applied,
    /// The effect did not happen.
    NotApplied,
}

/// `smith effects …`.
pub(crate) fn run(args: EffectsArgs) -> Result<u8, CliError> {
    let paths = smith_app::Paths::from_env();
    command_error::check_home(&paths)?;
    let store = SessionStore::new(paths.sessions().map_err(|e| command_error::no_home(&e))?);
    match smith_app::secrets::for_inspection(&paths) {
        Ok(secrets) => exit::redact_with(secrets.redactor),
        Err(e) => return Err(command_error::secrets(&e)),
    }
    let mut out = Out::new();
    let status = match args.command {
        Some(EffectsCommand::Reconcile(a)) => reconcile(&store, &a, &mut out),
        None => match &args.id {
            Some(id) => list(&store, id, args.json, &mut out),
            None => Err(CliError::usage(
                "name a session: smith effects ID (`smith sessions list` lists them; `last` is the latest here)",
            )),
        },
    };
    out.finish();
    status
}

fn list(store: &SessionStore, wanted: &str, json: bool, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = crate::commands::sessions::find(store, wanted)?;
    let listing = verdicts::list(&path).map_err(|e| read_error(id, &e))?;
    let status = if crate::commands::sessions::report_skipped(&id, &listing.skipped, true) {
        exit::report(
            "an effect recorded in a damaged change is not known, so the list may be short of it",
        );
        exit::DAMAGED
    } else {
        exit::SUCCESS
    };
    if listing.effects.is_empty() && !json {
        exit::report(&format!("session {id} has no effect of unknown outcome"));
        return Ok(status);
    }
    for e in &listing.effects {
        let more = if json {
            out.json(e)?
        } else {
            out.line(&describe(e))?
        };
        if !more {
            break;
        }
    }
    Ok(status)
}

/// `text` on one line: line breaks shown as ` ⏎ `, at most 300 characters (cut with `…`).
fn one_line(text: &str) -> String {
    let flat = text.trim().replace("\r\n", "\n").replace('\n', " ⏎ ");
    if flat.chars().count() <= 300 {
        return flat;
    }
    let mut cut: String = flat.chars().take(299).collect();
    cut.push('…');
    cut
}

/// One effect in a few readable lines, each field on one line.
fn describe(e: &UnknownEffect) -> String {
    let mut text = format!(
        "{}  {} {}  (call {}, {})",
        one_line(&e.address),
        one_line(&e.effect),
        one_line(e.target.as_deref().unwrap_or("-")),
        one_line(&e.call_id),
        one_line(&e.plugin)
    );
    if !e.input.is_null() {
        text.push_str(&format!("\n  asked: {}", one_line(&e.input.to_string())));
    }
    match &e.output {
        Some(output) => text.push_str(&format!("\n  recorded: unknown — {}", one_line(output))),
        None => text.push_str("\n  recorded: no completion (the session was not opened since)"),
    }
    if !e.evidence.is_null() {
        text.push_str(&format!(
            "\n  evidence: {}",
            one_line(&e.evidence.to_string())
        ));
    }
    match &e.verdict {
        Some(v) => text.push_str(&format!(
            "\n  verdict: {} at {} UTC{}",
            v.outcome.as_str(),
            smith_app::inspect::format_utc(u64::try_from(v.timestamp_ms).unwrap_or(0)),
            if v.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", one_line(&v.note))
            }
        )),
        None => text.push_str(
            "\n  verdict: none yet (smith effects reconcile ID EFFECT applied|not-applied --note …)",
        ),
    }
    text
}

fn reconcile(store: &SessionStore, args: &ReconcileArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = crate::commands::sessions::find(store, &args.id)?;
    let outcome = match args.verdict {
        VerdictArg::Applied => EffectOutcome::Applied,
        VerdictArg::NotApplied => EffectOutcome::NotApplied,
    };
    let done = verdicts::reconcile(&path, id, &args.effect, outcome, &args.note).map_err(|e| {
        match e {
            ReconcileError::Store(smith_store::Error::Locked { .. }) => CliError::new(
                exit::REFUSED,
                format!(
                    "cannot record the verdict in session {id}: another Smith process is writing it; reconcile once that process has finished with it"
                ),
            ),
            ReconcileError::Store(e) => CliError::new(
                command_error::store_status(&e),
                format!(
                    "cannot record the verdict in session {id}: {}",
                    command_error::store_message(&e)
                ),
            ),
            ReconcileError::NoSuchEffect { .. } | ReconcileError::Ambiguous { .. } => {
                CliError::usage(one_line(&format!("{e}; `smith effects {id}` lists them")))
            }
            other => CliError::usage(one_line(&format!("{other}; nothing was recorded"))),
        }
    })?;
    if let Some(earlier) = &done.replaced {
        exit::report(&format!(
            "this verdict replaces the earlier one ({}, entry {})",
            earlier.outcome.as_str(),
            earlier.entry
        ));
    }
    out.line(&format!(
        "session {id}: effect {} ({} {}) reconciled as {} (entry {})",
        one_line(&done.effect.address),
        one_line(&done.effect.effect),
        one_line(done.effect.target.as_deref().unwrap_or("-")),
        outcome.as_str(),
        done.entry
    ))?;
    Ok(exit::SUCCESS)
}

fn read_error(id: smith::SessionId, e: &smith_store::Error) -> CliError {
    CliError::new(
        command_error::store_status(e),
        format!(
            "cannot read session {id}: {}",
            command_error::store_message(e)
        ),
    )
}
