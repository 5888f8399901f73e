//! One tool call through the [`smith::ToolRegistry`] port.

use smith::{ToolCall, ToolContext, ToolResult};

use crate::run::{Agent, Run};

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
            let active = if definitions.is_empty() {
                "none".to_owned()
            } else {
                definitions
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
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
            let worker = scope.spawn(move || tools.call(call, &context, cancel));
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
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            output: out.output,
            is_error: out.is_error,
        }
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
