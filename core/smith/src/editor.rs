//! The files as an attached editor has them (DESIGN §13 Editors; ACP's `fs/read_text_file`
//! and `fs/write_text_file`): a frontend whose client offers them keeps an [`Editor`] in the
//! session's [`crate::Resident`], and the host's file facility then reads text files through
//! it — the editor's buffers, unsaved changes included — and sends what it writes to it as
//! well as to disk, so the working tree (and the history's snapshots) holds what the editor
//! shows.

use std::path::Path;
use std::sync::Arc;

/// An editor's view of the files. Paths are absolute, inside the session's root (checked by
/// the facility before it asks). Calls block until the editor answers or the connection ends.
pub trait EditorFiles: Send + Sync {
    /// The text of the file at `path` as the editor has it.
    ///
    /// # Errors
    /// Why the editor could not give it, in words (its error, or the connection ended).
    fn read(&self, path: &Path) -> Result<String, String>;

    /// Give the editor `text` as the new content of the file at `path`.
    ///
    /// # Errors
    /// Why the editor did not take it, in words.
    fn write(&self, path: &Path, text: &str) -> Result<(), String>;
}

/// An attached editor, kept in a session's [`crate::Resident`] for as long as it is attached.
#[derive(Clone)]
pub struct Editor {
    /// How to reach it.
    pub files: Arc<dyn EditorFiles>,
    /// It serves reads (`fs/read_text_file`).
    pub read: bool,
    /// It takes writes (`fs/write_text_file`).
    pub write: bool,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("read", &self.read)
            .field("write", &self.write)
            .finish_non_exhaustive()
    }
}
