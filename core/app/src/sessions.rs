//! Session access for a frontend: finding a session by id or unique prefix, creating one,
//! opening one as writer or observer, and temporary session stores (spec: Interface modes →
//! Eval — `--no-session` runs against a temporary store removed on clean exit and kept after
//! an abnormal one; Access ownership).

use std::path::{Path, PathBuf};

use smith::SessionId;
use smith_agent::{Access, OpenedSession, Session};

/// Why a session id or prefix names no single session.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The text cannot be an id or id prefix.
    #[error(
        "`{wanted}` is not a session id or id prefix (hexadecimal digits and `-`); session ids are the names of the `.smith` files in the sessions directory"
    )]
    NotAnId {
        /// The text given.
        wanted: String,
    },
    /// A path was given that is not a file in the sessions directory.
    #[error(
        "`{wanted}` is not a file in the sessions directory {}; give a session id (the name of a `.smith` file there), or set SMITH_HOME to the home whose sessions it is", dir.display()
    )]
    Elsewhere {
        /// The text given.
        wanted: String,
        /// The sessions directory.
        dir: PathBuf,
    },
    /// The sessions directory cannot be listed.
    #[error("`{wanted}`: cannot list the sessions directory {}: {source}", dir.display())]
    Unlistable {
        /// The text given.
        wanted: String,
        /// The sessions directory.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No session matches.
    #[error(
        "`{wanted}` matches no session in {}; session ids are the names of the `.smith` files there", dir.display()
    )]
    NoMatch {
        /// The text given.
        wanted: String,
        /// The sessions directory.
        dir: PathBuf,
    },
    /// Several sessions match.
    #[error(
        "`{wanted}` matches {count} sessions ({}{}); give more of the id",
        matches.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        if *count > matches.len() { ", …" } else { "" }
    )]
    Ambiguous {
        /// The text given.
        wanted: String,
        /// How many match.
        count: usize,
        /// The first few matches, oldest first.
        matches: Vec<SessionId>,
    },
}

/// Why a session could not be created or a temporary store made or removed.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The sessions directory cannot be created.
    #[error(
        "cannot create the sessions directory {}: {source}; SMITH_HOME (or XDG_DATA_HOME) must lead to a directory you can write", dir.display()
    )]
    Directory {
        /// The directory.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A temporary session store cannot be created.
    #[error(
        "cannot create the temporary session store {}: {source}; set TMPDIR to a writable directory", dir.display()
    )]
    Temporary {
        /// The directory.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A temporary session store could not be removed after a successful run.
    #[error(
        "the run succeeded but its temporary session store {} could not be removed: {source}", dir.display()
    )]
    Remove {
        /// The directory.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A session with the id asked for exists already.
    #[error("session {id} exists already; continue it instead of creating it")]
    Exists {
        /// The id.
        id: SessionId,
    },
    /// The session file could not be created.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// A directory of session files (`<id>.smith`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionStore {
    dir: PathBuf,
}

impl SessionStore {
    /// The store in `dir` (which need not exist yet).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every session file, oldest first (ids sort by creation time). A missing directory has
    /// none.
    ///
    /// # Errors
    /// The directory exists but cannot be read.
    pub fn list(&self) -> std::io::Result<Vec<(SessionId, PathBuf)>> {
        let suffix = format!(".{}", smith_store::format::FILE_EXTENSION);
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut found: Vec<_> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let id = name.strip_suffix(&suffix)?.parse::<SessionId>().ok()?;
                Some((id, e.path()))
            })
            .collect();
        found.sort();
        Ok(found)
    }

    /// The session whose id is `wanted` or starts with it (case-insensitive; a pasted file
    /// name `<id>.smith` names its session too).
    ///
    /// # Errors
    /// [`FindError`]: not an id, no match, several matches, or an unreadable directory.
    pub fn find(&self, wanted: &str) -> Result<(PathBuf, SessionId), FindError> {
        let suffix = format!(".{}", smith_store::format::FILE_EXTENSION);
        let name = self.name_in_dir(wanted)?;
        let prefix = name.to_ascii_lowercase();
        let prefix = prefix.strip_suffix(&suffix).unwrap_or(&prefix).to_owned();
        if prefix.is_empty() || !prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            return Err(FindError::NotAnId {
                wanted: wanted.to_owned(),
            });
        }
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            // No directory yet: no session has been written, so none matches.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(FindError::NoMatch {
                    wanted: wanted.to_owned(),
                    dir: self.dir.clone(),
                });
            }
            Err(source) => {
                return Err(FindError::Unlistable {
                    wanted: wanted.to_owned(),
                    dir: self.dir.clone(),
                    source,
                });
            }
        };
        let mut matches: Vec<(PathBuf, SessionId)> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let stem = name.strip_suffix(&suffix)?;
                let id = stem.parse::<SessionId>().ok()?;
                stem.starts_with(&prefix).then(|| (entry.path(), id))
            })
            .collect();
        matches.sort_by_key(|(_, id)| *id);
        match matches.len() {
            1 => Ok(matches.remove(0)),
            0 => Err(FindError::NoMatch {
                wanted: wanted.to_owned(),
                dir: self.dir.clone(),
            }),
            count => Err(FindError::Ambiguous {
                wanted: wanted.to_owned(),
                count,
                matches: matches.iter().take(5).map(|(_, id)| *id).collect(),
            }),
        }
    }

    /// `wanted` as a name in the sessions directory: a path (it has a `/`) is accepted when it
    /// names a file directly in that directory, and its file name is used.
    fn name_in_dir<'a>(&self, wanted: &'a str) -> Result<&'a str, FindError> {
        if !wanted.contains(std::path::MAIN_SEPARATOR) && !wanted.contains('/') {
            return Ok(wanted);
        }
        let path = Path::new(wanted);
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let same_dir = match (
            parent.map(std::fs::canonicalize),
            std::fs::canonicalize(&self.dir),
        ) {
            (Some(Ok(a)), Ok(b)) => a == b,
            _ => false,
        };
        match path.file_name().and_then(|n| n.to_str()) {
            Some(name) if same_dir => Ok(name),
            _ => Err(FindError::Elsewhere {
                wanted: wanted.to_owned(),
                dir: self.dir.clone(),
            }),
        }
    }

    /// Create a new session (creating the directory first), recording `cwd` in its start.
    ///
    /// # Errors
    /// [`CreateError`]: the directory or the file cannot be created.
    pub fn create(&self, cwd: Option<String>) -> Result<Session, CreateError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| CreateError::Directory {
            dir: self.dir.clone(),
            source,
        })?;
        // Best effort: what a killed creator left behind costs disk space only.
        let _ = smith_store::remove_abandoned_temporaries(&self.dir);
        Ok(Session::create(&self.dir, SessionId::new_now(), cwd)?)
    }

    /// Create session `id` (a caller-chosen id, e.g. for a retry-safe first submission) and
    /// its directory, recording `cwd`. Two processes creating one id cannot both succeed: the
    /// file is published without replacing one already there.
    ///
    /// # Errors
    /// [`CreateError::Exists`] when the session exists already (open it instead); otherwise as
    /// [`SessionStore::create`].
    pub fn create_with(&self, id: SessionId, cwd: Option<String>) -> Result<Session, CreateError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| CreateError::Directory {
            dir: self.dir.clone(),
            source,
        })?;
        match Session::create(&self.dir, id, cwd) {
            Err(smith_store::Error::Io { source, .. })
                if source.kind() == std::io::ErrorKind::AlreadyExists =>
            {
                Err(CreateError::Exists { id })
            }
            other => Ok(other?),
        }
    }

    /// The session a frontend's `last` means: the one most recently written among those
    /// started in `cwd`, else among those started in the nearest directory above it inside
    /// its project (up to the project root: the nearest directory holding `.git`, else
    /// `.smith/`; no project, `cwd` alone). Sessions are read newest first, each one's first
    /// change only, stopping at the first started in `cwd`; one that cannot be read is
    /// passed over.
    ///
    /// # Errors
    /// The directory exists but cannot be read.
    pub fn latest_near(&self, cwd: &Path) -> std::io::Result<Option<(PathBuf, SessionId)>> {
        let root = crate::history::project_root(cwd).ok();
        let mut dirs: Vec<&str> = Vec::new();
        for dir in cwd.ancestors() {
            if let Some(text) = dir.to_str() {
                dirs.push(text);
            }
            if root.is_none() || dir.canonicalize().ok() == root {
                break;
            }
        }
        let mut found: Vec<(std::time::SystemTime, SessionId, PathBuf)> = self
            .list()?
            .into_iter()
            .filter_map(|(id, path)| {
                let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
                Some((modified, id, path))
            })
            .collect();
        found.sort_by_key(|(modified, id, _)| std::cmp::Reverse((*modified, *id)));
        // The nearest directory above seen so far (its index in `dirs`) and its newest session.
        let mut above: Option<(usize, PathBuf, SessionId)> = None;
        for (_, id, path) in found {
            let Some(recorded) = recorded_cwd(&path) else {
                continue;
            };
            match dirs.iter().position(|d| *d == recorded) {
                Some(0) => return Ok(Some((path, id))),
                Some(depth) if above.as_ref().is_none_or(|(d, _, _)| depth < *d) => {
                    above = Some((depth, path, id));
                }
                _ => {}
            }
        }
        Ok(above.map(|(_, path, id)| (path, id)))
    }

    /// Open session `id` at `path` as its writer (recovering a torn tail, settling cut-off
    /// work but an interrupted turn of its own, which is held for the caller to continue or
    /// settle: [`Session::open_holding`]).
    ///
    /// # Errors
    /// The store's errors: locked by another writer, damaged, an unknown format version.
    pub fn open(&self, path: &Path, id: SessionId) -> Result<OpenedSession, smith_store::Error> {
        Session::open_holding(path, id)
    }

    /// Open session `id` as its writer, or as a read-only observer when another process
    /// writes it (never a wait for the writer lock).
    ///
    /// # Errors
    /// As [`SessionStore::open`], except a lock.
    pub fn open_or_observe(
        &self,
        path: &Path,
        id: SessionId,
    ) -> Result<Access, smith_store::Error> {
        match Session::open_holding(path, id) {
            Ok(opened) => Ok(Access::Writer(Box::new(opened))),
            Err(smith_store::Error::Locked { .. }) => {
                Ok(Access::Observer(smith_agent::Observer::open(path, id)?))
            }
            Err(e) => Err(e),
        }
    }
}

/// A temporary session store, removed only when the caller says the run succeeded; kept (for
/// inspection) otherwise.
#[derive(Debug)]
pub struct TempStore {
    store: SessionStore,
}

impl TempStore {
    /// A fresh directory under the system temporary directory.
    ///
    /// # Errors
    /// [`CreateError::Temporary`].
    pub fn create() -> Result<Self, CreateError> {
        let dir = std::env::temp_dir().join(format!("smith-no-session-{}", SessionId::new_now()));
        std::fs::create_dir_all(&dir).map_err(|source| CreateError::Temporary {
            dir: dir.clone(),
            source,
        })?;
        Ok(Self {
            store: SessionStore::new(dir),
        })
    }

    /// The store.
    pub fn store(&self) -> &SessionStore {
        &self.store
    }

    /// Remove the store and everything in it.
    ///
    /// # Errors
    /// [`CreateError::Remove`].
    pub fn remove(self) -> Result<(), CreateError> {
        std::fs::remove_dir_all(self.store.dir()).map_err(|source| CreateError::Remove {
            dir: self.store.dir.clone(),
            source,
        })
    }
}

/// The working directory session file `path` records in its start, if it can be read.
fn recorded_cwd(path: &Path) -> Option<String> {
    let start = smith_store::CommitReader::open(path)
        .and_then(|mut r| r.next_change())
        .ok()??;
    match start.entries.first().map(|e| &e.record) {
        Some(smith_store::Record::SessionStart(s)) => s.cwd.clone(),
        _ => None,
    }
}
