//! The `smith:plugin/context-files` import of the handler world: a `context` handler reads the
//! standing context files its manifest names (`context-file "AGENTS.md"`) in the directories of
//! the current `context` event, and nothing else. Not an effect: what it reads enters a request
//! only through the handler's answer, which the agent records.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::grants::Grant;
use crate::handlers::bindings::smith::plugin::context_files as wit;
use crate::runtime::State;

/// The largest standing context file read, in bytes.
pub const MAX_CONTEXT_FILE_BYTES: u32 = 64 * 1024;

/// What one `context` event lets its handler read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ContextAccess {
    /// The event's directories.
    pub(crate) dirs: Vec<PathBuf>,
    /// The file names the manifest declares.
    pub(crate) names: Vec<String>,
}

impl wit::Host for State {
    fn read(&mut self, dir: String, name: String, limit: u32) -> Result<Option<String>, String> {
        let call = &self.call;
        let plugin = call.plugin.split('#').next().unwrap_or(&call.plugin);
        if !call.granted.grants.contains(&Grant::ContextRead) {
            return Err(format!(
                "plugin {plugin} may not read context files: its manifest does not request the `context.read` grant"
            ));
        }
        let access = call.context.as_ref().ok_or_else(|| {
            "context files are readable only while answering a `context` event".to_owned()
        })?;
        if !access.names.contains(&name) {
            return Err(format!(
                "`{name}` is not a context file plugin {plugin} declares ({}); add `context-file \"{name}\"` to its manifest",
                access.names.join(", ")
            ));
        }
        let dir = Path::new(&dir);
        if !access.dirs.iter().any(|d| d == dir) {
            return Err(format!(
                "`{}` is not one of this event's directories; read only those the event lists",
                dir.display()
            ));
        }
        let limit = limit.min(MAX_CONTEXT_FILE_BYTES);
        read_bounded(&dir.join(&name), limit)
    }
}

/// The text of the regular file at `path`, at most `limit` bytes; `None` when there is none.
fn read_bounded(path: &Path, limit: u32) -> Result<Option<String>, String> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
    };
    if !meta.is_file() {
        return Err(format!(
            "`{}` is not a regular file (a symbolic link or a directory is not read)",
            path.display()
        ));
    }
    if meta.len() > u64::from(limit) {
        return Err(format!(
            "`{}` is {} bytes, more than the {limit} read; shorten it",
            path.display(),
            meta.len()
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(u64::from(limit) + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if bytes.len() > limit as usize {
        return Err(format!(
            "`{}` grew past the {limit} bytes read; shorten it",
            path.display()
        ));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| format!("`{}` is not UTF-8 text", path.display()))
}
