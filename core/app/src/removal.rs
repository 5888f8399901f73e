//! Deleting sessions (`smith sessions delete`, `prune`): a session is removed only while this
//! process holds its writer lock, so one being written is refused, never cut short; then the
//! working-tree snapshots no remaining session references are collected from the removed
//! sessions' projects' repositories ([`smith_vcs::collect`]).
//!
//! Collection is of whole repositories: in each project a removed session worked in, every
//! snapshot no remaining session names (in a `vcs` record, or a `vcs.snapshot` effect's
//! evidence) and older than [`SNAPSHOT_GRACE`] goes — also those of sessions removed earlier
//! by other means. When a remaining session cannot be read whole (damage), nothing is
//! collected (its references are unknown) and the report says which session stopped it; the
//! removal itself stands.

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use smith::SessionId;
use smith_store::{Record, SessionReader};
use smith_vcs::{Collected, SnapshotId, VcsError};

use crate::SessionStore;

/// How long an unreferenced snapshot is kept after it was last written or handed out: a tool
/// batch's snapshot is recorded in its session when the batch ends, and a fork or an import
/// may be publishing a session that names it.
pub const SNAPSHOT_GRACE: Duration = Duration::from_secs(24 * 3600);

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
    /// Set when no snapshot was collected because what the remaining sessions reference is
    /// unknown (one could not be read whole, or the directory could not be listed): why.
    pub collection_skipped: Option<String>,
}

/// Remove the sessions `targets` (ids and paths, as [`SessionStore::find`] and
/// [`SessionStore::list`] give them) from `store`, then collect the snapshots only they
/// referenced from the repositories in `vcs_store` (the data home's `vcs/`; `None`: none).
/// `dry_run` reports the same without removing anything.
///
/// Per-session failures are [`Report::refused`]; collection failures are
/// [`Report::collections`] and [`Report::collection_skipped`].
pub fn remove(
    store: &SessionStore,
    vcs_store: Option<&Path>,
    targets: &[(SessionId, PathBuf)],
    dry_run: bool,
) -> Report {
    let mut report = Report::default();
    // The projects the removed sessions worked in.
    let mut roots: BTreeSet<PathBuf> = BTreeSet::new();
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
                roots.extend(refs.roots);
                None
            }
            Err(e) => Some(e),
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
        return report;
    };
    if roots.is_empty() {
        return report;
    }
    let mut referenced = HashSet::new();
    // Listed now, after the removals, so a session published meanwhile counts too.
    let remaining = match store.list() {
        Ok(list) => list,
        Err(e) => {
            report.collection_skipped = Some(format!(
                "the sessions directory {} could not be listed ({e})",
                store.dir().display()
            ));
            return report;
        }
    };
    for (id, path) in remaining.iter().filter(|(id, _)| !removed_ids.contains(id)) {
        match snapshot_references(path) {
            Ok(refs) => referenced.extend(refs.snapshots),
            Err(e) => {
                report.collection_skipped =
                    Some(format!("session {id} could not be read whole: {e}"));
                return report;
            }
        }
    }
    for root in roots {
        let outcome = match smith_vcs::repository_of(vcs_store, &root) {
            Ok(Some(dir)) => smith_vcs::collect(&dir, &referenced, SNAPSHOT_GRACE, dry_run),
            Ok(None) => continue,
            Err(e) => Err(e),
        };
        report.collections.push(Collection { root, outcome });
    }
    drop(held);
    report
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

/// The snapshots a session names, and the projects its `vcs` records are of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct References {
    /// Every snapshot its `vcs` records and `vcs.snapshot` effects name, on every branch.
    pub snapshots: HashSet<SnapshotId>,
    /// The project roots of its `vcs` records.
    pub roots: BTreeSet<PathBuf>,
}

/// The snapshots session `path` names: in its `vcs` records (before and after) and in the
/// evidence of its `vcs.snapshot` effects (a plugin's marks), on every branch.
///
/// # Errors
/// Why it could not be read whole: the store's error, or the damaged changes it skipped.
pub fn snapshot_references(path: &Path) -> Result<References, String> {
    let mut reader = SessionReader::open(path).map_err(|e| e.to_string())?;
    let last = reader.state().last_id;
    let mut out = References::default();
    let kinds = [Record::VCS, Record::EFFECT_COMPLETION];
    reader
        .for_each_of_kinds(1..=last, &kinds, |entry| match entry.record {
            Record::Vcs(record) => {
                out.roots.insert(PathBuf::from(&record.root));
                for hex in [&record.before, &record.after] {
                    if let Ok(id) = SnapshotId::from_hex(hex) {
                        out.snapshots.insert(id);
                    }
                }
            }
            Record::EffectCompletion(c) => {
                if let Some(id) = c
                    .evidence
                    .get("snapshot")
                    .and_then(|s| s.as_str())
                    .and_then(|s| SnapshotId::from_hex(s).ok())
                {
                    out.snapshots.insert(id);
                }
            }
            _ => {}
        })
        .map_err(|e| e.to_string())?;
    if let Some(s) = reader.skipped().first() {
        return Err(format!(
            "a damaged change at byte {} was skipped ({}), so what it references is unknown",
            s.offset, s.reason
        ));
    }
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
