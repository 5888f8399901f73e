//! What `smith mcp` serves, declared once: the methods and notifications with what each does,
//! the resources and resource templates, and the agent tool — the source of the generated
//! reference (`docs/reference/mcp.md`, under the drift gate) and of `resources/templates/list`
//! and the `smith_run` definition. A test sends every declared method to the server and checks
//! that none is answered "method not found".

use std::fmt::Write as _;

use serde_json::{Value, json};

/// A method or notification a client may send, and what it does here.
#[derive(Clone, Copy, Debug)]
pub struct Served {
    /// The MCP method name.
    pub method: &'static str,
    /// What it does here.
    pub summary: &'static str,
}

/// The methods served (a request gets a result or a correlated error), in reference order.
pub const METHODS: &[Served] = &[
    Served {
        method: "initialize",
        summary: "Negotiates the revision (the one asked for when served, else 2025-11-25) and returns Smith's capabilities (`tools` with `listChanged`, `resources` with `subscribe`, `logging`) and server info; reads the client's `elicitation` and `roots` capabilities.",
    },
    Served {
        method: "ping",
        summary: "Answers `{}`.",
    },
    Served {
        method: "tools/list",
        summary: "Every active tool plugin's tool with its input schema, the annotations its manifest declares and its `outputSchema` where the manifest declares one (`find`, `grep`), then `smith_run`; no pagination (one page: a `cursor` is refused, `-32602`).",
    },
    Served {
        method: "tools/call",
        summary: "Runs a tool: the arguments are checked against its schema first (a mismatch is an `isError` result), the call is recorded as a `client_call` entry of the server's session, and its effects are recorded before and after they happen; a failure is an `isError` result; an unknown or disabled tool is `-32602`. A tool with an output schema also returns `structuredContent`, checked against it (one that gives none that fits is an `isError` result saying so). Honours `_meta.progressToken`.",
    },
    Served {
        method: "resources/list",
        summary: "`smith://server/session`, then the sessions newest first, 100 a page (`nextCursor`).",
    },
    Served {
        method: "resources/templates/list",
        summary: "The templates below.",
    },
    Served {
        method: "resources/read",
        summary: "One resource: `application/json` text, or `text/plain` for a URI ending in `/text` (the lines `smith sessions get` prints); an unknown URI is `-32002`.",
    },
    Served {
        method: "resources/subscribe",
        summary: "Sends `notifications/resources/updated` for the URI each time its session grows, until unsubscribed.",
    },
    Served {
        method: "resources/unsubscribe",
        summary: "Ends a subscription.",
    },
    Served {
        method: "logging/setLevel",
        summary: "The least severe level sent as `notifications/message` (`debug` … `emergency`); another value is `-32602`.",
    },
];

/// The notifications a client may send, and what they do here.
pub const CLIENT_NOTIFICATIONS: &[Served] = &[
    Served {
        method: "notifications/initialized",
        summary: "Accepted; when the client declared `roots`, the server asks for them (`roots/list`).",
    },
    Served {
        method: "notifications/cancelled",
        summary: "Cancels the named `tools/call` cooperatively: a program is stopped with its descendants and its effect recorded as it ended (`unknown` once it had started); the call's answer may still come.",
    },
    Served {
        method: "notifications/roots/list_changed",
        summary: "The server asks for the roots again (`roots/list`).",
    },
];

/// The notifications the server sends.
pub const SERVER_NOTIFICATIONS: &[Served] = &[
    Served {
        method: "notifications/progress",
        summary: "For a `tools/call` that sent a progress token: one per step (a tool's progress message; for `smith_run`, each round, tool start, tool update and the answer), `progress` strictly increasing, the step's text as `message`.",
    },
    Served {
        method: "notifications/message",
        summary: "Log messages at or above the level set: what a tool says while it runs (`info`, the tool's name as `logger`, e.g. `running `sh -c …` in DIR`), notices and refused questions of a `smith_run` turn, refused questions and roots.",
    },
    Served {
        method: "notifications/cancelled",
        summary: "Withdraws a request the server sent (an elicitation) whose tool call ended first.",
    },
    Served {
        method: "notifications/resources/updated",
        summary: "A subscribed session grew.",
    },
    Served {
        method: "notifications/tools/list_changed",
        summary: "The directory tools run in moved (a client root taken, or left): the tool list may differ (`bash` comes and goes with trust); list again.",
    },
];

/// The requests the server sends the client, when the client declared the capability.
pub const SERVER_REQUESTS: &[Served] = &[
    Served {
        method: "elicitation/create",
        summary: "Capability `elicitation` (form): a question a tool call asks (the permission policy before a program in the `ask` mode, or in an untrusted project) as a form of one property — `confirm` (boolean), `choice` (string `enum` of the options) or `text` (string). `decline` answers a yes/no question no; `decline` of another, `cancel`, or an answer that does not fit leaves it unanswered (the program does not run). A secret is never asked this way. Without the capability the question is refused and logged.",
    },
    Served {
        method: "roots/list",
        summary: "Capability `roots`: tools run in the server's working directory when it is inside a root (or there are none); otherwise in the first root that is a trusted project (`smith trust DIR`), else back in the working directory. Each untrusted or unusable root (another scheme or host, no absolute path) is refused with a `warning` log message; each move is an `info` log message and `notifications/tools/list_changed`.",
    },
];

/// The fixed resources: URI and what it holds.
pub const RESOURCES: &[(&str, &str)] = &[(
    "smith://server/session",
    "The session this server records tool calls and effects in: `{\"session\": ID, \"uri\": \"smith://session/ID\"}` (created on first use unless `--session` named one).",
)];

/// `resources/templates/list`'s templates.
pub fn templates() -> Value {
    json!([
        {
            "uriTemplate": "smith://session/{id}",
            "name": "session",
            "title": "A Smith session: its summary and first page of entries",
            "mimeType": "application/json",
        },
        {
            "uriTemplate": "smith://session/{id}/entries/{cursor}",
            "name": "session-entries",
            "title": "A page of a session's entries after entry `cursor` (0: from the start)",
            "mimeType": "application/json",
        },
        {
            "uriTemplate": "smith://session/{id}/text",
            "name": "session-text",
            "title": "A Smith session as text: its heading and first page, one line per entry",
            "mimeType": "text/plain",
        },
        {
            "uriTemplate": "smith://session/{id}/entries/{cursor}/text",
            "name": "session-entries-text",
            "title": "A page of a session's entries after entry `cursor`, as text",
            "mimeType": "text/plain",
        },
    ])
}

/// The agent tool's definition, as `tools/list` gives it.
pub fn run_tool() -> Value {
    json!({
        "name": "smith_run",
        "title": "Run a Smith agent turn",
        "description": "Run `prompt` as one agent turn of Smith (its configured model and tools) in the server's session, and return the final answer. Progress is reported when a progress token is sent.",
        "inputSchema": {
            "type": "object",
            "properties": {"prompt": {"type": "string", "description": "What to ask the agent."}},
            "required": ["prompt"],
            "additionalProperties": false,
        },
        "annotations": {"readOnlyHint": false, "destructiveHint": true, "openWorldHint": true},
    })
}

fn list(out: &mut String, items: &[Served]) {
    for s in items {
        let _ = writeln!(out, "- `{}` — {}", s.method, s.summary);
    }
}

/// The generated reference (`docs/reference/mcp.md`).
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# The smith mcp methods, resources and tools\n\nGenerated from `frontends/mcp/src/decl.rs`. The guide is [MCP](../mcp.md).\n\n",
    );
    let _ = writeln!(
        out,
        "Revisions served: {} (negotiated by `initialize`). Every other method — `server/discover` of the stateless 2026-07-28 revision, `prompts/*`, `completion/complete` — is answered `-32601` with its name in `data.method`.\n",
        smith_render_mcp::REVISIONS
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push_str("## Methods\n\n");
    list(&mut out, METHODS);
    out.push_str("\n## Notifications from the client\n\n");
    list(&mut out, CLIENT_NOTIFICATIONS);
    out.push_str("\n## Notifications from the server\n\n");
    list(&mut out, SERVER_NOTIFICATIONS);
    out.push_str("\n## Requests from the server\n\n");
    list(&mut out, SERVER_REQUESTS);
    out.push_str("\n## Resources\n\n| URI | What |\n| --- | --- |\n");
    for (uri, what) in RESOURCES {
        let _ = writeln!(out, "| `{uri}` | {what} |");
    }
    for t in templates().as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "| `{}` (template) | {} |",
            t["uriTemplate"].as_str().unwrap_or_default(),
            t["title"].as_str().unwrap_or_default()
        );
    }
    out.push_str("\n## The agent tool\n\nBeside the tool plugins' tools (see the [tools reference](tools.md)), `tools/list` offers:\n\n```json\n");
    out.push_str(&serde_json::to_string_pretty(&run_tool()).unwrap_or_default());
    out.push_str("\n```\n\n## Errors\n\n| code | when |\n| --- | --- |\n| `-32700` | a line that is not JSON |\n| `-32600` | not a request object, a line over 16 MiB (skipped; answered with its `id` when its first 64 KiB name one), a null `id`, a notification sent with an `id`, or a `tools/call` id a call in flight holds |\n| `-32601` | a method not served (named in `data.method`) |\n| `-32602` | invalid params (`data.field`), or a tool that does not exist here (`data.tool`) |\n| `-32002` | a resource that does not exist (`data.uri`) |\n\nA tool's own failure is never a protocol error: it is a result with `isError: true`. A request sent without an `id` is a notification: never answered, and a `tools/call` so sent is not run (a `warning` log message says so). Blank lines are skipped. A response the server did not ask for is dropped.\n");
    out
}
