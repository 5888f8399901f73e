//! The declarations of the product layer's command methods (`commands.list`, `commands.run`;
//! the commands guide): one static pair for every command any plugin registers, so the
//! protocol — and its drift check — does not change when plugins do.

use serde_json::json;

use super::code::*;
use super::{Method, p, string};

/// The `commands.*` methods.
pub(super) fn methods() -> Vec<Method> {
    vec![
        Method {
            name: "commands.list",
            summary: "The commands of the product layer — Smith's own and those the enabled product plugins register (the command reference lists the bundled ones) — with their arguments and what each does; and what composing them reported (a name two plugins claim: the first keeps it).",
            params: vec![],
            result: "`commands`: each with `name`, `usage` (`/model MODEL [THINKING]`), `summary`, `arguments` (`name`, `summary`, `kind` — text, integer, flag, session, entry, model, plugin, thinking — and `required`), `action` (`{\"verb\":…}`, `{\"picker\":…}`, `{\"key\":…}`, `{\"handler\":true}`, or for a prompt command `{\"prompt\":{\"origin\": project|user|bundled, \"path\", \"model\"}}`), `plugin` (null: Smith's own or a prompt command); `notices` (names two holders claim — the first keeps it — and command files skipped, with file, line and why).",
            result_schema: json!({"type": "object", "required": ["commands", "notices"], "properties": {"commands": {"type": "array", "items": {"type": "object", "required": ["name", "usage", "summary", "arguments", "action", "plugin"], "properties": {"name": {"type": "string"}, "usage": {"type": "string"}, "summary": {"type": "string"}, "arguments": {"type": "array"}, "action": {"type": "object"}, "plugin": {"type": ["string", "null"]}}}}, "notices": {"type": "array", "items": {"type": "string"}}}}),
            errors: &[CONFIG],
        },
        Method {
            name: "commands.run",
            summary: "Run a command with its arguments by name. A command whose action is a runtime verb is carried out by the method that verb maps to, with that method's result and errors (`new-session` → `sessions.create`, `attach` → `sessions.open`, `fork` → `sessions.fork`, `select` → `sessions.select`, `compact` → `session.compact`, `undo`/`redo`/`restore` → `history.*`); a picker answers with what it would list (`sessions.list` for this directory, `models.list`, `plugins.list`, `commands.list`); a plugin's handler command answers with its intents for the client to render or carry out (each `run` intent names the method and params that do it); a prompt command (a Markdown file of the project's `.smith/commands/` or the user's `commands/`, or Smith's bundled `init` and `review`) is submitted to `session` as `session.submit` with its text, `$ARGUMENTS` and `$1`…`$9` put in from the `arguments` argument, on the model its front matter names else `model` — the receipt answers, the work's events follow. Verbs with no method here (`set-model`, `replay`, `plugin-enable`, `plugin-disable`) and terminal UI key actions are refused with `refused`, saying what does it instead.",
            params: vec![
                p(
                    "command",
                    true,
                    string(),
                    "The command's name, without the `/`.",
                ),
                p(
                    "arguments",
                    false,
                    json!({"type": "object"}),
                    "Its arguments by name: strings for text, session, entry, model, plugin and thinking kinds, integers for `integer`, booleans for flags.",
                ),
                p(
                    "session",
                    false,
                    string(),
                    "The session a session verb acts on (compact, undo, redo, restore, fork, select), or a prompt command is submitted to.",
                ),
                p(
                    "model",
                    false,
                    string(),
                    "For `compact`: the model that writes the summary (PROVIDER/MODEL, alias or group), as `session.compact` takes it; for a prompt command whose file names no model: the model of its turn.",
                ),
                p(
                    "script",
                    false,
                    string(),
                    "For a prompt command: a provider script file its turn plays (the scripted provider only), as `session.submit` takes it.",
                ),
                p(
                    "dedup_key",
                    false,
                    string(),
                    "For a prompt command: a key that makes the submission safe to repeat, as `session.submit` takes it.",
                ),
            ],
            result: "As the mapped method's result for a verb, and `session.submit`'s receipt for a prompt command; `{\"picker\": NAME, …the listing}` for a picker; `{\"intents\": […]}` for a handler command (`notice` with `level` and `text`, `set_theme` with `name`, `set_layout` with `layout`, `set_setting` with `key` and `value` — for this process only, `run` with `verb`, `method` and `params`).",
            result_schema: json!({"type": "object"}),
            errors: &[
                NOT_FOUND,
                REFUSED,
                CONFIG,
                NOT_OPEN,
                READ_ONLY,
                BUSY,
                STATE,
                STORAGE,
                SHUTTING_DOWN,
            ],
        },
    ]
}
