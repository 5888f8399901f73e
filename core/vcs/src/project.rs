//! The Smith-owned repository of one project: where it lives, opening it, snapshot ids and the
//! chain of snapshot commits.

use std::fs;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::refs::transaction::PreviousValue;

use crate::{Limits, VcsError};

/// The file in the repository naming the project root it belongs to.
pub(crate) const ROOT_FILE: &str = "smith-root";
/// The branch of snapshot commits.
pub(crate) const BRANCH: &str = "refs/heads/main";
/// The first line of every snapshot commit's message.
pub(crate) const MESSAGE: &str = "smith snapshot";

/// A snapshot's id: the id of its commit in the project's snapshot repository (40 hexadecimal
/// digits; [`SnapshotId::short`] gives 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SnapshotId(pub(crate) ObjectId);

impl SnapshotId {
    /// The full id, 40 hexadecimal digits.
    #[must_use]
    pub fn to_hex(&self) -> String {
        self.0.to_hex().to_string()
    }

    /// The first 12 digits, for display.
    #[must_use]
    pub fn short(&self) -> String {
        self.0.to_hex_with_len(12).to_string()
    }

    /// A full id from its 40 digits (no lookup: use [`Vcs::resolve`] for text a person gave).
    ///
    /// # Errors
    /// [`VcsError::BadId`] when `hex` is not 40 hexadecimal digits.
    pub fn from_hex(hex: &str) -> Result<Self, VcsError> {
        ObjectId::from_hex(hex.as_bytes())
            .map(Self)
            .map_err(|_| VcsError::BadId { text: hex.into() })
    }
}

impl std::fmt::Display for SnapshotId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One project's snapshot repository, opened for a working tree root.
pub struct Vcs {
    pub(crate) repo: gix::Repository,
    pub(crate) dir: PathBuf,
    pub(crate) root: PathBuf,
    pub(crate) store: PathBuf,
    /// Directories the walk never enters (canonical): the store, and those [`Vcs::exclude`]
    /// adds.
    pub(crate) excluded: Vec<PathBuf>,
    pub(crate) limits: Limits,
}

impl std::fmt::Debug for Vcs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vcs")
            .field("dir", &self.dir)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// The repository directory name for a canonical root: [`project_key`] and `.git`.
pub(crate) fn repo_name(root: &Path) -> String {
    format!("{}.git", project_key(root))
}

/// A directory name standing for the project at canonical `root` in Smith's data home
/// (`NAME-KEY`): its last component (for people; characters other than ASCII letters, digits,
/// `-` and `_` as `_`, at most 40) and 16 hexadecimal digits of the SHA-1 of its path (for
/// uniqueness).
pub fn project_key(root: &Path) -> String {
    use std::os::unix::ffi::OsStrExt as _;
    let key = gix::objs::compute_hash(
        gix::hash::Kind::Sha1,
        gix::objs::Kind::Blob,
        root.as_os_str().as_bytes(),
    )
    .map(|id| id.to_hex_with_len(16).to_string())
    .unwrap_or_else(|_| "0".repeat(16));
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    format!("{name}-{key}")
}

impl Vcs {
    /// Open (creating when missing) the snapshot repository of the project rooted at `root`,
    /// inside `store` (the data home's `vcs/` directory).
    ///
    /// # Errors
    /// [`VcsError::NotADirectory`] when `root` is not a directory; [`VcsError::NotWritable`]
    /// when `store` cannot be created; [`VcsError::Repository`] when the repository cannot be
    /// opened or created; [`VcsError::ForeignRepository`] when it records another root.
    pub fn open(store: &Path, root: &Path, limits: Limits) -> Result<Self, VcsError> {
        let not_dir = || VcsError::NotADirectory {
            path: root.to_path_buf(),
        };
        let root = fs::canonicalize(root).map_err(|_| not_dir())?;
        if !root.is_dir() {
            return Err(not_dir());
        }
        // The snapshots hold the project's files as they are, secrets included: private to
        // the user, like the sessions.
        std::os::unix::fs::DirBuilderExt::mode(fs::DirBuilder::new().recursive(true), 0o700)
            .create(store)
            .map_err(|source| VcsError::NotWritable {
                path: store.to_path_buf(),
                source,
            })?;
        let store = fs::canonicalize(store).map_err(|e| VcsError::io(store, e))?;
        let dir = store.join(repo_name(&root));
        let root_file = dir.join(ROOT_FILE);
        let repo = if root_file.is_file() {
            let recorded =
                fs::read_to_string(&root_file).map_err(|e| VcsError::io(&root_file, e))?;
            let recorded = PathBuf::from(recorded.trim_end_matches('\n'));
            if recorded != root {
                return Err(VcsError::ForeignRepository {
                    dir,
                    recorded,
                    root,
                });
            }
            gix::open_opts(&dir, gix::open::Options::isolated())
                .map_err(|e| VcsError::repo(&dir, e))?
        } else {
            let repo = gix::ThreadSafeRepository::init_opts(
                &dir,
                gix::create::Kind::Bare,
                gix::create::Options::default(),
                gix::open::Options::isolated(),
            )
            .map_err(|e| VcsError::repo(&dir, e))?
            .to_thread_local();
            let text = format!("{}\n", root.display());
            fs::write(&root_file, text).map_err(|e| VcsError::io(&root_file, e))?;
            repo
        };
        Ok(Self {
            repo,
            dir,
            root,
            excluded: vec![store.clone()],
            store,
            limits,
        })
    }

    /// Leave directory `dir` out of every snapshot (Smith's own data under the project root,
    /// such as a sessions directory): it is neither snapshotted nor restored. A path that does
    /// not resolve is ignored.
    pub fn exclude(&mut self, dir: &Path) {
        if let Ok(dir) = fs::canonicalize(dir) {
            self.excluded.push(dir);
        }
    }

    /// The project root (canonical).
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The snapshot repository's directory (a bare git repository).
    #[must_use]
    pub fn repository(&self) -> &Path {
        &self.dir
    }

    /// The latest snapshot of this project, when there is one.
    ///
    /// # Errors
    /// [`VcsError::Repository`] when the branch cannot be read.
    pub fn latest(&self) -> Result<Option<SnapshotId>, VcsError> {
        let found = self
            .repo
            .try_find_reference(BRANCH)
            .map_err(|e| VcsError::repo(&self.dir, e))?;
        Ok(found.and_then(|r| r.target().try_id().map(|id| SnapshotId(id.to_owned()))))
    }

    /// The tree id of snapshot `id`.
    pub(crate) fn tree_of(&self, id: SnapshotId) -> Result<ObjectId, VcsError> {
        let commit = self
            .repo
            .find_commit(id.0)
            .map_err(|e| VcsError::repo(&self.dir, e))?;
        commit
            .tree_id()
            .map(|t| t.detach())
            .map_err(|e| VcsError::repo(&self.dir, e))
    }

    /// Whether snapshots `a` and `b` hold the same tree.
    ///
    /// # Errors
    /// [`VcsError::Repository`] when either cannot be read.
    pub fn same_tree(&self, a: SnapshotId, b: SnapshotId) -> Result<bool, VcsError> {
        Ok(a == b || self.tree_of(a)? == self.tree_of(b)?)
    }

    /// Record `tree` as a snapshot: the latest snapshot when its tree is the same, else a new
    /// commit on the branch whose parent is the latest. `note` lines follow the message's
    /// first line. Returns the id and whether a commit was made.
    pub(crate) fn commit(
        &self,
        tree: ObjectId,
        note: &str,
        skipped: &[crate::Skipped],
    ) -> Result<(SnapshotId, bool), VcsError> {
        let left_out: std::collections::BTreeSet<Vec<u8>> =
            skipped.iter().map(|s| s.path.as_bytes().to_vec()).collect();
        let err = |e: &dyn std::fmt::Display| VcsError::repo(&self.dir, e);
        // Another process may move the branch between reading and writing it: the update is
        // conditional on the value read, and retried on the new one.
        for _ in 0..8 {
            let latest = self.latest()?;
            if let Some(latest) = latest
                && self.tree_of(latest)? == tree
                && self.skipped_of(latest)? == left_out
            {
                // Handed out again: collection keeps it through its grace period.
                crate::collect::refresh(&self.dir, latest.0);
                return Ok((latest, false));
            }
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let who = gix::actor::Signature {
                name: "Smith".into(),
                email: "smith@localhost".into(),
                time: gix::date::Time {
                    seconds: i64::try_from(now).unwrap_or(i64::MAX),
                    offset: 0,
                },
            };
            let message = message(note, &left_out);
            let commit = gix::objs::Commit {
                tree,
                parents: latest.map(|l| l.0).into_iter().collect(),
                author: who.clone(),
                committer: who,
                encoding: None,
                message: message.into(),
                extra_headers: Vec::new(),
            };
            let id = self
                .repo
                .write_object(&commit)
                .map_err(|e| err(&e))?
                .detach();
            let previous = match latest {
                Some(l) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(l.0)),
                None => PreviousValue::MustNotExist,
            };
            match self.repo.reference(BRANCH, id, previous, "smith snapshot") {
                Ok(_) => return Ok((SnapshotId(id), true)),
                Err(_) if self.latest()? != latest => continue,
                Err(e) => return Err(err(&e)),
            }
        }
        Err(VcsError::repo(
            &self.dir,
            "the snapshot branch kept moving; try again",
        ))
    }

    /// The snapshot a person named: its full id or a prefix of at least 7 digits.
    ///
    /// # Errors
    /// [`VcsError::BadId`] for text that is not an id; [`VcsError::Ambiguous`] for a prefix of
    /// several; [`VcsError::UnknownSnapshot`] when this project has none (naming the project
    /// that does, when another project's repository in the store holds it).
    pub fn resolve(&self, text: &str) -> Result<SnapshotId, VcsError> {
        let text = text.trim();
        if !(7..=40).contains(&text.len()) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(VcsError::BadId { text: text.into() });
        }
        let hex = text.to_ascii_lowercase();
        let found = find_loose(&self.dir, &hex);
        match found.as_slice() {
            [one] if self.is_snapshot(*one) => Ok(SnapshotId(*one)),
            [_, _, ..] => Err(VcsError::Ambiguous { id: text.into() }),
            _ => Err(VcsError::UnknownSnapshot {
                id: text.into(),
                project: self.root.clone(),
                other: self.owner_elsewhere(&hex),
            }),
        }
    }

    /// The paths snapshot `id` left out (over the size bound, special, unreadable): not absent
    /// from it, only not held, so a diff does not show them and a restore leaves them alone.
    ///
    /// # Errors
    /// [`VcsError::Repository`] when the snapshot cannot be read.
    pub(crate) fn skipped_of(
        &self,
        id: SnapshotId,
    ) -> Result<std::collections::BTreeSet<Vec<u8>>, VcsError> {
        let commit = self
            .repo
            .find_commit(id.0)
            .map_err(|e| VcsError::repo(&self.dir, e))?;
        let raw = commit
            .message_raw()
            .map_err(|e| VcsError::repo(&self.dir, e))?;
        Ok(raw
            .split(|&b| b == b'\n')
            .filter_map(|line| line.strip_prefix(SKIPPED.as_bytes()))
            .filter_map(|json| serde_json::from_slice::<String>(json).ok())
            .map(String::into_bytes)
            .collect())
    }

    fn is_snapshot(&self, id: ObjectId) -> bool {
        self.repo
            .find_commit(id)
            .ok()
            .and_then(|c| {
                c.message_raw()
                    .ok()
                    .map(|m| m.starts_with(MESSAGE.as_bytes()))
            })
            .unwrap_or(false)
    }

    /// The root recorded by another repository in the store holding a snapshot `hex`.
    fn owner_elsewhere(&self, hex: &str) -> Option<PathBuf> {
        let entries = fs::read_dir(&self.store).ok()?;
        entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| *p != self.dir && !find_loose(p, hex).is_empty())
            .find_map(|p| fs::read_to_string(p.join(ROOT_FILE)).ok())
            .map(|t| PathBuf::from(t.trim_end_matches('\n')))
    }
}

/// The loose objects of repository `dir` whose id starts with `hex` (snapshots are never
/// packed: Smith writes loose objects and never runs gc).
fn find_loose(dir: &Path, hex: &str) -> Vec<ObjectId> {
    let (fan, rest) = hex.split_at(2);
    let Ok(entries) = fs::read_dir(dir.join("objects").join(fan)) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.starts_with(rest))
        .filter_map(|name| ObjectId::from_hex(format!("{fan}{name}").as_bytes()).ok())
        .collect()
}

/// The trailer line naming a path a snapshot left out: `Skipped: "PATH"` (a JSON string).
const SKIPPED: &str = "Skipped: ";

/// A snapshot commit's message: the first line, the note (a note line that would read as a
/// trailer is indented, so a note cannot claim a path was left out), and one trailer line per
/// path left out.
fn message(note: &str, left_out: &std::collections::BTreeSet<Vec<u8>>) -> String {
    let mut out = format!("{MESSAGE}\n");
    let note = note.trim_end();
    if !note.is_empty() {
        out.push('\n');
        for line in note.lines() {
            if line.starts_with(SKIPPED.trim_end()) {
                out.push(' ');
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    if !left_out.is_empty() {
        out.push('\n');
        for path in left_out {
            let text = String::from_utf8_lossy(path);
            out.push_str(SKIPPED);
            out.push_str(&serde_json::to_string(&*text).unwrap_or_default());
            out.push('\n');
        }
    }
    out
}
