//! The projection (spec: Sessions → Effective request context, Context edits): one pure
//! function from the selected branch's durable records to the context of the next request —
//! the compaction boundary (none exists yet), then the applicable context edits — and the
//! state a continuing run needs (the selected model, the message tool results pair with, the
//! secrets registered). Real request construction, resume and request reconstruction all use
//! it; raw history is never changed by it.
//!
//! The branch is walked from its leaf toward the root, so an edit is met before its targets
//! and the first edit met for a target — the latest — wins. Only the kinds the projection
//! reads are decoded, a bounded batch at a time (read in order, decoded on the available
//! cores); what it keeps is the projected context itself.

use std::collections::{BTreeSet, HashMap};

use smith::{ContentBlock, ContextItem, EntryId, Selection};
use smith_store::{EditChange, Entry, Record, SessionReader, meta::ENTRY_PROJECTION};

/// The context a branch leaves for the next request, and what continuing it needs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Projection {
    /// The context, in conversation order.
    pub items: Vec<ContextItem>,
    /// The entry each item of `items` comes from (same length and order).
    pub entries: Vec<EntryId>,
    /// Which items an edit changed: `(index into items, the edit's entry)`.
    pub edited: Vec<(usize, EntryId)>,
    /// The selection the branch's last `model_change` recorded.
    pub model: Option<Selection>,
    /// The branch's last assistant message (its tool results pair with it), even when an edit
    /// omits it from the context.
    pub call_message: Option<EntryId>,
    /// Names of the secrets registered on the branch.
    pub registered: BTreeSet<String>,
}

/// Why a branch cannot be projected. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    /// A record this build does not know changes what requests see (its entry carries the
    /// projection flag): ignoring it would build a request the session never described.
    #[error(
        "entry {entry} is a record of kind {kind} that this Smith does not know, and it changes what the model sees; a request past it cannot be built or reconstructed — use the Smith that wrote it, or continue from an entry before it"
    )]
    Unsupported {
        /// The entry.
        entry: EntryId,
        /// Its record kind.
        kind: u16,
    },
    /// A context edit names a target that is not a message or tool result on its branch (the
    /// file was not written by Smith's validated edit path).
    #[error(
        "the context edit at entry {edit} targets entry {target}, which is not a message or tool result before it on its branch; the session is damaged there"
    )]
    Target {
        /// The edit's entry.
        edit: EntryId,
        /// The target it names.
        target: EntryId,
    },
    /// The session file could not be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

impl ProjectionError {
    /// As a store error about the session file at `path`
    /// ([`smith_store::Error::Unprojectable`], or the store error itself).
    pub fn into_store(self, path: &std::path::Path) -> smith_store::Error {
        let entry = match &self {
            Self::Store(_) => 0,
            Self::Unsupported { entry, .. } => entry.0,
            Self::Target { edit, .. } => edit.0,
        };
        match self {
            Self::Store(e) => e,
            other => smith_store::Error::Unprojectable {
                path: path.to_owned(),
                entry,
                reason: other.to_string(),
            },
        }
    }
}

/// The fold behind [`project`]: fed a branch's entries from the leaf toward the root.
#[derive(Debug, Default)]
pub struct Projector {
    /// Pending edits by target: the first met (the latest) wins.
    edits: HashMap<EntryId, (EntryId, EditChange)>,
    /// Items leaf-first: `(entry, item, edit)`.
    reversed: Vec<(EntryId, ContextItem, Option<EntryId>)>,
    model: Option<Selection>,
    call_message: Option<EntryId>,
    registered: BTreeSet<String>,
}

impl Projector {
    /// A projector at a branch's leaf.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the projection reads records of `kind` (others are passed over undecoded), or
    /// must refuse them (`flags` carries [`ENTRY_PROJECTION`] on a kind it does not know).
    pub fn reads(kind: u16, flags: u16) -> bool {
        matches!(
            kind,
            Record::MESSAGE
                | Record::TOOL_RESULT
                | Record::MODEL_CHANGE
                | Record::SECRET_REGISTRATION
                | Record::CONTEXT_EDIT
        ) || flags & ENTRY_PROJECTION != 0
    }

    /// Feed the next entry of the branch, walking from the leaf toward the root.
    ///
    /// # Errors
    /// [`ProjectionError::Unsupported`] for an unknown record that changes the projection.
    pub fn push(&mut self, entry: Entry) -> Result<(), ProjectionError> {
        let id = entry.id;
        match entry.record {
            Record::Message(m) => {
                if m.message.role == smith::Role::Assistant && self.call_message.is_none() {
                    self.call_message = Some(id);
                }
                self.keep(id, ContextItem::Message(m.message));
            }
            Record::ToolResult(r) => self.keep(id, ContextItem::ToolResult(r.result)),
            Record::ModelChange(c) if self.model.is_none() => self.model = Some(c.model),
            Record::SecretRegistration(r) => {
                self.registered.insert(r.name);
            }
            Record::ContextEdit(batch) => {
                for op in batch.edits {
                    self.edits.entry(op.target).or_insert((id, op.change));
                }
            }
            Record::Unknown {
                kind,
                projection: true,
                ..
            } => return Err(ProjectionError::Unsupported { entry: id, kind }),
            _ => {}
        }
        Ok(())
    }

    fn keep(&mut self, id: EntryId, item: ContextItem) {
        match self.edits.remove(&id) {
            None => self.reversed.push((id, item, None)),
            Some((_, EditChange::Omit)) => {}
            Some((edit, EditChange::Replace(text))) => {
                self.reversed.push((id, replaced(item, text), Some(edit)));
            }
        }
    }

    /// The projection of the branch fed so far (to its root).
    ///
    /// # Errors
    /// [`ProjectionError::Target`] when an edit's target was never met.
    pub fn finish(self) -> Result<Projection, ProjectionError> {
        if let Some((target, (edit, _))) = self.edits.iter().min_by_key(|(t, _)| t.0) {
            return Err(ProjectionError::Target {
                edit: *edit,
                target: *target,
            });
        }
        let mut out = Projection {
            items: Vec::with_capacity(self.reversed.len()),
            entries: Vec::with_capacity(self.reversed.len()),
            edited: Vec::new(),
            model: self.model,
            call_message: self.call_message,
            registered: self.registered,
        };
        for (index, (id, item, edit)) in self.reversed.into_iter().rev().enumerate() {
            out.items.push(item);
            out.entries.push(id);
            if let Some(edit) = edit {
                out.edited.push((index, edit));
            }
        }
        Ok(out)
    }
}

/// `item` with its model-visible text replaced by `text` (see [`EditChange::Replace`]).
fn replaced(item: ContextItem, text: String) -> ContextItem {
    match item {
        ContextItem::Message(mut m) => {
            let calls = m
                .content
                .into_iter()
                .filter(|b| matches!(b, ContentBlock::ToolCall(_)));
            m.content = std::iter::once(ContentBlock::Text { text })
                .chain(calls)
                .collect();
            ContextItem::Message(m)
        }
        ContextItem::ToolResult(mut r) => {
            r.output = text;
            ContextItem::ToolResult(r)
        }
    }
}

/// Project the branch ending at `leaf` (`None`: an empty branch) from `reader`, one entry at a
/// time toward the root, decoding only the kinds the projection reads.
///
/// # Errors
/// [`ProjectionError`]: an unknown projection-changing record, a damaged edit, or the store's
/// read errors (damage met on the branch).
pub fn project(
    reader: &mut SessionReader,
    leaf: Option<EntryId>,
) -> Result<Projection, ProjectionError> {
    project_with(reader, leaf, Projector::new())
}

/// [`project`], continuing `projector` (already fed the entries after `leaf`, such as an edit
/// batch not yet appended).
///
/// # Errors
/// As [`project`].
pub fn project_with(
    reader: &mut SessionReader,
    leaf: Option<EntryId>,
    mut projector: Projector,
) -> Result<Projection, ProjectionError> {
    let wanted = |m: &smith_store::meta::EntryMeta| Projector::reads(m.record_kind, m.flags);
    let mut at = leaf;
    let mut batch: Vec<(EntryId, Vec<u8>)> = Vec::with_capacity(BATCH);
    while at.is_some() {
        // A bounded batch of the ancestry, read in order (metadata first; only wanted bodies)…
        batch.clear();
        while let Some(id) = at {
            if batch.len() == BATCH {
                break;
            }
            let (meta, payload) = reader.entry_payload_if(id, wanted)?;
            at = (meta.parent != 0).then_some(EntryId(meta.parent));
            if let Some(payload) = payload {
                batch.push((id, payload));
            }
        }
        // …decoded on the available cores, then folded in order.
        for (i, decoded) in decode_all(&batch).into_iter().enumerate() {
            let entry = match decoded {
                Some(entry) => entry,
                // A body that does not decode: read it again the validated way, which says
                // what is wrong (or finds it after a rescan).
                None => match reader.entry_if(batch[i].0, wanted)?.1 {
                    Some(entry) => entry,
                    None => continue,
                },
            };
            projector.push(entry)?;
        }
    }
    projector.finish()
}

/// Entries one batch of a projection holds at most: the working set of the walk.
const BATCH: usize = 1024;

/// Decode `batch`'s payloads, in order, splitting the work over the available cores when the
/// batch is large enough to pay for the threads. `None` for a payload that does not decode.
fn decode_all(batch: &[(EntryId, Vec<u8>)]) -> Vec<Option<Entry>> {
    let decode = |items: &[(EntryId, Vec<u8>)]| -> Vec<Option<Entry>> {
        items
            .iter()
            .map(|(_, p)| smith_store::decode_entry_payload(p).ok())
            .collect()
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if cores < 2 || batch.len() < 256 {
        return decode(batch);
    }
    let parts = cores.min(4);
    let chunk = batch.len().div_ceil(parts);
    std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .skip(1)
            .map(|part| scope.spawn(move || decode(part)))
            .collect();
        let mut out = decode(&batch[..chunk.min(batch.len())]);
        for handle in handles {
            match handle.join() {
                Ok(part) => out.extend(part),
                // A decoding thread cannot panic on bad input (decoding returns errors); if
                // it did, its entries are read again the validated way.
                Err(_) => out.extend(std::iter::repeat_n(None, chunk)),
            }
        }
        out.truncate(batch.len());
        out
    })
}

/// Project an in-memory branch given root first (as [`SessionReader::branch`] reversed).
///
/// # Errors
/// As [`Projector::push`] and [`Projector::finish`].
pub fn project_entries<'a>(
    branch: impl DoubleEndedIterator<Item = &'a Entry>,
) -> Result<Projection, ProjectionError> {
    let mut projector = Projector::new();
    for entry in branch.rev() {
        if Projector::reads(entry.record.kind(), 0) || entry.record.changes_projection() {
            projector.push(entry.clone())?;
        }
    }
    projector.finish()
}
