//! The `smith:plugin/vcs` imports: working-tree snapshots, diffs and restores on the run's
//! [`smith::WorkingTree`] (the composition root's project history), each a durable effect
//! (`vcs.snapshot`, `vcs.diff`, `vcs.restore`). Diffs are redacted before the plugin sees them:
//! registered secrets appear as their references.

use std::sync::Arc;

use serde_json::json;
use smith::{EffectOutcome, HistoryError, HistoryErrorKind, WorkingTree};

use crate::effects::{CallState, Done, EffectCall, EffectError};
use crate::grants::Effect;
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::vcs as wit;

/// The largest diff a plugin gets, in bytes; a longer one is cut at a line and says so.
pub const MAX_DIFF_BYTES: usize = 1 << 20;

/// The largest snapshot note, in bytes.
pub const MAX_NOTE_BYTES: usize = 4 * 1024;

/// The most skipped paths a snapshot names to the plugin.
const MAX_SKIPPED: usize = 20;

/// The working tree a run's `vcs` facility works on: the project's history, or none (the
/// user's `history.snapshots` setting is off).
#[derive(Clone, Default)]
pub struct Tree(pub Option<Arc<dyn WorkingTree>>);

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(tree) => write!(f, "Tree({:?})", tree.root()),
            None => f.write_str("Tree(none)"),
        }
    }
}

impl PartialEq for Tree {
    /// The same history, or none on both sides.
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for Tree {}

impl EffectError for wit::VcsError {
    fn denied(message: String) -> Self {
        Self::Denied(message)
    }
    fn cancelled() -> Self {
        Self::Cancelled
    }
    fn io(message: String) -> Self {
        Self::Io(message)
    }
}

fn to_wit(e: HistoryError) -> wit::VcsError {
    match e.kind {
        HistoryErrorKind::Unavailable => wit::VcsError::Unavailable(e.message),
        HistoryErrorKind::NotFound => wit::VcsError::NotFound(e.message),
        HistoryErrorKind::Refused => wit::VcsError::Refused(e.message),
        HistoryErrorKind::Io => wit::VcsError::Io(e.message),
    }
}

/// `text` cut at the last line end within `max` bytes, saying how much was left out.
fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |i| i + 1);
    format!(
        "{}[… {} bytes of the diff cut: it is over {max} bytes]\n",
        &text[..end],
        text.len() - end
    )
}

impl CallState {
    /// Run history effect `effect` durably on the run's working tree.
    fn vcs_effect<T>(
        &mut self,
        effect: Effect,
        input: serde_json::Value,
        run: impl FnOnce(&dyn WorkingTree, &CallState) -> Result<(T, serde_json::Value), HistoryError>,
    ) -> Result<T, wit::VcsError> {
        let tree = self.policy.tree.0.clone();
        let target = tree
            .as_ref()
            .map(|t| t.root().to_owned())
            .unwrap_or_default();
        let call = EffectCall {
            effect,
            target: &target,
            input,
            leaves_sandbox: false,
            refused: None,
        };
        self.durable(call, |state| {
            let Some(tree) = tree.as_deref() else {
                let why = "there is no working-tree history in this run: the history.snapshots setting is off".to_owned();
                return Done::not_applied(wit::VcsError::Unavailable(why.clone()), why);
            };
            match run(tree, state) {
                Ok((value, evidence)) => Done {
                    outcome: EffectOutcome::Applied,
                    result: Ok(value),
                    output: evidence.to_string().into_bytes(),
                    evidence,
                },
                Err(e) => {
                    // A restore that failed part way may have written: its state is unknown.
                    let outcome = if effect == Effect::VcsRestore && e.kind == HistoryErrorKind::Io {
                        EffectOutcome::Unknown
                    } else {
                        EffectOutcome::NotApplied
                    };
                    let text = e.message.clone();
                    Done {
                        outcome,
                        result: Err(to_wit(e)),
                        output: text.into_bytes(),
                        evidence: serde_json::Value::Null,
                    }
                }
            }
        })
    }
}

impl wit::Host for State {
    fn snapshot(&mut self, note: String) -> Result<wit::SnapshotInfo, wit::VcsError> {
        if note.len() > MAX_NOTE_BYTES {
            return Err(wit::VcsError::Refused(format!(
                "the snapshot note is {} bytes, over the {MAX_NOTE_BYTES}-byte bound; shorten it",
                note.len()
            )));
        }
        let taken =
            self.call
                .vcs_effect(Effect::VcsSnapshot, json!({"note": note}), |tree, _| {
                    let (mark, skipped) = tree.snapshot(&note)?;
                    let evidence = json!({"snapshot": mark.snapshot, "skipped": skipped.len()});
                    Ok(((mark, skipped), evidence))
                })?;
        let (mark, skipped) = taken;
        self.call.snapshots.push(mark.snapshot.clone());
        Ok(wit::SnapshotInfo {
            id: mark.snapshot,
            root: mark.root,
            skipped: skipped.into_iter().take(MAX_SKIPPED).collect(),
        })
    }

    fn diff(&mut self, base: String, target: Option<String>) -> Result<String, wit::VcsError> {
        let input = json!({"base": base, "target": target});
        self.call.vcs_effect(Effect::VcsDiff, input, |tree, state| {
            let diff = tree.diff(&base, target.as_deref())?;
            let redacted = state
                .policy
                .secrets
                .current()
                .redact(&diff.patch)
                .into_owned();
            let text = bounded(&redacted, MAX_DIFF_BYTES);
            let evidence = json!({"files": diff.files, "bytes": redacted.len()});
            Ok((text, evidence))
        })
    }

    fn restore(&mut self, target: String) -> Result<wit::RestoreReport, wit::VcsError> {
        let input = json!({"target": target});
        self.call
            .vcs_effect(Effect::VcsRestore, input, |tree, _| {
                let done = tree.restore(&target)?;
                let evidence = json!({
                    "before": done.before,
                    "target": done.target,
                    "written": done.written,
                    "deleted": done.deleted,
                });
                Ok((done, evidence))
            })
            .map(|done| wit::RestoreReport {
                before: done.before,
                written: done.written,
                deleted: done.deleted,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::bounded;

    #[test]
    fn a_long_diff_is_cut_at_a_line_and_says_so() {
        let text = "line one\nline two\nline three\n";
        assert_eq!(bounded(text, 100), text);
        let cut = bounded(text, 12);
        assert!(cut.starts_with("line one\n["), "{cut}");
        assert!(cut.contains("20 bytes of the diff cut"), "{cut}");
    }
}
