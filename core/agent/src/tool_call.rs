//! One tool call through the [`smith::ToolRegistry`] port.

use smith::{ToolCall, ToolContext, ToolResult};

use crate::run::{Agent, Run};

/// The most tool names an unknown tool's answer lists.
const MAX_NAMED_TOOLS: usize = 24;

impl Agent<'_> {
    /// Run one tool call through the tool port on a worker thread, relaying its progress as
    /// tool updates; a call of a tool that is not active is answered without running
    /// anything (spec: Security — only active tools can be invoked).
    pub(crate) fn call_tool(
        &self,
        run: &mut Run<'_>,
        call: &ToolCall,
        definitions: &[smith::ToolDefinition],
    ) -> ToolResult {
        if !definitions.iter().any(|d| d.name == call.name) {
            if let Some(withheld) = self
                .tools
                .withheld()
                .into_iter()
                .find(|w| w.name == call.name)
            {
                return ToolResult {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    output: format!(
                        "tool `{}` of {} is not available here: {}; the call was not run",
                        call.name, withheld.plugin, withheld.why
                    ),
                    is_error: true,
                };
            }
            let active = named_tools(&call.name, definitions.iter().map(|d| d.name.as_str()));
            return ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                output: format!(
                    "unknown tool `{}`: no active plugin provides a tool of that name (active tools: {active}); the call was not run",
                    call.name
                ),
                is_error: true,
            };
        }
        let (events, updates) = std::sync::mpsc::channel::<smith::ToolEvent>();
        let context = ToolContext {
            cwd: self.cwd.clone(),
            journal: std::sync::Arc::new(run.session.journal()),
            cause: run.session.call_message,
            events: Some(events),
            state: Some(std::sync::Arc::new(run.session.journal())),
            resident: Some(std::sync::Arc::clone(&run.session.resident)),
        };
        let state = std::sync::Arc::clone(&run.session.work);
        let mut relay = crate::asks::Relay::new(&call.id, run.submission, &state);
        let tools = self.tools;
        let cancel = run.cancel;
        // The call runs on a worker thread; this thread relays its progress as tool updates
        // and its questions as requests until the call returns (and drops its context, ending
        // the channel).
        let joined = std::thread::scope(|scope| {
            // The call's allocations are the turn's (or its plugin call's, inside it).
            let memory = smith_memory::Scope::current();
            let worker = scope.spawn(move || {
                let _entered = memory.enter();
                tools.call(call, &context, cancel)
            });
            for event in updates {
                relay.relay(run.sink, event);
            }
            worker.join()
        });
        drop(relay);
        let out = joined.unwrap_or_else(|_| smith::ToolOutput {
            output: format!(
                "tool `{}` failed inside Smith (a defect: the dispatcher panicked); the call's effects, if any, are in the session",
                call.name
            ),
            is_error: true,
            structured: None,
        });
        if !out.is_error {
            run.calls_done.push(naming_paths(call));
        }
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            output: out.output,
            is_error: out.is_error,
        }
    }
}

impl Agent<'_> {
    /// Ask the tool port for the tools found at run time (an MCP client's servers') before
    /// the turn's first request, on a worker thread whose questions (a permission asked for
    /// a server's start) are relayed as a call's are; its effects are recorded under the
    /// turn's latest entry. What it says is shown as warnings.
    pub(crate) fn discover_tools(&self, run: &mut Run<'_>) {
        let (events, updates) = std::sync::mpsc::channel::<smith::ToolEvent>();
        let context = self.turn_context(run, Some(events));
        let state = std::sync::Arc::clone(&run.session.work);
        let mut relay = crate::asks::Relay::new(smith::DISCOVER_CALL_ID, run.submission, &state);
        let tools = self.tools;
        let cancel = run.cancel;
        let joined = std::thread::scope(|scope| {
            let memory = smith_memory::Scope::current();
            let worker = scope.spawn(move || {
                let _entered = memory.enter();
                tools.discover(&context, cancel)
            });
            for event in updates {
                relay.relay(run.sink, event);
            }
            worker.join()
        });
        drop(relay);
        let notices = joined.unwrap_or_else(|_| {
            vec!["finding the tools known only at run time failed inside Smith (a defect: it panicked); the tools offered before are offered".to_owned()]
        });
        for text in notices {
            run.sink.emit(smith_ui_intents::Intent::Notice {
                level: smith_ui_intents::NoticeLevel::Warning,
                text,
            });
        }
    }
}

impl Agent<'_> {
    /// Tell the tool port that the work ended with `stop_reason` (after its last round is
    /// recorded, before its end is): what its plugins do then — the user's `turn-end` hooks
    /// — recorded under the turn's latest entry, what they say shown to the person. Not for
    /// a cancelled turn.
    pub(crate) fn turn_end(&self, run: &mut Run<'_>, stop_reason: smith::StopReason) {
        if stop_reason == smith::StopReason::Aborted || run.cancel.is_cancelled() {
            return;
        }
        let context = self.turn_context(run, None);
        let end = smith::TurnEnd {
            stop_reason,
            calls: &run.calls_done,
        };
        let tools = self.tools;
        let cancel = run.cancel;
        let notes = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tools.turn_end(&end, &context, cancel)
        }))
        .unwrap_or_else(|_| {
            vec![smith::TurnEndNote {
                failed: true,
                text: "the turn's end was not answered: it failed inside Smith (a defect: it panicked)".to_owned(),
            }]
        });
        for note in notes {
            run.sink.emit(smith_ui_intents::Intent::Notice {
                level: if note.failed {
                    smith_ui_intents::NoticeLevel::Warning
                } else {
                    smith_ui_intents::NoticeLevel::Info
                },
                text: note.text,
            });
        }
    }
}

impl Agent<'_> {
    /// The context of work the tool port does for the turn rather than for a call: its
    /// effects recorded under the turn's latest entry, its progress and questions sent to
    /// `events`.
    fn turn_context(
        &self,
        run: &Run<'_>,
        events: Option<std::sync::mpsc::Sender<smith::ToolEvent>>,
    ) -> ToolContext {
        ToolContext {
            cwd: self.cwd.clone(),
            journal: std::sync::Arc::new(run.session.journal()),
            cause: run
                .session
                .context
                .as_ref()
                .and_then(|c| c.entries.last().copied()),
            events,
            state: Some(std::sync::Arc::new(run.session.journal())),
            resident: Some(std::sync::Arc::clone(&run.session.resident)),
        }
    }
}

/// `call` with only the arguments that name paths (`path`, `file_path`, `paths`): what a
/// turn's end is told of it, without the content a write carries.
fn naming_paths(call: &ToolCall) -> ToolCall {
    let arguments = ["path", "file_path", "paths"]
        .iter()
        .filter_map(|k| Some(((*k).to_owned(), call.arguments.get(k)?.clone())))
        .collect::<serde_json::Map<_, _>>();
    ToolCall {
        id: call.id.clone(),
        name: call.name.clone(),
        arguments: serde_json::Value::Object(arguments),
    }
}

/// The result of a call that was not run, saying why.
pub(crate) fn not_run(call: &ToolCall, why: &str) -> ToolResult {
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        output: why.to_owned(),
        is_error: true,
    }
}

/// The tools offered, for the answer to a call of unknown tool `called`: the names most like
/// it first (the fewest edits away, Levenshtein; ties in the order offered), at most
/// [`MAX_NAMED_TOOLS`] of them — a session may offer hundreds (MCP servers' tools), and this
/// goes into the model's context.
fn named_tools<'a>(called: &str, offered: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = offered.collect();
    names.sort_by_cached_key(|n| strsim::levenshtein(n, called));
    match names.len() {
        0 => "none".to_owned(),
        n if n <= MAX_NAMED_TOOLS => names.join(", "),
        n => format!(
            "{}, and {} more",
            names[..MAX_NAMED_TOOLS].join(", "),
            n - MAX_NAMED_TOOLS
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_tool_is_answered_with_the_closest_names_and_a_count_of_the_rest() {
        assert_eq!(named_tools("x", std::iter::empty()), "none");
        assert_eq!(
            named_tools("rd", ["read", "write"].into_iter()),
            "read, write"
        );
        let many: Vec<String> = (0..40).map(|i| format!("mcp__s__t{i}")).collect();
        let said = named_tools(
            "mcp__s__t39",
            ["read", "write"]
                .into_iter()
                .chain(many.iter().map(String::as_str)),
        );
        assert!(said.starts_with("mcp__s__t39, mcp__s__t3, "), "{said}");
        assert!(said.ends_with(", and 18 more"), "{said}");
        assert!(!said.contains("read"), "{said}");
        // One edit away counts, wherever the edit is.
        let said = named_tools(
            "mcp__s__t-39",
            ["read"].into_iter().chain(many.iter().map(String::as_str)),
        );
        assert!(said.starts_with("mcp__s__t39, "), "{said}");
    }
}
