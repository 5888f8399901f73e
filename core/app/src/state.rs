//! Project and user plugin state (spec: Sessions → Scoped state): one JSON file per slot under
//! the data home — `state/user/OWNER/NAME.json` and `state/projects/NAME-KEY/OWNER/NAME.json`
//! (`NAME-KEY` as the project's history repository is named: `smith_vcs::project_key`) — each
//! written atomically (a temporary file beside it, synced, renamed, the directory synced), so a
//! reader sees the old value or the new one, never a mix. A file holds `{"version":N,"value":…}`.
//! Branch and session state are the session's records (`smith_store`).

use std::path::{Path, PathBuf};

use smith::{EntryId, ScopedState, StateError, StateKey, StateScope, StateValue};

/// The largest state file read, in bytes (a slot's bound is at most 1 MiB of JSON text, and
/// the file adds the version around it).
const MAX_FILE_BYTES: u64 = (1 << 20) + 64;

/// Project and user state kept in files under `root` (the data home's `state/`).
#[derive(Debug)]
pub struct StateFiles {
    user: PathBuf,
    project: PathBuf,
}

impl StateFiles {
    /// The files under `root` (the data home's `state/` directory) for the project `project`
    /// (its root, absolute). Nothing is created until a value is written.
    pub fn new(root: &Path, project: &Path) -> Self {
        Self {
            user: root.join("user"),
            project: root.join("projects").join(smith_vcs::project_key(project)),
        }
    }

    fn path(&self, key: &StateKey) -> Result<PathBuf, StateError> {
        let base = match key.scope {
            StateScope::User => &self.user,
            StateScope::Project => &self.project,
            other => return Err(StateError::Unavailable(other.name())),
        };
        // Owner and name are manifest ids (lowercase letters, digits, `-`): plain file names.
        Ok(base.join(&key.owner).join(format!("{}.json", key.name)))
    }
}

fn storage(
    scope: StateScope,
    source: impl std::error::Error + Send + Sync + 'static,
) -> StateError {
    StateError::Storage {
        scope: scope.name(),
        source: Box::new(source),
    }
}

/// A state file that is not what Smith writes.
#[derive(Debug, thiserror::Error)]
#[error("state file {path} is not a state value ({why}); remove it to start the slot afresh")]
struct Malformed {
    path: PathBuf,
    why: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    version: u32,
    value: serde_json::Value,
}

impl ScopedState for StateFiles {
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError> {
        use std::io::Read as _;
        let path = self.path(key)?;
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(storage(key.scope, e)),
        };
        let mut text = String::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| storage(key.scope, e))?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(storage(
                key.scope,
                Malformed {
                    path,
                    why: format!("it is over {MAX_FILE_BYTES} bytes"),
                },
            ));
        }
        let stored: Stored = serde_json::from_str(&text).map_err(|e| {
            storage(
                key.scope,
                Malformed {
                    path: path.clone(),
                    why: e.to_string(),
                },
            )
        })?;
        Ok(Some(StateValue {
            version: stored.version,
            value: stored.value,
        }))
    }

    fn set(
        &self,
        key: &StateKey,
        value: Option<StateValue>,
        _cause: Option<EntryId>,
    ) -> Result<(), StateError> {
        let path = self.path(key)?;
        let Some(value) = value else {
            return match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(storage(key.scope, e)),
                _ => Ok(()),
            };
        };
        let text = serde_json::to_vec(&Stored {
            version: value.version,
            value: value.value,
        })
        .map_err(|e| storage(key.scope, e))?;
        write_atomic(&path, &text).map_err(|e| storage(key.scope, e))
    }
}

/// Write `bytes` to `path` atomically, creating its directory (mode 0700: state may name what
/// the user allowed).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::DirBuilderExt as _;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(scope: StateScope) -> StateKey {
        StateKey {
            owner: "permissions".into(),
            name: "allowed".into(),
            scope,
        }
    }

    #[test]
    fn values_are_kept_per_project_and_per_user_and_survive_a_new_store() {
        let home = tempfile::tempdir().unwrap();
        let a = StateFiles::new(home.path(), Path::new("/work/a"));
        let b = StateFiles::new(home.path(), Path::new("/work/b"));
        let v = |n: i64| StateValue {
            version: 2,
            value: serde_json::json!({ "n": n }),
        };
        a.set(&key(StateScope::Project), Some(v(1)), None).unwrap();
        a.set(&key(StateScope::User), Some(v(9)), None).unwrap();
        assert_eq!(a.get(&key(StateScope::Project)).unwrap(), Some(v(1)));
        assert_eq!(b.get(&key(StateScope::Project)).unwrap(), None);
        assert_eq!(b.get(&key(StateScope::User)).unwrap(), Some(v(9)));
        let again = StateFiles::new(home.path(), Path::new("/work/a"));
        assert_eq!(again.get(&key(StateScope::Project)).unwrap(), Some(v(1)));
        again.set(&key(StateScope::Project), None, None).unwrap();
        assert_eq!(a.get(&key(StateScope::Project)).unwrap(), None);
        assert!(a.get(&key(StateScope::Session)).is_err());
    }

    #[test]
    fn a_damaged_file_is_a_typed_error_naming_it() {
        let home = tempfile::tempdir().unwrap();
        let files = StateFiles::new(home.path(), Path::new("/p"));
        let path = files.path(&key(StateScope::User)).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{not json").unwrap();
        let err = files.get(&key(StateScope::User)).unwrap_err().to_string();
        assert!(
            err.contains("allowed.json") && err.contains("remove it"),
            "{err}"
        );
    }
}
