//! The working-tree history of a project (spec: Replay and VCS — VCS-backed history; the
//! undo/restore guide): the [`smith::History`] port on `smith-vcs`, the undo stack a session
//! branch's `vcs` records make ([`stack`]), and the operations over it — undo, redo, restore
//! and diff ([`ops`]) — every frontend offers.
//!
//! The project of a directory is the nearest directory at or above it holding `.git` (a
//! repository's work tree), else `.smith/`, else the directory itself. Its snapshots live in
//! one Smith-owned bare repository under the data home (`vcs/NAME-KEY.git`), never in the
//! user's `.git`.

pub mod ops;
pub mod stack;

use smith::{HistoryError, Mark};
use smith_vcs::{Limits, Vcs, VcsError};
use std::path::{Path, PathBuf};

pub use ops::{Moved, OpError, Step};
pub use stack::{Recorded, Stack};

/// The project root of `dir`: the nearest directory at or above it (canonical) holding `.git`,
/// else `.smith/`, else `dir` itself.
///
/// # Errors
/// [`VcsError::NotADirectory`] when `dir` does not resolve to a directory.
pub fn project_root(dir: &Path) -> Result<PathBuf, VcsError> {
    let dir = dir
        .canonicalize()
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| VcsError::NotADirectory {
            path: dir.to_path_buf(),
        })?;
    let root = dir
        .ancestors()
        .find(|d| d.join(".git").exists())
        .or_else(|| dir.ancestors().find(|d| d.join(".smith").is_dir()))
        .unwrap_or(&dir)
        .to_path_buf();
    Ok(root)
}

/// The history of one project: snapshots on demand, as the agent takes them around mutating
/// tool batches. The repository is opened for each operation (gix's repository handle is
/// single-threaded; opening costs well under a millisecond), so the history can be shared
/// across threads.
pub struct ProjectHistory {
    store: PathBuf,
    limits: Limits,
    root: String,
    excluded: Vec<PathBuf>,
}

impl std::fmt::Debug for ProjectHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProjectHistory")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl ProjectHistory {
    /// The history of the project `dir` is in, its snapshots kept in `store` (the data home's
    /// `vcs/`), files over `max_file_bytes` left out, and the directories `excluded` (Smith's
    /// own data, when it lies inside the project) never snapshotted or restored.
    ///
    /// # Errors
    /// [`VcsError`] when the project root is not a directory or the repository cannot be
    /// opened or created.
    pub fn open(
        store: &Path,
        dir: &Path,
        max_file_bytes: u64,
        excluded: Vec<PathBuf>,
    ) -> Result<Self, VcsError> {
        let root = project_root(dir)?;
        let limits = Limits { max_file_bytes };
        let vcs = Vcs::open(store, &root, limits)?;
        Ok(Self {
            root: vcs.root().to_string_lossy().into_owned(),
            store: store.to_path_buf(),
            limits,
            excluded,
        })
    }

    /// The project root (absolute, canonical).
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Run `f` on the project's repository, opened for it.
    ///
    /// # Errors
    /// [`VcsError`] from opening the repository or from `f`.
    pub fn with<T>(&self, f: impl FnOnce(&Vcs) -> Result<T, VcsError>) -> Result<T, VcsError> {
        let mut vcs = Vcs::open(&self.store, Path::new(&self.root), self.limits)?;
        for dir in &self.excluded {
            vcs.exclude(dir);
        }
        f(&vcs)
    }
}

impl smith::History for ProjectHistory {
    fn snapshot(&self, note: &str) -> Result<Mark, HistoryError> {
        self.with(|vcs| vcs.snapshot(note))
            .map(|s| Mark {
                snapshot: s.id.to_hex(),
                root: self.root.clone(),
            })
            .map_err(|e| HistoryError(e.to_string()))
    }
}

/// The snapshots a run takes ([`crate::App::snapshots`]): none when the `history.snapshots`
/// setting is off; a history that could not be opened fails each snapshot with its reason,
/// which the run reports once as a warning.
#[derive(Debug)]
pub enum Snapshots {
    /// The setting is off.
    Off,
    /// The project's history.
    On(ProjectHistory),
    /// Why the history could not be opened.
    Broken(String),
}

impl smith::History for Snapshots {
    fn enabled(&self) -> bool {
        !matches!(self, Self::Off)
    }

    fn snapshot(&self, note: &str) -> Result<Mark, HistoryError> {
        match self {
            Self::On(history) => history.snapshot(note),
            Self::Broken(why) => Err(HistoryError(why.clone())),
            Self::Off => Err(HistoryError("the history.snapshots setting is off".into())),
        }
    }
}

impl crate::App {
    /// The snapshots runs in `dir` take around their mutating tool batches.
    pub fn snapshots(&self, dir: &Path) -> Snapshots {
        if !self.settings.bool("history.snapshots", true) {
            return Snapshots::Off;
        }
        match self.open_history(dir) {
            Ok(history) => Snapshots::On(history),
            Err(e) => Snapshots::Broken(e.to_string()),
        }
    }

    /// The working-tree history of the project `dir` is in, whatever the setting says (undo,
    /// redo, restore and diff work on what was recorded).
    ///
    /// # Errors
    /// [`OpError::NoHome`] when no variable leads to the data home; [`OpError::Vcs`] when the
    /// project root is not a directory or the repository cannot be opened.
    pub fn open_history(&self, dir: &Path) -> Result<ProjectHistory, OpError> {
        let store = self.paths.history().map_err(OpError::NoHome)?;
        let bytes = u64::try_from(
            self.settings
                .integer("history.max-file-bytes", 16 * 1024 * 1024),
        )
        .unwrap_or(0);
        // Smith's own files never enter a snapshot, wherever the project lies.
        let excluded: Vec<PathBuf> = [
            self.paths.smith_home().map(Path::to_path_buf),
            self.paths.sessions().ok().map(Path::to_path_buf),
            store.parent().map(Path::to_path_buf),
        ]
        .into_iter()
        .flatten()
        .collect();
        Ok(ProjectHistory::open(&store, dir, bytes, excluded)?)
    }
}
