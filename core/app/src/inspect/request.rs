//! The effective request of one recorded attempt, reconstructed from the session file alone
//! (spec: Sessions → Effective request context — "projected context is distinguishable from
//! that history"): no plugin runs, no credential is read, nothing is sent.

use std::path::Path;
use std::str::FromStr;

use serde::Serialize;
use smith::{ContextItem, EntryId, SessionId, ToolDefinition};
use smith_agent::{ReconstructError, Reconstructed};
use smith_store::{Record as Stored, RequestInput, SessionReader};

/// Which attempt to show: its entry id, or its place `TURN.ROUND.ATTEMPT` (each 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptSelector {
    /// The attempt's entry id, as `sessions get` lists it.
    Entry(EntryId),
    /// Attempt `attempt` of round `round` of the session's `turn`-th turn.
    Position {
        /// The turn (the n-th submission that started work).
        turn: u32,
        /// The round within the turn.
        round: u32,
        /// The attempt within the round.
        attempt: u32,
    },
}

/// Text that is neither an entry id nor `TURN.ROUND.ATTEMPT`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not an attempt: give its entry id (a number) or its place TURN.ROUND.ATTEMPT (e.g. 1.2.1), each from 1"
)]
pub struct BadSelector(pub String);

impl FromStr for AttemptSelector {
    type Err = BadSelector;

    fn from_str(s: &str) -> Result<Self, BadSelector> {
        let bad = || BadSelector(s.to_owned());
        let parts: Vec<&str> = s.split('.').collect();
        let num = |p: &str| p.parse::<u64>().ok().filter(|n| *n > 0);
        match parts.as_slice() {
            [id] => num(id).map(|n| Self::Entry(EntryId(n))).ok_or_else(bad),
            [t, r, a] => {
                let small = |p: &str| num(p).and_then(|n| u32::try_from(n).ok());
                Ok(Self::Position {
                    turn: small(t).ok_or_else(bad)?,
                    round: small(r).ok_or_else(bad)?,
                    attempt: small(a).ok_or_else(bad)?,
                })
            }
            _ => Err(bad()),
        }
    }
}

/// Why a request could not be shown.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// No attempt has that place.
    #[error("session {session} has no attempt {turn}.{round}.{attempt}")]
    NoSuchAttempt {
        /// The session.
        session: SessionId,
        /// The turn asked for.
        turn: u32,
        /// The round asked for.
        round: u32,
        /// The attempt asked for.
        attempt: u32,
    },
    /// The entry id is not in the session.
    #[error("session {session} has no entry {entry} (its entries are 1 to {last})")]
    NoSuchEntry {
        /// The session.
        session: SessionId,
        /// The entry asked for.
        entry: EntryId,
        /// Its last entry id.
        last: u64,
    },
    /// The entry named is not an attempt, or its attempt recorded no request.
    #[error(transparent)]
    NotARequest(Box<ReconstructError>),
    /// The file does not hold what rebuilding the request needs (a recorded input, the
    /// branch's projection): the session is damaged.
    #[error(transparent)]
    Damaged(Box<ReconstructError>),
    /// The store's read errors.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

impl From<ReconstructError> for RequestError {
    fn from(e: ReconstructError) -> Self {
        match e {
            ReconstructError::Store(e) => Self::Store(e),
            e @ (ReconstructError::Input { .. }
            | ReconstructError::Branch(_)
            | ReconstructError::Projection { .. }) => Self::Damaged(Box::new(e)),
            other => Self::NotARequest(Box::new(other)),
        }
    }
}

/// One piece of the instructions, with where it came from.
#[derive(Clone, Debug, Serialize)]
pub struct PieceView {
    /// The `request_input` entry holding it.
    pub entry: EntryId,
    /// The handler that gave it (`id@version`).
    pub handler: String,
    /// `instructions` or `context`.
    pub role: smith::PieceRole,
    /// The file it came from, when it came from one.
    pub source: Option<String>,
    /// Its size in bytes.
    pub bytes: usize,
}

/// One item of the request's context, with the entry it comes from.
#[derive(Debug, Serialize)]
pub struct ContextView<'a> {
    /// The message's or tool result's entry.
    pub entry: EntryId,
    /// The context edit that changed what the model saw of it, if one did (the entry itself
    /// keeps its original content: `sessions get` shows it).
    pub edited_by: Option<EntryId>,
    /// The item as the model saw it.
    pub item: &'a ContextItem,
}

/// A recorded attempt's effective request: record type `request` of `sessions get --request`.
#[derive(Debug, Serialize)]
pub struct RequestView<'a> {
    /// The session.
    pub session: SessionId,
    /// The attempt's entry id.
    pub attempt: EntryId,
    /// The turn it belongs to (the n-th submission of the session that started work).
    pub turn: u32,
    /// The round within the turn.
    pub round: u32,
    /// The attempt within the round.
    pub number: u32,
    /// The selection as the user made it.
    pub selection: &'a str,
    /// The physical model dispatched to.
    pub model: String,
    /// The provider plugin generation that encoded it (`id@version#digest`).
    pub generation: &'a str,
    /// The last entry of the branch the context was projected from.
    pub anchor: Option<EntryId>,
    /// SHA-256 of the request as the provider plugin received it, recorded at dispatch.
    pub sha256: &'a str,
    /// Whether the request rebuilt here hashes to `sha256`.
    pub verified: bool,
    /// The instructions the model was given.
    pub instructions: Option<&'a str>,
    /// Where each piece of the instructions came from.
    pub pieces: Vec<PieceView>,
    /// The tool definitions advertised.
    pub tools: &'a [ToolDefinition],
    /// The context, in order.
    pub context: Vec<ContextView<'a>>,
    /// The thinking level asked for.
    pub thinking: Option<smith::ThinkingLevel>,
    /// The output limit asked for.
    pub max_output: Option<u64>,
    /// The request exactly as the provider plugin received it (`ProviderRequest` JSON).
    pub provider_request: &'a smith::ProviderRequest,
}

/// A recorded request encoded again by the provider plugin generation that sent it: record
/// type `wire` of `sessions get --request ATTEMPT --wire`. The credential header is not part
/// of it (the host adds that at send time, and inspection never reads credentials).
#[derive(Debug, Serialize)]
pub struct WireView<'a> {
    /// The session.
    pub session: SessionId,
    /// The attempt's entry id.
    pub attempt: EntryId,
    /// The provider plugin generation that encoded it.
    pub generation: &'a str,
    /// The HTTP method.
    pub method: &'a str,
    /// The path and query, after the provider's base URL.
    pub path: &'a str,
    /// The headers the plugin set, in order.
    pub headers: &'a [(String, String)],
    /// The body (UTF-8; invalid bytes replaced).
    pub body: std::borrow::Cow<'a, str>,
}

impl RequestView<'_> {
    /// Each piece's text, in order: the instructions split where the pieces join (each
    /// piece's byte length is known, and they are joined by a blank line).
    pub fn piece_texts(&self) -> Vec<&str> {
        let Some(all) = self.instructions else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(self.pieces.len());
        let mut at = 0usize;
        for p in &self.pieces {
            let end = (at + p.bytes).min(all.len());
            out.push(all.get(at..end).unwrap_or_default());
            at = end + 2;
        }
        out
    }
}

/// A reconstructed request and the sources of its instruction pieces.
#[derive(Debug)]
pub struct ShownRequest {
    /// The session.
    pub session: SessionId,
    /// The turn the attempt belongs to.
    pub turn: u32,
    /// The reconstruction.
    pub request: Reconstructed,
    /// The instruction pieces' sources, in order.
    pub pieces: Vec<PieceView>,
}

impl ShownRequest {
    /// Its inspection view.
    pub fn view(&self) -> RequestView<'_> {
        let r = &self.request;
        let mut edits = r.edited.iter().copied().peekable();
        let mut entries = r.context_entries.iter().copied();
        let context = r
            .request
            .context
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let edited_by = edits.next_if(|(at, _)| *at == i).map(|(_, e)| e);
                ContextView {
                    entry: entries.next().unwrap_or(EntryId(0)),
                    edited_by,
                    item,
                }
            })
            .collect();
        RequestView {
            session: self.session,
            attempt: r.attempt_entry,
            turn: self.turn,
            round: r.attempt.round,
            number: r.attempt.number,
            selection: &r.attempt.selection,
            model: r.attempt.model.to_string(),
            generation: &r.attempt.generation,
            anchor: r.record.anchor,
            sha256: &r.record.sha256,
            verified: r.verified,
            instructions: r.request.instructions.as_deref(),
            pieces: self.pieces.clone(),
            tools: &r.request.tools,
            context,
            thinking: r.request.thinking,
            max_output: r.request.max_output,
            provider_request: &r.request,
        }
    }
}

/// Reconstruct the request of the attempt `selector` names in session `session` at `path`.
///
/// # Errors
/// [`RequestError`], naming the attempt or entry at fault.
pub fn read_request(
    path: &Path,
    session: SessionId,
    selector: AttemptSelector,
) -> Result<ShownRequest, RequestError> {
    let mut reader = SessionReader::open(path)?;
    let attempt = match selector {
        AttemptSelector::Entry(entry) => {
            let last = reader.state().last_id;
            if entry.0 > last {
                return Err(RequestError::NoSuchEntry {
                    session,
                    entry,
                    last,
                });
            }
            entry
        }
        AttemptSelector::Position {
            turn,
            round,
            attempt,
        } => smith_agent::attempt_at(&mut reader, turn, round, attempt)?.ok_or(
            RequestError::NoSuchAttempt {
                session,
                turn,
                round,
                attempt,
            },
        )?,
    };
    let request = smith_agent::reconstruct(&mut reader, attempt)?;
    let turn = match selector {
        AttemptSelector::Position { turn, .. } => turn,
        AttemptSelector::Entry(_) => smith_agent::turn_of(&mut reader, attempt)?,
    };
    let mut pieces = Vec::new();
    for id in &request.record.instructions {
        if let Stored::RequestInput(RequestInput::Piece {
            handler,
            role,
            source,
            text,
        }) = reader.entry(*id)?.record
        {
            pieces.push(PieceView {
                entry: *id,
                handler,
                role,
                source,
                bytes: text.len(),
            });
        }
    }
    Ok(ShownRequest {
        session,
        turn,
        request,
        pieces,
    })
}
