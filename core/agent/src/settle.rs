//! Settlement: work settles only after the work it owns (spec: Work and recovery — a parent
//! settles only after work it owns reaches terminal outcomes). Owned children run in admission
//! order when the owner succeeded, or end unstarted when it did not; then the work's end — its
//! terminal receipt — is recorded, paired with its submission.

use smith::{EntryId, StopReason, UsageTotals};
use smith_store::{NewEntry, Record, RunEnd};

use crate::run::{Agent, Run, RunError};

/// How settling work ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Its end is recorded.
    Ended,
    /// Not ended: the top-level work ended its turn, and input the active queue policy may
    /// deliver was queued after the handlers were last asked (while the turn was ending). The
    /// caller offers it ([`Agent::deliver_late`]) and settles again.
    Reopened,
}

impl Agent<'_> {
    /// Run the owned children of `work` (in admission order, also those admitted meanwhile),
    /// then record `work`'s end — its terminal receipt — paired with it. The end is written
    /// under the work-state lock once no child waits, so no child can be admitted to an owner
    /// that has ended — and, for top-level work that ended its turn, once no queued input
    /// waits that the queue policy was not offered, so none is left behind by an ended turn.
    pub(crate) fn settle(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        stop_reason: StopReason,
        error: Option<&RunError>,
    ) -> Result<Settled, smith_store::Error> {
        let succeeded =
            matches!(stop_reason, StopReason::EndTurn | StopReason::MaxTokens) && error.is_none();
        let settled = self.settle_inner(run, work, stop_reason, error, succeeded);
        if settled.is_err() {
            // The end could not be recorded: the work stays live in the file (settled on the
            // next open), but no run executes it any more.
            let mut state = crate::inbox::lock(&run.session.work);
            if state.running.as_ref().is_some_and(|(w, _)| *w == work) {
                state.running = None;
            }
        }
        settled
    }

    fn settle_inner(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        stop_reason: StopReason,
        error: Option<&RunError>,
        succeeded: bool,
    ) -> Result<Settled, smith_store::Error> {
        // Whether a child was ended without running.
        let mut cut = false;
        // The children settled under this work, referenced by its end.
        let mut children: Vec<EntryId> = Vec::new();
        loop {
            let waiting = crate::inbox::lock(&run.session.work).waiting_children(work);
            if waiting.is_empty() {
                // Stop watching for cancellation (never while holding the work state: the
                // watcher takes it to record).
                if run
                    .abort_watch
                    .as_ref()
                    .is_some_and(|w| w.submission() == work)
                    && let Some(watch) = run.abort_watch.take()
                {
                    watch.stop();
                }
                // Asked before the work state is locked (a handler host may take time).
                let active = self.lifecycle.queue_policy();
                let mut state = crate::inbox::lock(&run.session.work);
                let waiting = state.waiting_children(work);
                // As at a round's end: input is delivered only while a round is left to
                // answer it.
                let late = stop_reason == StopReason::EndTurn
                    && succeeded
                    && run.rounds_run < self.limits.max_rounds
                    && children.is_empty()
                    && !run.cancel.is_cancelled()
                    && state.running.as_ref().is_some_and(|(w, _)| *w == work)
                    && state.queue.iter().any(|q| {
                        Some(&q.policy) == active.as_ref() && !run.offered.contains(&q.submission)
                    });
                if waiting.is_empty() && late {
                    return Ok(Settled::Reopened);
                }
                if waiting.is_empty() {
                    // A cancellation is recorded before the end of the work it aborts.
                    let mut entries = Vec::new();
                    if run.cancel.is_cancelled()
                        && state.abort_recorded.is_none()
                        && state.running.as_ref().is_some_and(|(w, _)| *w == work)
                    {
                        entries.push(NewEntry {
                            record: Record::Abort(smith_store::Abort {
                                reason: crate::abort::REASON.to_owned(),
                            }),
                            pair: Some(work),
                        });
                        state.abort_recorded = Some(crate::abort::REASON.to_owned());
                    }
                    // Cancelled while its children ran, so some never ran: the work as a
                    // whole was aborted.
                    let stop_reason = if succeeded && cut {
                        StopReason::Aborted
                    } else {
                        stop_reason
                    };
                    entries.push(NewEntry {
                        record: Record::RunEnd(RunEnd {
                            stop_reason,
                            usage: run.usage,
                            error: error.map(ToString::to_string),
                            children: std::mem::take(&mut children),
                            memory: run.memory.end(&mut run.session.memory_said),
                        }),
                        pair: Some(work),
                    });
                    // After a storage failure the unacknowledged tail is cut back first, so
                    // the session records the failure as this work's end (when the disk
                    // takes the small change); otherwise this append is refused too and the
                    // next open settles the work as interrupted.
                    let mut writer = run.session.writer.lock();
                    if matches!(error, Some(RunError::Store(_))) {
                        let _ = writer.recover();
                    }
                    writer.append_entries(&entries)?;
                    drop(writer);
                    state.live.remove(&work);
                    if state.running.as_ref().is_some_and(|(w, _)| *w == work) {
                        state.running = None;
                    }
                    return Ok(Settled::Ended);
                }
                drop(state);
                children.extend(&waiting);
                cut |= self.end_or_run(run, work, waiting, succeeded)?;
                continue;
            }
            children.extend(&waiting);
            cut |= self.end_or_run(run, work, waiting, succeeded)?;
        }
    }

    /// Run the waiting children of `work` when it succeeded and is not cancelled; otherwise
    /// end them unstarted. Returns whether any was ended unstarted.
    fn end_or_run(
        &self,
        run: &mut Run<'_>,
        work: EntryId,
        waiting: Vec<EntryId>,
        succeeded: bool,
    ) -> Result<bool, smith_store::Error> {
        let mut cut = false;
        for child in waiting {
            if succeeded && !run.cancel.is_cancelled() {
                self.run_child(run, child)?;
            } else {
                run.end_unstarted(child, work)?;
                cut = true;
            }
        }
        Ok(cut)
    }

    /// Run child work `child`: deliver its input (a user message paired with it), play its
    /// rounds, and settle it (its own children first).
    fn run_child(&self, run: &mut Run<'_>, child: EntryId) -> Result<(), smith_store::Error> {
        let found = crate::inbox::lock(&run.session.work)
            .live
            .get(&child)
            .map(|live| (live.model.clone(), live.input.clone()));
        let Some((model, input)) = found else {
            return Ok(());
        };
        let (parent_work, parent_usage, parent_cost) = (run.submission, run.usage, run.cost);
        let parent_rounds = std::mem::take(&mut run.rounds_run);
        run.submission = Some(child);
        run.usage = UsageTotals::default();
        run.cost = Some(0.0);
        let outcome = match run.deliver_child(child, &model, &input) {
            Ok(()) => {
                if let Some(live) = crate::inbox::lock(&run.session.work).live.get_mut(&child) {
                    live.started = true;
                }
                self.rounds(run, &model)
            }
            Err(e) => Err(e),
        };
        let (stop_reason, error) = match outcome {
            Ok(reason) => (reason, None),
            Err(e) => (StopReason::Error, Some(e)),
        };
        // Child work is never reopened: only top-level work takes queued input.
        let settled = self.settle(run, child, stop_reason, error.as_ref());
        run.submission = parent_work;
        run.usage = parent_usage;
        run.cost = parent_cost;
        run.rounds_run = parent_rounds;
        settled.map(|_| ())
    }
}
