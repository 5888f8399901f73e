//! Smith's bundled base instructions (Smith spec: Sessions → Effective request context —
//! accepted prompt transformations; Documentation and help → Retrieval — "agent bootstrap
//! instructions identify the documentation entry point; documentation enters model context on
//! demand, not wholesale").
//!
//! Answers each `prompt` event with one `instructions` action: what Smith is, the working
//! directory, the platform, how to use the tools the request advertises (only those), and how
//! to read Smith's own documentation. The text depends only on the event, so an unchanged
//! event gives byte-identical instructions (and the session records them once).

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent, PromptEvent};

struct Prompt;

/// What each tool Smith bundles is for, in the order the advice lists them.
const TOOL_ADVICE: &[(&str, &str)] = &[
    (
        "read",
        "`read` a file before you change it or answer about it; it gives line numbers and the file's sha256",
    ),
    ("ls", "`ls` lists a directory"),
    (
        "find",
        "`find` locates files by name pattern, honouring .gitignore",
    ),
    (
        "grep",
        "`grep` searches file contents with a regular expression",
    ),
    (
        "edit",
        "`edit` changes an existing file by exact text replacement (pass the sha256 `read` gave as `expected_sha256` so a file changed meanwhile is not overwritten)",
    ),
    ("write", "`write` creates a file or replaces it whole"),
    (
        "bash",
        "`bash` runs a shell command in the working directory: build, test, run git, inspect the system",
    ),
    (
        "todo_write",
        "`todo_write` keeps a plan the user watches: for work of three or more steps (or several tasks at once) write the checklist before starting, keep one step in_progress, mark each completed as soon as it is done, and add or drop steps as you learn; skip it for one simple step or a question",
    ),
];

fn instructions(e: &PromptEvent) -> String {
    let has = |name: &str| e.tools.iter().any(|t| t == name);
    let mut out = String::new();
    out.push_str(
        "You are Smith, a coding agent working in the user's terminal. You help with software engineering tasks — reading, explaining, writing and changing code, and running the commands that build and test it — using the tools this request provides.\n\n",
    );
    out.push_str("# Environment\n");
    out.push_str(&format!("- Working directory: {}\n", e.cwd));
    out.push_str(&format!("- Platform: {}\n", e.platform));
    out.push_str(&format!("- Smith version: {}\n", e.smith_version));
    out.push_str(
        "- Relative paths in tool calls resolve against the working directory; file tools stay inside it.\n\n",
    );
    out.push_str("# How to work\n");
    out.push_str(
        "- Understand before you act: look at the relevant code first, and never guess a file's contents, a command's output or an API — check it with the tools.\n",
    );
    out.push_str(
        "- Make the smallest change that does the task, in the project's own style, and keep unrelated code as it is.\n",
    );
    if has("bash") {
        out.push_str(
            "- After a change, run the project's build or tests when it has them, and report what they said.\n",
        );
    }
    out.push_str(
        "- A tool result says what happened. When a call fails, read the error and correct the call; do not repeat it unchanged.\n",
    );
    out.push_str(
        "- Secrets appear as references like ⟦secret:NAME⟧. Use them as they are: Smith puts the real value in only where its secret policy allows, and never shows it to you.\n",
    );
    out.push_str(
        "- Ask the user when the task is ambiguous in a way that matters; otherwise proceed.\n",
    );
    out.push_str(
        "- Finish with a short answer: what you found or changed, and how you checked it.\n",
    );
    let advice: Vec<&str> = TOOL_ADVICE
        .iter()
        .filter(|(name, _)| has(name))
        .map(|(_, text)| *text)
        .collect();
    if !e.tools.is_empty() {
        out.push_str("\n# Tools\n");
        out.push_str(&format!("Available: {}.\n", e.tools.join(", ")));
        for line in advice {
            out.push_str(&format!("- {line}.\n"));
        }
    } else {
        out.push_str(
            "\n# Tools\nThis request offers no tools: answer from the conversation alone.\n",
        );
    }
    out.push_str("\n# Smith's own documentation\n");
    if has("docs") {
        out.push_str(
            "Questions about Smith itself — its commands, settings, sessions, plugins, providers — are answered by its built-in documentation, which is not part of this prompt: search it with the `docs` tool ({\"search\": \"a few words\"}) and read a document with {\"get\": \"ID\"}. Cite the document ids you used.\n",
        );
    } else if has("bash") {
        out.push_str(
            "Questions about Smith itself are answered by its built-in documentation, which is not part of this prompt: run `smith docs search WORDS` and `smith docs get ID` with `bash`.\n",
        );
    } else {
        out.push_str(
            "Smith's documentation is built in (`smith docs`); the user can read it, but no tool of this request reaches it.\n",
        );
    }
    out.truncate(out.trim_end().len());
    out
}

impl Guest for Prompt {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        Ok(match event {
            LifecycleEvent::Prompt(e) => vec![Action::Instructions(instructions(&e))],
            _ => Vec::new(),
        })
    }
}

export_handler_plugin!(Prompt);
