//! Collecting the snapshots no one needs: when sessions are deleted, the snapshot commits only
//! they referenced, and the trees and blobs only those commits held, are removed from the
//! project's repository (the sessions guide: delete and prune).
//!
//! The caller decides which snapshots are no longer referenced (the sessions are its records);
//! this module keeps the repository whole around their removal:
//!
//! - the branch head is never removed (the next snapshot compares its tree with it);
//! - an object stays when any kept commit reaches it, or the stat cache names it (a snapshot
//!   reuses a cached blob id without writing the blob again);
//! - a kept commit whose parent is removed is listed in the repository's `shallow` file — git's
//!   own record of a commit whose parents are absent — so `git log` and `git fsck` still
//!   accept the repository;
//! - collection holds the repository's `smith-gc.lock` exclusively, and every snapshot holds it
//!   shared while it writes, so no snapshot can come to depend on an object being removed.
//!
//! Only loose objects are removed (Smith never packs); a pack a person made is left alone.

use std::collections::{BTreeSet, HashSet};
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::project::ROOT_FILE;
use crate::stat::StatCache;
use crate::{SnapshotId, VcsError};

/// The lock file every snapshot holds shared and collection holds exclusively.
const LOCK_FILE: &str = "smith-gc.lock";
/// Git's list of commits whose parents are absent from the repository.
const SHALLOW_FILE: &str = "shallow";

/// What a collection removed from one repository.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// The snapshot commits removed, in id order.
    pub snapshots: Vec<SnapshotId>,
    /// The objects removed (commits, trees and blobs).
    pub objects: u64,
    /// Their size on disk (compressed), in bytes.
    pub bytes: u64,
    /// Snapshots asked for that were kept: the branch head, or ids this repository lacks.
    pub kept: Vec<SnapshotId>,
}

/// The snapshot repository of the project whose canonical root a session recorded, inside
/// `store` (the data home's `vcs/`), when it exists: `None` when the project never had one.
/// Unlike [`crate::Vcs::open`], the project directory itself need not exist any more.
///
/// # Errors
/// [`VcsError::ForeignRepository`] when the directory records another root.
pub fn repository_of(store: &Path, root: &Path) -> Result<Option<PathBuf>, VcsError> {
    let dir = store.join(crate::project::repo_name(root));
    let root_file = dir.join(ROOT_FILE);
    let recorded = match fs::read_to_string(&root_file) {
        Ok(text) => PathBuf::from(text.trim_end_matches('\n')),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(VcsError::io(&root_file, e)),
    };
    if recorded != root {
        return Err(VcsError::ForeignRepository {
            dir,
            recorded,
            root: root.to_path_buf(),
        });
    }
    Ok(Some(dir))
}

/// Hold the collection lock of repository `dir` shared until the returned file is dropped:
/// what a snapshot does while it writes objects. Waits while a collection runs.
pub(crate) fn snapshot_guard(dir: &Path) -> Result<File, VcsError> {
    let file = lock_file(dir)?;
    file.lock_shared()
        .map_err(|e| VcsError::io(dir.join(LOCK_FILE), e))?;
    Ok(file)
}

fn lock_file(dir: &Path) -> Result<File, VcsError> {
    let path = dir.join(LOCK_FILE);
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| VcsError::io(&path, e))
}

/// Remove the snapshots `unreferenced` from repository `dir` (see the module documentation for
/// what is kept), with every object only they held. `dry_run` reports without removing.
/// Waits while a snapshot of the project is being written.
///
/// # Errors
/// [`VcsError::Repository`] when the repository cannot be read (nothing is removed then);
/// [`VcsError::Io`] when the lock, the `shallow` file or an object file cannot be written
/// (what was removed before stays removed; the repository stays whole, since the `shallow`
/// file is written before any object is removed).
pub fn collect(
    dir: &Path,
    unreferenced: &BTreeSet<SnapshotId>,
    dry_run: bool,
) -> Result<Collected, VcsError> {
    let lock = lock_file(dir)?;
    lock.lock()
        .map_err(|e| VcsError::io(dir.join(LOCK_FILE), e))?;
    let repo =
        gix::open_opts(dir, gix::open::Options::isolated()).map_err(|e| VcsError::repo(dir, e))?;
    let err = |e: &dyn std::fmt::Display| VcsError::repo(dir, e);
    let head = repo
        .try_find_reference(crate::project::BRANCH)
        .map_err(|e| err(&e))?
        .and_then(|r| r.target().try_id().map(ToOwned::to_owned));

    let loose = loose_objects(dir);
    let mut commits = Vec::new();
    for id in &loose {
        let object = repo.find_header(*id).map_err(|e| err(&e))?;
        if object.kind() == gix::object::Kind::Commit {
            commits.push(*id);
        }
    }
    let mut report = Collected::default();
    let mut dropped = BTreeSet::new();
    for id in unreferenced {
        if Some(id.0) != head && commits.contains(&id.0) {
            dropped.insert(id.0);
        } else {
            report.kept.push(*id);
        }
    }
    if dropped.is_empty() {
        return Ok(report);
    }

    // Everything a kept commit reaches, and what the stat cache vouches for, stays.
    let mut live: HashSet<ObjectId> = StatCache::load(dir).blob_ids().collect();
    let mut shallow = read_shallow(dir);
    for commit in commits.iter().filter(|c| !dropped.contains(*c)) {
        live.insert(*commit);
        let decoded = repo.find_commit(*commit).map_err(|e| err(&e))?;
        let tree = decoded.tree_id().map_err(|e| err(&e))?.detach();
        if decoded.parent_ids().any(|p| dropped.contains(&p.detach())) {
            shallow.insert(*commit);
        }
        reach(&repo, tree, &mut live, dir)?;
    }
    let mut dead: HashSet<ObjectId> = dropped.iter().copied().collect();
    for commit in &dropped {
        let tree = repo
            .find_commit(*commit)
            .map_err(|e| err(&e))?
            .tree_id()
            .map_err(|e| err(&e))?
            .detach();
        unreached(&repo, tree, &live, &mut dead, dir)?;
    }
    shallow.retain(|c| !dropped.contains(c));

    report.snapshots = dropped.iter().map(|c| SnapshotId(*c)).collect();
    report.objects = dead.len() as u64;
    for id in &dead {
        report.bytes += fs::metadata(loose_path(dir, id)).map_or(0, |m| m.len());
    }
    if dry_run {
        return Ok(report);
    }
    write_shallow(dir, &shallow)?;
    for id in &dead {
        let path = loose_path(dir, id);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(VcsError::io(&path, e)),
        }
    }
    Ok(report)
}

/// Add tree `tree` and everything under it to `live` (a subtree already there is not walked
/// again: snapshots share most of their trees).
fn reach(
    repo: &gix::Repository,
    tree: ObjectId,
    live: &mut HashSet<ObjectId>,
    dir: &Path,
) -> Result<(), VcsError> {
    if !live.insert(tree) {
        return Ok(());
    }
    for (kind, id) in entries(repo, tree, dir)? {
        match kind {
            EntryKind::Tree => reach(repo, id, live, dir)?,
            EntryKind::Commit => {}
            _ => {
                live.insert(id);
            }
        }
    }
    Ok(())
}

/// Add tree `tree` and everything under it that `live` lacks to `dead`.
fn unreached(
    repo: &gix::Repository,
    tree: ObjectId,
    live: &HashSet<ObjectId>,
    dead: &mut HashSet<ObjectId>,
    dir: &Path,
) -> Result<(), VcsError> {
    if live.contains(&tree) || !dead.insert(tree) {
        return Ok(());
    }
    for (kind, id) in entries(repo, tree, dir)? {
        match kind {
            EntryKind::Tree => unreached(repo, id, live, dead, dir)?,
            EntryKind::Commit => {}
            _ => {
                if !live.contains(&id) {
                    dead.insert(id);
                }
            }
        }
    }
    Ok(())
}

/// The entries of tree `id`: kind and object id.
fn entries(
    repo: &gix::Repository,
    id: ObjectId,
    dir: &Path,
) -> Result<Vec<(EntryKind, ObjectId)>, VcsError> {
    let tree = repo.find_tree(id).map_err(|e| VcsError::repo(dir, e))?;
    let decoded = tree.decode().map_err(|e| VcsError::repo(dir, e))?;
    Ok(decoded
        .entries
        .iter()
        .map(|e| (e.mode.kind(), e.oid.to_owned()))
        .collect())
}

/// Every loose object of repository `dir`.
fn loose_objects(dir: &Path) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let Ok(fans) = fs::read_dir(dir.join("objects")) else {
        return out;
    };
    for fan in fans.flatten() {
        let Some(fan_name) = fan.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if fan_name.len() != 2 || !fan_name.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let Ok(names) = fs::read_dir(fan.path()) else {
            continue;
        };
        out.extend(names.flatten().filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            ObjectId::from_hex(format!("{fan_name}{name}").as_bytes()).ok()
        }));
    }
    out.sort();
    out
}

fn loose_path(dir: &Path, id: &ObjectId) -> PathBuf {
    let hex = id.to_hex().to_string();
    dir.join("objects").join(&hex[..2]).join(&hex[2..])
}

/// The commits the `shallow` file lists (none when it is missing or unreadable).
fn read_shallow(dir: &Path) -> BTreeSet<ObjectId> {
    fs::read_to_string(dir.join(SHALLOW_FILE))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| ObjectId::from_hex(l.trim().as_bytes()).ok())
        .collect()
}

/// Replace the `shallow` file with `commits` (removed when there are none), atomically.
fn write_shallow(dir: &Path, commits: &BTreeSet<ObjectId>) -> Result<(), VcsError> {
    let path = dir.join(SHALLOW_FILE);
    if commits.is_empty() {
        return match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(VcsError::io(&path, e)),
            _ => Ok(()),
        };
    }
    let text: String = commits.iter().map(|c| format!("{c}\n")).collect();
    let tmp = dir.join(format!("{SHALLOW_FILE}.{}.tmp", std::process::id()));
    fs::write(&tmp, text).map_err(|e| VcsError::io(&tmp, e))?;
    File::open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| VcsError::io(&tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| VcsError::io(&path, e))
}
