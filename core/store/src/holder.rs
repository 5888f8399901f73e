//! Who writes a session: the writer's identity (process id, host, frontend, start time),
//! recorded beside the session file while a [`SessionWriter`](crate::SessionWriter) holds it,
//! so that a second opener, which gets read-only observer access, can say who owns the session
//! (spec: Interface modes → Interactive — "Observer mode visibly identifies read-only access
//! and writer ownership").
//!
//! The record is a small JSON file, `.<id>.smith.writer`, next to `<id>.smith`: written (to a
//! temporary name, then renamed) when the writer takes the lock and removed when the writer is
//! dropped. It is advice, not authority — the OS lock on the session file alone decides who
//! writes — so a record a killed process left behind is read only while the lock is held by
//! someone, and a missing or unreadable record makes the owner "unknown", never an error.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The frontend this process serves (`tui`, `eval`, `rpc`, `mcp`), set once by the binary.
static FRONTEND: OnceLock<String> = OnceLock::new();

/// Name the frontend this process serves; every writer it opens records it. The first call
/// wins; later calls are ignored.
pub fn set_frontend(name: &str) {
    let _ = FRONTEND.set(name.to_owned());
}

/// The identity of a session's writer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// The writing process's id.
    pub pid: u32,
    /// The host it runs on (`/proc/sys/kernel/hostname`, else `HOSTNAME`, else `unknown`).
    pub host: String,
    /// The frontend it serves (`tui`, `eval`, `rpc`, `mcp`; `smith` when unnamed).
    pub frontend: String,
    /// When it took the writer lock: milliseconds since the Unix epoch, UTC.
    pub started_ms: i64,
}

impl Holder {
    /// This process, starting now.
    pub fn current() -> Self {
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().to_owned())
            .filter(|h| !h.is_empty())
            .or_else(|| std::env::var("HOSTNAME").ok())
            .unwrap_or_else(|| "unknown".to_owned());
        let started_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Self {
            pid: std::process::id(),
            host,
            frontend: FRONTEND
                .get()
                .cloned()
                .unwrap_or_else(|| "smith".to_owned()),
            started_ms,
        }
    }
}

/// Where the writer record of the session file `session` lives.
pub fn holder_path(session: &Path) -> PathBuf {
    let name = session
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    session.with_file_name(format!(".{name}.writer"))
}

/// The recorded writer of the session file `session`, if a readable record is there (at most
/// 4 KiB; anything else is `None`).
pub fn read_holder(session: &Path) -> Option<Holder> {
    let text = std::fs::read(holder_path(session)).ok()?;
    if text.len() > 4096 {
        return None;
    }
    serde_json::from_slice(&text).ok()
}

/// A writer's record on disk, removed when dropped.
#[derive(Debug)]
pub(crate) struct Claim {
    path: PathBuf,
}

impl Claim {
    /// Record this process as the writer of `session` (best effort: a directory that refuses
    /// the record leaves the owner unknown to observers, nothing more).
    pub(crate) fn record(session: &Path) -> Option<Self> {
        let path = holder_path(session);
        let temp = path.with_extension(format!("writer.{}", std::process::id()));
        let json = serde_json::to_vec(&Holder::current()).ok()?;
        std::fs::write(&temp, json).ok()?;
        if std::fs::rename(&temp, &path).is_err() {
            let _ = std::fs::remove_file(&temp);
            return None;
        }
        Some(Self { path })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_readable_while_held_and_gone_after() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("abc.smith");
        assert_eq!(holder_path(&session), dir.path().join(".abc.smith.writer"));
        assert!(read_holder(&session).is_none());
        let claim = Claim::record(&session).unwrap();
        let holder = read_holder(&session).unwrap();
        assert_eq!(holder.pid, std::process::id());
        assert!(!holder.host.is_empty());
        drop(claim);
        assert!(read_holder(&session).is_none());
        // A damaged record is no owner, not an error.
        std::fs::write(holder_path(&session), b"{not json").unwrap();
        assert!(read_holder(&session).is_none());
    }
}
