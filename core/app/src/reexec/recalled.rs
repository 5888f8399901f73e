//! Plugin state as it was recorded (spec: Sessions → Scoped state: "Historical state is
//! reconstructed from recorded state, never today's plugin implementation or configuration"):
//! a re-executed call's plugins read the branch and session values the session's `state`
//! records held when the call was made, and what they write stays in memory with the call.
//!
//! Project and user state are files of today, not history: a re-executed call is told they
//! are unavailable.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use smith::{EntryId, ScopedState, StateError, StateKey, StateScope, StateValue};
use smith_store::StateRecord;

type Slot = (String, String);
type Values = HashMap<Slot, Option<StateValue>>;

/// The branch and session values at one point of a branch, shared by the calls made there.
#[derive(Clone, Debug, Default)]
pub(super) struct StateAt {
    branch: Arc<Values>,
    session: Arc<Values>,
}

impl StateAt {
    /// Take `record` (an entry at this point or before it) into account.
    pub(super) fn apply(&mut self, record: &StateRecord) {
        let map = match record.scope {
            StateScope::Session => &mut self.session,
            StateScope::Branch => &mut self.branch,
            // Never a record (the store refuses them); nothing to recall.
            StateScope::Project | StateScope::User => return,
        };
        let value = record.value.clone().map(|value| StateValue {
            version: record.version,
            value,
        });
        Arc::make_mut(map).insert((record.owner.clone(), record.name.clone()), value);
    }
}

/// Session-scoped records in id order, applied as a walk along a branch passes their ids
/// (a session value written on another branch before a point is the value at that point).
#[derive(Debug, Default)]
pub(super) struct SessionRecords {
    records: Vec<(u64, StateRecord)>,
    next: usize,
}

impl SessionRecords {
    /// Keep `record`, written at entry `id`, when it is session-scoped (in increasing `id`).
    pub(super) fn push(&mut self, id: u64, record: StateRecord) {
        if record.scope == StateScope::Session {
            self.records.push((id, record));
        }
    }

    /// Apply to `at` the session records written before entry `id`.
    pub(super) fn advance(&mut self, at: &mut StateAt, id: u64) {
        while let Some((written, record)) = self.records.get(self.next)
            && *written < id
        {
            at.apply(record);
            self.next += 1;
        }
    }
}

/// The [`ScopedState`] one re-executed call sees: the recorded values at its point, under what
/// the call itself wrote (kept in memory, never in the session).
pub(super) struct Recalled {
    at: StateAt,
    written: Mutex<HashMap<(Slot, bool), Option<StateValue>>>,
}

impl Recalled {
    pub(super) fn new(at: StateAt) -> Self {
        Self {
            at,
            written: Mutex::new(HashMap::new()),
        }
    }
}

/// Where project and user state would be for a re-execution: nowhere — those are files of
/// today, not history, so every read and write is [`StateError::Unavailable`].
pub(super) struct NotRecorded;

impl ScopedState for NotRecorded {
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError> {
        Err(StateError::Unavailable(key.scope.name()))
    }

    fn set(
        &self,
        key: &StateKey,
        _value: Option<StateValue>,
        _cause: Option<EntryId>,
    ) -> Result<(), StateError> {
        Err(StateError::Unavailable(key.scope.name()))
    }
}

fn slot(key: &StateKey) -> Slot {
    (key.owner.clone(), key.name.clone())
}

impl ScopedState for Recalled {
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError> {
        let branch = match key.scope {
            StateScope::Branch => true,
            StateScope::Session => false,
            other => return Err(StateError::Unavailable(other.name())),
        };
        let written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(value) = written.get(&(slot(key), branch)) {
            return Ok(value.clone());
        }
        let map = if branch {
            &self.at.branch
        } else {
            &self.at.session
        };
        Ok(map.get(&slot(key)).cloned().flatten())
    }

    fn set(
        &self,
        key: &StateKey,
        value: Option<StateValue>,
        _cause: Option<EntryId>,
    ) -> Result<(), StateError> {
        let branch = match key.scope {
            StateScope::Branch => true,
            StateScope::Session => false,
            other => return Err(StateError::Unavailable(other.name())),
        };
        self.written
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert((slot(key), branch), value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(scope: StateScope, value: Option<u64>) -> StateRecord {
        StateRecord {
            owner: "p".to_owned(),
            name: "n".to_owned(),
            scope,
            version: 2,
            value: value.map(serde_json::Value::from),
        }
    }

    fn key(scope: StateScope) -> StateKey {
        StateKey {
            owner: "p".to_owned(),
            name: "n".to_owned(),
            scope,
        }
    }

    #[test]
    fn a_call_sees_the_values_before_it_and_its_own_writes_only() {
        let mut at = StateAt::default();
        let mut session = SessionRecords::default();
        session.push(3, record(StateScope::Session, Some(1)));
        session.push(9, record(StateScope::Session, Some(2)));
        session.push(4, record(StateScope::Branch, Some(5)));
        at.apply(&record(StateScope::Branch, Some(7)));
        session.advance(&mut at, 5);
        let first = Recalled::new(at.clone());
        let value = |r: &Recalled, s| r.get(&key(s)).unwrap().map(|v| v.value);
        assert_eq!(value(&first, StateScope::Session), Some(1.into()));
        assert_eq!(value(&first, StateScope::Branch), Some(7.into()));
        first.set(&key(StateScope::Branch), None, None).unwrap();
        assert_eq!(value(&first, StateScope::Branch), None);
        // Another call at the same point does not see the first one's write.
        let second = Recalled::new(at.clone());
        assert_eq!(value(&second, StateScope::Branch), Some(7.into()));
        // A removal recorded later is a removal.
        at.apply(&record(StateScope::Branch, None));
        session.advance(&mut at, 10);
        let later = Recalled::new(at);
        assert_eq!(value(&later, StateScope::Branch), None);
        assert_eq!(value(&later, StateScope::Session), Some(2.into()));
        assert!(matches!(
            later.get(&key(StateScope::Project)),
            Err(StateError::Unavailable("project"))
        ));
        assert!(later.set(&key(StateScope::User), None, None).is_err());
        assert!(matches!(
            NotRecorded.get(&key(StateScope::User)),
            Err(StateError::Unavailable("user"))
        ));
    }
}
