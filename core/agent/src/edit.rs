//! Context edits (spec: Sessions → Context edits): one validated batch, appended as one
//! `context_edit` record, that omits or replaces the model-visible content of earlier
//! messages and tool results on the selected branch. Raw history is never changed: the targets
//! keep their identity, role, content, effects and usage; later requests see the projection.

use smith::{ContextItem, EntryId};
use smith_store::{ContextEdit, EditChange, EditOp, Entry, MAX_EDIT_BYTES, MAX_EDITS, Record};

use crate::Session;
use crate::projection::{Projection, Projector};

/// Why an edit batch was refused. Nothing was written, and the projection is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The batch holds no edit.
    #[error("the edit batch is empty; name at least one entry to omit or replace")]
    Empty,
    /// More edits than one batch may hold.
    #[error("the edit batch holds {count} edits, more than the {max} one batch may hold; split it")]
    TooMany {
        /// Edits in the batch.
        count: usize,
        /// [`MAX_EDITS`].
        max: usize,
    },
    /// The replacement texts are too large together.
    #[error(
        "the edit batch's replacement texts are {bytes} bytes together, more than the {max} one batch may hold; shorten them (or split the batch when there are several)"
    )]
    TooLarge {
        /// Their total size in bytes.
        bytes: usize,
        /// [`MAX_EDIT_BYTES`].
        max: usize,
    },
    /// A replacement is empty.
    #[error(
        "the replacement of entry {target} is empty; an empty message or output would leave a request some providers refuse — omit the entry instead, or give it some text"
    )]
    EmptyReplacement {
        /// The target.
        target: EntryId,
    },
    /// Two edits of the batch name one target.
    #[error("entry {target} is edited twice in one batch; give each entry one edit")]
    Duplicate {
        /// The target.
        target: EntryId,
    },
    /// The target does not exist.
    #[error("the session has no entry {target} (its entries are 1 to {last})")]
    NoSuchEntry {
        /// The target.
        target: EntryId,
        /// The session's last entry id.
        last: u64,
    },
    /// The target is not something the model sees.
    #[error(
        "entry {target} is not a message or tool result (it holds the `{kind}` record); only those are part of what the model sees"
    )]
    NotContext {
        /// The target.
        target: EntryId,
        /// Its record kind's name.
        kind: &'static str,
    },
    /// The target is not on the selected branch.
    #[error(
        "entry {target} is not on the selected branch, so editing it would change nothing the next request sees; select a branch through it first"
    )]
    OffBranch {
        /// The target.
        target: EntryId,
    },
    /// The target lies before the boundary of the branch's latest compaction: its summary
    /// stands for it in what the model sees.
    #[error(
        "entry {target} is summarized by the compaction at entry {compaction}, so the model no longer sees it and editing it would change nothing; edit an entry after the boundary, or select a branch before the compaction"
    )]
    Compacted {
        /// The target.
        target: EntryId,
        /// The compaction's entry.
        compaction: EntryId,
    },
    /// The edited context would break the pairing or order of tool calls and results.
    #[error(
        "the edited context would break tool-call pairing ({reason}); omit a tool call's message together with all of its results, or replace their text instead"
    )]
    Pairing {
        /// What the pairing check found.
        reason: String,
    },
    /// Work is running in the session.
    #[error("work is running in this session; edit its context after the work ends")]
    Busy,
    /// The branch cannot be projected.
    #[error(transparent)]
    Projection(#[from] crate::ProjectionError),
    /// The store's errors (nothing was appended).
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

impl Session {
    /// Append `edits` as one `context_edit` batch on the selected branch, after validating the
    /// batch whole: at most [`MAX_EDITS`] edits and [`MAX_EDIT_BYTES`] of replacement text, each
    /// to a distinct message or tool result on the selected branch, and a resulting context
    /// whose tool calls and results stay paired and ordered. The latest edit of a target wins;
    /// an earlier omission can be undone by a later replacement. Returns the batch's entry id;
    /// the next request sees the edited projection.
    ///
    /// An interrupted turn the session holds is settled as aborted first, once every check
    /// passes (the pairing checked with the results its settlement gives its calls).
    ///
    /// # Errors
    /// [`EditError`], naming the offending target; nothing was written.
    pub fn edit_context(&mut self, edits: Vec<EditOp>) -> Result<EntryId, EditError> {
        self.check_edits(&edits)?;
        let batch = ContextEdit { edits };
        let mut projected = self.projected_with(&batch)?;
        if let Some((compaction, first_kept)) = projected.compaction
            && let Some(edit) = batch
                .edits
                .iter()
                .find(|e| first_kept.is_none_or(|k| e.target < k) && e.target < compaction)
        {
            return Err(EditError::Compacted {
                target: edit.target,
                compaction,
            });
        }
        // An interrupted turn held here moves on first, its calls answered as interrupted:
        // the pairing is checked with those results, so a refusal writes nothing at all.
        let settled: Vec<ContextItem> = if self.held.is_some() {
            self.loaded()?;
            self.unanswered_calls()
                .into_iter()
                .map(|(call_id, name)| {
                    ContextItem::ToolResult(smith::ToolResult {
                        call_id,
                        name,
                        output: String::new(),
                        is_error: true,
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let own = projected.items.len();
        projected.items.extend(settled);
        let pairing = paired(&projected);
        projected.items.truncate(own);
        pairing?;
        if self.held.is_some() {
            self.settle_interrupted()?;
            projected = self.projected_with(&batch)?;
        }
        let next = self.writer.lock().next_entry_id();
        let ids = self.writer.lock().append(&[Record::ContextEdit(batch)])?;
        self.set_context(projected);
        Ok(ids.first().copied().unwrap_or(next))
    }

    /// The checks of [`Session::edit_context`] that need no projection (count, size, empty
    /// replacements, duplicates, idle work, targets that are messages or tool results of this
    /// session), made without writing; an interrupted turn held here is not running work.
    ///
    /// # Errors
    /// [`EditError`], naming the offending target.
    pub fn check_edits(&self, edits: &[EditOp]) -> Result<(), EditError> {
        if edits.is_empty() {
            return Err(EditError::Empty);
        }
        if edits.len() > MAX_EDITS {
            return Err(EditError::TooMany {
                count: edits.len(),
                max: MAX_EDITS,
            });
        }
        let bytes: usize = edits
            .iter()
            .map(|e| match &e.change {
                EditChange::Replace(text) => text.len(),
                EditChange::Omit => 0,
            })
            .sum();
        if bytes > MAX_EDIT_BYTES {
            return Err(EditError::TooLarge {
                bytes,
                max: MAX_EDIT_BYTES,
            });
        }
        if let Some(empty) = edits
            .iter()
            .find(|e| matches!(&e.change, EditChange::Replace(t) if t.trim().is_empty()))
        {
            return Err(EditError::EmptyReplacement {
                target: empty.target,
            });
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(dup) = edits.iter().find(|e| !seen.insert(e.target)) {
            return Err(EditError::Duplicate { target: dup.target });
        }
        // An interrupted turn held here is no running work: it is settled before the edit.
        if crate::inbox::lock(&self.work).busy() {
            return Err(EditError::Busy);
        }
        let next = self.writer.lock().next_entry_id();
        let mut reader = smith_store::SessionReader::open(self.path())?;
        for edit in edits {
            if edit.target.0 == 0 || edit.target.0 >= next.0 {
                return Err(EditError::NoSuchEntry {
                    target: edit.target,
                    last: next.0.saturating_sub(1),
                });
            }
            let kind = reader.entry_meta(edit.target)?.record_kind;
            if kind != Record::MESSAGE && kind != Record::TOOL_RESULT {
                let name = reader.entry(edit.target)?.record.kind_name();
                return Err(EditError::NotContext {
                    target: edit.target,
                    kind: name,
                });
            }
        }
        Ok(())
    }

    /// The projection of the selected branch with `batch` appended at its leaf.
    fn projected_with(&self, batch: &ContextEdit) -> Result<Projection, EditError> {
        let (leaf, next) = {
            let writer = self.writer.lock();
            (writer.leaf(), writer.next_entry_id())
        };
        let mut reader = smith_store::SessionReader::open(self.path())?;
        self.project_with_batch(&mut reader, leaf, next, batch)
    }

    /// The projection of the selected branch with `batch` appended at its leaf as entry
    /// `next`; a target the walk never meets is off the branch.
    fn project_with_batch(
        &self,
        reader: &mut smith_store::SessionReader,
        leaf: Option<EntryId>,
        next: EntryId,
        batch: &ContextEdit,
    ) -> Result<Projection, EditError> {
        let mut projector = Projector::new();
        projector.push(Entry {
            id: next,
            parent: leaf,
            pair: None,
            timestamp_ms: 0,
            record: Record::ContextEdit(batch.clone()),
        })?;
        match crate::projection::project_with(reader, leaf, projector) {
            Err(crate::ProjectionError::Target { target, edit }) if edit == next => {
                Err(EditError::OffBranch { target })
            }
            other => Ok(other?),
        }
    }
}

/// Whether `projected`'s tool calls and results stay paired and ordered; the refusal names the
/// entries (an item past its entries, such as a result a settlement would add, as `?`).
fn paired(projected: &Projection) -> Result<(), EditError> {
    let Err(e) = smith::check_pairing(&projected.items) else {
        return Ok(());
    };
    let entry = |index: usize| {
        projected
            .entries
            .get(index)
            .map_or_else(|| "?".to_owned(), ToString::to_string)
    };
    Err(EditError::Pairing {
        reason: match e {
            smith::PairingError::Unanswered { call_id, index } => format!(
                "tool call `{call_id}` of entry {} would have no result after it",
                entry(index)
            ),
            smith::PairingError::Orphan { call_id, index } => format!(
                "the tool result for `{call_id}` (entry {}) would follow no message holding its call",
                entry(index)
            ),
            smith::PairingError::DuplicateCall { call_id, index } => format!(
                "tool call `{call_id}` appears twice in entry {}",
                entry(index)
            ),
        },
    })
}
