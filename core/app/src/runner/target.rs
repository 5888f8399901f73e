//! Which session a frontend opens, decided and opened in one place: a new session (with a
//! caller's id, created or continued), one found by a unique id prefix, the latest of a
//! directory, or a known file — opened as its writer, the [`Runner`] every frontend drives,
//! with what opening had to say (recovery, skipped damage) as [`OpenNotice`] data.
//!
//! `last` means the same everywhere: the session most recently written among those started in
//! the working directory, else in the nearest directory above it that has one
//! ([`SessionStore::latest_near`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use smith::SessionId;
use smith_store::{Skipped, TornTail};

use super::{RefusalWords, Runner};
use crate::sessions::{CreateError, FindError, SessionStore, TempStore};
use crate::{App, NoHome};

/// The word every frontend accepts for the latest session ([`Target::Latest`]).
pub const LAST: &str = "last";

/// A session to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A new session with a fresh id.
    New,
    /// Session `id` (a caller's UUID): created, or continued when it exists — so a retried
    /// first submission with a deduplication key is one admission.
    Named(SessionId),
    /// The session a unique id prefix names.
    Find(String),
    /// The latest session of the working directory or the nearest one above it.
    Latest,
    /// A known session file.
    Existing {
        /// Its file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
    },
}

impl Target {
    /// The target a session argument names: [`LAST`] is [`Target::Latest`], anything else a
    /// prefix to find.
    pub fn named(wanted: &str) -> Self {
        if wanted == LAST {
            Self::Latest
        } else {
            Self::Find(wanted.to_owned())
        }
    }
}

/// What opening a session had to tell the user.
#[derive(Debug)]
pub enum OpenNotice {
    /// The torn tail an interrupted write left was cut off.
    Recovered {
        /// The session.
        id: SessionId,
        /// What was cut.
        tail: TornTail,
    },
    /// A damaged change in the middle of the file is skipped and left unchanged.
    Skipped {
        /// The session.
        id: SessionId,
        /// Where and why.
        skipped: Skipped,
    },
}

impl std::fmt::Display for OpenNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Recovered { id, tail } => write!(
                f,
                "recovered session {id}: cut {} unacknowledged byte(s) at offset {} ({})",
                tail.len, tail.offset, tail.reason
            ),
            Self::Skipped { id, skipped } => write!(
                f,
                "session {id} has a damaged change at byte {} ({}); it is skipped and left unchanged",
                skipped.damage_at, skipped.reason
            ),
        }
    }
}

/// Why a target could not be opened. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No home directory holds the sessions.
    #[error(transparent)]
    NoHome(#[from] NoHome),
    /// The id names no single session.
    #[error(transparent)]
    Find(#[from] FindError),
    /// The session or its temporary store could not be created.
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The latest session was asked for, but the working directory is not UTF-8, so no
    /// session records it.
    #[error(
        "the latest session of this directory was asked for, but its path is not UTF-8, so no session records it; name the session by its id"
    )]
    CwdNotUtf8,
    /// No session was started in the working directory or above it.
    #[error(
        "no session in {} was started in {cwd} or a directory above it; start a new one, or list them with the sessions listing", dir.display()
    )]
    NoLatest {
        /// The sessions directory.
        dir: PathBuf,
        /// The working directory.
        cwd: String,
    },
    /// The sessions directory could not be listed.
    #[error("cannot list the sessions directory {}: {source}; make it readable, or name the session by its id", dir.display())]
    List {
        /// The sessions directory.
        dir: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The session file could not be opened as its writer: locked by another writer,
    /// damaged, of an unknown format version, unreadable.
    #[error(transparent)]
    Store(smith_store::Error),
}

/// A session opened as its writer.
#[derive(Debug)]
pub struct Opened {
    /// The runner that owns it.
    pub runner: Runner,
    /// The temporary store it lives in ([`open_temporary`]), to remove after a successful
    /// run.
    pub temp: Option<TempStore>,
    /// What opening had to say.
    pub notices: Vec<OpenNotice>,
}

/// Resolve `target` to a session file without opening it: `None` for [`Target::New`] and a
/// [`Target::Named`] session that does not exist yet.
///
/// # Errors
/// [`OpenError`]: no home, an id that names no single session, no latest session.
pub fn resolve(
    app: &App,
    target: &Target,
    cwd: &Path,
) -> Result<Option<(PathBuf, SessionId)>, OpenError> {
    let store = app.sessions()?;
    Ok(match target {
        Target::New => None,
        Target::Named(id) => {
            let path = store.dir().join(smith_store::file_name(id));
            path.exists().then_some((path, *id))
        }
        Target::Find(wanted) => Some(store.find(wanted)?),
        Target::Latest => Some(latest(&store, cwd)?),
        Target::Existing { path, id } => Some((path.clone(), *id)),
    })
}

fn latest(store: &SessionStore, cwd: &Path) -> Result<(PathBuf, SessionId), OpenError> {
    let here = cwd.to_str().ok_or(OpenError::CwdNotUtf8)?;
    store
        .latest_near(cwd)
        .map_err(|source| OpenError::List {
            dir: store.dir().to_owned(),
            source,
        })?
        .ok_or_else(|| OpenError::NoLatest {
            dir: store.dir().to_owned(),
            cwd: here.to_owned(),
        })
}

/// Open `target` as its writer for tools run in `cwd` (recorded in a new session), a refused
/// program worded by `words`.
///
/// # Errors
/// [`OpenError`]; nothing was written.
pub fn open(
    app: Arc<App>,
    target: &Target,
    cwd: &Path,
    words: RefusalWords,
) -> Result<Opened, OpenError> {
    let store = app.sessions()?;
    let recorded = cwd.to_str().map(str::to_owned);
    let (session, created, notices) = match (target, resolve(&app, target, cwd)?) {
        (_, Some((path, id))) => {
            let (session, notices) = open_existing(&store, &path, id).map_err(OpenError::Store)?;
            (session, false, notices)
        }
        (Target::Named(id), None) => match store.create_with(*id, recorded) {
            Ok(session) => (session, true, Vec::new()),
            // Another process created it since: continue it.
            Err(CreateError::Exists { id }) => {
                let path = store.dir().join(smith_store::file_name(&id));
                let (session, notices) =
                    open_existing(&store, &path, id).map_err(OpenError::Store)?;
                (session, false, notices)
            }
            Err(e) => return Err(e.into()),
        },
        (_, None) => (store.create(recorded)?, true, Vec::new()),
    };
    let runner = Runner::new(app, session, cwd.to_owned(), words).created(created);
    Ok(Opened {
        runner,
        temp: None,
        notices,
    })
}

/// Open a new session in a temporary store, removed when the caller says the run succeeded.
///
/// # Errors
/// [`OpenError::Create`].
pub fn open_temporary(app: Arc<App>, cwd: &Path, words: RefusalWords) -> Result<Opened, OpenError> {
    let temp = TempStore::create()?;
    let session = temp.store().create(cwd.to_str().map(str::to_owned))?;
    let runner = Runner::new(app, session, cwd.to_owned(), words);
    Ok(Opened {
        runner,
        temp: Some(temp),
        notices: Vec::new(),
    })
}

fn open_existing(
    store: &SessionStore,
    path: &Path,
    id: SessionId,
) -> Result<(smith_agent::Session, Vec<OpenNotice>), smith_store::Error> {
    let opened = store.open(path, id)?;
    let mut notices: Vec<OpenNotice> = opened
        .skipped
        .into_iter()
        .map(|skipped| OpenNotice::Skipped { id, skipped })
        .collect();
    if let Some(tail) = opened.truncated {
        notices.push(OpenNotice::Recovered { id, tail });
    }
    Ok((opened.session, notices))
}

/// Select the branch ending at `leaf` in session `id` at `path`, no route needed (the
/// sessions command): opened as its writer, through the same checks as every other selection
/// ([`super::Command::Select`]: refused while work runs, while input is queued on another
/// branch, inside a tool batch, past the tip), then closed. Returns what opening had to say.
///
/// # Errors
/// [`SelectError::Open`] (locked, damaged, unreadable); [`SelectError::Refused`] naming why
/// (nothing was written).
pub fn select_branch(
    path: &Path,
    id: SessionId,
    leaf: smith::EntryId,
) -> Result<Vec<OpenNotice>, SelectError> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let store = SessionStore::new(dir);
    let (mut session, notices) = open_existing(&store, path, id).map_err(SelectError::Open)?;
    // Refused, the session is let go without closing it: closing records an acknowledgement,
    // and a refusal writes nothing.
    session.select_branch(leaf).map_err(SelectError::Refused)?;
    session.close().map_err(SelectError::Open)?;
    Ok(notices)
}

/// Why [`select_branch`] did not select.
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// The session could not be opened or closed as its writer.
    #[error(transparent)]
    Open(smith_store::Error),
    /// The selection was refused (or failed to be written).
    #[error(transparent)]
    Refused(smith_agent::AdmissionError),
}
