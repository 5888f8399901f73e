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

use super::{RefusalWords, Runner, RunnerError};
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
    /// Opening found effects a dead process left between intent and completion and recorded
    /// their outcome as unknown: they are never run again, and await a person's verdict.
    UnknownEffects {
        /// The session.
        id: SessionId,
        /// Their effect ids, in intent order.
        effects: Vec<String>,
    },
    /// The session's last turn was cut off by the end of an earlier process: it is held,
    /// neither continued nor settled, until the person decides ([`super::Runner::interrupted`]).
    Interrupted {
        /// The session.
        id: SessionId,
        /// What the turn had done.
        turn: smith_agent::InterruptedTurn,
    },
    /// The change made after opening moved on from the interrupted turn the session held: it
    /// was settled as aborted (the sessions commands that change history).
    Settled {
        /// The session.
        id: SessionId,
        /// The turn's submission.
        turn: smith::EntryId,
    },
    /// The session was started in another directory than the one its tools now run in.
    StartedElsewhere {
        /// The session.
        id: SessionId,
        /// The directory its start recorded.
        started: String,
        /// Where its tools run now.
        here: PathBuf,
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
            Self::UnknownEffects { id, effects } => write!(
                f,
                "session {id}: an earlier process ended in the middle of {} effect{}, so {} unknown ({}); {} never run again",
                effects.len(),
                if effects.len() == 1 { "" } else { "s" },
                if effects.len() == 1 {
                    "its outcome is"
                } else {
                    "their outcomes are"
                },
                effects.join(", "),
                if effects.len() == 1 {
                    "it is"
                } else {
                    "they are"
                }
            ),
            Self::Interrupted { id, turn } => write!(
                f,
                "session {id}: turn {} (\"{}\") was interrupted — the process running it ended after {}; it can be continued from what is recorded, or settled as aborted",
                turn.submission,
                crate::inspect::title_of(&turn.input).unwrap_or_default(),
                interrupted_progress(turn),
            ),
            Self::Settled { id, turn } => write!(
                f,
                "session {id}: its interrupted turn {turn} was settled as aborted — this change moves on from it; what the turn recorded stays in the session"
            ),
            Self::StartedElsewhere { id, started, here } => write!(
                f,
                "session {id} was started in {started}; its tools run here, in {}",
                here.display()
            ),
        }
    }
}

/// What an interrupted turn had done, in words: its rounds, its tool calls and the effects
/// of unknown outcome it left.
pub fn interrupted_progress(turn: &smith_agent::InterruptedTurn) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut said = plural(turn.rounds as usize, "model response", "model responses");
    said.push_str(&format!(
        " and {}",
        plural(
            turn.calls_answered,
            "tool call answered",
            "tool calls answered"
        )
    ));
    if turn.calls_pending > 0 {
        said.push_str(&format!(
            " ({} without a result)",
            plural(turn.calls_pending, "call", "calls")
        ));
    }
    if !turn.unknown_effects.is_empty() {
        said.push_str(&format!(
            ", with {} of unknown outcome",
            plural(turn.unknown_effects.len(), "effect", "effects")
        ));
    }
    said
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
    /// A fork point that is no entry of the session.
    #[error("cannot fork session {session} at {}: {why}", at.map_or_else(|| "its leaf".to_owned(), |e| format!("entry {e}")))]
    Fork {
        /// The source session.
        session: SessionId,
        /// The fork point asked for.
        at: Option<smith::EntryId>,
        /// Why it is none.
        why: String,
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

/// A verification of a session's whole file — every frame's checksum, no bodies decoded —
/// running on its own thread while the work goes on, for damage opening a writer does not
/// look for (it checks the selected branch's tip): changes on branches that are not
/// selected. It reads the file as it was when started, and only a file of at most
/// [`DamageCheck::MAX_BYTES`]: a larger session costs what a small one costs to continue (it
/// is read only where needed), and `smith sessions verify` checks it whole.
#[derive(Debug)]
pub struct DamageCheck {
    id: SessionId,
    known: Vec<u64>,
    handle: std::thread::JoinHandle<Vec<Skipped>>,
}

impl DamageCheck {
    /// The largest file verified beside a turn, in bytes (16 MiB: a few milliseconds of
    /// checksums on another thread).
    pub const MAX_BYTES: u64 = 16 << 20;

    /// Start verifying `path` (session `id`), unless it is larger than [`Self::MAX_BYTES`]
    /// or cannot be inspected (`None`); damage `said` by opening is not said again.
    pub fn start(path: &Path, id: SessionId, said: &[OpenNotice]) -> Option<Self> {
        let len = std::fs::metadata(path).ok()?.len();
        if len > Self::MAX_BYTES {
            return None;
        }
        let known = skipped_at(said);
        let path = path.to_owned();
        let handle = std::thread::spawn(move || {
            // A file that cannot be verified now is reported by whatever reads it next.
            smith_store::SessionReader::open_verified(&path)
                .map(|r| r.skipped().to_vec())
                .unwrap_or_default()
        });
        Some(Self { id, known, handle })
    }

    /// Wait for the verification: a [`OpenNotice::Skipped`] for each damaged change opening
    /// did not already report.
    pub fn finish(self) -> Vec<OpenNotice> {
        let Self { id, known, handle } = self;
        handle
            .join()
            .unwrap_or_default()
            .into_iter()
            .filter(|s| !known.contains(&s.damage_at))
            .map(|skipped| OpenNotice::Skipped { id, skipped })
            .collect()
    }
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
            let (session, mut notices) =
                open_existing(&store, &path, id).map_err(OpenError::Store)?;
            notices.extend(elsewhere(id, &path, cwd));
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
    let runner = Runner::new(app, session, cwd.to_owned(), words)
        .created(created)
        .recovered(recovered_effects(&notices));
    Ok(Opened {
        runner,
        temp: None,
        notices,
    })
}

/// The bytes at which `notices` already report damage.
fn skipped_at(notices: &[OpenNotice]) -> Vec<u64> {
    notices
        .iter()
        .filter_map(|n| match n {
            OpenNotice::Skipped { skipped, .. } => Some(skipped.damage_at),
            _ => None,
        })
        .collect()
}

/// Create a new session for tools run in `cwd` (recorded in its start), with the caller's
/// `id` when given — refused when that session exists ([`CreateError::Exists`]) — as its
/// writer. The session is kept when closed, whatever it holds (a protocol client created it
/// by name).
///
/// # Errors
/// [`OpenError::NoHome`], [`OpenError::Create`]; nothing was written.
pub fn create(
    app: Arc<App>,
    id: Option<SessionId>,
    cwd: &Path,
    words: RefusalWords,
) -> Result<Opened, OpenError> {
    let store = app.sessions()?;
    let recorded = cwd.to_str().map(str::to_owned);
    let session = match id {
        Some(id) => store.create_with(id, recorded)?,
        None => store.create(recorded)?,
    };
    Ok(Opened {
        runner: Runner::new(app, session, cwd.to_owned(), words),
        temp: None,
        notices: Vec::new(),
    })
}

/// A session opened as its writer, or observed read-only because another process writes it.
#[derive(Debug)]
pub enum Access {
    /// This process writes it.
    Writer(Box<Opened>),
    /// Another process writes it: read-only here.
    Observer {
        /// The session file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
        /// What opening had to say (another directory than the one it was started in).
        notices: Vec<OpenNotice>,
    },
}

/// Open `target` as its writer, or as a read-only observer when another process writes it
/// (never a wait for the writer lock); otherwise as [`open`].
///
/// # Errors
/// [`OpenError`] but a lock; nothing was written.
pub fn open_or_observe(
    app: Arc<App>,
    target: &Target,
    cwd: &Path,
    words: RefusalWords,
) -> Result<Access, OpenError> {
    let Some((path, id)) = resolve(&app, target, cwd)? else {
        return open(app, target, cwd, words).map(|o| Access::Writer(Box::new(o)));
    };
    let store = app.sessions()?;
    match store.open_or_observe(&path, id).map_err(OpenError::Store)? {
        smith_agent::Access::Writer(opened) => {
            let (session, mut notices) = notices_of(id, *opened);
            notices.extend(elsewhere(id, &path, cwd));
            Ok(Access::Writer(Box::new(Opened {
                runner: Runner::new(app, session, cwd.to_owned(), words)
                    .recovered(recovered_effects(&notices)),
                temp: None,
                notices,
            })))
        }
        smith_agent::Access::Observer(_) => {
            let notices = elsewhere(id, &path, cwd).into_iter().collect();
            Ok(Access::Observer { path, id, notices })
        }
    }
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
    Ok(notices_of(id, store.open(path, id)?))
}

/// The notice that session `id` (file `path`) was started elsewhere than `cwd`, if it was.
fn elsewhere(id: SessionId, path: &Path, cwd: &Path) -> Option<OpenNotice> {
    let started = crate::inspect::summarize(id, path).ok()?.cwd?;
    (Path::new(&started) != cwd).then(|| OpenNotice::StartedElsewhere {
        id,
        started,
        here: cwd.to_owned(),
    })
}

/// Fork session `id` (file `path`) at entry `at` — its selected leaf when `None` — into a
/// new session of `store` (the source is only read, so a session another process writes can
/// be forked from its last complete change); open the fork with [`open`] and
/// [`Target::Existing`].
///
/// # Errors
/// [`OpenError::Fork`] when `at` is no entry of the source (past its tip, or 0);
/// [`OpenError::Store`] for damage at or before `at` and read or write failures. Nothing is
/// left behind.
pub fn fork(
    store: &SessionStore,
    path: &Path,
    id: SessionId,
    at: Option<smith::EntryId>,
) -> Result<smith_store::Forked, OpenError> {
    smith_store::fork(path, store.dir(), SessionId::new_now(), at).map_err(|e| match e {
        smith_store::Error::Encode { reason } => OpenError::Fork {
            session: id,
            at,
            why: reason,
        },
        other => OpenError::Store(other),
    })
}

/// The effects of unknown outcome a recovery left, as `notices` of an opening say: those it
/// completed as unknown, and those of the interrupted turn it holds (an earlier opening may
/// have completed them); ids in intent order, each once.
fn recovered_effects(notices: &[OpenNotice]) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for notice in notices {
        let found = match notice {
            OpenNotice::UnknownEffects { effects, .. } => effects.as_slice(),
            OpenNotice::Interrupted { turn, .. } => turn.unknown_effects.as_slice(),
            _ => &[],
        };
        for id in found {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
    }
    ids
}

fn notices_of(
    id: SessionId,
    opened: smith_agent::OpenedSession,
) -> (smith_agent::Session, Vec<OpenNotice>) {
    let mut notices: Vec<OpenNotice> = opened
        .skipped
        .into_iter()
        .map(|skipped| OpenNotice::Skipped { id, skipped })
        .collect();
    if let Some(tail) = opened.truncated {
        notices.push(OpenNotice::Recovered { id, tail });
    }
    if !opened.unknown_effects.is_empty() {
        notices.push(OpenNotice::UnknownEffects {
            id,
            effects: opened.unknown_effects,
        });
    }
    if let Some(turn) = opened.interrupted {
        notices.push(OpenNotice::Interrupted { id, turn });
    }
    (opened.session, notices)
}

/// Open session `id` at `path` as its writer, do `change` with it, and close it: what the
/// sessions commands change without a route. A refused change lets the session go without
/// closing it (closing records an acknowledgement, and a refusal writes nothing).
fn with_writer<T>(
    path: &Path,
    id: SessionId,
    change: impl FnOnce(&mut smith_agent::Session) -> Result<T, RunnerError>,
) -> Result<(T, Vec<OpenNotice>), RunnerError> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let (mut session, mut notices) = open_existing(&SessionStore::new(dir), path, id)?;
    let done = change(&mut session)?;
    // A turn the change settled is no longer there to continue: said so instead.
    if session.interrupted_turn().is_none() {
        for notice in &mut notices {
            if let OpenNotice::Interrupted { id, turn } = notice {
                *notice = OpenNotice::Settled {
                    id: *id,
                    turn: turn.submission,
                };
            }
        }
    }
    session.close()?;
    Ok((done, notices))
}

/// Select the branch ending at `leaf` in session `id` at `path` (the sessions command),
/// through the same checks as every other selection ([`super::Command::Select`]: refused
/// while work runs, while input is queued on another branch, inside a tool batch, past the
/// tip). Returns what opening had to say.
///
/// # Errors
/// [`RunnerError::Refused`] naming why, [`RunnerError::Store`] (locked, damaged,
/// unreadable); nothing was written.
pub fn select_branch(
    path: &Path,
    id: SessionId,
    leaf: smith::EntryId,
) -> Result<Vec<OpenNotice>, RunnerError> {
    with_writer(path, id, |session| Ok(session.select_branch(leaf)?)).map(|((), n)| n)
}

/// Change what later requests of session `id` at `path` show the model (the sessions
/// command), as [`super::Command::Edit`] does: one validated batch on the selected branch.
/// Returns the edit's entry and what opening had to say.
///
/// # Errors
/// [`RunnerError::Busy`], [`RunnerError::Edit`] naming the offending entry,
/// [`RunnerError::Unprojectable`], [`RunnerError::Store`]; nothing was written.
pub fn edit_context(
    path: &Path,
    id: SessionId,
    edits: Vec<smith_store::EditOp>,
) -> Result<(smith::EntryId, Vec<OpenNotice>), RunnerError> {
    with_writer(path, id, |session| {
        // An edit moves on from an interrupted turn once its checks that need no projection
        // pass (`edit_context` settles it then): such a refusal writes nothing.
        session
            .edit_context(edits)
            .map_err(|e| RunnerError::edit(e, id))
    })
}
