//! `smith undo`, `smith redo`, `smith restore` and `smith diff`: take back what a session's
//! tool batches did to the working tree, replay it, travel to the state at any recorded entry,
//! and show the changes as a git-format diff (the undo/restore guide). The operations are
//! `smith_app::history`'s; this module parses, prints (secrets as references) and chooses
//! exit statuses.

use std::path::PathBuf;

use clap::Args;
use smith::SessionId;
use smith_app::history::{Moved, OpError, ProjectHistory, Step};
use smith_vcs::VcsError;

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::write_stdout;

/// What `smith undo --help` (and redo, restore) add.
pub(crate) const UNDO_AFTER_HELP: &str = "\
Steps: every tool batch that changed the working tree is one step (its snapshots are taken
before its first call and after its last, for file tools and `bash` alike); a restore is one
too. Undo takes the latest step back (--turn: every latest step of its turn); redo replays
what the latest undo took back, until a new change clears it. Each undo, redo and restore is
recorded in the session, so it can be taken back in turn.

Refusals change nothing: a working tree changed since the session last recorded it (add
--snapshot-first to keep those changes in a snapshot and go on), a snapshot of another
project, a write through a symbolic link, a file no snapshot holds (ignored or over
history.max-file-bytes) that would be overwritten or deleted.

Exit status:
  0    done: the paths written and deleted are listed on stdout
  1    refused or failed; the working tree is unchanged (the reason on stderr)
  2    usage error: nothing to undo or redo, no such snapshot or entry, a snapshot or session
       of another project, a restore to the state the tree already holds (nothing recorded)
  3    the session file is damaged or of a format version this Smith does not read
  4    the session is open for writing by another Smith process";

/// What `smith diff --help` adds.
pub(crate) const DIFF_AFTER_HELP: &str = "\
FROM and TO are snapshot ids (7 to 40 hexadecimal digits, as `smith sessions get` shows in
vcs records) or entry ids of the session (the state of the working tree at that entry).
Without FROM: the session's latest change of the tree. Without TO: to the working tree as it
is now. The output is a unified diff in git's format (`git apply` takes it), secrets shown as
references; --stat gives git's summary; --json one record with every file's change, modes,
counts and patch.";

/// The session an operation works on.
#[derive(Debug, Args)]
pub(crate) struct SessionArg {
    /// The session (a unique prefix of its id; `last`, the default: the session most
    /// recently written among those started in this directory, else in the nearest directory
    /// above it in its project).
    #[arg(long, value_name = "ID", default_value = "last")]
    pub(crate) session: String,
}

/// Arguments of `smith undo` and `smith redo`.
#[derive(Debug, Args)]
pub(crate) struct UndoArgs {
    #[command(flatten)]
    pub(crate) session: SessionArg,
    /// Take back (or replay) every latest step of the same turn.
    #[arg(long)]
    pub(crate) turn: bool,
    /// Keep changes made since the session last recorded the tree in a snapshot and go on,
    /// instead of refusing.
    #[arg(long)]
    pub(crate) snapshot_first: bool,
    /// Print the result as one JSON record.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `smith restore`.
#[derive(Debug, Args)]
pub(crate) struct RestoreArgs {
    /// A snapshot id, or an entry id of the session (the state of the tree at it).
    #[arg(value_name = "SNAPSHOT|ENTRY")]
    pub(crate) target: String,
    #[command(flatten)]
    pub(crate) session: SessionArg,
    /// Keep changes made since the session last recorded the tree in a snapshot and go on,
    /// instead of refusing.
    #[arg(long)]
    pub(crate) snapshot_first: bool,
    /// Print the result as one JSON record.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `smith diff`.
#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// Where the diff starts: a snapshot id or an entry id.
    #[arg(value_name = "FROM")]
    pub(crate) from: Option<String>,
    /// Where it ends (default: the working tree now).
    #[arg(value_name = "TO", requires = "from")]
    pub(crate) to: Option<String>,
    #[command(flatten)]
    pub(crate) session: SessionArg,
    /// git's `--stat` summary instead of the patch.
    #[arg(long, conflicts_with = "json")]
    pub(crate) stat: bool,
    /// One JSON record with every file's change.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Which change an undo-like command makes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Verb {
    Undo,
    Redo,
}

struct Opened {
    history: ProjectHistory,
    path: PathBuf,
    id: SessionId,
    redactor: smith_secrets::Shared,
}

fn open(global: &Global, session: &SessionArg) -> Result<Opened, CliError> {
    let app = global.app(&[])?;
    let cwd = command_error::current_dir()?;
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    let (path, id) = if session.session == crate::commands::eval::target::LAST {
        crate::commands::eval::target::latest(
            &app,
            &cwd,
            "`last` (the most recently written session of this directory)",
        )?
    } else {
        store.find(&session.session).map_err(|e| {
            command_error::find(
                &e,
                "--session",
                "list the sessions with `smith sessions list`",
            )
        })?
    };
    let history = app.open_history(&cwd).map_err(|e| op_error(&e))?;
    let redactor = app
        .secrets()
        .map(|s| s.redactor)
        .map_err(|e| CliError::new(exit::RUN_FAILED, e.to_string()))?;
    Ok(Opened {
        history,
        path,
        id,
        redactor,
    })
}

/// An operation's error with its status and this command line's fix.
fn op_error(e: &OpError) -> CliError {
    match e {
        OpError::NoHome(home) => command_error::no_home(home),
        OpError::Store(s) => command_error::store(s),
        OpError::NothingToUndo { .. } | OpError::NothingToRedo { .. } => CliError::usage(format!(
            "{e}; `smith diff` shows the latest change, `smith sessions get` the session's vcs records"
        )),
        OpError::Unchanged { .. } => CliError::usage(e.to_string()),
        OpError::NoChanges { .. } => CliError::usage(format!(
            "{e}: no tool batch of it changed a file (or history.snapshots was off)"
        )),
        OpError::OtherProject { recorded, .. } => CliError::usage(format!(
            "{e}; run the command in `{recorded}`, or name another session with --session ID"
        )),
        OpError::UnknownEntry { .. } => CliError::usage(format!(
            "{e}; `smith sessions get SESSION` lists its entries"
        )),
        OpError::Unrecorded { .. } => CliError::new(exit::RUN_FAILED, e.to_string()),
        OpError::Vcs(v) => match v {
            VcsError::BadId { .. }
            | VcsError::UnknownSnapshot { .. }
            | VcsError::Ambiguous { .. } => CliError::usage(e.to_string()),
            VcsError::Changed { since, .. } => CliError::new(
                exit::RUN_FAILED,
                format!(
                    "{e}; nothing was changed: `smith diff {}` shows these changes, and --snapshot-first keeps them in a snapshot (named in the result) and goes on",
                    since.short()
                ),
            ),
            VcsError::Unsnapshotted { .. } | VcsError::ThroughLink { .. } => CliError::new(
                exit::RUN_FAILED,
                format!(
                    "{e}; nothing was changed: move it out of the way and run the command again"
                ),
            ),
            // It says itself what became of the tree.
            VcsError::Partial(_) => CliError::new(exit::RUN_FAILED, e.to_string()),
            _ => CliError::new(exit::RUN_FAILED, format!("{e}; nothing was changed")),
        },
    }
}

/// Print what an operation did.
fn report(moved: &Moved, json: bool, redactor: &smith_secrets::Shared) -> Result<u8, CliError> {
    let redactor = redactor.current();
    let text = if json {
        format!("{}\n", moved.to_json())
    } else {
        moved.summary()
    };
    write_stdout(&redactor.redact(&text))
}

/// Run `smith undo` or `smith redo`.
pub(crate) fn undo(verb: Verb, args: &UndoArgs, global: &Global) -> Result<u8, CliError> {
    let opened = open(global, &args.session)?;
    let step = Step {
        turn: args.turn,
        snapshot_first: args.snapshot_first,
    };
    let moved = match verb {
        Verb::Undo => opened.history.undo(&opened.path, opened.id, step),
        Verb::Redo => opened.history.redo(&opened.path, opened.id, step),
    }
    .map_err(|e| op_error(&e))?;
    report(&moved, args.json, &opened.redactor)
}

/// Run `smith restore`.
pub(crate) fn restore(args: &RestoreArgs, global: &Global) -> Result<u8, CliError> {
    let opened = open(global, &args.session)?;
    let moved = opened
        .history
        .restore(&opened.path, opened.id, &args.target, args.snapshot_first)
        .map_err(|e| op_error(&e))?;
    report(&moved, args.json, &opened.redactor)
}

/// Run `smith diff`.
pub(crate) fn diff(args: &DiffArgs, global: &Global) -> Result<u8, CliError> {
    let opened = open(global, &args.session)?;
    let diff = opened
        .history
        .diff(
            &opened.path,
            opened.id,
            args.from.as_deref(),
            args.to.as_deref(),
        )
        .map_err(|e| op_error(&e))?;
    // Names are redacted before --stat aligns them, so the padding tells nothing of a secret.
    let redactor = opened.redactor.current();
    let mut diff = diff;
    for file in &mut diff.files {
        file.path = redactor.redact(&file.path).into_owned();
    }
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string(&diff)
                .map_err(|e| CliError::new(exit::RUN_FAILED, e.to_string()))?
        )
    } else if args.stat {
        diff.stat_text()
    } else {
        diff.unified()
    };
    write_stdout(&redactor.redact(&text))
}
