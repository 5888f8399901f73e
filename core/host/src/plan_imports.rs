//! The `smith:plugin/plan` import (package 1.7.0): the session's plan, replaced by a tool and
//! read back. The plan is Smith's own branch state ([`smith::plan_key`]), written through the
//! session's store with the tool call as its cause, then shown as a `plan` intent (the call's
//! event channel carries it to the run). Not an effect: it changes nothing outside the session.

use smith::{PlanItem, PlanStatus, StateValue};

use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::plan as wit;

fn item(i: wit::PlanItem) -> PlanItem {
    PlanItem {
        content: i.content,
        status: match i.status {
            wit::PlanStatus::Pending => PlanStatus::Pending,
            wit::PlanStatus::InProgress => PlanStatus::InProgress,
            wit::PlanStatus::Completed => PlanStatus::Completed,
        },
    }
}

fn wit_item(i: PlanItem) -> wit::PlanItem {
    wit::PlanItem {
        content: i.content,
        status: match i.status {
            PlanStatus::Pending => wit::PlanStatus::Pending,
            PlanStatus::InProgress => wit::PlanStatus::InProgress,
            PlanStatus::Completed => wit::PlanStatus::Completed,
        },
    }
}

impl wit::Host for State {
    fn set(&mut self, items: Vec<wit::PlanItem>) -> Result<(), String> {
        let items: Vec<PlanItem> = items.into_iter().map(item).collect();
        smith::check_plan(&items).map_err(|e| e.to_string())?;
        let access = self.call.state.as_ref();
        let Some(store) = access.and_then(|a| a.session.as_ref()) else {
            return Err(
                "the plan is kept in a session, and this call runs outside one; nothing was set"
                    .to_owned(),
            );
        };
        let value = serde_json::to_value(&items).map_err(|e| e.to_string())?;
        store
            .set(
                &smith::plan_key(),
                Some(StateValue {
                    version: smith::PLAN_VERSION,
                    value,
                }),
                access.and_then(|a| a.cause),
            )
            .map_err(|e| format!("the plan could not be recorded: {e}; nothing was set"))?;
        if let Some(events) = &self.call.events {
            let _ = events.send(smith::ToolEvent::Plan(items));
        }
        Ok(())
    }

    fn get(&mut self) -> Vec<wit::PlanItem> {
        let Some(store) = self.call.state.as_ref().and_then(|a| a.session.as_ref()) else {
            return Vec::new();
        };
        store
            .get(&smith::plan_key())
            .ok()
            .flatten()
            .filter(|v| v.version == smith::PLAN_VERSION)
            .and_then(|v| smith::plan_from_value(&v.value))
            .unwrap_or_default()
            .into_iter()
            .map(wit_item)
            .collect()
    }
}
