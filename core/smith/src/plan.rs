//! The session's plan: the checklist of steps the model keeps for the work at hand and the
//! person watches (the WIT `plan` interface, package 1.7.0). One plan per branch, kept as
//! Smith's own branch state ([`PLAN_KEY`]): a fork starts with it, replay shows each change.

use serde::{Deserialize, Serialize};

use crate::{StateKey, StateScope};

/// The most steps a plan holds.
pub const MAX_PLAN_ITEMS: usize = 100;

/// The longest step, in bytes.
pub const MAX_PLAN_ITEM_BYTES: usize = 500;

/// The owner of Smith's own state records.
pub const SMITH_STATE_OWNER: &str = "smith";

/// The version of the plan's recorded shape (a JSON array of [`PlanItem`]).
pub const PLAN_VERSION: u32 = 1;

/// Where the plan is kept: Smith's branch state slot `plan`.
pub fn plan_key() -> StateKey {
    StateKey {
        owner: SMITH_STATE_OWNER.to_owned(),
        name: PLAN_SLOT.to_owned(),
        scope: StateScope::Branch,
    }
}

/// The name of the plan's state slot.
pub const PLAN_SLOT: &str = "plan";

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanStatus {
    /// Not started.
    Pending,
    /// Being worked on now.
    InProgress,
    /// Done.
    Completed,
}

impl PlanStatus {
    /// The status as written in JSON: `pending`, `in_progress`, `completed`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
        }
    }

    /// A checkbox for plain text: `[ ]`, `[~]`, `[x]`.
    pub fn checkbox(self) -> &'static str {
        match self {
            Self::Pending => "[ ]",
            Self::InProgress => "[~]",
            Self::Completed => "[x]",
        }
    }
}

/// One step of the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanItem {
    /// What the step is, one line.
    pub content: String,
    /// Where it stands.
    pub status: PlanStatus,
}

/// Why a plan cannot be kept as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// More steps than [`MAX_PLAN_ITEMS`].
    #[error("the plan has {0} steps; at most {MAX_PLAN_ITEMS} are kept (merge or drop some)")]
    TooMany(usize),
    /// Step `index` (1-based) is empty.
    #[error("step {0} is empty; give each step a short description")]
    Empty(usize),
    /// Step `index` (1-based) is longer than [`MAX_PLAN_ITEM_BYTES`].
    #[error("step {0} is {1} bytes; a step is one line of at most {MAX_PLAN_ITEM_BYTES} bytes")]
    TooLong(usize, usize),
    /// Step `index` (1-based) holds a line break (U+2028 and U+2029 too) or another control
    /// character.
    #[error("step {0} holds a line break or control character; a step is one line")]
    NotOneLine(usize),
}

/// Check `items` against the plan's bounds.
///
/// # Errors
/// [`PlanError`] naming the first step at fault.
pub fn check_plan(items: &[PlanItem]) -> Result<(), PlanError> {
    if items.len() > MAX_PLAN_ITEMS {
        return Err(PlanError::TooMany(items.len()));
    }
    for (i, item) in items.iter().enumerate() {
        let n = i + 1;
        if item.content.trim().is_empty() {
            return Err(PlanError::Empty(n));
        }
        if item.content.len() > MAX_PLAN_ITEM_BYTES {
            return Err(PlanError::TooLong(n, item.content.len()));
        }
        if item
            .content
            .chars()
            .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
        {
            return Err(PlanError::NotOneLine(n));
        }
    }
    Ok(())
}

/// The plan a recorded value holds: a JSON array of steps. `None` for a value of another
/// shape (written by a later Smith, or damaged): it is not shown.
pub fn plan_from_value(value: &serde_json::Value) -> Option<Vec<PlanItem>> {
    serde_json::from_value(value.clone()).ok()
}

/// The plan as plain text, one step a line: `[x] done`, `[~] doing`, `[ ] to do`.
pub fn plan_text(items: &[PlanItem]) -> String {
    items
        .iter()
        .map(|i| format!("{} {}", i.status.checkbox(), i.content))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(content: &str, status: PlanStatus) -> PlanItem {
        PlanItem {
            content: content.to_owned(),
            status,
        }
    }

    #[test]
    fn bounds_name_the_step_at_fault() {
        assert_eq!(check_plan(&[item("a", PlanStatus::Pending)]), Ok(()));
        assert_eq!(
            check_plan(&[
                item("a", PlanStatus::Pending),
                item(" ", PlanStatus::Pending)
            ]),
            Err(PlanError::Empty(2))
        );
        assert_eq!(
            check_plan(&[item("a\nb", PlanStatus::Pending)]),
            Err(PlanError::NotOneLine(1))
        );
        assert_eq!(
            check_plan(&[item("a\u{2028}b", PlanStatus::Pending)]),
            Err(PlanError::NotOneLine(1))
        );
        assert_eq!(
            check_plan(&[item(&"x".repeat(501), PlanStatus::Pending)]),
            Err(PlanError::TooLong(1, 501))
        );
        let many: Vec<PlanItem> = (0..101).map(|_| item("a", PlanStatus::Pending)).collect();
        assert_eq!(check_plan(&many), Err(PlanError::TooMany(101)));
    }

    #[test]
    fn the_recorded_shape_round_trips_and_reads_as_text() {
        let plan = vec![
            item("read the parser", PlanStatus::Completed),
            item("fix the bug", PlanStatus::InProgress),
            item("run the tests", PlanStatus::Pending),
        ];
        let value = serde_json::to_value(&plan).unwrap();
        assert_eq!(value[1]["status"], "in_progress");
        assert_eq!(plan_from_value(&value), Some(plan.clone()));
        assert_eq!(plan_from_value(&serde_json::json!({"x": 1})), None);
        assert_eq!(
            plan_text(&plan),
            "[x] read the parser\n[~] fix the bug\n[ ] run the tests"
        );
    }
}
