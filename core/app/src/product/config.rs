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

/// The error of setting `key` = `value` (resolved as `v`): `reason`.
fn refusal(key: &str, value: &str, v: &smith_config::ResolvedValue, reason: String) -> ConfigError {
    ConfigError {
        key: key.to_owned(),
        value: value.to_owned(),
        source_text: v.source.to_string(),
        reason,
    }
}

/// `keys.KEY "ACTION"` / `"/COMMAND"` / `"none"` settings. A binding to a command no enabled
/// plugin registers (its plugin disabled or uninstalled) is skipped with a notice in
/// `notices`; everything else wrong is an error.
pub(super) fn user_bindings(
    resolved: &smith_config::Resolved,
    layer: &ProductLayer,
    notices: &mut Vec<String>,
) -> Result<Vec<UserBinding>, ConfigError> {
    let mut out: Vec<UserBinding> = Vec::new();
    for (key, v) in resolved.iter() {
        let Some(written) = key.strip_prefix("keys.") else {
            continue;
        };
        let value = text_of(v);
        let bad = |reason: String| refusal(key, &value, v, reason);
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
        if let Some((_, _, first)) = out.iter().find(|(k, _, _)| *k == spec) {
            return Err(bad(format!(
                "{spec} is bound twice (also at {first}); a key has one binding: remove one"
            )));
        }
        let target = if value == "none" {
            None
        } else if let Some(name) = value.strip_prefix('/') {
            let Some(command) = layer.command(name) else {
                let names: Vec<&str> = layer.commands.iter().map(|c| c.name.as_str()).collect();
                let near = smith_config::closest(name, names.iter().copied());
                notices.push(format!(
                    "{}: setting `{key}` binds `/{name}`, which no enabled plugin or prompt command registers{}; the binding is skipped",
                    v.source,
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!(" (did you mean /{}?)", near.join(", /"))
                    }
                ));
                continue;
            };
            if let Some(a) = command.arguments.iter().find(|a| a.required) {
                return Err(bad(format!(
                    "/{name} needs {} ({}), and a key runs a command without arguments; bind a command that needs none",
                    a.name, a.summary
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

/// One theme of the user's settings: where its `base` points, and its own styles, each with
/// its source.
#[derive(Default)]
struct UserTheme<'a> {
    base: Option<(String, &'a smith_config::ResolvedValue, &'a str)>,
    styles: Vec<(String, style::StyleSpec)>,
    source: Option<String>,
}

/// `theme.NAME.KEY "STYLE"` and `theme.NAME.base "THEME"` settings: themes of the user's, or
/// changes to a plugin's. A base may be another user theme; a cycle of bases is an error.
pub(super) fn user_themes(
    resolved: &smith_config::Resolved,
    themes: &mut Vec<ThemeSpec>,
) -> Result<(), ConfigError> {
    let mut user: std::collections::BTreeMap<String, UserTheme<'_>> = Default::default();
    for (key, v) in resolved.iter() {
        if !key.starts_with("theme.") {
            continue;
        }
        let value = text_of(v);
        let bad = |reason: String| refusal(key, &value, v, reason);
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
        let entry = user.entry(name.to_owned()).or_default();
        entry.source.get_or_insert_with(|| v.source.to_string());
        if field == "base" {
            entry.base = Some((value.clone(), v, key.as_str()));
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
        let spec = style::parse_style(&value).map_err(|e| bad(e.to_string()))?;
        entry.styles.push((field.to_owned(), spec));
    }
    // Resolve each user theme's styles: its base's (followed through other user themes),
    // then a plugin theme of the same name, then its own.
    let names: Vec<String> = user.keys().cloned().collect();
    let mut done: std::collections::BTreeMap<
        String,
        std::collections::BTreeMap<String, style::StyleSpec>,
    > = Default::default();
    for name in &names {
        resolve_theme(name, &user, themes, &mut done, &mut Vec::new())?;
    }
    for name in names {
        let styles = done.remove(&name).unwrap_or_default();
        let source = user
            .get(&name)
            .and_then(|t| t.source.clone())
            .unwrap_or_default();
        match themes.iter_mut().find(|t| t.name == name) {
            Some(theme) => theme.styles = styles,
            None => themes.push(ThemeSpec {
                name,
                summary: format!("the user's theme ({source})"),
                styles,
                source: format!("configuration {source}"),
            }),
        }
    }
    Ok(())
}

type Styles = std::collections::BTreeMap<String, style::StyleSpec>;

fn resolve_theme(
    name: &str,
    user: &std::collections::BTreeMap<String, UserTheme<'_>>,
    plugins: &[ThemeSpec],
    done: &mut std::collections::BTreeMap<String, Styles>,
    chain: &mut Vec<String>,
) -> Result<Styles, ConfigError> {
    if let Some(styles) = done.get(name) {
        return Ok(styles.clone());
    }
    let plugin = plugins
        .iter()
        .find(|t| t.name == name)
        .map(|t| t.styles.clone());
    let Some(theme) = user.get(name) else {
        return Ok(plugin.unwrap_or_default());
    };
    let mut styles = Styles::new();
    if let Some((base, v, key)) = &theme.base {
        let bad = |reason: String| refusal(key, base, v, reason);
        if base == name || chain.iter().any(|c| c == base) {
            let mut cycle = chain.clone();
            cycle.push(name.to_owned());
            cycle.push(base.clone());
            return Err(bad(format!(
                "the bases of these themes go round in a circle ({}); end the chain at a plugin's theme such as dark",
                cycle.join(" → ")
            )));
        }
        if !user.contains_key(base) && !plugins.iter().any(|t| &t.name == base) {
            let mut known: Vec<&str> = plugins.iter().map(|t| t.name.as_str()).collect();
            known.extend(user.keys().map(String::as_str));
            return Err(bad(format!(
                "no theme `{base}` to start from; known: {}",
                known.join(", ")
            )));
        }
        chain.push(name.to_owned());
        styles = resolve_theme(base, user, plugins, done, chain)?;
        chain.pop();
    }
    if let Some(p) = plugin {
        styles.extend(p);
    }
    styles.extend(theme.styles.iter().cloned());
    done.insert(name.to_owned(), styles.clone());
    Ok(styles)
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
    Err(refusal(
        "tui.theme",
        &name,
        v,
        format!(
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
    ))
}
