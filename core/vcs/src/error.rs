//! The one error type of the crate.

use std::path::PathBuf;

use crate::SnapshotId;

/// What went wrong, naming the path or id it concerns. Nothing was changed on disk unless the
/// variant says so.
#[derive(Debug, thiserror::Error)]
pub enum VcsError {
    /// The project root is not a directory (or does not exist).
    #[error("`{}` is not a directory, so it has no working tree to snapshot", path.display())]
    NotADirectory {
        /// The path given as the project root.
        path: PathBuf,
    },
    /// A directory Smith must write (the project root, or the snapshot repository) refused a
    /// write.
    #[error("cannot write `{}`: {source}", path.display())]
    NotWritable {
        /// The directory.
        path: PathBuf,
        /// The operating system's answer.
        source: std::io::Error,
    },
    /// Reading or writing a file failed.
    #[error("`{}`: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's answer.
        source: std::io::Error,
    },
    /// The snapshot repository could not be opened, created or written.
    #[error("the snapshot repository `{}`: {message}", dir.display())]
    Repository {
        /// The repository's directory.
        dir: PathBuf,
        /// What gix said.
        message: String,
    },
    /// The snapshot repository belongs to another project root (its recorded root differs).
    #[error(
        "the snapshot repository `{}` records the project `{}`, not `{}`",
        dir.display(), recorded.display(), root.display()
    )]
    ForeignRepository {
        /// The repository's directory.
        dir: PathBuf,
        /// The root it records.
        recorded: PathBuf,
        /// The root asked for.
        root: PathBuf,
    },
    /// The text is not a snapshot id (7 to 40 hexadecimal digits).
    #[error("`{text}` is not a snapshot id: expected 7 to 40 hexadecimal digits")]
    BadId {
        /// The text given.
        text: String,
    },
    /// No snapshot of this project has that id.
    #[error("no snapshot `{id}` in the project `{}`{}", project.display(), match other {
        Some(p) => format!(": it is a snapshot of another project, `{}`", p.display()),
        None => String::new(),
    })]
    UnknownSnapshot {
        /// The id as given.
        id: String,
        /// This project's root.
        project: PathBuf,
        /// The project the id belongs to, when another project's repository holds it.
        other: Option<PathBuf>,
    },
    /// An abbreviated id matches more than one snapshot.
    #[error("`{id}` names more than one snapshot; give more digits")]
    Ambiguous {
        /// The id as given.
        id: String,
    },
    /// The working tree differs from the snapshot it was expected to equal.
    #[error(
        "the working tree changed since snapshot {}: {}{}",
        since.short(), paths.join(", "),
        if *more > 0 { format!(" and {more} more") } else { String::new() }
    )]
    Changed {
        /// The snapshot the tree was expected to equal.
        since: SnapshotId,
        /// The first changed paths.
        paths: Vec<String>,
        /// How many more changed.
        more: usize,
    },
    /// A restore would overwrite or delete a file no snapshot holds (ignored, over the size
    /// bound, or special), so it could not be undone.
    #[error("`{path}` is not in any snapshot ({why}), and restoring would overwrite or delete it")]
    Unsnapshotted {
        /// The path, relative to the root.
        path: String,
        /// Why it is not held.
        why: String,
    },
    /// A write failed part way through a restore (the variant says whether the tree was put
    /// back).
    #[error(transparent)]
    Partial(Box<PartialRestore>),
    /// A restore would write through a symbolic link, which may lead outside the project root.
    #[error("`{path}` is a symbolic link to `{target}`; restoring would write through it")]
    ThroughLink {
        /// The link, relative to the root.
        path: String,
        /// Where it points.
        target: String,
    },
}

/// A restore whose write failed part way: what it had changed was put back, or not.
#[derive(Debug, thiserror::Error)]
pub enum PartialRestore {
    /// Every path already changed was put back: the tree is as it was before the restore.
    #[error(
        "{failure}; the paths this restore had already changed were put back, so the working tree is as it was"
    )]
    RolledBack {
        /// The write that failed.
        failure: Box<VcsError>,
    },
    /// Putting the changed paths back failed too.
    #[error("{failure}; the working tree is partly restored and putting it back failed ({rollback}): restore snapshot {} to go back", before.short())]
    Partly {
        /// The write that failed.
        failure: Box<VcsError>,
        /// Why putting it back failed.
        rollback: Box<VcsError>,
        /// The snapshot of the tree as it was before the restore.
        before: SnapshotId,
    },
}

impl VcsError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn repo(dir: &std::path::Path, e: impl std::fmt::Display) -> Self {
        Self::Repository {
            dir: dir.to_path_buf(),
            message: e.to_string(),
        }
    }
}
