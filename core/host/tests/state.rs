//! Durable plugin state through the `state` import, with real components and a real session
//! file: the `policy-probe` test plugin counts in each scope and meets each bound; the bundled
//! `permissions` plugin keeps what the person allowed "for the rest of this session" in its
//! session state, and writes "always in this project" as allow rules to the project's
//! configuration.

mod common;

use std::sync::Arc;

use common::Fixture;
use common::policy::{call_answering, call_answering_in, host, policy};
use serde_json::json;
use smith::{ScopedState, StateError, StateKey, StateValue};
use smith_host::{PermissionMode, Policy};
use smith_store::{Record, SessionWriter, SharedWriter, read_session};

/// Project and user state kept in memory, as the composition root's files would keep it.
#[derive(Default)]
struct Files(std::sync::Mutex<std::collections::HashMap<String, StateValue>>);

impl ScopedState for Files {
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError> {
        Ok(self.0.lock().unwrap().get(&key.name).cloned())
    }
    fn set(
        &self,
        key: &StateKey,
        value: Option<StateValue>,
        _: Option<smith::EntryId>,
    ) -> Result<(), StateError> {
        let mut map = self.0.lock().unwrap();
        match value {
            Some(v) => map.insert(key.name.clone(), v),
            None => map.remove(&key.name),
        };
        Ok(())
    }
}

fn with_files(mut policy: Policy, files: &Arc<Files>) -> Policy {
    policy.state_files = smith_host::StateFiles(Some(files.clone() as Arc<dyn ScopedState>));
    policy
}

#[test]
fn each_scope_keeps_its_value_and_session_state_survives_reopening_the_session() {
    let host = host();
    let files = Arc::new(Files::default());
    let tools = host
        .loadout()
        .with_policy(with_files(policy(PermissionMode::Auto, &[], &[]), &files));
    let f = Fixture::new();
    let args = json!({"path": "count-branch count-session count-project count-user"});
    for n in 1..=2 {
        let out = f.call(&tools, "read", args.clone());
        for scope in ["branch", "session", "project", "user"] {
            assert!(
                out.output.contains(&format!("{scope} count {n}")),
                "{}",
                out.output
            );
        }
    }
    // Branch and session values are records of the session; project and user values are not.
    let scopes: Vec<_> = read_session(&f.session)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::State(s) => Some((s.owner, s.name, s.value)),
            _ => None,
        })
        .collect();
    assert_eq!(scopes.len(), 4, "{scopes:?}");
    assert!(scopes.iter().all(|(owner, _, _)| owner == "policy-probe"));
    assert_eq!(files.0.lock().unwrap().len(), 2);

    // The session reopened by another writer: the counters go on from the records.
    let session = f.session.clone();
    let id = f.writer.lock().id();
    let Fixture { work, writer, .. } = f;
    drop(writer);
    let (reopened, _) = SessionWriter::open(&session, id).unwrap();
    let reopened = SharedWriter::new(reopened);
    let context = smith::ToolContext {
        cwd: Some(work.path().to_owned()),
        journal: Arc::new(reopened.clone()),
        cause: None,
        events: None,
        state: Some(Arc::new(reopened)),
        resident: None,
    };
    let call = smith::ToolCall {
        id: "again".into(),
        name: "read".into(),
        arguments: json!({"path": "count-branch count-session"}),
    };
    let out = smith::ToolRegistry::call(&tools, &call, &context, &smith::Cancel::new());
    assert!(
        out.output.contains("branch count 3") && out.output.contains("session count 3"),
        "{}",
        out.output
    );
}

#[test]
fn bounds_are_typed_errors_and_nothing_is_written() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "read",
        json!({"path": "state-big state-undeclared remember-outside count-project"}),
    );
    assert!(
        out.output.contains("big: Err(StateError::TooLarge(102))"),
        "{}",
        out.output
    );
    assert!(
        out.output
            .contains("undeclared: Err(StateError::Undeclared(\"nope\"))"),
        "{}",
        out.output
    );
    assert!(
        out.output.contains("remember: Err(") && out.output.contains("only while answering"),
        "{}",
        out.output
    );
    // No data home here: project state says it is unavailable, naming why.
    assert!(
        out.output
            .contains("project get failed: StateError::Unavailable(")
            && out.output.contains("data home"),
        "{}",
        out.output
    );
    let written = read_session(&f.session)
        .unwrap()
        .entries
        .into_iter()
        .filter(|e| matches!(e.record, Record::State(_)))
        .count();
    assert_eq!(written, 0, "a refused write writes nothing");
}

#[test]
fn allowed_for_the_session_the_same_program_runs_unasked_and_a_new_one_still_asks() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::AutoEdit, &[], &[]));
    let f = Fixture::new();
    let run = |command: &str, choose| {
        call_answering(&f, &tools, "bash", json!({"command": command}), choose)
    };
    let (out, prompts) = run(
        "echo one && echo two",
        Some("Allow these 2 commands for the rest of this session"),
    );
    assert!(
        !out.is_error && out.output.contains("two"),
        "{}",
        out.output
    );
    assert_eq!(prompts.len(), 1);
    assert!(
        !prompts[0].contains("always in this project"),
        "no project configuration is read here, so none is offered: {prompts:?}"
    );
    let (out, prompts) = run("echo one && echo two", None);
    assert!(!out.is_error, "{}", out.output);
    assert!(prompts.is_empty(), "asked again: {prompts:?}");
    // Part by part: a known part with a new one asks.
    let (out, prompts) = run("echo one; echo three", None);
    assert!(out.is_error && prompts.len() == 1, "{}", out.output);
}

#[test]
fn allowed_for_the_project_the_rules_go_to_its_configuration_and_hold_for_the_session() {
    let host = host();
    let f = Fixture::new();
    let config = f.root().join(".smith").join("config.kdl");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "// mine\npermissions.allow \"bash(ls)\"\n").unwrap();
    let mut policy = policy(PermissionMode::Ask, &[], &[]);
    policy.permissions = policy.permissions.with_project_config(Some(config.clone()));
    let tools = host.loadout().with_policy(policy);
    let label = format!(
        "Allow `write` to write files always in this project (adds write to permissions.allow in {})",
        config.display()
    );
    let label: &'static str = Box::leak(label.into_boxed_str());
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "write",
        json!({"path": "a.txt", "content": "a"}),
        Some(label),
    );
    assert!(!out.is_error, "{}", out.output);
    assert_eq!(prompts.len(), 1);
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "// mine\npermissions.allow \"bash(ls),write\"\n"
    );
    // For this session too: the next write runs unasked.
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "write",
        json!({"path": "b.txt", "content": "b"}),
        None,
    );
    assert!(
        !out.is_error && prompts.is_empty(),
        "{} {prompts:?}",
        out.output
    );
    assert!(f.root().join("b.txt").exists());
}

/// Session state that reads but cannot be written, as a full disk leaves it.
struct Unwritable;

impl ScopedState for Unwritable {
    fn get(&self, _: &StateKey) -> Result<Option<StateValue>, StateError> {
        Ok(None)
    }
    fn set(
        &self,
        key: &StateKey,
        _: Option<StateValue>,
        _: Option<smith::EntryId>,
    ) -> Result<(), StateError> {
        Err(StateError::Storage {
            scope: key.scope.name(),
            source: "no space left on device".into(),
        })
    }
}

#[test]
fn a_lasting_choice_is_offered_only_where_it_can_be_kept_and_one_not_kept_is_said() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::AutoEdit, &[], &[]));
    let f = Fixture::new();
    let args = json!({"command": "echo kept"});
    const FOR_SESSION: &str = "Allow this command for the rest of this session";

    // Without session state (a run outside a session), "for the session" is not offered.
    let outside = smith::ToolContext {
        state: None,
        ..f.context()
    };
    let (out, prompts) =
        call_answering_in(outside, &tools, "bash", args.clone(), Some("Allow once"));
    assert!(!out.is_error, "{}", out.output);
    assert_eq!(prompts.len(), 1);
    assert!(!prompts[0].contains("rest of this session"), "{prompts:?}");

    // Offered, chosen, and the store fails: it runs this once, the result says it was not
    // kept and why, and the next call asks again.
    let failing = || smith::ToolContext {
        state: Some(Arc::new(Unwritable) as Arc<dyn ScopedState>),
        ..f.context()
    };
    let (out, prompts) =
        call_answering_in(failing(), &tools, "bash", args.clone(), Some(FOR_SESSION));
    assert!(!out.is_error, "{}", out.output);
    assert!(out.output.contains("kept\n"), "{}", out.output);
    assert!(
        out.output.contains(
            "allowed this once only: the choice to allow it for the rest of this session could not be kept ("
        ) && out.output.contains("no space left on device"),
        "{}",
        out.output
    );
    assert_eq!(prompts.len(), 1);
    let (out, prompts) = call_answering_in(failing(), &tools, "bash", args, None);
    assert!(
        out.is_error && prompts.len() == 1,
        "{} {prompts:?}",
        out.output
    );
}
