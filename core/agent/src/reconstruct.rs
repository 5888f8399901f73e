//! Reconstructing the request of a recorded attempt from the session file alone (spec:
//! Sessions → Effective request context — resume and replay reconstruct prior request context
//! from recorded data, not current configuration or freshly executed transformations; plan
//! B3). No plugin runs, no credential is read and nothing is sent: the context is the
//! projection of the recorded anchor, the instructions and tools are the recorded inputs, the
//! dispatch is the attempt's.

use smith::{Attempt, EntryId, PromptCache, ProviderRequest};
use smith_store::{EffectiveRequest, PROJECTION_VERSION, Record, RequestInput, SessionReader};

/// A recorded attempt's request, rebuilt.
#[derive(Clone, Debug, PartialEq)]
pub struct Reconstructed {
    /// The attempt's entry id.
    pub attempt_entry: EntryId,
    /// The attempt (selection, physical model, generation…).
    pub attempt: Attempt,
    /// The request record's entry id.
    pub request_entry: EntryId,
    /// The request record.
    pub record: EffectiveRequest,
    /// The request as the provider plugin received it (secrets as their references).
    pub request: ProviderRequest,
    /// The entry each item of `request.context` comes from.
    pub context_entries: Vec<EntryId>,
    /// The context items an edit changed: `(index into request.context, edit entry)`.
    pub edited: Vec<(usize, EntryId)>,
    /// Whether the rebuilt request's SHA-256 equals the one recorded at dispatch.
    pub verified: bool,
}

/// Why a request could not be reconstructed.
#[derive(Debug, thiserror::Error)]
pub enum ReconstructError {
    /// The entry is not an attempt.
    #[error("entry {entry} is a {kind} record, not an attempt; name an attempt's entry id")]
    NotAnAttempt {
        /// The entry.
        entry: EntryId,
        /// Its kind.
        kind: &'static str,
    },
    /// The attempt has no recorded request (recorded before requests were).
    #[error(
        "attempt {attempt} has no recorded request: it was recorded by a Smith that did not record requests"
    )]
    NoRequest {
        /// The attempt's entry id.
        attempt: EntryId,
    },
    /// The request was projected by rules this build does not know.
    #[error(
        "the request of attempt {attempt} was projected by rules version {version}, but this Smith knows version {PROJECTION_VERSION}; inspect it with the Smith that wrote it"
    )]
    Projection {
        /// The attempt.
        attempt: EntryId,
        /// The version recorded.
        version: u32,
    },
    /// A referenced input is missing or of the wrong kind.
    #[error(
        "the request of attempt {attempt} references entry {input}, which is not a recorded request input; the session is damaged there"
    )]
    Input {
        /// The attempt.
        attempt: EntryId,
        /// The referenced entry.
        input: EntryId,
    },
    /// The anchor's branch cannot be projected.
    #[error(transparent)]
    Branch(#[from] crate::ProjectionError),
    /// The store's read errors.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// The entry id of attempt `number` of round `round` of turn `turn` (each 1-based; turn n
/// is the work of the session's n-th submission that started work rather than waiting in
/// the queue, and an attempt belongs to the latest such submission before it in file order),
/// or `None` when there is none. Decodes only submissions and attempts.
///
/// # Errors
/// The store's read errors.
pub fn attempt_at(
    reader: &mut SessionReader,
    turn: u32,
    round: u32,
    number: u32,
) -> Result<Option<EntryId>, smith_store::Error> {
    let mut turns = 0u32;
    let mut found = None;
    let last = reader.state().last_id;
    reader.for_each_of_kinds(
        1..=last,
        &[Record::SUBMISSION, Record::ATTEMPT],
        |entry| match &entry.record {
            Record::Submission(s) if s.delivery.is_none() => turns += 1,
            Record::Attempt(a)
                if found.is_none() && turns == turn && a.round == round && a.number == number =>
            {
                found = Some(entry.id);
            }
            _ => {}
        },
    )?;
    Ok(found)
}

/// The turn attempt entry `attempt` belongs to (as [`attempt_at`] counts them: the number of
/// work-starting submissions at or before it); 0 when none precedes it.
///
/// # Errors
/// The store's read errors.
pub fn turn_of(reader: &mut SessionReader, attempt: EntryId) -> Result<u32, smith_store::Error> {
    let mut turns = 0u32;
    reader.for_each_of_kinds(1..=attempt.0, &[Record::SUBMISSION], |entry| {
        if let Record::Submission(s) = &entry.record
            && s.delivery.is_none()
        {
            turns += 1;
        }
    })?;
    Ok(turns)
}

/// Rebuild the request of the attempt at entry `attempt` from the file `reader` reads, and
/// check it against the SHA-256 recorded at dispatch.
///
/// # Errors
/// [`ReconstructError`], naming the entry at fault.
pub fn reconstruct(
    reader: &mut SessionReader,
    attempt: EntryId,
) -> Result<Reconstructed, ReconstructError> {
    let entry = reader.entry(attempt)?;
    let Record::Attempt(dispatched) = entry.record else {
        return Err(ReconstructError::NotAnAttempt {
            entry: attempt,
            kind: entry.record.kind_name(),
        });
    };
    // The request record is committed right after its attempt, in the same change.
    let next = EntryId(attempt.0 + 1);
    let request_entry = match reader.entry(next) {
        Ok(e) if e.pair == Some(attempt) => e,
        Ok(_) | Err(_) => return Err(ReconstructError::NoRequest { attempt }),
    };
    let Record::Request(record) = request_entry.record else {
        return Err(ReconstructError::NoRequest { attempt });
    };
    if record.projection != PROJECTION_VERSION {
        return Err(ReconstructError::Projection {
            attempt,
            version: record.projection,
        });
    }
    let mut pieces = Vec::with_capacity(record.instructions.len());
    for id in &record.instructions {
        match reader.entry(*id).map(|e| e.record) {
            Ok(Record::RequestInput(RequestInput::Piece { text, .. })) => pieces.push(text),
            _ => {
                return Err(ReconstructError::Input {
                    attempt,
                    input: *id,
                });
            }
        }
    }
    let tools = match record.tools {
        None => Vec::new(),
        Some(id) => match reader.entry(id).map(|e| e.record) {
            Ok(Record::RequestInput(RequestInput::Tools(tools))) => tools,
            _ => return Err(ReconstructError::Input { attempt, input: id }),
        },
    };
    let mut projection = crate::projection::project(reader, record.anchor)?;
    if let Some(compaction) = record.compaction {
        // A compaction's request: the items its summary stands for, then its ask.
        let ask = match reader.entry(compaction.ask).map(|e| e.record) {
            Ok(Record::RequestInput(RequestInput::Piece { text, .. })) => text,
            _ => {
                return Err(ReconstructError::Input {
                    attempt,
                    input: compaction.ask,
                });
            }
        };
        let items = usize::try_from(compaction.items).unwrap_or(usize::MAX);
        if items > projection.items.len() {
            return Err(ReconstructError::Input {
                attempt,
                input: compaction.ask,
            });
        }
        projection.items.truncate(items);
        projection.entries.truncate(items);
        projection.edited.retain(|(i, _)| *i < items);
        projection
            .items
            .push(smith::ContextItem::Message(smith::Message::user_text(ask)));
        projection.entries.push(compaction.ask);
    }
    let request = ProviderRequest {
        model: dispatched.model.clone(),
        instructions: (!pieces.is_empty()).then(|| pieces.join("\n\n")),
        context: projection.items,
        tools,
        thinking: dispatched.thinking,
        max_output: dispatched.output_limit.and_then(|l| l.tokens),
        cache: record.cache_key.clone().map(|key| PromptCache { key }),
    };
    // The records are redacted already: the JSON needs no redactor.
    let verified = crate::request::request_sha256(&request, None) == record.sha256;
    Ok(Reconstructed {
        attempt_entry: attempt,
        attempt: *dispatched,
        request_entry: next,
        record,
        request,
        context_entries: projection.entries,
        edited: projection.edited,
        verified,
    })
}
