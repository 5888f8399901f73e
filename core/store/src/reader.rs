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
    };
    scan.run()
}

struct Scan {
    path: PathBuf,
    input: BufReader<File>,
    pos: u64,
    len: u64,
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
        Ok(Next::Frame { kind, payload })
    }

    fn run(&mut self) -> Result<ReadOutcome, Error> {
        let mut header = [0u8; format::HEADER_LEN];
        if self.len < format::HEADER_LEN as u64 {
            return Err(Error::NotASession {
                path: self.path.clone(),
            });
        }
        self.read_exact(&mut header)?;
        match format::check_header(&header) {
            HeaderCheck::NotASession => {
                return Err(Error::NotASession {
                    path: self.path.clone(),
                });
            }
            HeaderCheck::Corrupt => return Err(self.corrupt(0, "file header checksum mismatch")),
            HeaderCheck::Version(format::VERSION) => {}
            HeaderCheck::Version(found) => {
                return Err(Error::UnsupportedVersion {
                    path: self.path.clone(),
                    found,
                    supported: format::VERSION,
                });
            }
        }

        let mut entries = Vec::new();
        let mut pending: Vec<Entry> = Vec::new();
        let mut committed_end = self.pos;
        let mut last_sequence = 0u64;
        let mut last_id = 0u64;
        loop {
            let frame_start = self.pos;
            match self.next_frame()? {
                Next::Eof => {
                    let torn_tail = (!pending.is_empty()).then(|| TornTail {
                        offset: committed_end,
                        len: self.len - committed_end,
                        reason: "entry frames without their commit frame",
                    });
                    return Ok(ReadOutcome {
                        entries,
                        torn_tail,
                        committed_end,
                        last_sequence,
                    });
                }
                Next::Incomplete => {
                    return Ok(ReadOutcome {
                        entries,
                        torn_tail: Some(TornTail {
                            offset: committed_end,
                            len: self.len - committed_end,
                            reason: "the file ends inside a frame",
                        }),
                        committed_end,
                        last_sequence,
                    });
                }
                Next::Frame { kind, payload } => match kind {
                    format::KIND_ENTRY => {
                        let Some((meta, body)) = EntryMeta::decode(&payload) else {
                            return Err(self.corrupt(frame_start, "entry frame too short"));
                        };
                        if meta.id != last_id + 1 {
                            return Err(self.corrupt(
                                frame_start,
                                format!("entry id {} where {} was expected", meta.id, last_id + 1),
                            ));
                        }
                        if meta.parent >= meta.id {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "entry {} names parent {}, which does not precede it",
                                    meta.id, meta.parent
                                ),
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
                        last_id = meta.id;
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
                        if sequence != last_sequence + 1 || count as usize != pending.len() {
                            return Err(self.corrupt(
                                frame_start,
                                format!(
                                    "commit {sequence} closes {count} entries, but {} were pending after commit {last_sequence}",
                                    pending.len()
                                ),
                            ));
                        }
                        last_sequence = sequence;
                        entries.append(&mut pending);
                        committed_end = self.pos;
                    }
                    // Version 0 ignores frame kinds it does not know (checksum-valid); the
                    // session-store issue defines their byte-for-byte preservation.
                    _ => {}
                },
            }
        }
    }
}
