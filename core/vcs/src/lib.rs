//! Smith's VCS (spec: Replay and VCS; DESIGN §11): snapshots of a project's working tree stored
//! as git objects in a Smith-owned repository, diffs between snapshots, and validated restores.
//!
//! - **Where**: one bare repository per project under the data home's `vcs/` directory
//!   (`<name>-<key>.git`, the key derived from the project root's canonical path). The user's
//!   own `.git` is never read for objects nor written: no refs, no objects, no config, no index,
//!   HEAD or branch of theirs is touched. The git CLI reads Smith's repository as any other
//!   (`git --git-dir DIR fsck`, `cat-file`, `log`).
//! - **What a snapshot holds**: every file the walk sees, with the ignore rules `find` and `grep`
//!   use (`.gitignore` inside a git work tree, `.ignore`, the repository's exclude file and the
//!   global excludes), hidden files included, `.git` excluded; regular files with their
//!   executable bit, symbolic links as links (never followed). Not held, and so never restored
//!   nor deleted by a restore: ignored files, files larger than [`Limits::max_file_bytes`]
//!   ([`Skipped`]), special files (sockets, devices, fifos), names that are not UTF-8, and empty
//!   directories (as in git).
//! - **Incremental**: a stat cache beside the repository (path → size, mtime, ctime, inode,
//!   mode, blob id, like git's index) means unchanged files are not read again; an entry whose
//!   mtime is not older than the cache file itself is re-read (git's "racily clean" rule).
//! - **Snapshot ids** are commit ids ([`SnapshotId`]): each snapshot commit's parent is the
//!   project's previous one, on the repository's `main` branch; a snapshot whose tree equals
//!   the latest one's returns the latest.
//! - **Collection** ([`collect`]): when the sessions that referenced some snapshots are
//!   deleted, those commits and the objects only they held are removed; a kept commit whose
//!   parent went is listed in git's `shallow` file, so the repository stays whole.
//!
//! Library code: it never prints and never panics on bad input; every failure is a typed
//! [`VcsError`] naming the path or id it concerns.

mod collect;
mod diff;
mod error;
mod project;
mod restore;
mod snapshot;
mod stat;
mod tree;

pub use collect::{Collected, collect, repository_of};
pub use diff::{Diff, FileChange, FileDiff, Stat, display_path};
pub use error::{PartialRestore, VcsError};
pub use project::{SnapshotId, Vcs, project_key};
pub use restore::{Restore, Restored};
pub use snapshot::{SkipReason, Skipped, Snapshot};

/// Bounds on what a snapshot stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest file, in bytes, a snapshot stores; a larger file is listed as [`Skipped`],
    /// left as it is by every restore, and makes a restore that would overwrite or delete it
    /// refuse (it could not be undone).
    pub max_file_bytes: u64,
}

/// The default bound: 16 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
        }
    }
}
