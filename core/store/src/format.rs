//! Session file format, version 0: constants and the frame codec.
//!
//! All integers are little-endian. The normative description is
//! `docs-corpus/docs/session-format.md`; this module implements it.
//!
//! ```text
//! file    = header frame*
//! header  = magic "SMITHSES" (8 bytes) | version u16 | flags u16 (0) | crc32c u32 of bytes 0..12
//! frame   = length u32 | kind u16 | flags u16 | payload (length bytes) | crc32c u32
//!           (the checksum covers the 8 header bytes and the payload)
//! entry   = kind 1; payload = id u64 | parent u64 (0: none) | timestamp_ms i64
//!           | record_kind u16 | reserved u16 (0) | CBOR body
//! commit  = kind 2; payload = sequence u64 | entry_count u32
//! ```
//!
//! A committed change is a run of `entry_count` entry frames followed by the commit frame that
//! closes it. Readers publish a change only when its commit frame is complete and valid.

/// The 8 magic bytes every session file starts with.
pub const MAGIC: [u8; 8] = *b"SMITHSES";
/// The format version this build reads and writes.
pub const VERSION: u16 = 0;
/// Length of the file header in bytes.
pub const HEADER_LEN: usize = 16;
/// Length of a frame's head (length, kind, flags) in bytes.
pub const FRAME_HEAD_LEN: usize = 8;
/// Length of a frame's trailing checksum in bytes.
pub const FRAME_TAIL_LEN: usize = 4;
/// Largest frame payload accepted, in bytes (16 MiB). Checked before any allocation.
pub const MAX_PAYLOAD: u32 = 16 * 1024 * 1024;
/// Largest number of entries in one committed change.
pub const MAX_ENTRIES_PER_COMMIT: u32 = 4096;
/// Frame kind of an entry.
pub const KIND_ENTRY: u16 = 1;
/// Frame kind of a commit marker.
pub const KIND_COMMIT: u16 = 2;
/// Length of an entry payload's fixed metadata before the CBOR body.
pub const ENTRY_META_LEN: usize = 28;
/// Length of a commit payload.
pub const COMMIT_LEN: usize = 12;
/// Extension of session files.
pub const FILE_EXTENSION: &str = "smith";

/// The 16-byte file header for [`VERSION`].
pub fn header_bytes() -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&0u16.to_le_bytes());
    let crc = crc32c::crc32c(&h[..12]);
    h[12..16].copy_from_slice(&crc.to_le_bytes());
    h
}

/// What a file header says.
#[derive(Debug, PartialEq, Eq)]
pub enum HeaderCheck {
    /// Not a session file.
    NotASession,
    /// A session file of `version` (which may be unknown to this build).
    Version(u16),
    /// The magic matches but the header checksum does not.
    Corrupt,
}

/// Inspect the first [`HEADER_LEN`] bytes of a file.
pub fn check_header(h: &[u8]) -> HeaderCheck {
    if h.len() < HEADER_LEN || h[..8] != MAGIC {
        return HeaderCheck::NotASession;
    }
    let stored = u32::from_le_bytes([h[12], h[13], h[14], h[15]]);
    if crc32c::crc32c(&h[..12]) != stored {
        return HeaderCheck::Corrupt;
    }
    HeaderCheck::Version(u16::from_le_bytes([h[8], h[9]]))
}

/// Append one frame (head, payload, checksum) to `out`.
///
/// The caller guarantees `payload.len() <= MAX_PAYLOAD`.
pub fn push_frame(out: &mut Vec<u8>, kind: u16, payload: &[u8]) {
    let start = out.len();
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32c::crc32c(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The fixed metadata of an entry frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryMeta {
    /// Entry id (≥ 1).
    pub id: u64,
    /// Parent entry id, 0 for none.
    pub parent: u64,
    /// Milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
    /// The record kind of the CBOR body.
    pub record_kind: u16,
}

impl EntryMeta {
    /// Encode the metadata followed by `body` into an entry payload.
    pub fn encode(&self, body: &[u8]) -> Vec<u8> {
        let mut p = Vec::with_capacity(ENTRY_META_LEN + body.len());
        p.extend_from_slice(&self.id.to_le_bytes());
        p.extend_from_slice(&self.parent.to_le_bytes());
        p.extend_from_slice(&self.timestamp_ms.to_le_bytes());
        p.extend_from_slice(&self.record_kind.to_le_bytes());
        p.extend_from_slice(&0u16.to_le_bytes());
        p.extend_from_slice(body);
        p
    }

    /// Split an entry payload into metadata and body; `None` if it is too short.
    pub fn decode(payload: &[u8]) -> Option<(Self, &[u8])> {
        if payload.len() < ENTRY_META_LEN {
            return None;
        }
        let u64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&payload[at..at + 8]);
            b
        };
        let meta = Self {
            id: u64::from_le_bytes(u64_at(0)),
            parent: u64::from_le_bytes(u64_at(8)),
            timestamp_ms: i64::from_le_bytes(u64_at(16)),
            record_kind: u16::from_le_bytes([payload[24], payload[25]]),
        };
        Some((meta, &payload[ENTRY_META_LEN..]))
    }
}

/// Encode a commit payload.
pub fn commit_payload(sequence: u64, entry_count: u32) -> [u8; COMMIT_LEN] {
    let mut p = [0u8; COMMIT_LEN];
    p[..8].copy_from_slice(&sequence.to_le_bytes());
    p[8..].copy_from_slice(&entry_count.to_le_bytes());
    p
}

/// Decode a commit payload into `(sequence, entry_count)`.
pub fn decode_commit(payload: &[u8]) -> Option<(u64, u32)> {
    if payload.len() != COMMIT_LEN {
        return None;
    }
    let mut s = [0u8; 8];
    s.copy_from_slice(&payload[..8]);
    let mut c = [0u8; 4];
    c.copy_from_slice(&payload[8..]);
    Some((u64::from_le_bytes(s), u32::from_le_bytes(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_detects_damage() {
        let mut h = header_bytes();
        assert_eq!(check_header(&h), HeaderCheck::Version(VERSION));
        h[9] ^= 1;
        assert_eq!(check_header(&h), HeaderCheck::Corrupt);
        assert_eq!(check_header(b"hello"), HeaderCheck::NotASession);
    }

    #[test]
    fn entry_meta_round_trips() {
        let m = EntryMeta {
            id: 7,
            parent: 6,
            timestamp_ms: -5,
            record_kind: 3,
        };
        let p = m.encode(b"body");
        let (back, body) = EntryMeta::decode(&p).unwrap();
        assert_eq!(back, m);
        assert_eq!(body, b"body");
    }
}
