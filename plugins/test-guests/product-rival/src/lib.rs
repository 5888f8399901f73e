//! A product plugin whose contributions clash with the bundled one's and include malformed
//! ones, for the tests of how the product layer is composed.

use smith_plugin_sdk::plugin::{Arguments, Plugin, argument, bind_action, bind_command, command};
use smith_plugin_sdk::product::{
    ArgumentKind, Binding, Command, CommandAction, Intent, KeyAction, Level, Style, Theme, Verb,
    VerbKind,
};

struct Rival;

fn style(fg: &str, bg: Option<&str>) -> Style {
    Style {
        fg: Some(fg.to_owned()),
        bg: bg.map(str::to_owned),
        bold: true,
        italic: false,
        underlined: false,
        reversed: false,
        dim: false,
    }
}

impl Plugin for Rival {
    fn commands() -> Vec<Command> {
        vec![
            // Clashes with the bundled product plugin's `/compact`: not registered.
            command("compact", "A rival compact", vec![], CommandAction::Handler),
            // A verb whose arguments do not fit it: not registered.
            command(
                "bad-model",
                "Set no model",
                vec![],
                CommandAction::Verb(VerbKind::SetModel),
            ),
            // A name that is not one: not registered.
            command("Bad Name", "Spaces", vec![], CommandAction::Handler),
            command(
                "rival",
                "Say the rival is here, and ask for an undo",
                vec![argument("word", "what to say", ArgumentKind::Text, false)],
                CommandAction::Handler,
            ),
        ]
    }

    fn bindings() -> Vec<Binding> {
        vec![
            // The bundled plugin binds Ctrl+S to steer first: it keeps it.
            bind_command("Ctrl+S", "rival"),
            // Built into the terminal UI: not taken.
            bind_action("Enter", KeyAction::Help),
            // Not a key: skipped.
            bind_command("Hyper+Q", "rival"),
            // A command nobody registers: skipped.
            bind_command("Ctrl+B", "nobody"),
            bind_command("Ctrl+Y", "rival"),
        ]
    }

    fn themes() -> Vec<Theme> {
        vec![
            Theme {
                name: "dark".into(),
                summary: "A rival dark".into(),
                styles: vec![("status".into(), style("red", None))],
            },
            Theme {
                name: "broken".into(),
                summary: "A theme key that is none".into(),
                styles: vec![("statusbar".into(), style("red", None))],
            },
            Theme {
                name: "rival".into(),
                summary: "Red on black status".into(),
                styles: vec![("status".into(), style("red", Some("black")))],
            },
        ]
    }

    fn run(name: &str, arguments: &Arguments) -> Result<Vec<Intent>, String> {
        match name {
            "rival" => Ok(vec![
                Intent::Notice((
                    Level::Info,
                    format!("rival says {}", arguments.text("word").unwrap_or("hi")),
                )),
                Intent::Run(Verb::Undo(false)),
            ]),
            other => Err(format!("rival has no command `{other}`")),
        }
    }
}

smith_plugin_sdk::register_plugin!(Rival);
