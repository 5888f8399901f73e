//! The end of a turn (package 1.6.0): each policy plugin whose manifest names
//! `event "turn-end"` — built as the `hooks-plugin` world — is asked once, after the turn's last
//! round is recorded and before its end is, in a fresh instance under the handlers' deadline;
//! a `configured-hooks` plugin (the bundled `hooks`) only when one of the user's `turn-end`
//! hooks matched the turn, and given exactly those. Programs it runs are effects recorded
//! under the turn (call id [`smith::TURN_END_CALL_ID`]), in the OS sandbox, asked of no
//! policy. What it says is for the person; the model sees none of it. Nothing is asked in
//! `plan` mode or after a cancelled turn.

use std::sync::Arc;

use smith::{Cancel, StopReason, ToolCall, ToolContext, TurnEnd, TurnEndNote};

use crate::effects::CallState;
use crate::handlers::cut_to as cut;
use crate::policy::{LoadedPolicy, MAX_QUESTION_BYTES, PermissionMode, wit};
use crate::runtime::Loadout;

/// The most notes one plugin's `turn-end` may give.
const MAX_NOTES: usize = 32;

/// What the matching hooks of one plugin are, each with the paths it is given.
type Matched = Vec<(crate::hooks::Hook, Vec<String>)>;

impl Loadout {
    /// Ask the policy plugins that answer a turn's end about `end`, in role order: the notes
    /// for the person, each prefixed with its plugin; one that fails is a failed note saying
    /// why.
    pub(crate) fn turn_end_all(
        &self,
        end: &TurnEnd<'_>,
        context: &ToolContext,
        cancel: &Cancel,
    ) -> Vec<TurnEndNote> {
        if self.policy.permissions.mode == PermissionMode::Plan
            || end.stop_reason == StopReason::Aborted
            || cancel.is_cancelled()
        {
            return Vec::new();
        }
        let mut notes = Vec::new();
        for plugin in self.policies() {
            if !plugin
                .manifest
                .policy_events
                .iter()
                .any(|e| e == "turn-end")
            {
                continue;
            }
            let hooks: Matched = if plugin.manifest.configured_hooks {
                let cwd = context.cwd.as_deref();
                let matched: Matched = self
                    .policy
                    .hooks
                    .iter()
                    .filter_map(|h| Some((h.clone(), h.matches_turn(end.calls, cwd)?)))
                    .collect();
                if matched.is_empty() {
                    continue;
                }
                matched
            } else {
                Vec::new()
            };
            let label = plugin.manifest.label();
            match self.turn_end_one(plugin, end, hooks, context, cancel) {
                Ok(said) => notes.extend(said.into_iter().take(MAX_NOTES).map(|n| TurnEndNote {
                    failed: n.failed,
                    text: format!("[{label}] {}", cut(&n.text, MAX_QUESTION_BYTES)),
                })),
                Err(why) => notes.push(TurnEndNote {
                    failed: true,
                    text: format!("[{label}] could not answer the turn's end: {why}"),
                }),
            }
        }
        notes
    }

    /// `plugin`'s answer to `end`, in a fresh instance whose programs are effects of the turn.
    fn turn_end_one(
        &self,
        plugin: &LoadedPolicy,
        end: &TurnEnd<'_>,
        hooks: Matched,
        context: &ToolContext,
        cancel: &Cancel,
    ) -> Result<Vec<wit::TurnEndNote>, String> {
        let ready = plugin.ready(&self.runtime)?;
        let label = plugin.manifest.label();
        let call = ToolCall {
            id: smith::TURN_END_CALL_ID.to_owned(),
            name: smith::TURN_END_CALL_ID.to_owned(),
            arguments: serde_json::json!({}),
        };
        let programs = plugin
            .manifest
            .grants
            .contains(&crate::grants::Grant::ProcessExec);
        let mut state = if programs {
            CallState::for_policy(
                label.clone(),
                &call,
                (&plugin.manifest.id, "end"),
                context,
                crate::grants::default_policy(
                    &plugin.manifest.grants,
                    context.cwd.clone(),
                    &self.policy,
                ),
                Arc::clone(&self.policy),
                cancel.clone(),
            )
        } else {
            CallState::inert(&label)
        };
        state.hooks = hooks;
        state.cancel = cancel.clone();
        let kept = crate::state_imports::Kept {
            session: context.state.clone(),
            cause: context.cause,
        };
        state.state = Some(kept.access(&plugin.manifest, &self.policy));
        let event = wit::TurnEndEvent {
            stop_reason: end.stop_reason.as_str().to_owned(),
            cwd: context
                .cwd
                .as_ref()
                .map(|c| c.display().to_string())
                .unwrap_or_default(),
            settings: self.policy.permissions.wit(),
        };
        plugin.in_instance(&self.runtime, ready, state, |pre, store| {
            let Some(turn_end) = &pre.turn_end else {
                return Ok(Err(
                    "it does not export `turn-end` (the `hooks-plugin` world)".to_owned(),
                ));
            };
            crate::kernel_call(|| {
                turn_end
                    .instantiate(&mut *store)
                    .and_then(|instance| instance.call_turn_end(store, &event))
            })
        })
    }
}
