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

use smith::{HistoryError, HistoryErrorKind, Mark, TreeDiff, TreeRestore, WorkingTree};
use smith_vcs::{Limits, Restore, Vcs, VcsError};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use ops::{EditorTold, MAX_EDITOR_BYTES, Moved, OpError, OpErrorKind, Step};
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

/// The history of one project: snapshots, diffs and restores on demand, as the `vcs` facility
/// asks for them (the `history` plugin around every tool batch that may change files). The repository is opened for each operation (gix's repository handle is
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

/// How a [`VcsError`] reaches a plugin through the `vcs` facility.
fn history_error(e: &VcsError) -> HistoryError {
    let kind = match e {
        VcsError::BadId { .. } | VcsError::UnknownSnapshot { .. } | VcsError::Ambiguous { .. } => {
            HistoryErrorKind::NotFound
        }
        VcsError::Changed { .. }
        | VcsError::Unsnapshotted { .. }
        | VcsError::ThroughLink { .. }
        | VcsError::NotWritable { .. } => HistoryErrorKind::Refused,
        VcsError::NotADirectory { .. } | VcsError::ForeignRepository { .. } => {
            HistoryErrorKind::Unavailable
        }
        VcsError::Io { .. } | VcsError::Repository { .. } | VcsError::Partial(_) => {
            HistoryErrorKind::Io
        }
    };
    HistoryError::new(kind, e.to_string())
}

impl WorkingTree for ProjectHistory {
    fn root(&self) -> &str {
        &self.root
    }

    fn snapshot(&self, note: &str) -> Result<(Mark, Vec<String>), HistoryError> {
        let s = self
            .with(|vcs| vcs.snapshot(note))
            .map_err(|e| history_error(&e))?;
        let skipped = s
            .skipped
            .iter()
            .map(|k| format!("{} ({})", k.path, k.reason))
            .collect();
        let mark = Mark {
            snapshot: s.id.to_hex(),
            root: self.root.clone(),
        };
        Ok((mark, skipped))
    }

    fn diff(&self, base: &str, target: Option<&str>) -> Result<TreeDiff, HistoryError> {
        self.with(|vcs| {
            let from = vcs.resolve(base)?;
            let to = match target {
                Some(t) => vcs.resolve(t)?,
                None => vcs.snapshot("the working tree, for a diff")?.id,
            };
            let diff = vcs.diff(from, to)?;
            Ok(TreeDiff {
                patch: diff.unified(),
                files: diff.files.len(),
            })
        })
        .map_err(|e| history_error(&e))
    }

    fn restore(&self, target: &str) -> Result<TreeRestore, HistoryError> {
        self.with(|vcs| {
            let id = vcs.resolve(target)?;
            let done = vcs.restore(
                id,
                &Restore {
                    expect: None,
                    note: format!("before a plugin's restore to {}", id.short()),
                },
            )?;
            Ok(TreeRestore {
                before: done.before.id.to_hex(),
                target: done.target.to_hex(),
                written: done.written,
                deleted: done.deleted,
            })
        })
        .map_err(|e| history_error(&e))
    }
}

/// A project history opened on first use, so a run that changes no file creates no
/// repository.
struct Lazy {
    open: Box<dyn Fn() -> Result<ProjectHistory, String> + Send + Sync>,
    root: String,
    opened: std::sync::OnceLock<Result<ProjectHistory, String>>,
}

impl Lazy {
    fn get(&self) -> Result<&ProjectHistory, HistoryError> {
        self.opened
            .get_or_init(|| (self.open)())
            .as_ref()
            .map_err(|why| HistoryError::new(HistoryErrorKind::Unavailable, why.clone()))
    }
}

impl WorkingTree for Lazy {
    fn root(&self) -> &str {
        &self.root
    }

    fn snapshot(&self, note: &str) -> Result<(Mark, Vec<String>), HistoryError> {
        WorkingTree::snapshot(self.get()?, note)
    }

    fn diff(&self, base: &str, target: Option<&str>) -> Result<TreeDiff, HistoryError> {
        WorkingTree::diff(self.get()?, base, target)
    }

    fn restore(&self, target: &str) -> Result<TreeRestore, HistoryError> {
        WorkingTree::restore(self.get()?, target)
    }
}

/// A project whose history could not be opened: every call fails saying why.
#[derive(Debug)]
pub struct Unavailable {
    /// Why, naming the path and the fix.
    pub why: String,
}

impl WorkingTree for Unavailable {
    fn root(&self) -> &str {
        ""
    }

    fn snapshot(&self, _note: &str) -> Result<(Mark, Vec<String>), HistoryError> {
        Err(HistoryError::new(
            HistoryErrorKind::Unavailable,
            self.why.clone(),
        ))
    }

    fn diff(&self, _base: &str, _target: Option<&str>) -> Result<TreeDiff, HistoryError> {
        Err(HistoryError::new(
            HistoryErrorKind::Unavailable,
            self.why.clone(),
        ))
    }

    fn restore(&self, _target: &str) -> Result<TreeRestore, HistoryError> {
        Err(HistoryError::new(
            HistoryErrorKind::Unavailable,
            self.why.clone(),
        ))
    }
}

impl crate::App {
    /// The working tree the `vcs` facility of runs in `dir` works on: none when the
    /// `history.snapshots` setting is off; a history that could not be opened fails each call
    /// with its reason, which a run reports once as a warning.
    pub fn working_tree(&self, dir: &Path) -> Option<Arc<dyn smith::WorkingTree>> {
        if !self.settings.bool("history.snapshots", true) {
            return None;
        }
        let root = project_root(dir).map(|r| r.to_string_lossy().into_owned());
        Some(match root {
            Ok(root) => Arc::new(Lazy {
                open: Box::new({
                    let app_history = self.history_args().map_err(|e| e.to_string());
                    let dir = dir.to_path_buf();
                    move || match &app_history {
                        Ok((store, bytes, excluded)) => {
                            ProjectHistory::open(store, &dir, *bytes, excluded.clone())
                                .map_err(|e| e.to_string())
                        }
                        Err(why) => Err(why.clone()),
                    }
                }),
                root,
                opened: std::sync::OnceLock::new(),
            }),
            Err(e) => Arc::new(Unavailable { why: e.to_string() }),
        })
    }

    /// Where the project histories are kept, the file-size bound, and the directories never
    /// snapshotted; or why there is no data home.
    fn history_args(&self) -> Result<(PathBuf, u64, Vec<PathBuf>), crate::NoHome> {
        let store = self.paths.history()?;
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
        Ok((store, bytes, excluded))
    }

    /// The working-tree history of the project `dir` is in, whatever the setting says (undo,
    /// redo, restore and diff work on what was recorded).
    ///
    /// # Errors
    /// [`OpError::NoHome`] when no variable leads to the data home; [`OpError::Vcs`] when the
    /// project root is not a directory or the repository cannot be opened.
    pub fn open_history(&self, dir: &Path) -> Result<ProjectHistory, OpError> {
        let (store, bytes, excluded) = self.history_args().map_err(OpError::NoHome)?;
        Ok(ProjectHistory::open(&store, dir, bytes, excluded)?)
    }
}
