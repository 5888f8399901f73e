//! Words for the product layer: names of verbs, pickers, argument kinds and styles as users
//! write them, and the command and theme references generated from the declarations.

use smith_host::product::types::{ArgumentKind, CommandAction, Picker, Verb, VerbKind};

use super::style;
use super::{Colour, ProductLayer, StyleSpec, THEME_KEYS, action_name};

/// A verb as words for notices and errors: `/undo --turn`, `set-model sonnet`.
pub fn verb_words(verb: &Verb) -> String {
    match verb {
        Verb::NewSession => "new session".into(),
        Verb::Attach(s) => format!("attach {s}"),
        Verb::Fork(e) => format!("fork {}", e.as_deref().unwrap_or(""))
            .trim_end()
            .into(),
        Verb::Select(e) => format!("select {e}"),
        Verb::Compact(_) => "compact".into(),
        Verb::Undo(turn) => if *turn { "undo turn" } else { "undo" }.into(),
        Verb::Redo => "redo".into(),
        Verb::Restore(t) => format!("restore {t}"),
        Verb::Replay(_) => "replay".into(),
        Verb::SetModel((m, _)) => format!("set model {m}"),
        Verb::PluginEnable(p) => format!("enable plugin {p}"),
        Verb::PluginDisable(p) => format!("disable plugin {p}"),
        Verb::Diff(_) => "diff".into(),
        Verb::Export(_) => "export".into(),
        Verb::OpenPicker(p) => format!("open the {p:?} picker").to_lowercase(),
    }
}

/// What a command does, in words for the references and `commands.list`.
pub fn action_words(action: &CommandAction) -> String {
    match action {
        CommandAction::Verb(kind) => format!("runtime verb `{}`", verb_kind_name(*kind)),
        CommandAction::OpenPicker(p) => format!("opens the {} picker", picker_name(*p)),
        CommandAction::Key(a) => format!("key action `{}`", action_name(*a)),
        CommandAction::Handler => "the plugin's handler".to_owned(),
    }
}

/// A verb kind's written name (`set-model`).
pub fn verb_kind_name(kind: VerbKind) -> &'static str {
    match kind {
        VerbKind::NewSession => "new-session",
        VerbKind::Attach => "attach",
        VerbKind::Fork => "fork",
        VerbKind::Select => "select",
        VerbKind::Compact => "compact",
        VerbKind::Undo => "undo",
        VerbKind::Redo => "redo",
        VerbKind::Restore => "restore",
        VerbKind::Replay => "replay",
        VerbKind::SetModel => "set-model",
        VerbKind::PluginEnable => "plugin-enable",
        VerbKind::PluginDisable => "plugin-disable",
        VerbKind::Diff => "diff",
        VerbKind::Export => "export",
    }
}

/// A picker's written name (`models`).
pub fn picker_name(picker: Picker) -> &'static str {
    match picker {
        Picker::Commands => "commands",
        Picker::Sessions => "sessions",
        Picker::Models => "models",
        Picker::Plugins => "plugins",
        Picker::Branches => "branches",
    }
}

/// An argument kind's written name (`model`).
pub fn kind_name(kind: ArgumentKind) -> &'static str {
    match kind {
        ArgumentKind::Text => "text",
        ArgumentKind::Integer => "integer",
        ArgumentKind::Flag => "flag",
        ArgumentKind::Session => "session",
        ArgumentKind::Entry => "entry",
        ArgumentKind::Model => "model",
        ArgumentKind::Plugin => "plugin",
        ArgumentKind::Thinking => "thinking",
    }
}

/// The command reference (Markdown), generated from `layer` (the bundled plugins' layer):
/// `docs/reference/commands.md`.
pub fn commands_reference(layer: &ProductLayer) -> String {
    let mut out = String::from(
        "# Command reference\n\nEvery command of the product layer as this build registers it, generated from the declarations (Smith's own in `core/app/src/product`, the bundled product plugin's in `plugins/guests/product`). In the terminal UI, `/` opens the palette over them; over JSON-RPC, `commands.list` lists them and `commands.run` runs one with its arguments by name. *Smith* marks the commands that enter or recover the runtime: they stay when every product plugin is disabled. *A prompt command* submits its text as a prompt (Smith bundles `/init` and `/review`; your own Markdown files in `.smith/commands/` and `commands/` beside your configuration add more: [prompt commands](../prompt-commands.md)). The guide is [commands](../commands.md).\n\n| Command | What it does | Carried out as | From |\n| --- | --- | --- | --- |\n",
    );
    for c in &layer.commands {
        let (action, from) = match (&c.plugin, &c.prompt) {
            (Some(p), _) => (action_words(&c.action), format!("plugin `{p}`")),
            (None, Some(_)) => (
                "a prompt submitted".to_owned(),
                "Smith (a prompt command)".to_owned(),
            ),
            (None, None) => (action_words(&c.action), "Smith".to_owned()),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            c.usage(),
            c.summary.replace('|', "\\|"),
            action,
            from,
        ));
    }
    out.push_str("\n## Arguments\n\n| Command | Argument | Kind | Required | What it is |\n| --- | --- | --- | --- | --- |\n");
    for c in &layer.commands {
        for a in &c.arguments {
            out.push_str(&format!(
                "| `/{}` | `{}` | {} | {} | {} |\n",
                c.name,
                a.name,
                kind_name(a.kind),
                if a.required { "yes" } else { "no" },
                a.summary.replace('|', "\\|")
            ));
        }
    }
    out.push_str("\nArgument kinds: `text` (the last one takes the rest of the line), `integer`, `flag` (written `--NAME`), `session` (an id or unique prefix), `entry` (an entry id), `model` (an id or alias of the catalog), `plugin` (a plugin id), `thinking` (off, minimal, low, medium, high, max).\n");
    out
}

/// The theme reference (Markdown), generated from [`THEME_KEYS`] and `layer`'s themes:
/// `docs/reference/themes.md`.
pub fn themes_reference(layer: &ProductLayer) -> String {
    let mut out = String::from(
        "# Theme reference\n\nThe theme keys of the terminal UI and the themes this build bundles, generated from their declarations (`core/app/src/product/style.rs`, `plugins/guests/product`). Choose a theme with the `tui.theme` setting or `/theme NAME`; change one, or make your own, with `theme.NAME.KEY \"STYLE\"` settings (a foreground colour, `on` and a background colour, modifiers: `\"black on yellow bold\"`; `theme.NAME.base \"dark\"` starts from another theme). Keys a theme leaves out are unstyled. The guide is [commands](../commands.md#themes).\n\n| Theme key | What it styles |",
    );
    for t in &layer.themes {
        out.push_str(&format!(" `{}` |", t.name));
    }
    out.push_str("\n| --- | --- |");
    for _ in &layer.themes {
        out.push_str(" --- |");
    }
    out.push('\n');
    for (key, what) in THEME_KEYS {
        out.push_str(&format!("| `{key}` | {what} |"));
        for t in &layer.themes {
            out.push_str(&format!(
                " {} |",
                t.styles
                    .get(*key)
                    .map_or_else(|| "—".to_owned(), style_words)
            ));
        }
        out.push('\n');
    }
    out.push_str("\nThemes: ");
    let names: Vec<String> = layer
        .themes
        .iter()
        .map(|t| format!("`{}` ({}, {})", t.name, t.summary, t.source))
        .collect();
    out.push_str(&names.join("; "));
    out.push_str(&format!(
        ".\n\nColours: {}, an index `0`–`255`, or `#rrggbb`. Modifiers: `bold`, `italic`, `underlined`, `reversed`, `dim`.\n",
        style::COLOUR_NAMES.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
    ));
    out
}

fn colour_words(c: Colour) -> String {
    match c {
        Colour::Named(n) => n.to_owned(),
        Colour::Indexed(i) => i.to_string(),
        Colour::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

/// A style as configuration writes it (`black on yellow bold`; `plain` for none).
pub fn style_words(s: &StyleSpec) -> String {
    let mut words = Vec::new();
    if let Some(fg) = s.fg {
        words.push(colour_words(fg));
    }
    if let Some(bg) = s.bg {
        words.push(format!("on {}", colour_words(bg)));
    }
    for (on, w) in [
        (s.bold, "bold"),
        (s.italic, "italic"),
        (s.underlined, "underlined"),
        (s.reversed, "reversed"),
        (s.dim, "dim"),
    ] {
        if on {
            words.push(w.to_owned());
        }
    }
    if words.is_empty() {
        "plain".to_owned()
    } else {
        words.join(" ")
    }
}
