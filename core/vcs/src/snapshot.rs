//! Taking a snapshot: walk the working tree, read what changed, write blobs and trees, commit.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use gix::ObjectId;
use gix::objs::tree::{Entry, EntryKind};
use serde::Serialize;

use crate::stat::{Stamp, StatCache};
use crate::{SnapshotId, Vcs, VcsError};

/// A snapshot taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Its id (the latest snapshot's when nothing changed since).
    pub id: SnapshotId,
    /// Whether a new snapshot was recorded (`false`: the tree equals the latest snapshot's).
    pub created: bool,
    /// Files and links it holds.
    pub files: u64,
    /// Files read (the rest were known unchanged from the stat cache).
    pub read: u64,
    /// What the walk saw but the snapshot does not hold, in path order.
    pub skipped: Vec<Skipped>,
}

/// A path a snapshot does not hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Relative to the root, `/`-separated (lossy when not UTF-8).
    pub path: String,
    /// Why.
    pub reason: SkipReason,
}

/// Why a path is not held.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SkipReason {
    /// Larger than [`crate::Limits::max_file_bytes`].
    TooLarge {
        /// Its size, in bytes.
        bytes: u64,
    },
    /// A socket, device or fifo.
    Special,
    /// Its name is not UTF-8, so no tool can name it.
    NotUtf8,
    /// It could not be read.
    Unreadable {
        /// The operating system's answer.
        message: String,
    },
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge { bytes } => write!(f, "{bytes} bytes, over the snapshot bound"),
            Self::Special => f.write_str("a special file"),
            Self::NotUtf8 => f.write_str("its name is not UTF-8"),
            Self::Unreadable { message } => write!(f, "unreadable: {message}"),
        }
    }
}

/// What the walk found at a path.
enum Found {
    Entry(EntryKind, Stamp),
    Skip(SkipReason),
}

/// The walk's result before anything is written.
pub(crate) struct Scan {
    /// Path → (kind, blob id).
    pub(crate) files: BTreeMap<Vec<u8>, (EntryKind, ObjectId)>,
    pub(crate) read: u64,
    pub(crate) skipped: Vec<Skipped>,
}

impl Vcs {
    /// Snapshot the working tree. `note` lines are kept in the snapshot commit's message (for
    /// people reading the repository with git).
    ///
    /// # Errors
    /// [`VcsError::Repository`] when objects cannot be written; [`VcsError::NotADirectory`]
    /// when the root is gone.
    pub fn snapshot(&self, note: &str) -> Result<Snapshot, VcsError> {
        // From the first object written to the branch update, no collection may remove an
        // object this snapshot reuses.
        let _guard = crate::collect::snapshot_guard(&self.dir)?;
        let scan = self.scan()?;
        let tree = self.write_trees(&scan.files)?;
        let (id, created) = self.commit(tree, note, &scan.skipped)?;
        Ok(Snapshot {
            id,
            created,
            files: scan.files.len() as u64,
            read: scan.read,
            skipped: scan.skipped,
        })
    }

    /// Walk the root, reading only what the stat cache cannot vouch for, and save the cache.
    pub(crate) fn scan(&self) -> Result<Scan, VcsError> {
        if !self.root.is_dir() {
            return Err(VcsError::NotADirectory {
                path: self.root.clone(),
            });
        }
        let cache = StatCache::load(&self.dir);
        let mut scan = Scan {
            files: BTreeMap::new(),
            read: 0,
            skipped: Vec::new(),
        };
        let mut fresh = Vec::new();
        for seen in self.walk() {
            let (rel, found) = seen;
            let mut skip = |reason| {
                scan.skipped.push(Skipped {
                    path: String::from_utf8_lossy(&rel).into_owned(),
                    reason,
                });
            };
            let (kind, stamp) = match found {
                Found::Entry(kind, stamp) => (kind, stamp),
                Found::Skip(reason) => {
                    skip(reason);
                    continue;
                }
            };
            if kind != EntryKind::Link && stamp.size > self.limits.max_file_bytes {
                skip(SkipReason::TooLarge { bytes: stamp.size });
                continue;
            }
            let id = match cache.lookup(&rel, &stamp) {
                Some(id) => id,
                None => {
                    match self.read_blob(&self.root.join(std::ffi::OsStr::from_bytes(&rel)), kind) {
                        Ok(id) => {
                            scan.read += 1;
                            id
                        }
                        Err(VcsError::Io { source, .. }) => {
                            skip(SkipReason::Unreadable {
                                message: source.to_string(),
                            });
                            continue;
                        }
                        Err(e) => return Err(e),
                    }
                }
            };
            fresh.push((rel.clone(), stamp, id));
            scan.files.insert(rel, (kind, id));
        }
        // The cache is a hint: failing to save it costs the next snapshot time, nothing else.
        let _ = StatCache::save(&self.dir, &fresh);
        Ok(scan)
    }

    /// Every non-directory the ignore rules let through, with its kind and metadata, in path
    /// order. Two threads walk (a snapshot's time is mostly `lstat`); the walk never follows
    /// links, and skips `.git`, the snapshot store and the excluded directories.
    fn walk(&self) -> BTreeMap<Vec<u8>, Found> {
        let excluded = self.excluded.clone();
        let root = self.root.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        ignore::WalkBuilder::new(&self.root)
            .follow_links(false)
            .hidden(false)
            .require_git(true)
            .threads(2)
            .filter_entry(move |e| {
                e.file_name() != ".git" && !excluded.iter().any(|x| e.path() == x)
            })
            .build_parallel()
            .run(|| {
                let tx = tx.clone();
                let root = root.clone();
                Box::new(move |entry| {
                    let Ok(entry) = entry else {
                        return ignore::WalkState::Continue;
                    };
                    let Some(ty) = entry.file_type() else {
                        return ignore::WalkState::Continue;
                    };
                    if ty.is_dir() {
                        return ignore::WalkState::Continue;
                    }
                    let rel = entry.path().strip_prefix(&root).unwrap_or(entry.path());
                    let found = if rel.to_str().is_none() {
                        Found::Skip(SkipReason::NotUtf8)
                    } else {
                        match entry.metadata() {
                            Err(e) => Found::Skip(SkipReason::Unreadable {
                                message: e.to_string(),
                            }),
                            Ok(_) if !ty.is_symlink() && !ty.is_file() => {
                                Found::Skip(SkipReason::Special)
                            }
                            Ok(meta) => {
                                let kind = if ty.is_symlink() {
                                    EntryKind::Link
                                } else if meta.permissions().mode() & 0o111 != 0 {
                                    EntryKind::BlobExecutable
                                } else {
                                    EntryKind::Blob
                                };
                                Found::Entry(kind, Stamp::of(&meta))
                            }
                        }
                    };
                    let _ = tx.send((rel.as_os_str().as_bytes().to_vec(), found));
                    ignore::WalkState::Continue
                })
            });
        drop(tx);
        rx.into_iter().collect()
    }

    /// Store the content of the file (or the target of the link) at `path` as a blob.
    fn read_blob(&self, path: &Path, kind: EntryKind) -> Result<ObjectId, VcsError> {
        let data = if kind == EntryKind::Link {
            fs::read_link(path)
                .map(|t| t.as_os_str().as_bytes().to_vec())
                .map_err(|e| VcsError::io(path, e))?
        } else {
            fs::read(path).map_err(|e| VcsError::io(path, e))?
        };
        self.repo
            .write_blob(&data)
            .map(|id| id.detach())
            .map_err(|e| VcsError::repo(&self.dir, e))
    }

    /// Write the trees of `files` (sorted by path), deepest first; the root tree's id.
    pub(crate) fn write_trees(
        &self,
        files: &BTreeMap<Vec<u8>, (EntryKind, ObjectId)>,
    ) -> Result<ObjectId, VcsError> {
        // Directory path → its entries; every ancestor of a file is present.
        let mut dirs: BTreeMap<Vec<u8>, Vec<Entry>> = BTreeMap::new();
        dirs.insert(Vec::new(), Vec::new());
        for (path, (kind, id)) in files {
            let (parent, name) = split(path);
            let mut ancestor = parent;
            while !ancestor.is_empty() && !dirs.contains_key(ancestor) {
                dirs.insert(ancestor.to_vec(), Vec::new());
                ancestor = split(ancestor).0;
            }
            dirs.entry(parent.to_vec()).or_default().push(Entry {
                mode: (*kind).into(),
                filename: name.into(),
                oid: *id,
            });
        }
        // Deepest first, so a directory's subtrees are written before it.
        let mut order: Vec<Vec<u8>> = dirs.keys().cloned().collect();
        order.sort_by_key(|d| std::cmp::Reverse(depth(d)));
        let mut root = None;
        for dir in order {
            let mut entries = dirs.remove(&dir).unwrap_or_default();
            entries.sort();
            let id = self
                .repo
                .write_object(&gix::objs::Tree { entries })
                .map_err(|e| VcsError::repo(&self.dir, e))?
                .detach();
            if dir.is_empty() {
                root = Some(id);
            } else {
                let (parent, name) = split(&dir);
                dirs.entry(parent.to_vec()).or_default().push(Entry {
                    mode: EntryKind::Tree.into(),
                    filename: name.into(),
                    oid: id,
                });
            }
        }
        root.ok_or_else(|| VcsError::repo(&self.dir, "no root tree was written"))
    }
}

/// `a/b/c` → (`a/b`, `c`); `c` → (``, `c`).
pub(crate) fn split(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&[], path),
    }
}

fn depth(dir: &[u8]) -> usize {
    if dir.is_empty() {
        0
    } else {
        1 + dir.iter().filter(|&&b| b == b'/').count()
    }
}
