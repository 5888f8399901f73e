//! Validation on access (spec: Checkpoints and integrity — "records are validated on
//! access"): the commit boundaries around a record a reader opened through the index reads,
//! checked as the full scan would judge them, with positioned reads of frame heads only.

use std::fs::File;

use smith::EntryId;

use super::{Locate, SessionReader};
use crate::format::{self, FrameHead};
use crate::meta::{COMMIT_LEN, CommitMeta, EntryMeta};
use crate::scan::decode_entry;
use crate::{Entry, Error};

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

/// Reading one entry: validated on access, and rescanned once when the index misleads.
impl SessionReader {
    /// Read entry `id`, validated: its frame's checksums, its metadata, the commit frame
    /// closing its change, and its body. When the index leads to something that is not that
    /// entry, the reader rescans the whole file once and tries again.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the entry is damaged or withheld; [`Error::Io`].
    pub fn entry(&mut self, id: EntryId) -> Result<Entry, Error> {
        self.validated(id, |r, id| {
            let (at, payload) = r.entry_frame(id)?;
            decode_entry(&payload).map_err(|e| (at, e))
        })
    }

    /// Entry `id`'s metadata (read as [`SessionReader::entry_meta`] does), and the entry
    /// itself — validated and decoded as [`SessionReader::entry`] does — when `wanted` says so
    /// of the metadata: one lookup for walks that decode only some kinds (the projection); the
    /// bodies of the others are never read.
    ///
    /// # Errors
    /// As [`SessionReader::entry`].
    pub fn entry_if(
        &mut self,
        id: EntryId,
        wanted: impl Fn(&EntryMeta) -> bool,
    ) -> Result<(EntryMeta, Option<Entry>), Error> {
        self.validated(id, |r, id| {
            let at = r.locate_entry(id)?;
            let meta = r.meta_at(at, id)?;
            if !wanted(&meta) {
                return Ok((meta, None));
            }
            let payload = r.entry_frame_at(at, id)?;
            decode_entry(&payload)
                .map(|e| (meta, Some(e)))
                .map_err(|e| (at, e))
        })
    }

    /// As [`SessionReader::entry_if`], but the wanted entry's frame payload is appended to
    /// `buf` validated and not yet decoded ([`crate::decode_entry_payload`] decodes it), so a
    /// walk can read in order into one reused buffer and decode elsewhere. Returns the
    /// metadata and whether the payload was appended; on error `buf` is as it was.
    ///
    /// # Errors
    /// As [`SessionReader::entry`], except a body that does not decode (found when it is).
    pub fn entry_payload_into(
        &mut self,
        id: EntryId,
        wanted: impl Fn(&EntryMeta) -> bool,
        buf: &mut Vec<u8>,
    ) -> Result<(EntryMeta, bool), Error> {
        self.validated(id, |r, id| {
            let at = r.locate_entry(id)?;
            let meta = r.meta_at(at, id)?;
            if !wanted(&meta) {
                return Ok((meta, false));
            }
            r.entry_frame_into(at, id, buf).map(|()| (meta, true))
        })
    }

    /// Validate entry `id` as [`SessionReader::entry`] does, without decoding its body.
    ///
    /// # Errors
    /// As [`SessionReader::entry`].
    pub fn check(&mut self, id: EntryId) -> Result<(), Error> {
        self.validated(id, |r, id| r.entry_frame(id).map(drop))
    }

    /// The fixed metadata of entry `id` (its kind, parent, pair, body length), read without
    /// the rest of its frame: what walks that pick entries by kind use to pass over large
    /// bodies. Neither the frame's checksum nor its commit is checked; what such a walk then
    /// reads goes through [`SessionReader::entry`], which checks both.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the index does not lead to that entry's metadata; [`Error::Io`].
    pub fn entry_meta(&mut self, id: EntryId) -> Result<EntryMeta, Error> {
        self.validated(id, |r, id| {
            let at = r.locate_entry(id)?;
            r.meta_at(at, id)
        })
    }

    /// The metadata of entry `id` in the frame at `at`, from the frame's head alone.
    fn meta_at(&self, at: u64, id: u64) -> Result<EntryMeta, (u64, String)> {
        let mut head = [0u8; format::FRAME_HEAD_LEN + crate::meta::ENTRY_META_LEN];
        self.read_at(at, &mut head)
            .map_err(|e| (at, format!("cannot read entry {id} at byte {at}: {e}")))?;
        let mut frame_head = [0u8; format::FRAME_HEAD_LEN];
        frame_head.copy_from_slice(&head[..format::FRAME_HEAD_LEN]);
        let h = FrameHead::decode(&frame_head).map_err(|e| (at, e.to_string()))?;
        match EntryMeta::decode(&head[format::FRAME_HEAD_LEN..]) {
            Some((m, _))
                if h.kind == format::KIND_ENTRY
                    && m.id == id
                    && m.parent < id
                    && at + h.frame_len() <= self.snapshot_len =>
            {
                Ok(m)
            }
            _ => Err((at, format!("expected entry {id} at byte {at}"))),
        }
    }

    /// Run `read` for entry `id`; when opened through the index and it fails, rescan the
    /// whole file once and run it again, so a wrong index never hides or invents history.
    fn validated<T>(
        &mut self,
        id: EntryId,
        mut read: impl FnMut(&mut Self, u64) -> Result<T, (u64, String)>,
    ) -> Result<T, Error> {
        match read(self, id.0) {
            Ok(e) => Ok(e),
            Err((at, reason)) => {
                if matches!(self.locate, Locate::Indexed { .. }) {
                    self.index_problems
                        .push(format!("index lookup of entry {} failed: {reason}", id.0));
                    self.full_scan()?;
                    if let Ok(e) = read(self, id.0) {
                        return Ok(e);
                    }
                }
                // Withheld by a damaged change: said as verification says it (the same byte,
                // the same reason), whatever the index led this access to first.
                if let Some(s) = self
                    .skipped
                    .iter()
                    .find(|s| s.entries.is_some_and(|(a, b)| (a..=b).contains(&id.0)))
                {
                    return Err(Error::Corrupt {
                        path: self.path.clone(),
                        offset: s.damage_at,
                        reason: format!(
                            "{} (entry {} lies in that damaged change)",
                            s.reason, id.0
                        ),
                    });
                }
                Err(Error::Corrupt {
                    path: self.path.clone(),
                    offset: at,
                    reason,
                })
            }
        }
    }
}
