//! Session file format, version 1: constants, the file header and the frame codec.
//!
//! All integers are little-endian. The normative description is
//! `docs-corpus/docs/session-format.md`; this module and [`crate::meta`] implement it.
//!
//! ```text
//! file    = header frame*
//! header  = magic "SMITHSES" (8) | version u16 (1) | flags u16 (0) | salt (8 random bytes)
//!           | reserved (8 zero bytes) | crc32c u32 of bytes 0..28            (32 bytes)
//! frame   = length u32 | kind u16 | flags u16 | head crc32c u32 of bytes 0..8
//!           | payload (length bytes) | crc32c u32 of head (12 bytes) + payload
//! kinds   = 1 entry | 2 commit | 3 index | anything else: unknown, preserved byte for byte
//! ```
//!
//! A committed change is a run of frames closed by a commit frame. Readers publish a change only
//! when its commit frame is complete and valid.

/// The 8 magic bytes every session file starts with.
pub const MAGIC: [u8; 8] = *b"SMITHSES";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// Length of the file header in bytes.
pub const HEADER_LEN: usize = 32;
/// Length of a frame's head (length, kind, flags, head checksum) in bytes.
pub const FRAME_HEAD_LEN: usize = 12;
/// Length of a frame's trailing checksum in bytes.
pub const FRAME_TAIL_LEN: usize = 4;
/// Bytes a frame adds around its payload.
pub const FRAME_OVERHEAD: usize = FRAME_HEAD_LEN + FRAME_TAIL_LEN;
/// Largest frame payload accepted, in bytes (16 MiB). Checked before any allocation.
pub const MAX_PAYLOAD: u32 = 16 * 1024 * 1024;
/// Largest number of entries in one committed change.
pub const MAX_ENTRIES_PER_COMMIT: u32 = 4096;
/// Largest total size of the frames of one committed change, in bytes (64 MiB).
pub const MAX_CHANGE_BYTES: u64 = 64 * 1024 * 1024;
/// Frame kind of an entry.
pub const KIND_ENTRY: u16 = 1;
/// Frame kind of a commit marker.
pub const KIND_COMMIT: u16 = 2;
/// Frame kind of an index (checkpoint) frame.
pub const KIND_INDEX: u16 = 3;
/// Extension of session files.
pub const FILE_EXTENSION: &str = "smith";

/// The per-file random salt written in the header and repeated in every commit frame, so a
/// commit frame copied from another file is never mistaken for one of this file.
pub type Salt = [u8; 8];

/// Where the header holds the format version (`u16` LE).
pub const HEADER_VERSION: std::ops::Range<usize> = 8..10;
/// Where the header holds its salt.
pub const HEADER_SALT: std::ops::Range<usize> = 12..20;
/// Where the header holds its checksum: CRC-32C of the bytes before it.
pub const HEADER_CRC: std::ops::Range<usize> = 28..32;

/// The 32-byte file header for [`VERSION`] with `salt`.
pub fn header_bytes(salt: Salt) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[HEADER_VERSION].copy_from_slice(&VERSION.to_le_bytes());
    h[HEADER_SALT].copy_from_slice(&salt);
    seal_header(&mut h);
    h
}

/// Write header `h`'s checksum ([`HEADER_CRC`]) over the bytes before it.
pub fn seal_header(h: &mut [u8; HEADER_LEN]) {
    let crc = crc32c::crc32c(&h[..HEADER_CRC.start]);
    h[HEADER_CRC].copy_from_slice(&crc.to_le_bytes());
}

/// A fresh random salt from the operating system.
///
/// # Errors
/// The OS random source failed (rare; reported as an I/O error by the caller).
pub fn new_salt() -> Result<Salt, std::io::Error> {
    let mut salt = [0u8; 8];
    getrandom::fill(&mut salt).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(salt)
}

/// What the first 16 bytes of a file say.
#[derive(Debug, PartialEq, Eq)]
pub enum HeaderStart {
    /// Not a session file.
    NotASession,
    /// A session file of `version` (which may be unknown to this build).
    Version(u16),
}

/// Inspect the first 16 bytes of a file: the magic and the version, which every version keeps
/// in the same place.
pub fn header_start(h: &[u8]) -> HeaderStart {
    if h.len() < 10 || h[..8] != MAGIC {
        return HeaderStart::NotASession;
    }
    HeaderStart::Version(u16::from_le_bytes([h[8], h[9]]))
}

/// Validate a whole version-1 header and return its salt, or what is wrong with it.
pub fn check_header(h: &[u8; HEADER_LEN]) -> Result<Salt, &'static str> {
    let stored = u32::from_le_bytes([h[28], h[29], h[30], h[31]]);
    if crc32c::crc32c(&h[..28]) != stored {
        return Err("file header checksum mismatch");
    }
    if h[10..12] != [0, 0] || h[20..28] != [0; 8] {
        return Err("file header flags or reserved bytes are not 0");
    }
    let mut salt = [0u8; 8];
    salt.copy_from_slice(&h[12..20]);
    Ok(salt)
}

/// Append one frame (head, payload, checksum) to `out`.
///
/// The caller guarantees `payload.len() <= MAX_PAYLOAD`.
pub fn push_frame(out: &mut Vec<u8>, kind: u16, flags: u16, payload: &[u8]) {
    let start = out.len();
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&frame_head(len, kind, flags));
    out.extend_from_slice(payload);
    let crc = crc32c::crc32c(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The 12-byte head of a frame.
pub fn frame_head(len: u32, kind: u16, flags: u16) -> [u8; FRAME_HEAD_LEN] {
    let mut h = [0u8; FRAME_HEAD_LEN];
    h[..4].copy_from_slice(&len.to_le_bytes());
    h[4..6].copy_from_slice(&kind.to_le_bytes());
    h[6..8].copy_from_slice(&flags.to_le_bytes());
    let crc = crc32c::crc32c(&h[..8]);
    h[8..12].copy_from_slice(&crc.to_le_bytes());
    h
}

/// A decoded frame head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameHead {
    /// Payload length in bytes.
    pub len: u32,
    /// Frame kind.
    pub kind: u16,
    /// Frame flags.
    pub flags: u16,
}

impl FrameHead {
    /// Decode and check a frame head. `Err` says why it cannot be trusted: a head checksum
    /// mismatch, or a length above [`MAX_PAYLOAD`].
    pub fn decode(h: &[u8; FRAME_HEAD_LEN]) -> Result<Self, crate::DecodeError> {
        Self::decode_shape(h).map_err(crate::DecodeError)
    }

    fn decode_shape(h: &[u8; FRAME_HEAD_LEN]) -> Result<Self, String> {
        let stored = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
        if crc32c::crc32c(&h[..8]) != stored {
            return Err("frame head checksum mismatch".to_owned());
        }
        let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]);
        if len > MAX_PAYLOAD {
            return Err(format!(
                "frame length {len} exceeds the format's bound of {MAX_PAYLOAD} bytes"
            ));
        }
        Ok(Self {
            len,
            kind: u16::from_le_bytes([h[4], h[5]]),
            flags: u16::from_le_bytes([h[6], h[7]]),
        })
    }

    /// The frame's total size in bytes, head and checksum included.
    pub fn frame_len(&self) -> u64 {
        u64::from(self.len) + FRAME_OVERHEAD as u64
    }
}

/// Whether `tail` is the correct checksum of a frame with `head` and `payload`.
pub fn frame_checksum_ok(head: &[u8; FRAME_HEAD_LEN], payload: &[u8], tail: [u8; 4]) -> bool {
    let crc = crc32c::crc32c_append(crc32c::crc32c(head), payload);
    crc == u32::from_le_bytes(tail)
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_detects_damage() {
        let mut h = header_bytes([7; 8]);
        assert_eq!(header_start(&h), HeaderStart::Version(VERSION));
        assert_eq!(check_header(&h), Ok([7; 8]));
        h[14] ^= 1;
        assert!(check_header(&h).is_err());
        assert_eq!(header_start(b"hello"), HeaderStart::NotASession);
    }

    #[test]
    fn frame_heads_detect_flipped_lengths() {
        let mut out = Vec::new();
        push_frame(&mut out, KIND_ENTRY, 0, b"abc");
        let mut head = [0u8; FRAME_HEAD_LEN];
        head.copy_from_slice(&out[..FRAME_HEAD_LEN]);
        let h = FrameHead::decode(&head).unwrap();
        assert_eq!((h.len, h.kind, h.flags), (3, KIND_ENTRY, 0));
        assert!(frame_checksum_ok(
            &head,
            b"abc",
            out[15..19].try_into().unwrap()
        ));
        head[1] ^= 0x40;
        assert!(
            FrameHead::decode(&head)
                .unwrap_err()
                .0
                .contains("head checksum")
        );
    }
}
