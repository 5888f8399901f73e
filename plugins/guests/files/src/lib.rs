//! Smith's bundled file tools: `read`, `write`, `edit`, `ls`, `find` and `grep`, built on the
//! SDK's file and search facilities (every call a durable effect recorded by the host).

mod preview;
mod search;

use serde::Deserialize;
use smith_plugin_sdk::fs::{self, EntryKind, Replacement};
use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, arguments, export_tool_plugin, tool,
};

struct Files;

#[derive(Deserialize)]
struct ReadArgs {
    path: String,
    offset: Option<u32>,
    limit: Option<u32>,
}

#[derive(Deserialize)]
struct WriteArgs {
    path: String,
    content: String,
}

#[derive(Deserialize)]
struct EditOne {
    old_text: String,
    new_text: String,
}

#[derive(Deserialize)]
struct EditArgs {
    path: String,
    edits: Vec<EditOne>,
    expected_sha256: Option<String>,
}

#[derive(Deserialize)]
struct LsArgs {
    path: Option<String>,
}

const DEFAULT_LIMIT: u32 = 2000;

impl Guest for Files {
    fn definitions() -> Vec<ToolDefinition> {
        vec![
            tool(
                "read",
                "Read a text file: up to `limit` lines (default and at most 2000) from 1-based line `offset`. The result ends with the line range, the file's line count and its sha256, which `edit` can take as `expected_sha256`.",
                r#"{"type":"object","properties":{"path":{"type":"string","description":"File path, relative to the working directory"},"offset":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1,"maximum":2000}},"required":["path"],"additionalProperties":false}"#,
            ),
            tool(
                "write",
                "Create or replace a file with `content`, atomically; missing parent directories are created.",
                r#"{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"],"additionalProperties":false}"#,
            ),
            tool(
                "edit",
                "Replace exact text in a file, atomically: each `old_text` must occur exactly once. Pass `expected_sha256` from a recent read to refuse the edit if the file changed since. The result shows what changed as a unified diff with line numbers and three lines of context.",
                r#"{"type":"object","properties":{"path":{"type":"string"},"edits":{"type":"array","minItems":1,"items":{"type":"object","properties":{"old_text":{"type":"string","minLength":1},"new_text":{"type":"string"}},"required":["old_text","new_text"],"additionalProperties":false}},"expected_sha256":{"type":"string"}},"required":["path","edits"],"additionalProperties":false}"#,
            ),
            tool(
                "ls",
                "List a directory (default: the working directory), sorted by name; directories end in `/`.",
                r#"{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}"#,
            ),
        ]
        .into_iter()
        .chain(search::definitions())
        .collect()
    }

    fn call(name: String, args: String, _invocation: Invocation) -> ToolOutput {
        let result = match name.as_str() {
            "read" => read(&args),
            "write" => write(&args),
            "edit" => edit(&args),
            "ls" => ls(&args),
            "find" => search::find(&args),
            "grep" => search::grep(&args),
            other => Err(ToolOutput::error(format!(
                "the files plugin has no tool `{other}`"
            ))),
        };
        result.unwrap_or_else(|e| e)
    }
}

pub(crate) fn failed(path: &str, e: fs::FsError) -> ToolOutput {
    ToolOutput::error(format!("{path}: {}", smith_plugin_sdk::describe(&e)))
}

fn read(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: ReadArgs = arguments(args)?;
    let offset = a.offset.unwrap_or(1);
    let limit = a.limit.unwrap_or(DEFAULT_LIMIT).min(DEFAULT_LIMIT);
    let w = fs::read_lines(&a.path, offset, limit).map_err(|e| failed(&a.path, e))?;
    let mut text = w.text;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let range = if w.total_lines == 0 {
        "the file is empty".to_owned()
    } else {
        format!(
            "lines {}-{} of {}",
            w.first_line, w.last_line, w.total_lines
        )
    };
    text.push_str(&format!("[{}: {range}; sha256 {}]", a.path, w.sha256));
    if w.last_line < w.total_lines {
        text.push_str(&format!(
            "\n[more: read with offset {} to continue]",
            w.last_line + 1
        ));
    }
    Ok(ToolOutput::ok(text))
}

fn write(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: WriteArgs = arguments(args)?;
    let hash = fs::write_file(&a.path, &a.content).map_err(|e| failed(&a.path, e))?;
    Ok(ToolOutput::ok(format!(
        "wrote {} bytes to {} (sha256 {hash})",
        a.content.len(),
        a.path
    )))
}

fn edit(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: EditArgs = arguments(args)?;
    let edits: Vec<Replacement> = a
        .edits
        .into_iter()
        .map(|e| Replacement {
            old_text: e.old_text,
            new_text: e.new_text,
        })
        .collect();
    let n = edits.len();
    // The file as it is now, for the diff: the edit is then made against exactly this
    // content (its hash), so the diff says what the edit did. A file too large to read in
    // one window (or unreadable as text) is edited without a diff.
    let window = fs::read_lines(&a.path, 1, DEFAULT_LIMIT)
        .ok()
        .filter(|w| w.last_line >= w.total_lines);
    let expected = match (&a.expected_sha256, &window) {
        (Some(given), _) => Some(given.clone()),
        (None, Some(w)) => Some(w.sha256.clone()),
        (None, None) => None,
    };
    let diff = window.as_ref().and_then(|w| {
        let pairs: Vec<(String, String)> = edits
            .iter()
            .map(|e| (e.old_text.clone(), e.new_text.clone()))
            .collect();
        preview::diff(&w.text, &pairs)
    });
    let hash =
        fs::edit_file(&a.path, &edits, expected.as_deref()).map_err(|e| failed(&a.path, e))?;
    let mut text = format!("edited {}: {n} replacement(s) (sha256 {hash})", a.path);
    if let Some(diff) = diff {
        text.push('\n');
        text.push_str(&diff);
    }
    Ok(ToolOutput::ok(text))
}

fn ls(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: LsArgs = arguments(args)?;
    let path = a.path.unwrap_or_else(|| ".".to_owned());
    let entries = fs::list_dir(&path).map_err(|e| failed(&path, e))?;
    if entries.is_empty() {
        return Ok(ToolOutput::ok(format!("{path} is empty")));
    }
    let lines: Vec<String> = entries
        .into_iter()
        .map(|e| match e.kind {
            EntryKind::Directory => format!("{}/", e.name),
            EntryKind::Symlink => format!("{}@", e.name),
            EntryKind::File | EntryKind::Other => format!("{}  {} B", e.name, e.size),
        })
        .collect();
    Ok(ToolOutput::ok(lines.join("\n")))
}

export_tool_plugin!(Files);
