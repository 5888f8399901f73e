//! Lifecycle handlers: typed events out, typed action batches back, applied only at safe
//! points (spec: Agent behavior → Plugin event boundary). The port itself — [`smith::Lifecycle`],
//! its events and actions — is in the vocabulary; this module validates the replies.
//!
//! The runtime consults the handlers at three points of a run, each event carrying the queued
//! input that may be delivered there:
//!
//! - [`LifecycleEvent::ToolEnd`]: a tool call of a batch finished and others remain. The only
//!   valid action is [`Action::SkipRemaining`], and only while steering input is queued: the
//!   remaining calls are then answered with explicit "skipped" results, so the batch completes
//!   and no call is left without its result.
//! - [`LifecycleEvent::BatchEnd`]: the provider stream and its complete tool-result batch are
//!   recorded, the next provider request follows. [`Action::Deliver`] of steering input is
//!   valid here.
//! - [`LifecycleEvent::Idle`]: the model finished its answer (`end_turn`) and the work would stop.
//!   [`Action::Deliver`] of any queued input is valid; the work then continues with it.
//!
//! Each event's replies are validated together and applied all or nothing: an action that is
//! not valid at that point, input delivered twice, or input delivered by a handler other than
//! the queue policy that admitted it rejects the whole batch, with a notice naming why. A
//! delivery is one committed change of user messages, each paired with its queued submission,
//! so an injected message never splits a tool call from its result. The runtime consults
//! handlers only while eligible input is queued (with an empty queue no action could apply).

use smith::{Action, Delivery, EntryId, HandlerReply, LifecycleEvent};

/// The validated outcome of one event.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Queued input to deliver, in queue order.
    pub(crate) deliver: Vec<EntryId>,
    /// Skip the remaining calls, with this reason.
    pub(crate) skip: Option<String>,
    /// Why handlers failed or their batch was rejected (for notices).
    pub(crate) problems: Vec<String>,
}

/// Validate `replies` to `event` as one batch: all valid actions apply, or none.
pub(crate) fn validate(event: &LifecycleEvent, replies: Vec<HandlerReply>) -> Plan {
    let mut plan = Plan::default();
    let mut rejected = Vec::new();
    let queued = event.queued();
    for reply in replies {
        let actions = match reply.actions {
            Ok(actions) => actions,
            Err(why) => {
                plan.problems.push(format!(
                    "handler {} failed at {}: {why}",
                    reply.handler,
                    event.name()
                ));
                continue;
            }
        };
        for action in actions {
            match (&action, event) {
                (Action::Deliver(id), LifecycleEvent::ToolEnd { .. }) => rejected.push(format!(
                    "{} asked to deliver queued input {id} at tool_end, which is not a safe point (a tool batch is incomplete)",
                    reply.handler
                )),
                (Action::Deliver(id), _) => match queued.iter().find(|q| q.submission == *id) {
                    None => rejected.push(format!(
                        "{} asked to deliver {id}, which is not queued input it may deliver",
                        reply.handler
                    )),
                    Some(q) if q.policy != reply.handler => rejected.push(format!(
                        "{} asked to deliver {id}, which only its queue policy {} may deliver",
                        reply.handler, q.policy
                    )),
                    Some(q)
                        if q.delivery == Delivery::FollowUp
                            && matches!(event, LifecycleEvent::BatchEnd { .. }) =>
                    {
                        rejected.push(format!(
                            "{} asked to deliver follow-up input {id} at batch_end; follow-up input is delivered when the work would stop",
                            reply.handler
                        ));
                    }
                    Some(_) if plan.deliver.contains(id) => rejected.push(format!(
                        "input {id} was delivered twice in one batch (conflicting actions)"
                    )),
                    Some(_) => plan.deliver.push(*id),
                },
                (Action::SkipRemaining(why), LifecycleEvent::ToolEnd { .. }) => {
                    if !queued.iter().any(|q| q.delivery == Delivery::Steer) {
                        rejected.push(format!(
                            "{} asked to skip the remaining tool calls while no steering input is queued",
                            reply.handler
                        ));
                    } else if plan.skip.is_none() {
                        plan.skip = Some(why.clone());
                    }
                }
                (Action::SkipRemaining(_), _) => rejected.push(format!(
                    "{} asked to skip tool calls at {}, where no tool batch is running",
                    reply.handler,
                    event.name()
                )),
            }
        }
    }
    if !rejected.is_empty() {
        plan.deliver.clear();
        plan.skip = None;
        plan.problems.push(format!(
            "the handlers' actions at {} were rejected and nothing was applied: {}",
            event.name(),
            rejected.join("; ")
        ));
    }
    // Queue order, whatever order the handlers named them in.
    plan.deliver
        .sort_by_key(|id| queued.iter().position(|q| q.submission == *id));
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::QueuedInput;

    fn q(id: u64, delivery: Delivery) -> QueuedInput {
        QueuedInput {
            submission: EntryId(id),
            delivery,
            input: format!("input {id}"),
            policy: "queue@0.1.0".into(),
        }
    }

    fn reply(actions: Vec<Action>) -> HandlerReply {
        HandlerReply {
            handler: "queue@0.1.0".into(),
            actions: Ok(actions),
        }
    }

    #[test]
    fn a_valid_batch_delivers_in_queue_order() {
        let event = LifecycleEvent::Idle {
            round: 1,
            queued: vec![q(4, Delivery::FollowUp), q(7, Delivery::Steer)],
        };
        let plan = validate(
            &event,
            vec![reply(vec![
                Action::Deliver(EntryId(7)),
                Action::Deliver(EntryId(4)),
            ])],
        );
        assert_eq!(plan.deliver, vec![EntryId(4), EntryId(7)]);
        assert!(plan.problems.is_empty());
    }

    #[test]
    fn conflicting_or_misplaced_actions_reject_the_whole_batch() {
        let queued = vec![q(4, Delivery::Steer), q(5, Delivery::FollowUp)];
        let batch = LifecycleEvent::BatchEnd {
            round: 1,
            queued: queued.clone(),
        };
        for actions in [
            vec![Action::Deliver(EntryId(4)), Action::Deliver(EntryId(4))],
            vec![Action::Deliver(EntryId(4)), Action::Deliver(EntryId(5))],
            vec![Action::Deliver(EntryId(4)), Action::Deliver(EntryId(99))],
            vec![
                Action::Deliver(EntryId(4)),
                Action::SkipRemaining("x".into()),
            ],
        ] {
            let plan = validate(&batch, vec![reply(actions.clone())]);
            assert!(plan.deliver.is_empty(), "{actions:?}");
            assert_eq!(plan.problems.len(), 1, "{actions:?}");
        }
        let tool_end = LifecycleEvent::ToolEnd {
            round: 1,
            remaining: 2,
            queued,
        };
        let plan = validate(&tool_end, vec![reply(vec![Action::Deliver(EntryId(4))])]);
        assert!(plan.deliver.is_empty() && plan.problems[0].contains("not a safe point"));
        let foreign = HandlerReply {
            handler: "other@1.0.0".into(),
            actions: Ok(vec![Action::Deliver(EntryId(4))]),
        };
        let plan = validate(&batch, vec![foreign]);
        assert!(plan.deliver.is_empty() && plan.problems[0].contains("only its queue policy"));
    }

    #[test]
    fn skipping_needs_queued_steering_input() {
        let event = LifecycleEvent::ToolEnd {
            round: 1,
            remaining: 1,
            queued: vec![q(4, Delivery::FollowUp)],
        };
        let plan = validate(&event, vec![reply(vec![Action::SkipRemaining("s".into())])]);
        assert!(plan.skip.is_none() && plan.problems.len() == 1);
        let event = LifecycleEvent::ToolEnd {
            round: 1,
            remaining: 1,
            queued: vec![q(4, Delivery::Steer)],
        };
        let plan = validate(&event, vec![reply(vec![Action::SkipRemaining("s".into())])]);
        assert_eq!(plan.skip.as_deref(), Some("s"));
    }
}
