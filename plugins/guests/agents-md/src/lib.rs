//! Smith's bundled `AGENTS.md` context (Smith spec: Sessions → Effective request context —
//! accepted context transformations; the `AGENTS.md` convention, <https://agents.md>: a
//! project's instructions for coding agents, nearer files taking precedence). A project
//! written for Claude Code has `CLAUDE.md` instead: the names come from the host
//! (`context-files.names`, the user's `context.files`, default `AGENTS.md` then `CLAUDE.md`),
//! and the first that exists in a directory is read there.
//!
//! Answers each `context` event with one `context` piece per instruction file found in the
//! event's directories, in their order (the user's global file first, the working directory's last),
//! each headed by its path (the user's own file says it applies to every project). A file
//! that cannot be read (too large, not UTF-8, not a regular file, a link out of the project)
//! is skipped with a notice naming it and why, so the user learns of it while the others
//! still apply; a byte-order mark is dropped.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, ContextPiece, Guest, LifecycleEvent, context_files};

struct AgentsMd;

/// The largest file read, in bytes (the host's bound).
const LIMIT: u32 = 64 * 1024;

impl Guest for AgentsMd {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        let LifecycleEvent::Context(e) = event else {
            return Ok(Vec::new());
        };
        let names = context_files::names();
        let mut actions = Vec::new();
        for dir in &e.dirs {
            // The first of the names that exists here is the directory's file; one that
            // exists but cannot be read is skipped with a notice, not replaced by the next.
            // An empty file (a placeholder) counts as none, so the next name is tried.
            let mut found = None;
            for name in &names {
                let path = format!("{}/{name}", dir.trim_end_matches('/'));
                match context_files::read(dir, name, LIMIT) {
                    Ok(Some(text)) if text.trim_start_matches('\u{feff}').trim().is_empty() => {
                        continue;
                    }
                    Ok(Some(text)) => found = Some((path, text)),
                    Ok(None) => continue,
                    // One unreadable file is skipped, and the user told why; the others stay.
                    Err(why) => {
                        let others = names
                            .iter()
                            .filter(|n| *n != name)
                            .cloned()
                            .collect::<Vec<_>>();
                        let instead = if others.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " ({} in that directory not read instead)",
                                others.join(", ")
                            )
                        };
                        actions.push(Action::Notice(format!(
                            "{path} was skipped{instead}: {why}"
                        )));
                    }
                }
                break;
            }
            let Some((path, text)) = found else {
                continue;
            };
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            if text.trim().is_empty() {
                continue;
            }
            let heading = if e.user_dir.as_deref() == Some(dir.as_str()) {
                format!(
                    "# Your own instructions, from {path}\n(They apply to every project; a project's instruction files and the request itself take precedence.)"
                )
            } else {
                format!(
                    "# Instructions from {path}\n(Instruction files apply to their directory and below; a deeper file takes precedence, and the user's request over all.)"
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
