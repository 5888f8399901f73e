//! An example Smith plugin: the tool `count_words` (the lines, words and bytes of a text
//! file, read through Smith's recorded file effects) and the command `/greet [NAME]`, bound to
//! Alt+G, which answers with a notice. The tutorial walks through every line.

use serde::Deserialize;
use smith_plugin_sdk::plugin::{
    Arguments, Plugin, Tool, ToolEntry, argument, bind_command, command, tool_entry,
};
use smith_plugin_sdk::product::{ArgumentKind, Binding, Command, CommandAction, Intent, Level};
use smith_plugin_sdk::serde_json::{Value, json};
use smith_plugin_sdk::{Invocation, ToolOutput, fs};

/// What `count_words` returns for a text.
#[derive(Debug, PartialEq, Eq)]
pub struct Counts {
    /// Lines (a last line without a newline counts).
    pub lines: usize,
    /// Runs of non-whitespace.
    pub words: usize,
    /// UTF-8 bytes.
    pub bytes: usize,
}

/// Count `text`'s lines, words and bytes.
pub fn count(text: &str) -> Counts {
    Counts {
        lines: text.lines().count(),
        words: text.split_whitespace().count(),
        bytes: text.len(),
    }
}

/// The tool: declared once — name, description, schema, input and handler.
struct CountWords;

/// The tool's input, as its schema describes it.
#[derive(Deserialize)]
struct CountInput {
    /// The file, relative to the working directory.
    path: String,
}

impl Tool for CountWords {
    const NAME: &'static str = "count_words";
    const DESCRIPTION: &'static str =
        "Count the lines, words and bytes of a text file in the working directory.";
    type Input = CountInput;

    fn input_schema() -> Value {
        json!({
            "type": "object",
            "properties": {"path": {"type": "string", "description": "The file to count."}},
            "required": ["path"],
            "additionalProperties": false
        })
    }

    fn call(input: CountInput, _invocation: &Invocation) -> ToolOutput {
        // Read the whole file, window by window (each read is an effect Smith records).
        let mut text = String::new();
        let mut offset = 1;
        loop {
            match fs::read_lines(&input.path, offset, 2000) {
                Ok(window) => {
                    text.push_str(&window.text);
                    if window.last_line >= window.total_lines {
                        break;
                    }
                    offset = window.last_line + 1;
                }
                Err(e) => {
                    return ToolOutput::error(format!(
                        "cannot count {}: {}",
                        input.path,
                        smith_plugin_sdk::describe(&e)
                    ));
                }
            }
        }
        let c = count(&text);
        ToolOutput::ok(format!(
            "{}: {} lines, {} words, {} bytes",
            input.path, c.lines, c.words, c.bytes
        ))
    }
}

/// The plugin: its tool, its command and the command's key.
struct Hello;

impl Plugin for Hello {
    fn tools() -> Vec<ToolEntry> {
        vec![tool_entry::<CountWords>()]
    }

    fn commands() -> Vec<Command> {
        vec![command(
            "greet",
            "Say hello (to NAME, else to the world)",
            vec![argument("name", "who to greet", ArgumentKind::Text, false)],
            CommandAction::Handler,
        )]
    }

    fn bindings() -> Vec<Binding> {
        vec![bind_command("Alt+G", "greet")]
    }

    fn run(name: &str, arguments: &Arguments) -> Result<Vec<Intent>, String> {
        match name {
            "greet" => {
                let who = arguments.text("name").unwrap_or("world");
                Ok(vec![Intent::Notice((
                    Level::Info,
                    format!("Hello, {who}!"),
                ))])
            }
            other => Err(format!("the hello plugin has no command `{other}`")),
        }
    }
}

smith_plugin_sdk::register_plugin!(Hello);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_words_and_bytes() {
        assert_eq!(
            count("one two\nthree\n"),
            Counts {
                lines: 2,
                words: 3,
                bytes: 14
            }
        );
        assert_eq!(
            count(""),
            Counts {
                lines: 0,
                words: 0,
                bytes: 0
            }
        );
    }
}
