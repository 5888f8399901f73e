//! The body of record kind 20, `vcs`: a change of the project's working tree between two
//! snapshots of Smith's per-project history repository (spec: Replay and VCS — VCS-backed
//! history, attributable to session events). The records of a branch, in order, are its
//! undo stack: batches and restores push a step (and clear what could be redone), an undo
//! takes the latest steps back, a redo replays what the latest undo took back.

use serde::{Deserialize, Serialize};
use smith::EntryId;

/// What a [`VcsRecord`] did to the working tree. Wire names are snake_case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VcsOp {
    /// A tool batch changed the tree (snapshots taken before its first call and after its
    /// last).
    Batch,
    /// The user took [`VcsRecord::steps`] back.
    Undo,
    /// The user replayed [`VcsRecord::steps`], which an undo had taken back.
    Redo,
    /// The user restored the tree to a snapshot or to the state at an entry
    /// ([`VcsRecord::target`]).
    Restore,
}

/// Body of record kind 20, `vcs`: the working tree went from snapshot `before` to snapshot
/// `after` of the history repository of the project at `root`. Snapshot ids are 40 lowercase
/// hexadecimal digits (git commit ids in that repository, never the user's own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VcsRecord {
    /// What changed the tree.
    pub op: VcsOp,
    /// The project root the snapshots hold (absolute path).
    pub root: String,
    /// The snapshot of the tree before the change.
    pub before: String,
    /// The snapshot of the tree after it.
    pub after: String,
    /// [`VcsOp::Batch`]: the provider round whose tool batch it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// [`VcsOp::Batch`]: the submission (turn) the batch ran in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submission: Option<EntryId>,
    /// [`VcsOp::Batch`]: the ids of the tool calls it brackets, in call order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// [`VcsOp::Undo`] and [`VcsOp::Redo`]: the `vcs` entries taken back or replayed, newest
    /// first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<EntryId>,
    /// [`VcsOp::Restore`]: what the user named, as given (a snapshot id or an entry id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}
