//! Smith's bundled working-tree history (Smith spec: Replay and VCS — VCS-backed history may
//! be used for snapshots, diffs, undo, redo, restore and time travel, attributable to session
//! events).
//!
//! Answers each `snapshot` event — before and after a tool batch that may change files — by
//! snapshotting the working tree through the `vcs` facility (an effect the host records under
//! the batch's call) and naming the snapshot it took in one `snapshot` action. The runtime
//! records the before/after pair as the batch's `vcs` record when the tree changed. The note
//! says which batch it was, so `git log` of Smith's history repository reads as the session.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent, SnapshotEvent, SnapshotPhase};
use smith_plugin_sdk::vcs::{self, VcsError};

struct History;

/// The snapshot's message: the side of the batch, its round and its tools.
fn note(e: &SnapshotEvent) -> String {
    let side = match e.phase {
        SnapshotPhase::Before => "before",
        SnapshotPhase::After => "after",
    };
    let mut tools = e.tools.clone();
    tools.dedup();
    format!(
        "{side} the tool batch of round {} ({} call{}: {})",
        e.round,
        e.calls.len(),
        if e.calls.len() == 1 { "" } else { "s" },
        tools.join(", ")
    )
}

/// Why a snapshot failed, in the facility's words.
fn why(e: VcsError) -> String {
    match e {
        VcsError::Denied(m)
        | VcsError::Unavailable(m)
        | VcsError::NotFound(m)
        | VcsError::Refused(m)
        | VcsError::Io(m) => m,
        VcsError::Cancelled => "cancelled before the snapshot started".to_owned(),
    }
}

impl Guest for History {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        match event {
            LifecycleEvent::Snapshot(e) => {
                let taken = vcs::snapshot(&note(&e)).map_err(why)?;
                Ok(vec![Action::Snapshot(taken.id)])
            }
            _ => Ok(Vec::new()),
        }
    }
}

export_handler_plugin!(History);
