//! Moving the UI to another session without leaving it: a new session, another one
//! (the resume picker, `/attach`), a fork of this one (also from an observer or a replay),
//! or a replay of this one. What can be checked or made before the current session closes is
//! — the session is found, the fork's file written, the new session created — so a target
//! that cannot be opened leaves the current session as it was.

use std::path::{Path, PathBuf};

use smith::{EntryId, SessionId};
use std::sync::Arc;

use smith_app::App;
use smith_app::runner::target::{self, Access};
use smith_ui_intents::NoticeLevel;

use crate::Opening;

/// Where the UI goes next, ready to open once the current session is closed.
#[derive(Debug)]
pub(crate) enum Target {
    /// A session this UI created (new, or a fork): opened as its writer.
    Created {
        /// Its file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
        /// A new empty session (removed if nothing is submitted to it).
        new: bool,
        /// What to say once it is open (`forked from …`).
        said: Option<String>,
    },
    /// An existing session: its writer, or an observer when another process writes it.
    Existing {
        /// Its file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
    },
    /// A replay of a session, read-only.
    Replay {
        /// Its file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
        /// The turn range.
        options: smith_app::playback::Options,
    },
}

/// A new session in `cwd`, created now (so a failure says so before anything closes); its
/// file is written by the store and closed at once, to be opened as the next writer.
pub(crate) fn new_session(app: &App, cwd: &Path) -> Result<Target, String> {
    let store = app
        .sessions()
        .map_err(|e| format!("cannot start a new session: {e}"))?;
    let id = SessionId::new_now();
    let session = store
        .create_with(id, cwd.to_str().map(str::to_owned))
        .map_err(|e| format!("cannot start a new session: {e}"))?;
    let path = session.path().to_owned();
    session
        .close()
        .map_err(|e| format!("cannot start a new session: {e}"))?;
    Ok(Target::Created {
        path,
        id,
        new: true,
        said: None,
    })
}

/// The existing session `wanted` (an id or unique prefix), not `current` (the one open
/// here, if it is open for writing or observing: a replay's session may be attached).
pub(crate) fn existing(app: &App, wanted: &str, current: Option<&str>) -> Result<Target, String> {
    let store = app
        .sessions()
        .map_err(|e| format!("cannot look for session `{wanted}`: {e}"))?;
    let wanted = wanted.trim();
    // A session id is 36 characters (a file name `ID.smith` 42): longer text is not one, and
    // is not echoed whole.
    if wanted.chars().count() > 48 {
        let head: String = wanted.chars().take(24).collect();
        return Err(format!(
            "`{head}…` ({} characters) is not a session id or prefix; /resume lists the sessions",
            wanted.chars().count()
        ));
    }
    let (path, id) = store.find(wanted).map_err(|e| e.to_string())?;
    if Some(id.to_string().as_str()) == current {
        return Err(format!("session {id} is the one open here"));
    }
    Ok(Target::Existing { path, id })
}

/// A fork of session `id` (file `path`) at `at` (an entry id as typed; none: its selected
/// branch's tip), written now into a new session.
pub(crate) fn fork(
    app: &App,
    path: &Path,
    id: SessionId,
    at: Option<&str>,
) -> Result<Target, String> {
    let at = match at.map(str::trim) {
        None | Some("") => None,
        Some(text) => match text.parse::<u64>() {
            Ok(0) => return Err("entry 0 names no entry: entries are numbered from 1".into()),
            Ok(n) => Some(EntryId(n)),
            Err(_) => {
                let head: String = text.chars().take(24).collect();
                return Err(format!(
                    "`{head}` is not an entry id (a number from 1: the branches picker shows the messages' entries)"
                ));
            }
        },
    };
    let store = app
        .sessions()
        .map_err(|e| format!("cannot fork session {id}: {e}"))?;
    let forked = target::fork(&store, path, id, at).map_err(|e| match e {
        e @ target::OpenError::Fork { .. } => e.to_string(),
        other => format!("cannot fork session {id}: {other}"),
    })?;
    Ok(Target::Created {
        path: forked.path,
        id: forked.id,
        new: false,
        said: Some(format!(
            "forked from session {id}{}: this is a new session, writable; the source is unchanged",
            forked
                .leaf
                .map(|l| format!(" at entry {}", l.0))
                .unwrap_or_default()
        )),
    })
}

/// A replay of session `id` (`path`), over the turn range `range` (`A..B`, `A..`, `..B`, `N`).
pub(crate) fn replay(path: &Path, id: SessionId, range: Option<&str>) -> Result<Target, String> {
    let mut options = smith_app::playback::Options {
        pace: smith_app::playback::Pace::Scaled { factor: 1.0 },
        ..smith_app::playback::Options::default()
    };
    if let Some(range) = range.map(str::trim).filter(|r| !r.is_empty()) {
        let bad = || {
            let head: String = range.chars().take(24).collect();
            format!(
                "`{head}` is not a turn range; write A..B (e.g. 2..4), A.. or A, counting from 1"
            )
        };
        let (a, b) = smith_app::playback::turn_range(range).ok_or_else(bad)?;
        if a == 0 || b < a {
            return Err(bad());
        }
        options.turns = Some((a, b));
    }
    Ok(Target::Replay {
        path: path.to_owned(),
        id,
        options,
    })
}

/// Open `target` (the current session is closed by now) for tools run in `cwd`: the opening
/// and what to say.
///
/// # Errors
/// The store's refusal, in words.
pub(crate) fn open(
    app: &Arc<App>,
    target: Target,
    cwd: &Path,
) -> Result<(Opening, Vec<(NoticeLevel, String)>), String> {
    match target {
        Target::Created {
            path,
            id,
            new,
            said,
        } => {
            let opened = target::open(
                Arc::clone(app),
                &target::Target::Existing { path, id },
                cwd,
                crate::refusal,
            )
            .map_err(|e| format!("cannot open session {id}: {e}"))?;
            let notices = said.map(|s| (NoticeLevel::Info, s)).into_iter().collect();
            Ok((
                Opening::Writer {
                    runner: Box::new(opened.runner.created(new)),
                },
                notices,
            ))
        }
        Target::Existing { path, id } => {
            let wanted = target::Target::Existing {
                path: path.clone(),
                id,
            };
            match target::open_or_observe(Arc::clone(app), &wanted, cwd, crate::refusal)
                .map_err(|e| format!("cannot open session {id}: {e}"))?
            {
                Access::Writer(opened) => {
                    let notices = crate::open_notices(&opened.notices);
                    Ok((
                        Opening::Writer {
                            runner: Box::new(opened.runner),
                        },
                        notices,
                    ))
                }
                Access::Observer { path, id, notices } => Ok((
                    Opening::Observer { path, id },
                    crate::open_notices(&notices),
                )),
            }
        }
        Target::Replay { path, id, options } => {
            Ok((Opening::Replay { path, id, options }, Vec::new()))
        }
    }
}
