//! New session files, published whole: each is written under a temporary name and linked
//! into place, and the temporaries a killed process left behind are swept by a later one.

use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::Error;
use crate::format;
use crate::scan::io;

/// How old an unlocked temporary file must be before it counts as abandoned: a creating
/// process locks its temporary file within microseconds of creating it, so one older than
/// this and unlocked belongs to no live process.
pub const ABANDONED_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// Remove the temporary session files (`.<id>.smith.tmp`, written while a session is created
/// or forked and renamed into place when published) that a killed process or a full disk left
/// in `dir`. A file is removed only when no process holds its lock and it was last modified
/// more than [`ABANDONED_AFTER`] ago, so a live creator's file is never touched. Also removed:
/// the writer record's and the live feed's temporaries (`.<id>.smith.writer.<pid>`,
/// `.<id>.smith.live.<pid>`, renamed into place microseconds after they are written) older
/// than [`ABANDONED_AFTER`]. Returns how many were removed; a directory that does not exist
/// has none.
///
/// # Errors
/// The directory cannot be listed.
pub fn remove_abandoned_temporaries(dir: &Path) -> std::io::Result<usize> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let suffix = format!(".{}.tmp", format::FILE_EXTENSION);
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = entry.path();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > ABANDONED_AFTER));
        if old && renamed_temporary(name) {
            removed += usize::from(std::fs::remove_file(&path).is_ok());
            continue;
        }
        if !(name.starts_with('.') && name.ends_with(&suffix) && old) {
            continue;
        }
        // Holding its lock while removing it: no live writer can be mid-way through it.
        let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Whether `name` is a writer record's or a live feed's temporary: `.<id>.smith.writer.<pid>`
/// or `.<id>.smith.live.<pid>`.
fn renamed_temporary(name: &str) -> bool {
    let Some((stem, pid)) = name.rsplit_once('.') else {
        return false;
    };
    name.starts_with('.')
        && !pid.is_empty()
        && pid.bytes().all(|b| b.is_ascii_digit())
        && [".smith.writer", ".smith.live"]
            .iter()
            .any(|kind| stem.ends_with(kind))
}

/// Publish the complete file `temp` as `path`, never replacing a file already there: a hard
/// link is made (which fails when `path` exists, atomically, so two processes creating one id
/// cannot both succeed and lose one file), then the temporary name removed and the directory
/// synced. Where the file system has no hard links, a rename after a check stands in.
pub(crate) fn publish(temp: &Path, path: &Path, dir: &Path) -> Result<(), Error> {
    let exists = |source: std::io::Error| Error::Io {
        action: "publishing session file",
        path: path.to_owned(),
        source,
    };
    match std::fs::hard_link(temp, path) {
        Ok(()) => {
            std::fs::remove_file(temp).map_err(io("removing the temporary session file", temp))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(temp);
            return Err(exists(e));
        }
        Err(_) => {
            if path.exists() {
                let _ = std::fs::remove_file(temp);
                return Err(exists(std::io::ErrorKind::AlreadyExists.into()));
            }
            std::fs::rename(temp, path).map_err(io("publishing session file", path))?;
        }
    }
    sync_dir(dir)
}

fn sync_dir(dir: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io("syncing session directory", dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
