//! The runner's side of recovery: the interrupted turn a session holds (continued or settled)
//! and the verdicts on effects of unknown outcome (spec: Sessions → Work and recovery; Durable
//! effect boundary — "Unknown → Reconciled: explicit reconciliation").

use smith::Cancel;
use smith_ui_intents::IntentSink;

use super::{RedactingSink, RunSpec, Runner, RunnerError, TurnEnd};

impl Runner {
    /// The interrupted turn the session holds: a top-level turn a dead process left without
    /// an end, shown to the person, who continues it ([`super::Command::Continue`]) or settles it
    /// ([`super::Command::SettleInterrupted`]). Any other command that writes history settles it as
    /// aborted first; closing leaves it as recorded.
    pub fn interrupted(&self) -> Option<&smith_agent::InterruptedTurn> {
        self.session.interrupted_turn()
    }

    /// The spec that continues the interrupted turn with the selection it recorded: the
    /// route in use with its selection replaced (`None` when no turn is held or no route
    /// is prepared).
    pub fn interrupted_spec(&self) -> Option<RunSpec> {
        let turn = self.interrupted()?;
        let mut spec = self.current()?.spec().clone();
        spec.selection = turn.model.clone();
        Some(spec)
    }

    /// [`super::Command::SettleInterrupted`], and what every other history-writing command does
    /// first: settle the held interrupted turn as aborted (nothing when none is held).
    ///
    /// # Errors
    /// [`RunnerError::Store`] when the settlement cannot be recorded (the turn stays held).
    pub fn settle_interrupted(&mut self) -> Result<(), RunnerError> {
        if self.session.interrupted_turn().is_some() {
            self.session.settle_interrupted()?;
            self.keep = true;
        }
        Ok(())
    }

    /// [`super::Command::Continue`]: continue the held interrupted turn with `spec`'s route (prepared
    /// now) or the one in use, which must be for the selection the turn recorded.
    ///
    /// # Errors
    /// [`RunnerError::Continue`] when no turn is held or a prerequisite is missing (nothing
    /// written); [`RunnerError::Unprepared`] without a route.
    pub fn continue_interrupted(
        &mut self,
        spec: Option<RunSpec>,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> Result<TurnEnd, RunnerError> {
        if self.session.interrupted_turn().is_none() {
            return Err(RunnerError::Continue(Box::new(
                smith_agent::ContinueError::NothingToContinue,
            )));
        }
        let before = self.current;
        let index = self.route_for(spec, "continuing the interrupted turn")?;
        let ready = &self.ready[index];
        let agent = self.agent(ready);
        let mut tee = self.feed.tee(sink);
        let mut shown = RedactingSink::new(&mut tee, ready.redactor().clone());
        let continued =
            agent.continue_interrupted(&mut self.session, ready.selection(), &mut shown, cancel);
        // The continuation ran with the turn's route; the runs after it use the one in use.
        if before.is_some() {
            self.current = before;
        }
        let outcome = continued.map_err(|e| RunnerError::Continue(Box::new(e)))?;
        self.keep = true;
        Ok(TurnEnd {
            submission: outcome.submission,
            deduplicated: false,
            stop_reason: outcome.stop_reason,
            usage: outcome.usage,
            cost_usd: outcome.cost_usd,
            error: outcome.error,
        })
    }

    /// Record the verdict `outcome` (with `note`) on the session's unknown effect
    /// `effect_id`, as [`crate::verdicts::reconcile`] does from outside: a verdict is no new
    /// input, so an interrupted turn the session holds stays held (continuing it shows the
    /// model the verdict). Work may be running: the verdict is one record of its own.
    ///
    /// # Errors
    /// [`crate::verdicts::ReconcileError`]; nothing is written then.
    pub fn reconcile(
        &mut self,
        effect_id: &str,
        outcome: smith::EffectOutcome,
        note: &str,
    ) -> Result<crate::verdicts::Reconciled, crate::verdicts::ReconcileError> {
        let path = self.session.path().to_owned();
        let id = self.session.id();
        let found = crate::verdicts::unknown_effect(&path, id, effect_id, outcome, note)?;
        let done = crate::verdicts::record(&mut self.session, &path, found, outcome, note)?;
        self.keep = true;
        Ok(done)
    }
}
