//! A context handler for the host's tests: at a `context` event it tries, for each of the
//! event's directories, to read its declared `AGENTS.md`, an undeclared `passwd`, and the
//! declared name in the directory's parent (not one of the event's), and answers with one
//! piece per attempt saying what the host answered: `ok: TEXT`, `none` or `error: WHY`.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, ContextPiece, Guest, LifecycleEvent, context_files};

struct Probe;

fn outcome(result: Result<Option<String>, String>) -> String {
    match result {
        Ok(Some(text)) => format!("ok: {}", text.trim_end()),
        Ok(None) => "none".to_owned(),
        Err(why) => format!("error: {why}"),
    }
}

impl Guest for Probe {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        let LifecycleEvent::Context(e) = event else {
            return Ok(Vec::new());
        };
        let mut actions = Vec::new();
        for dir in &e.dirs {
            let parent = format!("{dir}/..");
            for (label, d, name) in [
                ("declared", dir.as_str(), "AGENTS.md"),
                ("undeclared", dir.as_str(), "passwd"),
                ("parent", parent.as_str(), "AGENTS.md"),
            ] {
                actions.push(Action::Context(ContextPiece {
                    source: Some(format!("{label} {d}")),
                    text: outcome(context_files::read(d, name, 1024)),
                }));
            }
        }
        Ok(actions)
    }
}

export_handler_plugin!(Probe);
