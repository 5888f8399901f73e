//! A misbehaving `history` handler for the host's tests. What it does at a `snapshot` event
//! is chosen by the round:
//!
//! - 1: name a snapshot id it never took (the host must refuse it);
//! - 2: take two snapshots and name both (one is wanted);
//! - 3: diff the snapshot `0000000` to the tree now and fail with the diff's text (so the test
//!   sees what the plugin was given: secrets must be references);
//! - 4: restore a snapshot without the `vcs.restore` grant and fail with the error;
//! - otherwise: behave (one snapshot, named).

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent};
use smith_plugin_sdk::vcs::{self, VcsError};

struct Forged;

fn text(e: VcsError) -> String {
    match e {
        VcsError::Denied(m) => format!("denied: {m}"),
        VcsError::Unavailable(m) => format!("unavailable: {m}"),
        VcsError::NotFound(m) => format!("not-found: {m}"),
        VcsError::Refused(m) => format!("refused: {m}"),
        VcsError::Io(m) => format!("io: {m}"),
        VcsError::Cancelled => "cancelled".to_owned(),
    }
}

impl Guest for Forged {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        let LifecycleEvent::Snapshot(e) = event else {
            return Ok(Vec::new());
        };
        match e.round {
            1 => Ok(vec![Action::Snapshot("ab".repeat(20))]),
            2 => {
                let a = vcs::snapshot("one").map_err(text)?;
                let b = vcs::snapshot("two").map_err(text)?;
                Ok(vec![Action::Snapshot(a.id), Action::Snapshot(b.id)])
            }
            3 => Err(format!(
                "diff: {}",
                vcs::diff("0000000", None).map_err(text)?
            )),
            4 => Err(vcs::restore("0000000")
                .map(|_| "restored".to_owned())
                .unwrap_or_else(text)),
            _ => {
                let taken = vcs::snapshot("fine").map_err(text)?;
                Ok(vec![Action::Snapshot(taken.id)])
            }
        }
    }
}

export_handler_plugin!(Forged);
