//! Branch and session plugin state (spec: Sessions → Scoped state): the body of record kind
//! 21, `state`, and the store's implementation of the [`smith::ScopedState`] port for those
//! two scopes.
//!
//! A value is the latest `state` record for its slot: on the selected branch (branch scope,
//! the records on the path from the leaf to the root) or anywhere in the file (session
//! scope). A fork copies the entries up to its fork point, so it starts with the state as it
//! was there; replay and inspection read the records like any other. The first read of a
//! session's state visits the `state` entries by their metadata (no other body is read) and
//! keeps an index; writes go through the same writer and keep the index current.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use smith::{EntryId, ScopedState, StateError, StateKey, StateScope, StateValue};

use crate::{Error, NewEntry, Record, SessionReader, SharedWriter};

/// Body of record kind 21, `state`: a plugin's value of one declared slot was set or removed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateRecord {
    /// The owning plugin's id.
    pub owner: String,
    /// The slot's name, as the owner's manifest declares it.
    pub name: String,
    /// `branch` or `session` (project and user state are files, never records).
    pub scope: StateScope,
    /// The slot version the value was written under.
    pub version: u32,
    /// The value (structured data, canonical CBOR); absent when the slot was removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
}

type Slot = (String, String);
type Value = Option<(u32, serde_json::Value)>;

/// What the writer knows of its session's state once it was first read.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// Session-scoped values, the latest record of each slot.
    session: HashMap<Slot, Value>,
    /// Branch-scoped values on the branch ending at `leaf`.
    branch: HashMap<Slot, Value>,
    /// Every branch-scoped record: its entry, its slot and value (to recompute `branch` when
    /// another branch is selected).
    records: Vec<(u64, Slot, Value)>,
    /// The writer's selection count `branch` was computed at.
    selections: u64,
}

fn storage(scope: StateScope, e: Error) -> StateError {
    StateError::Storage {
        scope: scope.name(),
        source: Box::new(e),
    }
}

fn slot(key: &StateKey) -> Slot {
    (key.owner.clone(), key.name.clone())
}

impl Index {
    /// Read every `state` record of the session at `path`, and the branch ending at `leaf`.
    fn read(path: &std::path::Path, leaf: Option<EntryId>, selections: u64) -> Result<Self, Error> {
        let mut reader = SessionReader::open(path)?;
        let last = reader.state().last_id;
        let mut index = Self {
            selections,
            ..Self::default()
        };
        reader.for_each_of_kinds(1..=last, &[Record::STATE], |entry| {
            if let Record::State(r) = entry.record {
                let value = r.value.map(|v| (r.version, v));
                match r.scope {
                    StateScope::Session => {
                        index.session.insert((r.owner, r.name), value);
                    }
                    _ => index.records.push((entry.id.0, (r.owner, r.name), value)),
                }
            }
        })?;
        index.branch = branch(&mut reader, &index.records, leaf)?;
        Ok(index)
    }
}

/// The value of branch-scoped `key` on the branch the session file at `path` has selected,
/// read without a writer (an observer's view): only `state` entries are read, by their
/// metadata first. `None` when it was never set there or was removed.
///
/// # Errors
/// The file cannot be opened or read.
pub fn read_branch_value(
    path: &std::path::Path,
    key: &StateKey,
) -> Result<Option<StateValue>, Error> {
    let leaf = SessionReader::open(path)?.state().leaf;
    let leaf = (leaf > 0).then_some(EntryId(leaf));
    let index = Index::read(path, leaf, 0)?;
    Ok(index
        .branch
        .get(&slot(key))
        .cloned()
        .flatten()
        .map(|(version, value)| StateValue { version, value }))
}

/// The branch-scoped values on the branch ending at `leaf`: the latest of `records` (in id
/// order) among the branch's entries.
fn branch(
    reader: &mut SessionReader,
    records: &[(u64, Slot, Value)],
    leaf: Option<EntryId>,
) -> Result<HashMap<Slot, Value>, Error> {
    let mut out = HashMap::new();
    let Some(oldest) = records.first().map(|r| r.0) else {
        return Ok(out);
    };
    // The branch's ids down to the oldest record (metadata only).
    let mut on_branch = std::collections::HashSet::new();
    let mut at = leaf;
    while let Some(id) = at.filter(|id| id.0 >= oldest) {
        on_branch.insert(id.0);
        at = reader.parent_of(id)?;
    }
    for (id, slot, value) in records {
        if on_branch.contains(id) {
            out.insert(slot.clone(), value.clone());
        }
    }
    Ok(out)
}

impl SharedWriter {
    /// The index, read from the file on first use and after another branch was selected.
    fn with_index<T>(
        &self,
        scope: StateScope,
        f: impl FnOnce(&mut crate::SessionWriter, &mut Index) -> Result<T, StateError>,
    ) -> Result<T, StateError> {
        let mut writer = self.lock();
        let selections = writer.selections();
        let stale = writer
            .state_index
            .as_ref()
            .is_none_or(|i| i.selections != selections);
        if stale {
            let leaf = writer.leaf();
            let mut index = match writer.state_index.take() {
                // Another branch: only the branch part changes.
                Some(mut index) => {
                    let mut reader = SessionReader::open(writer.current_path())
                        .map_err(|e| storage(scope, e))?;
                    index.branch =
                        branch(&mut reader, &index.records, leaf).map_err(|e| storage(scope, e))?;
                    index
                }
                None => {
                    Index::read(writer.path(), leaf, selections).map_err(|e| storage(scope, e))?
                }
            };
            index.selections = selections;
            writer.state_index = Some(index);
        }
        let mut index = writer.state_index.take().unwrap_or_default();
        let out = f(&mut writer, &mut index);
        writer.state_index = Some(index);
        out
    }
}

impl ScopedState for SharedWriter {
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError> {
        if !key.scope.in_session() {
            return Err(StateError::Unavailable(key.scope.name()));
        }
        self.with_index(key.scope, |_, index| {
            let map = match key.scope {
                StateScope::Session => &index.session,
                _ => &index.branch,
            };
            Ok(map
                .get(&slot(key))
                .cloned()
                .flatten()
                .map(|(version, value)| StateValue { version, value }))
        })
    }

    fn set(
        &self,
        key: &StateKey,
        value: Option<StateValue>,
        cause: Option<EntryId>,
    ) -> Result<(), StateError> {
        if !key.scope.in_session() {
            return Err(StateError::Unavailable(key.scope.name()));
        }
        self.with_index(key.scope, |writer, index| {
            let (version, value) = match value {
                Some(v) => (v.version, Some(v.value)),
                None => (0, None),
            };
            let record = Record::State(StateRecord {
                owner: key.owner.clone(),
                name: key.name.clone(),
                scope: key.scope,
                version,
                value: value.clone(),
            });
            // The index keeps what the file holds: a registered secret as its reference.
            let record = writer
                .as_written(record)
                .map_err(|e| storage(key.scope, e))?;
            let value = match &record {
                Record::State(r) => r.value.clone(),
                _ => value,
            };
            let ids = writer
                .append_entries(&[NewEntry {
                    record,
                    pair: cause,
                }])
                .map_err(|e| storage(key.scope, e))?;
            let kept = value.map(|v| (version, v));
            match key.scope {
                StateScope::Session => {
                    index.session.insert(slot(key), kept);
                }
                _ => {
                    let id = ids.first().map_or(0, |i| i.0);
                    index.records.push((id, slot(key), kept.clone()));
                    index.branch.insert(slot(key), kept);
                }
            }
            Ok(())
        })
    }
}
