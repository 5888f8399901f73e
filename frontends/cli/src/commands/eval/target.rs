//! Which session an eval records into, decided before anything is written: a temporary store
//! (`--no-session`), an existing session (`--session ID`, `--continue` / `--session last`,
//! or `--session-id ID` when that session exists), a new session with the caller's id
//! (`--session-id ID`, create-or-continue, so a retried first prompt with a dedup key is one
//! admission), or a new one. The targets and their opening are `smith_app::runner::target`'s;
//! this module reads them from the flags and words their errors with the flags' names.

use std::path::{Path, PathBuf};

use smith::SessionId;
use smith_app::App;
use smith_app::runner::target::{OpenError, Target};

use super::EvalArgs;
use crate::command_error::{self, CliError};
use crate::exit;

pub(crate) use smith_app::runner::target::LAST;

/// The target of `args`; `None` for a temporary store (`--no-session`).
pub(super) fn of(args: &EvalArgs) -> Result<Option<Target>, CliError> {
    if args.no_session {
        return Ok(None);
    }
    if args.continue_latest {
        return Ok(Some(Target::Latest));
    }
    if let Some(wanted) = &args.session {
        return Ok(Some(Target::named(wanted)));
    }
    let Some(wanted) = args.session_id.as_deref() else {
        return Ok(Some(Target::New));
    };
    let id: SessionId = wanted.parse().map_err(|e: smith::SessionIdError| {
        CliError::usage(format!(
            "--session-id {e}; name the new session with a UUID, e.g. one from `uuidgen`"
        ))
    })?;
    Ok(Some(Target::Named(id)))
}

/// The flag that named `target`, for its errors.
pub(crate) fn asked(target: &Target, continue_flag: bool) -> &'static str {
    match target {
        Target::Latest if continue_flag => "--continue",
        Target::Latest => "--session last",
        Target::Named(_) => "--session-id",
        _ => "--session",
    }
}

/// The session file `target` names, if it exists yet.
pub(crate) fn resolve(
    app: &App,
    target: &Target,
    cwd: &Path,
    asked: &str,
) -> Result<Option<(PathBuf, SessionId)>, CliError> {
    smith_app::runner::target::resolve(app, target, cwd).map_err(|e| open_error(e, asked))
}

/// The most recently written session of `cwd` (or of the nearest directory above it in its project), for a
/// command whose session argument said `last`: `asked` names it in the errors.
pub(crate) fn latest(app: &App, cwd: &Path, asked: &str) -> Result<(PathBuf, SessionId), CliError> {
    resolve(app, &Target::Latest, cwd, asked)?
        .ok_or_else(|| CliError::usage(format!("{asked}: no session found")))
}

/// A failure opening the target `asked` named, with the fix.
pub(crate) fn open_error(e: OpenError, asked: &str) -> CliError {
    match e {
        OpenError::NoHome(e) => command_error::no_home(&e),
        OpenError::Find(e) => {
            command_error::find(&e, asked, &format!("omit {asked} to start a new session"))
        }
        OpenError::Create(smith_app::CreateError::Store(e)) => store_error(&e, false),
        OpenError::Create(e) => command_error::create(&e),
        OpenError::CwdNotUtf8 => CliError::usage(format!(
            "{asked} continues the most recently written session of this directory, but its path is not UTF-8, so no session records it; name the session with --session ID"
        )),
        OpenError::NoLatest { dir, cwd } => CliError::usage(format!(
            "{asked}: no session in {} was started in this directory ({cwd}) or above it in its project; start one here (e.g. `smith eval -m scripted/demo \"Hello\"`), or name one by its id (`smith sessions list` lists them)",
            dir.display()
        )),
        OpenError::List { dir, source } => CliError::new(
            exit::RUN_FAILED,
            format!(
                "{asked}: cannot list the sessions directory {}: {source}; make it readable, or name the session with --session ID",
                dir.display()
            ),
        ),
        e @ OpenError::Fork { .. } => CliError::usage(e.to_string()),
        OpenError::Store(e) => store_error(&e, true),
    }
}

/// A store failure opening (`existing`) or creating the run's session, with the fix.
pub(crate) fn store_error(e: &smith_store::Error, existing: bool) -> CliError {
    let status = command_error::store_status(e);
    let full = matches!(e, smith_store::Error::Io { source, .. } if source.kind() == std::io::ErrorKind::StorageFull);
    let hint = match status {
        exit::DAMAGED => {
            // Said once: the store's own words would repeat that nothing was changed. A fork
            // at an intact entry is the way on (a writer cannot open the damaged file to
            // select one); a file with no readable entries has only a new session.
            return CliError::new(
                status,
                match e {
                    smith_store::Error::Corrupt {
                        path,
                        offset,
                        reason,
                    } => format!(
                        "`{}` is damaged at byte {offset}: {reason}. The file is left unchanged: `smith sessions verify` shows what is intact, `smith sessions fork ID --at ENTRY` continues from an intact entry in a new session, or omit --session to start afresh.",
                        path.display()
                    ),
                    other => {
                        let said = command_error::store_message(other);
                        if said.contains("not changed") {
                            said
                        } else {
                            format!(
                                "{said}. The file is left unchanged; omit --session to start a new session."
                            )
                        }
                    }
                },
            );
        }
        exit::RUN_FAILED if full => {
            " The disk is full: free space on it, or set SMITH_HOME to a directory on another disk; nothing was left behind."
        }
        exit::RUN_FAILED if existing => {
            " The session file must be a regular file you can read and write; fix its permissions, or omit --session to start a new session."
        }
        exit::RUN_FAILED => {
            " Make the sessions directory writable, set SMITH_HOME to a writable directory, or pass --no-session."
        }
        _ => return command_error::store(e),
    };
    CliError::new(
        status,
        format!("{}.{hint}", command_error::store_message(e)),
    )
}

/// Say what opening a session had to tell (recovery, skipped damage) on stderr.
pub(crate) fn report_open_notices(notices: &[smith_app::runner::target::OpenNotice]) {
    use smith_app::runner::target::OpenNotice;
    for notice in notices {
        match notice {
            OpenNotice::Skipped { id, .. } => {
                note(&format!("{notice} — see `smith sessions verify {id}`"))
            }
            OpenNotice::Recovered { .. } => note(&notice.to_string()),
            OpenNotice::UnknownEffects { id, .. } => note(&format!(
                "{notice} — `smith effects {id}` lists them and records your verdict"
            )),
            OpenNotice::StartedElsewhere { started, .. } => {
                note(&format!("{notice} (run smith in {started} to work there)"))
            }
            OpenNotice::Settled { .. } => note(&notice.to_string()),
            OpenNotice::Interrupted { id, .. } => note(&format!(
                "{notice} — `smith eval --session {id}` with no prompt continues it, a prompt settles it"
            )),
        }
    }
}

/// Write `note: TEXT` to stderr.
pub(crate) fn note(text: &str) {
    exit::report(&format!("note: {text}"));
}
