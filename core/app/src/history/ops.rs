//! Undo, redo, restore and diff over a session branch's working-tree history (the undo/restore
//! guide). Every operation that changes the tree validates its target first — the snapshot
//! exists and is of this project, the tree holds no change since the session last recorded it
//! (unless asked to snapshot it first) — and is itself recorded as a `vcs` record, so it can
//! be taken back in turn.

use std::path::{Path, PathBuf};

use smith::{EntryId, SessionId};
use smith_store::{Record, SessionReader, SessionWriter, VcsOp, VcsRecord};
use smith_vcs::{Diff, Restore, SnapshotId, VcsError};

use super::ProjectHistory;
use super::stack::Stack;

/// Why an operation did nothing. The working tree is unchanged by every variant but
/// [`OpError::Unrecorded`].
#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// No variable leads to the data home.
    #[error(transparent)]
    NoHome(crate::NoHome),
    /// The snapshot repository or the working tree refused (the variant says which).
    #[error(transparent)]
    Vcs(#[from] VcsError),
    /// The session file could not be read or written.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
    /// The branch has no step to take back.
    #[error("session {session} has no change of the working tree to undo on its selected branch")]
    NothingToUndo {
        /// The session.
        session: SessionId,
    },
    /// No undo on the branch is left to redo (a later change clears them).
    #[error(
        "session {session} has nothing to redo: no undo since its last change of the working tree"
    )]
    NothingToRedo {
        /// The session.
        session: SessionId,
    },
    /// The session recorded no change of the working tree, so there is no state to name.
    #[error("session {session} recorded no change of the working tree on its selected branch")]
    NoChanges {
        /// The session.
        session: SessionId,
    },
    /// The session's changes are of another project than the one here.
    #[error("session {session} changed the project `{recorded}`, not `{}`", here.display())]
    OtherProject {
        /// The session.
        session: SessionId,
        /// The project root its records name.
        recorded: String,
        /// The project root here.
        here: PathBuf,
    },
    /// The tree already holds the state a restore names: nothing was changed or recorded.
    #[error(
        "the working tree already holds snapshot {target}, so nothing was restored and session {session} records nothing (what can be redone stays)"
    )]
    Unchanged {
        /// The session.
        session: SessionId,
        /// The snapshot named (short id).
        target: String,
    },
    /// The entry named does not exist in the session.
    #[error("session {session} has no entry {entry}")]
    UnknownEntry {
        /// The session.
        session: SessionId,
        /// The entry id as given.
        entry: u64,
    },
    /// The tree was changed but the session could not record it.
    #[error(
        "the working tree was restored to {target}, but session {session} could not record it ({source}); restoring snapshot {before} takes it back"
    )]
    Unrecorded {
        /// The session.
        session: SessionId,
        /// The snapshot restored to.
        target: String,
        /// The snapshot of the tree as it was before.
        before: String,
        /// The store's error.
        source: Box<smith_store::Error>,
    },
}

/// What kind of failure an [`OpError`] is, for a frontend choosing its status or error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpErrorKind {
    /// No such snapshot or entry (or an id that is not one).
    NotFound,
    /// Nothing to undo, redo or show on the session's branch.
    Nothing,
    /// The operation would lose something, is of another project, or the tree refuses a
    /// write; nothing changed.
    Refused,
    /// No data home to keep the history in.
    Config,
    /// The session file or the snapshot repository failed (or the change is unrecorded).
    Storage,
}

impl OpError {
    /// What kind of failure this is.
    pub fn kind(&self) -> OpErrorKind {
        match self {
            Self::NoHome(_) => OpErrorKind::Config,
            Self::Store(_) | Self::Unrecorded { .. } => OpErrorKind::Storage,
            Self::NothingToUndo { .. }
            | Self::NothingToRedo { .. }
            | Self::NoChanges { .. }
            | Self::Unchanged { .. } => OpErrorKind::Nothing,
            Self::UnknownEntry { .. } => OpErrorKind::NotFound,
            Self::OtherProject { .. } => OpErrorKind::Refused,
            Self::Vcs(v) => match v {
                VcsError::BadId { .. }
                | VcsError::UnknownSnapshot { .. }
                | VcsError::Ambiguous { .. } => OpErrorKind::NotFound,
                VcsError::Changed { .. }
                | VcsError::Unsnapshotted { .. }
                | VcsError::ThroughLink { .. }
                | VcsError::NotWritable { .. }
                | VcsError::NotADirectory { .. }
                | VcsError::ForeignRepository { .. } => OpErrorKind::Refused,
                VcsError::Io { .. } | VcsError::Repository { .. } | VcsError::Partial(_) => {
                    OpErrorKind::Storage
                }
            },
        }
    }
}

/// How far an undo goes, and what to do with changes the session did not record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Take back every latest step of the same turn, not just the latest one.
    pub turn: bool,
    /// Snapshot changes made since the session last recorded the tree, instead of refusing:
    /// they are lost from the tree, kept in the snapshot the record names as `before`.
    pub snapshot_first: bool,
}

/// A change of the working tree done and recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The `vcs` entry that records it.
    pub entry: EntryId,
    /// The record.
    pub record: VcsRecord,
    /// Paths written (created, changed, or given a new mode), in path order.
    pub written: Vec<String>,
    /// Paths deleted, in path order.
    pub deleted: Vec<String>,
    /// What the attached editor was told of the paths written, when one takes writes (a
    /// frontend's [`smith::Editor`], ACP's `fs/write_text_file`); none without one.
    pub editor: Option<EditorTold>,
}

/// What an attached editor was told of a change to the working tree: each written path's
/// new text, so its open buffers show what the disk holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EditorTold {
    /// Paths the editor took, in path order.
    pub written: Vec<String>,
    /// Paths it was not given, each with why (not text, too large, the editor refused).
    pub failed: Vec<(String, String)>,
}

/// The largest file an editor is given after a change to the working tree, in bytes.
pub const MAX_EDITOR_BYTES: u64 = 16 << 20;

impl Moved {
    /// Tell `editor` the new text of each path written beneath `root` (the project root),
    /// after the disk has it; remember what it was told.
    pub(crate) fn tell(&mut self, editor: &smith::Editor, root: &Path) {
        let mut told = EditorTold::default();
        for path in &self.written {
            let abs = root.join(path);
            let text = match std::fs::metadata(&abs) {
                Ok(m) if m.len() > MAX_EDITOR_BYTES => Err(format!(
                    "it is {} bytes, more than the {MAX_EDITOR_BYTES} an editor is given",
                    m.len()
                )),
                Ok(_) => std::fs::read(&abs)
                    .map_err(|e| e.to_string())
                    .and_then(|b| {
                        String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_owned())
                    }),
                Err(e) => Err(e.to_string()),
            };
            match text.and_then(|t| editor.files.write(&abs, &t)) {
                Ok(()) => told.written.push(path.clone()),
                Err(why) => told.failed.push((path.clone(), why)),
            }
        }
        self.editor = Some(told);
    }

    /// What the operation did, in words for a person — the record's own wording
    /// ([`VcsRecord::describe`]), so a resumed transcript says the same: `undid the change to
    /// notes.txt (turn 3)`, then each path when several changed (escaped for display).
    pub fn summary(&self) -> String {
        let mut out = self.record.describe().unwrap_or_default();
        out.push('\n');
        out
    }

    /// The structured form every frontend gives: `entry`, `op` (`undo`, `redo`, `restore`),
    /// `before` and `after` (snapshot ids), `steps` (entry ids), `target`, `written` and
    /// `deleted` (paths relative to the project root), and `editor` — what an attached
    /// editor was told (`written` paths, `failed` `{path, why}`), null without one.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "entry": self.entry.0,
            "op": self.record.op,
            "before": self.record.before,
            "after": self.record.after,
            "steps": self.record.steps,
            "target": self.record.target,
            "written": self.written,
            "deleted": self.deleted,
            "editor": self.editor.as_ref().map(|t| serde_json::json!({
                "written": t.written,
                "failed": t.failed.iter().map(|(p, why)| serde_json::json!({"path": p, "why": why})).collect::<Vec<_>>(),
            })),
        })
    }
}

/// A point of the history a command names: a snapshot id, or an entry of the session (the
/// state of the tree at it).
fn is_entry(text: &str) -> Option<u64> {
    (text.len() < 7 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl ProjectHistory {
    fn check_project(&self, session: SessionId, stack: &Stack) -> Result<(), OpError> {
        match stack.records.iter().find(|r| r.record.root != self.root) {
            Some(other) => Err(OpError::OtherProject {
                session,
                recorded: other.record.root.clone(),
                here: PathBuf::from(&self.root),
            }),
            None => Ok(()),
        }
    }

    /// The snapshot `text` names: an entry id (under 7 digits) is the state of the tree at that
    /// entry, anything else a snapshot id of this project.
    fn point(
        &self,
        session: SessionId,
        reader: &mut SessionReader,
        stack: &Stack,
        text: &str,
    ) -> Result<SnapshotId, OpError> {
        if let Some(entry) = is_entry(text) {
            let unknown = OpError::UnknownEntry { session, entry };
            if entry == 0 || reader.state().last_id < entry {
                return Err(unknown);
            }
            let state = stack
                .state_at(reader, EntryId(entry))
                .map_err(|_| unknown)?
                .ok_or(OpError::NoChanges { session })?;
            return Ok(self.with(|v| v.resolve(&state))?);
        }
        Ok(self.with(|v| v.resolve(text))?)
    }

    /// The stack of the branch `writer` writes (its file `path`, read from the writer's leaf),
    /// checked to be of this project.
    fn read_stack(
        &self,
        writer: &SessionWriter,
        path: &Path,
    ) -> Result<(SessionReader, Stack), OpError> {
        let mut reader = SessionReader::open(path)?;
        let stack = Stack::read(&mut reader, writer.leaf())?;
        self.check_project(writer.id(), &stack)?;
        Ok((reader, stack))
    }

    /// Restore the tree to `target` and record it as `record` (its `before` and `after` set
    /// here).
    fn apply(
        &self,
        writer: &mut SessionWriter,
        stack: &Stack,
        target: SnapshotId,
        snapshot_first: bool,
        mut record: VcsRecord,
    ) -> Result<Moved, OpError> {
        let expect = match (snapshot_first, stack.current()) {
            (false, Some(current)) => Some(self.with(|v| v.resolve(current))?),
            _ => None,
        };
        let note = format!("before {:?} in session {}", record.op, writer.id());
        let restored = self.with(|v| v.restore(target, &Restore { expect, note }))?;
        // A restore to the state the tree is in changes nothing: not a step, so what can be
        // redone stays.
        if record.op == VcsOp::Restore && restored.written.is_empty() && restored.deleted.is_empty()
        {
            return Err(OpError::Unchanged {
                session: writer.id(),
                target: target.short(),
            });
        }
        record.before = restored.before.id.to_hex();
        record.after = target.to_hex();
        record.written.clone_from(&restored.written);
        record.deleted.clone_from(&restored.deleted);
        let entry = writer
            .append(&[Record::Vcs(record.clone())])
            .and_then(|ids| {
                writer.mark_acknowledged()?;
                Ok(ids)
            })
            .map_err(|source| OpError::Unrecorded {
                session: writer.id(),
                target: target.to_hex(),
                before: restored.before.id.to_hex(),
                source: Box::new(source),
            })?[0];
        Ok(Moved {
            entry,
            record,
            written: restored.written,
            deleted: restored.deleted,
            editor: None,
        })
    }

    fn record(&self, op: VcsOp, steps: Vec<EntryId>, target: Option<String>) -> VcsRecord {
        VcsRecord {
            op,
            root: self.root.clone(),
            before: String::new(),
            after: String::new(),
            round: None,
            submission: None,
            calls: Vec::new(),
            steps,
            target,
            written: Vec::new(),
            deleted: Vec::new(),
            turns: Vec::new(),
        }
    }

    /// Take back the latest step of session `session` (file `path`) — with `step.turn`, every
    /// latest step of its turn — restoring the tree to the snapshot before it.
    ///
    /// # Errors
    /// [`OpError::NothingToUndo`]; [`OpError::OtherProject`]; the refusals of
    /// [`smith_vcs::Vcs::restore`] ([`VcsError::Changed`] when the tree changed since the
    /// session last recorded it); the store's errors (the session is locked by a writer).
    pub fn undo(&self, path: &Path, session: SessionId, step: Step) -> Result<Moved, OpError> {
        through_session(path, session, |writer| self.undo_with(writer, path, step))
    }

    /// [`ProjectHistory::undo`] through the writer of a session already open for writing
    /// (`path` is its file): what a server holding the session uses.
    ///
    /// # Errors
    /// As [`ProjectHistory::undo`].
    pub fn undo_with(
        &self,
        writer: &mut SessionWriter,
        path: &Path,
        step: Step,
    ) -> Result<Moved, OpError> {
        let session = writer.id();
        let (mut reader, stack) = self.read_stack(writer, path)?;
        let steps = stack.next_undo(step.turn);
        let oldest = steps
            .last()
            .and_then(|s| stack.get(*s))
            .ok_or(OpError::NothingToUndo { session })?;
        let target = self.with(|v| v.resolve(&oldest.before))?;
        let turns = stack.turns_of(&mut reader, writer.leaf(), &steps)?;
        let mut record = self.record(VcsOp::Undo, steps, None);
        record.turns = turns;
        self.apply(writer, &stack, target, step.snapshot_first, record)
    }

    /// Replay what the latest undo took back, restoring the tree to the snapshot after it.
    ///
    /// # Errors
    /// [`OpError::NothingToRedo`], and as [`ProjectHistory::undo`].
    pub fn redo(&self, path: &Path, session: SessionId, step: Step) -> Result<Moved, OpError> {
        through_session(path, session, |writer| self.redo_with(writer, path, step))
    }

    /// [`ProjectHistory::redo`] through the writer of a session already open for writing.
    ///
    /// # Errors
    /// As [`ProjectHistory::redo`].
    pub fn redo_with(
        &self,
        writer: &mut SessionWriter,
        path: &Path,
        step: Step,
    ) -> Result<Moved, OpError> {
        let session = writer.id();
        let (mut reader, stack) = self.read_stack(writer, path)?;
        let steps = stack.next_redo();
        let newest = steps
            .first()
            .and_then(|s| stack.get(*s))
            .ok_or(OpError::NothingToRedo { session })?;
        let target = self.with(|v| v.resolve(&newest.after))?;
        let turns = stack.turns_of(&mut reader, writer.leaf(), &steps)?;
        let mut record = self.record(VcsOp::Redo, steps, None);
        record.turns = turns;
        self.apply(writer, &stack, target, step.snapshot_first, record)
    }

    /// Restore the tree to `target`: a snapshot id of this project, or an entry id of the
    /// session (time travel: the state at that entry). Recorded as a step undo takes back.
    ///
    /// # Errors
    /// [`OpError::UnknownEntry`], [`OpError::NoChanges`], [`VcsError::UnknownSnapshot`] (also
    /// for a snapshot of another project), and as [`ProjectHistory::undo`].
    pub fn restore(
        &self,
        path: &Path,
        session: SessionId,
        target: &str,
        snapshot_first: bool,
    ) -> Result<Moved, OpError> {
        through_session(path, session, |writer| {
            self.restore_with(writer, path, target, snapshot_first)
        })
    }

    /// [`ProjectHistory::restore`] through the writer of a session already open for writing.
    ///
    /// # Errors
    /// As [`ProjectHistory::restore`].
    pub fn restore_with(
        &self,
        writer: &mut SessionWriter,
        path: &Path,
        target: &str,
        snapshot_first: bool,
    ) -> Result<Moved, OpError> {
        let session = writer.id();
        let (mut reader, stack) = self.read_stack(writer, path)?;
        let snapshot = self.point(session, &mut reader, &stack, target)?;
        let record = self.record(VcsOp::Restore, Vec::new(), Some(target.to_owned()));
        self.apply(writer, &stack, snapshot, snapshot_first, record)
    }

    /// The diff from `from` to `to` (snapshot ids or entry ids of the session, read without
    /// its writer lock). Without `to`: to the working tree as it is now (snapshotted for it);
    /// without either: the session's latest change of the tree.
    ///
    /// # Errors
    /// [`OpError::NoChanges`] when neither is given and the session recorded no change, and as
    /// [`ProjectHistory::restore`].
    pub fn diff(
        &self,
        path: &Path,
        session: SessionId,
        from: Option<&str>,
        to: Option<&str>,
    ) -> Result<Diff, OpError> {
        let mut reader = SessionReader::open(path)?;
        let leaf = reader.state().leaf_id();
        let stack = Stack::read(&mut reader, leaf)?;
        self.check_project(session, &stack)?;
        let (from, to) = match (from, to) {
            (None, _) => {
                let last = stack.records.last().ok_or(OpError::NoChanges { session })?;
                (
                    self.with(|v| v.resolve(&last.record.before))?,
                    self.with(|v| v.resolve(&last.record.after))?,
                )
            }
            (Some(from), to) => {
                let from = self.point(session, &mut reader, &stack, from)?;
                let to = match to {
                    Some(to) => self.point(session, &mut reader, &stack, to)?,
                    None => self.with(|v| v.snapshot("for smith diff"))?.id,
                };
                (from, to)
            }
        };
        Ok(self.with(|v| v.diff(from, to))?)
    }
}

/// Open session `session` (file `path`) as its writer — recovering what a dead process left —
/// and run `op` through its writer; a change done moves on from an interrupted turn the
/// session held, which is settled as aborted after it (a refusal writes nothing).
fn through_session<T>(
    path: &Path,
    session: SessionId,
    op: impl FnOnce(&mut SessionWriter) -> Result<T, OpError>,
) -> Result<T, OpError> {
    let mut opened = smith_agent::Session::open_holding(path, session)?.session;
    let journal = opened.journal();
    let done = op(&mut journal.lock())?;
    opened.settle_interrupted()?;
    opened.close()?;
    Ok(done)
}
