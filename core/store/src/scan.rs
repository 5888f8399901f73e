//! The full forward scan: every frame from the header on, validated, grouped into committed
//! changes. Recovery, verification, inspection and fork traversal all use it, so they agree on
//! the commit boundaries (spec: Committed changes — "Readers, recovery, inspection, and replay
//! recognize the same commit boundaries").

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use smith::EntryId;

use crate::format::{self, FrameHead, HeaderStart, Salt};
use crate::meta::{CommitMeta, EntryMeta, IndexFrame};
use crate::record::load_body;
use crate::{Entry, Error, Record};

/// Bytes after the last complete committed change that were never published: the file ends
/// inside a frame, after frames whose commit never arrived, or in zero bytes a crash left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornTail {
    /// Byte offset where the unpublished bytes start (the end of the last complete change).
    pub offset: u64,
    /// How many bytes follow it.
    pub len: u64,
    /// Why they were not published.
    pub reason: &'static str,
}

/// A damaged region that was skipped: frames with intact lengths whose checksums or contents
/// are wrong, up to and including the next valid commit frame (or the end of the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Byte offset of the first byte of the withheld change.
    pub offset: u64,
    /// Length of the withheld region in bytes.
    pub len: u64,
    /// Byte offset of the first damaged frame.
    pub damage_at: u64,
    /// What is wrong there.
    pub reason: String,
    /// The entry ids withheld (`first..=last`), when the closing commit names them.
    pub entries: Option<(u64, u64)>,
    /// Whether the region runs to the end of the file with no valid commit after it: then
    /// the last changes' commit boundary itself is damaged and no writer may append.
    pub at_end: bool,
}

/// A frame exactly as stored, enough to write it again byte for byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawFrame {
    /// Byte offset of the frame in its file.
    pub offset: u64,
    /// Frame kind.
    pub kind: u16,
    /// Frame flags.
    pub flags: u16,
    /// Payload bytes.
    pub payload: Vec<u8>,
}

impl RawFrame {
    /// The frame's bytes: head, payload, checksum.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.payload.len() + format::FRAME_OVERHEAD);
        format::push_frame(&mut out, self.kind, self.flags, &self.payload);
        out
    }
}

/// One complete committed change as published.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The commit marker's fields.
    pub commit: CommitMeta,
    /// Its entries, in id order (empty for a leaf selection or a close marker).
    pub entries: Vec<Entry>,
    /// Frames of kinds this build does not know, in file order, kept byte for byte.
    pub unknown_frames: Vec<RawFrame>,
}

/// A change before its bodies are decoded.
pub(crate) struct RawChange {
    pub(crate) commit: CommitMeta,
    /// Entry and unknown frames in file order (index and commit frames are derived).
    pub(crate) frames: Vec<RawFrame>,
}

enum Next {
    Frame(RawFrame),
    Eof,
    /// The file ends inside a frame.
    Incomplete,
    /// Only zero bytes remain (what some file systems leave after a crash).
    Zeros,
    /// A complete frame whose checksum is wrong; its head (and so its length and kind) is
    /// intact: `(offset, kind)`.
    BadChecksum(u64, u16),
}

/// The forward scanner. Holds one change at a time.
pub(crate) struct Scanner {
    path: PathBuf,
    input: BufReader<File>,
    pub(crate) salt: Salt,
    pos: u64,
    /// Where the scan stops: the file length, or a reader's snapshot boundary.
    pub(crate) len: u64,
    pub(crate) committed_end: u64,
    pub(crate) last_sequence: u64,
    pub(crate) last_id: u64,
    pub(crate) leaf: u64,
    pub(crate) durable_through: u64,
    pub(crate) index_offset: u64,
    /// `(first_id, offset)` of every valid index frame, in ordinal order.
    index_frames: Vec<(u64, u64)>,
    /// Offsets of committed entries not yet covered by an index frame.
    uncovered: Vec<u64>,
    /// The offset of every committed entry by id - 1, when asked for.
    pub(crate) offsets: Option<Vec<u64>>,
    pub(crate) torn: Option<TornTail>,
    pub(crate) skipped: Vec<Skipped>,
    pub(crate) index_problems: Vec<String>,
    /// The index frame of the change being committed did not match its entries.
    index_rejected: bool,
    done: bool,
}

pub(crate) fn io<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> Error + 'a {
    move |source| Error::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

/// Read and validate the header of `file` (positioned at its start); returns its salt.
pub(crate) fn read_header(path: &Path, file: &mut impl Read, len: u64) -> Result<Salt, Error> {
    let mut start = [0u8; 16];
    if len < 16 {
        return Err(Error::NotASession {
            path: path.to_owned(),
            reason: "it is shorter than a session file header",
        });
    }
    file.read_exact(&mut start)
        .map_err(io("reading session file", path))?;
    match format::header_start(&start) {
        HeaderStart::NotASession => Err(Error::NotASession {
            path: path.to_owned(),
            reason: "its first bytes are not the `SMITHSES` magic",
        }),
        HeaderStart::Version(format::VERSION) => {
            if len < format::HEADER_LEN as u64 {
                return Err(Error::Corrupt {
                    path: path.to_owned(),
                    offset: 0,
                    reason: "the file header is cut short".to_owned(),
                });
            }
            let mut header = [0u8; format::HEADER_LEN];
            header[..16].copy_from_slice(&start);
            file.read_exact(&mut header[16..])
                .map_err(io("reading session file", path))?;
            format::check_header(&header).map_err(|reason| Error::Corrupt {
                path: path.to_owned(),
                offset: 0,
                reason: reason.to_owned(),
            })
        }
        HeaderStart::Version(found) => Err(Error::UnsupportedVersion {
            path: path.to_owned(),
            found,
            supported: format::VERSION,
        }),
    }
}

impl Scanner {
    pub(crate) fn open(path: &Path, mut file: File) -> Result<Self, Error> {
        let len = file
            .metadata()
            .map_err(io("inspecting session file", path))?
            .len();
        let salt = read_header(path, &mut file, len)?;
        Ok(Self {
            path: path.to_owned(),
            input: BufReader::with_capacity(64 * 1024, file),
            salt,
            pos: format::HEADER_LEN as u64,
            len,
            committed_end: format::HEADER_LEN as u64,
            last_sequence: 0,
            last_id: 0,
            leaf: 0,
            durable_through: 0,
            index_offset: 0,
            index_frames: Vec::new(),
            uncovered: Vec::new(),
            offsets: None,
            torn: None,
            skipped: Vec::new(),
            index_problems: Vec::new(),
            index_rejected: false,
            done: false,
        })
    }

    pub(crate) fn corrupt(&self, offset: u64, reason: impl Into<String>) -> Error {
        Error::Corrupt {
            path: self.path.clone(),
            offset,
            reason: reason.into(),
        }
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.input
            .read_exact(buf)
            .map_err(io("reading session file", &self.path))?;
        self.pos += buf.len() as u64;
        Ok(())
    }

    /// Whether every byte from the current position to the end is zero (consumes them).
    fn rest_is_zero(&mut self) -> Result<bool, Error> {
        let mut chunk = [0u8; 8192];
        while self.pos < self.len {
            let n = (self.len - self.pos).min(chunk.len() as u64) as usize;
            self.read_exact(&mut chunk[..n])?;
            if chunk[..n].iter().any(|&b| b != 0) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn next_frame(&mut self) -> Result<Next, Error> {
        let start = self.pos;
        let remaining = self.len - self.pos;
        if remaining == 0 {
            return Ok(Next::Eof);
        }
        if remaining < format::FRAME_HEAD_LEN as u64 {
            return Ok(if self.rest_is_zero()? {
                Next::Zeros
            } else {
                Next::Incomplete
            });
        }
        let mut head = [0u8; format::FRAME_HEAD_LEN];
        self.read_exact(&mut head)?;
        let parsed = match FrameHead::decode(&head) {
            Ok(h) => h,
            Err(reason) => {
                if head.iter().all(|&b| b == 0) && self.rest_is_zero()? {
                    return Ok(Next::Zeros);
                }
                // The length cannot be trusted, so no later frame boundary can be found.
                return Err(self.corrupt(
                    start,
                    format!("{reason}; the frames after it cannot be located"),
                ));
            }
        };
        if parsed.frame_len() > remaining {
            return Ok(Next::Incomplete);
        }
        let mut payload = vec![0u8; parsed.len as usize];
        self.read_exact(&mut payload)?;
        let mut tail = [0u8; format::FRAME_TAIL_LEN];
        self.read_exact(&mut tail)?;
        if !format::frame_checksum_ok(&head, &payload, tail) {
            return Ok(Next::BadChecksum(start, parsed.kind));
        }
        Ok(Next::Frame(RawFrame {
            offset: start,
            kind: parsed.kind,
            flags: parsed.flags,
            payload,
        }))
    }

    /// The next complete committed change with its frames undecoded; `None` at the end (a torn
    /// tail or damage at the end is then recorded). Damaged changes with intact frame lengths
    /// are skipped and recorded in `skipped`.
    pub(crate) fn next_raw(&mut self) -> Result<Option<RawChange>, Error> {
        if self.done {
            return Ok(None);
        }
        self.index_rejected = false;
        let mut change_start = self.pos;
        let mut frames: Vec<RawFrame> = Vec::new();
        let mut index_in_change: Option<(u64, IndexFrame)> = None;
        let mut entry_offsets: Vec<u64> = Vec::new();
        let mut damage: Option<(u64, String)> = None;
        let mut expected = self.last_id + 1;
        loop {
            let at = self.pos;
            if damage.is_none() && at - change_start > format::MAX_CHANGE_BYTES {
                damage = Some((
                    at,
                    format!(
                        "a change larger than the bound of {} bytes",
                        format::MAX_CHANGE_BYTES
                    ),
                ));
            }
            let frame = match self.next_frame()? {
                Next::Frame(f) => f,
                Next::BadChecksum(offset, kind) => {
                    if kind == format::KIND_INDEX && damage.is_none() {
                        // Derived data: a damaged index frame costs no history.
                        self.index_problems.push(format!(
                            "index frame at byte {offset}: frame checksum mismatch (ignored)"
                        ));
                    } else {
                        damage.get_or_insert((offset, "frame checksum mismatch".to_owned()));
                    }
                    continue;
                }
                end @ (Next::Eof | Next::Incomplete | Next::Zeros) => {
                    self.done = true;
                    if let Some((damage_at, reason)) = damage {
                        self.skipped.push(Skipped {
                            offset: change_start,
                            len: self.len - change_start,
                            damage_at,
                            reason,
                            entries: None,
                            at_end: true,
                        });
                    } else if change_start < self.len {
                        let reason = match end {
                            Next::Eof => "frames without their commit frame",
                            Next::Zeros => "zero bytes where frames should be",
                            _ => "the file ends inside a frame",
                        };
                        self.torn = Some(TornTail {
                            offset: change_start,
                            len: self.len - change_start,
                            reason,
                        });
                    }
                    return Ok(None);
                }
            };
            match frame.kind {
                format::KIND_COMMIT => {
                    let commit = CommitMeta::decode(&frame.payload);
                    if let Some((damage_at, reason)) = damage.take() {
                        // Resynchronise on a commit frame that is provably this file's own.
                        match commit {
                            // The damaged region can hold at most one entry per frame's
                            // worth of bytes: a commit claiming more is not this file's.
                            Ok(c)
                                if c.salt == self.salt
                                    && c.self_offset == at
                                    && c.last_id >= self.last_id
                                    && c.last_id - self.last_id
                                        <= (at - change_start) / format::FRAME_OVERHEAD as u64
                                    && c.sequence > self.last_sequence =>
                            {
                                // Everything after the last published entry through this
                                // commit's last entry is withheld (the damage may have hidden
                                // earlier commits of the region).
                                let first = self.last_id + 1;
                                self.skipped.push(Skipped {
                                    offset: change_start,
                                    len: self.pos - change_start,
                                    damage_at,
                                    reason,
                                    entries: (c.last_id >= first).then_some((first, c.last_id)),
                                    at_end: false,
                                });
                                self.adopt(&c);
                                // The skipped entries' offsets are unknown: index checks
                                // restart after them.
                                self.uncovered.clear();
                                if let Some(offsets) = &mut self.offsets {
                                    offsets.resize(c.last_id as usize, 0);
                                }
                                change_start = self.pos;
                                frames.clear();
                                index_in_change = None;
                                entry_offsets.clear();
                                expected = self.last_id + 1;
                                continue;
                            }
                            _ => {
                                damage = Some((damage_at, reason));
                                continue;
                            }
                        }
                    }
                    let problem = match &commit {
                        _ if frame.flags != 0 => Some(format!(
                            "commit frame flags are {:#06x}, not 0",
                            frame.flags
                        )),
                        Err(e) => Some(e.to_string()),
                        Ok(c) => self.commit_problem(
                            c,
                            at,
                            change_start,
                            expected,
                            &entry_offsets,
                            index_in_change.as_ref(),
                        ),
                    };
                    match (commit, problem) {
                        (Ok(c), None) => {
                            self.adopt(&c);
                            self.uncovered.extend_from_slice(&entry_offsets);
                            if let Some((offset, index)) = index_in_change
                                && !std::mem::take(&mut self.index_rejected)
                            {
                                self.index_frames.push((index.first_id, offset));
                                self.uncovered.clear();
                                self.index_offset = offset;
                            }
                            if let Some(offsets) = &mut self.offsets {
                                offsets.extend_from_slice(&entry_offsets);
                            }
                            return Ok(Some(RawChange { commit: c, frames }));
                        }
                        (_, problem) => {
                            damage = Some((at, problem.unwrap_or_default()));
                        }
                    }
                }
                _ if damage.is_some() => {}
                format::KIND_ENTRY => {
                    let problem = match EntryMeta::decode(&frame.payload) {
                        None => Some("entry frame too short".to_owned()),
                        Some((meta, _)) => entry_problem(&meta, expected, frame.flags),
                    };
                    if let Some(p) = problem {
                        damage = Some((at, p));
                    } else if entry_offsets.len() as u32 >= format::MAX_ENTRIES_PER_COMMIT {
                        damage = Some((
                            at,
                            "more entries in one change than the format allows".to_owned(),
                        ));
                    } else {
                        expected += 1;
                        entry_offsets.push(at);
                        frames.push(frame);
                    }
                }
                format::KIND_INDEX => match IndexFrame::decode(&frame.payload) {
                    Ok(_) if frame.flags != 0 => self.index_problems.push(format!(
                        "index frame at byte {at} has flags {:#06x} (ignored)",
                        frame.flags
                    )),
                    Ok(index) => index_in_change = Some((at, index)),
                    Err(e) => self
                        .index_problems
                        .push(format!("index frame at byte {at}: {e} (ignored)")),
                },
                _ => frames.push(frame),
            }
        }
    }

    /// What is wrong with a commit frame whose checksum is valid, if anything.
    fn commit_problem(
        &mut self,
        c: &CommitMeta,
        at: u64,
        change_start: u64,
        expected: u64,
        entry_offsets: &[u64],
        index: Option<&(u64, IndexFrame)>,
    ) -> Option<String> {
        let last_id = expected - 1;
        let problem = if c.salt != self.salt {
            "commit frame belongs to another file (salt differs)".to_owned()
        } else if c.self_offset != at || c.change_start != change_start {
            format!(
                "commit frame records offsets {}/{} but lies at {at} closing a change from {change_start}",
                c.self_offset, c.change_start
            )
        } else if c.sequence != self.last_sequence + 1 {
            format!(
                "commit sequence number {} follows commit {}; expected {}",
                c.sequence,
                self.last_sequence,
                self.last_sequence + 1
            )
        } else if c.entry_count as usize != entry_offsets.len() || c.last_id != last_id {
            format!(
                "commit {} says it closes {} entries through id {}, but {} entry frames through id {last_id} precede it",
                c.sequence,
                c.entry_count,
                c.last_id,
                entry_offsets.len()
            )
        } else if c.leaf > c.last_id
            || (c.leaf == 0 && c.last_id != 0)
            || c.durable_through >= c.sequence
        {
            format!(
                "commit {} names leaf {} or durable boundary {} outside the history",
                c.sequence, c.leaf, c.durable_through
            )
        } else {
            String::new()
        };
        if !problem.is_empty() {
            return Some(problem);
        }
        // Index frames are derived data: a wrong one is reported, never damage to history.
        if let Some((offset, index)) = index {
            let mut covered = self.uncovered.clone();
            covered.extend_from_slice(entry_offsets);
            let want_back: Vec<(u64, u64)> = (0..index.back.len())
                .filter_map(|i| {
                    let ordinal = index.ordinal.checked_sub(1 << i)?;
                    self.index_frames.get(ordinal as usize).copied()
                })
                .collect();
            let first = last_id + 1 - covered.len() as u64;
            if index.ordinal != self.index_frames.len() as u64
                || index.first_id != first
                || index.offsets != covered
                || index.back != want_back
            {
                self.index_rejected = true;
                self.index_problems.push(format!(
                    "index frame at byte {offset} does not match the entries it covers (ignored; fast opening falls back to a full scan)"
                ));
            }
        }
        if c.index_offset != index.map_or(self.index_offset, |(o, _)| *o) {
            self.index_problems.push(format!(
                "commit {} points at index frame {} (ignored)",
                c.sequence, c.index_offset
            ));
        }
        None
    }

    /// Take a valid commit's state. The index offset is not taken from the commit: it is the
    /// newest index frame the scan itself found (a wrong claim is only an index problem).
    fn adopt(&mut self, c: &CommitMeta) {
        self.last_sequence = c.sequence;
        self.last_id = c.last_id;
        self.leaf = c.leaf;
        self.durable_through = c.durable_through;
        self.committed_end = self.pos;
    }

    /// The next complete committed change, decoded. A change whose bodies do not decode is
    /// skipped and recorded like any other damaged change.
    pub(crate) fn next_change(&mut self) -> Result<Option<Change>, Error> {
        while let Some(raw) = self.next_raw()? {
            match decode_change(&raw) {
                Ok(change) => return Ok(Some(change)),
                Err((offset, reason)) => {
                    let c = raw.commit;
                    self.skipped.push(Skipped {
                        offset: c.change_start,
                        len: self.pos - c.change_start,
                        damage_at: offset,
                        reason,
                        entries: (c.entry_count > 0)
                            .then(|| (c.last_id + 1 - u64::from(c.entry_count), c.last_id)),
                        at_end: false,
                    });
                }
            }
        }
        Ok(None)
    }
}

fn entry_problem(meta: &EntryMeta, expected: u64, frame_flags: u16) -> Option<String> {
    if frame_flags != 0 {
        Some(format!("entry frame flags are {frame_flags:#06x}, not 0"))
    } else if meta.id != expected || meta.id == 0 {
        Some(format!(
            "entry id {} where {expected} was expected",
            meta.id
        ))
    } else if meta.parent >= meta.id || meta.pair >= meta.id {
        Some(format!(
            "entry {} names parent {} or pair {}, which must be earlier entries",
            meta.id, meta.parent, meta.pair
        ))
    } else {
        None
    }
}

/// Decode one entry frame's payload into an [`Entry`]; `Err` says what is wrong.
pub(crate) fn decode_entry(payload: &[u8]) -> Result<Entry, String> {
    let (meta, stored) = EntryMeta::decode(payload).ok_or("entry frame too short")?;
    if let Some(problem) = entry_problem(&meta, meta.id, 0) {
        return Err(problem);
    }
    let body = load_body(meta.flags, meta.body_len, stored)?;
    let mut record = Record::decode(meta.record_kind, &body)
        .map_err(|reason| format!("entry {} has a malformed body: {reason}", meta.id))?;
    if let Record::Unknown { projection, .. } = &mut record {
        *projection = meta.flags & crate::meta::ENTRY_PROJECTION != 0;
    }
    Ok(Entry {
        id: EntryId(meta.id),
        parent: (meta.parent != 0).then_some(EntryId(meta.parent)),
        pair: (meta.pair != 0).then_some(EntryId(meta.pair)),
        timestamp_ms: meta.timestamp_ms,
        record,
    })
}

fn decode_change(raw: &RawChange) -> Result<Change, (u64, String)> {
    let mut entries = Vec::with_capacity(raw.commit.entry_count as usize);
    let mut unknown_frames = Vec::new();
    for frame in &raw.frames {
        if frame.kind == format::KIND_ENTRY {
            entries.push(decode_entry(&frame.payload).map_err(|e| (frame.offset, e))?);
        } else {
            unknown_frames.push(frame.clone());
        }
    }
    Ok(Change {
        commit: raw.commit,
        entries,
        unknown_frames,
    })
}
