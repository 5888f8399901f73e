//! Store errors.

use std::path::PathBuf;

/// A session-store failure. Every message names the file and the next corrective action.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused an operation.
    #[error("{action} `{}` failed: {source}", path.display())]
    Io {
        /// What was being done (e.g. "reading session file").
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file does not start with a session-file header.
    #[error(
        "`{}` is not a Smith session file ({reason}); use the id of a session Smith created",
        path.display()
    )]
    NotASession {
        /// The file.
        path: PathBuf,
        /// Why: too short, or the first bytes are not the magic.
        reason: &'static str,
    },
    /// The file uses a format version this build does not know.
    #[error(
        "`{}` uses session format version {found}, but this Smith reads only version {supported}; it was written by another Smith release — open it with that release or upgrade Smith; the file was not changed",
        path.display()
    )]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version found in the header.
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// The file is damaged at `offset`.
    #[error(
        "`{}` is damaged at byte {offset}: {reason}. The file was not changed; a full verification of the session reports all damage, and a fork at an intact entry continues from there",
        path.display()
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Byte offset of the damage.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// Another process holds the writer lock.
    #[error(
        "session `{}` is open for writing by another Smith process, so this process may only read it; wait for that process to finish, or continue separately in a fork of the session",
        path.display()
    )]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// An earlier write or fsync failed, so the durable end of the file is uncertain.
    #[error(
        "session `{}` stopped accepting changes after a failed write ({reason}); nothing more is appended until the file is reopened and recovered",
        path.display()
    )]
    Uncertain {
        /// The file.
        path: PathBuf,
        /// The original failure.
        reason: String,
    },
    /// The selected branch cannot be projected into a provider request: it holds a record
    /// this build does not know that changes what the model sees, or a context edit whose
    /// target is not on its branch (spec: Sessions → Context edits — reconstruction that needs
    /// unknown edit semantics is rejected, never silently ignored).
    #[error("`{}`: {reason}; the file was not changed", path.display())]
    Unprojectable {
        /// The file.
        path: PathBuf,
        /// The entry at fault.
        entry: u64,
        /// What is wrong and what to do.
        reason: String,
    },
    /// A record could not be encoded within the format's bounds.
    #[error("cannot record entry: {reason}")]
    Encode {
        /// What is wrong.
        reason: String,
    },
}

/// Bytes that are not a valid encoding of what they claim to be — a frame head, a commit or
/// index payload, an entry, a record body, canonical CBOR. The message names the field, the
/// offending value and, where it matters, its byte offset. Readers turn it into
/// [`Error::Corrupt`] with the file and offset, or into a damage report.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DecodeError(pub String);

impl From<DecodeError> for String {
    fn from(e: DecodeError) -> Self {
        e.0
    }
}
