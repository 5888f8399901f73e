//! `smith sessions`: read-only inspection of recorded sessions (`list`, `grep`, `get`,
//! `export`, `verify`, `receipts`, `watch`), and the commands that write — `fork` (a new
//! session), `import` (a new session from another tool's file), `select` and `edit` (appended under the writer lock), and `delete` and `prune`
//! (removed under it). The reading itself is
//! `smith_app::inspect`; these files print it and choose the exit statuses.

mod delete;
mod edit;
mod export;
mod fork;
mod get;
mod grep;
mod import;
mod list;
mod receipts;
mod render;
mod request;
mod select;
mod verify;
mod watch;

use std::path::PathBuf;

use clap::{Args, Subcommand};
use smith::SessionId;
use smith_app::SessionStore;
use smith_store::Skipped;

use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;
use delete::DELETE_AFTER_HELP;
use grep::GREP_AFTER_HELP;
use import::IMPORT_AFTER_HELP;

pub(crate) const SESSIONS_AFTER_HELP: &str = "\
Inspection (list, grep, get, verify) is read-only: it never repairs, truncates, locks or runs
anything, and works on a session another process is writing (it reads the complete committed
changes present when it starts; the writer's unfinished change is pending, not damage).
fork writes only a new session; select and edit append to the session and need the writer
lock, as delete and prune do to remove it (edit changes only what later requests show the model: get still shows the originals,
and get --request ATTEMPT shows what an attempt sent).
Sessions are the `.smith` files in $SMITH_HOME/sessions (else $XDG_DATA_HOME/smith/sessions);
an ID may be a unique prefix. Order: sessions by creation (their ids sort by time), entries
by id (append order); a session is a tree of entries and its selected leaf names the branch
that `smith eval --session` continues. Readable output by default; --json gives LF-delimited
records. A closed stdout ends quietly.

Damage: a torn tail (an interrupted write that was never acknowledged, so nothing acknowledged
is missing) is noted on stderr and not shown, with exit 0. Damaged changes whose frames can
still be delimited are skipped and named on stderr, and everything else is shown; damage that
hides the frame boundaries stops the read there. Either gives exit 3.

Exit status:
  0    success (grep: whether or not anything matched)
  1    a session or the sessions directory could not be read or written (permissions, I/O),
       or stdout failed
  2    bad arguments: unknown or ambiguous id, bad pattern, entry, limit or cursor
  3    a session is damaged or of an unknown format version (the others are still listed or
       searched; the damaged one is named on stderr)
  4    select, edit or delete refused: another process is writing the session

watch reads only complete committed changes, so it never shows a change half-written, and it
prints every entry from its position in commit order without skipping any; positions are
entry ids (1 to the next one to be committed). Ending it (Ctrl-C, a closed pipe,
--until-idle) changes nothing in the session or the run writing it.";

/// Arguments of `smith sessions`.
#[derive(Debug, Args)]
pub(crate) struct SessionsArgs {
    #[command(subcommand)]
    pub(crate) command: SessionsCommand,
}

/// `smith sessions` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum SessionsCommand {
    /// List sessions, oldest first: id, creation time, size, last model, working directory
    /// and title (the first prompt's first line).
    List(list::ListArgs),
    /// Search recorded messages and tool output with a regular expression.
    #[command(after_help = GREP_AFTER_HELP)]
    Grep(grep::GrepArgs),
    /// Print the entries of one session, a bounded page at a time (by id, or --branch).
    Get(get::GetArgs),
    /// Stream the whole session as JSONL, one record per entry (the records of `get --json`),
    /// for inspection and interchange; the `.smith` file stays the authority.
    Export(export::ExportArgs),
    /// Import a session file — Smith's own export, or Codex CLI, Claude Code or pi — as a
    /// session; prints its id.
    #[command(after_help = IMPORT_AFTER_HELP)]
    Import(import::ImportArgs),
    /// Copy a session's history up to an entry into a new session, published atomically;
    /// prints the new session's id.
    Fork(fork::ForkArgs),
    /// Change what later requests show the model of earlier messages and tool results —
    /// omit them or replace their text — as one validated batch on the selected branch;
    /// the entries keep their original content.
    Edit(edit::EditArgs),
    /// Select the branch ending at ENTRY; the next `smith eval --session ID` continues there,
    /// beside the existing branches (nothing is deleted).
    Select(select::SelectArgs),
    /// List a session's submissions with their receipts: key, model, and how the work ended
    /// (or that no end is recorded), rebuilt from the file alone.
    Receipts(receipts::ReceiptsArgs),
    /// Follow a session as it is written: print its committed entries from a position, then
    /// each new commit, with no gap (Ctrl-C ends the watching, never the work).
    Watch(watch::WatchArgs),
    /// Read a whole session and check every frame, record and index; exit 3 on damage.
    Verify(verify::VerifyArgs),
    /// Delete sessions (refused for one being written), listing each, then the working-tree
    /// snapshots no remaining session references.
    #[command(after_help = DELETE_AFTER_HELP)]
    Delete(delete::DeleteArgs),
    /// Delete the sessions last written longer ago than --older-than (keeping the --keep
    /// newest), as `delete` does, listing each.
    #[command(after_help = DELETE_AFTER_HELP)]
    Prune(delete::PruneArgs),
}

/// `smith sessions …`.
pub(crate) fn run(args: SessionsArgs) -> Result<u8, CliError> {
    let paths = smith_app::Paths::from_env();
    command_error::check_home(&paths)?;
    let store = SessionStore::new(paths.sessions().map_err(|e| command_error::no_home(&e))?);
    // Inspection shows references, never plaintext — also of sessions written before a secret
    // was registered.
    match smith_app::secrets::for_inspection(&paths) {
        Ok(secrets) => crate::exit::redact_with(secrets.redactor),
        Err(e) => return Err(command_error::secrets(&e)),
    }
    let mut out = Out::new();
    let status = match args.command {
        SessionsCommand::List(a) => list::run(&store, &a, &mut out),
        SessionsCommand::Grep(a) => grep::run(&store, &a, &mut out),
        SessionsCommand::Get(a) => get::run(&store, &a, &mut out),
        SessionsCommand::Export(a) => export::run(&store, &a, &mut out),
        SessionsCommand::Verify(a) => verify::run(&store, &a, &mut out),
        SessionsCommand::Receipts(a) => receipts::run(&store, &a, &mut out),
        SessionsCommand::Watch(a) => watch::run(&store, &a, &mut out),
        SessionsCommand::Fork(a) => fork::run(&store, &a, &mut out),
        SessionsCommand::Import(a) => import::run(&store, &a, &mut out),
        SessionsCommand::Select(a) => select::run(&store, &a, &mut out),
        SessionsCommand::Edit(a) => edit::run(&store, &a, &mut out),
        SessionsCommand::Delete(a) => delete::delete(&store, &a, &mut out),
        SessionsCommand::Prune(a) => delete::prune(&store, &a, &mut out),
    };
    out.finish();
    status
}

/// The session `wanted` names (an id or a unique prefix; `last`: the session most recently
/// written among those started in this directory, else in the nearest directory above it in
/// its project).
pub(crate) fn find(store: &SessionStore, wanted: &str) -> Result<(PathBuf, SessionId), CliError> {
    if wanted == smith_app::runner::target::LAST {
        let cwd = command_error::current_dir()?;
        return store
            .latest_near(&cwd)
            .map_err(|e| {
                CliError::new(
                    crate::exit::RUN_FAILED,
                    format!(
                        "cannot list the sessions directory {}: {e}; make it readable, or name the session by its id",
                        store.dir().display()
                    ),
                )
            })?
            .ok_or_else(|| {
                CliError::usage(format!(
                    "`last`: no session in {} was started in this directory ({}) or above it in its project; name one by its id (`smith sessions list` lists them)",
                    store.dir().display(),
                    cwd.display()
                ))
            });
    }
    store.find(wanted).map_err(|e| {
        command_error::find(
            &e,
            "session id",
            "a run creates one: smith eval -m scripted/demo \"Hello\"",
        )
    })
}

/// The sessions of `store`, oldest first.
fn sessions(store: &SessionStore) -> Result<Vec<(SessionId, PathBuf)>, CliError> {
    store.list().map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!(
                "cannot read the sessions directory {}: {e}; SMITH_HOME (or XDG_DATA_HOME) must lead to a readable directory",
                store.dir().display()
            ),
        )
    })
}

/// Report a session that could not be read, and the status it earns: 3 for damage or an
/// unknown version, 1 for an I/O failure (permissions, a directory in its place…).
fn unreadable(e: &smith_store::Error) -> u8 {
    let status = command_error::store_status(e);
    if status == exit::DAMAGED {
        exit::report(&format!(
            "damaged session: {}",
            command_error::store_message(e)
        ));
    } else {
        exit::report(&format!(
            "cannot read session: {}",
            command_error::store_message(e)
        ));
    }
    status
}

/// The worse of two statuses (damage outranks an I/O failure, which outranks success).
fn worst(a: u8, b: u8) -> u8 {
    let rank = |s: u8| match s {
        exit::DAMAGED => 2,
        exit::SUCCESS => 0,
        _ => 1,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Name the damaged changes a read skipped on stderr (suggesting `verify` when asked); whether
/// there were any.
pub(crate) fn report_skipped(id: &SessionId, skipped: &[Skipped], suggest_verify: bool) -> bool {
    for s in skipped {
        let ids = s
            .entries
            .map(|(a, b)| format!(" (entries {a}..={b} withheld)"))
            .unwrap_or_default();
        let hint = if suggest_verify {
            format!("; run `smith sessions verify {id}`")
        } else {
            String::new()
        };
        exit::report(&format!(
            "damaged session {id}: skipped {} bytes at byte {}{ids}: {} at byte {}{hint}",
            s.len, s.offset, s.reason, s.damage_at
        ));
    }
    !skipped.is_empty()
}
