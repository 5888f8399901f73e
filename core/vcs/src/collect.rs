//! Collecting the snapshots no one needs (the sessions guide: delete and prune): from a
//! project's repository, the snapshot commits no session references, and every object only
//! they (or nothing) held.
//!
//! The caller says which snapshots its sessions reference; this module keeps the repository
//! whole around the removal:
//!
//! - what a ref names is never removed: the branch head (the next snapshot compares its tree
//!   with it) and any ref a person made; Smith's own `refs/smith/keep/…` are recomputed;
//! - nothing younger than the grace period is removed — an object written, or a snapshot
//!   handed out again ([`crate::Vcs::snapshot`] refreshes the commit it reuses), that
//!   recently — so a tool batch whose snapshot is not yet recorded in its session keeps it;
//! - an object stays when any kept commit reaches it, or the stat cache names it (a snapshot
//!   reuses a cached blob id without writing the blob again);
//! - a kept commit whose parent is removed is listed in the repository's `shallow` file, git's
//!   own record of a commit whose parents are absent, and a kept commit no ref reaches any more
//!   gets a `refs/smith/keep/ID` ref, so `git fsck` accepts the repository and `git gc` keeps
//!   every snapshot that stays;
//! - commits are removed before the trees and blobs they hold, so an interrupted collection
//!   leaves only unreferenced objects, which the next one removes;
//! - collection holds the repository's `smith-gc.lock` exclusively, and every snapshot and
//!   restore holds it shared while it writes, so no snapshot can come to depend on an object
//!   being removed.
//!
//! Only loose objects are removed (Smith never packs); a pack a person made is left alone.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::project::ROOT_FILE;
use crate::stat::StatCache;
use crate::{SnapshotId, VcsError};

/// The lock file every snapshot holds shared and collection holds exclusively.
const LOCK_FILE: &str = "smith-gc.lock";
/// Git's list of commits whose parents are absent from the repository.
const SHALLOW_FILE: &str = "shallow";
/// Where Smith's refs keeping otherwise unreachable snapshots live.
const KEEP_REFS: &str = "refs/smith/keep";

/// What a collection removed from one repository.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collected {
    /// The snapshot commits removed, in id order.
    pub snapshots: Vec<SnapshotId>,
    /// The objects removed (commits, trees and blobs).
    pub objects: u64,
    /// Their size on disk (compressed), in bytes.
    pub bytes: u64,
    /// Unreferenced snapshots kept because they are younger than the grace period (a later
    /// collection removes them).
    pub young: u64,
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
/// what a snapshot or a restore does while it writes objects. Waits while a collection runs.
pub(crate) fn snapshot_guard(dir: &Path) -> Result<File, VcsError> {
    let file = lock_file(dir)?;
    file.lock_shared()
        .map_err(|e| VcsError::io(dir.join(LOCK_FILE), e))?;
    Ok(file)
}

/// Mark the loose object `id` of repository `dir` as just used (its file's modification
/// time), so collection keeps it through the grace period. Best effort.
pub(crate) fn refresh(dir: &Path, id: ObjectId) {
    if let Ok(file) = File::options().write(true).open(loose_path(dir, &id)) {
        let _ = file.set_modified(SystemTime::now());
    }
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

/// Remove from repository `dir` every snapshot commit that `referenced` lacks, no ref names
/// and is older than `grace`, with every object no kept commit holds (see the module
/// documentation for what is kept). `dry_run` reports without removing. Waits while a
/// snapshot of the project is being written.
///
/// # Errors
/// [`VcsError::Repository`] when the repository cannot be read (nothing is removed then);
/// [`VcsError::Io`] when the lock, a ref, the `shallow` file or an object file cannot be
/// written (what was removed before stays removed, and the repository stays whole).
pub fn collect(
    dir: &Path,
    referenced: &HashSet<SnapshotId>,
    grace: Duration,
    dry_run: bool,
) -> Result<Collected, VcsError> {
    let lock = lock_file(dir)?;
    lock.lock()
        .map_err(|e| VcsError::io(dir.join(LOCK_FILE), e))?;
    let repo =
        gix::open_opts(dir, gix::open::Options::isolated()).map_err(|e| VcsError::repo(dir, e))?;
    let err = |e: &dyn std::fmt::Display| VcsError::repo(dir, e);
    let cutoff = SystemTime::now()
        .checked_sub(grace)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let loose = loose_objects(dir);
    let young = |id: &ObjectId| {
        loose
            .get(id)
            .is_some_and(|(modified, _)| *modified > cutoff)
    };
    let roots = ref_roots(dir);

    // Every commit with its parents.
    let mut parents: HashMap<ObjectId, Vec<ObjectId>> = HashMap::new();
    for id in loose.keys() {
        let header = repo.find_header(*id).map_err(|e| err(&e))?;
        if header.kind() == gix::object::Kind::Commit {
            let commit = repo.find_commit(*id).map_err(|e| err(&e))?;
            parents.insert(*id, commit.parent_ids().map(|p| p.detach()).collect());
        }
    }
    let mut report = Collected::default();
    let mut dropped = BTreeSet::new();
    for id in parents.keys() {
        if roots.contains(id) || referenced.contains(&SnapshotId(*id)) {
            continue;
        }
        if young(id) {
            report.young += 1;
        } else {
            dropped.insert(*id);
        }
    }

    // Everything a kept commit reaches, and what the stat cache vouches for, stays.
    let mut live: HashSet<ObjectId> = StatCache::load(dir).blob_ids().collect();
    let kept: Vec<ObjectId> = parents
        .keys()
        .filter(|c| !dropped.contains(*c))
        .copied()
        .collect();
    for commit in &kept {
        live.insert(*commit);
        if let Ok(tree) = repo
            .find_commit(*commit)
            .and_then(|c| c.tree_id().map(gix::Id::detach))
        {
            reach(&repo, tree, &mut live);
        }
    }
    let dead: Vec<ObjectId> = loose
        .keys()
        .filter(|id| !live.contains(*id) && !young(id) && !roots.contains(*id))
        .copied()
        .collect();
    report.snapshots = dropped.iter().map(|c| SnapshotId(*c)).collect();
    report.objects = dead.len() as u64;
    report.bytes = dead
        .iter()
        .map(|id| loose.get(id).map_or(0, |(_, b)| *b))
        .sum();
    if dry_run || dead.is_empty() {
        return Ok(report);
    }

    let mut shallow = read_shallow(dir);
    shallow.retain(|c| !dropped.contains(c));
    for commit in &kept {
        // A parent removed now, or one an earlier interrupted collection removed.
        if parents[commit]
            .iter()
            .any(|p| dropped.contains(p) || !repo.has_object(*p))
        {
            shallow.insert(*commit);
        }
    }
    write_shallow(dir, &shallow)?;
    write_keep_refs(dir, &roots, &kept, &parents, &shallow)?;
    // Commits first: an interruption leaves trees and blobs no commit names, never a commit
    // missing its tree.
    let (commits, rest): (Vec<ObjectId>, Vec<ObjectId>) =
        dead.into_iter().partition(|id| parents.contains_key(id));
    for id in commits.iter().chain(&rest) {
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
/// again: snapshots share most of their trees). A tree that cannot be read is passed over.
fn reach(repo: &gix::Repository, tree: ObjectId, live: &mut HashSet<ObjectId>) {
    let mut stack = vec![tree];
    while let Some(tree) = stack.pop() {
        if !live.insert(tree) {
            continue;
        }
        let Ok(found) = repo.find_tree(tree) else {
            continue;
        };
        let Ok(decoded) = found.decode() else {
            continue;
        };
        for entry in &decoded.entries {
            match entry.mode.kind() {
                EntryKind::Tree => stack.push(entry.oid.to_owned()),
                EntryKind::Commit => {}
                _ => {
                    live.insert(entry.oid.to_owned());
                }
            }
        }
    }
}

/// Every loose object of repository `dir`, with its file's modification time and size.
fn loose_objects(dir: &Path) -> HashMap<ObjectId, (SystemTime, u64)> {
    let mut out = HashMap::new();
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
        for entry in names.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            let (Ok(id), Ok(meta)) = (
                ObjectId::from_hex(format!("{fan_name}{name}").as_bytes()),
                entry.metadata(),
            ) else {
                continue;
            };
            let modified = meta.modified().unwrap_or(SystemTime::now());
            out.insert(id, (modified, meta.len()));
        }
    }
    out
}

/// What the repository's refs name (loose and packed), Smith's keep refs aside.
fn ref_roots(dir: &Path) -> HashSet<ObjectId> {
    let mut out = HashSet::new();
    let keep = dir.join(KEEP_REFS);
    let mut stack = vec![dir.join("refs")];
    while let Some(at) = stack.pop() {
        let Ok(entries) = fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.starts_with(&keep) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(text) = fs::read_to_string(&path)
                && let Ok(id) = ObjectId::from_hex(text.trim().as_bytes())
            {
                out.insert(id);
            }
        }
    }
    for line in fs::read_to_string(dir.join("packed-refs"))
        .unwrap_or_default()
        .lines()
    {
        let hex = line.trim_start_matches('^').split(' ').next().unwrap_or("");
        if let Ok(id) = ObjectId::from_hex(hex.as_bytes()) {
            out.insert(id);
        }
    }
    out
}

/// Replace Smith's keep refs: one for each kept commit that no other ref reaches through the
/// parents that stay.
fn write_keep_refs(
    dir: &Path,
    roots: &HashSet<ObjectId>,
    kept: &[ObjectId],
    parents: &HashMap<ObjectId, Vec<ObjectId>>,
    shallow: &BTreeSet<ObjectId>,
) -> Result<(), VcsError> {
    let mut reached: HashSet<ObjectId> = HashSet::new();
    let walk = |start: ObjectId, reached: &mut HashSet<ObjectId>| {
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            if !reached.insert(c) || shallow.contains(&c) {
                continue;
            }
            stack.extend(parents.get(&c).into_iter().flatten().copied());
        }
    };
    for root in roots {
        walk(*root, &mut reached);
    }
    let mut tips = Vec::new();
    // Newest first would be nicer, but any order gives a correct (if not minimal) set.
    let mut order: Vec<ObjectId> = kept.to_vec();
    order.sort();
    for commit in order {
        if !reached.contains(&commit) {
            walk(commit, &mut reached);
            tips.push(commit);
        }
    }
    let keep = dir.join(KEEP_REFS);
    if let Ok(old) = fs::read_dir(&keep) {
        for entry in old.flatten() {
            let _ = fs::remove_file(entry.path());
        }
    }
    if tips.is_empty() {
        return Ok(());
    }
    fs::create_dir_all(&keep).map_err(|e| VcsError::io(&keep, e))?;
    for tip in tips {
        let path = keep.join(tip.to_hex().to_string());
        fs::write(&path, format!("{tip}\n")).map_err(|e| VcsError::io(&path, e))?;
    }
    Ok(())
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
