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
    /// [`VcsOp::Undo`], [`VcsOp::Redo`], [`VcsOp::Restore`]: the paths the change wrote
    /// (created, changed, or given a new mode), relative to the root, in path order. Absent
    /// in records written before Smith recorded it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<String>,
    /// As [`VcsRecord::written`], the paths it deleted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deleted: Vec<String>,
    /// [`VcsOp::Undo`] and [`VcsOp::Redo`]: the numbers (1-based along the branch) of the
    /// turns whose batches the steps were, ascending; empty when unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<u32>,
}

impl VcsRecord {
    /// What the change did, in words a person reads, the same wherever it is shown (live, in
    /// a resumed transcript, on the command line): `undid the change to notes.txt (turn 3)`,
    /// `redid the changes to 3 files (turns 2-3)`, `restored the working tree to entry 12`;
    /// then, when more than one path changed or one was deleted, a line per path (`  written
    /// a.rs`, `  deleted b.rs`). Snapshot ids appear only as the target a restore named, cut
    /// to 12 digits. A path holding a control character, a quote or a backslash is quoted
    /// and escaped, so it cannot carry an escape sequence to a terminal. `None` for a batch
    /// (a tool's change, which its tool call shows).
    pub fn describe(&self) -> Option<String> {
        let display_path = |path: &str| {
            if path
                .chars()
                .any(|c| c.is_control() || c == '"' || c == '\\')
            {
                format!("{path:?}")
            } else {
                path.to_owned()
            }
        };
        let files = self.written.len() + self.deleted.len();
        let what = match files {
            0 => "the change".to_owned(),
            1 => format!(
                "the change to {}",
                display_path(self.written.first().or(self.deleted.first())?)
            ),
            n => format!("the changes to {n} files"),
        };
        let turns = match (self.turns.first(), self.turns.last()) {
            (Some(a), Some(b)) if a == b => format!(" (turn {a})"),
            (Some(a), Some(b)) => format!(" (turns {a}-{b})"),
            _ => String::new(),
        };
        let mut out = match self.op {
            VcsOp::Batch => return None,
            VcsOp::Undo => format!("undid {what}{turns}"),
            VcsOp::Redo => format!("redid {what}{turns}"),
            VcsOp::Restore => {
                let target = self.target.as_deref().unwrap_or_default();
                let named = if !target.is_empty() && target.bytes().all(|b| b.is_ascii_digit()) {
                    format!("entry {target}")
                } else {
                    format!("snapshot {}", target.get(..12).unwrap_or(target))
                };
                format!("restored the working tree to {named}")
            }
        };
        if files > 1 || !self.deleted.is_empty() || self.op == VcsOp::Restore {
            for path in &self.written {
                out.push_str(&format!("\n  written {}", display_path(path)));
            }
            for path in &self.deleted {
                out.push_str(&format!("\n  deleted {}", display_path(path)));
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(op: VcsOp) -> VcsRecord {
        VcsRecord {
            op,
            root: "/p".into(),
            before: "a".repeat(40),
            after: "b".repeat(40),
            round: None,
            submission: None,
            calls: Vec::new(),
            steps: Vec::new(),
            target: None,
            written: Vec::new(),
            deleted: Vec::new(),
            turns: Vec::new(),
        }
    }

    #[test]
    fn a_change_is_described_in_words_without_snapshot_ids() {
        let mut undo = record(VcsOp::Undo);
        undo.written = vec!["notes.txt".into()];
        undo.turns = vec![3];
        assert_eq!(
            undo.describe().unwrap(),
            "undid the change to notes.txt (turn 3)"
        );
        let mut redo = record(VcsOp::Redo);
        redo.written = vec!["a.rs".into()];
        redo.deleted = vec!["b\x1b[2Jc.rs".into()];
        redo.turns = vec![2, 4];
        assert_eq!(
            redo.describe().unwrap(),
            "redid the changes to 2 files (turns 2-4)\n  written a.rs\n  deleted \"b\\u{1b}[2Jc.rs\""
        );
        let mut restore = record(VcsOp::Restore);
        restore.target = Some("12".into());
        restore.written = vec!["x".into()];
        assert_eq!(
            restore.describe().unwrap(),
            "restored the working tree to entry 12\n  written x"
        );
        restore.target = Some("0123456789abcdef".into());
        assert!(
            restore
                .describe()
                .unwrap()
                .starts_with("restored the working tree to snapshot 0123456789ab\n")
        );
        // Records from before the paths were recorded still read.
        assert_eq!(record(VcsOp::Undo).describe().unwrap(), "undid the change");
        assert_eq!(record(VcsOp::Batch).describe(), None);
    }
}
