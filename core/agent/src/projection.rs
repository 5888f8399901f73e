//! The projection (spec: Sessions → Effective request context, Context edits): one pure
//! function from the selected branch's durable records to the context of the next request —
//! the latest compaction's boundary (its summary, then what it kept), then the applicable
//! context edits — and the
//! state a continuing run needs (the selected model, the message tool results pair with, the
//! secrets registered). Real request construction, resume and request reconstruction all use
//! it; raw history is never changed by it.
//!
//! The branch is walked from its leaf toward the root, so an edit is met before its targets
//! and the first edit met for a target — the latest — wins. Only the kinds the projection
//! reads are decoded, a bounded batch at a time (read in order, decoded on a second core while
//! the next batch is read); what it keeps is the projected context itself.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, mpsc};

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
    /// The branch's latest compaction — its entry and first kept entry — when it has one: the
    /// first item is its summary, and entries before the boundary are not in `items`.
    pub compaction: Option<(EntryId, Option<EntryId>)>,
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
    /// Items leaf-first, their entries, and the edited ones (`(index into items, edit)`).
    items: Vec<ContextItem>,
    entries: Vec<EntryId>,
    edited: Vec<(usize, EntryId)>,
    model: Option<Selection>,
    call_message: Option<EntryId>,
    registered: BTreeSet<String>,
    /// The branch's latest compaction, once met: its entry, summary and first kept entry.
    compacted: Option<(EntryId, String, Option<EntryId>)>,
    /// What that compaction carries across its boundary, when it does.
    carried: Option<smith_store::Carried>,
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
                | Record::COMPACTION
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
                let assistant = m.message.role == smith::Role::Assistant;
                self.item(id, ContextItem::Message(m.message), assistant);
            }
            Record::ToolResult(r) => self.item(id, ContextItem::ToolResult(r.result), false),
            Record::ModelChange(c) if self.model.is_none() => self.model = Some(c.model),
            Record::SecretRegistration(r) => {
                self.registered.insert(r.name);
            }
            Record::ContextEdit(batch) => {
                for op in batch.edits {
                    self.edits.entry(op.target).or_insert((id, op.change));
                }
            }
            // The latest compaction wins; older ones lie in what its summary stands for.
            Record::Compaction(c) if self.compacted.is_none() => {
                self.compacted = Some((id, c.summary, c.first_kept));
                self.carried = c.carried;
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

    /// Feed a message (`assistant`: of the assistant) or tool result.
    fn item(&mut self, id: EntryId, item: ContextItem, assistant: bool) {
        if assistant && self.call_message.is_none() {
            self.call_message = Some(id);
        }
        self.keep(id, item);
    }

    /// Feed what the decoding thread made of an entry.
    fn feed(&mut self, fed: Fed) -> Result<(), ProjectionError> {
        match fed {
            Fed::Item {
                id,
                item,
                assistant,
            } => {
                self.item(id, item, assistant);
                Ok(())
            }
            Fed::Entry(entry) => self.push(*entry),
        }
    }

    fn keep(&mut self, id: EntryId, item: ContextItem) {
        if let Some((_, _, first_kept)) = &self.compacted
            && first_kept.is_none_or(|k| id < k)
        {
            // The summary stands for it (and for any edit of it).
            self.edits.remove(&id);
            return;
        }
        let edit = if self.edits.is_empty() {
            None
        } else {
            self.edits.remove(&id)
        };
        let item = match edit {
            None => item,
            Some((_, EditChange::Omit)) => return,
            Some((edit, EditChange::Replace(text))) => {
                self.edited.push((self.items.len(), edit));
                replaced(item, text)
            }
        };
        self.items.push(item);
        self.entries.push(id);
    }

    /// The entry before which nothing more is needed: the latest compaction's boundary, once
    /// that compaction was met and carries the state from before it ([`Compaction::carried`]);
    /// a walk may stop there.
    ///
    /// [`Compaction::carried`]: smith_store::Compaction::carried
    pub fn floor(&self) -> Option<EntryId> {
        self.carried.as_ref()?;
        let (entry, _, first_kept) = self.compacted.as_ref()?;
        Some(first_kept.unwrap_or(*entry))
    }

    /// The projection of the branch fed so far (to its root, or to its [`Projector::floor`]).
    ///
    /// # Errors
    /// [`ProjectionError::Target`] when an edit's target was never met.
    pub fn finish(mut self) -> Result<Projection, ProjectionError> {
        if let Some(floor) = self.floor() {
            // Edits of what the summary stands for lie below the floor, never met.
            self.edits.retain(|target, _| *target >= floor);
            if let Some(carried) = self.carried.take() {
                self.model = self.model.or(carried.model);
                self.registered.extend(carried.secrets);
            }
        }
        if let Some((target, (edit, _))) = self.edits.iter().min_by_key(|(t, _)| t.0) {
            return Err(ProjectionError::Target {
                edit: *edit,
                target: *target,
            });
        }
        let (mut items, mut entries, mut edited) = (self.items, self.entries, self.edited);
        let compaction = self.compacted.map(|(entry, summary, first_kept)| {
            items.push(ContextItem::Message(smith::Message::user_text(summary)));
            entries.push(entry);
            (entry, first_kept)
        });
        // Leaf-first to conversation order, in place.
        items.reverse();
        entries.reverse();
        edited.reverse();
        let last = items.len().saturating_sub(1);
        for (index, _) in &mut edited {
            *index = last - *index;
        }
        Ok(Projection {
            items,
            entries,
            edited,
            model: self.model,
            call_message: self.call_message,
            registered: self.registered,
            compaction,
        })
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
/// batch not yet appended). A branch longer than one batch (1,024 wanted entries) is read on
/// this thread while a second decodes most of what was read (at most two batches ahead); the
/// fold stays here, in order. A first batch that ends at a compaction is folded before that
/// choice: below a compaction that carries the state from before it, only what it kept is
/// read.
///
/// # Errors
/// As [`project`].
pub fn project_with(
    reader: &mut SessionReader,
    leaf: Option<EntryId>,
    projector: Projector,
) -> Result<Projection, ProjectionError> {
    walk(reader, leaf, projector, &mut Walked::default())
}

/// What an earlier walk of a branch read ([`crate::resume::Resume`], opening's): a projection
/// takes it instead of reading it again (issue 69: continuing reads no body twice).
#[derive(Debug, Default)]
pub(crate) struct Walked {
    /// The heads of the entries walked, root last (as walked, from the leaf): a walk through
    /// the same entries takes them in turn, each while its id is the one the walk meets (an
    /// entry's head never changes).
    heads: Vec<Head>,
    /// Messages decoded, by entry: moved out as the projection meets them.
    messages: HashMap<EntryId, Entry>,
    /// How many heads were taken.
    taken: usize,
}

/// What a walk needs of an entry's metadata to pass it by or take it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    /// The entry.
    pub(crate) id: EntryId,
    /// Its parent, `None` for a root.
    pub(crate) parent: Option<EntryId>,
    /// Its record kind.
    pub(crate) kind: u16,
    /// Its entry flags ([`ENTRY_PROJECTION`]).
    pub(crate) flags: u16,
}

impl Walked {
    /// What a walk from the leaf read: the `heads` it met, from the leaf, and the `messages`
    /// it decoded.
    pub(crate) fn new(heads: Vec<Head>, messages: HashMap<EntryId, Entry>) -> Self {
        Self {
            heads,
            messages,
            taken: 0,
        }
    }

    /// The head of `id` when it is the next one walked, taken.
    fn head(&mut self, id: EntryId) -> Option<Head> {
        let head = *self.heads.get(self.taken).filter(|h| h.id == id)?;
        self.taken += 1;
        Some(head)
    }
}

/// [`project`] of the branch ending at `leaf`, taking what `walked` holds — the heads of an
/// earlier walk, decoded messages — instead of reading it again; the messages it meets are
/// moved out.
///
/// # Errors
/// As [`project`].
pub(crate) fn project_walked(
    reader: &mut SessionReader,
    leaf: EntryId,
    walked: &mut Walked,
) -> Result<Projection, ProjectionError> {
    walk(reader, Some(leaf), Projector::new(), walked)
}

/// The walk of [`project_with`], taking what `table` holds instead of reading it.
fn walk(
    reader: &mut SessionReader,
    leaf: Option<EntryId>,
    mut projector: Projector,
    table: &mut Walked,
) -> Result<Projection, ProjectionError> {
    let mut at = leaf;
    let mut batch = Batch::default();
    let mut known = batch.fill(reader, &mut at, &projector, table)?;
    if batch.at_compaction && at.is_some() {
        let (mut head, tail) = (Vec::new(), Vec::new());
        batch.decode_into(0..batch.entries.len(), &mut head);
        batch.fold(reader, &mut projector, (head, tail), known)?;
        stop_at_floor(&projector, &mut at);
        known = batch.fill(reader, &mut at, &projector, table)?;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if at.is_none() || cores < 2 {
        let (mut decoded, mut none) = (Vec::new(), Vec::new());
        loop {
            batch.decode_into(0..batch.entries.len(), &mut decoded);
            (decoded, none) = batch.fold(reader, &mut projector, (decoded, none), known)?;
            stop_at_floor(&projector, &mut at);
            if at.is_none() {
                return projector.finish();
            }
            known = batch.fill(reader, &mut at, &projector, table)?;
        }
    }
    std::thread::scope(|scope| {
        type Work = (Arc<Batch>, Decoded);
        let (to_worker, work) = mpsc::sync_channel::<Work>(IN_FLIGHT);
        let (to_main, done) = mpsc::sync_channel::<Decoded>(IN_FLIGHT);
        scope.spawn(move || {
            for (batch, mut decoded) in work {
                batch.decode_into(0..batch.split(), &mut decoded);
                drop(batch);
                if to_main.send(decoded).is_err() {
                    break;
                }
            }
        });
        // Batches sent to the worker, oldest first, with the entries they take known; their
        // buffers come back for reuse.
        let mut sent: VecDeque<(Arc<Batch>, Known)> = VecDeque::with_capacity(IN_FLIGHT);
        let mut spare: Vec<Batch> = Vec::new();
        // Emptied decode buffers, handed back to the worker (no fresh allocation per batch).
        let mut outputs: Vec<Decoded> = Vec::new();
        let mut tail = Vec::new();
        let mut worker = Some(to_worker);
        let mut read = Some((batch, known));
        loop {
            if let Some((batch, known)) = read.take() {
                let batch = Arc::new(batch);
                if worker.as_ref().is_some_and(|w| {
                    let output = outputs.pop().unwrap_or_default();
                    w.send((Arc::clone(&batch), output)).is_err()
                }) {
                    worker = None;
                }
                sent.push_back((batch, known));
            }
            stop_at_floor(&projector, &mut at);
            // A batch that ended at a compaction is folded before more is read: its boundary
            // may end the walk.
            let compaction_pending = sent.back().is_some_and(|(b, _)| b.at_compaction);
            if at.is_some() && sent.len() < IN_FLIGHT && !compaction_pending {
                let mut batch = spare.pop().unwrap_or_default();
                let known = batch.fill(reader, &mut at, &projector, table)?;
                read = Some((batch, known));
                continue;
            }
            let Some((oldest, known)) = sent.pop_front() else {
                break;
            };
            // The batch's tail is decoded here while the worker decodes its head (or the next
            // batch's). The worker answers in order; should it have stopped (it cannot on bad
            // input: decoding returns errors), what it did not answer is decoded here.
            oldest.decode_into(oldest.split()..oldest.entries.len(), &mut tail);
            let head = match worker.as_ref().and_then(|_| done.recv().ok()) {
                Some(head) => head,
                None => {
                    worker = None;
                    let mut head = Vec::new();
                    oldest.decode_into(0..oldest.split(), &mut head);
                    head
                }
            };
            let (head, emptied) = oldest.fold(reader, &mut projector, (head, tail), known)?;
            outputs.push(head);
            tail = emptied;
            if let Ok(batch) = Arc::try_unwrap(oldest) {
                spare.push(batch);
            }
        }
        drop(worker);
        projector.finish()
    })
}

/// End the walk at `at` when it has passed below the projector's floor: what lies there is
/// summarized, and the state it left is carried by the compaction.
fn stop_at_floor(projector: &Projector, at: &mut Option<EntryId>) {
    if let (Some(floor), Some(next)) = (projector.floor(), *at)
        && next < floor
    {
        *at = None;
    }
}

/// Wanted entries one batch of a projection holds at most.
const BATCH: usize = 1024;

/// Batches read ahead of the fold at most: with [`BATCH`], the walk's working set.
const IN_FLIGHT: usize = 2;

/// An entry as the fold takes it, made on the decoding thread: most entries are messages and
/// tool results, moved out of their records there (so the fold receives a context item, not
/// the much larger record); others are passed whole.
#[derive(Debug)]
enum Fed {
    /// A message or tool result: its entry, its item, whether it is the assistant's.
    Item {
        id: EntryId,
        item: ContextItem,
        assistant: bool,
    },
    /// Any other entry the projection reads.
    Entry(Box<Entry>),
}

impl From<Entry> for Fed {
    fn from(entry: Entry) -> Self {
        let id = entry.id;
        match entry.record {
            Record::Message(m) => Fed::Item {
                id,
                assistant: m.message.role == smith::Role::Assistant,
                item: ContextItem::Message(m.message),
            },
            Record::ToolResult(r) => Fed::Item {
                id,
                item: ContextItem::ToolResult(r.result),
                assistant: false,
            },
            record => Fed::Entry(Box::new(Entry { record, ..entry })),
        }
    }
}

/// A batch's entries (or a part of them) decoded, in order: `None` for a payload that does
/// not decode, or that was not read because the entry was known.
type Decoded = Vec<Option<Fed>>;

/// The entries of a batch taken from those already decoded, by their place in the batch,
/// in order.
type Known = Vec<(usize, Fed)>;

/// A batch of the ancestry's wanted entries, read in order: their validated frame payloads
/// in one reused buffer.
#[derive(Debug, Default)]
struct Batch {
    bytes: Vec<u8>,
    /// Each entry and its payload's range in `bytes`: empty for an entry taken known.
    entries: Vec<(EntryId, std::ops::Range<usize>)>,
    /// The batch ends at the branch's latest compaction (the first met): what lies below its
    /// boundary is not read until it is folded, and then not at all when it carries the
    /// state from before it.
    at_compaction: bool,
}

impl Batch {
    /// Read up to [`BATCH`] wanted entries from `at` toward the root (metadata first; only
    /// wanted bodies), leaving `at` at the next entry to read. Ends early after the first
    /// compaction met while `projector` has met none (so it is folded before anything below
    /// it is read), and at `projector`'s floor, below which nothing is read. What `walked`
    /// holds (the heads of an earlier walk, decoded messages) is taken, not read: the
    /// batch's messages taken are returned.
    fn fill(
        &mut self,
        reader: &mut SessionReader,
        at: &mut Option<EntryId>,
        projector: &Projector,
        walked: &mut Walked,
    ) -> Result<Known, ProjectionError> {
        let mut known = Known::new();
        let floor = projector.floor();
        let until_compaction = projector.compacted.is_none();
        self.bytes.clear();
        self.entries.clear();
        self.at_compaction = false;
        while let Some(id) = *at {
            if self.entries.len() == BATCH {
                break;
            }
            if floor.is_some_and(|floor| id < floor) {
                *at = None;
                break;
            }
            let start = self.bytes.len();
            if let Some(head) = walked.head(id) {
                if let Some(entry) = walked.messages.remove(&id) {
                    *at = head.parent;
                    known.push((self.entries.len(), Fed::from(entry)));
                    self.entries.push((id, start..start));
                    continue;
                }
                if !Projector::reads(head.kind, head.flags) {
                    *at = head.parent;
                    continue;
                }
            }
            let wanted = |m: &smith_store::meta::EntryMeta| {
                Projector::reads(m.record_kind, m.flags)
                    && !walked.messages.contains_key(&EntryId(m.id))
            };
            let (meta, read) = reader.entry_payload_into(id, wanted, &mut self.bytes)?;
            *at = (meta.parent != 0).then_some(EntryId(meta.parent));
            if read {
                self.entries.push((id, start..self.bytes.len()));
                if until_compaction && meta.record_kind == Record::COMPACTION {
                    self.at_compaction = true;
                    break;
                }
            } else if let Some(entry) = walked.messages.remove(&id) {
                known.push((self.entries.len(), Fed::from(entry)));
                self.entries.push((id, start..start));
            }
        }
        Ok(known)
    }

    /// Where the worker's share of the batch (its head) ends: it decodes about three
    /// quarters, the reading thread the rest (reading and folding are its other work).
    fn split(&self) -> usize {
        self.entries.len() * 3 / 4
    }

    /// The batch's entries `which` decoded, in order, into `out` (emptied first); `None` for
    /// a payload that does not decode.
    fn decode_into(&self, which: std::ops::Range<usize>, out: &mut Decoded) {
        out.clear();
        let entries = self.entries.get(which).unwrap_or_default();
        out.extend(entries.iter().map(|(_, range)| {
            if range.is_empty() {
                return None;
            }
            self.bytes
                .get(range.clone())
                .and_then(|p| smith_store::decode_entry_payload(p).ok())
                .map(Fed::from)
        }));
    }

    /// Feed this batch's entries to `projector`, in order: `head` then `tail` (its entries
    /// decoded, in two parts) and, in their places, those `known`; the two parts returned
    /// emptied, for reuse.
    fn fold(
        &self,
        reader: &mut SessionReader,
        projector: &mut Projector,
        (mut head, mut tail): (Decoded, Decoded),
        known: Known,
    ) -> Result<(Decoded, Decoded), ProjectionError> {
        let wanted = |m: &smith_store::meta::EntryMeta| Projector::reads(m.record_kind, m.flags);
        let decoded = head.drain(..).chain(tail.drain(..));
        let mut known = known.into_iter().peekable();
        for (at, ((id, _), decoded)) in self.entries.iter().zip(decoded).enumerate() {
            if let Some((_, fed)) = known.next_if(|(place, _)| *place == at) {
                projector.feed(fed)?;
                continue;
            }
            match decoded {
                Some(fed) => projector.feed(fed)?,
                // A body that does not decode: read it again the validated way, which says
                // what is wrong (or finds it after a rescan).
                None => {
                    if let Some(entry) = reader.entry_if(*id, wanted)?.1 {
                        projector.push(entry)?;
                    }
                }
            }
        }
        Ok((head, tail))
    }
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
