//! Restoring the working tree to a snapshot, after checking that nothing a snapshot does not
//! hold would be lost and that no write goes through a symbolic link.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::objs::tree::EntryKind;

use crate::snapshot::split;
use crate::tree::Files;
use crate::{SkipReason, Snapshot, SnapshotId, Vcs, VcsError};

/// How to restore.
#[derive(Clone, Debug, Default)]
pub struct Restore {
    /// The snapshot the working tree must still equal (the latest one recorded for the
    /// session); `None` snapshots whatever is there first, so it can be restored back.
    pub expect: Option<SnapshotId>,
    /// Lines kept in the message of the snapshot taken before restoring.
    pub note: String,
}

/// A restore done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restored {
    /// The snapshot of the working tree as it was just before (restoring to it undoes this).
    pub before: Snapshot,
    /// The snapshot restored to.
    pub target: SnapshotId,
    /// Paths written (created, changed, or with a new mode), in path order.
    pub written: Vec<String>,
    /// Paths deleted, in path order.
    pub deleted: Vec<String>,
}

const MAX_NAMED: usize = 10;

impl Vcs {
    /// Make the working tree hold exactly what snapshot `target` holds (files a snapshot does
    /// not hold — ignored, over the bound, special — are left as they are).
    ///
    /// # Errors
    /// Each refusal changes nothing in the working tree: [`VcsError::Changed`] when the tree
    /// no longer equals `options.expect`; [`VcsError::Unsnapshotted`] when a path to overwrite
    /// or delete is not in the snapshot of the tree as it is; [`VcsError::ThroughLink`] when a
    /// path's directory is a symbolic link no snapshot holds; [`VcsError::NotWritable`] when
    /// the root refuses a write. [`VcsError::Io`] when a write fails part way (the snapshot
    /// taken before, [`Restored::before`], is named in no result then: restore to
    /// [`Vcs::latest`]'s parent to go back).
    pub fn restore(&self, target: SnapshotId, options: &Restore) -> Result<Restored, VcsError> {
        // The snapshot taken before writes objects: no collection may remove one it reuses.
        let _guard = crate::collect::snapshot_guard(&self.dir)?;
        let wanted = self.files(target)?;
        let scan = self.scan()?;
        let tree = self.write_trees(&scan.files)?;
        if let Some(expect) = options.expect
            && self.tree_of(expect)? != tree
        {
            let was = self.files(expect)?;
            let changed: Vec<String> = crate::diff::changes(&was, &scan.files)
                .into_iter()
                .map(|(p, _)| String::from_utf8_lossy(p).into_owned())
                .collect();
            return Err(VcsError::Changed {
                since: expect,
                more: changed.len().saturating_sub(MAX_NAMED),
                paths: changed.into_iter().take(MAX_NAMED).collect(),
            });
        }
        let skipped: BTreeMap<&str, &SkipReason> = scan
            .skipped
            .iter()
            .map(|s| (s.path.as_str(), &s.reason))
            .collect();
        let mut plan = Plan::new(&scan.files, &wanted);
        // A path the target snapshot left out (too large then, special) is not absent from it:
        // it is left as it is.
        let left_out = self.skipped_of(target)?;
        plan.deletes.retain(|p| !left_out.contains(p));
        plan.check(&self.root, &scan.files, &skipped)?;
        self.probe_writable()?;
        let (id, created) = self.commit(tree, &options.note, &scan.skipped)?;
        let before = Snapshot {
            id,
            created,
            files: scan.files.len() as u64,
            read: scan.read,
            skipped: scan.skipped.clone(),
        };
        if let Err(failure) = self.apply(&plan, &wanted) {
            return Err(self.roll_back(failure, &scan.files, id));
        }
        Ok(Restored {
            before,
            target,
            written: plan.writes.iter().map(|p| lossy(p)).collect(),
            deleted: plan.deletes.iter().map(|p| lossy(p)).collect(),
        })
    }

    /// Write what snapshot `target` holds into `into`, an empty directory (created when
    /// missing) outside the project: a copy of the tree as it was, for work that must not
    /// touch the project (re-running a session's tool calls). Returns how many files and
    /// links were written.
    ///
    /// # Errors
    /// [`VcsError::NotWritable`] when `into` is not an empty directory that can be written;
    /// [`VcsError::UnknownSnapshot`] and the repository's errors for `target`;
    /// [`VcsError::Io`] when a write fails (what was written stays).
    pub fn export(&self, target: SnapshotId, into: &Path) -> Result<u64, VcsError> {
        let refuse = |why: &str| VcsError::NotWritable {
            path: into.to_path_buf(),
            source: std::io::Error::other(why.to_owned()),
        };
        fs::create_dir_all(into).map_err(|source| VcsError::NotWritable {
            path: into.to_path_buf(),
            source,
        })?;
        let mut entries = fs::read_dir(into).map_err(|e| VcsError::io(into, e))?;
        if entries.next().is_some() {
            return Err(refuse("the directory is not empty"));
        }
        let files = self.files(target)?;
        for (path, &(kind, id)) in &files {
            // A tree of this repository holds no such name; refuse rather than write outside.
            if path
                .split(|&b| b == b'/')
                .any(|c| c.is_empty() || c == b"." || c == b"..")
            {
                return Err(refuse(
                    "the snapshot holds a path that leaves the directory",
                ));
            }
            let full = into.join(std::ffi::OsStr::from_bytes(path));
            if let Some(parent) = full.parent() {
                fs::create_dir_all(parent).map_err(|e| VcsError::io(parent, e))?;
            }
            self.write_file(&full, kind, id)?;
        }
        Ok(files.len() as u64)
    }

    /// After `failure` part way through a restore, put the paths already changed back as
    /// `before` (the tree scanned before it) holds them.
    fn roll_back(&self, failure: VcsError, before: &Files, id: SnapshotId) -> VcsError {
        let failure = Box::new(failure);
        let back = self
            .scan()
            .and_then(|now| self.apply(&Plan::new(&now.files, before), before));
        VcsError::Partial(Box::new(match back {
            Ok(()) => crate::error::PartialRestore::RolledBack { failure },
            Err(rollback) => crate::error::PartialRestore::Partly {
                failure,
                rollback: Box::new(rollback),
                before: id,
            },
        }))
    }

    fn probe_writable(&self) -> Result<(), VcsError> {
        let probe = self
            .root
            .join(format!(".smith-restore-{}.tmp", std::process::id()));
        fs::write(&probe, b"")
            .and_then(|()| fs::remove_file(&probe))
            .map_err(|source| VcsError::NotWritable {
                path: self.root.clone(),
                source,
            })
    }

    fn apply(&self, plan: &Plan, wanted: &Files) -> Result<(), VcsError> {
        for path in &plan.deletes {
            let full = self.root.join(std::ffi::OsStr::from_bytes(path));
            match fs::remove_file(&full) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(VcsError::io(full, e)),
            }
            self.prune(path);
        }
        for path in &plan.writes {
            let Some(&(kind, id)) = wanted.get(path) else {
                continue;
            };
            let full = self.root.join(std::ffi::OsStr::from_bytes(path));
            if let Some(parent) = full.parent() {
                fs::create_dir_all(parent).map_err(|e| VcsError::io(parent, e))?;
            }
            if plan.mode_only.contains(path) {
                set_mode(&full, kind)?;
            } else {
                self.write_file(&full, kind, id)?;
            }
        }
        Ok(())
    }

    fn write_file(&self, full: &Path, kind: EntryKind, id: ObjectId) -> Result<(), VcsError> {
        let data = self.blob(id)?;
        if kind == EntryKind::Link {
            let _ = fs::remove_file(full);
            return std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(&data), full)
                .map_err(|e| VcsError::io(full, e));
        }
        let name = full
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = full.with_file_name(format!(".{name}.smith-{}.tmp", std::process::id()));
        let old = fs::symlink_metadata(full)
            .ok()
            .filter(fs::Metadata::is_file);
        let result = fs::write(&tmp, &data)
            .and_then(|()| {
                fs::set_permissions(
                    &tmp,
                    fs::Permissions::from_mode(permissions(old.as_ref(), kind)),
                )
            })
            .and_then(|()| fs::rename(&tmp, full));
        result.map_err(|e| {
            let _ = fs::remove_file(&tmp);
            VcsError::io(full, e)
        })
    }

    /// Remove the directories above `path` that its deletion left empty.
    fn prune(&self, path: &[u8]) {
        let mut dir = split(path).0;
        while !dir.is_empty() {
            if fs::remove_dir(self.root.join(std::ffi::OsStr::from_bytes(dir))).is_err() {
                break;
            }
            dir = split(dir).0;
        }
    }
}

/// The mode bits for a file of `kind`: the old file's read and write bits, with execute bits
/// where it is readable when executable (git's 755/644 for a new file).
fn permissions(old: Option<&fs::Metadata>, kind: EntryKind) -> u32 {
    let base = old.map_or(0o644, |m| m.permissions().mode() & 0o666);
    if kind == EntryKind::BlobExecutable {
        base | ((base & 0o444) >> 2)
    } else {
        base
    }
}

fn set_mode(full: &Path, kind: EntryKind) -> Result<(), VcsError> {
    let meta = fs::symlink_metadata(full).map_err(|e| VcsError::io(full, e))?;
    fs::set_permissions(
        full,
        fs::Permissions::from_mode(permissions(Some(&meta), kind)),
    )
    .map_err(|e| VcsError::io(full, e))
}

fn lossy(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}

/// What a restore changes: paths to delete, then paths to write.
struct Plan {
    deletes: Vec<Vec<u8>>,
    writes: Vec<Vec<u8>>,
    mode_only: BTreeSet<Vec<u8>>,
}

impl Plan {
    fn new(now: &Files, wanted: &Files) -> Self {
        let mut plan = Self {
            deletes: Vec::new(),
            writes: Vec::new(),
            mode_only: BTreeSet::new(),
        };
        for (path, (old, new)) in crate::diff::changes(now, wanted) {
            match (old, new) {
                (Some(_), None) => plan.deletes.push(path.clone()),
                (None, Some(_)) => plan.writes.push(path.clone()),
                (Some((ka, a)), Some((kb, b))) => {
                    let link_change = (ka == EntryKind::Link) != (kb == EntryKind::Link);
                    if link_change {
                        plan.deletes.push(path.clone());
                    } else if a == b {
                        plan.mode_only.insert(path.clone());
                    }
                    plan.writes.push(path.clone());
                }
                (None, None) => {}
            }
        }
        plan
    }

    /// Refuse before anything is touched: a path to write or delete (or a directory on its way)
    /// that is on disk but in no snapshot, or that is reached through a symbolic link.
    fn check(
        &self,
        root: &Path,
        now: &Files,
        skipped: &BTreeMap<&str, &SkipReason>,
    ) -> Result<(), VcsError> {
        let deleted: BTreeSet<&[u8]> = self.deletes.iter().map(Vec::as_slice).collect();
        let why = |rel: &[u8]| {
            let text = lossy(rel);
            let reason = skipped.get(text.as_str()).map_or_else(
                || "ignored by the ignore rules".to_owned(),
                ToString::to_string,
            );
            VcsError::Unsnapshotted {
                path: text,
                why: reason,
            }
        };
        'paths: for path in self.deletes.iter().chain(&self.writes) {
            // Every directory on the way must be a directory, or a file or link this restore
            // deletes first (then what lies below it is created afresh: nothing to check).
            let mut end = 0;
            while let Some(i) = path[end..].iter().position(|&b| b == b'/') {
                end += i;
                let dir = &path[..end];
                end += 1;
                let full = root.join(std::ffi::OsStr::from_bytes(dir));
                let Ok(meta) = fs::symlink_metadata(&full) else {
                    break;
                };
                if deleted.contains(dir) {
                    continue 'paths;
                }
                if meta.is_dir() {
                    continue;
                }
                if meta.file_type().is_symlink() {
                    let target = fs::read_link(&full)
                        .map(|t| t.display().to_string())
                        .unwrap_or_default();
                    return Err(VcsError::ThroughLink {
                        path: lossy(dir),
                        target,
                    });
                }
                return Err(why(dir));
            }
            if now.contains_key(path) {
                continue;
            }
            let full = root.join(std::ffi::OsStr::from_bytes(path));
            match fs::symlink_metadata(&full) {
                Err(_) => {}
                Ok(meta) if meta.is_dir() => {
                    unheld_below(root, &full, now, &deleted).map_or(Ok(()), |p| Err(why(&p)))?
                }
                Ok(_) => return Err(why(path)),
            }
        }
        Ok(())
    }
}

/// The first file under directory `dir` that no snapshot holds and this restore does not
/// delete: writing a file where `dir` is needs it gone.
fn unheld_below(
    root: &Path,
    dir: &Path,
    now: &Files,
    deleted: &BTreeSet<&[u8]>,
) -> Option<Vec<u8>> {
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .as_os_str()
                .as_bytes()
                .to_vec();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                _ if now.contains_key(&rel) && deleted.contains(rel.as_slice()) => {}
                _ => return Some(rel),
            }
        }
    }
    None
}
