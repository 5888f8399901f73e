//! A tool for the tests of plugin state: `tally` adds one to a counter kept in branch state and
//! to one kept in session state, and answers `branch N, session M` with the new values (or the
//! error it got). Its output depends only on the state it finds, so a re-executed call gives
//! the recorded output exactly when it sees the state recorded at its point.

use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, export_tool_plugin, state_get, state_set, tool,
};

struct Tally;

fn count(slot: &str) -> String {
    match state_get::<u64>(slot) {
        Ok(n) => {
            let next = n.unwrap_or(0) + 1;
            match state_set(slot, &next) {
                Ok(()) => next.to_string(),
                Err(e) => format!("set failed: {e:?}"),
            }
        }
        Err(e) => format!("get failed: {e:?}"),
    }
}

impl Guest for Tally {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "tally",
            "Count this call in branch and session state.",
            r#"{"type":"object"}"#,
        )]
    }

    fn call(_name: String, _args: String, _invocation: Invocation) -> ToolOutput {
        ToolOutput::ok(format!(
            "branch {}, session {}",
            count("branch"),
            count("session")
        ))
    }
}

export_tool_plugin!(Tally);
