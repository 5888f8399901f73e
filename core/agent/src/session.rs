//! A session handle: the writer plus the effective context rebuilt from the file.

use std::path::{Path, PathBuf};

use smith::{ContextItem, EntryId, Selection, SessionId};
// `replay` below rebuilds a branch's request context.
use smith_store::{NewEntry, Record, SessionStart, SessionWriter, SharedWriter, Skipped, TornTail};

use interrupted::ended_anywhere;

mod interrupted;

/// An open session, writable by this process: the [`SessionWriter`], the context the next
/// provider request starts from, and the currently selected model.
#[derive(Debug)]
pub struct Session {
    pub(crate) writer: SharedWriter,
    id: SessionId,
    path: PathBuf,
    /// The context the next request starts from; `None` until a request first needs it
    /// (then projected from the file: [`Session::context`]).
    pub(crate) context: Option<Context>,
    pub(crate) model: Option<Selection>,
    /// The entry of the last assistant message: tool results pair with it.
    pub(crate) call_message: Option<EntryId>,
    /// The selected branch ends inside a run that never recorded its end (its process died).
    pub(crate) interrupted: bool,
    /// Live work and the queue, shared with the session's [`crate::Inbox`]es.
    pub(crate) work: std::sync::Arc<std::sync::Mutex<crate::work::WorkState>>,
    /// Names of the secrets registered on the selected branch.
    registered: std::collections::BTreeSet<String>,
    /// The secrets the session is redacted against, and how many handed over since were
    /// recorded.
    secrets: Option<(smith_secrets::Shared, usize)>,
    /// The request inputs last recorded on the selected branch.
    pub(crate) ledger: crate::request::Ledger,
    /// Automatic compaction's state in this process.
    pub(crate) compaction: crate::compact::AutoState,
    /// The permission mode the selected branch last recorded, as opened or recorded since.
    pub(crate) permission_mode: Option<String>,
    /// What the session keeps running for its plugins between tool calls (programs a
    /// plugin started): torn down when the session is dropped.
    pub(crate) resident: std::sync::Arc<smith::Resident>,
    /// The interrupted turn held open by [`Session::open_holding`], until it is continued
    /// or settled.
    pub(crate) held: Option<crate::InterruptedTurn>,
    /// What opening read that the first projection takes instead of reading it again;
    /// `None` once a context was loaded.
    opening: Option<Opening>,
    /// Whether a turn's end said that the session's memory scope crossed its ceiling.
    pub(crate) memory_said: bool,
    /// The session's memory scope: what opening it allocated, and its turns' scopes' parent.
    /// Last, so it closes after everything above is dropped.
    pub(crate) memory: smith_memory::OwnedScope,
}

/// The decoded message bytes opening keeps for the first request (16 MiB): above it, the
/// first request reads the messages again rather than an idle session holding them.
const OPENING_MESSAGES_BUDGET: u64 = 16 << 20;

/// What opening a session read that its first projection ([`Session::loaded`]) uses instead
/// of reading it again (issue 69: continuing reads no body twice): the selected branch's
/// messages, decoded, and the reader of the opened snapshot.
#[derive(Debug)]
struct Opening {
    /// The heads of the branch's entries opening walked (down to a compaction's boundary),
    /// and its messages, decoded.
    walked: crate::projection::Walked,
    /// The reader opening walked the branch with: it knows the file as opened, so it serves
    /// only while nothing was appended since (`next`).
    reader: smith_store::SessionReader,
    /// The next entry id when the session was opened.
    next: EntryId,
}

/// The context items of the selected branch's projection and the entry each comes from.
#[derive(Debug, Default)]
pub(crate) struct Context {
    /// The items, in conversation order.
    pub(crate) items: Vec<ContextItem>,
    /// The entry each item comes from (same length and order).
    pub(crate) entries: Vec<EntryId>,
    /// The compaction whose summary is the first item, when the context starts with one.
    pub(crate) summary: Option<EntryId>,
}

impl Context {
    /// The context of `projection`.
    pub(crate) fn of(projection: crate::Projection) -> Self {
        Self {
            items: projection.items,
            entries: projection.entries,
            summary: projection.compaction.map(|(entry, _)| entry),
        }
    }
}

/// A session opened with [`Session::open`], and what recovery cut off.
#[derive(Debug)]
pub struct OpenedSession {
    /// The session.
    pub session: Session,
    /// The torn tail that was cut off, if the last write of an earlier process was interrupted.
    pub truncated: Option<TornTail>,
    /// Damaged changes in the middle of the file that were skipped (left unchanged).
    pub skipped: Vec<Skipped>,
    /// The effects a dead process left between intent and completion, completed as
    /// `unknown` by this opening (their effect ids, in intent order): never run again, they
    /// await a person's verdict.
    pub unknown_effects: Vec<String>,
    /// The turn a dead process left without an end, held open by [`Session::open_holding`]
    /// (never by [`Session::open`], which settles it as aborted).
    pub interrupted: Option<crate::InterruptedTurn>,
}

impl Session {
    /// Create a new session file in `dir` and record its `session_start` entry.
    ///
    /// # Errors
    /// A store error when the file cannot be created or the entry not made durable.
    pub fn create(
        dir: &Path,
        id: SessionId,
        cwd: Option<String>,
    ) -> Result<Self, smith_store::Error> {
        let memory = smith_memory::OwnedScope::open(smith_memory::Kind::Session);
        let _entered = memory.enter();
        let mut writer = SessionWriter::create(dir, id)?;
        writer.append(&[Record::SessionStart(SessionStart {
            smith_version: env!("CARGO_PKG_VERSION").to_owned(),
            cwd,
            imported: None,
        })])?;
        Ok(Self {
            id,
            path: writer.path().to_owned(),
            writer: SharedWriter::new(writer),
            context: Some(Context::default()),
            model: None,
            call_message: None,
            interrupted: false,
            work: std::sync::Arc::default(),
            registered: std::collections::BTreeSet::new(),
            secrets: None,
            ledger: crate::request::Ledger::default(),
            compaction: crate::compact::AutoState::default(),
            permission_mode: None,
            resident: std::sync::Arc::default(),
            held: None,
            opening: None,
            memory_said: false,
            memory,
        })
    }

    /// Open the existing session file at `path` for writing, settling work a dead process left
    /// unfinished. The selected branch is read from the leaf back to the first entry without
    /// the bodies of tool output; its context is projected when first needed
    /// ([`Session::context`]).
    ///
    /// # Errors
    /// The store's errors: the session is locked by another writer, damaged, or of an unknown
    /// format version; [`smith_store::Error::Unprojectable`] when its selected branch holds a
    /// record this build does not know that changes what the model sees.
    pub fn open(path: &Path, id: SessionId) -> Result<OpenedSession, smith_store::Error> {
        Self::open_with(path, id, false)
    }

    /// As [`Session::open`], except that a top-level turn a dead process left without an
    /// end — started, owning no live work — is held open instead of settled:
    /// [`OpenedSession::interrupted`] describes it, and the caller continues it
    /// ([`crate::Agent::continue_interrupted`]) or settles it as aborted
    /// ([`Session::settle_interrupted`]). Effects it left between intent and completion are
    /// completed as unknown either way. Closing the session without either leaves the turn
    /// as recorded, held again by the next opening.
    ///
    /// # Errors
    /// As [`Session::open`].
    pub fn open_holding(path: &Path, id: SessionId) -> Result<OpenedSession, smith_store::Error> {
        Self::open_with(path, id, true)
    }

    fn open_with(
        path: &Path,
        id: SessionId,
        hold: bool,
    ) -> Result<OpenedSession, smith_store::Error> {
        let memory = smith_memory::OwnedScope::open(smith_memory::Kind::Session);
        let _entered = memory.enter();
        let (mut writer, mut recovery) = SessionWriter::open(path, id)?;
        // Opening's reader knows the file as it is now: entries appended below are not in it.
        let opened_at = writer.next_entry_id();
        // The selected branch only, leaf to root through the in-file index, without the
        // bodies of tool output; other branches are never decoded.
        let resume = match writer.leaf() {
            Some(leaf) => crate::resume::Resume::read(&mut recovery.reader, leaf, path)?,
            None => crate::resume::Resume::default(),
        };
        let mut work = crate::work::WorkState::rebuild(&resume.entries, id);
        let mut interrupted = resume.interrupted;
        // Work whose end is recorded on another branch ended: the selected branch continues
        // from inside its turn (a branch point the user chose), it was never cut off.
        if !work.live.is_empty() {
            let last = writer.next_entry_id().0.saturating_sub(1);
            let ended = ended_anywhere(&mut recovery.reader, &work.live, last)?;
            work.live
                .retain(|submission, _| !ended.contains(submission));
            if work.live.is_empty() && work.inherited_open.is_empty() {
                interrupted = false;
            }
        }
        let unknown = resume.unknown_effects();
        if !unknown.is_empty() {
            writer.append_entries(&unknown)?;
        }
        let unknown_effects: Vec<String> = unknown
            .iter()
            .filter_map(|e| match &e.record {
                Record::EffectCompletion(c) if c.outcome == smith::EffectOutcome::Unknown => {
                    Some(c.effect_id.clone())
                }
                _ => None,
            })
            .collect();
        let live = !work.live.is_empty()
            || !work.inherited_open.is_empty()
            || !work.inherited_queued.is_empty()
            || resume.unanswered();
        // Only a turn of its own, cut off alone, is held: anything owned or inherited settles.
        let held = match (work.live.first_key_value(), work.live.len()) {
            (Some((submission, l)), 1)
                if hold
                    && interrupted
                    && !resume.aborted.contains(submission)
                    && l.owner.is_none()
                    && l.started
                    && work.inherited_open.is_empty()
                    && work.inherited_queued.is_empty() =>
            {
                Some(crate::continuation::describe(
                    &resume.entries,
                    |m| resume.results_of(m),
                    *submission,
                    l,
                    unknown_effects.clone(),
                ))
            }
            _ => None,
        };
        if let Some(turn) = &held {
            work.held = Some(turn.submission);
        }
        let mut session = Self {
            id,
            path: path.to_owned(),
            writer: SharedWriter::new(writer),
            context: None,
            model: resume.model,
            call_message: resume.call_message.map(|(id, _)| id),
            interrupted,
            work: std::sync::Arc::new(std::sync::Mutex::new(work)),
            registered: resume.registered,
            secrets: None,
            ledger: crate::request::Ledger::from_branch(&resume.entries),
            compaction: crate::compact::AutoState::default(),
            permission_mode: resume.permission_mode,
            resident: std::sync::Arc::default(),
            held: held.clone(),
            opening: None,
            memory_said: false,
            memory,
        };
        // The messages are kept for the first request only while they are few: a session
        // attached and left idle holds no more than the budget.
        let messages = if resume.message_bytes <= OPENING_MESSAGES_BUDGET {
            resume
                .entries
                .into_iter()
                .filter(|e| matches!(e.record, Record::Message(_)))
                .map(|e| (e.id, e))
                .collect()
        } else {
            std::collections::HashMap::new()
        };
        session.opening = Some(Opening {
            walked: crate::projection::Walked::new(resume.heads, messages),
            reader: recovery.reader,
            next: opened_at,
        });
        // Work without an end — cut off by a crash, or inherited by a fork taken inside an
        // admission — is settled at once, unless it is held; queued input stays queued.
        if held.is_none() && (session.interrupted || live) {
            session.settle_interrupted_work()?;
        }
        Ok(OpenedSession {
            session,
            truncated: recovery.truncated,
            skipped: recovery.skipped,
            unknown_effects,
            interrupted: held,
        })
    }

    /// Close the session: seal admission (inboxes refuse further input), record that every
    /// change is durably acknowledged, and release the writer lock. Close never fabricates a
    /// terminal receipt: work still live stays as recorded, settled on the next open.
    ///
    /// # Errors
    /// The store's write errors.
    pub fn close(self) -> Result<(), smith_store::Error> {
        // Seal admission first: an inbox still held elsewhere admits nothing more.
        crate::inbox::lock(&self.work).sealed = true;
        self.writer.lock().mark_acknowledged()
    }

    /// Redact every record written from now on against `redactor`'s secrets (spec: Durable
    /// effect boundary — secret plaintext is replaced before persistence), and record the
    /// registrations the selected branch does not hold yet, as one committed change. The
    /// records keep each secret's name, label and source, never its plaintext.
    ///
    /// # Errors
    /// The store's write errors.
    pub fn register_secrets(
        &mut self,
        redactor: smith_secrets::Shared,
        registrations: &[smith_store::SecretRegistration],
    ) -> Result<(), smith_store::Error> {
        let (_, seen) = redactor.added_since(0);
        self.secrets = Some((redactor.clone(), seen));
        let mut writer = self.writer.lock();
        writer.set_redactor(redactor);
        let new: Vec<NewEntry> = registrations
            .iter()
            .filter(|r| !self.registered.contains(&r.name))
            .map(|r| NewEntry {
                record: Record::SecretRegistration(r.clone()),
                pair: None,
            })
            .collect();
        if !new.is_empty() {
            writer.append_entries(&new)?;
            self.registered
                .extend(registrations.iter().map(|r| r.name.clone()));
        }
        Ok(())
    }

    /// Record the secrets handed over (by a plugin, through the shared registry) since the
    /// last call, as registration entries in one committed change; nothing when there are none.
    ///
    /// # Errors
    /// The store's write errors.
    pub(crate) fn record_handed_over(&mut self) -> Result<(), smith_store::Error> {
        let Some((shared, seen)) = &mut self.secrets else {
            return Ok(());
        };
        let (added, now) = shared.added_since(*seen);
        *seen = now;
        let new: Vec<NewEntry> = added
            .into_iter()
            .filter(|a| self.registered.insert(a.name.clone()))
            .map(|a| NewEntry {
                record: Record::SecretRegistration(smith_store::SecretRegistration {
                    name: a.name,
                    label: a.label,
                    source: a.source,
                }),
                pair: None,
            })
            .collect();
        if !new.is_empty() {
            self.writer.lock().append_entries(&new)?;
        }
        Ok(())
    }

    /// Make `leaf` the branch the next admission continues (a submission's explicit
    /// destination): checked first — no live work, the entry exists, every tool call on that
    /// branch has its result — then selected as one committed change and the context rebuilt
    /// from the file. Selecting the current leaf writes nothing.
    ///
    /// # Errors
    /// [`crate::AdmissionError::Destination`] naming why; store errors. Nothing was written.
    pub(crate) fn select_destination(
        &mut self,
        leaf: EntryId,
    ) -> Result<(), crate::AdmissionError> {
        let checked = self.check_destination(leaf)?;
        self.enter_destination(checked)
    }

    /// The checks of [`Session::select_destination`], and the branch at `leaf` projected
    /// (`None` when it is the current leaf), so that more can be checked against it before
    /// anything is written.
    ///
    /// # Errors
    /// As [`Session::select_destination`]. Nothing was written.
    pub(crate) fn check_destination(
        &mut self,
        leaf: EntryId,
    ) -> Result<Option<(EntryId, crate::Projection)>, crate::AdmissionError> {
        let refuse = |why: String| crate::AdmissionError::Destination { entry: leaf, why };
        {
            let state = crate::inbox::lock(&self.work);
            if state.busy() {
                return Err(refuse("work is running in this session".to_owned()));
            }
            if !state.queue.is_empty() && self.writer.lock().leaf() != Some(leaf) {
                let ids: Vec<String> = state
                    .queue
                    .iter()
                    .map(|q| q.submission.to_string())
                    .collect();
                return Err(refuse(format!(
                    "input is queued on the current branch ({}); withdraw it, or let it be delivered, before continuing another branch",
                    ids.join(", ")
                )));
            }
        }
        if self.writer.lock().leaf() == Some(leaf) {
            return Ok(None);
        }
        let last = self.writer.lock().next_entry_id().0.saturating_sub(1);
        if leaf.0 == 0 || leaf.0 > last {
            return Err(refuse(format!("the session's entries are 1..={last}")));
        }
        let mut reader = smith_store::SessionReader::open(&self.path)?;
        let replayed =
            crate::projection::project(&mut reader, Some(leaf)).map_err(|e| match e {
                crate::ProjectionError::Store(e) => crate::AdmissionError::Store(e),
                other => refuse(other.to_string()),
            })?;
        if let Err(e) = smith::check_pairing(&replayed.items) {
            return Err(refuse(format!(
                "the branch there ends inside a tool batch ({e}); choose the batch's last result or an entry before its call"
            )));
        }
        Ok(Some((leaf, replayed)))
    }

    /// Go on from the destination [`Session::check_destination`] checked: an interrupted turn
    /// held here is settled (going on from anywhere moves on from it), then the branch there,
    /// when another, is selected as one committed change and its projection becomes the
    /// context.
    ///
    /// # Errors
    /// Store errors.
    pub(crate) fn enter_destination(
        &mut self,
        checked: Option<(EntryId, crate::Projection)>,
    ) -> Result<(), crate::AdmissionError> {
        self.settle_interrupted()?;
        let Some((leaf, mut replayed)) = checked else {
            return Ok(());
        };
        self.writer.lock().select(leaf)?;
        self.model = replayed.model.clone();
        self.call_message = replayed.call_message;
        self.ledger = crate::request::Ledger::default();
        self.registered = std::mem::take(&mut replayed.registered);
        self.set_context(replayed);
        Ok(())
    }

    /// Select the branch ending at `leaf` as the session's leaf, as a destination is selected
    /// before admission: refused while work runs, while input is queued on another branch, or
    /// when that branch ends inside a tool batch; then one committed change, and the context
    /// rebuilt from the file. Selecting the current leaf writes nothing.
    ///
    /// # Errors
    /// [`crate::AdmissionError::Destination`] naming why; store errors. Nothing was written.
    pub fn select_branch(&mut self, leaf: EntryId) -> Result<(), crate::AdmissionError> {
        self.select_destination(leaf)
    }

    /// The redactor the session's records are redacted against, when secrets are registered.
    pub(crate) fn redactor(&self) -> Option<std::sync::Arc<smith_secrets::Redactor>> {
        self.secrets.as_ref().map(|(shared, _)| shared.current())
    }

    /// The input waiting in the session's queue, in queue order (rebuilt from the file on
    /// open).
    pub fn queued(&self) -> Vec<smith::QueuedInput> {
        crate::inbox::lock(&self.work).queue.clone()
    }

    /// An inbox for the session before any agent is prepared for it: it lists, withdraws
    /// and clears queued input, aborts running work and answers questions, but queues
    /// nothing ([`crate::AdmissionError::NoQueuePolicy`]: the queue policy comes with the
    /// agent, [`crate::Agent::inbox`]) and admits child work under the default
    /// [`crate::WorkLimits`].
    pub fn inbox_without_policy(&self) -> crate::Inbox {
        crate::Inbox {
            writer: self.writer.downgrade(),
            state: std::sync::Arc::clone(&self.work),
            session: self.id(),
            path: self.path().to_owned(),
            limits: crate::WorkLimits::default(),
            policy: None,
        }
    }

    /// The session id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The session's effect journal, lent to tools for the duration of a call.
    pub fn journal(&self) -> SharedWriter {
        self.writer.clone()
    }

    /// What the session keeps running for its plugins between tool calls, lent to tool
    /// calls made outside a run (a protocol client's direct call).
    pub fn resident(&self) -> std::sync::Arc<smith::Resident> {
        std::sync::Arc::clone(&self.resident)
    }

    /// The permission mode the selected branch last recorded (`plan`, `ask`, `auto-edit`,
    /// `auto`), as the session was opened or recorded since; `None` when it recorded none.
    /// Found by opening's walk of the branch (and carried by compactions), like the model.
    pub fn permission_mode(&self) -> Option<&str> {
        self.permission_mode.as_deref()
    }

    /// Record `model` as the session's model (a `model_change` record) when it is not the one
    /// recorded last: what a resumed session runs on. A run on another model for one turn (a
    /// prompt command's) is followed by this, so the session's own model holds afterwards.
    ///
    /// # Errors
    /// The store's write errors; nothing changed.
    pub fn record_model(&mut self, model: &Selection) -> Result<(), smith_store::Error> {
        if self.model.as_ref() == Some(model) {
            return Ok(());
        }
        self.writer
            .lock()
            .append(&[Record::ModelChange(smith_store::ModelChange {
                model: model.clone(),
            })])?;
        self.model = Some(model.clone());
        Ok(())
    }

    /// Record a person's verdict on the effect `effect_id` whose outcome was unknown: an
    /// `effect_verdict` entry paired with the effect's completion entry `completion`, on the
    /// selected branch, durable before this returns. Which effects may be reconciled is the
    /// caller's to check.
    ///
    /// # Errors
    /// The store's write errors; nothing changed.
    pub fn record_verdict(
        &mut self,
        completion: EntryId,
        verdict: smith_store::EffectVerdict,
    ) -> Result<EntryId, smith_store::Error> {
        let ids = self.writer.lock().append_entries(&[NewEntry {
            record: Record::EffectVerdict(verdict),
            pair: Some(completion),
        }])?;
        Ok(ids[0])
    }

    /// Record `mode` as the branch's permission mode: a `state` record owned by Smith
    /// (`smith`, `permissions-mode`, branch scope), durable before this returns.
    ///
    /// # Errors
    /// The store's write errors; nothing changed.
    pub fn record_permission_mode(&mut self, mode: &str) -> Result<(), smith_store::Error> {
        self.writer
            .lock()
            .append(&[Record::State(smith_store::StateRecord {
                owner: MODE_OWNER.to_owned(),
                name: MODE_SLOT.to_owned(),
                scope: smith::StateScope::Branch,
                version: 1,
                value: Some(serde_json::Value::from(mode)),
            })])?;
        self.permission_mode = Some(mode.to_owned());
        Ok(())
    }

    /// The context the next provider request starts from (the selected branch's projection),
    /// projected from the file the first time it is needed: opening a session reads no tool
    /// output.
    ///
    /// # Errors
    /// The store's read errors; [`smith_store::Error::Unprojectable`] when the branch cannot
    /// be projected (an edit whose target is not on it).
    pub fn context(&mut self) -> Result<&[ContextItem], smith_store::Error> {
        Ok(&self.loaded()?.items)
    }

    /// The entry each item of [`Session::context`] comes from, in the same order.
    ///
    /// # Errors
    /// As [`Session::context`].
    pub fn context_entries(&mut self) -> Result<&[EntryId], smith_store::Error> {
        Ok(&self.loaded()?.entries)
    }

    /// The context, projected from the file at the writer's leaf when not yet loaded — the
    /// first time with the messages opening decoded and its reader (while the file has not
    /// grown since), so no body is read twice.
    pub(crate) fn loaded(&mut self) -> Result<&mut Context, smith_store::Error> {
        if self.context.is_none() {
            let (leaf, next) = {
                let writer = self.writer.lock();
                (writer.leaf(), writer.next_entry_id())
            };
            let opening = self.opening.take();
            let projected = match leaf {
                None => crate::Projection::default(),
                Some(leaf) => {
                    // An entry is what it was (heads, messages); the reader serves while the
                    // file has not grown.
                    let (mut walked, reader) = match opening {
                        Some(o) => (o.walked, (o.next == next).then_some(o.reader)),
                        None => (crate::projection::Walked::default(), None),
                    };
                    let mut reader = match reader {
                        Some(reader) => reader,
                        None => smith_store::SessionReader::open(&self.path)?,
                    };
                    crate::projection::project_walked(&mut reader, leaf, &mut walked)
                        .map_err(|e| e.into_store(&self.path))?
                }
            };
            self.context = Some(Context::of(projected));
        }
        Ok(self.context.get_or_insert_default())
    }

    /// Make `projection` the context the next request starts from: what opening read is no
    /// longer needed.
    pub(crate) fn set_context(&mut self, projection: crate::Projection) {
        self.context = Some(Context::of(projection));
        self.opening = None;
    }

    /// Add recorded entry `id`'s `item` to the end of the context. Nothing while the context is
    /// not loaded: it is projected from the file, which holds the entry.
    pub(crate) fn push_context(&mut self, id: EntryId, item: ContextItem) {
        if let Some(context) = &mut self.context {
            context.items.push(item);
            context.entries.push(id);
        }
    }

    /// The names of the secrets registered on the selected branch, sorted.
    pub(crate) fn registered_names(&self) -> Vec<String> {
        self.registered.iter().cloned().collect()
    }

    /// The selected model recorded in the session, if any.
    pub fn model(&self) -> Option<&Selection> {
        self.model.as_ref()
    }
}

/// The owner of Smith's own state records (no plugin may take the id).
const MODE_OWNER: &str = "smith";

/// The slot of the permission mode.
const MODE_SLOT: &str = "permissions-mode";

/// The mode a `state` record sets, when it is Smith's permission mode.
pub(crate) fn recorded_mode(record: &smith_store::StateRecord) -> Option<String> {
    (record.owner == MODE_OWNER && record.name == MODE_SLOT && record.version == 1)
        .then(|| record.value.as_ref()?.as_str().map(str::to_owned))
        .flatten()
}
