//! Branch and session plugin state kept in the session file (spec: Sessions → Scoped state):
//! the latest value of a slot on the selected branch or in the whole session, surviving a
//! reopen, seen as it was at an earlier entry, and copied by a fork as of its fork point.

use serde_json::json;
use smith::{EntryId, ScopedState, SessionId, StateKey, StateScope, StateValue};
use smith_store::{Record, SessionStart, SessionWriter, SharedWriter, fork, read_session};

fn key(scope: StateScope) -> StateKey {
    StateKey {
        owner: "permissions".into(),
        name: "allowed".into(),
        scope,
    }
}

fn value(v: serde_json::Value) -> Option<StateValue> {
    Some(StateValue {
        version: 1,
        value: v,
    })
}

fn start() -> Record {
    Record::SessionStart(SessionStart {
        smith_version: "0.1.0".into(),
        cwd: None,
        imported: None,
    })
}

fn id() -> SessionId {
    SessionId::new_now()
}

#[test]
fn values_survive_reopen_and_branch_values_follow_the_selection() {
    let dir = tempfile::tempdir().unwrap();
    let sid = id();
    let writer = SessionWriter::create(dir.path(), sid).unwrap();
    let path = writer.path().to_owned();
    let shared = SharedWriter::new(writer);
    shared.lock().append(&[start()]).unwrap();
    let (branch, session) = (key(StateScope::Branch), key(StateScope::Session));
    assert_eq!(shared.get(&branch).unwrap(), None);
    shared.set(&branch, value(json!(["a"])), None).unwrap();
    let fork_point = shared.lock().leaf().unwrap();
    shared.set(&branch, value(json!(["a", "b"])), None).unwrap();
    shared.set(&session, value(json!({"n": 1})), None).unwrap();
    assert_eq!(shared.get(&branch).unwrap(), value(json!(["a", "b"])));

    // Selecting the earlier entry shows the branch value as it was there; the session value
    // is the latest written anywhere.
    shared.lock().select(fork_point).unwrap();
    assert_eq!(shared.get(&branch).unwrap(), value(json!(["a"])));
    assert_eq!(shared.get(&session).unwrap(), value(json!({"n": 1})));
    // A new branch from there keeps its own value.
    shared.set(&branch, value(json!(["c"])), None).unwrap();
    assert_eq!(shared.get(&branch).unwrap(), value(json!(["c"])));
    drop(shared);

    // Reopened: the same values, read from the records alone.
    let (writer, _) = SessionWriter::open(&path, sid).unwrap();
    let shared = SharedWriter::new(writer);
    assert_eq!(shared.get(&branch).unwrap(), value(json!(["c"])));
    assert_eq!(shared.get(&session).unwrap(), value(json!({"n": 1})));
    // Removing a value records the removal.
    shared.set(&session, None, None).unwrap();
    assert_eq!(shared.get(&session).unwrap(), None);
    drop(shared);
    let records: Vec<_> = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::State(s) => Some((s.scope, s.value)),
            _ => None,
        })
        .collect();
    assert_eq!(records.len(), 5, "{records:?}");
    assert_eq!(records[4], (StateScope::Session, None));
}

#[test]
fn a_fork_copies_the_state_as_of_its_fork_point() {
    let dir = tempfile::tempdir().unwrap();
    let sid = id();
    let writer = SessionWriter::create(dir.path(), sid).unwrap();
    let path = writer.path().to_owned();
    let shared = SharedWriter::new(writer);
    shared.lock().append(&[start()]).unwrap();
    let (branch, session) = (key(StateScope::Branch), key(StateScope::Session));
    shared.set(&branch, value(json!(1)), None).unwrap();
    shared.set(&session, value(json!("one")), None).unwrap();
    let at = shared.lock().leaf().unwrap();
    shared.set(&branch, value(json!(2)), None).unwrap();
    shared.set(&session, value(json!("two")), None).unwrap();
    drop(shared);

    let forked = fork(&path, dir.path(), id(), Some(at)).unwrap();
    let (writer, _) = SessionWriter::open(&forked.path, forked.id).unwrap();
    let fork = SharedWriter::new(writer);
    assert_eq!(fork.get(&branch).unwrap(), value(json!(1)));
    assert_eq!(fork.get(&session).unwrap(), value(json!("one")));
    // Later writes in the fork do not reach the source.
    fork.set(&session, value(json!("fork")), None).unwrap();
    drop(fork);
    let (writer, _) = SessionWriter::open(&path, sid).unwrap();
    assert_eq!(
        SharedWriter::new(writer).get(&session).unwrap(),
        value(json!("two"))
    );
}

#[test]
fn project_and_user_scopes_are_not_session_records() {
    let dir = tempfile::tempdir().unwrap();
    let shared = SharedWriter::new(SessionWriter::create(dir.path(), id()).unwrap());
    for scope in [StateScope::Project, StateScope::User] {
        assert!(shared.get(&key(scope)).is_err());
        assert!(shared.set(&key(scope), value(json!(1)), None).is_err());
    }
    assert_eq!(shared.lock().leaf(), None::<EntryId>, "nothing was written");
}
