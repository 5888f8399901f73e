//! Which session an eval records into, decided before anything is written: a temporary store
//! (`--no-session`), an existing session (`--session ID`, `--continue` / `--session last`,
//! or `--session-id ID` when that session exists), a new session with the caller's id
//! (`--session-id ID`, create-or-continue, so a retried first prompt with a dedup key is one
//! admission), or a new one.

use std::path::PathBuf;

use smith::SessionId;
use smith_agent::Session;
use smith_app::{App, CreateError, SessionStore, TempStore};

use super::EvalArgs;
use crate::command_error::{self, CliError};
use crate::exit;

/// The session target of one eval.
pub(crate) enum Target {
    /// A temporary store, removed after a successful run.
    Temporary,
    /// A new session with a fresh id.
    New,
    /// A new session with the caller's id (none had it when the target was decided).
    Named(SessionId),
    /// An existing session.
    Existing {
        /// Its file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
    },
}

/// The `--session` value that means the latest session of this directory.
pub(crate) const LAST: &str = "last";

/// Decide the target of `args`, run in `cwd` (the working directory as recorded, when it is
/// UTF-8).
pub(super) fn resolve(app: &App, args: &EvalArgs, cwd: Option<&str>) -> Result<Target, CliError> {
    if args.no_session {
        return Ok(Target::Temporary);
    }
    let wants_latest = args.continue_latest || args.session.as_deref() == Some(LAST);
    if !wants_latest && args.session.is_none() && args.session_id.is_none() {
        return Ok(Target::New);
    }
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    if wants_latest {
        return latest(&store, cwd, args.continue_latest);
    }
    if let Some(wanted) = &args.session {
        let (path, id) = store.find(wanted).map_err(|e| {
            command_error::find(&e, "--session", "omit --session to start a new session")
        })?;
        return Ok(Target::Existing { path, id });
    }
    let wanted = args.session_id.as_deref().unwrap_or_default();
    let id: SessionId = wanted.parse().map_err(|e: smith::SessionIdError| {
        CliError::usage(format!(
            "--session-id {e}; name the new session with a UUID, e.g. one from `uuidgen`"
        ))
    })?;
    let path = store.dir().join(smith_store::file_name(&id));
    Ok(if path.exists() {
        Target::Existing { path, id }
    } else {
        Target::Named(id)
    })
}

pub(crate) fn latest(
    store: &SessionStore,
    cwd: Option<&str>,
    flag: bool,
) -> Result<Target, CliError> {
    let asked = if flag { "--continue" } else { "--session last" };
    let cwd = cwd.ok_or_else(|| {
        CliError::usage(format!(
            "{asked} continues the latest session of this directory, but its path is not UTF-8, so no session records it; name the session with --session ID"
        ))
    })?;
    let found = store.latest_in(cwd).map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!(
                "{asked}: cannot list the sessions directory {}: {e}; make it readable, or name the session with --session ID",
                store.dir().display()
            ),
        )
    })?;
    let (path, id) = found.ok_or_else(|| {
        CliError::usage(format!(
            "{asked}: no session in {} was started in this directory ({cwd}); start one by leaving out {asked}, or list them with `smith sessions list`",
            store.dir().display()
        ))
    })?;
    Ok(Target::Existing { path, id })
}

/// Open `target`'s session as its writer, recording `cwd` in a new one; the temporary store
/// comes back to be removed after a successful run.
pub(super) fn open(
    app: &App,
    target: Target,
    cwd: Option<String>,
) -> Result<(Session, Option<TempStore>), CliError> {
    let existing = matches!(target, Target::Existing { .. });
    let create_err = |e: CreateError| match e {
        CreateError::Store(e) => store_error(&e, existing),
        other => command_error::create(&other),
    };
    match target {
        Target::Temporary => {
            let temp = TempStore::create().map_err(|e| command_error::create(&e))?;
            let session = temp.store().create(cwd).map_err(create_err)?;
            Ok((session, Some(temp)))
        }
        Target::New => {
            let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
            Ok((store.create(cwd).map_err(create_err)?, None))
        }
        Target::Named(id) => {
            let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
            match store.create_with(id, cwd) {
                Ok(session) => Ok((session, None)),
                // Another process created it since the target was decided: continue it.
                Err(CreateError::Exists { id }) => {
                    let path = store.dir().join(smith_store::file_name(&id));
                    Ok((open_existing(&store, &path, id)?, None))
                }
                Err(e) => Err(create_err(e)),
            }
        }
        Target::Existing { path, id } => {
            let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
            Ok((open_existing(&store, &path, id)?, None))
        }
    }
}

fn open_existing(
    store: &SessionStore,
    path: &std::path::Path,
    id: SessionId,
) -> Result<Session, CliError> {
    let opened = store.open(path, id).map_err(|e| store_error(&e, true))?;
    for s in &opened.skipped {
        note(&format!(
            "session {id} has a damaged change at byte {} ({}); it is skipped and left unchanged — see `smith sessions verify {id}`",
            s.damage_at, s.reason
        ));
    }
    if let Some(tail) = &opened.truncated {
        note(&format!(
            "recovered session {id}: cut {} unacknowledged byte(s) at offset {} ({})",
            tail.len, tail.offset, tail.reason
        ));
    }
    Ok(opened.session)
}

/// A store failure opening (`existing`) or creating the run's session, with the fix.
pub(crate) fn store_error(e: &smith_store::Error, existing: bool) -> CliError {
    let status = command_error::store_status(e);
    let hint = match status {
        exit::DAMAGED => {
            " The file is left unchanged: inspect it with `smith sessions verify`, select an intact entry with `smith sessions select`, continue in a fork (`smith sessions fork --at ENTRY`), or start a new session by omitting --session."
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

/// Write `note: TEXT` to stderr.
pub(crate) fn note(text: &str) {
    exit::report(&format!("note: {text}"));
}
