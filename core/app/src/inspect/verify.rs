//! `verify`: the full check of one session file — every frame, every committed change, the
//! in-file index — reporting all damage without changing anything.

use std::path::Path;

use smith_store::{CommitReader, SessionState, Skipped, TornTail};

/// What a full verification found.
#[derive(Debug)]
pub struct Verification {
    /// Entries in complete committed changes.
    pub entries: u64,
    /// The committed state.
    pub state: SessionState,
    /// Changes with entries that are complete but not recorded as acknowledged.
    pub unacknowledged: usize,
    /// Bytes after the last complete change.
    pub torn_tail: Option<TornTail>,
    /// Whether a writer holds the session (the tail is then its change in progress).
    pub live_writer: bool,
    /// Damaged changes skipped.
    pub skipped: Vec<Skipped>,
    /// Problems of the derived index frames (never damage to history, still reported).
    pub index_problems: Vec<String>,
}

impl Verification {
    /// Whether nothing is damaged (a torn tail or unacknowledged changes are not damage).
    pub fn intact(&self) -> bool {
        self.skipped.is_empty() && self.index_problems.is_empty()
    }
}

/// Verify the session file at `path`.
///
/// # Errors
/// The store's error when the file cannot be read or its framing is ambiguous.
pub fn verify(path: &Path) -> Result<Verification, smith_store::Error> {
    let live_writer = smith_store::writer_active(path).unwrap_or(false);
    let mut reader = CommitReader::open(path)?;
    let mut entries = 0u64;
    // Sequences of the changes that carry entries: acknowledgement matters for those.
    let mut with_entries = Vec::new();
    while let Some(change) = reader.next_change()? {
        entries += change.entries.len() as u64;
        if !change.entries.is_empty() {
            with_entries.push(change.commit.sequence);
        }
    }
    let state = reader.state();
    let unacknowledged = with_entries
        .iter()
        .filter(|&&seq| !state.acknowledged(seq))
        .count();
    Ok(Verification {
        entries,
        state,
        unacknowledged,
        torn_tail: reader.torn_tail().cloned(),
        live_writer,
        skipped: reader.skipped().to_vec(),
        index_problems: reader.index_problems().to_vec(),
    })
}
