//! Reading sessions: the full scan ([`read_session`], [`CommitReader`]) and random access
//! through the in-file index ([`SessionReader`]).

use std::collections::HashMap;
use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use smith::EntryId;

use crate::format::{self, FrameHead, Salt};
use crate::meta::{COMMIT_LEN, EntryMeta, IndexFrame};
use crate::scan::{Change, Scanner, Skipped, TornTail, io};
use crate::{Entry, Error};

mod access;
mod blocks;

/// What [`read_session`] found: the whole committed history, validated.
#[derive(Debug)]
pub struct ReadOutcome {
    /// Every entry of every complete committed change, in id order.
    pub entries: Vec<Entry>,
    /// The unpublished tail, if the file ends inside a frame or a change.
    pub torn_tail: Option<TornTail>,
    /// Damaged changes that were skipped (their entries are withheld).
    pub skipped: Vec<Skipped>,
    /// Problems with derived index frames (never damage to history).
    pub index_problems: Vec<String>,
    /// The session state after the last complete change.
    pub state: SessionState,
}

/// The state a session's last complete commit records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionState {
    /// Sequence number of the last commit (0 when there is none).
    pub sequence: u64,
    /// The largest entry id (0 when there is none).
    pub last_id: u64,
    /// The selected leaf (0 when the session has no entries).
    pub leaf: u64,
    /// Commits up to this sequence number are durably acknowledged; later ones are complete
    /// but their acknowledgement is not recorded (a writer may still be syncing, or died
    /// before it learned the outcome).
    pub durable_through: u64,
    /// Byte offset just past the last complete committed change.
    pub committed_end: u64,
    /// Offset of the newest index frame, 0 for none.
    pub index_offset: u64,
}

impl SessionState {
    /// The selected leaf as an id, `None` in an empty session.
    pub fn leaf_id(&self) -> Option<EntryId> {
        (self.leaf != 0).then_some(EntryId(self.leaf))
    }

    /// Whether the change with `sequence` is recorded as durably acknowledged.
    pub fn acknowledged(&self, sequence: u64) -> bool {
        sequence <= self.durable_through
    }
}

fn open_file(path: &Path) -> Result<File, Error> {
    File::open(path).map_err(io("opening session file", path))
}

/// Read and validate every complete committed change of the session file at `path`.
///
/// Explicit buffered reads (no mmap). A torn tail is reported and not published; damaged
/// changes whose frame lengths are intact are skipped and reported; damage that hides every
/// later frame boundary is an [`Error::Corrupt`].
///
/// # Errors
/// [`Error::Io`], [`Error::NotASession`], [`Error::UnsupportedVersion`], [`Error::Corrupt`].
pub fn read_session(path: &Path) -> Result<ReadOutcome, Error> {
    read_from(path, open_file(path)?)
}

pub(crate) fn read_from(path: &Path, file: File) -> Result<ReadOutcome, Error> {
    let mut reader = CommitReader {
        scan: Scanner::open(path, file)?,
    };
    let mut entries = Vec::new();
    while let Some(mut change) = reader.next_change()? {
        entries.append(&mut change.entries);
    }
    let scan = reader.scan;
    Ok(ReadOutcome {
        entries,
        state: state_of(&scan),
        torn_tail: scan.torn,
        skipped: scan.skipped,
        index_problems: scan.index_problems,
    })
}

fn state_of(scan: &Scanner) -> SessionState {
    SessionState {
        sequence: scan.last_sequence,
        last_id: scan.last_id,
        leaf: scan.leaf,
        durable_through: scan.durable_through,
        committed_end: scan.committed_end,
        index_offset: scan.index_offset,
    }
}

/// Reads a session file one complete committed change at a time, in file order, so a consumer
/// holds only the change it is looking at (explicit buffered reads, no mmap).
pub struct CommitReader {
    scan: Scanner,
}

impl CommitReader {
    /// Open `path` and validate its header.
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::NotASession`], [`Error::UnsupportedVersion`], [`Error::Corrupt`].
    pub fn open(path: &Path) -> Result<Self, Error> {
        Ok(Self {
            scan: Scanner::open(path, open_file(path)?)?,
        })
    }

    /// The next complete committed change; `None` after the last one.
    ///
    /// # Errors
    /// [`Error::Corrupt`] for damage that hides the frame boundaries after it; [`Error::Io`].
    pub fn next_change(&mut self) -> Result<Option<Change>, Error> {
        self.scan.next_change()
    }

    /// The unpublished tail found after the last complete change (known once
    /// [`CommitReader::next_change`] returned `None`).
    pub fn torn_tail(&self) -> Option<&TornTail> {
        self.scan.torn.as_ref()
    }

    /// Damaged changes skipped so far.
    pub fn skipped(&self) -> &[Skipped] {
        &self.scan.skipped
    }

    /// Problems found with derived index frames so far.
    pub fn index_problems(&self) -> &[String] {
        &self.scan.index_problems
    }

    /// The state after the last complete change read so far.
    pub fn state(&self) -> SessionState {
        state_of(&self.scan)
    }
}

/// How a [`SessionReader`] locates entries.
enum Locate {
    /// From a full scan: the offset of every entry by id - 1 (0: withheld as damaged).
    Full(Vec<u64>),
    /// From the in-file index: the newest index frame and the entries after it.
    Indexed {
        newest: Option<(u64, Arc<IndexFrame>)>,
        tail_first: u64,
        tail: Vec<u64>,
    },
}

/// Random access to one snapshot of a session: the complete committed changes present when it
/// was opened. Takes no lock and never writes, so it is also how an observer reads a session
/// another process is writing (spec: Access ownership).
///
/// Opening is flat in history size when the file ends with a valid commit frame closing a
/// whole change: the commit names the newest index frame, whose back pointers find any entry
/// in O(log n) frame reads. Otherwise (a torn or damaged tail, a missing index) it falls back
/// to a full scan, which costs time proportional to the file but keeps only offsets resident.
/// Entries are validated when they are read — the frame, and the change holding it as the
/// full scan would judge it — so both ways of opening publish the same entries; an index that
/// leads somewhere wrong triggers the full scan instead of hiding history.
pub struct SessionReader {
    path: PathBuf,
    file: File,
    salt: Salt,
    state: SessionState,
    locate: Locate,
    torn_tail: Option<TornTail>,
    skipped: Vec<Skipped>,
    index_problems: Vec<String>,
    live_writer: bool,
    /// The file length when the snapshot was taken; nothing past it is read.
    snapshot_len: u64,
    /// Index frames read, by offset; shared, so a lookup never copies an offset table.
    cache: HashMap<u64, Arc<IndexFrame>>,
    /// The last blocks of the snapshot read.
    blocks: blocks::Blocks,
    /// The index frame the last lookup below the tail ended in: a walk's next lookups are
    /// mostly in it.
    last_frame: Option<(u64, Arc<IndexFrame>)>,
    /// Changes found whole on access when opened through the index: the commit frame's offset
    /// to the change's first byte.
    committed: std::collections::BTreeMap<u64, u64>,
}

impl std::fmt::Debug for SessionReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionReader")
            .field("path", &self.path)
            .field("state", &self.state)
            .field("indexed", &matches!(self.locate, Locate::Indexed { .. }))
            .finish_non_exhaustive()
    }
}

/// Whether another process holds the writer lock on `path` right now. Probes with a shared
/// lock that is released at once, so it never blocks or delays a writer.
pub fn writer_active(path: &Path) -> Result<bool, Error> {
    let file = open_file(path)?;
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            Ok(false)
        }
        Err(TryLockError::WouldBlock) => Ok(true),
        Err(TryLockError::Error(source)) => Err(Error::Io {
            action: "probing the lock of session file",
            path: path.to_owned(),
            source,
        }),
    }
}

impl SessionReader {
    /// Open a snapshot of the session file at `path` for reading.
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::NotASession`], [`Error::UnsupportedVersion`], and
    /// [`Error::Corrupt`] when damage hides the frame boundaries.
    pub fn open(path: &Path) -> Result<Self, Error> {
        Self::open_with(path, true)
    }

    /// Open a snapshot by scanning and validating the whole file (no decoding of bodies), so
    /// it knows every skipped change and the torn tail up front, as [`read_session`] does.
    /// [`SessionReader::open`] falls back to this when the file's tail needs it; a writer does
    /// when its selected leaf is damaged. Its cost grows with the file (reported by
    /// `cargo xtask bench`) while memory stays at 8 bytes per entry.
    ///
    /// # Errors
    /// As [`SessionReader::open`].
    pub fn open_verified(path: &Path) -> Result<Self, Error> {
        Self::open_with(path, false)
    }

    fn open_with(path: &Path, fast: bool) -> Result<Self, Error> {
        let live_writer = writer_active(path)?;
        let mut file = open_file(path)?;
        let len = file
            .metadata()
            .map_err(io("inspecting session file", path))?
            .len();
        let salt = crate::scan::read_header(path, &mut file, len)?;
        let mut reader = Self {
            path: path.to_owned(),
            file,
            salt,
            state: SessionState::default(),
            locate: Locate::Full(Vec::new()),
            torn_tail: None,
            skipped: Vec::new(),
            index_problems: Vec::new(),
            live_writer,
            snapshot_len: len,
            cache: HashMap::new(),
            blocks: blocks::Blocks::default(),
            last_frame: None,
            committed: std::collections::BTreeMap::new(),
        };
        if !(fast && reader.fast_open(len)?) {
            reader.full_scan()?;
        }
        Ok(reader)
    }

    /// Replace whatever the index said with a full scan of the file.
    fn full_scan(&mut self) -> Result<(), Error> {
        let file = open_file(&self.path)?;
        let mut scan = Scanner::open(&self.path, file)?;
        scan.len = scan.len.min(self.snapshot_len);
        scan.offsets = Some(Vec::new());
        while scan.next_raw()?.is_some() {}
        self.state = state_of(&scan);
        let mut offsets = scan.offsets.take().unwrap_or_default();
        // Withheld changes leave zeros; a snapshot of the state covers every id.
        offsets.resize(self.state.last_id as usize, 0);
        self.locate = Locate::Full(offsets);
        self.torn_tail = scan.torn;
        self.skipped = scan.skipped;
        self.index_problems = scan.index_problems;
        self.cache.clear();
        self.last_frame = None;
        Ok(())
    }

    /// Try to open from the trailing commit frame and the index; `false` means "scan instead".
    fn fast_open(&mut self, len: u64) -> Result<bool, Error> {
        let commit_frame = (COMMIT_LEN + format::FRAME_OVERHEAD) as u64;
        if len < format::HEADER_LEN as u64 + commit_frame {
            // Only a header (a new session) is opened as is; anything else is scanned.
            return Ok(false);
        }
        let at = len - commit_frame;
        let Ok(c) = self.commit_at(at) else {
            return Ok(false);
        };
        if c.leaf > c.last_id
            || (c.leaf == 0 && c.last_id != 0)
            || c.durable_through >= c.sequence
            || u64::from(c.entry_count) > c.last_id
        {
            return Ok(false);
        }
        // The change the commit closes must be whole.
        if self.change_whole(&c).is_err() {
            return Ok(false);
        }
        // Entries after the newest index frame, found by hopping frame heads.
        let (newest, mut pos, tail_first) = if c.index_offset == 0 {
            (None, format::HEADER_LEN as u64, 1)
        } else {
            let Ok(index) = self.index_at(c.index_offset) else {
                return Ok(false);
            };
            let end =
                c.index_offset + (self.frame_at(c.index_offset).map_or(0, |f| f.0.frame_len()));
            let first = index.end_id();
            (Some((c.index_offset, index)), end, first)
        };
        // Positioned reads of the heads alone: the cost follows the number of frames after
        // the newest index frame (at most one index span of entries), not their size.
        let mut tail = Vec::new();
        while pos < len {
            let Ok(h) = self.head_at(pos) else {
                return Ok(false);
            };
            if h.kind == format::KIND_ENTRY {
                tail.push(pos);
                if tail.len() > 1 << 20 {
                    return Ok(false);
                }
            }
            pos += h.frame_len();
        }
        if pos != len || tail_first + tail.len() as u64 != c.last_id + 1 {
            return Ok(false);
        }
        self.state = SessionState {
            sequence: c.sequence,
            last_id: c.last_id,
            leaf: c.leaf,
            durable_through: c.durable_through,
            committed_end: len,
            index_offset: c.index_offset,
        };
        self.locate = Locate::Indexed {
            newest,
            tail_first,
            tail,
        };
        Ok(true)
    }

    /// Read the frame at `offset` through the block cache: its head and payload, checksums
    /// verified, the frame wholly inside the snapshot.
    fn frame_at(&self, offset: u64) -> Result<(FrameHead, Vec<u8>), String> {
        let mut payload = Vec::new();
        let h = self.frame_into(offset, &mut payload)?;
        Ok((h, payload))
    }

    /// As [`Self::frame_at`], the payload appended to `buf`; on error `buf` is as it was.
    fn frame_into(&self, offset: u64, buf: &mut Vec<u8>) -> Result<FrameHead, String> {
        let failed = |e: std::io::Error| format!("cannot read a frame at byte {offset}: {e}");
        let mut head = [0u8; format::FRAME_HEAD_LEN];
        self.read_at(offset, &mut head).map_err(failed)?;
        let h = FrameHead::decode(&head)?;
        if offset + h.frame_len() > self.snapshot_len {
            return Err(format!(
                "frame at byte {offset} runs past byte {}",
                self.snapshot_len
            ));
        }
        let start = buf.len();
        let tail_at = start + h.len as usize;
        buf.resize(tail_at + format::FRAME_TAIL_LEN, 0);
        let checked = self
            .read_at(offset + format::FRAME_HEAD_LEN as u64, &mut buf[start..])
            .map_err(failed)
            .and_then(|()| {
                let tail: [u8; 4] = buf[tail_at..]
                    .try_into()
                    .map_err(|_| format!("frame at byte {offset} has no checksum"))?;
                if format::frame_checksum_ok(&head, &buf[start..tail_at], tail) {
                    Ok(())
                } else {
                    Err(format!("frame checksum mismatch at byte {offset}"))
                }
            });
        buf.truncate(if checked.is_ok() { tail_at } else { start });
        checked.map(|()| h)
    }

    /// Fill `buf` from the snapshot at `offset`, through the block cache.
    pub(super) fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.blocks.read(&self.file, self.snapshot_len, offset, buf)
    }

    fn index_at(&mut self, offset: u64) -> Result<Arc<IndexFrame>, String> {
        if let Some(i) = self.cache.get(&offset) {
            return Ok(Arc::clone(i));
        }
        let (h, payload) = self.frame_at(offset)?;
        if h.kind != format::KIND_INDEX {
            return Err(format!("no index frame at byte {offset}"));
        }
        let index = Arc::new(IndexFrame::decode(&payload)?);
        if self.cache.len() >= 64 {
            self.cache.clear();
        }
        self.cache.insert(offset, Arc::clone(&index));
        Ok(index)
    }

    /// The file offset of entry `id` through the index; `Err` when the index cannot say.
    fn offset_of(&mut self, id: u64) -> Result<u64, String> {
        let (mut at, mut frame) = match &self.locate {
            Locate::Full(offsets) => {
                return match offsets.get((id as usize).wrapping_sub(1)) {
                    Some(&0) => Err(format!("entry {id} lies in a damaged, skipped change")),
                    Some(&o) => Ok(o),
                    None => Err(format!("there is no entry {id}")),
                };
            }
            Locate::Indexed {
                newest,
                tail_first,
                tail,
            } => {
                if id >= *tail_first {
                    return tail
                        .get((id - tail_first) as usize)
                        .copied()
                        .ok_or_else(|| format!("there is no entry {id}"));
                }
                if let Some((at, frame)) = &self.last_frame
                    && (frame.first_id..frame.end_id()).contains(&id)
                {
                    return frame
                        .offsets
                        .get((id - frame.first_id) as usize)
                        .copied()
                        .ok_or_else(|| {
                            format!("index frame at byte {at} does not cover entry {id}")
                        });
                }
                match newest {
                    Some((at, frame)) => (*at, Arc::clone(frame)),
                    None => return Err(format!("there is no entry {id}")),
                }
            }
        };
        for _ in 0..128 {
            if id >= frame.first_id {
                let found = frame
                    .offsets
                    .get((id - frame.first_id) as usize)
                    .copied()
                    .ok_or_else(|| format!("index frame at byte {at} does not cover entry {id}"));
                self.last_frame = Some((at, frame));
                return found;
            }
            let pick = frame
                .back
                .iter()
                .rposition(|(first, _)| *first > id)
                .unwrap_or(0);
            let Some(&(_, next)) = frame.back.get(pick) else {
                return Err(format!("there is no entry {id}"));
            };
            at = next;
            frame = self.index_at(at)?;
        }
        Err(format!("the index does not lead to entry {id}"))
    }

    /// The state of the snapshot.
    pub fn state(&self) -> SessionState {
        self.state
    }

    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether another process held the writer lock when this snapshot was opened (then an
    /// incomplete tail is the writer's pending input, not damage).
    pub fn live_writer(&self) -> bool {
        self.live_writer
    }

    /// Whether opening used the in-file index (`false`: it scanned the whole file).
    pub fn used_index(&self) -> bool {
        matches!(self.locate, Locate::Indexed { .. })
    }

    /// The torn tail a full scan found (fast opening implies there is none).
    pub fn torn_tail(&self) -> Option<&TornTail> {
        self.torn_tail.as_ref()
    }

    /// Damaged changes a full scan skipped (fast opening does not look for them; use
    /// [`read_session`] for a full verification).
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// The offset of entry `id`'s frame; the error names the damage when it is withheld.
    fn locate_entry(&mut self, id: u64) -> Result<u64, (u64, String)> {
        if id == 0 || id > self.state.last_id {
            return Err((0, format!("there is no entry {id}")));
        }
        self.offset_of(id).map_err(|e| {
            let damage = self
                .skipped
                .iter()
                .find(|s| s.entries.is_some_and(|(a, b)| (a..=b).contains(&id)))
                .map_or(0, |s| s.damage_at);
            (damage, e)
        })
    }

    /// Entry `id`'s frame payload, its checksums, metadata and commit checked.
    fn entry_frame(&mut self, id: u64) -> Result<(u64, Vec<u8>), (u64, String)> {
        let at = self.locate_entry(id)?;
        self.entry_frame_at(at, id).map(|payload| (at, payload))
    }

    /// The payload of entry `id`'s frame at `at`, its checksums, metadata and commit checked.
    fn entry_frame_at(&mut self, at: u64, id: u64) -> Result<Vec<u8>, (u64, String)> {
        let mut payload = Vec::new();
        self.entry_frame_into(at, id, &mut payload)?;
        Ok(payload)
    }

    /// As [`Self::entry_frame_at`], the payload appended to `buf`; on error `buf` is as it
    /// was.
    pub(super) fn entry_frame_into(
        &mut self,
        at: u64,
        id: u64,
        buf: &mut Vec<u8>,
    ) -> Result<(), (u64, String)> {
        let start = buf.len();
        let h = self.frame_into(at, buf).map_err(|e| (at, e))?;
        let problem = if h.kind != format::KIND_ENTRY || h.flags != 0 {
            Some(format!("expected entry {id} at byte {at}"))
        } else {
            match EntryMeta::decode(&buf[start..]) {
                Some((m, _)) if m.id == id => self.check_committed(at).err(),
                Some((m, _)) => Some(format!("found entry {} where {id} was expected", m.id)),
                None => Some("entry frame too short".to_owned()),
            }
        };
        match problem {
            None => Ok(()),
            Some(problem) => {
                buf.truncate(start);
                Err((at, problem))
            }
        }
    }

    /// The parent of entry `id` from its metadata alone (the body is not decoded); the
    /// frame's checksums and the metadata's rules are still checked.
    ///
    /// # Errors
    /// As [`SessionReader::entry`].
    pub fn parent_of(&mut self, id: EntryId) -> Result<Option<EntryId>, Error> {
        let corrupt = |path: &Path, offset: u64, reason: String| Error::Corrupt {
            path: path.to_owned(),
            offset,
            reason,
        };
        if id.0 == 0 || id.0 > self.state.last_id || self.withheld(id.0) {
            return Err(corrupt(
                &self.path,
                0,
                format!("there is no readable entry {}", id.0),
            ));
        }
        let at = self
            .offset_of(id.0)
            .map_err(|e| corrupt(&self.path, 0, e))?;
        let (h, payload) = self.frame_at(at).map_err(|e| corrupt(&self.path, at, e))?;
        match EntryMeta::decode(&payload) {
            Some((m, _)) if h.kind == format::KIND_ENTRY && m.id == id.0 && m.parent < m.id => {
                Ok((m.parent != 0).then_some(EntryId(m.parent)))
            }
            _ => Err(corrupt(
                &self.path,
                at,
                format!("expected entry {} at byte {at}", id.0),
            )),
        }
    }

    /// Up to `limit` entries of the branch ending at `leaf`, newest first: the leaf, its
    /// parent, and so on toward the root. Decodes only those entries.
    ///
    /// # Errors
    /// As [`SessionReader::entry`].
    pub fn branch(&mut self, leaf: EntryId, limit: usize) -> Result<Vec<Entry>, Error> {
        let mut out = Vec::new();
        let mut at = Some(leaf);
        while let Some(id) = at {
            if out.len() >= limit {
                break;
            }
            let entry = self.entry(id)?;
            at = entry.parent;
            out.push(entry);
        }
        Ok(out)
    }

    /// Up to `limit` entries in id order starting at `from`, skipping withheld ones (those a
    /// full scan withheld, including one this read found damaged and rescanned for).
    ///
    /// # Errors
    /// As [`SessionReader::entry`].
    pub fn range(&mut self, from: EntryId, limit: usize) -> Result<Vec<Entry>, Error> {
        let mut out = Vec::new();
        let mut id = from.0.max(1);
        while out.len() < limit && id <= self.state.last_id {
            if !self.withheld(id) {
                match self.entry(EntryId(id)) {
                    Ok(e) => out.push(e),
                    // Found damaged on access: the rescan that followed withheld its change.
                    Err(_) if self.withheld(id) => {}
                    Err(e) => return Err(e),
                }
            }
            id += 1;
        }
        Ok(out)
    }

    /// Visit, in id order, every readable entry of `ids` whose record kind is one of `kinds`:
    /// the others are passed over by their metadata alone (their bodies are never read), and
    /// entries in damaged, withheld changes are skipped — also one this walk finds damaged
    /// (the reader then rescans, and [`SessionReader::skipped`] names it).
    ///
    /// # Errors
    /// As [`SessionReader::entry`], for damage the full scan cannot delimit.
    pub fn for_each_of_kinds(
        &mut self,
        ids: std::ops::RangeInclusive<u64>,
        kinds: &[u16],
        mut visit: impl FnMut(Entry),
    ) -> Result<(), Error> {
        for id in ids {
            if self.withheld(id) {
                continue;
            }
            let kind = match self.entry_meta(EntryId(id)) {
                Ok(meta) => meta.record_kind,
                Err(_) if self.withheld(id) => continue,
                Err(e) => return Err(e),
            };
            if !kinds.contains(&kind) {
                continue;
            }
            match self.entry(EntryId(id)) {
                Ok(entry) => visit(entry),
                Err(_) if self.withheld(id) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Offsets of entries `first..=last_id` as far as they are known without reading (0 for a
    /// withheld entry); the writer's starting point for its next index frame.
    pub(crate) fn offsets_from(&self, first: u64) -> Vec<u64> {
        match &self.locate {
            Locate::Full(o) => o
                .get(first.saturating_sub(1) as usize..)
                .unwrap_or(&[])
                .to_vec(),
            Locate::Indexed {
                tail_first, tail, ..
            } => tail
                .get(first.saturating_sub(*tail_first) as usize..)
                .unwrap_or(&[])
                .to_vec(),
        }
    }

    /// Whether entry `id` lies in a damaged change that a full scan withheld.
    pub fn withheld(&self, id: u64) -> bool {
        matches!(&self.locate, Locate::Full(o) if id >= 1 && o.get(id as usize - 1) == Some(&0))
    }
}

/// Read the frame at `offset` of `file` with explicit reads: its head and payload, both
/// checksums verified, and the frame wholly before `limit`.
pub(crate) fn read_frame(
    mut file: &File,
    offset: u64,
    limit: u64,
) -> Result<(FrameHead, Vec<u8>), String> {
    let mut head = [0u8; format::FRAME_HEAD_LEN];
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(&mut head))
        .map_err(|e| format!("cannot read a frame at byte {offset}: {e}"))?;
    let h = FrameHead::decode(&head)?;
    if offset + h.frame_len() > limit {
        return Err(format!("frame at byte {offset} runs past byte {limit}"));
    }
    let mut payload = vec![0u8; h.len as usize];
    let mut tail = [0u8; 4];
    file.read_exact(&mut payload)
        .and_then(|()| file.read_exact(&mut tail))
        .map_err(|e| format!("cannot read a frame at byte {offset}: {e}"))?;
    if !format::frame_checksum_ok(&head, &payload, tail) {
        return Err(format!("frame checksum mismatch at byte {offset}"));
    }
    Ok((h, payload))
}

/// Read and decode the index frame at `offset`.
pub(crate) fn read_index(file: &File, offset: u64, limit: u64) -> Result<IndexFrame, String> {
    let (h, payload) = read_frame(file, offset, limit)?;
    if h.kind != format::KIND_INDEX {
        return Err(format!("no index frame at byte {offset}"));
    }
    Ok(IndexFrame::decode(&payload)?)
}
