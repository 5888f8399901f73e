//! What `smith acp` serves, declared once: the methods and notifications with what each does
//! here — the source of the generated reference (`docs/reference/acp.md`, under the drift
//! gate). A test sends every declared method to the server and checks that none is answered
//! "method not found".

use std::fmt::Write as _;

/// A method or notification, and what it does here.
#[derive(Clone, Copy, Debug)]
pub struct Served {
    /// The ACP method name.
    pub method: &'static str,
    /// What it does here.
    pub summary: &'static str,
}

/// The methods served (a request gets a result or a correlated error), in reference order.
pub const METHODS: &[Served] = &[
    Served {
        method: "initialize",
        summary: "Answers protocol version 1 (whatever the client asked: a client that cannot speak it disconnects), Smith's capabilities — `loadSession`, prompt content (images, embedded resources; text and resource links always), `sessionCapabilities` `list`, `resume` and `close` — a terminal authentication method for each provider of the starting model whose required key is missing (none when every key is stored or in its environment variable), and `agentInfo`. Reads the client's capabilities: with `fs.readTextFile` the file tools read the editor's buffers, with `fs.writeTextFile` what they write reaches it (as well as the disk). Sent once, first.",
    },
    Served {
        method: "authenticate",
        summary: "For a terminal method `initialize` offered (`smith-auth-set-PROVIDER`: the client runs `smith auth set PROVIDER`, the key typed with echo off): answers `{}` once the key is stored, else `-32602` saying how to store it. Another method id is `-32602`.",
    },
    Served {
        method: "session/new",
        summary: "Creates a Smith session whose tools run in `cwd` (an absolute, existing directory; a trusted project's settings and rules apply there). Answers its id, the modes (the permission modes: `plan`, `ask`, `auto-edit`, `auto`) and the config options (`model`, `thought_level`). MCP servers the client passes are not connected yet: each is named in a warning on stderr (add one with `smith mcp add` to have it everywhere).",
    },
    Served {
        method: "session/load",
        summary: "Opens a recorded session as its writer and streams its selected branch back as `session/update` notifications — the person's messages, the answers, thinking, tool calls with their results, plans — through the replay's mapping of recorded entries, then answers. A turn a dead process cut off is said after the history (what it had done) and `/continue` is announced: it continues the turn from its records, no recorded effect run again; any other prompt settles it as aborted. A session another process writes is refused (`-32600`); one that does not exist is `-32002`.",
    },
    Served {
        method: "session/resume",
        summary: "Opens a recorded session as its writer without streaming its history.",
    },
    Served {
        method: "session/list",
        summary: "Sessions newest first, 50 a page (`nextCursor`), each with its working directory, title (its first prompt) and last write; `cwd` keeps those started there.",
    },
    Served {
        method: "session/close",
        summary: "Cancels the session's prompt in flight, waits for it to end and closes the session (a session with nothing in it is removed).",
    },
    Served {
        method: "session/prompt",
        summary: "Runs a turn (or, for text starting with `/NAME` naming an announced command, that command: a prompt command's text becomes the message, `/compact`, `/undo`, `/redo` act on the session; another command is `-32602`): text, resource links (a `file://` link is named to the model by its path, for the file tools), embedded text resources (given to the model inline with their URI) and images. Streams `session/update` notifications while it runs and answers with the stop reason when the turn settles: `end_turn`, `max_tokens`, `max_turn_requests` (the cost budget or round limit stopped it), `cancelled`. A turn that failed is an error (`-32603`) whose message says why. A second prompt while one runs is `-32600`.",
    },
    Served {
        method: "session/set_mode",
        summary: "Sets the session's permission mode (recorded in the session; it holds when the session is opened again) and sends `current_mode_update`. Refused (`-32600`) while a prompt runs.",
    },
    Served {
        method: "session/set_config_option",
        summary: "`model`: a model, alias or group of the catalog, used from the next prompt (one that does not resolve, or that no enabled plugin serves, is `-32602`); `thought_level`: `off` … `max`, or `default` (a level the catalog says the model does not take is `-32602`). Answers every config option as it now stands.",
    },
];

/// Notifications a client sends.
pub const CLIENT_NOTIFICATIONS: &[Served] = &[Served {
    method: "session/cancel",
    summary: "Cancels the session's running prompt: its questions are withdrawn, the turn ends at its next safe point with its effects recorded as they ended, and the prompt is answered `cancelled`.",
}];

/// Notifications the agent sends.
pub const AGENT_NOTIFICATIONS: &[Served] = &[Served {
    method: "session/update",
    summary: "What a turn (or a loaded session's history) shows, by the renderer's rules (`smith-render-acp`): `agent_message_chunk`, `agent_thought_chunk`, `user_message_chunk` (history only), `tool_call` (kind, title, location, the diff of an edit or a write) and `tool_call_update` (`pending` while it awaits approval, `in_progress` once allowed, its output, `completed` or `failed`), `plan`, `usage_update` (context window and cost in USD), `current_mode_update`, and — once a session is open — `available_commands_update` (the prompt commands, `compact`, `undo`, `redo`). While the client is not reading, message pieces wait and arrive whole with the message's end, and a running tool's partial output is skipped; nothing else is dropped.",
}];

/// Requests the agent sends.
pub const AGENT_REQUESTS: &[Served] = &[
    Served {
        method: "fs/read_text_file",
        summary: "When the client offers it: what `read` and `edit` read, by absolute path inside the session's directory (a path outside it is refused before the client is asked) — the editor's buffer, unsaved changes included.",
    },
    Served {
        method: "fs/write_text_file",
        summary: "When the client offers it: the new content of a file `write` or `edit` changed, sent after the disk has it (the history's snapshots read the disk).",
    },
    Served {
        method: "session/request_permission",
        summary: "A question the permission policy (or a tool) asks, for the running tool call: options `Deny` (`reject_once`), `Allow once` (`allow_once`) and, where the policy can keep the choice, `Allow … for the rest of this session` / `… always in this project` (`allow_always`); or yes/no. The selected option answers it; `cancelled` or an error refuses it and the call is denied. A question for text is refused: ACP v1 has no way to ask it.",
    },
];

fn list(out: &mut String, items: &[Served]) {
    out.push_str("| method | what it does |\n| --- | --- |\n");
    for s in items {
        let _ = writeln!(out, "| `{}` | {} |", s.method, s.summary);
    }
}

/// The method reference, `docs/reference/acp.md`.
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# The smith acp methods\n\nGenerated from `frontends/acp/src/decl.rs`. The guide is [Editors](../editors.md).\n\n`smith acp` speaks the Agent Client Protocol, version 1, over stdin and stdout: one JSON-RPC 2.0 message per line.\n\n## Methods\n\n",
    );
    list(&mut out, METHODS);
    out.push_str("\n## Notifications from the client\n\n");
    list(&mut out, CLIENT_NOTIFICATIONS);
    out.push_str("\n## Notifications from the agent\n\n");
    list(&mut out, AGENT_NOTIFICATIONS);
    out.push_str("\n## Requests from the agent\n\n");
    list(&mut out, AGENT_REQUESTS);
    out.push_str("\n## Errors\n\n| code | when |\n| --- | --- |\n| `-32700` | a line that is not JSON |\n| `-32600` | not a request object, a line over 16 MiB (skipped; answered with its `id` when its first 64 KiB name one), a request before `initialize`, a second `initialize`, a second prompt while one runs, a mode change while one runs |\n| `-32601` | a method not served (named in `data.method`) |\n| `-32602` | invalid params (`data.field`): a malformed content block, a relative `cwd`, an unknown mode or option value |\n| `-32002` | a session that does not exist or is not open here (`data.sessionId`) |\n| `-32603` | a turn that failed, a session that cannot be written |\n\nA response the agent did not ask for, or to a request no longer pending, is dropped with a line on stderr. Blank lines are skipped.\n");
    out
}
