//! The product layer's settings: the user's `keys.*` bindings, `theme.*.*` themes and the
//! `tui.theme` choice, each checked against what the plugins contribute, a bad value an error
//! naming its source and key.

use smith_host::product::types::BindingTarget;

use super::style;
use super::{
    ConfigError, KEY_ACTIONS, KeySpec, Origin, ProductLayer, THEME_KEYS, ThemeSpec, valid_name,
};

/// The value of a resolved setting as text (strings unquoted).
pub(super) fn text_of(v: &smith_config::ResolvedValue) -> String {
    match &v.value {
        smith_config::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

type UserBinding = (KeySpec, Option<BindingTarget>, String);

/// `keys.KEY "ACTION"` / `"/COMMAND"` / `"none"` settings.
pub(super) fn user_bindings(
    resolved: &smith_config::Resolved,
    layer: &ProductLayer,
) -> Result<Vec<UserBinding>, ConfigError> {
    let mut out = Vec::new();
    for (key, v) in resolved.iter() {
        let Some(written) = key.strip_prefix("keys.") else {
            continue;
        };
        let value = text_of(v);
        let bad = |reason: String| ConfigError {
            key: key.clone(),
            value: value.clone(),
            source_text: v.source.to_string(),
            reason,
        };
        let spec = KeySpec::parse(written).map_err(|e| bad(e.to_string()))?;
        if layer
            .bindings
            .iter()
            .any(|b| b.key == spec && b.origin == Origin::BuiltIn)
        {
            return Err(bad(format!(
                "{spec} is built into the terminal UI (typing, submit, scroll, abort and quit keys cannot be rebound); choose another key"
            )));
        }
        let target = if value == "none" {
            None
        } else if let Some(name) = value.strip_prefix('/') {
            if layer.command(name).is_none() {
                let names: Vec<&str> = layer.commands.iter().map(|c| c.name.as_str()).collect();
                let near = smith_config::closest(name, names.iter().copied());
                return Err(bad(format!(
                    "no command `/{name}` is registered{}",
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!(" (did you mean /{}?)", near.join(", /"))
                    }
                )));
            }
            Some(BindingTarget::Command(name.to_owned()))
        } else if let Some((_, a)) = KEY_ACTIONS.iter().find(|(n, _)| *n == value) {
            Some(BindingTarget::Key(*a))
        } else {
            return Err(bad(format!(
                "not an action: write one of {}, `/COMMAND`, or `none` to unbind",
                KEY_ACTIONS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        out.push((spec, target, v.source.to_string()));
    }
    Ok(out)
}

/// `theme.NAME.KEY "STYLE"` and `theme.NAME.base "THEME"` settings: a theme of the user's, or
/// changes to a plugin's.
pub(super) fn user_themes(
    resolved: &smith_config::Resolved,
    themes: &mut Vec<ThemeSpec>,
) -> Result<(), ConfigError> {
    let entries: Vec<(&String, &smith_config::ResolvedValue)> = resolved
        .iter()
        .filter(|(k, _)| k.starts_with("theme."))
        .collect();
    // Bases first, so a theme's own keys go over its base's.
    let mut ordered: Vec<_> = entries
        .iter()
        .filter(|(k, _)| k.ends_with(".base"))
        .collect();
    ordered.extend(entries.iter().filter(|(k, _)| !k.ends_with(".base")));
    for (key, v) in ordered {
        let value = text_of(v);
        let bad = |reason: String| ConfigError {
            key: (*key).clone(),
            value: value.clone(),
            source_text: v.source.to_string(),
            reason,
        };
        let mut parts = key.splitn(3, '.');
        let (_, Some(name), Some(field)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad(
                "write `theme.NAME.KEY \"STYLE\"` (e.g. theme.mine.status \"black on yellow\")"
                    .into(),
            ));
        };
        if !valid_name(name) {
            return Err(bad(format!(
                "theme name `{name}` is not lowercase letters, digits and `-`"
            )));
        }
        let index = match themes.iter().position(|t| t.name == name) {
            Some(i) => i,
            None => {
                themes.push(ThemeSpec {
                    name: name.to_owned(),
                    summary: format!("the user's theme ({})", v.source),
                    styles: Default::default(),
                    source: format!("configuration {}", v.source),
                });
                themes.len() - 1
            }
        };
        if field == "base" {
            let base = themes
                .iter()
                .find(|t| t.name == value)
                .ok_or_else(|| {
                    bad(format!(
                        "no theme `{value}` to start from; known: {}",
                        themes
                            .iter()
                            .map(|t| t.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?
                .styles
                .clone();
            let theme = &mut themes[index];
            for (k, s) in base {
                theme.styles.entry(k).or_insert(s);
            }
            continue;
        }
        if !THEME_KEYS.iter().any(|(k, _)| *k == field) {
            let near = smith_config::closest(field, THEME_KEYS.iter().map(|(k, _)| *k));
            return Err(bad(format!(
                "`{field}` is not a theme key{}; the theme reference lists them",
                if near.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", near.join(", "))
                }
            )));
        }
        let spec = style::parse_style(&value).map_err(bad)?;
        themes[index].styles.insert(field.to_owned(), spec);
    }
    Ok(())
}

/// The theme `tui.theme` names, checked when the user set it.
pub(super) fn chosen_theme(
    resolved: &smith_config::Resolved,
    themes: &[ThemeSpec],
) -> Result<Option<String>, ConfigError> {
    let Some(v) = resolved.get("tui.theme") else {
        return Ok(None);
    };
    let name = text_of(v);
    if themes.iter().any(|t| t.name == name) {
        return Ok(Some(name));
    }
    if v.source.level == smith_config::Level::ProductDefault {
        return Ok(None);
    }
    Err(ConfigError {
        key: "tui.theme".into(),
        value: name,
        source_text: v.source.to_string(),
        reason: format!(
            "no theme of that name; known: {} (themes come from product plugins and `theme.NAME.KEY` settings)",
            if themes.is_empty() {
                "none — is the product plugin disabled?".to_owned()
            } else {
                themes
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
    })
}
