//! The working-tree history ports (spec: Replay and VCS — VCS-backed history may be used for
//! snapshots, diffs, undo, redo, restore and time travel, attributable to session events).
//!
//! Two sides: [`History`] is what the agent asks around every tool batch that may change files
//! (implemented by the plugin host, whose `history` handler plugin takes the snapshots through
//! the `vcs` facility); [`WorkingTree`] is the project's snapshot store itself (implemented by
//! the composition root on `smith-vcs`), which the host's `vcs` facility calls.

use crate::{Cancel, ToolCall, ToolContext};

/// One snapshot taken: the id of the commit that holds the working tree in the project's
/// history repository (40 lowercase hexadecimal digits), and the project root it is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The snapshot's id: 40 lowercase hexadecimal digits.
    pub snapshot: String,
    /// The project root the snapshot holds (an absolute path, UTF-8).
    pub root: String,
}

/// Why a history operation did not happen, in words naming the path, id or setting concerned
/// and the fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HistoryError {
    /// What kind of failure it is.
    pub kind: HistoryErrorKind,
    /// The sentence saying what happened and what to do.
    pub message: String,
}

/// The kinds of [`HistoryError`], as the `vcs` facility reports them to plugins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryErrorKind {
    /// No history here: snapshots are turned off, or the project's history cannot be opened.
    Unavailable,
    /// No snapshot of this project has the id given.
    NotFound,
    /// The operation would lose something and changed nothing.
    Refused,
    /// The operating system or the repository failed.
    Io,
}

impl HistoryError {
    /// An error of `kind` saying `message`.
    pub fn new(kind: HistoryErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// Which side of a tool batch a snapshot is taken on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotPhase {
    /// Before the batch's first call starts.
    Before,
    /// After the batch's last call returned.
    After,
}

/// A snapshot the agent asks for around one tool batch.
#[derive(Clone, Copy, Debug)]
pub struct SnapshotRequest<'a> {
    /// Before or after the batch.
    pub phase: SnapshotPhase,
    /// The provider round, from 1.
    pub round: u32,
    /// The batch's tool calls, in order.
    pub calls: &'a [ToolCall],
    /// Where the snapshot's effects are recorded: the run's journal, the entry holding the
    /// calls as their cause.
    pub context: &'a ToolContext,
    /// The run's cancellation.
    pub cancel: &'a Cancel,
}

/// Takes snapshots of the working tree a run's tools change. The agent asks for one before
/// the first call of a batch that holds a call not declared read-only and one after the batch,
/// and records the pair when they differ; an error is reported once as a warning and the batch
/// runs unbracketed (undo cannot take it back).
pub trait History: Send + Sync {
    /// Whether snapshots are taken at all (the user may turn them off, or disable the plugin
    /// that takes them); `true` by default.
    fn enabled(&self) -> bool {
        true
    }

    /// Snapshot the working tree around the batch `request` names, recording the snapshot as
    /// an effect of the batch's calls.
    ///
    /// # Errors
    /// [`HistoryError`] when the tree cannot be read or the snapshot not written or recorded.
    fn snapshot(&self, request: &SnapshotRequest<'_>) -> Result<Mark, HistoryError>;
}

/// A diff between two states of the working tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeDiff {
    /// The unified diff in git's format.
    pub patch: String,
    /// How many files changed.
    pub files: usize,
}

/// What a restore of the working tree did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeRestore {
    /// The snapshot of the tree just before (restoring it takes the restore back).
    pub before: String,
    /// The snapshot restored to, 40 hexadecimal digits.
    pub target: String,
    /// Paths written, relative to the root, in path order.
    pub written: Vec<String>,
    /// Paths deleted, relative to the root, in path order.
    pub deleted: Vec<String>,
}

/// One project's working-tree history store: what the `vcs` facility offers plugins.
pub trait WorkingTree: Send + Sync {
    /// The project root (absolute, UTF-8).
    fn root(&self) -> &str;

    /// Snapshot the working tree now; `note` becomes the snapshot's message. Returns the mark
    /// and the files left out (`path (why)`).
    ///
    /// # Errors
    /// [`HistoryError`] when the tree cannot be read or the snapshot not written.
    fn snapshot(&self, note: &str) -> Result<(Mark, Vec<String>), HistoryError>;

    /// The diff from snapshot `base` to snapshot `target`, or to the tree as it is now.
    ///
    /// # Errors
    /// [`HistoryErrorKind::NotFound`] for an id that names no snapshot of this project;
    /// [`HistoryErrorKind::Io`] when the repository or the tree cannot be read.
    fn diff(&self, base: &str, target: Option<&str>) -> Result<TreeDiff, HistoryError>;

    /// Make the tree hold exactly what snapshot `target` holds, after every check.
    ///
    /// # Errors
    /// [`HistoryErrorKind::Refused`] (nothing changed) when a path no snapshot holds would be
    /// lost or a write would go through a symbolic link; [`HistoryErrorKind::NotFound`] for an
    /// unknown id; [`HistoryErrorKind::Io`] when a write fails.
    fn restore(&self, target: &str) -> Result<TreeRestore, HistoryError>;
}
