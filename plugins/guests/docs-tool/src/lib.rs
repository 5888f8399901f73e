//! Smith's bundled `docs` tool (Smith spec: Documentation and help → Retrieval — readers search
//! and retrieve selected documents or ranges without dumping the corpus, with stable ids,
//! deterministic order, bounded output and explicit continuation).
//!
//! One tool, two forms: `{"search": "words"}` lists the best sections (id, title, section,
//! line, excerpt); `{"get": "ID", "offset": N, "limit": N}` reads a window of a document's
//! lines and says how to continue.

use serde::Deserialize;
use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, arguments, docs, export_tool_plugin, tool,
};

struct Docs;

/// Lines a `get` shows when the call gives no limit.
const DEFAULT_LINES: u32 = 200;

/// Hits a search shows.
const HITS: u32 = 8;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    search: Option<String>,
    get: Option<String>,
    offset: Option<u32>,
    limit: Option<u32>,
}

const SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "search": {"type": "string", "description": "A few words to search Smith's documentation for."},
    "get": {"type": "string", "description": "A document id (from a search) to read."},
    "offset": {"type": "integer", "minimum": 1, "description": "With get: the first line to read (default 1)."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 400, "description": "With get: how many lines (default 200)."}
  },
  "additionalProperties": false
}"#;

fn search(query: &str) -> ToolOutput {
    match docs::search(query, HITS) {
        Ok(hits) if hits.is_empty() => ToolOutput::ok(format!(
            "no section of Smith's documentation matches `{query}`; try other words"
        )),
        Ok(hits) => {
            let mut out = String::new();
            for h in &hits {
                out.push_str(&format!(
                    "{} — {} › {} (line {})\n    {}\n",
                    h.id,
                    h.title,
                    h.section,
                    h.line,
                    h.snippet.replace('\n', " ")
                ));
            }
            out.push_str("\nRead one with {\"get\": \"ID\", \"offset\": LINE}.");
            ToolOutput::ok(out)
        }
        Err(e) => ToolOutput::error(e),
    }
}

fn get(id: &str, offset: u32, limit: u32) -> ToolOutput {
    match docs::get(id, offset, limit) {
        Ok(page) => {
            let shown = page.text.lines().count() as u32;
            let last = page.offset + shown.saturating_sub(1);
            let mut out = format!(
                "{} ({}) — lines {}–{} of {}\n\n{}",
                page.title, page.id, page.offset, last, page.total, page.text
            );
            if last < page.total {
                out.push_str(&format!(
                    "\n\n(more: {{\"get\": \"{}\", \"offset\": {}}})",
                    page.id,
                    last + 1
                ));
            }
            ToolOutput::ok(out)
        }
        Err(e) => ToolOutput::error(e),
    }
}

impl Guest for Docs {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "docs",
            "Search and read Smith's own built-in documentation (commands, settings, sessions, plugins, providers): {\"search\": \"words\"} lists matching sections with their document ids; {\"get\": \"ID\", \"offset\": LINE} reads a document from a line. Use it for questions about Smith itself.",
            SCHEMA,
        )]
    }

    fn call(_name: String, arguments_json: String, _invocation: Invocation) -> ToolOutput {
        let args: Args = match arguments(&arguments_json) {
            Ok(a) => a,
            Err(out) => return out,
        };
        match (args.search, args.get) {
            (Some(q), None) => search(&q),
            (None, Some(id)) => get(
                &id,
                args.offset.unwrap_or(1),
                args.limit.unwrap_or(DEFAULT_LINES),
            ),
            _ => ToolOutput::error(
                "give exactly one of `search` (words to look for) or `get` (a document id); nothing was read",
            ),
        }
    }
}

export_tool_plugin!(Docs);
