//! The `smith:plugin/context-files` import of the handler world: a `context` handler reads the
//! standing context files its manifest names (`context-file "AGENTS.md"`) in the directories of
//! the current `context` event (a symbolic link only to a file in one of them), and nothing
//! else. Not an effect: what it reads enters a request
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
    /// The names to look for, in order of preference (`context.files` narrowed to `names`).
    pub(crate) preferred: Vec<String>,
    /// The user's configuration directory: a link elsewhere never leads into it.
    pub(crate) user_dir: Option<PathBuf>,
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
        read_bounded(&dir.join(&name), limit, access)
    }

    fn names(&mut self) -> Vec<String> {
        self.call
            .context
            .as_ref()
            .map(|access| access.preferred.clone())
            .unwrap_or_default()
    }
}

/// The names of `declared` to look for, in the order of `setting` (the user's
/// `context.files`); the declared order when the setting names none of them.
pub(crate) fn preferred(declared: &[String], setting: &[String]) -> Vec<String> {
    let chosen: Vec<String> = setting
        .iter()
        .filter(|name| declared.contains(name))
        .cloned()
        .collect();
    if chosen.is_empty() {
        declared.to_vec()
    } else {
        chosen
    }
}

/// The text of the regular file at `path`, at most `limit` bytes; `None` when there is none.
/// A symbolic link is followed only to a regular file in one of the event's directories (an
/// `AGENTS.md` that links to the project's `CLAUDE.md`, or to the root's `AGENTS.md`) — into
/// the user's configuration directory only from a link in it — never elsewhere.
fn read_bounded(path: &Path, limit: u32, access: &ContextAccess) -> Result<Option<String>, String> {
    let mut meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
    };
    let mut path = path.to_path_buf();
    if meta.file_type().is_symlink() {
        let target = std::fs::canonicalize(&path).map_err(|e| {
            format!(
                "`{}` is a symbolic link that cannot be followed ({e}); point it at a file, or replace it with a copy",
                path.display()
            )
        })?;
        let canonical = |d: &PathBuf| d.canonicalize().unwrap_or_else(|_| d.clone());
        let user = access.user_dir.as_ref().map(canonical);
        let from = path.parent().map(Path::to_path_buf).map(|p| canonical(&p));
        let inside = target.parent().is_some_and(|parent| {
            access.dirs.iter().any(|d| canonical(d) == parent)
                && (user.as_deref() != Some(parent) || from.as_deref() == Some(parent))
        });
        if !inside {
            return Err(format!(
                "`{}` is a symbolic link to `{}`, outside the directories context files are read in; replace it with a copy of the file",
                path.display(),
                target.display()
            ));
        }
        meta = std::fs::metadata(&target)
            .map_err(|e| format!("cannot read `{}`: {e}", target.display()))?;
        path = target;
    }
    let path = path.as_path();
    if !meta.is_file() {
        return Err(format!(
            "`{}` is not a regular file (a directory or a device is not read); remove it or replace it with a file",
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
        .map_err(|_| format!("`{}` is not UTF-8 text; save it as UTF-8", path.display()))
}
