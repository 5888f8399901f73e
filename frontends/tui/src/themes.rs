//! Themes as data (`smith_app::product::ThemeSpec`, from a product plugin or the
//! configuration) made into the renderer's [`Theme`]: each theme key onto its style; keys a
//! theme leaves out keep the no-colour theme's style.

use ratatui_core::style::{Color, Modifier, Style};
use smith_app::product::{Colour, StyleSpec, ThemeSpec};
use smith_render_terminal::Theme;

fn colour(c: Colour) -> Color {
    match c {
        Colour::Named(name) => match name {
            "black" => Color::Black,
            "red" => Color::Red,
            "green" => Color::Green,
            "yellow" => Color::Yellow,
            "blue" => Color::Blue,
            "magenta" => Color::Magenta,
            "cyan" => Color::Cyan,
            "gray" => Color::Gray,
            "dark-gray" => Color::DarkGray,
            "light-red" => Color::LightRed,
            "light-green" => Color::LightGreen,
            "light-yellow" => Color::LightYellow,
            "light-blue" => Color::LightBlue,
            "light-magenta" => Color::LightMagenta,
            "light-cyan" => Color::LightCyan,
            _ => Color::White,
        },
        Colour::Indexed(i) => Color::Indexed(i),
        Colour::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

fn style(s: &StyleSpec) -> Style {
    let mut out = Style::new();
    if let Some(fg) = s.fg {
        out = out.fg(colour(fg));
    }
    if let Some(bg) = s.bg {
        out = out.bg(colour(bg));
    }
    for (on, m) in [
        (s.bold, Modifier::BOLD),
        (s.italic, Modifier::ITALIC),
        (s.underlined, Modifier::UNDERLINED),
        (s.reversed, Modifier::REVERSED),
        (s.dim, Modifier::DIM),
    ] {
        if on {
            out = out.add_modifier(m);
        }
    }
    out
}

/// The renderer's style slot of theme key `key` (one of `smith_app::product::THEME_KEYS`).
fn slot<'a>(theme: &'a mut Theme, key: &str) -> Option<&'a mut Style> {
    Some(match key {
        "user" => &mut theme.user,
        "user-label" => &mut theme.user_label,
        "assistant" => &mut theme.assistant,
        "thinking" => &mut theme.thinking,
        "heading" => &mut theme.heading,
        "code-inline" => &mut theme.code_inline,
        "code-block" => &mut theme.code_block,
        "code-label" => &mut theme.code_label,
        "quote" => &mut theme.quote,
        "link" => &mut theme.link,
        "tool" => &mut theme.tool,
        "tool-output" => &mut theme.tool_output,
        "tool-error" => &mut theme.tool_error,
        "diff-added" => &mut theme.diff_added,
        "diff-removed" => &mut theme.diff_removed,
        "notice" => &mut theme.notice,
        "warning" => &mut theme.warning,
        "error" => &mut theme.error,
        "status" => &mut theme.status,
        "status-alert" => &mut theme.status_alert,
        "dim" => &mut theme.dim,
        "selected" => &mut theme.selected,
        "search-match" => &mut theme.search_match,
        _ => return None,
    })
}

/// `spec` as the renderer's theme.
pub(crate) fn theme_of(spec: &ThemeSpec) -> Theme {
    let mut theme = Theme::plain();
    for (key, s) in &spec.styles {
        if let Some(slot) = slot(&mut theme, key) {
            *slot = style(s);
        }
    }
    theme
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_key_has_a_slot_and_the_bundled_dark_theme_is_the_old_default() {
        let mut theme = Theme::plain();
        for (key, _) in smith_app::product::THEME_KEYS {
            assert!(slot(&mut theme, key).is_some(), "{key}");
        }
        let layer = smith_app::product::bundled(&crate::keys::built_in_specs()).unwrap();
        let dark = theme_of(layer.theme_named("dark").unwrap());
        let old = Theme::default();
        assert_eq!(format!("{dark:?}"), format!("{old:?}"));
        let none = theme_of(layer.theme_named("none").unwrap());
        assert_eq!(format!("{none:?}"), format!("{:?}", Theme::plain()));
    }
}
