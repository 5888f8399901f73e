//! The hooks the user configured (`hooks.NAME.*`; the hooks guide), read and checked before
//! anything runs: a hook names one event (`before-tool`, `after-tool` or `turn-end`) with the
//! tools it matches, may narrow them to paths, and has a command line to `run`. A hook that cannot be
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
            [
                "run",
                "before-tool",
                "after-tool",
                "turn-end",
                "paths",
                "timeout",
            ]
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
        // An event written with no tools would silently never run: said, like an empty
        // `paths`.
        for event in [
            HookEvent::BeforeTool,
            HookEvent::AfterTool,
            HookEvent::TurnEnd,
        ] {
            let field = event.name();
            if let Some(Value::String(t)) = settings.resolved.get(&key(field)).map(|s| &s.value)
                && t.trim().is_empty()
            {
                return Err(bad(
                    field,
                    format!(
                        "hook `{name}` has an empty `{field}`: name the tools it runs for, separated by | (`edit|write`; `*` for any)"
                    ),
                ));
            }
        }
        let events: Vec<(HookEvent, &str)> = [
            HookEvent::BeforeTool,
            HookEvent::AfterTool,
            HookEvent::TurnEnd,
        ]
        .into_iter()
        .filter_map(|event| Some((event, text(event.name())?)))
        .collect();
        let (event, tools) = match events[..] {
            [one] => one,
            [_, (second, _), ..] => {
                let named: Vec<&str> = events.iter().map(|(e, _)| e.name()).collect();
                return Err(bad(
                    second.name(),
                    format!(
                        "hook `{name}` names {}; a hook has one event, so make it {} hooks",
                        named.join(" and "),
                        named.len()
                    ),
                ));
            }
            [] => {
                return Err(bad(
                    "before-tool",
                    format!(
                        "hook `{name}` names no event: add `before-tool \"TOOLS\"`, `after-tool \"TOOLS\"` or `turn-end \"TOOLS\"` (tool names separated by |; `turn-end \"*\"` for every turn)"
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
        let paths = match settings.resolved.get(&key("paths")).map(|s| &s.value) {
            Some(Value::String(t)) if t.trim().is_empty() => {
                return Err(bad(
                    "paths",
                    format!(
                        "hook `{name}` has an empty `paths`: name globs (`*.rs`) or remove it to run for every call of its tools"
                    ),
                ));
            }
            Some(Value::String(t)) => t.as_str(),
            _ => "",
        };
        let seconds = settings
            .integer(&key("timeout"), DEFAULT_TIMEOUT_SECS)
            .max(1);
        let timeout = Duration::from_secs(seconds.unsigned_abs()).min(max_timeout);
        let hook =
            Hook::new(name, event, (tools, paths), run, timeout, &source("run")).map_err(|e| {
                match e {
                    smith_host::hooks::HookError::Tools { .. } => bad(event.name(), e.to_string()),
                    smith_host::hooks::HookError::Paths { .. } => bad("paths", e.to_string()),
                }
            })?;
        hooks.push(hook);
    }
    Ok(hooks)
}

/// Whether every tool a hook names without `*` is one some plugin has (`tools`, the tools of
/// every known plugin) or may find at run time (a name starting with a known plugin's
/// `dynamic-tools` prefix, such as `mcp__`): a hook for a tool that does not exist (`Bash`, a
/// misspelling) would never run, so it is an error rather than a false sense of being
/// checked.
///
/// # Errors
/// [`RegistryError::Hook`] naming the hook's key and source and the tools there are.
pub fn check_tools(
    settings: &Settings,
    registry: &crate::Registry,
    tools: &[String],
) -> Result<(), RegistryError> {
    let prefixes: Vec<&str> = registry
        .plugins()
        .iter()
        .filter_map(|p| p.manifest.dynamic.as_ref().map(|d| d.prefix.as_str()))
        .collect();
    for (key, setting) in settings.resolved.iter() {
        let Some(rest) = key.strip_prefix("hooks.") else {
            continue;
        };
        if ![".before-tool", ".after-tool", ".turn-end"]
            .iter()
            .any(|e| rest.ends_with(e))
        {
            continue;
        }
        let Value::String(pattern) = &setting.value else {
            continue;
        };
        for name in pattern.split('|').map(str::trim) {
            let known = name.contains('*')
                || tools.iter().any(|t| t == name)
                || prefixes.iter().any(|p| name.starts_with(p));
            if !name.is_empty() && !known {
                let mut sorted = tools.to_vec();
                sorted.sort();
                return Err(RegistryError::Hook {
                    source_text: setting.source.to_string(),
                    key: key.clone(),
                    why: format!(
                        "`{name}` is no tool any plugin has, so the hook would never run (tool names are case-sensitive; the tools are {})",
                        sorted.join(", ")
                    ),
                });
            }
        }
    }
    Ok(())
}
