//! The typed plugin API: a [`Tool`] is declared once — its name, description, input schema,
//! input type and handler in one `impl` — and a [`Plugin`] lists its tools and whatever it
//! contributes to the product layer (commands, key bindings, themes, a layout), every method
//! defaulting to nothing. [`register_plugin!`](crate::register_plugin) exports the plugin as a
//! `product-plugin` world component: the host's `definitions`, `call`, `contributions` and
//! `run` are generated from the trait, so no tool name is matched by hand.
//!
//! ```ignore
//! use smith_plugin_sdk::plugin::{Plugin, Tool, ToolEntry, tool_entry};
//! use smith_plugin_sdk::{Invocation, ToolOutput, serde_json::json};
//!
//! struct Shout;
//!
//! #[derive(serde::Deserialize)]
//! struct ShoutInput { text: String }
//!
//! impl Tool for Shout {
//!     const NAME: &'static str = "shout";
//!     const DESCRIPTION: &'static str = "Upper-case a text.";
//!     type Input = ShoutInput;
//!     fn input_schema() -> smith_plugin_sdk::serde_json::Value {
//!         json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
//!     }
//!     fn call(input: ShoutInput, _: &Invocation) -> ToolOutput {
//!         ToolOutput::ok(input.text.to_uppercase())
//!     }
//! }
//!
//! struct Loud;
//!
//! impl Plugin for Loud {
//!     fn tools() -> Vec<ToolEntry> { vec![tool_entry::<Shout>()] }
//! }
//!
//! smith_plugin_sdk::register_plugin!(Loud);
//! ```

use crate::product::{
    Argument, ArgumentKind, ArgumentValue, Binding, BindingTarget, Command, CommandAction, Intent,
    KeyAction, Layout, Theme,
};
use crate::{Invocation, ToolDefinition, ToolOutput};

/// A tool, declared once.
pub trait Tool {
    /// Its name, as the model calls it (letters, digits, `_`, `-`); the manifest lists it
    /// with a `tool "NAME"` node, where its grants and hints are reviewed.
    const NAME: &'static str;
    /// What it does and when to use it, for the model.
    const DESCRIPTION: &'static str;
    /// Its input, deserialized from the model's arguments (which the host has already checked
    /// against [`Tool::input_schema`]).
    type Input: serde::de::DeserializeOwned;
    /// The JSON Schema of its input.
    fn input_schema() -> serde_json::Value;
    /// Run it.
    fn call(input: Self::Input, invocation: &Invocation) -> ToolOutput;
}

/// A tool as a plugin registers it: its definition and its typed handler.
#[derive(Clone)]
pub struct ToolEntry {
    /// What the model sees.
    pub definition: ToolDefinition,
    /// Parse the JSON arguments and run the tool.
    pub call: fn(&str, &Invocation) -> ToolOutput,
}

fn call_typed<T: Tool>(arguments: &str, invocation: &Invocation) -> ToolOutput {
    match crate::arguments::<T::Input>(arguments) {
        Ok(input) => T::call(input, invocation),
        Err(refusal) => refusal,
    }
}

/// The registration of tool `T`.
pub fn tool_entry<T: Tool>() -> ToolEntry {
    ToolEntry {
        definition: ToolDefinition {
            name: T::NAME.to_owned(),
            description: T::DESCRIPTION.to_owned(),
            input_schema: T::input_schema().to_string(),
        },
        call: call_typed::<T>,
    }
}

/// A command's arguments by name, parsed by the host as their kinds say.
#[derive(Clone, Debug, Default)]
pub struct Arguments(pub Vec<(String, ArgumentValue)>);

impl Arguments {
    /// The text (or session, entry, model, plugin, thinking) argument `name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0.iter().find_map(|(n, v)| match v {
            ArgumentValue::Text(t) if n == name => Some(t.as_str()),
            _ => None,
        })
    }

    /// The integer argument `name`, if given.
    pub fn integer(&self, name: &str) -> Option<i64> {
        self.0.iter().find_map(|(n, v)| match v {
            ArgumentValue::Integer(i) if n == name => Some(*i),
            _ => None,
        })
    }

    /// Whether flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.0
            .iter()
            .any(|(n, v)| n == name && matches!(v, ArgumentValue::Flag(true)))
    }
}

/// A plugin: what it contributes. Every method defaults to contributing nothing.
pub trait Plugin {
    /// Its tools, each registered with [`tool_entry`].
    fn tools() -> Vec<ToolEntry> {
        Vec::new()
    }
    /// Its commands (the palette's `/NAME`, JSON-RPC `commands.run`).
    fn commands() -> Vec<Command> {
        Vec::new()
    }
    /// Its key bindings.
    fn bindings() -> Vec<Binding> {
        Vec::new()
    }
    /// Its themes.
    fn themes() -> Vec<Theme> {
        Vec::new()
    }
    /// The layout it chooses, if any.
    fn layout() -> Option<Layout> {
        None
    }
    /// Run `command`, one of its [`CommandAction::Handler`] commands: the intents to carry
    /// out, or why it failed (shown to the user).
    ///
    /// # Errors
    /// A sentence saying what went wrong and what to do.
    fn run(command: &str, arguments: &Arguments) -> Result<Vec<Intent>, String> {
        let _ = arguments;
        Err(format!("this plugin has no command `{command}` to run"))
    }
}

/// A command: its name, one-line summary, arguments and action.
pub fn command(
    name: &str,
    summary: &str,
    arguments: Vec<Argument>,
    action: CommandAction,
) -> Command {
    Command {
        name: name.to_owned(),
        summary: summary.to_owned(),
        arguments,
        action,
    }
}

/// A command argument.
pub fn argument(name: &str, summary: &str, kind: ArgumentKind, required: bool) -> Argument {
    Argument {
        name: name.to_owned(),
        summary: summary.to_owned(),
        kind,
        required,
    }
}

/// A key (`Ctrl+Y`) bound to a key-table action.
pub fn bind_action(key: &str, action: KeyAction) -> Binding {
    Binding {
        key: key.to_owned(),
        target: BindingTarget::Key(action),
    }
}

/// A key (`Ctrl+Y`) bound to a command, run without arguments.
pub fn bind_command(key: &str, command: &str) -> Binding {
    Binding {
        key: key.to_owned(),
        target: BindingTarget::Command(command.to_owned()),
    }
}

/// Dispatch `name` to the tool of `tools` that has it.
#[doc(hidden)]
pub fn dispatch(
    tools: &[ToolEntry],
    name: &str,
    arguments: &str,
    invocation: &Invocation,
) -> ToolOutput {
    match tools.iter().find(|t| t.definition.name == name) {
        Some(t) => (t.call)(arguments, invocation),
        None => ToolOutput::error(format!("this plugin has no tool `{name}`")),
    }
}

/// Export `$plugin` (a type implementing [`Plugin`]) as a `product-plugin` world component.
#[macro_export]
macro_rules! register_plugin {
    ($plugin:ty) => {
        #[doc(hidden)]
        struct __SmithPluginExport;

        impl $crate::product::Guest for __SmithPluginExport {
            fn definitions() -> ::std::vec::Vec<$crate::ToolDefinition> {
                <$plugin as $crate::plugin::Plugin>::tools()
                    .into_iter()
                    .map(|t| t.definition)
                    .collect()
            }

            fn call(
                name: ::std::string::String,
                arguments: ::std::string::String,
                invocation: $crate::Invocation,
            ) -> $crate::ToolOutput {
                $crate::plugin::dispatch(
                    &<$plugin as $crate::plugin::Plugin>::tools(),
                    &name,
                    &arguments,
                    &invocation,
                )
            }

            fn contributions() -> $crate::product::Contributions {
                $crate::product::Contributions {
                    commands: <$plugin as $crate::plugin::Plugin>::commands(),
                    bindings: <$plugin as $crate::plugin::Plugin>::bindings(),
                    themes: <$plugin as $crate::plugin::Plugin>::themes(),
                    layout: <$plugin as $crate::plugin::Plugin>::layout(),
                }
            }

            fn run(
                name: ::std::string::String,
                arguments: ::std::vec::Vec<(::std::string::String, $crate::product::ArgumentValue)>,
            ) -> ::std::result::Result<
                ::std::vec::Vec<$crate::product::Intent>,
                ::std::string::String,
            > {
                <$plugin as $crate::plugin::Plugin>::run(
                    &name,
                    &$crate::plugin::Arguments(arguments),
                )
            }
        }

        $crate::export_product_plugin!(__SmithPluginExport);
    };
}
