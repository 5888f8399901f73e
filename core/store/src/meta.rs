//! The fixed-layout payloads of known frames: entry metadata, commit markers and index frames.
//!
//! Every field has a fixed width and offset, little-endian, independent of Rust memory layout;
//! `docs-corpus/docs/session-format.md` is the normative description.

use crate::DecodeError;
use crate::format::{Salt, u16_at, u32_at, u64_at};

/// Length of an entry payload's fixed metadata before the stored body.
pub const ENTRY_META_LEN: usize = 40;
/// Entry flag: the stored body is a zstd frame of the CBOR body.
pub const ENTRY_COMPRESSED: u16 = 1;
/// Entry flag: the record changes what later provider requests see (a context edit): a reader
/// that does not know its kind must refuse to reconstruct a request past it rather than
/// ignore it (spec: Sessions → Context edits, last paragraph).
pub const ENTRY_PROJECTION: u16 = 2;
/// Length of a commit payload.
pub const COMMIT_LEN: usize = 72;
/// Length of an index payload before its offset table.
pub const INDEX_FIXED_LEN: usize = 24;
/// Largest number of entries one index frame may cover.
pub const MAX_INDEX_SPAN: u32 = 65_536;
/// Largest number of back pointers one index frame may hold.
pub const MAX_INDEX_BACK: u32 = 64;

/// The fixed metadata of an entry frame: readable without decoding the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryMeta {
    /// Entry id (≥ 1, dense and increasing in file order).
    pub id: u64,
    /// Parent entry id, 0 for a root. Always smaller than `id`.
    pub parent: u64,
    /// Milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
    /// The record kind of the body.
    pub record_kind: u16,
    /// Entry flags ([`ENTRY_COMPRESSED`], [`ENTRY_PROJECTION`]; other bits 0).
    pub flags: u16,
    /// Length of the decoded (uncompressed) CBOR body in bytes.
    pub body_len: u32,
    /// The entry this one pairs with (a tool result's call message, an effect completion's
    /// intent), 0 for none.
    pub pair: u64,
}

impl EntryMeta {
    /// Encode the metadata followed by the stored `body` into an entry payload.
    pub fn encode(&self, body: &[u8]) -> Vec<u8> {
        let mut p = Vec::with_capacity(ENTRY_META_LEN + body.len());
        p.extend_from_slice(&self.id.to_le_bytes());
        p.extend_from_slice(&self.parent.to_le_bytes());
        p.extend_from_slice(&self.timestamp_ms.to_le_bytes());
        p.extend_from_slice(&self.record_kind.to_le_bytes());
        p.extend_from_slice(&self.flags.to_le_bytes());
        p.extend_from_slice(&self.body_len.to_le_bytes());
        p.extend_from_slice(&self.pair.to_le_bytes());
        p.extend_from_slice(body);
        p
    }

    /// Write the metadata into the first [`ENTRY_META_LEN`] bytes of `head` (which must be
    /// that long).
    pub fn write_into(&self, head: &mut [u8]) {
        head[0..8].copy_from_slice(&self.id.to_le_bytes());
        head[8..16].copy_from_slice(&self.parent.to_le_bytes());
        head[16..24].copy_from_slice(&self.timestamp_ms.to_le_bytes());
        head[24..26].copy_from_slice(&self.record_kind.to_le_bytes());
        head[26..28].copy_from_slice(&self.flags.to_le_bytes());
        head[28..32].copy_from_slice(&self.body_len.to_le_bytes());
        head[32..40].copy_from_slice(&self.pair.to_le_bytes());
    }

    /// Split an entry payload into metadata and stored body; `None` if it is too short.
    pub fn decode(payload: &[u8]) -> Option<(Self, &[u8])> {
        if payload.len() < ENTRY_META_LEN {
            return None;
        }
        let meta = Self {
            id: u64_at(payload, 0),
            parent: u64_at(payload, 8),
            timestamp_ms: i64::from_le_bytes(payload[16..24].try_into().ok()?),
            record_kind: u16_at(payload, 24),
            flags: u16_at(payload, 26),
            body_len: u32_at(payload, 28),
            pair: u64_at(payload, 32),
        };
        Some((meta, &payload[ENTRY_META_LEN..]))
    }
}

/// A commit marker: closes a committed change and carries the session state after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitMeta {
    /// Commit sequence number: 1 for the first, then +1.
    pub sequence: u64,
    /// Number of entry frames in the change.
    pub entry_count: u32,
    /// The selected leaf after the change, 0 in a session with no entries.
    pub leaf: u64,
    /// The largest entry id in the file after the change, 0 for none.
    pub last_id: u64,
    /// The last commit sequence the writer knew to be durably acknowledged (`fsync` returned)
    /// when it wrote this one. Changes after it are complete but not known to be durable.
    pub durable_through: u64,
    /// File offset of the newest index frame at or before this commit, 0 for none.
    pub index_offset: u64,
    /// File offset of the first frame of this change (its own offset when it has no others).
    pub change_start: u64,
    /// File offset of this commit frame.
    pub self_offset: u64,
    /// The file's salt (as in the header).
    pub salt: Salt,
}

impl CommitMeta {
    /// Encode as a commit payload.
    pub fn encode(&self) -> [u8; COMMIT_LEN] {
        let mut p = [0u8; COMMIT_LEN];
        p[0..8].copy_from_slice(&self.sequence.to_le_bytes());
        p[8..12].copy_from_slice(&self.entry_count.to_le_bytes());
        p[16..24].copy_from_slice(&self.leaf.to_le_bytes());
        p[24..32].copy_from_slice(&self.last_id.to_le_bytes());
        p[32..40].copy_from_slice(&self.durable_through.to_le_bytes());
        p[40..48].copy_from_slice(&self.index_offset.to_le_bytes());
        p[48..56].copy_from_slice(&self.change_start.to_le_bytes());
        p[56..64].copy_from_slice(&self.self_offset.to_le_bytes());
        p[64..72].copy_from_slice(&self.salt);
        p
    }

    /// Decode a commit payload.
    ///
    /// # Errors
    /// [`DecodeError`] saying what is wrong with its shape.
    pub fn decode(p: &[u8]) -> Result<Self, DecodeError> {
        Self::decode_shape(p).map_err(DecodeError)
    }

    fn decode_shape(p: &[u8]) -> Result<Self, String> {
        if p.len() != COMMIT_LEN {
            return Err(format!(
                "commit frame payload is {} bytes, not {COMMIT_LEN}",
                p.len()
            ));
        }
        if p[12..16] != [0; 4] {
            return Err("commit frame reserved bytes are not 0".to_owned());
        }
        let mut salt = [0u8; 8];
        salt.copy_from_slice(&p[64..72]);
        Ok(Self {
            sequence: u64_at(p, 0),
            entry_count: u32_at(p, 8),
            leaf: u64_at(p, 16),
            last_id: u64_at(p, 24),
            durable_through: u64_at(p, 32),
            index_offset: u64_at(p, 40),
            change_start: u64_at(p, 48),
            self_offset: u64_at(p, 56),
            salt,
        })
    }
}

/// An index frame: where the entries `first_id..first_id + offsets.len()` start, and where
/// earlier index frames are, so any entry is found in O(log n) frame reads. Derived data:
/// reconstructible from the entries, never authoritative over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexFrame {
    /// 0 for the file's first index frame, then +1.
    pub ordinal: u64,
    /// The first entry id covered.
    pub first_id: u64,
    /// File offset of each covered entry's frame, in id order.
    pub offsets: Vec<u64>,
    /// `back[i]` is `(first_id, file offset)` of the index frame with ordinal
    /// `ordinal - 2^i`, for every `2^i <= ordinal`.
    pub back: Vec<(u64, u64)>,
}

impl IndexFrame {
    /// Encode as an index payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut p =
            Vec::with_capacity(INDEX_FIXED_LEN + self.offsets.len() * 8 + self.back.len() * 16);
        p.extend_from_slice(&self.ordinal.to_le_bytes());
        p.extend_from_slice(&self.first_id.to_le_bytes());
        p.extend_from_slice(&(self.offsets.len() as u32).to_le_bytes());
        p.extend_from_slice(&(self.back.len() as u32).to_le_bytes());
        for o in &self.offsets {
            p.extend_from_slice(&o.to_le_bytes());
        }
        for (id, o) in &self.back {
            p.extend_from_slice(&id.to_le_bytes());
            p.extend_from_slice(&o.to_le_bytes());
        }
        p
    }

    /// Decode an index payload.
    ///
    /// # Errors
    /// [`DecodeError`] saying what is wrong with its shape.
    pub fn decode(p: &[u8]) -> Result<Self, DecodeError> {
        Self::decode_shape(p).map_err(DecodeError)
    }

    fn decode_shape(p: &[u8]) -> Result<Self, String> {
        if p.len() < INDEX_FIXED_LEN {
            return Err("index frame too short".to_owned());
        }
        let count = u32_at(p, 16);
        let nback = u32_at(p, 20);
        if count == 0 || count > MAX_INDEX_SPAN || nback > MAX_INDEX_BACK {
            return Err(format!(
                "index frame covers {count} entries with {nback} back pointers (bounds 1..={MAX_INDEX_SPAN}, {MAX_INDEX_BACK})"
            ));
        }
        let want = INDEX_FIXED_LEN + count as usize * 8 + nback as usize * 16;
        if p.len() != want {
            return Err(format!(
                "index frame payload is {} bytes where its counts need {want}",
                p.len()
            ));
        }
        let ordinal = u64_at(p, 0);
        let expected_back = if ordinal == 0 {
            0
        } else {
            64 - ordinal.leading_zeros()
        };
        if nback != expected_back {
            return Err(format!(
                "index frame {ordinal} has {nback} back pointers, not {expected_back}"
            ));
        }
        let offsets = (0..count as usize)
            .map(|i| u64_at(p, INDEX_FIXED_LEN + i * 8))
            .collect();
        let base = INDEX_FIXED_LEN + count as usize * 8;
        let back = (0..nback as usize)
            .map(|i| (u64_at(p, base + i * 16), u64_at(p, base + i * 16 + 8)))
            .collect();
        Ok(Self {
            ordinal,
            first_id: u64_at(p, 8),
            offsets,
            back,
        })
    }

    /// One past the last entry id covered.
    pub fn end_id(&self) -> u64 {
        self.first_id + self.offsets.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip() {
        let m = EntryMeta {
            id: 7,
            parent: 3,
            timestamp_ms: -5,
            record_kind: 3,
            flags: ENTRY_COMPRESSED,
            body_len: 99,
            pair: 2,
        };
        let p = m.encode(b"body");
        assert_eq!(EntryMeta::decode(&p), Some((m, &b"body"[..])));

        let c = CommitMeta {
            sequence: 4,
            entry_count: 2,
            leaf: 9,
            last_id: 10,
            durable_through: 3,
            index_offset: 1000,
            change_start: 2000,
            self_offset: 2100,
            salt: [1, 2, 3, 4, 5, 6, 7, 8],
        };
        assert_eq!(CommitMeta::decode(&c.encode()), Ok(c));

        let i = IndexFrame {
            ordinal: 5,
            first_id: 1281,
            offsets: vec![10, 20, 30],
            back: vec![(1025, 1), (769, 2), (257, 3)],
        };
        assert_eq!(IndexFrame::decode(&i.encode()), Ok(i));
    }

    #[test]
    fn index_frames_with_wrong_back_counts_are_refused() {
        let i = IndexFrame {
            ordinal: 4,
            first_id: 1,
            offsets: vec![10],
            back: vec![(1, 1)],
        };
        assert!(IndexFrame::decode(&i.encode()).is_err());
    }
}
