//! The run's permission settings (`permissions.*`; the settings reference and the
//! `permissions` guide): the mode every policy event carries, and the allow, ask and deny
//! rules, each checked here so a rule that does not parse is an error naming its source
//! before anything runs (the bundled `permissions` plugin applies them).

use smith_config::Value;
use smith_host::{PermissionMode, Permissions};

use crate::registry::RegistryError;
use crate::settings::Settings;

/// The permissions of a run; `programs_allowed` says whether programs may run at all here (a
/// trusted project or `process.allow`), which picks the mode when none is set: `auto` where
/// they may, else `auto-edit`.
///
/// # Errors
/// [`RegistryError::PermissionRule`] for a rule that is not `TOOL` or `TOOL(PATTERN)`.
pub fn from_settings(
    settings: &Settings,
    programs_allowed: bool,
) -> Result<Permissions, RegistryError> {
    let mode = settings
        .string("permissions.mode")
        .and_then(|m| m.parse::<PermissionMode>().ok())
        .unwrap_or(if programs_allowed {
            PermissionMode::Auto
        } else {
            PermissionMode::AutoEdit
        });
    Ok(Permissions {
        mode,
        allow: rules(settings, "permissions.allow")?,
        ask: rules(settings, "permissions.ask")?,
        deny: rules(settings, "permissions.deny")?,
        project_config: None,
    })
}

/// Whether every rule names a tool of `tools` (the tools of every known plugin, disabled ones
/// included — a rule about a switched-off tool simply has nothing to match): a rule about a
/// tool no plugin has (a misspelt or wrongly cased name, `Bash`) would do nothing, so a deny
/// rule that never holds is an error rather than a false sense of safety.
///
/// # Errors
/// [`RegistryError::PermissionRule`] naming the rule, its source and the tools there are.
pub fn check_tools(settings: &Settings, tools: &[String]) -> Result<(), RegistryError> {
    for key in ["permissions.allow", "permissions.ask", "permissions.deny"] {
        let Some(setting) = settings.resolved.get(key) else {
            continue;
        };
        let Value::String(text) = &setting.value else {
            continue;
        };
        for rule in split(text) {
            let tool = rule.split_once('(').map_or(rule.as_str(), |(t, _)| t);
            if !tools.iter().any(|t| t == tool) {
                return Err(RegistryError::PermissionRule {
                    source_text: setting.source.to_string(),
                    key,
                    rule: rule.clone(),
                    reason: format!(
                        "names no tool any plugin has (tool names are case-sensitive; the tools are {})",
                        tools.join(", ")
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The rules of `key`: split on commas outside parentheses, each checked.
fn rules(settings: &Settings, key: &'static str) -> Result<Vec<String>, RegistryError> {
    let Some(setting) = settings.resolved.get(key) else {
        return Ok(Vec::new());
    };
    let Value::String(text) = &setting.value else {
        return Ok(Vec::new());
    };
    split(text)
        .into_iter()
        .map(|rule| {
            check(&rule)
                .map(|()| rule.clone())
                .map_err(|reason| RegistryError::PermissionRule {
                    source_text: setting.source.to_string(),
                    key,
                    rule,
                    reason,
                })
        })
        .collect()
}

pub use smith_config::rules::{check, split};

/// The tools of every known plugin, disabled ones included, in load order: what rules may
/// name ([`check_tools`]).
pub fn known_tools(registry: &crate::Registry) -> Vec<String> {
    registry
        .plugins()
        .iter()
        .flat_map(|p| p.manifest.tools.iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_split_on_commas_outside_parentheses_and_bad_ones_say_why() {
        assert_eq!(
            split("bash(echo a,b), edit(src/**) ,,read"),
            ["bash(echo a,b)", "edit(src/**)", "read"]
        );
        assert!(check("bash(git status*)").is_ok());
        assert!(check("bash").is_ok());
        for (bad, says) in [
            ("bash(git status", "does not end with `)`"),
            ("(x)", "tool name"),
            ("ba sh", "tool name"),
            ("bash()", "empty pattern"),
        ] {
            let why = check(bad).unwrap_err();
            assert!(why.contains(says), "{bad}: {why}");
        }
    }
}
