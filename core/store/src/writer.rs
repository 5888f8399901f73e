//! The single writer of a session file.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use smith::{EntryId, SessionId};

use crate::format::{self, Salt};
use crate::meta::{CommitMeta, IndexFrame};
use crate::publish::publish;
use crate::reader::{SessionReader, read_index};
use crate::record::entry_payload;
use crate::scan::{Skipped, TornTail, io};
use crate::{EntryHead, Error, NewEntry, Record};

/// An index frame is written once this many entries are not yet covered by one.
pub const INDEX_SPAN: usize = 256;

/// What opening an existing session for writing recovered.
#[derive(Debug)]
pub struct Recovery {
    /// A reader of the recovered snapshot: the selected branch and any entry, by id.
    pub reader: SessionReader,
    /// The torn tail that was cut off (it was never published or acknowledged).
    pub truncated: Option<TornTail>,
    /// Damaged changes in the middle of the file that are skipped (the file is not changed),
    /// as far as opening looked: all of them when it scanned the whole file (a torn tail, a
    /// damaged leaf); none when it opened through the index, where damage is found when the
    /// damaged entries are read.
    pub skipped: Vec<Skipped>,
}

/// The one writer of a session file. Holds an exclusive OS lock on the file for its lifetime
/// (`File::try_lock`, `flock` on Unix), so at most one writer exists per session across
/// processes; a second opener gets [`Error::Locked`] at once and may read through a
/// [`SessionReader`] instead.
///
/// Every change ([`SessionWriter::append`], [`SessionWriter::select`]) is one committed change
/// written with one write and acknowledged only after `fsync` (`File::sync_data`) returned.
/// After a failed write or fsync the writer refuses further changes ([`Error::Uncertain`])
/// until the file is reopened, because the durable end of the file is no longer known.
#[derive(Debug)]
pub struct SessionWriter {
    file: File,
    path: PathBuf,
    /// Where the file is now: `path`, or its temporary name until it is published.
    current: PathBuf,
    /// Whether each change is synced as it is written (else once, at [`SessionWriter::close`]:
    /// for a file no one sees until it is published whole).
    sync_each: bool,
    id: SessionId,
    salt: Salt,
    next_id: u64,
    /// `next_id` as of the last acknowledged change, readable from other threads.
    published: Arc<AtomicU64>,
    leaf: u64,
    end: u64,
    sequence: u64,
    /// The last sequence whose fsync returned.
    durable: u64,
    /// The `durable_through` the last commit frame recorded.
    recorded_durable: u64,
    index: IndexState,
    /// Entry id ranges withheld as damaged (found when the file was opened).
    withheld: Vec<(u64, u64)>,
    uncertain: Option<String>,
    /// Whether the index state was rebuilt by a full scan since opening.
    rescanned: bool,
    /// Replaces registered secrets in every record before it is written.
    redactor: Option<smith_secrets::Shared>,
    /// This process's writer record beside the file (observers read who writes), removed
    /// when the writer is dropped.
    holder: Option<crate::holder::Claim>,
    /// How many times [`SessionWriter::select`] moved the selection (the state index's
    /// branch part is recomputed after one).
    selections: u64,
    /// Branch and session plugin state, once first read.
    pub(crate) state_index: Option<crate::state::Index>,
    /// A storage fault to inject into the next write (tests only).
    #[cfg(test)]
    pub(crate) fault: Option<Fault>,
}

/// Where the writer's index stands.
#[derive(Debug, Default)]
struct IndexState {
    /// Offset and frame of the newest index frame.
    newest: Option<(u64, IndexFrame)>,
    /// Id of the first entry not covered by an index frame.
    uncovered_first: u64,
    /// Offsets of the uncovered entries, in id order.
    uncovered: Vec<u64>,
    /// Known index frames by ordinal: `(first_id, offset)`.
    known: BTreeMap<u64, (u64, u64)>,
}

/// A storage fault the fault-injecting tests make the next write suffer.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fault {
    /// Only the first `n` bytes reach the file, then the write fails.
    ShortWrite(usize),
    /// The disk is full: the first `n` bytes are written, then `ENOSPC`.
    NoSpace(usize),
    /// Everything is written but `fsync` fails.
    Fsync,
}

fn lock(file: &File, path: &Path) -> Result<(), Error> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(Error::Locked {
            path: path.to_owned(),
        }),
        Err(TryLockError::Error(source)) => Err(Error::Io {
            action: "locking session file",
            path: path.to_owned(),
            source,
        }),
    }
}

/// Milliseconds since the Unix epoch, UTC (0 if the clock is before 1970).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// One frame of a change being assembled: kind, flags, payload, and the entry id it carries.
pub(crate) struct PendingFrame {
    pub(crate) kind: u16,
    pub(crate) flags: u16,
    pub(crate) payload: Vec<u8>,
    pub(crate) entry: Option<u64>,
}

impl SessionWriter {
    /// Create a new session file `<dir>/<id>.smith` holding only the file header, locked, and
    /// publish it atomically: written and synced under a temporary name, renamed into place,
    /// and the directory synced. Fails if the file exists.
    ///
    /// # Errors
    /// [`Error::Io`] when the directory is missing or not writable, or the file exists.
    pub fn create(dir: &Path, id: SessionId) -> Result<Self, Error> {
        let (mut writer, temp) = Self::create_temp(dir, id)?;
        // A failed step removes what it wrote at once (a full disk leaves nothing behind).
        publish(&temp, &writer.path, dir).inspect_err(|_| {
            let _ = std::fs::remove_file(&temp);
        })?;
        writer.current.clone_from(&writer.path);
        writer.holder = crate::holder::Claim::record(&writer.path);
        Ok(writer)
    }

    /// Create `<dir>/.<id>.smith.tmp` with a fresh header, locked and synced; the returned
    /// writer's path is already the final one.
    pub(crate) fn create_temp(dir: &Path, id: SessionId) -> Result<(Self, PathBuf), Error> {
        let path = dir.join(crate::file_name(&id));
        if path.exists() {
            return Err(Error::Io {
                action: "creating session file",
                path,
                source: std::io::ErrorKind::AlreadyExists.into(),
            });
        }
        let temp = dir.join(format!(".{}.tmp", crate::file_name(&id)));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(io("creating session file", &temp))?;
        // From here a failed step removes the file it created (a full disk leaves nothing).
        let start = || -> Result<format::Salt, Error> {
            lock(&file, &temp)?;
            let salt = format::new_salt().map_err(io("creating session file", &temp))?;
            (&file)
                .write_all(&format::header_bytes(salt))
                .and_then(|()| file.sync_all())
                .map_err(io("writing session file", &temp))?;
            Ok(salt)
        };
        let salt = start().inspect_err(|_| {
            let _ = std::fs::remove_file(&temp);
        })?;
        let writer = Self {
            file,
            path,
            current: temp.clone(),
            sync_each: true,
            id,
            salt,
            next_id: 1,
            published: Arc::new(AtomicU64::new(1)),
            leaf: 0,
            end: format::HEADER_LEN as u64,
            sequence: 0,
            durable: 0,
            recorded_durable: 0,
            index: IndexState {
                uncovered_first: 1,
                ..IndexState::default()
            },
            withheld: Vec::new(),
            uncertain: None,
            rescanned: false,
            redactor: None,
            selections: 0,
            state_index: None,
            holder: None,
            #[cfg(test)]
            fault: None,
        };
        Ok((writer, temp))
    }

    /// Open an existing session file for writing: take the lock (or fail at once with
    /// [`Error::Locked`]), recover — cut off a torn tail, which was never acknowledged — and
    /// sync, so every complete change in the file is durable before anything is appended.
    /// Opening goes through the in-file index and costs the same at any history size when the
    /// file ends with a whole change (its selected leaf is validated); a torn tail or a damaged
    /// leaf makes it scan the whole file, as verification does.
    ///
    /// # Errors
    /// [`Error::Locked`] when another process writes the session; the read errors of
    /// [`SessionReader::open`]; [`Error::Corrupt`] when damage at the end of the file hides the
    /// last commit boundary (the file is never truncated past a complete frame).
    pub fn open(path: &Path, id: SessionId) -> Result<(Self, Recovery), Error> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io("opening session file", path))?;
        lock(&file, path)?;
        // Opened through the in-file index when the file ends with a valid commit (its change
        // whole), else by the full scan that recovers a torn tail. Records are validated when
        // they are read (spec: Checkpoints and integrity).
        let mut reader = SessionReader::open(path)?;
        if reader.used_index()
            && let Some(leaf) = reader.state().leaf_id()
            && reader.check(leaf).is_err()
        {
            // The selected leaf lies in a damaged change: learn every damaged change, so the
            // writer refuses to build on them and can still select an intact entry.
            reader = SessionReader::open_verified(path)?;
        }
        if let Some(end) = reader.skipped().iter().find(|s| s.at_end) {
            return Err(Error::Corrupt {
                path: path.to_owned(),
                offset: end.damage_at,
                reason: format!(
                    "{} after the last complete change, so the end of the history is uncertain; verify the session to see all damage, and continue in a fork at an intact entry",
                    end.reason
                ),
            });
        }
        let state = reader.state();
        let truncated = reader.torn_tail().cloned();
        if truncated.is_some() {
            file.set_len(state.committed_end)
                .map_err(io("truncating the torn tail of session file", path))?;
        }
        // Establish the persistence boundary: complete changes a dead writer never saw
        // acknowledged become durable now, before anything builds on them.
        file.sync_all().map_err(io("syncing session file", path))?;
        let salt = {
            let mut f = &file;
            f.seek(SeekFrom::Start(0))
                .map_err(io("reading session file", path))?;
            crate::scan::read_header(path, &mut f, state.committed_end)?
        };
        let (index, withheld) = index_state(&file, path, &reader)?;
        let writer = Self {
            file,
            path: path.to_owned(),
            current: path.to_owned(),
            sync_each: true,
            id,
            salt,
            next_id: state.last_id + 1,
            published: Arc::new(AtomicU64::new(state.last_id + 1)),
            leaf: state.leaf,
            end: state.committed_end,
            sequence: state.sequence,
            durable: state.sequence,
            recorded_durable: state.durable_through,
            index,
            withheld,
            uncertain: None,
            rescanned: false,
            redactor: None,
            selections: 0,
            state_index: None,
            holder: crate::holder::Claim::record(path),
            #[cfg(test)]
            fault: None,
        };
        let skipped = reader.skipped().to_vec();
        Ok((
            writer,
            Recovery {
                reader,
                truncated,
                skipped,
            },
        ))
    }

    /// Replace every form of every secret `redactor` holds by its reference in each record
    /// appended from now on, before it is encoded (spec: Durable effect boundary — "Secret
    /// plaintext is replaced before persistence"), as they stand at each append (a secret
    /// registered later is redacted from then on).
    pub fn set_redactor(&mut self, redactor: smith_secrets::Shared) {
        self.redactor = Some(redactor);
    }

    /// The session id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The selected leaf, `None` in an empty session.
    pub fn leaf(&self) -> Option<EntryId> {
        (self.leaf != 0).then_some(EntryId(self.leaf))
    }

    /// The next entry id as of the last acknowledged change, shared: a frontend reads it from
    /// another thread (without the writer's lock) to give a live event the durable position it
    /// follows. Entry ids are dense, so the value is the committed position (DESIGN §10).
    pub fn published_position(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.published)
    }

    /// The id the next appended entry will get.
    pub fn next_entry_id(&self) -> EntryId {
        EntryId(self.next_id)
    }

    /// The last commit sequence number.
    pub fn sequence(&self) -> u64 {
        self.sequence
    }

    /// Append `records` as one committed change on the selected branch (see
    /// [`SessionWriter::append_entries`]).
    ///
    /// # Errors
    /// As [`SessionWriter::append_entries`].
    pub fn append(&mut self, records: &[Record]) -> Result<Vec<EntryId>, Error> {
        let entries: Vec<NewEntry> = records.iter().cloned().map(NewEntry::from).collect();
        self.append_entries(&entries)
    }

    /// Append `entries` as one committed change, each parented to the one before it (the
    /// first to the selected leaf), make the last one the selected leaf, and return their ids
    /// once `fsync` returned.
    ///
    /// # Errors
    /// [`Error::Encode`] before anything is written when an entry is out of bounds (too many,
    /// too large, nested too deeply, not canonical); [`Error::Io`] when the write or fsync
    /// fails (the writer then becomes uncertain); [`Error::Uncertain`] after an earlier failure.
    pub fn append_entries(&mut self, entries: &[NewEntry]) -> Result<Vec<EntryId>, Error> {
        self.append_dated(entries, now_ms())
    }

    /// As [`SessionWriter::append_entries`], the entries dated `timestamp_ms` (milliseconds
    /// since the Unix epoch, UTC) instead of now: for history carried over from another
    /// tool's file, dated by that file (`smith sessions import`).
    ///
    /// # Errors
    /// As [`SessionWriter::append_entries`].
    pub fn append_dated(
        &mut self,
        entries: &[NewEntry],
        timestamp_ms: i64,
    ) -> Result<Vec<EntryId>, Error> {
        self.check_usable()?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        if self.is_withheld(self.leaf) {
            return Err(Error::Encode {
                reason: format!(
                    "the selected leaf, entry {}, lies in a damaged change that is withheld; select an intact entry first",
                    self.leaf
                ),
            });
        }
        if entries.len() > format::MAX_ENTRIES_PER_COMMIT as usize {
            return Err(Error::Encode {
                reason: format!(
                    "{} entries in one change exceed the bound of {}",
                    entries.len(),
                    format::MAX_ENTRIES_PER_COMMIT
                ),
            });
        }
        let mut frames = Vec::with_capacity(entries.len());
        let mut parent = self.leaf;
        for (n, entry) in entries.iter().enumerate() {
            let redacted = match &self.redactor {
                Some(r) => crate::record::redact_record(&entry.record, &r.current())?,
                None => None,
            };
            let record = redacted.as_ref().unwrap_or(&entry.record);
            let id = self.next_id + n as u64;
            let head = EntryHead {
                id: EntryId(id),
                parent: (parent != 0).then_some(EntryId(parent)),
                pair: entry.pair,
                timestamp_ms,
            };
            let payload = entry_payload(&head, record)?;
            frames.push(PendingFrame {
                kind: format::KIND_ENTRY,
                flags: 0,
                payload,
                entry: Some(id),
            });
            parent = id;
        }
        let ids: Vec<EntryId> = (0..entries.len() as u64)
            .map(|n| EntryId(self.next_id + n))
            .collect();
        self.write_change(frames, parent)?;
        Ok(ids)
    }

    /// Select `leaf` as the branch later appends continue from (branch navigation), as one
    /// committed change without entries. Appending after selecting an earlier entry starts a
    /// new branch beside the old one; nothing is deleted.
    ///
    /// # Errors
    /// [`Error::Encode`] when `leaf` is not an entry of this session; the write errors of
    /// [`SessionWriter::append_entries`].
    pub fn select(&mut self, leaf: EntryId) -> Result<(), Error> {
        self.check_usable()?;
        if leaf.0 == 0 || leaf.0 >= self.next_id {
            let range = match self.next_id - 1 {
                0 => "it has no entries yet".to_owned(),
                n => format!("its entries are 1..={n}"),
            };
            return Err(Error::Encode {
                reason: format!("entry {} is not in this session ({range})", leaf.0),
            });
        }
        if self.is_withheld(leaf.0) {
            return Err(Error::Encode {
                reason: format!(
                    "entry {} lies in a damaged change that is withheld; select an intact entry",
                    leaf.0
                ),
            });
        }
        // Validated on access: its frame and the commit closing its change (fast opening
        // did not look for damage in the middle of the file).
        SessionReader::open(&self.current)?.check(leaf)?;
        self.write_change(Vec::new(), leaf.0)?;
        self.selections += 1;
        Ok(())
    }

    /// How many times [`SessionWriter::select`] moved the selection since opening.
    pub(crate) fn selections(&self) -> u64 {
        self.selections
    }

    /// `record` as it is written: its registered secrets replaced by references.
    ///
    /// # Errors
    /// [`Error::Encode`] when it cannot be redacted.
    pub(crate) fn as_written(&self, record: Record) -> Result<Record, Error> {
        match &self.redactor {
            Some(r) => Ok(crate::record::redact_record(&record, &r.current())?.unwrap_or(record)),
            None => Ok(record),
        }
    }

    /// Record that every change so far is durably acknowledged and release the lock (see
    /// [`SessionWriter::mark_acknowledged`]).
    ///
    /// # Errors
    /// The write errors of [`SessionWriter::append_entries`].
    pub fn close(mut self) -> Result<(), Error> {
        self.mark_acknowledged()?;
        if !self.sync_each {
            self.file
                .sync_all()
                .map_err(io("syncing session file", &self.current))?;
        }
        Ok(())
    }

    /// Where the file is now (its temporary name until a whole-file writer publishes it).
    pub(crate) fn current_path(&self) -> &Path {
        &self.current
    }

    /// Sync once, at [`SessionWriter::close`], instead of after every change: for a file
    /// written whole under a temporary name and published only after it is closed.
    pub(crate) fn defer_sync(&mut self) {
        self.sync_each = false;
    }

    /// Record that every change so far is durably acknowledged (a commit without entries).
    /// Calling it again without new changes writes nothing. Never calling it loses nothing:
    /// the last change's acknowledgement is then established by the next writer's recovery.
    ///
    /// # Errors
    /// The write errors of [`SessionWriter::append_entries`].
    pub fn mark_acknowledged(&mut self) -> Result<(), Error> {
        if self.uncertain.is_none() && self.recorded_durable < self.sequence {
            self.write_change(Vec::new(), self.leaf)?;
        }
        Ok(())
    }

    /// After a failed write or fsync (the writer is uncertain): cut the file back to the end
    /// of the last change whose fsync returned, sync that, and accept changes again — what
    /// reopening the file would recover, without giving up the lock. The failed change was
    /// never acknowledged, so nothing acknowledged is lost; every earlier change was synced
    /// before it was acknowledged. Does nothing when the writer is not uncertain. A storage
    /// failure can then be recorded in the session itself (its run's end says why).
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be cut back or synced (the writer stays uncertain).
    pub fn recover(&mut self) -> Result<(), Error> {
        if self.uncertain.is_none() {
            return Ok(());
        }
        self.file.set_len(self.end).map_err(io(
            "cutting back the unacknowledged tail of session file",
            &self.path,
        ))?;
        self.file
            .sync_all()
            .map_err(io("syncing session file", &self.path))?;
        self.uncertain = None;
        Ok(())
    }

    fn is_withheld(&self, id: u64) -> bool {
        self.withheld.iter().any(|(a, b)| (*a..=*b).contains(&id))
    }

    fn check_usable(&self) -> Result<(), Error> {
        match &self.uncertain {
            Some(reason) => Err(Error::Uncertain {
                path: self.path.clone(),
                reason: reason.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Write `frames` (entry and unknown frames, entries with consecutive ids from
    /// `next_id`), an index frame when enough entries are uncovered, and the commit frame, as
    /// one write followed by `fsync`.
    pub(crate) fn write_change(
        &mut self,
        frames: Vec<PendingFrame>,
        leaf: u64,
    ) -> Result<(), Error> {
        self.check_usable()?;
        let change_start = self.end;
        let mut buf = Vec::new();
        let mut new_offsets = Vec::new();
        for f in &frames {
            if f.entry.is_some() {
                new_offsets.push(change_start + buf.len() as u64);
            }
            format::push_frame(&mut buf, f.kind, f.flags, &f.payload);
        }
        let count = new_offsets.len() as u32;
        let last_id = self.next_id - 1 + u64::from(count);
        let mut index_offset = self.index.newest.as_ref().map_or(0, |(o, _)| *o);
        let mut new_index = None;
        if self.index.uncovered.len() + new_offsets.len() >= INDEX_SPAN {
            let mut offsets = self.index.uncovered.clone();
            offsets.extend_from_slice(&new_offsets);
            let ordinal = self.index.newest.as_ref().map_or(0, |(_, f)| f.ordinal + 1);
            let back = match self.back_pointers(ordinal) {
                Ok(back) => back,
                Err(_) if !self.rescanned => {
                    // An older index frame is damaged (fast opening never read it): learn
                    // the file as the full scan sees it, then write this change again.
                    self.rescan()?;
                    return self.write_change(frames, leaf);
                }
                Err(e) => return Err(e),
            };
            let frame = IndexFrame {
                ordinal,
                first_id: self.index.uncovered_first,
                offsets,
                back,
            };
            index_offset = change_start + buf.len() as u64;
            format::push_frame(&mut buf, format::KIND_INDEX, 0, &frame.encode());
            new_index = Some(frame);
        }
        let self_offset = change_start + buf.len() as u64;
        let sequence = self.sequence + 1;
        let commit = CommitMeta {
            sequence,
            entry_count: count,
            leaf,
            last_id,
            durable_through: self.durable,
            index_offset,
            change_start,
            self_offset,
            salt: self.salt,
        };
        format::push_frame(&mut buf, format::KIND_COMMIT, 0, &commit.encode());
        if buf.len() as u64 > format::MAX_CHANGE_BYTES {
            return Err(Error::Encode {
                reason: format!(
                    "a change of {} bytes exceeds the bound of {} bytes",
                    buf.len(),
                    format::MAX_CHANGE_BYTES
                ),
            });
        }
        if let Err(e) = self.write_at_end(&buf) {
            self.uncertain = Some(e.to_string());
            return Err(e);
        }
        self.end += buf.len() as u64;
        self.sequence = sequence;
        self.durable = sequence;
        self.recorded_durable = commit.durable_through;
        self.next_id = last_id + 1;
        self.published.store(self.next_id, Ordering::Release);
        self.leaf = leaf;
        match new_index {
            Some(frame) => {
                self.index
                    .known
                    .insert(frame.ordinal, (frame.first_id, index_offset));
                self.index.uncovered_first = frame.end_id();
                self.index.uncovered.clear();
                self.index.newest = Some((index_offset, frame));
            }
            None => self.index.uncovered.extend_from_slice(&new_offsets),
        }
        Ok(())
    }

    /// Rebuild the index state and the withheld ranges from a full scan of the file.
    fn rescan(&mut self) -> Result<(), Error> {
        self.rescanned = true;
        let reader = SessionReader::open_verified(&self.current)?;
        let (index, withheld) = index_state(&self.file, &self.current, &reader)?;
        self.index = index;
        self.withheld = withheld;
        Ok(())
    }

    /// `(first_id, offset)` of the index frames with ordinals `ordinal - 2^i`, found through
    /// the known frames or by descending the existing frames' back pointers.
    fn back_pointers(&mut self, ordinal: u64) -> Result<Vec<(u64, u64)>, Error> {
        let mut back = Vec::new();
        let mut step = 1u64;
        while step <= ordinal {
            back.push(self.index_frame(ordinal - step)?);
            step <<= 1;
        }
        Ok(back)
    }

    fn index_frame(&mut self, target: u64) -> Result<(u64, u64), Error> {
        if let Some(&known) = self.index.known.get(&target) {
            return Ok(known);
        }
        let corrupt = |offset: u64, reason: String| Error::Corrupt {
            path: self.path.clone(),
            offset,
            reason: format!("the index cannot be extended: {reason}"),
        };
        let Some((mut at, mut frame)) = self.index.newest.clone() else {
            return Err(corrupt(0, format!("index frame {target} is unknown")));
        };
        while frame.ordinal > target {
            let distance = frame.ordinal - target;
            let i = (63 - distance.leading_zeros()) as usize;
            let Some(&(_, next)) = frame.back.get(i) else {
                return Err(corrupt(at, "a back pointer is missing".to_owned()));
            };
            at = next;
            frame = read_index(&self.file, at, self.end).map_err(|r| corrupt(at, r))?;
            self.index.known.insert(frame.ordinal, (frame.first_id, at));
        }
        if frame.ordinal != target {
            return Err(corrupt(
                at,
                format!("index frame {target} is not where it should be"),
            ));
        }
        Ok((frame.first_id, at))
    }

    fn write_at_end(&mut self, buf: &[u8]) -> Result<(), Error> {
        self.file
            .seek(SeekFrom::Start(self.end))
            .map_err(io("seeking in session file", &self.path))?;
        #[cfg(test)]
        if let Some(fault) = self.fault.take() {
            let (n, error) = match fault {
                Fault::ShortWrite(n) => (n, std::io::Error::from(std::io::ErrorKind::WriteZero)),
                Fault::NoSpace(n) => (n, std::io::Error::from(std::io::ErrorKind::StorageFull)),
                Fault::Fsync => (buf.len(), std::io::Error::other("injected fsync failure")),
            };
            let n = n.min(buf.len());
            self.file
                .write_all(&buf[..n])
                .map_err(io("writing session file", &self.path))?;
            let action = if matches!(fault, Fault::Fsync) {
                "syncing session file"
            } else {
                "writing session file"
            };
            return Err(io(action, &self.path)(error));
        }
        self.file
            .write_all(buf)
            .map_err(io("writing session file", &self.path))?;
        if !self.sync_each {
            return Ok(());
        }
        self.file
            .sync_data()
            .map_err(io("syncing session file", &self.path))
    }
}

/// The writer's index state and withheld entry ranges from a reader of the file it holds.
fn index_state(
    file: &File,
    path: &Path,
    reader: &SessionReader,
) -> Result<(IndexState, Vec<(u64, u64)>), Error> {
    let state = reader.state();
    let mut index = IndexState {
        uncovered_first: 1,
        ..IndexState::default()
    };
    if state.index_offset != 0 {
        let frame =
            read_index(file, state.index_offset, state.committed_end).map_err(|reason| {
                Error::Corrupt {
                    path: path.to_owned(),
                    offset: state.index_offset,
                    reason,
                }
            })?;
        index
            .known
            .insert(frame.ordinal, (frame.first_id, state.index_offset));
        index.uncovered_first = frame.end_id();
        index.newest = Some((state.index_offset, frame));
    }
    index.uncovered = reader.offsets_from(index.uncovered_first);
    // Withheld (damaged) entries have no usable offset: coverage restarts after them.
    if let Some(last_zero) = index.uncovered.iter().rposition(|&o| o == 0) {
        index.uncovered_first += last_zero as u64 + 1;
        index.uncovered.drain(..=last_zero);
    }
    let withheld = reader.skipped().iter().filter_map(|s| s.entries).collect();
    Ok((index, withheld))
}
