//! Working-tree snapshots around a round's tool batch (spec: Replay and VCS — VCS-backed
//! history attributable to session events): one before the first call of a batch that holds
//! a call not declared read-only, one after its last, and a `vcs` record of the pair in the
//! batch's last committed change when they differ. A snapshot that fails is reported once per
//! run as a warning and the batch runs unbracketed.

use smith::{Mark, SnapshotPhase, SnapshotRequest, StopReason, ToolCall, ToolContext};
use smith_store::{VcsOp, VcsRecord};
use smith_ui_intents::{Intent, NoticeLevel};

use crate::run::{Agent, Run};

/// The snapshot before a bracketed batch.
pub(crate) struct Before {
    mark: Mark,
    round: u32,
    calls: Vec<ToolCall>,
}

impl Agent<'_> {
    /// The snapshot before the batch `calls` of `round`, when it must be bracketed: there is
    /// a history, the response ended for tool use, and a call of an active tool is not declared
    /// read-only (a call of no active tool runs nothing, so it changes nothing).
    pub(crate) fn snapshot_before(
        &self,
        run: &mut Run<'_>,
        round: u32,
        stop: StopReason,
        calls: &[ToolCall],
    ) -> Option<Before> {
        let history = self.history.filter(|h| h.enabled())?;
        if stop != StopReason::ToolUse {
            return None;
        }
        let active: std::collections::HashSet<String> = self
            .tools
            .definitions()
            .into_iter()
            .map(|d| d.name)
            .collect();
        if !calls
            .iter()
            .any(|c| active.contains(&c.name) && !self.tools.read_only(&c.name))
        {
            return None;
        }
        let context = context(run, self);
        let request = SnapshotRequest {
            phase: SnapshotPhase::Before,
            round,
            calls,
            context: &context,
            cancel: run.cancel,
        };
        match history.snapshot(&request) {
            Ok(mark) => Some(Before {
                mark,
                round,
                calls: calls.to_vec(),
            }),
            Err(e) => {
                warn(run, &e);
                None
            }
        }
    }

    /// The `vcs` record of a bracketed batch, after its last call ran: `None` when the batch
    /// changed nothing in the tree (or the snapshot failed).
    ///
    /// It is taken also when the run was aborted meanwhile: what the batch's calls changed
    /// before the abort stopped them must stay undoable, so the run's cancel does not reach
    /// this snapshot (the history plugin's deadline still bounds it).
    pub(crate) fn snapshot_after(&self, run: &mut Run<'_>, before: Before) -> Option<VcsRecord> {
        let history = self.history?;
        let context = context(run, self);
        let unaborted = smith::Cancel::new();
        let request = SnapshotRequest {
            phase: SnapshotPhase::After,
            round: before.round,
            calls: &before.calls,
            context: &context,
            cancel: &unaborted,
        };
        match history.snapshot(&request) {
            Ok(after) if after.snapshot == before.mark.snapshot => None,
            Ok(after) => Some(VcsRecord {
                op: VcsOp::Batch,
                root: after.root,
                before: before.mark.snapshot,
                after: after.snapshot,
                round: Some(before.round),
                submission: run.submission,
                calls: before.calls.iter().map(|c| c.id.clone()).collect(),
                steps: Vec::new(),
                target: None,
                written: Vec::new(),
                deleted: Vec::new(),
                turns: Vec::new(),
            }),
            Err(e) => {
                warn(run, &e);
                None
            }
        }
    }
}

/// Where a snapshot's effects are recorded: the run's journal, caused by the entry holding the
/// batch's calls (as the calls' own effects are).
fn context(run: &Run<'_>, agent: &Agent<'_>) -> ToolContext {
    ToolContext {
        cwd: agent.cwd.clone(),
        journal: std::sync::Arc::new(run.session.journal()),
        cause: run.session.call_message,
        events: None,
        state: Some(std::sync::Arc::new(run.session.journal())),
        resident: None,
    }
}

fn warn(run: &mut Run<'_>, error: &smith::HistoryError) {
    if std::mem::replace(&mut run.history_reported, true) {
        return;
    }
    run.sink.emit(Intent::Notice {
        level: NoticeLevel::Warning,
        text: format!(
            "the working tree was not snapshotted around a tool batch: {error}; undo cannot take this run's changes back"
        ),
    });
}
