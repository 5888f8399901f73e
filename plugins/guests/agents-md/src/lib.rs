//! Smith's bundled `AGENTS.md` context (Smith spec: Sessions → Effective request context —
//! accepted context transformations; the `AGENTS.md` convention, <https://agents.md>: a
//! project's instructions for coding agents, nearer files taking precedence).
//!
//! Answers each `context` event with one `context` piece per `AGENTS.md` found in the event's
//! directories, in their order (the user's global file first, the working directory's last),
//! each headed by its path (the user's own file says it applies to every project). A file
//! that cannot be read (too large, not UTF-8, not a regular file, a link out of the project)
//! is skipped with a notice naming it and why, so the user learns of it while the others
//! still apply; a byte-order mark is dropped.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, ContextPiece, Guest, LifecycleEvent, context_files};

struct AgentsMd;

/// The file this plugin reads (its manifest's `context-file`).
const NAME: &str = "AGENTS.md";

/// The largest file read, in bytes (the host's bound).
const LIMIT: u32 = 64 * 1024;

impl Guest for AgentsMd {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        let LifecycleEvent::Context(e) = event else {
            return Ok(Vec::new());
        };
        let mut actions = Vec::new();
        for dir in &e.dirs {
            let path = format!("{}/{NAME}", dir.trim_end_matches('/'));
            let text = match context_files::read(dir, NAME, LIMIT) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                // One unreadable file is skipped, and the user told why; the others stay.
                Err(why) => {
                    actions.push(Action::Notice(format!("{path} was skipped: {why}")));
                    continue;
                }
            };
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            if text.trim().is_empty() {
                continue;
            }
            let heading = if e.user_dir.as_deref() == Some(dir.as_str()) {
                format!(
                    "# Your own instructions, from {path}\n(They apply to every project; a project's AGENTS.md files and the request itself take precedence.)"
                )
            } else {
                format!(
                    "# Instructions from {path}\n(AGENTS.md files apply to their directory and below; a deeper file takes precedence, and the user's request over all.)"
                )
            };
            actions.push(Action::Context(ContextPiece {
                text: format!("{heading}\n\n{}", text.trim_end()),
                source: Some(path),
            }));
        }
        Ok(actions)
    }
}

export_handler_plugin!(AgentsMd);
