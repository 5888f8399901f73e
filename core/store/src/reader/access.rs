//! Validation on access (spec: Checkpoints and integrity — "records are validated on
//! access"): the commit boundaries around a record a reader opened through the index reads,
//! checked as the full scan would judge them, with positioned reads of frame heads only.

use std::fs::File;

use super::{Locate, SessionReader};
use crate::format::{self, FrameHead};
use crate::meta::{COMMIT_LEN, CommitMeta, EntryMeta};

impl SessionReader {
    /// Check, when opened through the index, that the frame at `at` lies in a committed change
    /// whose boundaries the full scan recognizes too (spec: Checkpoints and integrity — records
    /// are validated on access; recovery, inspection and replay agree on commit boundaries): a
    /// valid commit frame closes it, its frame heads hop onto that commit with the entry ids
    /// it names, and the change before it ends with a valid commit frame (damage there hides
    /// the changes up to the next valid commit). The record's own frame is checked by its
    /// reader; other frames' payloads are not read, so a damaged neighbour in the same change is
    /// found by verification, not by this access. A change found whole is remembered.
    pub(super) fn check_committed(&mut self, at: u64) -> Result<(), String> {
        if matches!(self.locate, Locate::Full(_)) {
            // A full scan withheld every change it could not find whole.
            return Ok(());
        }
        if let Some((_, &start)) = self.committed.range(at..).next()
            && start <= at
        {
            return Ok(());
        }
        let mut pos = at;
        let c = loop {
            if pos >= self.state.committed_end {
                return Err(format!(
                    "no commit frame closes the change holding byte {at}"
                ));
            }
            let h = self.head_at(pos)?;
            if h.kind == format::KIND_COMMIT {
                let c = self.commit_at(pos)?;
                if c.change_start > at {
                    return Err(format!(
                        "the commit frame at byte {pos} does not close the change holding byte {at}"
                    ));
                }
                break c;
            }
            pos += h.frame_len();
        };
        self.change_whole(&c)?;
        let commit_frame = (COMMIT_LEN + format::FRAME_OVERHEAD) as u64;
        if c.change_start > format::HEADER_LEN as u64 {
            let before = c.change_start.saturating_sub(commit_frame);
            let previous = self.commit_at(before).map_err(|e| {
                format!("the change before the one holding byte {at} does not end with a valid commit ({e}), so the changes up to the next valid commit are withheld")
            })?;
            if previous.sequence + 1 != c.sequence
                || previous.last_id + u64::from(c.entry_count) != c.last_id
            {
                return Err(format!(
                    "the commit frames at bytes {before} and {} do not follow one another",
                    c.self_offset
                ));
            }
        }
        if self.committed.len() >= 1 << 16 {
            self.committed.clear();
        }
        self.committed.insert(c.self_offset, c.change_start);
        Ok(())
    }

    /// The head of the frame at `pos`, read alone (the payload is not read or checked).
    pub(super) fn head_at(&self, pos: u64) -> Result<FrameHead, String> {
        let mut head = [0u8; format::FRAME_HEAD_LEN];
        self.read_at(pos, &mut head)
            .map_err(|e| format!("cannot read a frame at byte {pos}: {e}"))?;
        FrameHead::decode(&head).map_err(|e| e.to_string())
    }

    /// The commit frame at `at`: checksums, kind, salt and its own offset checked.
    pub(super) fn commit_at(&self, at: u64) -> Result<CommitMeta, String> {
        let (h, payload) = self.frame_at(at)?;
        if h.kind != format::KIND_COMMIT || h.flags != 0 {
            return Err(format!("no commit frame at byte {at}"));
        }
        let c = CommitMeta::decode(&payload).map_err(|e| e.to_string())?;
        if c.salt != self.salt
            || c.self_offset != at
            || c.change_start > at
            || c.change_start < format::HEADER_LEN as u64
        {
            return Err(format!(
                "the commit frame at byte {at} records impossible offsets or another file's salt"
            ));
        }
        Ok(c)
    }

    /// Whether the change commit `c` closes is delimited as the commit says: the frame heads
    /// from its start hop exactly onto the commit, and its entry frames carry the ids the
    /// commit names, each naming earlier entries as parent and pair. Reads each frame's head
    /// and entry metadata only (payload checksums are checked when a frame itself is read), so
    /// the cost follows the number of frames, not their size.
    pub(super) fn change_whole(&self, c: &CommitMeta) -> Result<(), String> {
        let mut pos = c.change_start;
        let mut id = (c.last_id + 1)
            .checked_sub(u64::from(c.entry_count))
            .ok_or_else(|| format!("commit {} names more entries than exist", c.sequence))?;
        let mut entries = 0u32;
        while pos < c.self_offset {
            let mut head = [0u8; format::FRAME_HEAD_LEN + crate::meta::ENTRY_META_LEN];
            let n = (c.self_offset - pos).min(head.len() as u64) as usize;
            self.read_at(pos, &mut head[..n])
                .map_err(|e| format!("cannot read a frame at byte {pos}: {e}"))?;
            let Some(frame_head) = head
                .first_chunk::<{ format::FRAME_HEAD_LEN }>()
                .filter(|_| n >= format::FRAME_HEAD_LEN)
            else {
                return Err(format!(
                    "a frame head at byte {pos} runs into the commit frame"
                ));
            };
            let h = FrameHead::decode(frame_head).map_err(|e| e.to_string())?;
            if h.kind == format::KIND_ENTRY {
                match EntryMeta::decode(&head[format::FRAME_HEAD_LEN..n]) {
                    Some((m, _)) if m.id == id && m.parent < id && m.pair < id && h.flags == 0 => {}
                    _ => return Err(format!("the entry frame at byte {pos} is not entry {id}")),
                }
                id += 1;
                entries += 1;
            }
            pos += h.frame_len();
        }
        if pos != c.self_offset || entries != c.entry_count {
            return Err(format!(
                "the frames of the change closed at byte {} do not match its commit",
                c.self_offset
            ));
        }
        Ok(())
    }
}

/// Fill `buf` from `file` at `offset` (positioned read: the file's cursor is not used).
pub(super) fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(not(unix))]
    {
        let mut f = file;
        f.seek(SeekFrom::Start(offset))?;
        f.read_exact(buf)
    }
}
