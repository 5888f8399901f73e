//! Smith's own JSONL export (`smith sessions export ID`): one `entry` record per line, in id
//! order, each record's body as recorded. Importing it restores the session itself — same id,
//! entry ids, parents, pairs, times and records — so exporting the import gives the same bytes
//! (the round trip is exact). The export does not carry which branch was selected: the
//! restored session selects its last entry.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde_json::Value;
use smith::{EntryId, SessionId};
use smith_store::{NewEntry, Record, SessionWriter};

use super::{ImportError, LineSource};

/// A whole export, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The session it is of.
    pub session: SessionId,
    /// The Smith version that started the session (its `session_start`).
    pub version: Option<String>,
    /// Its entries, in id order from 1 without a gap.
    pub entries: Vec<Exported>,
}

/// One entry of an [`Export`].
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// Its id.
    pub id: u64,
    /// Its parent (`None`: the root).
    pub parent: Option<u64>,
    /// The entry it pairs with.
    pub pair: Option<u64>,
    /// When it was recorded: milliseconds since the Unix epoch, UTC.
    pub timestamp_ms: i64,
    /// The record.
    pub record: Record,
}

/// Whether `first` is the first line of a Smith export.
pub(super) fn is_export(first: &Value) -> bool {
    first.get("type").and_then(Value::as_str) == Some("entry")
        && first.get("session").is_some()
        && first.get("kind").is_some()
        && first.get("record").is_some()
}

pub(super) fn read(path: &Path, lines: &mut LineSource<'_>) -> Result<Export, ImportError> {
    let mut entries = Vec::new();
    let mut session = None;
    for line in lines {
        let line = line?;
        let v = &line.value;
        let bad = |reason: String| ImportError::Malformed {
            path: path.to_owned(),
            line: line.number,
            reason: format!("{reason} (Smith export format)"),
        };
        if v.get("type").and_then(Value::as_str) != Some("entry") {
            return Err(bad("not an `entry` record".into()));
        }
        let this: SessionId = v
            .get("session")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| bad("no session id".into()))?;
        if *session.get_or_insert(this) != this {
            return Err(bad(format!(
                "an entry of session {this}, in an export of session {}",
                session.unwrap_or(this)
            )));
        }
        let id = v.get("id").and_then(Value::as_u64).unwrap_or(0);
        let expected = entries.len() as u64 + 1;
        if id != expected {
            let hint = if expected == 1 {
                "; an export made with --branch holds one branch, newest first: export without it"
            } else {
                ""
            };
            return Err(bad(format!(
                "entry {id} where entry {expected} was due (entries run from 1 without a gap: the export is cut or reordered{hint})"
            )));
        }
        let link = |key: &str| -> Result<Option<u64>, ImportError> {
            match v.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(n) => match n.as_u64() {
                    Some(n) if n >= 1 && n < id => Ok(Some(n)),
                    _ => Err(bad(format!("`{key}` {n} names no earlier entry"))),
                },
            }
        };
        let parent = link("parent")?;
        let pair = link("pair")?;
        if parent.is_none() && id != 1 {
            return Err(bad(format!(
                "entry {id} has no parent; only entry 1 is a root"
            )));
        }
        let timestamp_ms = v
            .get("timestamp_ms")
            .and_then(Value::as_i64)
            .ok_or_else(|| bad("no `timestamp_ms`".into()))?;
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or_default();
        let body = v.get("record").cloned().unwrap_or(Value::Null);
        let record = record(kind, body).map_err(bad)?;
        entries.push(Exported {
            id,
            parent,
            pair,
            timestamp_ms,
            record,
        });
    }
    let version = match entries.first().map(|e| &e.record) {
        Some(Record::SessionStart(s)) => Some(s.smith_version.clone()),
        _ => None,
    };
    Ok(Export {
        session: session.ok_or_else(|| ImportError::Empty {
            path: path.to_owned(),
        })?,
        version,
        entries,
    })
}

/// The record of kind `kind` from its exported body.
fn record(kind: &str, body: Value) -> Result<Record, String> {
    fn de<T: DeserializeOwned>(kind: &str, body: Value) -> Result<T, String> {
        serde_json::from_value(body)
            .map_err(|e| format!("a `{kind}` record that does not read: {e}"))
    }
    Ok(match kind {
        "session_start" => Record::SessionStart(de(kind, body)?),
        "model_change" => Record::ModelChange(de(kind, body)?),
        "message" => Record::Message(de(kind, body)?),
        "tool_result" => Record::ToolResult(de(kind, body)?),
        "run_end" => Record::RunEnd(de(kind, body)?),
        "effect_intent" => Record::EffectIntent(de(kind, body)?),
        "effect_completion" => Record::EffectCompletion(completion(body)?),
        "submission" => Record::Submission(de(kind, body)?),
        "abort" => Record::Abort(de(kind, body)?),
        "withdrawal" => Record::Withdrawal(de(kind, body)?),
        "checkpoint" => Record::Checkpoint(de(kind, body)?),
        "attempt" => Record::Attempt(Box::new(de(kind, body)?)),
        "attempt_failed" => Record::AttemptFailed(de(kind, body)?),
        "secret_registration" => Record::SecretRegistration(de(kind, body)?),
        "context_edit" => Record::ContextEdit(de(kind, body)?),
        "request_input" => Record::RequestInput(de(kind, body)?),
        "request" => Record::Request(de(kind, body)?),
        "client_call" => Record::ClientCall(de(kind, body)?),
        "compaction" => Record::Compaction(de(kind, body)?),
        "vcs" => Record::Vcs(de(kind, body)?),
        "state" => Record::State(de(kind, body)?),
        "effect_verdict" => Record::EffectVerdict(de(kind, body)?),
        "unknown" => {
            let number = body.get("record_kind").and_then(Value::as_u64).unwrap_or(0);
            return Err(format!(
                "a record of kind {number}, which the Smith that exported it did not know, so the export holds only its size; export it with a Smith that knows it"
            ));
        }
        other => return Err(format!("a record of unknown kind `{other}`")),
    })
}

/// An effect completion, whose output the export shows as text.
fn completion(body: Value) -> Result<smith::EffectCompletion, String> {
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_owned);
    let bad = || "an `effect_completion` record that does not read".to_owned();
    Ok(smith::EffectCompletion {
        effect_id: text("effect_id").ok_or_else(bad)?,
        outcome: serde_json::from_value(body.get("outcome").cloned().unwrap_or(Value::Null))
            .map_err(|_| bad())?,
        output: text("output").ok_or_else(bad)?.into_bytes(),
        evidence: body.get("evidence").cloned().unwrap_or(Value::Null),
    })
}

/// Write `export`'s entries with `w`, a writer of a new file of the same session id: each run
/// of entries continuing one another with one time is one change; the last entry is
/// selected.
pub(super) fn restore(w: &mut SessionWriter, export: &Export) -> Result<(), smith_store::Error> {
    let mut at = 0;
    while at < export.entries.len() {
        let first = &export.entries[at];
        let mut end = at + 1;
        while end < export.entries.len()
            && end - at < smith_store::format::MAX_ENTRIES_PER_COMMIT as usize
            && export.entries[end].parent == Some(export.entries[end - 1].id)
            && export.entries[end].timestamp_ms == first.timestamp_ms
        {
            end += 1;
        }
        if let Some(parent) = first.parent
            && w.leaf() != Some(EntryId(parent))
        {
            w.select(EntryId(parent))?;
        }
        let batch: Vec<NewEntry> = export.entries[at..end]
            .iter()
            .map(|e| NewEntry {
                record: e.record.clone(),
                pair: e.pair.map(EntryId),
            })
            .collect();
        w.append_dated(&batch, first.timestamp_ms)?;
        at = end;
    }
    Ok(())
}
