//! Forking: a new, independently writable session holding a source session's history up to
//! one entry, published atomically.

use std::path::{Path, PathBuf};

use smith::{EntryId, SessionId};

use crate::Error;
use crate::format;
use crate::meta::EntryMeta;
use crate::publish::publish;
use crate::scan::{Scanner, io};
use crate::writer::{PendingFrame, SessionWriter};

/// What [`fork`] created.
#[derive(Debug)]
pub struct Forked {
    /// The new session's id.
    pub id: SessionId,
    /// The new session file.
    pub path: PathBuf,
    /// The selected leaf of the new session (the fork point).
    pub leaf: Option<EntryId>,
    /// How many entries it holds.
    pub entries: u64,
}

/// Fork the session at `source` into a new session `new_id` in `dir`, holding every entry with
/// an id up to `at` (default: the source's selected leaf) with the same ids, parents and bytes,
/// and `at` selected. Frames of kinds this build does not know are copied byte for byte within
/// the changes they belonged to. The source is only read (no lock is taken, so a session
/// another process is writing can be forked from its last complete change). The new file is
/// written under a temporary name, synced, renamed into place and the directory synced, so it
/// appears whole or not at all.
///
/// # Errors
/// [`Error::Encode`] when `at` is not an entry of the source; [`Error::Corrupt`] when damaged
/// changes lie at or before `at`; the read errors of the source and the write errors of the
/// new file (the temporary file is then removed).
pub fn fork(
    source: &Path,
    dir: &Path,
    new_id: SessionId,
    at: Option<EntryId>,
) -> Result<Forked, Error> {
    let file = std::fs::File::open(source).map_err(io("opening session file", source))?;
    let mut scan = Scanner::open(source, file)?;
    let (mut writer, temp) = SessionWriter::create_temp(dir, new_id)?;
    let result = copy(&mut scan, &mut writer, at).and_then(|(leaf, entries)| {
        writer.close()?;
        publish(&temp, &dir.join(crate::file_name(&new_id)), dir)?;
        Ok(Forked {
            id: new_id,
            path: dir.join(crate::file_name(&new_id)),
            leaf,
            entries,
        })
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Create session `id` in `dir` by running `build` on a writer of a new file under a temporary
/// name, then publish it — synced, renamed into place, the directory synced — only when
/// `build` succeeded, so the session appears whole or not at all (an import writes its history
/// this way). The writer starts empty: `build` appends the `session_start` first.
///
/// # Errors
/// [`Error::Io`] when `dir/<id>.smith` exists or the file cannot be written; whatever `build`
/// returns. The temporary file is removed on any error.
pub fn create_published<T>(
    dir: &Path,
    id: SessionId,
    build: impl FnOnce(&mut SessionWriter) -> Result<T, Error>,
) -> Result<(T, PathBuf), Error> {
    let (mut writer, temp) = SessionWriter::create_temp(dir, id)?;
    writer.defer_sync();
    let path = dir.join(crate::file_name(&id));
    let result = build(&mut writer).and_then(|built| {
        writer.close()?;
        publish(&temp, &path, dir)?;
        Ok(built)
    });
    match result {
        Ok(built) => Ok((built, path)),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}

fn copy(
    scan: &mut Scanner,
    writer: &mut SessionWriter,
    at: Option<EntryId>,
) -> Result<(Option<EntryId>, u64), Error> {
    let mut limit = at.map(|e| e.0);
    let mut copied = 0u64;
    while let Some(change) = scan.next_raw()? {
        if let Some(damage) = scan.skipped.first() {
            return Err(damaged(scan, damage.damage_at, &damage.reason));
        }
        let mut frames = Vec::new();
        let mut past = false;
        for frame in change.frames {
            if frame.kind == format::KIND_ENTRY {
                let id = EntryMeta::decode(&frame.payload).map_or(0, |(m, _)| m.id);
                if limit.is_some_and(|l| id > l) {
                    past = true;
                    break;
                }
                frames.push(PendingFrame {
                    kind: frame.kind,
                    flags: frame.flags,
                    payload: frame.payload,
                    entry: Some(id),
                });
            } else {
                frames.push(PendingFrame {
                    kind: frame.kind,
                    flags: frame.flags,
                    payload: frame.payload,
                    entry: None,
                });
            }
        }
        let entries = frames.iter().filter(|f| f.entry.is_some()).count() as u64;
        copied += entries;
        // Source selections beyond the fork point become the last copied entry.
        let leaf = match limit {
            Some(l) if change.commit.leaf > l => copied,
            _ => change.commit.leaf,
        };
        if !frames.is_empty() {
            writer.write_change(frames, leaf)?;
        }
        if past || limit.is_some_and(|l| copied >= l) {
            break;
        }
    }
    if let Some(damage) = scan.skipped.first() {
        return Err(damaged(scan, damage.damage_at, &damage.reason));
    }
    let want = limit.get_or_insert(scan.leaf);
    if *want > copied {
        return Err(Error::Encode {
            reason: format!("entry {want} is past the session's committed entries (1..={copied})"),
        });
    }
    if *want != 0 && writer.leaf() != Some(EntryId(*want)) {
        writer.select(EntryId(*want))?;
    }
    Ok(((*want != 0).then_some(EntryId(*want)), copied))
}

fn damaged(scan: &Scanner, offset: u64, reason: &str) -> Error {
    scan.corrupt(
        offset,
        format!("{reason}; fork at an entry before the damaged change"),
    )
}
