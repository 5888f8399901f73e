//! Smith's session store.
//!
//! One self-contained append-only binary file per session, named `<session-id>.smith`. The byte
//! layout is [format version 1](crate::format); its normative description is
//! `docs-corpus/docs/session-format.md`. A [`SessionWriter`] (one per session, under an OS lock)
//! appends *committed changes*: groups of frames closed by a commit frame, written in one call
//! and acknowledged only after `fsync` (`File::sync_data`) returned. Entries form a branching
//! history (parent links, a selected leaf); [`fork`] copies a history into a new session.
//! [`read_session`] and [`CommitReader`] scan and validate the whole file, publishing only
//! complete committed changes; [`SessionReader`] opens a snapshot through the in-file index
//! without decoding the history and is what observers use.
//!
//! This crate never prints and never panics on bad input; every failure is a typed [`Error`]
//! naming the file and what to do.

pub mod cbor;
mod error;
mod fork;
pub mod format;
pub mod holder;
pub mod meta;
mod publish;
mod reader;
mod record;
mod request;
mod scan;
mod shared;
mod state;
mod vcs;
mod writer;

#[cfg(test)]
mod tests;

pub use error::{DecodeError, Error};
pub use fork::{Forked, create_published, fork};
pub use publish::{ABANDONED_AFTER, remove_abandoned_temporaries};
pub use reader::{
    CommitReader, ReadOutcome, SessionReader, SessionState, read_session, writer_active,
};
pub use record::{
    Abort, Attachment, Checkpoint, ClientCall, EffectVerdict, Entry, EntryHead, Imported,
    MessageRecord, ModelChange, NewEntry, Record, RunEnd, SecretRegistration, SessionStart,
    Submission, ToolResultRecord, Withdrawal, entry_frame, entry_payload, redact_record,
};
pub use request::{
    Carried, Compaction, CompactionAsk, CompactionStarted, ContextEdit, EditChange, EditOp,
    EffectiveRequest, MAX_EDIT_BYTES, MAX_EDITS, PROJECTION_VERSION, PieceRole, RequestInput,
};
pub use scan::{Change, RawFrame, Skipped, TornTail};
pub use shared::{SharedWriter, WeakWriter};
/// Record bodies that are also port vocabulary (the durable effect boundary, queued input):
/// they are defined in `smith`, and encoded here as record kinds 6 and 7 and inside kind 8.
pub use smith::{Delivery, EffectCompletion, EffectIntent, EffectOutcome};
pub use state::{StateRecord, read_branch_value};
pub use vcs::{VcsOp, VcsRecord};
pub use writer::{INDEX_SPAN, Recovery, SessionWriter};

/// The file name of session `id`: `<id>.smith`.
pub fn file_name(id: &smith::SessionId) -> String {
    format!("{id}.{}", format::FILE_EXTENSION)
}

/// Decode an entry frame's payload (fixed metadata and stored body) into an [`Entry`]:
/// bounds checked, decompressed when flagged, canonical CBOR validated.
///
/// # Errors
/// [`DecodeError`] saying what is wrong with the payload.
pub fn decode_entry_payload(payload: &[u8]) -> Result<Entry, DecodeError> {
    scan::decode_entry(payload).map_err(DecodeError)
}
