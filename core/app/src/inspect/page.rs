//! `get`: one session read through bounded traversal, a page of entries at a time — by id
//! (append order) or along the selected branch (leaf toward root) — with the usage and cost
//! over the whole session.

use std::path::Path;

use smith::{EntryId, SessionId};
use smith_agent::Accounts;
use smith_store::{Entry, Record, SessionReader, SessionState, Skipped, TornTail};

/// Largest page.
pub const MAX_LIMIT: usize = 1000;

/// Which page to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageRequest {
    /// Entries per page (1 to [`MAX_LIMIT`]).
    pub limit: usize,
    /// Continue after this entry (by id), or from the parent of this entry (`branch`).
    pub cursor: Option<u64>,
    /// Only the selected branch, from its leaf toward the root (newest first).
    pub branch: bool,
}

/// A page that cannot be read as asked.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The page size is out of range.
    #[error("a page of {limit} entries is out of range; pages hold 1 to {MAX_LIMIT}")]
    Limit {
        /// The size asked for.
        limit: usize,
    },
    /// The cursor names no entry of the session.
    #[error("cursor {cursor} is not an entry of session {session} (its entries are 1..={last})")]
    Cursor {
        /// The cursor.
        cursor: u64,
        /// The session.
        session: SessionId,
        /// Its largest entry id.
        last: u64,
    },
    /// A branch cursor is not on the selected branch.
    #[error("cursor {cursor} is not on the selected branch of session {session}")]
    OffBranch {
        /// The cursor.
        cursor: u64,
        /// The session.
        session: SessionId,
    },
    /// The session cannot be read.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// A page of entries and what the read found.
#[derive(Debug)]
pub struct Page {
    /// The entries, at most the page size.
    pub entries: Vec<Entry>,
    /// The cursor of the next page, when there is one.
    pub next_cursor: Option<u64>,
    /// The session's committed state when the read began.
    pub state: SessionState,
    /// The selected branch continues into this entry, which lies in a damaged change; the
    /// page ends before it.
    pub withheld: Option<u64>,
    /// Bytes after the last complete change, not shown.
    pub torn_tail: Option<TornTail>,
    /// Whether a writer holds the session (the tail is then pending, not torn).
    pub live_writer: bool,
    /// Damaged changes skipped.
    pub skipped: Vec<Skipped>,
    reader: SessionReader,
}

impl Page {
    /// Usage and cost over the whole session (not only this page): see [`usage_of`].
    ///
    /// # Errors
    /// The store's error.
    pub fn usage(&mut self) -> Result<Accounts, smith_store::Error> {
        usage_of(&mut self.reader)
    }
}

/// Read page `request` of session `id` at `path`, opened through the in-file index and each
/// entry validated as it is read (inspection publishes the same entries as verification; the
/// damage a page meets is in [`Page::skipped`]).
///
/// # Errors
/// [`PageError`]: a limit or cursor out of range, or the store's error.
pub fn read_page(path: &Path, id: SessionId, request: PageRequest) -> Result<Page, PageError> {
    let PageRequest {
        limit,
        cursor,
        branch,
    } = request;
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(PageError::Limit { limit });
    }
    let mut reader = SessionReader::open(path)?;
    let state = reader.state();
    if let Some(c) = cursor.filter(|&c| c == 0 || c > state.last_id) {
        return Err(PageError::Cursor {
            cursor: c,
            session: id,
            last: state.last_id,
        });
    }
    let mut withheld = None;
    // One entry more than the page shows tells whether there is a next page.
    let mut entries = if branch {
        let start = match cursor {
            Some(c) => {
                // The cursor must be on the selected branch: walk down to it (ids only
                // decrease toward the root), reading metadata only.
                let mut at = state.leaf_id();
                while let Some(e) = at.filter(|e| e.0 > c) {
                    at = reader.parent_of(e)?;
                }
                if at != Some(EntryId(c)) {
                    return Err(PageError::OffBranch {
                        cursor: c,
                        session: id,
                    });
                }
                reader.parent_of(EntryId(c))?
            }
            None => state.leaf_id(),
        };
        let mut found = Vec::new();
        let mut at = start;
        while let Some(e) = at.filter(|_| found.len() <= limit) {
            let entry = match reader.entry(e) {
                Ok(entry) => entry,
                // Damaged, found now or by the scan that opened it: the page ends before it.
                Err(_) if reader.withheld(e.0) => {
                    withheld = Some(e.0);
                    break;
                }
                Err(err) => return Err(err.into()),
            };
            at = entry.parent;
            found.push(entry);
        }
        found
    } else {
        reader.range(EntryId(cursor.unwrap_or(0) + 1), limit + 1)?
    };
    let more = entries.len() > limit;
    entries.truncate(limit);
    let next_cursor = more.then(|| entries.last().map_or(0, |e| e.id.0));
    Ok(Page {
        entries,
        next_cursor,
        state,
        withheld,
        torn_tail: reader.torn_tail().cloned(),
        live_writer: reader.live_writer(),
        skipped: reader.skipped().to_vec(),
        reader,
    })
}

/// Usage and cost over the whole session `reader` reads (not only one page), per attempt and
/// in total, walking it by entry metadata and keeping only what accounting reads: attempts,
/// failures, and responses without their content.
///
/// # Errors
/// The store's error.
pub fn usage_of(reader: &mut SessionReader) -> Result<Accounts, smith_store::Error> {
    let mut kept = Vec::new();
    // The metadata picks what accounting reads, so large bodies (tool results, effect output)
    // are passed over unread; what is kept is read and validated whole.
    let last = reader.state().last_id;
    let kinds = [
        Record::ATTEMPT,
        Record::ATTEMPT_FAILED,
        Record::MESSAGE,
        Record::RUN_END,
    ];
    reader.for_each_of_kinds(1..=last, &kinds, |mut entry| match &mut entry.record {
        Record::Attempt(_) | Record::AttemptFailed(_) | Record::RunEnd(_) => kept.push(entry),
        Record::Message(m) if m.model.is_some() => {
            m.message.content = Vec::new();
            kept.push(entry);
        }
        _ => {}
    })?;
    Ok(smith_agent::account(&kept))
}
