//! The effective request of each attempt (spec: Sessions → Effective request context; plan
//! B3): the round's instructions come from the request-preparing handlers, and before every
//! attempt its request is recorded — in the same committed change as the attempt, so an append
//! failure sends nothing and recording costs no extra fsync. Inputs unchanged since the last
//! request on the branch (instructions pieces, tool definitions) are referenced, not stored
//! again.

use sha2::{Digest, Sha256};
use smith::{
    Attempt, EntryId, PreparedRequest, ProviderRequest, RequestEvent, RequestPiece, ToolDefinition,
};
use smith_store::{EffectiveRequest, NewEntry, PROJECTION_VERSION, Record, RequestInput};

use crate::run::{Run, RunError};

/// The request inputs last recorded on the selected branch, reused while unchanged.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    pieces: Vec<(RequestPiece, EntryId)>,
    tools: Option<(Vec<ToolDefinition>, EntryId)>,
}

impl Ledger {
    /// The inputs the last recorded request of `branch` (root first) references, so a
    /// reopened session references them too while they stay the same.
    pub(crate) fn from_branch(branch: &[smith_store::Entry]) -> Self {
        let Some(last) = branch.iter().rev().find_map(|e| match &e.record {
            Record::Request(r) => Some(r),
            _ => None,
        }) else {
            return Self::default();
        };
        let inputs: std::collections::HashMap<EntryId, &RequestInput> = branch
            .iter()
            .filter_map(|e| match &e.record {
                Record::RequestInput(input) => Some((e.id, input)),
                _ => None,
            })
            .collect();
        let pieces = last
            .instructions
            .iter()
            .filter_map(|id| match inputs.get(id) {
                Some(RequestInput::Piece {
                    handler,
                    role,
                    source,
                    text,
                }) => Some((
                    RequestPiece {
                        handler: handler.clone(),
                        role: *role,
                        source: source.clone(),
                        text: text.clone(),
                    },
                    *id,
                )),
                _ => None,
            })
            .collect();
        let tools = last.tools.and_then(|id| match inputs.get(&id) {
            Some(RequestInput::Tools(defs)) => Some((defs.clone(), id)),
            _ => None,
        });
        Self { pieces, tools }
    }
}

/// A compaction's ask: the `compaction` handler's piece, sent as a user message after the
/// first `items` items of the projected context.
#[derive(Debug)]
pub(crate) struct Ask {
    pub(crate) piece: RequestPiece,
    pub(crate) items: usize,
}

/// The instructions a round's handlers gave, joined by a blank line; `None` for none.
pub(crate) fn instructions(pieces: &[RequestPiece]) -> Option<String> {
    (!pieces.is_empty()).then(|| {
        pieces
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    })
}

/// SHA-256 (lowercase hex) of `request` as the provider plugin receives it: its JSON text with
/// every registered secret replaced by its reference.
pub fn request_sha256(
    request: &ProviderRequest,
    redactor: Option<&smith_secrets::Redactor>,
) -> String {
    let mut value = serde_json::to_value(request).unwrap_or(serde_json::Value::Null);
    if let Some(redactor) = redactor {
        redactor.redact_json(&mut value);
    }
    Sha256::digest(value.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Run<'_> {
    /// Ask the request-preparing handlers for round `round`'s instructions; their problems
    /// become warnings.
    pub(crate) fn prepare(
        &mut self,
        lifecycle: &dyn smith::Lifecycle,
        round: u32,
        tools: &[ToolDefinition],
    ) -> PreparedRequest {
        let event = RequestEvent {
            round,
            tools: tools.iter().map(|t| t.name.clone()).collect(),
        };
        let prepared = lifecycle.prepare_request(&event, self.cancel);
        for problem in &prepared.problems {
            self.sink.emit(smith_ui_intents::Intent::Notice {
                level: smith_ui_intents::NoticeLevel::Warning,
                text: problem.clone(),
            });
        }
        prepared
    }

    /// Record `attempt` and its `request` (built from `pieces` and the branch's projection —
    /// for a compaction, its first `ask.items` items and then the ask) as one committed
    /// change: the inputs not yet recorded (a compaction's ask always), the attempt, then the
    /// request paired with it. Returns the attempt's entry id.
    pub(crate) fn record_attempt_request(
        &mut self,
        attempt: &Attempt,
        request: &ProviderRequest,
        pieces: &[RequestPiece],
        options: &std::collections::BTreeMap<String, String>,
        ask: Option<&Ask>,
    ) -> Result<EntryId, RunError> {
        let redactor = self.session.redactor();
        let sha256 = request_sha256(request, redactor.as_deref());
        let mut writer = self.session.writer.lock();
        let anchor = writer.leaf();
        let mut next = writer.next_entry_id();
        let mut entries = Vec::new();
        let ledger = &self.session.ledger;
        let mut instructions = Vec::with_capacity(pieces.len());
        let mut new_pieces = Vec::new();
        for piece in pieces {
            match ledger.pieces.iter().find(|(p, _)| p == piece) {
                Some((_, id)) => instructions.push(*id),
                None => {
                    entries.push(NewEntry::from(Record::RequestInput(RequestInput::Piece {
                        handler: piece.handler.clone(),
                        role: piece.role,
                        source: piece.source.clone(),
                        text: piece.text.clone(),
                    })));
                    instructions.push(next);
                    new_pieces.push((piece.clone(), next));
                    next = EntryId(next.0 + 1);
                }
            }
        }
        let tools = match &ledger.tools {
            _ if request.tools.is_empty() => None,
            Some((defs, id)) if *defs == request.tools => Some(*id),
            _ => {
                entries.push(NewEntry::from(Record::RequestInput(RequestInput::Tools(
                    request.tools.clone(),
                ))));
                let id = next;
                next = EntryId(next.0 + 1);
                Some(id)
            }
        };
        let compaction = ask.map(|ask| {
            entries.push(NewEntry::from(Record::RequestInput(RequestInput::Piece {
                handler: ask.piece.handler.clone(),
                role: ask.piece.role,
                source: ask.piece.source.clone(),
                text: ask.piece.text.clone(),
            })));
            let id = next;
            next = EntryId(next.0 + 1);
            smith_store::CompactionAsk {
                items: ask.items as u64,
                ask: id,
            }
        });
        let attempt_id = next;
        entries.push(NewEntry::from(Record::Attempt(Box::new(attempt.clone()))));
        entries.push(NewEntry {
            record: Record::Request(EffectiveRequest {
                anchor,
                projection: PROJECTION_VERSION,
                instructions: instructions.clone(),
                tools,
                cache_key: request.cache.as_ref().map(|c| c.key.clone()),
                options: options.clone(),
                sha256,
                compaction,
            }),
            pair: Some(attempt_id),
        });
        writer.append_entries(&entries)?;
        drop(writer);
        // Recorded: later requests reference these inputs while they stay the same.
        let ledger = &mut self.session.ledger;
        if !new_pieces.is_empty() {
            ledger.pieces = pieces
                .iter()
                .cloned()
                .zip(instructions.iter().copied())
                .collect();
        }
        if let Some(id) = tools
            && ledger.tools.as_ref().is_none_or(|(_, old)| *old != id)
        {
            ledger.tools = Some((request.tools.clone(), id));
        }
        Ok(attempt_id)
    }
}
