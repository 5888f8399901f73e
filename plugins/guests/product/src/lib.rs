//! Smith's bundled product layer (`product-plugin` world): the default commands, key
//! bindings, themes and layout. Every command here is data — a runtime verb, a picker or a
//! key-table action — except `theme`, `layout`, `permissions`, `cost`, `status` and `mcp`,
//! which this plugin's `run` answers with intents (`cost`, `status` and `mcp` from the
//! runtime's answers, `report.rs`). The commands that enter or recover the runtime (`new`, `attach`, `plugins`,
//! `plugin-enable`, `plugin-disable`, `quit`) are Smith's own and stay when this plugin is
//! disabled.

use smith_plugin_sdk::plugin::{
    Arguments, Plugin, argument as arg, bind_action, bind_command, command,
};
use smith_plugin_sdk::product::{
    ArgumentKind, Binding, Command, CommandAction, Intent, KeyAction, Layout, Picker, Style, Theme,
    VerbKind,
};

mod report;

struct Product;

/// Every command this plugin registers: the runtime's verbs and pickers, then the view's.
fn commands() -> Vec<Command> {
    runtime_commands()
        .into_iter()
        .chain(view_commands())
        .collect()
}

/// The commands carried out as runtime verbs and pickers.
fn runtime_commands() -> Vec<Command> {
    use ArgumentKind as K;
    use CommandAction::{OpenPicker, Verb};
    vec![
        command(
            "model",
            "Use another model for the following runs (a picker when none is named)",
            vec![
                arg("model", "the model id or alias", K::Model, true),
                arg("thinking", "the thinking level", K::Thinking, false),
            ],
            Verb(VerbKind::SetModel),
        ),
        command(
            "models",
            "Pick a model from the catalog",
            vec![],
            OpenPicker(Picker::Models),
        ),
        command(
            "compact",
            "Summarize the conversation so far to free context",
            vec![arg(
                "focus",
                "what the summary should keep in view",
                K::Text,
                false,
            )],
            Verb(VerbKind::Compact),
        ),
        command(
            "undo",
            "Take back the last tool batch's file changes",
            vec![arg("turn", "take back the whole last turn", K::Flag, false)],
            Verb(VerbKind::Undo),
        ),
        command(
            "redo",
            "Reapply what the last undo took back",
            vec![],
            Verb(VerbKind::Redo),
        ),
        command(
            "restore",
            "Put the working tree back as a snapshot or turn had it",
            vec![arg(
                "target",
                "a snapshot id, or an entry id of the session (the tree as it was there)",
                K::Text,
                true,
            )],
            Verb(VerbKind::Restore),
        ),
        command(
            "diff",
            "Show what the working tree's history changed (the latest change, or since a snapshot or entry)",
            vec![arg(
                "from",
                "a snapshot id or entry id to compare the tree now with",
                K::Text,
                false,
            )],
            Verb(VerbKind::Diff),
        ),
        command(
            "fork",
            "Fork the session into a new one (at an entry, else at the branch tip)",
            vec![arg("entry", "the entry to fork at", K::Entry, false)],
            Verb(VerbKind::Fork),
        ),
        command(
            "branch",
            "Continue from the branch ending at an entry",
            vec![arg("entry", "the branch's last entry", K::Entry, true)],
            Verb(VerbKind::Select),
        ),
        command(
            "branches",
            "Show the session's branches as a tree: continue one, or edit an earlier message into a new branch",
            vec![],
            OpenPicker(Picker::Branches),
        ),
        command(
            "export",
            "Write the session as JSONL records, redacted as recorded (to FILE, else SESSION.jsonl here; never over a file)",
            vec![arg(
                "file",
                "where to write (default: SESSION.jsonl here)",
                K::Text,
                false,
            )],
            Verb(VerbKind::Export),
        ),
        command(
            "replay",
            "Replay the session's runs",
            vec![arg("turns", "a turn range A..B", K::Text, false)],
            Verb(VerbKind::Replay),
        ),
        command(
            "sessions",
            "Pick a session of this directory to open",
            vec![],
            OpenPicker(Picker::Sessions),
        ),
        command(
            "resume",
            "Resume a session: the sessions picker (Tab lists every directory's)",
            vec![],
            OpenPicker(Picker::Sessions),
        ),
    ]
}

/// The commands that show or change the view, and the handlers this plugin answers.
fn view_commands() -> Vec<Command> {
    use ArgumentKind as K;
    use CommandAction::{Handler, Key};
    vec![
        command(
            "help",
            "Show every command and key binding",
            vec![],
            Key(KeyAction::Help),
        ),
        command(
            "search",
            "Search the whole transcript",
            vec![],
            Key(KeyAction::Search),
        ),
        command(
            "select",
            "Select an entry to copy or open",
            vec![],
            Key(KeyAction::SelectEntry),
        ),
        command(
            "thinking",
            "Show thinking in full, or collapse it",
            vec![],
            Key(KeyAction::ToggleThinking),
        ),
        command(
            "editor",
            "Edit the draft in $VISUAL or $EDITOR",
            vec![],
            Key(KeyAction::ExternalEditor),
        ),
        command(
            "theme",
            "Use another theme for this process (dark, light, none or one of yours)",
            vec![arg("name", "the theme's name", K::Text, true)],
            Handler,
        ),
        command(
            "layout",
            "Put the status line at the top or the bottom for this process",
            vec![arg("where", "top or bottom", K::Text, true)],
            Handler,
        ),
        command(
            "permissions",
            "The permission mode for this session; without one, the next",
            vec![arg("mode", "plan, ask, auto-edit or auto", K::Text, false)],
            Handler,
        ),
        command(
            "cost",
            "Show the session's usage and cost, split by model",
            vec![],
            Handler,
        ),
        command(
            "status",
            "Show the session, model and context use, permission mode, sandbox, plugins and MCP servers",
            vec![],
            Handler,
        ),
        command(
            "mcp",
            "Show the MCP servers and their state; `reconnect NAME` restarts one",
            vec![
                arg("action", "reconnect", K::Text, false),
                arg("server", "the server to reconnect", K::Text, false),
            ],
            Handler,
        ),
        command(
            "memory",
            "Show the memory Smith holds, by scope: process, session, turn, plugin call, frame",
            vec![],
            Handler,
        ),
    ]
}

fn bindings() -> Vec<Binding> {
    use KeyAction as A;
    [
        ("Ctrl+S", A::Steer),
        ("Alt+Up", A::Withdraw),
        ("Tab", A::Complete),
        ("Ctrl+G", A::ExternalEditor),
        ("Ctrl+T", A::ToggleThinking),
        ("Ctrl+F", A::ToggleFollow),
        ("F1", A::Help),
        ("Ctrl+R", A::Search),
        ("Ctrl+O", A::SelectEntry),
        ("Ctrl+P", A::Palette),
    ]
    .into_iter()
    .map(|(key, action)| bind_action(key, action))
    .chain([bind_command("Shift+Tab", "permissions")])
    .collect()
}

/// A style: `fg` and `bg` colours (or none) and modifiers by initial (`b`old, `i`talic,
/// `u`nderlined, `r`eversed, `d`im).
fn style(fg: Option<&str>, bg: Option<&str>, modifiers: &str) -> Style {
    Style {
        fg: fg.map(str::to_owned),
        bg: bg.map(str::to_owned),
        bold: modifiers.contains('b'),
        italic: modifiers.contains('i'),
        underlined: modifiers.contains('u'),
        reversed: modifiers.contains('r'),
        dim: modifiers.contains('d'),
    }
}

fn theme(name: &str, summary: &str, styles: Vec<(&str, Style)>) -> Theme {
    Theme {
        name: name.to_owned(),
        summary: summary.to_owned(),
        styles: styles.into_iter().map(|(k, s)| (k.to_owned(), s)).collect(),
    }
}

fn themes() -> Vec<Theme> {
    let fg = |c: &str, m: &str| style(Some(c), None, m);
    let dark = theme(
        "dark",
        "Colours for a dark terminal background (the default)",
        vec![
            ("user", fg("white", "b")),
            ("user-label", fg("cyan", "b")),
            ("thinking", fg("dark-gray", "i")),
            ("heading", fg("cyan", "b")),
            ("code-inline", fg("yellow", "")),
            ("code-block", fg("gray", "")),
            ("code-label", fg("dark-gray", "i")),
            ("quote", fg("dark-gray", "")),
            ("link", fg("blue", "u")),
            ("tool", fg("magenta", "")),
            ("tool-output", fg("dark-gray", "")),
            ("tool-error", fg("red", "")),
            ("diff-added", fg("green", "")),
            ("diff-removed", fg("red", "")),
            ("notice", fg("blue", "")),
            ("warning", fg("yellow", "")),
            ("error", fg("red", "b")),
            ("status", style(Some("black"), Some("gray"), "")),
            ("status-alert", style(Some("black"), Some("yellow"), "b")),
            ("dim", fg("dark-gray", "")),
            ("selected", style(None, Some("236"), "")),
            ("search-match", style(Some("black"), Some("yellow"), "")),
        ],
    );
    // On a white background the ANSI greys (7 and 8) fade: the quiet text uses the 256-colour
    // greys 238-242 (contrast 5:1 or more on white).
    let light = theme(
        "light",
        "Colours for a light terminal background",
        vec![
            ("user", fg("black", "b")),
            ("user-label", fg("blue", "b")),
            ("thinking", fg("242", "i")),
            ("heading", fg("blue", "b")),
            ("code-inline", fg("magenta", "")),
            ("code-block", fg("238", "")),
            ("code-label", fg("242", "i")),
            ("quote", fg("240", "")),
            ("link", fg("blue", "u")),
            ("tool", fg("magenta", "")),
            ("tool-output", fg("240", "")),
            ("tool-error", fg("red", "")),
            ("diff-added", fg("green", "")),
            ("diff-removed", fg("red", "")),
            ("notice", fg("blue", "")),
            ("warning", fg("#8a6d00", "b")),
            ("error", fg("red", "b")),
            ("status", style(Some("white"), Some("dark-gray"), "")),
            (
                "status-alert",
                style(Some("black"), Some("light-yellow"), "b"),
            ),
            ("dim", fg("242", "")),
            ("selected", style(None, Some("254"), "")),
            (
                "search-match",
                style(Some("black"), Some("light-yellow"), ""),
            ),
        ],
    );
    let none = theme(
        "none",
        "No colour at all: emphasis by bold, italic, underline and reverse video only",
        vec![
            ("user", style(None, None, "b")),
            ("user-label", style(None, None, "b")),
            ("thinking", style(None, None, "i")),
            ("heading", style(None, None, "b")),
            ("code-label", style(None, None, "i")),
            ("link", style(None, None, "u")),
            ("tool", style(None, None, "b")),
            ("tool-error", style(None, None, "b")),
            ("warning", style(None, None, "b")),
            ("error", style(None, None, "b")),
            ("status", style(None, None, "r")),
            ("status-alert", style(None, None, "rb")),
            ("selected", style(None, None, "b")),
            ("search-match", style(None, None, "r")),
        ],
    );
    vec![dark, light, none]
}

impl Plugin for Product {
    fn commands() -> Vec<Command> {
        commands()
    }

    fn bindings() -> Vec<Binding> {
        bindings()
    }

    fn themes() -> Vec<Theme> {
        themes()
    }

    fn layout() -> Option<Layout> {
        Some(Layout::StatusBottom)
    }

    fn run(name: &str, arguments: &Arguments) -> Result<Vec<Intent>, String> {
        match name {
            "theme" => {
                let theme = arguments.text("name").ok_or("name a theme: /theme dark")?;
                Ok(vec![Intent::SetTheme(theme.to_owned())])
            }
            "layout" => match arguments.text("where").map(str::trim) {
                Some("top") => Ok(vec![Intent::SetLayout(Layout::StatusTop)]),
                Some("bottom") => Ok(vec![Intent::SetLayout(Layout::StatusBottom)]),
                other => Err(format!(
                    "`{}` is not a layout; say top or bottom (where the status line goes)",
                    other.unwrap_or_default()
                )),
            },
            // The frontend carries the setting out for the session; `next` cycles.
            "permissions" => match arguments.text("mode").map(str::trim) {
                None | Some("") => Ok(vec![Intent::SetSetting((
                    "permissions.mode".to_owned(),
                    "next".to_owned(),
                ))]),
                Some(mode @ ("plan" | "ask" | "auto-edit" | "auto")) => {
                    Ok(vec![Intent::SetSetting((
                        "permissions.mode".to_owned(),
                        mode.to_owned(),
                    ))])
                }
                Some(other) => Err(format!(
                    "`{other}` is not a permission mode; say plan, ask, auto-edit or auto (`smith docs get permissions`)"
                )),
            },
            "cost" => report::cost(),
            "status" => Ok(report::status()),
            "memory" => Ok(report::memory()),
            "mcp" => match (
                arguments.text("action").map(str::trim),
                arguments.text("server").map(str::trim),
            ) {
                (None | Some(""), _) => Ok(report::mcp()),
                (Some("reconnect"), Some(name)) if !name.is_empty() => report::reconnect(name),
                (Some("reconnect"), _) => Err(
                    "name the server to reconnect: /mcp reconnect NAME (/mcp lists them)"
                        .to_owned(),
                ),
                (Some(other), _) => Err(format!(
                    "`{other}` is not something /mcp does; say /mcp to list the servers, or /mcp reconnect NAME"
                )),
            },
            other => Err(format!(
                "the product plugin has no command `{other}` to run"
            )),
        }
    }
}

smith_plugin_sdk::register_plugin!(Product);
