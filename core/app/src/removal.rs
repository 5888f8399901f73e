//! Deleting sessions (`smith sessions delete`, `prune`): a session is removed only while this
//! process holds its writer lock, so one being written is refused, never cut short; then the
//! working-tree snapshots only the removed sessions referenced are collected from their
//! projects' repositories ([`smith_vcs::collect`]).
//!
//! A snapshot stays while any remaining session's `vcs` record names it. When a remaining
//! session cannot be read, nothing is collected (its references are unknown) and the report
//! says which session stopped it; the removal itself stands.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use smith::SessionId;
use smith_store::{Record, SessionReader};
use smith_vcs::{Collected, SnapshotId, VcsError};

use crate::SessionStore;

/// One session removed (or, in a dry run, that would be).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removed {
    /// Its id.
    pub id: SessionId,
    /// The file's size, in bytes.
    pub bytes: u64,
    /// When it was last written: milliseconds since the Unix epoch, UTC.
    pub modified_ms: i64,
    /// Why its snapshot references could not be read (a damaged file): its snapshots are then
    /// left in place.
    pub references_unread: Option<String>,
}

/// Why a session was not removed.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Another process holds its writer lock.
    #[error("another Smith process is writing it{}", holder.as_ref().map(|h| format!(" ({} process {} on {})", h.frontend, h.pid, h.host)).unwrap_or_default())]
    Locked {
        /// The recorded writer, when its record is readable.
        holder: Option<smith_store::holder::Holder>,
    },
    /// The file could not be opened, locked or removed.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The session file.
        path: PathBuf,
        /// The operating system's answer.
        source: std::io::Error,
    },
}

/// What collecting one project's snapshots did.
#[derive(Debug)]
pub struct Collection {
    /// The project root the snapshots hold.
    pub root: PathBuf,
    /// What was removed, or why the repository could not be collected.
    pub outcome: Result<Collected, VcsError>,
}

/// What a removal did.
#[derive(Debug, Default)]
pub struct Report {
    /// The sessions removed, in the order asked.
    pub removed: Vec<Removed>,
    /// The sessions kept, and why.
    pub refused: Vec<(SessionId, Refusal)>,
    /// Per project, the snapshots collected.
    pub collections: Vec<Collection>,
    /// Set when no snapshot was collected because a remaining session could not be read:
    /// which one, and the store's error.
    pub collection_skipped: Option<(SessionId, String)>,
}

/// Remove the sessions `targets` (ids and paths, as [`SessionStore::find`] and
/// [`SessionStore::list`] give them) from `store`, then collect the snapshots only they
/// referenced from the repositories in `vcs_store` (the data home's `vcs/`; `None`: none).
/// `dry_run` reports the same without removing anything.
///
/// # Errors
/// The sessions directory cannot be listed (to learn what the remaining sessions reference);
/// nothing is removed then. Per-session failures are [`Report::refused`].
pub fn remove(
    store: &SessionStore,
    vcs_store: Option<&Path>,
    targets: &[(SessionId, PathBuf)],
    dry_run: bool,
) -> std::io::Result<Report> {
    let everyone = store.list()?;
    let mut report = Report::default();
    let mut gone: BTreeMap<PathBuf, BTreeSet<SnapshotId>> = BTreeMap::new();
    let mut removed_ids = BTreeSet::new();
    // The locks are held until the end, so no writer can open a session that is going.
    let mut held = Vec::new();
    for (id, path) in targets {
        if !removed_ids.insert(*id) {
            continue;
        }
        let lock = match claim(path) {
            Ok(lock) => lock,
            Err(refusal) => {
                removed_ids.remove(id);
                report.refused.push((*id, refusal));
                continue;
            }
        };
        let meta = lock.metadata().ok();
        let references = snapshot_references(path);
        if !dry_run && let Err(refusal) = unlink(path) {
            removed_ids.remove(id);
            report.refused.push((*id, refusal));
            continue;
        }
        let references_unread = match references {
            Ok(refs) => {
                for (root, snapshot) in refs {
                    gone.entry(root).or_default().insert(snapshot);
                }
                None
            }
            Err(e) => Some(e.to_string()),
        };
        report.removed.push(Removed {
            id: *id,
            bytes: meta.as_ref().map_or(0, std::fs::Metadata::len),
            modified_ms: meta
                .and_then(|m| m.modified().ok())
                .map_or(0, millis_since_epoch),
            references_unread,
        });
        held.push(lock);
    }
    if !dry_run && !report.removed.is_empty() {
        // The removals are durable before any snapshot goes.
        if let Ok(dir) = File::open(store.dir()) {
            let _ = dir.sync_all();
        }
    }
    let Some(vcs_store) = vcs_store else {
        return Ok(report);
    };
    if gone.is_empty() {
        return Ok(report);
    }
    for (id, path) in everyone.iter().filter(|(id, _)| !removed_ids.contains(id)) {
        match snapshot_references(path) {
            Ok(refs) => {
                for (root, snapshot) in refs {
                    if let Some(set) = gone.get_mut(&root) {
                        set.remove(&snapshot);
                    }
                }
            }
            Err(e) => {
                report.collection_skipped = Some((*id, e.to_string()));
                return Ok(report);
            }
        }
    }
    for (root, snapshots) in gone.into_iter().filter(|(_, s)| !s.is_empty()) {
        let outcome = match smith_vcs::repository_of(vcs_store, &root) {
            Ok(Some(dir)) => smith_vcs::collect(&dir, &snapshots, dry_run),
            Ok(None) => continue,
            Err(e) => Err(e),
        };
        report.collections.push(Collection { root, outcome });
    }
    drop(held);
    Ok(report)
}

/// The sessions `prune` removes: those last written longer than `older_than` before `now`,
/// except the `keep` most recently written of all. Oldest first.
///
/// # Errors
/// The sessions directory cannot be listed.
pub fn prune_candidates(
    store: &SessionStore,
    older_than: Duration,
    keep: usize,
    now: SystemTime,
) -> std::io::Result<Vec<(SessionId, PathBuf)>> {
    let cutoff = now
        .checked_sub(older_than)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let mut dated: Vec<(SystemTime, SessionId, PathBuf)> = store
        .list()?
        .into_iter()
        .filter_map(|(id, path)| {
            let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
            Some((modified, id, path))
        })
        .collect();
    // Newest first, so that the first `keep` are the ones kept.
    dated.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut chosen: Vec<(SessionId, PathBuf)> = dated
        .into_iter()
        .skip(keep)
        .filter(|(modified, _, _)| *modified < cutoff)
        .map(|(_, id, path)| (id, path))
        .collect();
    chosen.sort();
    Ok(chosen)
}

/// Every `(project root, snapshot)` the `vcs` records of session `path` name, on every branch.
///
/// # Errors
/// The store's read errors (a damaged or unreadable file).
pub fn snapshot_references(
    path: &Path,
) -> Result<BTreeSet<(PathBuf, SnapshotId)>, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let last = reader.state().last_id;
    let mut out = BTreeSet::new();
    reader.for_each_of_kinds(1..=last, &[Record::VCS], |entry| {
        if let Record::Vcs(record) = entry.record {
            let root = PathBuf::from(&record.root);
            for hex in [&record.before, &record.after] {
                if let Ok(id) = SnapshotId::from_hex(hex) {
                    out.insert((root.clone(), id));
                }
            }
        }
    })?;
    Ok(out)
}

/// Open `path` and take its writer lock, refusing when another process holds it.
fn claim(path: &Path) -> Result<File, Refusal> {
    let file = File::open(path).map_err(|source| Refusal::Io {
        action: "open",
        path: path.to_owned(),
        source,
    })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Refusal::Locked {
            holder: smith_store::holder::read_holder(path),
        }),
        Err(std::fs::TryLockError::Error(source)) => Err(Refusal::Io {
            action: "lock",
            path: path.to_owned(),
            source,
        }),
    }
}

/// Remove the session file and what a killed writer left beside it (its writer record and
/// live feed).
fn unlink(path: &Path) -> Result<(), Refusal> {
    std::fs::remove_file(path).map_err(|source| Refusal::Io {
        action: "remove",
        path: path.to_owned(),
        source,
    })?;
    let _ = std::fs::remove_file(smith_store::holder::holder_path(path));
    let _ = std::fs::remove_file(crate::live::live_path(path));
    Ok(())
}

fn millis_since_epoch(t: SystemTime) -> i64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
