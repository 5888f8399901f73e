//! Smith's session store.
//!
//! One self-contained append-only binary file per session, named `<session-id>.smith`. The byte
//! layout is [format version 0](crate::format); its normative description is
//! `docs-corpus/docs/session-format.md`. A [`SessionWriter`] appends *committed changes*: groups
//! of entry frames closed by a commit frame, written in one call and acknowledged only after
//! `fsync` (`File::sync_data`) returned. [`read_session`] publishes only complete committed
//! changes; a torn tail is reported, never published.
//!
//! This crate never prints and never panics on bad input; every failure is a typed [`Error`]
//! naming the file and what to do.

mod error;
pub mod format;
mod reader;
mod record;
mod writer;

pub use error::Error;
pub use reader::{CommitReader, ReadOutcome, TornTail, read_session};
pub use record::{
    Entry, MessageRecord, ModelChange, Record, RunEnd, SessionStart, ToolResultRecord,
};
pub use writer::{Recovery, SessionWriter};

/// The file name of session `id`: `<id>.smith`.
pub fn file_name(id: &smith::SessionId) -> String {
    format!("{id}.{}", format::FILE_EXTENSION)
}
