//! A [`Transcript`] written as a new Smith session, published whole or not at all.

use std::path::{Path, PathBuf};

use smith::{EntryId, Selection, SessionId, StopReason, UsageTotals};
use smith_store::{
    Imported, MessageRecord, ModelChange, NewEntry, Record, RunEnd, SessionStart, SessionWriter,
    Submission, ToolResultRecord,
};

use super::{Item, Transcript};
use crate::SessionStore;

/// Why an import could not be written. Nothing was.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Smith's own export is of a session the store holds already.
    #[error("session {id} exists already in {}; the export is of that session", dir.display())]
    Exists {
        /// The session.
        id: SessionId,
        /// The sessions directory.
        dir: PathBuf,
    },
    /// Another tool's file with these very bytes was imported already.
    #[error("this file was imported already, as session {id}")]
    Imported {
        /// The session it became.
        id: SessionId,
    },
    /// The store's error.
    #[error(transparent)]
    Store(#[from] smith_store::Error),
}

/// The session an earlier import of a file with SHA-256 `sha256` made, if one is in `store`
/// (each session's start is read; an unreadable one is passed over).
fn imported_before(store: &SessionStore, sha256: &str) -> Option<SessionId> {
    store.list().ok()?.into_iter().find_map(|(id, path)| {
        let mut reader = smith_store::SessionReader::open(&path).ok()?;
        match reader.entry(smith::EntryId(1)).ok()?.record {
            Record::SessionStart(SessionStart {
                imported: Some(i), ..
            }) if i.sha256 == sha256 => Some(id),
            _ => None,
        }
    })
}

/// What [`write()`] created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The new session's id.
    pub id: SessionId,
    /// Its file.
    pub path: PathBuf,
    /// How many entries it holds.
    pub entries: u64,
    /// How many turns (prompts) were carried over.
    pub turns: u64,
}

/// The turn a node belongs to: its submission and what its responses add up to so far.
#[derive(Clone, Copy)]
struct Turn {
    submission: EntryId,
    usage: UsageTotals,
    stop: StopReason,
}

/// Per node: the entry it ended with, its turn, and the model selected on its branch.
#[derive(Clone, Default)]
struct Progress {
    entry: Option<EntryId>,
    turn: Option<Turn>,
    model: Option<Selection>,
    /// The `run_end` appended after it, when its turn ended there.
    ended: Option<EntryId>,
}

/// Write what `file` held (its bytes hashing to `sha256`) as a session in `store`, registered
/// secrets replaced by `redactor` as every write does, published whole or not at all. Smith's
/// own export is restored as the session it is of (same id and entries). Another tool's
/// transcript becomes a new session: each prompt becomes
/// a `submission` with a `model_change` when the model changed and the user `message`; each
/// response an assistant `message`; each result a `tool_result`; a turn ends with a `run_end`
/// before the next prompt and at each leaf. The source's current branch is selected.
///
/// # Errors
/// [`WriteError`]; the session then does not exist.
pub fn write(
    store: &SessionStore,
    source: &super::Source,
    file: &Path,
    sha256: &str,
    redactor: Option<smith_secrets::Shared>,
) -> Result<Written, WriteError> {
    std::fs::create_dir_all(store.dir()).map_err(|source| smith_store::Error::Io {
        action: "creating the sessions directory",
        path: store.dir().to_owned(),
        source,
    })?;
    let id = match source {
        super::Source::Smith(export) => export.session,
        super::Source::Foreign(t) => {
            if let Some(earlier) = imported_before(store, sha256) {
                return Err(WriteError::Imported { id: earlier });
            }
            // Dated by the source's start, so it sorts (and lists) where it began.
            t.nodes
                .iter()
                .find_map(|n| n.timestamp_ms)
                .and_then(|ms| u64::try_from(ms).ok())
                .map_or_else(SessionId::new_now, SessionId::new_at)
        }
    };
    if store.dir().join(smith_store::file_name(&id)).exists() {
        return Err(WriteError::Exists {
            id,
            dir: store.dir().to_owned(),
        });
    }
    // What a killed import left behind long ago (a recent one is left to its process).
    let _ = smith_store::remove_abandoned_temporaries(store.dir());
    let ((turns, entries), path) = smith_store::create_published(store.dir(), id, |w| {
        if let Some(r) = redactor {
            w.set_redactor(r);
        }
        let turns = match source {
            super::Source::Foreign(t) => build(w, id, t, file, sha256)?,
            super::Source::Smith(export) => {
                super::own::restore(w, export)?;
                export
                    .entries
                    .iter()
                    .filter(|e| matches!(e.record, Record::Submission(_)))
                    .count() as u64
            }
        };
        Ok((turns, w.next_entry_id().0 - 1))
    })?;
    Ok(Written {
        id,
        path,
        entries,
        turns,
    })
}

fn build(
    w: &mut SessionWriter,
    id: SessionId,
    t: &Transcript,
    source: &Path,
    sha256: &str,
) -> Result<u64, smith_store::Error> {
    let first_at = t.nodes.iter().find_map(|n| n.timestamp_ms);
    let mut at = first_at.unwrap_or_else(now_ms);
    let start = SessionStart {
        smith_version: env!("CARGO_PKG_VERSION").to_owned(),
        cwd: t.cwd.clone(),
        imported: Some(Imported {
            format: t.format.to_owned(),
            version: t.version.clone(),
            source: source.display().to_string(),
            sha256: sha256.to_owned(),
            dropped: t.dropped_phrases(),
        }),
    };
    let root = w.append_dated(&[NewEntry::from(Record::SessionStart(start))], at)?[0];
    let turn_models = turn_models(t);
    let mut children = vec![0usize; t.nodes.len()];
    for n in &t.nodes {
        if let Some(p) = n.parent {
            children[p] += 1;
        }
    }
    let mut done: Vec<Progress> = vec![Progress::default(); t.nodes.len()];
    let mut turns = 0u64;
    for (i, node) in t.nodes.iter().enumerate() {
        at = node.timestamp_ms.unwrap_or(at);
        let (mut after, inherited) = match node.parent {
            Some(p) => (done[p].entry.unwrap_or(root), done[p].clone()),
            None => (root, Progress::default()),
        };
        let mut here = Progress {
            model: inherited.model.clone(),
            turn: inherited.turn,
            ..Progress::default()
        };
        let mut records = Vec::new();
        match &node.item {
            Item::User { text } => {
                // The turn before ends where this prompt follows it, when its last message
                // was written.
                if let (Some(p), Some(turn)) = (node.parent, inherited.turn) {
                    after = match done[p].ended {
                        Some(ended) => ended,
                        None => {
                            let ended_at = t.nodes[p].timestamp_ms.unwrap_or(at);
                            let ended = end_turn(w, after, turn, ended_at)?;
                            done[p].ended = Some(ended);
                            ended
                        }
                    };
                }
                let model = turn_models[i]
                    .clone()
                    .or_else(|| inherited.model.clone())
                    .unwrap_or_else(|| Selection::Name("imported".to_owned()));
                records.push(NewEntry::from(Record::Submission(Submission {
                    session: Some(id),
                    dedup_key: None,
                    content_sha256: smith_agent::content_sha256(&model, text),
                    destination: Some(after),
                    explicit_destination: false,
                    model: model.clone(),
                    input: text.clone(),
                    owner: None,
                    delivery: None,
                    policy: None,
                    attachments: Vec::new(),
                })));
                if inherited.model.as_ref() != Some(&model) {
                    records.push(NewEntry::from(Record::ModelChange(ModelChange {
                        model: model.clone(),
                    })));
                }
                records.push(NewEntry::from(Record::Message(MessageRecord {
                    message: smith::Message::user_text(text.clone()),
                    model: None,
                    stop_reason: None,
                    usage: None,
                    error: None,
                    attempt: None,
                })));
                here.model = Some(model);
                turns += 1;
            }
            Item::Assistant {
                content,
                model,
                stop_reason,
                usage,
            } => {
                if let Some(turn) = &mut here.turn {
                    turn.usage.add(usage.as_ref());
                    turn.stop = stop_reason.unwrap_or(turn.stop);
                }
                records.push(NewEntry::from(Record::Message(MessageRecord {
                    message: smith::Message {
                        role: smith::Role::Assistant,
                        content: content.clone(),
                    },
                    model: model.clone(),
                    stop_reason: *stop_reason,
                    usage: *usage,
                    error: None,
                    attempt: None,
                })));
            }
            Item::ToolResult(result) => {
                records.push(NewEntry::from(Record::ToolResult(ToolResultRecord {
                    result: result.clone(),
                })));
            }
        }
        if w.leaf() != Some(after) {
            w.select(after)?;
        }
        let ids = w.append_dated(&records, at)?;
        if let Item::User { .. } = node.item {
            here.turn = Some(Turn {
                submission: ids[0],
                usage: UsageTotals::default(),
                stop: StopReason::EndTurn,
            });
        }
        here.entry = ids.last().copied();
        done[i] = here;
    }
    // Every branch's last turn ends at its leaf.
    for i in 0..t.nodes.len() {
        if children[i] == 0
            && let (Some(entry), Some(turn)) = (done[i].entry, done[i].turn)
        {
            let at = t.nodes[i].timestamp_ms.unwrap_or(at);
            done[i].ended = Some(end_turn(w, entry, turn, at)?);
        }
    }
    if let Some(leaf) = t.leaf.or(t.nodes.len().checked_sub(1))
        && let Some(entry) = done[leaf].ended.or(done[leaf].entry)
        && w.leaf() != Some(entry)
    {
        w.select(entry)?;
    }
    Ok(turns)
}

/// Append the `run_end` of `turn` after entry `after`; its id.
fn end_turn(
    w: &mut SessionWriter,
    after: EntryId,
    turn: Turn,
    at: i64,
) -> Result<EntryId, smith_store::Error> {
    if w.leaf() != Some(after) {
        w.select(after)?;
    }
    let end = NewEntry {
        record: Record::RunEnd(RunEnd {
            stop_reason: turn.stop,
            usage: turn.usage,
            error: None,
            children: Vec::new(),
            memory: None,
        }),
        pair: Some(turn.submission),
    };
    Ok(w.append_dated(&[end], at)?[0])
}

/// Per node, for prompts: the model of the turn's first response, when it names one.
fn turn_models(t: &Transcript) -> Vec<Option<Selection>> {
    let mut turn_of = vec![None; t.nodes.len()];
    let mut out = vec![None; t.nodes.len()];
    for (i, node) in t.nodes.iter().enumerate() {
        turn_of[i] = match node.item {
            Item::User { .. } => Some(i),
            _ => node.parent.and_then(|p| turn_of[p]),
        };
        if let (Item::Assistant { model: Some(m), .. }, Some(u)) = (&node.item, turn_of[i])
            && out[u].is_none()
        {
            out[u] = Some(Selection::Model(m.clone()));
        }
    }
    out
}

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}
