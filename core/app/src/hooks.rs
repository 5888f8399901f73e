//! The hooks the user configured (`hooks.NAME.*`; the hooks guide), read and checked before
//! anything runs: a hook names one event (`before-tool` or `after-tool`) with the tools it
//! matches, may narrow them to paths, and has a command line to `run`. A hook that cannot be
//! used is an error naming its source and key; an untrusted project's hooks are never read
//! (its whole configuration is skipped, with a notice that says so).

use std::collections::BTreeSet;
use std::time::Duration;

use smith_config::Value;
use smith_host::hooks::{Hook, HookEvent};

use crate::registry::RegistryError;
use crate::settings::Settings;

/// The most seconds a hook may run when it sets no `timeout`.
pub const DEFAULT_TIMEOUT_SECS: i64 = 60;

/// The configured hooks in name order, each timeout capped at `max_timeout`
/// (`process.max-timeout`).
///
/// # Errors
/// [`RegistryError::Hook`] naming the source (file and line) and the key of a hook with no
/// event or two, no `run`, a tool pattern or a path glob that cannot be used.
pub fn from_settings(
    settings: &Settings,
    max_timeout: Duration,
) -> Result<Vec<Hook>, RegistryError> {
    let names: BTreeSet<&str> = settings
        .resolved
        .iter()
        .filter_map(|(key, _)| key.strip_prefix("hooks.")?.split_once('.').map(|(n, _)| n))
        .collect();
    let mut hooks = Vec::new();
    for name in names {
        let key = |field: &str| format!("hooks.{name}.{field}");
        let text = |field: &str| match settings.resolved.get(&key(field)).map(|s| &s.value) {
            Some(Value::String(t)) if !t.trim().is_empty() => Some(t.as_str()),
            _ => None,
        };
        let source = |field: &str| {
            settings
                .resolved
                .get(&key(field))
                .map(|s| s.source.to_string())
                .unwrap_or_default()
        };
        // Said of the first key the hook has, so the message points into the right file.
        let any_source = || {
            ["run", "before-tool", "after-tool", "paths", "timeout"]
                .iter()
                .map(|f| source(f))
                .find(|s| !s.is_empty())
                .unwrap_or_default()
        };
        let bad = |field: &str, why: String| RegistryError::Hook {
            source_text: if source(field).is_empty() {
                any_source()
            } else {
                source(field)
            },
            key: key(field),
            why,
        };
        let (event, tools) = match (text("before-tool"), text("after-tool")) {
            (Some(tools), None) => (HookEvent::BeforeTool, tools),
            (None, Some(tools)) => (HookEvent::AfterTool, tools),
            (Some(_), Some(_)) => {
                return Err(bad(
                    "after-tool",
                    format!(
                        "hook `{name}` names both before-tool and after-tool; make it two hooks"
                    ),
                ));
            }
            (None, None) => {
                return Err(bad(
                    "before-tool",
                    format!(
                        "hook `{name}` names no event: add `before-tool \"TOOLS\"` or `after-tool \"TOOLS\"` (tool names separated by |)"
                    ),
                ));
            }
        };
        let Some(run) = text("run") else {
            return Err(bad(
                "run",
                format!(
                    "hook `{name}` has no `run`: add the command line it runs, e.g. `run \"cargo fmt\"`"
                ),
            ));
        };
        let seconds = settings
            .integer(&key("timeout"), DEFAULT_TIMEOUT_SECS)
            .max(1);
        let timeout = Duration::from_secs(seconds.unsigned_abs()).min(max_timeout);
        let hook = Hook::new(
            name,
            event,
            (tools, text("paths").unwrap_or_default()),
            run,
            timeout,
            &source("run"),
        )
        .map_err(|e| match e {
            smith_host::hooks::HookError::Tools { .. } => bad(event.name(), e.to_string()),
            smith_host::hooks::HookError::Paths { .. } => bad("paths", e.to_string()),
        })?;
        hooks.push(hook);
    }
    Ok(hooks)
}
