//! The reader's block cache: the snapshot read in aligned 4 KiB blocks (a page), the last
//! sixteen kept, so a walk over neighbouring frames (a branch from its leaf toward the root, a
//! page of entries) costs one positioned read per block instead of several per frame. Blocks
//! are small so that walks which hop over large frames — reading only their heads, as
//! opening a session passes over tool output — copy a page per frame, not 64 KiB. Only bytes of
//! the snapshot are read — a file is append-only below its last complete commit, so a cached
//! block never goes stale; a read larger than a block goes to the file directly.

use std::cell::RefCell;
use std::fs::File;

use super::access::read_at;

/// The block size, in bytes.
const BLOCK: u64 = 4 * 1024;

/// How many blocks are kept.
const KEPT: usize = 16;

/// Blocks of one snapshot, most recently used last.
#[derive(Debug, Default)]
pub(super) struct Blocks {
    kept: RefCell<Vec<(u64, Vec<u8>)>>,
}

impl Blocks {
    /// Fill `buf` from `file` at `offset`; bytes at or past `limit` (the snapshot's end) are
    /// an error, as the file's end would be.
    pub(super) fn read(
        &self,
        file: &File,
        limit: u64,
        offset: u64,
        buf: &mut [u8],
    ) -> std::io::Result<()> {
        let eof = || {
            std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                format!("the read at byte {offset} runs past the snapshot's end at byte {limit}"),
            )
        };
        let end = offset.checked_add(buf.len() as u64).ok_or_else(eof)?;
        if end > limit {
            return Err(eof());
        }
        if buf.len() as u64 > BLOCK {
            return read_at(file, offset, buf);
        }
        let mut kept = self.kept.borrow_mut();
        let mut done = 0usize;
        while done < buf.len() {
            let pos = offset + done as u64;
            let start = pos - pos % BLOCK;
            let want = (limit - start).min(BLOCK) as usize;
            let at = match kept
                .iter()
                .position(|(s, b)| *s == start && b.len() >= want)
            {
                Some(i) => {
                    let block = kept.remove(i);
                    kept.push(block);
                    kept.len() - 1
                }
                None => {
                    // The oldest block's buffer is reused: the cache allocates at most
                    // `KEPT` blocks over the reader's life.
                    let mut block = match kept.iter().position(|(s, _)| *s == start) {
                        Some(stale) => kept.remove(stale).1,
                        None if kept.len() == KEPT => kept.remove(0).1,
                        None => Vec::new(),
                    };
                    block.resize(want, 0);
                    read_at(file, start, &mut block)?;
                    kept.push((start, block));
                    kept.len() - 1
                }
            };
            let block = &kept[at].1;
            let from = (pos - start) as usize;
            let n = (block.len() - from).min(buf.len() - done);
            if n == 0 {
                return Err(eof());
            }
            buf[done..done + n].copy_from_slice(&block[from..from + n]);
            done += n;
        }
        Ok(())
    }
}
