//! The working-tree history through real wasm components (SMH-SPEC-SPEC0001: Replay and VCS;
//! Tools → Durable effect boundary): the bundled `history` plugin snapshots through the `vcs`
//! facility, each call an effect recorded under the batch's call; the host accepts only an id
//! the handler's own `vcs.snapshot` returned, and exactly one; a diff reaches the plugin with
//! secrets as references; a restore without its grant is denied and recorded; with no working
//! tree (the setting off) or no `history` handler, no snapshots are taken.

mod common;

use std::sync::{Arc, Mutex};

use common::{Fixture, cache, source};
use smith::{
    Cancel, EffectOutcome, History, HistoryError, HistoryErrorKind, Mark, SnapshotPhase,
    SnapshotRequest, ToolCall, TreeDiff, TreeRestore, WorkingTree,
};
use smith_host::{Host, Limits, Policy, Tree};
use smith_store::{Record, read_session};

const SECRET: &str = "hunter2-very-secret-value";

/// A working tree that hands out numbered snapshot ids and remembers the notes.
#[derive(Default)]
struct Numbered {
    notes: Mutex<Vec<String>>,
}

impl WorkingTree for Numbered {
    fn root(&self) -> &str {
        "/project"
    }

    fn snapshot(&self, note: &str) -> Result<(Mark, Vec<String>), HistoryError> {
        let mut notes = self.notes.lock().unwrap();
        notes.push(note.to_owned());
        let mark = Mark {
            snapshot: format!("{:040x}", notes.len()),
            root: self.root().to_owned(),
        };
        Ok((mark, vec!["big.bin (over the bound)".to_owned()]))
    }

    fn diff(&self, _base: &str, _target: Option<&str>) -> Result<TreeDiff, HistoryError> {
        Ok(TreeDiff {
            patch: format!("--- a/.env\n+++ b/.env\n@@ -0,0 +1 @@\n+TOKEN={SECRET}\n"),
            files: 1,
        })
    }

    fn restore(&self, target: &str) -> Result<TreeRestore, HistoryError> {
        Err(HistoryError::new(
            HistoryErrorKind::NotFound,
            format!("no snapshot `{target}`"),
        ))
    }
}

fn loadout(
    plugin: &'static smith_plugins::BundledPlugin,
    tree: Option<Arc<dyn WorkingTree>>,
    secrets: smith_secrets::Shared,
) -> smith_host::Loadout {
    let host = Host::load(&[source(plugin)], &cache(), Limits::default()).unwrap();
    host.loadout().with_policy(Policy {
        tree: Tree(tree),
        secrets,
        ..Policy::default()
    })
}

fn history_plugin() -> &'static smith_plugins::BundledPlugin {
    smith_plugins::BUNDLED
        .iter()
        .find(|p| p.manifest.contains("plugin \"history\""))
        .unwrap()
}

fn calls() -> Vec<ToolCall> {
    ["write", "bash"]
        .iter()
        .enumerate()
        .map(|(i, name)| ToolCall {
            id: format!("c{}", i + 1),
            name: (*name).to_owned(),
            arguments: serde_json::json!({}),
        })
        .collect()
}

fn snapshot(
    history: &dyn History,
    fixture: &Fixture,
    phase: SnapshotPhase,
    round: u32,
) -> Result<Mark, HistoryError> {
    let calls = calls();
    let context = fixture.context();
    history.snapshot(&SnapshotRequest {
        phase,
        round,
        calls: &calls,
        context: &context,
        cancel: &Cancel::new(),
    })
}

#[test]
fn the_bundled_plugin_snapshots_through_vcs_and_each_call_is_a_recorded_effect() {
    let fixture = Fixture::new();
    let tree = Arc::new(Numbered::default());
    let history = loadout(
        history_plugin(),
        Some(tree.clone()),
        smith_secrets::Shared::default(),
    );
    assert!(history.enabled());
    let before = snapshot(&history, &fixture, SnapshotPhase::Before, 1).unwrap();
    let after = snapshot(&history, &fixture, SnapshotPhase::After, 1).unwrap();
    assert_eq!(before.snapshot, format!("{:040x}", 1));
    assert_eq!(after.snapshot, format!("{:040x}", 2));
    assert_eq!(after.root, "/project");
    assert_eq!(
        *tree.notes.lock().unwrap(),
        [
            "before the tool batch of round 1 (2 calls: write, bash)",
            "after the tool batch of round 1 (2 calls: write, bash)"
        ]
    );
    // Each snapshot is an effect: before under the batch's first call, after under its last.
    let entries = read_session(&fixture.session).unwrap().entries;
    let intents: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectIntent(i) => Some((
                i.effect_id.as_str(),
                i.call_id.as_str(),
                i.tool.as_str(),
                i.effect.as_str(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        intents,
        [
            ("c1/vcs-before-1", "c1", "history", "vcs.snapshot"),
            ("c2/vcs-after-1", "c2", "history", "vcs.snapshot")
        ]
    );
    assert_eq!(
        fixture.effects(),
        [
            ("vcs.snapshot".to_owned(), EffectOutcome::Applied),
            ("vcs.snapshot".to_owned(), EffectOutcome::Applied)
        ]
    );
}

#[test]
fn no_working_tree_or_no_history_handler_takes_no_snapshot() {
    let off = loadout(history_plugin(), None, smith_secrets::Shared::default());
    assert!(!off.enabled(), "the setting is off");
    let queue = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.manifest.contains("plugin \"queue\""))
        .unwrap();
    let none = loadout(
        queue,
        Some(Arc::new(Numbered::default())),
        smith_secrets::Shared::default(),
    );
    assert!(!none.enabled(), "no plugin holds the history role");
    let fixture = Fixture::new();
    let err = snapshot(&none, &fixture, SnapshotPhase::Before, 1).unwrap_err();
    assert!(err.message.contains("`history` role"), "{err}");
}

#[test]
fn a_handler_may_name_only_the_one_snapshot_it_took_and_sees_diffs_redacted() {
    let fixture = Fixture::new();
    let secrets = smith_secrets::Shared::default();
    secrets.register("TOKEN", SECRET, None, "test").unwrap();
    let tree = Arc::new(Numbered::default());
    let forged = loadout(&smith_plugins::FORGED_HISTORY, Some(tree.clone()), secrets);

    // An id its vcs.snapshot never returned.
    let err = snapshot(&forged, &fixture, SnapshotPhase::Before, 1).unwrap_err();
    assert!(
        err.message.contains("did not return in this answer"),
        "{err}"
    );
    assert!(tree.notes.lock().unwrap().is_empty(), "nothing was taken");
    // Two ids for one snapshot.
    let err = snapshot(&forged, &fixture, SnapshotPhase::Before, 2).unwrap_err();
    assert!(err.message.contains("named 2 snapshots"), "{err}");
    // The diff it is given shows the secret's reference, never its value.
    let err = snapshot(&forged, &fixture, SnapshotPhase::Before, 3).unwrap_err();
    assert!(err.message.contains("+TOKEN=⟦secret:TOKEN⟧"), "{err}");
    assert!(!err.message.contains(SECRET), "{err}");
    // A restore without the vcs.restore grant is denied, and recorded as not applied.
    let err = snapshot(&forged, &fixture, SnapshotPhase::Before, 4).unwrap_err();
    assert!(
        err.message.contains("denied") && err.message.contains("vcs.restore"),
        "{err}"
    );
    let effects = fixture.effects();
    assert_eq!(
        effects.last().unwrap(),
        &("vcs.restore".to_owned(), EffectOutcome::NotApplied)
    );
    assert_eq!(
        effects
            .iter()
            .filter(|(e, _)| e == "vcs.diff")
            .collect::<Vec<_>>(),
        [&("vcs.diff".to_owned(), EffectOutcome::Applied)]
    );
    // Behaving, it works.
    let mark = snapshot(&forged, &fixture, SnapshotPhase::After, 5).unwrap();
    assert_eq!(mark.root, "/project");
}
