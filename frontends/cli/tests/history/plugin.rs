//! The snapshots are the bundled `history` plugin's (the `vcs` facility, WIT 0.5.0): each one
//! an effect recorded under the batch's call, the ids it names the ones the records keep; with
//! the plugin disabled no snapshot is taken and there is nothing to undo.

use smith_store::{Record, read_session};

use super::{Project, tree, vcs_records};
use crate::common::stderr;

#[test]
fn each_snapshot_is_the_history_plugins_effect_recorded_under_the_batchs_call() {
    let p = Project::new();
    let session = p.run();
    let entries = read_session(&session).unwrap().entries;
    let mut intents = Vec::new();
    let mut completions = std::collections::BTreeMap::new();
    for e in &entries {
        match &e.record {
            Record::EffectIntent(i) if i.effect == "vcs.snapshot" => intents.push(i.clone()),
            Record::EffectCompletion(c) => {
                completions.insert(c.effect_id.clone(), c.clone());
            }
            _ => {}
        }
    }
    // Before and after each of the two batches, under its (only) call.
    let calls: Vec<&str> = intents.iter().map(|i| i.call_id.as_str()).collect();
    assert_eq!(calls, ["c1", "c1", "c2", "c2"], "{intents:?}");
    let root = p.dir.canonicalize().unwrap();
    let mut taken = Vec::new();
    for i in &intents {
        assert!(i.plugin.starts_with("history@0.1.0"), "{}", i.plugin);
        assert_eq!(i.tool, "history");
        assert_eq!(i.target.as_deref(), root.to_str());
        assert!(
            i.effect_id.starts_with(&format!("{}/vcs-", i.call_id)),
            "{}",
            i.effect_id
        );
        let done = &completions[&i.effect_id];
        assert_eq!(done.outcome, smith::EffectOutcome::Applied);
        taken.push(done.evidence["snapshot"].as_str().unwrap().to_owned());
    }
    // The vcs records keep exactly the snapshots the plugin took.
    let records = vcs_records(&session);
    let kept: Vec<&str> = records
        .iter()
        .flat_map(|(_, r)| [r.before.as_str(), r.after.as_str()])
        .collect();
    assert_eq!(kept, taken.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn with_the_history_plugin_disabled_no_snapshot_is_taken_and_nothing_can_be_undone() {
    let p = Project::new();
    let before = tree(&p.dir);
    let session = p.run_with(&["--disable-plugin", "history"]);
    assert_ne!(tree(&p.dir), before, "the tools still ran");
    assert!(vcs_records(&session).is_empty());
    let snapshots = read_session(&session)
        .unwrap()
        .entries
        .into_iter()
        .filter(|e| matches!(&e.record, Record::EffectIntent(i) if i.effect.starts_with("vcs.")))
        .count();
    assert_eq!(snapshots, 0);
    let undo = p.smith(&["undo"]);
    assert_eq!(undo.status.code(), Some(2), "{}", stderr(&undo));
}
