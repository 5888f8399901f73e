//! The undo stack of a session branch, derived from its `vcs` records in branch order (none is
//! stored elsewhere): a batch or a restore pushes a step and clears what could be redone; an
//! undo pops the steps it names onto the redo stack as one group; a redo moves the latest
//! group back.

use smith::EntryId;
use smith_store::{Record, SessionReader, VcsOp, VcsRecord};

/// One `vcs` record of the branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// Its entry.
    pub entry: EntryId,
    /// When it was recorded, in milliseconds since the Unix epoch (UTC).
    pub timestamp_ms: i64,
    /// The record.
    pub record: VcsRecord,
}

/// The branch's working-tree history and its undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct Stack {
    /// Every `vcs` record of the branch, root first.
    pub records: Vec<Recorded>,
    /// The steps undo takes back, oldest first (the entries of batch and restore records).
    pub done: Vec<EntryId>,
    /// The groups redo replays, the next one last (each newest step first).
    pub undone: Vec<Vec<EntryId>>,
}

impl Stack {
    /// The stack of the branch ending at `leaf` (`None`: an empty session). Only the `vcs`
    /// entries' bodies are decoded; the walk reads every other entry's metadata alone.
    ///
    /// # Errors
    /// The store's read errors.
    pub fn read(
        reader: &mut SessionReader,
        leaf: Option<EntryId>,
    ) -> Result<Self, smith_store::Error> {
        let mut ids = Vec::new();
        let mut at = leaf;
        while let Some(id) = at {
            let meta = reader.entry_meta(id)?;
            if meta.record_kind == Record::VCS {
                ids.push(id);
            }
            at = (meta.parent != 0).then_some(EntryId(meta.parent));
        }
        let mut stack = Self::default();
        for id in ids.into_iter().rev() {
            let entry = reader.entry(id)?;
            if let Record::Vcs(record) = entry.record {
                stack.push(Recorded {
                    entry: entry.id,
                    timestamp_ms: entry.timestamp_ms,
                    record,
                });
            }
        }
        Ok(stack)
    }

    /// The turn numbers (1-based along the branch ending at `leaf`) of the batches among
    /// `steps`, ascending and each once. A turn starts at a submission that is neither
    /// delivered into running work nor owned by other work (as playback numbers them).
    ///
    /// # Errors
    /// The store's read errors.
    pub fn turns_of(
        &self,
        reader: &mut SessionReader,
        leaf: Option<EntryId>,
        steps: &[EntryId],
    ) -> Result<Vec<u32>, smith_store::Error> {
        let wanted: Vec<EntryId> = steps
            .iter()
            .filter_map(|s| self.get(*s)?.submission)
            .collect();
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let mut submissions = Vec::new();
        let mut at = leaf;
        while let Some(id) = at {
            let meta = reader.entry_meta(id)?;
            if meta.record_kind == Record::SUBMISSION {
                submissions.push(id);
            }
            at = (meta.parent != 0).then_some(EntryId(meta.parent));
        }
        let mut turns = Vec::new();
        let mut number = 0;
        for id in submissions.into_iter().rev() {
            if let Record::Submission(s) = reader.entry(id)?.record
                && s.delivery.is_none()
                && s.owner.is_none()
            {
                number += 1;
                if wanted.contains(&id) {
                    turns.push(number);
                }
            }
        }
        Ok(turns)
    }

    fn push(&mut self, recorded: Recorded) {
        match recorded.record.op {
            VcsOp::Batch | VcsOp::Restore => {
                self.done.push(recorded.entry);
                self.undone.clear();
            }
            VcsOp::Undo => {
                self.done.retain(|s| !recorded.record.steps.contains(s));
                self.undone.push(recorded.record.steps.clone());
            }
            VcsOp::Redo => {
                if self.undone.last() == Some(&recorded.record.steps) {
                    self.undone.pop();
                }
                self.done
                    .extend(recorded.record.steps.iter().rev().copied());
            }
        }
        self.records.push(recorded);
    }

    /// The record of entry `id`, when it is one of the branch's.
    pub fn get(&self, id: EntryId) -> Option<&VcsRecord> {
        self.records
            .iter()
            .find(|r| r.entry == id)
            .map(|r| &r.record)
    }

    /// The snapshot the working tree was last recorded in: the latest record's `after`.
    pub fn current(&self) -> Option<&str> {
        self.records.last().map(|r| r.record.after.as_str())
    }

    /// The steps the next undo takes back, newest first: the latest step, or with `turn` every
    /// latest step of the same turn (batches of one submission).
    pub fn next_undo(&self, turn: bool) -> Vec<EntryId> {
        let Some(&top) = self.done.last() else {
            return Vec::new();
        };
        let submission = self
            .get(top)
            .filter(|r| r.op == VcsOp::Batch)
            .and_then(|r| r.submission);
        let mut steps = vec![top];
        if turn && submission.is_some() {
            steps.extend(
                self.done
                    .iter()
                    .rev()
                    .skip(1)
                    .take_while(|s| {
                        self.get(**s)
                            .is_some_and(|r| r.op == VcsOp::Batch && r.submission == submission)
                    })
                    .copied(),
            );
        }
        steps
    }

    /// The steps the next redo replays, newest first.
    pub fn next_redo(&self) -> Vec<EntryId> {
        self.undone.last().cloned().unwrap_or_default()
    }

    /// The snapshot the tree was in at entry `at` of the session (read by `reader`): the
    /// `after` of the latest `vcs` record at or before it on its branch; before any, the
    /// `before` of this branch's first record. `None` when neither exists.
    ///
    /// # Errors
    /// The store's read errors (an entry that does not exist among them).
    pub fn state_at(
        &self,
        reader: &mut SessionReader,
        at: EntryId,
    ) -> Result<Option<String>, smith_store::Error> {
        let mut walk = Some(at);
        while let Some(id) = walk {
            let meta = reader.entry_meta(id)?;
            if meta.record_kind == Record::VCS
                && let Record::Vcs(record) = reader.entry(id)?.record
            {
                return Ok(Some(record.after));
            }
            walk = (meta.parent != 0).then_some(EntryId(meta.parent));
        }
        Ok(self.records.first().map(|r| r.record.before.clone()))
    }
}
