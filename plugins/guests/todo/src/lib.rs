//! Smith's bundled `todo` tools: the plan the model keeps for multi-step work (the WIT `plan`
//! interface, package 1.7.0). `todo_write` replaces the whole plan — every step with its
//! status — and answers with it as a checklist; `todo_read` answers with the plan as the
//! selected branch has it. Smith records each change and shows it to the person.

use serde::Deserialize;
use smith_plugin_sdk::plan::{self, PlanItem, PlanStatus};
use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, arguments, export_tool_plugin, tool,
};

struct Todo;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WriteArgs {
    todos: Vec<Step>,
}

/// One step as the model writes it; Claude Code's `activeForm` and `id` are taken and
/// ignored, so a model trained on TodoWrite's shape is not refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    content: String,
    status: Status,
    #[serde(default, rename = "activeForm")]
    _active_form: Option<String>,
    #[serde(default, rename = "id")]
    _id: Option<Id>,
}

/// A step's id as Claude Code writes it (text or a number), ignored.
#[derive(Deserialize)]
#[serde(untagged)]
enum Id {
    Text(#[allow(dead_code)] String),
    Number(#[allow(dead_code)] f64),
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Status {
    Pending,
    InProgress,
    Completed,
}

const WRITE_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "description": "The whole plan, in order: every step, each with its status (at most 100 steps). It replaces the plan as it was.",
      "items": {
        "type": "object",
        "properties": {
          "content": {"type": "string", "description": "What the step is, one short imperative line (\"Run the tests\"; at most 500 bytes, no line breaks)."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed"], "description": "pending, in_progress (the one step being worked on now) or completed."},
          "activeForm": {"type": "string", "description": "Ignored (accepted for compatibility)."},
          "id": {"description": "Ignored (accepted for compatibility)."}
        },
        "required": ["content", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
}"#;

const READ_SCHEMA: &str = r#"{"type": "object", "properties": {}, "additionalProperties": false}"#;

fn checkbox(status: PlanStatus) -> &'static str {
    match status {
        PlanStatus::Pending => "[ ]",
        PlanStatus::InProgress => "[~]",
        PlanStatus::Completed => "[x]",
    }
}

/// The plan as the model reads it back: a checklist, and how far it is.
fn checklist(items: &[PlanItem]) -> String {
    if items.is_empty() {
        return "The plan is empty.".to_owned();
    }
    let done = items
        .iter()
        .filter(|i| i.status == PlanStatus::Completed)
        .count();
    let mut out = format!("Plan ({done} of {} done):\n", items.len());
    for i in items {
        out.push_str(&format!("{} {}\n", checkbox(i.status), i.content));
    }
    out
}

fn write(args: &str) -> ToolOutput {
    let args: WriteArgs = match arguments(args) {
        Ok(a) => a,
        Err(e) => return e,
    };
    let items: Vec<PlanItem> = args
        .todos
        .into_iter()
        .map(|s| PlanItem {
            content: s.content.trim().to_owned(),
            status: match s.status {
                Status::Pending => PlanStatus::Pending,
                Status::InProgress => PlanStatus::InProgress,
                Status::Completed => PlanStatus::Completed,
            },
        })
        .collect();
    if let Err(why) = plan::set(&items) {
        return ToolOutput::error(format!("the plan was not changed: {why}"));
    }
    let mut out = checklist(&items);
    let doing = items
        .iter()
        .filter(|i| i.status == PlanStatus::InProgress)
        .count();
    if doing > 1 {
        out.push_str(&format!(
            "\nNote: {doing} steps are in progress; keep one in progress at a time and mark each completed as soon as it is done."
        ));
    }
    ToolOutput::ok(out)
}

impl Guest for Todo {
    fn definitions() -> Vec<ToolDefinition> {
        vec![
            tool(
                "todo_write",
                "Keep a plan for multi-step work: write the whole checklist (every step with its status: pending, in_progress or completed); it replaces the plan as it was, and the user watches it. Use it when a task takes three or more distinct steps or the user gives several tasks: write the plan before starting, keep exactly one step in_progress, mark each completed as soon as it is done (not in batches), add steps you discover, and drop ones that no longer apply. Skip it for a single, simple step or a question.",
                WRITE_SCHEMA,
            ),
            tool(
                "todo_read",
                "Read the plan as it stands (every step with its status), to see what is left before going on.",
                READ_SCHEMA,
            ),
        ]
    }

    fn call(name: String, args: String, _invocation: Invocation) -> ToolOutput {
        match name.as_str() {
            "todo_write" => write(&args),
            "todo_read" => ToolOutput::ok(checklist(&plan::get())),
            other => ToolOutput::error(format!(
                "this plugin has no tool `{other}`; it offers todo_write and todo_read"
            )),
        }
    }
}

export_tool_plugin!(Todo);
