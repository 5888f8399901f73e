//! The working-tree history port: snapshots taken around every mutating tool batch, so what a
//! batch did can be taken back (spec: Replay and VCS — VCS-backed history may be used for
//! snapshots, diffs, undo, redo, restore and time travel, attributable to session events).

/// One snapshot taken: the id of the commit that holds the working tree in the project's
/// history repository (40 lowercase hexadecimal digits), and the project root it is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The snapshot's id: 40 lowercase hexadecimal digits.
    pub snapshot: String,
    /// The project root the snapshot holds (an absolute path, UTF-8).
    pub root: String,
}

/// Why a snapshot was not taken, in words naming the path or setting concerned and the fix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HistoryError(pub String);

/// Takes snapshots of the working tree a run's tools change. The agent asks for one before
/// the first call of a batch that holds a call not declared read-only and one after the batch,
/// and records the pair when they differ; an error is reported once as a warning and the batch
/// runs unbracketed (undo cannot take it back).
pub trait History: Send + Sync {
    /// Whether snapshots are taken at all (the user may turn them off); `true` by default.
    fn enabled(&self) -> bool {
        true
    }

    /// Snapshot the working tree now; `note` says why (it becomes the snapshot's message).
    ///
    /// # Errors
    /// [`HistoryError`] when the tree cannot be read or the snapshot not written.
    fn snapshot(&self, note: &str) -> Result<Mark, HistoryError>;
}
