//! Smith's MCP renderer for `smith mcp`: which protocol revisions are served, the log levels,
//! and UI intents as MCP notifications (spec: Interface modes → Model Context Protocol —
//! "progress maps to progress notifications"; MCP 2025-11-25 and 2025-06-18, basic/utilities/
//! progress and server/utilities/logging).
//!
//! Pure: the frontend (`frontends/mcp`) writes what this returns through the JSON-RPC framing
//! of `smith-render-jsonrpc`.

pub mod elicit;

use serde_json::{Value, json};
use smith_ui_intents::{Intent, NoticeLevel};

/// The protocol revisions served, newest first. The stateless 2026-07-28 revision (its
/// `server/discover`) is not served yet: clients that probe it get "method not found" and fall
/// back to `initialize`.
pub const REVISIONS: &[&str] = &["2025-11-25", "2025-06-18"];

/// The revision to answer an `initialize` that asked for `requested` with (MCP lifecycle:
/// the server answers with the requested revision when it supports it, else with the latest it
/// supports, and the client decides whether to go on).
pub fn negotiate(requested: Option<&str>) -> &'static str {
    requested
        .and_then(|r| REVISIONS.iter().find(|v| **v == r).copied())
        .unwrap_or(REVISIONS[0])
}

/// The log levels of `logging/setLevel` and `notifications/message`, least severe first
/// (RFC 5424 severities, as MCP names them).
pub const LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The rank of log level `name` in [`LEVELS`], or `None` when it is not one.
pub fn level_rank(name: &str) -> Option<usize> {
    LEVELS.iter().position(|l| *l == name)
}

/// The `notifications/message` params for `intent` when it is something to log at or above
/// level `min` (a rank in [`LEVELS`]): notices, refused requests, failed attempts, failed
/// compactions, and the session's plan as it changes (info, [`plan_words`]).
pub fn log_message(intent: &Intent, min: usize) -> Option<Value> {
    let (level, data) = match intent {
        Intent::Notice { level, text } => (
            match level {
                NoticeLevel::Info => "info",
                NoticeLevel::Warning => "warning",
                NoticeLevel::Error => "error",
            },
            text.clone(),
        ),
        Intent::RequestRefused { reason, .. } => ("warning", reason.clone()),
        Intent::Plan { items } => ("info", plan_words(items)),
        Intent::CompactionEnd {
            error: Some(error), ..
        } => ("warning", format!("compaction failed: {error}")),
        Intent::AttemptFailed { .. } => (
            "warning",
            serde_json::to_value(intent)
                .map(|v| v.to_string())
                .unwrap_or_default(),
        ),
        _ => return None,
    };
    (level_rank(level)? >= min).then(|| json!({"level": level, "logger": "smith", "data": data}))
}

/// The plan on one line: `plan (1/3 done): [x] a · [~] b · [ ] c`, or `plan: cleared`.
pub fn plan_words(items: &[smith::PlanItem]) -> String {
    if items.is_empty() {
        return "plan: cleared".to_owned();
    }
    let done = items
        .iter()
        .filter(|i| i.status == smith::PlanStatus::Completed)
        .count();
    let steps: Vec<String> = items
        .iter()
        .map(|i| format!("{} {}", i.status.checkbox(), i.content.replace('\n', " ")))
        .collect();
    format!("plan ({done}/{} done): {}", items.len(), steps.join(" · "))
}

/// Counts a request's progress and turns intents into `notifications/progress` params for its
/// progress token: each tool update, progress report, round start, tool start, compaction
/// start and recorded compaction, plan change, and message end is one step
/// (`progress` increases with every notification, as MCP requires), with its text as the
/// message. Deltas are not sent one by one: a message's text arrives with its end.
#[derive(Debug)]
pub struct Progress {
    token: Value,
    steps: u64,
}

impl Progress {
    /// Progress for the request that sent `token` (`_meta.progressToken`, a string or integer).
    pub fn new(token: Value) -> Self {
        Self { token, steps: 0 }
    }

    /// The params of the notification `intent` makes, if any.
    pub fn step(&mut self, intent: &Intent) -> Option<Value> {
        let message = match intent {
            Intent::ToolUpdate { text, .. } => text.clone(),
            Intent::Plan { items } => plan_words(items),
            Intent::Progress { label, .. } => label.clone(),
            Intent::RoundStart { round, .. } => format!("round {round}"),
            Intent::ToolStart { name, .. } => format!("running {name}"),
            Intent::CompactionStart { summarized, .. } => {
                format!("compacting: summarizing {summarized} context items")
            }
            Intent::CompactionEnd {
                entry_id: Some(entry),
                ..
            } => format!("compacted: the summary is entry {entry}"),
            Intent::MessageEnd { message, .. } if message.role == smith::Role::Assistant => {
                let text = message.text();
                if text.is_empty() {
                    return None;
                }
                text
            }
            _ => return None,
        };
        Some(self.text(message))
    }

    /// The params of a progress notification with `message` as the next step.
    pub fn text(&mut self, message: String) -> Value {
        self.steps += 1;
        let mut message = message;
        if message.len() > 1000 {
            let mut cut = 1000;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push('…');
        }
        json!({"progressToken": self.token, "progress": self.steps, "message": message})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_revision_is_kept_and_any_other_gets_the_latest() {
        assert_eq!(negotiate(Some("2025-06-18")), "2025-06-18");
        assert_eq!(negotiate(Some("2025-11-25")), "2025-11-25");
        assert_eq!(negotiate(Some("2024-11-05")), "2025-11-25");
        assert_eq!(negotiate(None), "2025-11-25");
    }

    #[test]
    fn notices_are_logged_at_or_above_the_level_asked_for() {
        let warning = Intent::Notice {
            level: NoticeLevel::Warning,
            text: "careful".into(),
        };
        let info = Intent::Notice {
            level: NoticeLevel::Info,
            text: "fyi".into(),
        };
        let at_warning = level_rank("warning").unwrap();
        assert_eq!(
            log_message(&warning, at_warning),
            Some(json!({"level": "warning", "logger": "smith", "data": "careful"}))
        );
        assert_eq!(log_message(&info, at_warning), None);
        assert!(log_message(&info, level_rank("debug").unwrap()).is_some());
        assert_eq!(level_rank("loud"), None);
    }

    #[test]
    fn progress_increases_with_every_notification_and_skips_deltas() {
        let mut p = Progress::new(json!("tok"));
        assert_eq!(
            p.step(&Intent::RoundStart { round: 1 }),
            Some(json!({"progressToken": "tok", "progress": 1, "message": "round 1"}))
        );
        let delta = Intent::MessageDelta {
            message_id: 1,
            kind: smith_ui_intents::DeltaKind::Text,
            text: "x".into(),
        };
        assert_eq!(p.step(&delta), None);
        let long = p.text("y".repeat(5000));
        assert_eq!(long["progress"], 2);
        assert!(long["message"].as_str().unwrap().len() < 1010);
    }

    #[test]
    fn a_plan_change_is_logged_and_is_a_progress_step() {
        let plan = Intent::Plan {
            items: vec![
                smith::PlanItem {
                    content: "Read it".into(),
                    status: smith::PlanStatus::Completed,
                },
                smith::PlanItem {
                    content: "Fix\nit".into(),
                    status: smith::PlanStatus::InProgress,
                },
            ],
        };
        let words = "plan (1/2 done): [x] Read it · [~] Fix it";
        assert_eq!(
            log_message(&plan, level_rank("info").unwrap()),
            Some(json!({"level": "info", "logger": "smith", "data": words}))
        );
        let mut p = Progress::new(json!(7));
        assert_eq!(p.step(&plan).unwrap()["message"], words);
        assert_eq!(
            log_message(&Intent::Plan { items: vec![] }, 0).unwrap()["data"],
            "plan: cleared"
        );
    }
}
