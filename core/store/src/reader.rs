//! Reading a session file: only complete committed changes are published.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use smith::EntryId;

use crate::format::{self, EntryMeta, HeaderCheck};
use crate::{Entry, Error, Record};

/// Bytes after the last complete committed change that a reader did not publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornTail {
    /// Byte offset where the unpublished bytes start (the end of the last complete change).
    pub offset: u64,
    /// How many bytes follow it.
    pub len: u64,
    /// Why they were not published.
    pub reason: &'static str,
}

/// What [`read_session`] found.
#[derive(Debug)]
pub struct ReadOutcome {
    /// Every entry of every complete committed change, in append order.
    pub entries: Vec<Entry>,
    /// The unpublished tail, if the file ends inside a frame or a change.
    pub torn_tail: Option<TornTail>,
    /// Byte offset just past the last complete committed change.
    pub committed_end: u64,
    /// Sequence number of the last commit (0 when there is none).
    pub last_sequence: u64,
}

/// Read every complete committed change of the session file at `path`.
///
/// Reads with explicit buffered reads (no mmap). A file that ends inside a frame, or after
/// entry frames whose commit frame never arrived, has a [`TornTail`]: those bytes are reported
/// and not published. Damage that is not a torn tail (a checksum mismatch, an impossible length,
/// a commit that does not match its entries) is an [`Error::Corrupt`], so that no writer ever
/// truncates history it cannot read.
///
/// # Errors
/// [`Error::Io`], [`Error::NotASession`], [`Error::UnsupportedVersion`], [`Error::Corrupt`].
pub fn read_session(path: &Path) -> Result<ReadOutcome, Error> {
    let file = File::open(path).map_err(|source| Error::Io {
        action: "opening session file",
        path: path.to_owned(),
        source,
    })?;
    read_from(path, file)
}

/// Read from an already opened file positioned at its start.
pub(crate) fn read_from(path: &Path, file: File) -> Result<ReadOutcome, Error> {
    let mut reader = CommitReader::from_file(path, file)?;
    let mut entries = Vec::new();
    while let Some(mut change) = reader.next_commit()? {
        entries.append(&mut change);
    }
    Ok(ReadOutcome {
        entries,
        torn_tail: reader.scan.torn.take(),
        committed_end: reader.scan.committed_end,
        last_sequence: reader.scan.last_sequence,
    })
}

/// Reads a session file one complete committed change at a time, so a consumer holds only
/// the change it is looking at (explicit buffered reads, no mmap).
pub struct CommitReader {
    scan: Scan,
}

impl CommitReader {
    /// Open `path` and validate its header.
    ///
    /// # Errors
    /// [`Error::Io`], [`Error::NotASession`], [`Error::UnsupportedVersion`], [`Error::Corrupt`].
    pub fn open(path: &Path) -> Result<Self, Error> {
        let file = File::open(path).map_err(|source| Error::Io {
            action: "opening session file",
            path: path.to_owned(),
            source,
        })?;
        Self::from_file(path, file)
    }

    fn from_file(path: &Path, file: File) -> Result<Self, Error> {
        let len = file
            .metadata()
            .map_err(|source| Error::Io {
                action: "inspecting session file",
                path: path.to_owned(),
                source,
            })?
            .len();
        let mut scan = Scan {
            path: path.to_owned(),
            input: BufReader::with_capacity(64 * 1024, file),
            pos: 0,
            len,
            committed_end: 0,
            last_sequence: 0,
            last_id: 0,
            last_id_scan: 0,
            torn: None,
            done: false,
        };
        scan.read_header()?;
        scan.committed_end = scan.pos;
        Ok(Self { scan })
    }

    /// The next complete committed change, in append order; `None` after the last one.
    ///
    /// # Errors
    /// [`Error::Corrupt`] for damage that is not a torn tail; [`Error::Io`].
    pub fn next_commit(&mut self) -> Result<Option<Vec<Entry>>, Error> {
        self.scan.next_commit()
    }

    /// The unpublished tail found after the last complete change (known once
    /// [`CommitReader::next_commit`] returned `None`).
    pub fn torn_tail(&self) -> Option<&TornTail> {
        self.scan.torn.as_ref()
    }
}

struct Scan {
    path: PathBuf,
    input: BufReader<File>,
    pos: u64,
    len: u64,
    committed_end: u64,
    last_sequence: u64,
    /// Id of the last entry of the last complete change.
    last_id: u64,
    /// Id of the last entry read, complete change or not.
    last_id_scan: u64,
    torn: Option<TornTail>,
    done: bool,
}

enum Next {
    Frame { kind: u16, payload: Vec<u8> },
    Eof,
    Incomplete,
}

impl Scan {
    fn corrupt(&self, offset: u64, reason: impl Into<String>) -> Error {
        Error::Corrupt {
            path: self.path.clone(),
            offset,
            reason: reason.into(),
        }
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.input.read_exact(buf).map_err(|source| Error::Io {
            action: "reading session file",
            path: self.path.clone(),
            source,
        })?;
        self.pos += buf.len() as u64;
        Ok(())
    }

    fn next_frame(&mut self) -> Result<Next, Error> {
        let remaining = self.len - self.pos;
        if remaining == 0 {
            return Ok(Next::Eof);
        }
        if remaining < (format::FRAME_HEAD_LEN + format::FRAME_TAIL_LEN) as u64 {
            return Ok(Next::Incomplete);
        }
        let start = self.pos;
        let mut head = [0u8; format::FRAME_HEAD_LEN];
        self.read_exact(&mut head)?;
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let kind = u16::from_le_bytes([head[4], head[5]]);
        let flags = u16::from_le_bytes([head[6], head[7]]);
        if len > format::MAX_PAYLOAD {
            return Err(self.corrupt(
                start,
                format!(
                    "frame length {len} exceeds the format's bound of {} bytes",
                    format::MAX_PAYLOAD
                ),
            ));
        }
        if (len as u64 + format::FRAME_TAIL_LEN as u64) > self.len - self.pos {
            return Ok(Next::Incomplete);
        }
        let mut payload = vec![0u8; len as usize];
        self.read_exact(&mut payload)?;
        let mut tail = [0u8; format::FRAME_TAIL_LEN];
        self.read_exact(&mut tail)?;
        let mut crc = crc32c::crc32c(&head);
        crc = crc32c::crc32c_append(crc, &payload);
        if crc != u32::from_le_bytes(tail) {
            return Err(self.corrupt(start, "frame checksum mismatch"));
        }
        if flags != 0 {
            return Err(self.corrupt(start, format!("frame flags are {flags:#06x}, not 0")));
        }
        Ok(Next::Frame { kind, payload })
    }

    fn read_header(&mut self) -> Result<(), Error> {
        let mut header = [0u8; format::HEADER_LEN];
        if self.len < format::HEADER_LEN as u64 {
            return Err(Error::NotASession {
                path: self.path.clone(),
                reason: "it is shorter than the 16-byte file header",
            });
        }
        self.read_exact(&mut header)?;
        match format::check_header(&header) {
            HeaderCheck::NotASession => {
                return Err(Error::NotASession {
                    path: self.path.clone(),
                    reason: "its first bytes are not the `SMITHSES` magic",
                });
            }
            HeaderCheck::Corrupt => return Err(self.corrupt(0, "file header checksum mismatch")),
            HeaderCheck::Version(format::VERSION) if header[10..12] != [0, 0] => {
                return Err(self.corrupt(10, "file header flags are not 0"));
            }
            HeaderCheck::Version(format::VERSION) => {}
            HeaderCheck::Version(found) => {
                return Err(Error::UnsupportedVersion {
                    path: self.path.clone(),
                    found,
                    supported: format::VERSION,
                });
            }
        }

        Ok(())
    }

    /// The next complete committed change, `None` at the end of the committed history (a
    /// torn tail, if any, is then in `self.torn`).
    fn next_commit(&mut self) -> Result<Option<Vec<Entry>>, Error> {
        if self.done {
            return Ok(None);
        }
        let mut pending: Vec<Entry> = Vec::new();
        self.last_id_scan = self.last_id;
        loop {
            let frame_start = self.pos;
            match self.next_frame()? {
                Next::Eof => {
                    self.done = true;
                    self.torn = (!pending.is_empty()).then(|| TornTail {
                        offset: self.committed_end,
                        len: self.len - self.committed_end,
                        reason: "entry frames without their commit frame",
                    });
                    return Ok(None);
                }
                Next::Incomplete => {
                    self.done = true;
                    self.torn = Some(TornTail {
                        offset: self.committed_end,
                        len: self.len - self.committed_end,
                        reason: "the file ends inside a frame",
                    });
                    return Ok(None);
                }
                Next::Frame { kind, payload } => match kind {
                    format::KIND_ENTRY => {
                        let Some((meta, body)) = EntryMeta::decode(&payload) else {
                            return Err(self.corrupt(frame_start, "entry frame too short"));
                        };
                        if meta.id != self.last_id_scan + 1 {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "entry id {} where {} was expected",
                                    meta.id,
                                    self.last_id_scan + 1
                                ),
                            ));
                        }
                        // Version 0 has no branches: each entry's parent is the one before it.
                        if meta.parent != meta.id - 1 {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "entry {} names parent {}, but in format version 0 its parent is entry {}",
                                    meta.id,
                                    meta.parent,
                                    meta.id - 1
                                ),
                            ));
                        }
                        if payload[26..28] != [0, 0] {
                            return Err(self.corrupt(
                                frame_start,
                                format!("entry {} has a non-zero reserved field", meta.id),
                            ));
                        }
                        if pending.len() as u32 >= format::MAX_ENTRIES_PER_COMMIT {
                            return Err(self.corrupt(
                                frame_start,
                                "more entries in one change than the format allows",
                            ));
                        }
                        let record = Record::decode(meta.record_kind, body).map_err(|reason| {
                            self.corrupt(
                                frame_start,
                                format!("entry {} has a malformed body: {reason}", meta.id),
                            )
                        })?;
                        self.last_id_scan = meta.id;
                        pending.push(Entry {
                            id: EntryId(meta.id),
                            parent: (meta.parent != 0).then_some(EntryId(meta.parent)),
                            timestamp_ms: meta.timestamp_ms,
                            record,
                        });
                    }
                    format::KIND_COMMIT => {
                        let Some((sequence, count)) = format::decode_commit(&payload) else {
                            return Err(self.corrupt(frame_start, "commit frame of wrong length"));
                        };
                        if sequence != self.last_sequence + 1 {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "commit sequence number {sequence} follows commit {}; expected {}",
                                    self.last_sequence,
                                    self.last_sequence + 1
                                ),
                            ));
                        }
                        if count as usize != pending.len() {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "commit {sequence} says it closes {count} entries, but {} entry frames precede it",
                                    pending.len()
                                ),
                            ));
                        }
                        self.last_sequence = sequence;
                        self.committed_end = self.pos;
                        self.last_id = self.last_id_scan;
                        return Ok(Some(pending));
                    }
                    // Version 0 ignores frame kinds it does not know (checksum-valid); the
                    // session-store issue defines their byte-for-byte preservation.
                    _ => {}
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{KIND_COMMIT, KIND_ENTRY, commit_payload, header_bytes, push_frame};
    use crate::{ModelChange, Record};

    fn body() -> Vec<u8> {
        Record::ModelChange(ModelChange {
            model: "scripted/demo".parse().unwrap(),
        })
        .encode_body()
        .unwrap()
    }

    /// A file of one change with the given entries' (id, parent) and entry body.
    fn file_with(entries: &[(u64, u64)], body: &[u8]) -> Vec<u8> {
        let mut bytes = header_bytes().to_vec();
        for &(id, parent) in entries {
            let meta = EntryMeta {
                id,
                parent,
                timestamp_ms: 0,
                record_kind: 2,
            };
            push_frame(&mut bytes, KIND_ENTRY, &meta.encode(body));
        }
        push_frame(
            &mut bytes,
            KIND_COMMIT,
            &commit_payload(1, entries.len() as u32),
        );
        bytes
    }

    fn read(bytes: &[u8]) -> Result<ReadOutcome, Error> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.smith");
        std::fs::write(&path, bytes).unwrap();
        read_session(&path)
    }

    fn damage(bytes: &[u8]) -> String {
        match read(bytes) {
            Err(Error::Corrupt { reason, .. }) => reason,
            other => panic!("expected damage, got {other:?}"),
        }
    }

    #[test]
    fn a_well_formed_change_reads() {
        let out = read(&file_with(&[(1, 0), (2, 1)], &body())).unwrap();
        assert_eq!(out.entries.len(), 2);
    }

    #[test]
    fn wrong_parents_and_ids_are_damage() {
        assert!(damage(&file_with(&[(1, 0), (2, 0)], &body())).contains("parent 0"));
        assert!(damage(&file_with(&[(1, 0), (3, 2)], &body())).contains("entry id 3"));
        assert!(damage(&file_with(&[(1, 1)], &body())).contains("parent 1"));
    }

    #[test]
    fn bytes_after_the_cbor_body_are_damage() {
        let mut b = body();
        b.push(0);
        assert!(damage(&file_with(&[(1, 0)], &b)).contains("follow its CBOR body"));
    }

    #[test]
    fn cbor_errors_are_described_without_debug_text() {
        let reason = damage(&file_with(&[(1, 0)], &[0xa1]));
        assert!(reason.contains("ends early"), "{reason}");
        let reason = damage(&file_with(&[(1, 0)], &[0x01]));
        assert!(reason.contains("shape"), "{reason}");
        assert!(!reason.contains("Semantic("), "{reason}");
    }

    #[test]
    fn non_zero_flags_are_damage() {
        let mut bytes = file_with(&[(1, 0)], &body());
        // Header flags (checksum recomputed so only the flags are wrong).
        bytes[10] = 1;
        let crc = crc32c::crc32c(&bytes[..12]);
        bytes[12..16].copy_from_slice(&crc.to_le_bytes());
        assert!(damage(&bytes).contains("header flags"));

        let mut bytes = header_bytes().to_vec();
        let meta = EntryMeta {
            id: 1,
            parent: 0,
            timestamp_ms: 0,
            record_kind: 2,
        };
        let payload = meta.encode(&body());
        let start = bytes.len();
        push_frame(&mut bytes, KIND_ENTRY, &payload);
        bytes[start + 6] = 1; // frame flags
        let end = bytes.len() - 4;
        let crc = crc32c::crc32c(&bytes[start..end]);
        bytes[end..].copy_from_slice(&crc.to_le_bytes());
        assert!(damage(&bytes).contains("frame flags"));
    }

    #[test]
    fn short_files_and_foreign_files_say_why() {
        let Err(Error::NotASession { reason, .. }) = read(b"SMITHSES") else {
            panic!("accepted a short file")
        };
        assert!(reason.contains("shorter"));
    }
}
