//! The `find` and `grep` tools, on the SDK's in-process search facilities.

use serde::Deserialize;
use smith_plugin_sdk::fs::{self, EntryKind, GrepRequest, WalkOptions};
use smith_plugin_sdk::serde_json::json;
use smith_plugin_sdk::{ToolDefinition, ToolOutput, arguments, tool};

use crate::failed;

const FIND_DEFAULT: u32 = 200;
const GREP_DEFAULT: u32 = 100;

#[derive(Deserialize)]
struct FindArgs {
    pattern: String,
    path: Option<String>,
    limit: Option<u32>,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    no_ignore: bool,
}

#[derive(Deserialize)]
struct GrepArgs {
    pattern: String,
    path: Option<String>,
    glob: Option<String>,
    #[serde(default)]
    literal: bool,
    #[serde(default)]
    ignore_case: bool,
    limit: Option<u32>,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    no_ignore: bool,
}

/// The definitions of `find` and `grep`.
pub(crate) fn definitions() -> [ToolDefinition; 2] {
    [
        tool(
            "find",
            "Find files and directories by glob, in process (no shell): `*.rs` matches file names anywhere below `path` (default: the working directory); a pattern with `/` such as `src/**/*.toml` matches paths relative to `path`. Respects .gitignore/.ignore and skips hidden entries unless told otherwise; never follows symlinks. Returns one path per line (directories end in `/`, symlinks in `@`) in a deterministic order, at most `limit` (default 200, at most 1000), and says when the list was cut.",
            r#"{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"description":"Glob, e.g. *.rs or src/**/mod.rs"},"path":{"type":"string","description":"Directory to search, relative to the working directory"},"limit":{"type":"integer","minimum":1,"maximum":1000},"hidden":{"type":"boolean","description":"Include names starting with a dot"},"no_ignore":{"type":"boolean","description":"Do not apply .gitignore and .ignore files"}},"required":["pattern"],"additionalProperties":false}"#,
        ),
        tool(
            "grep",
            "Search file contents for a regular expression (Rust regex syntax; `literal` for a plain string), in process (no shell). Searches the text files below `path` (default: the working directory), optionally only those matching `glob`; respects .gitignore/.ignore, skips hidden entries, binary files (reported) and symlinks. Returns `path:line:text` lines (text cut at 300 bytes) in a deterministic order, at most `limit` (default 100, at most 1000), and says when the search stopped at the limit.",
            r#"{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"maxLength":4096},"path":{"type":"string","description":"Directory or file to search, relative to the working directory"},"glob":{"type":"string","description":"Only files matching this glob, e.g. *.rs"},"literal":{"type":"boolean","description":"Match the pattern as a plain string"},"ignore_case":{"type":"boolean"},"limit":{"type":"integer","minimum":1,"maximum":1000},"hidden":{"type":"boolean","description":"Include names starting with a dot"},"no_ignore":{"type":"boolean","description":"Do not apply .gitignore and .ignore files"}},"required":["pattern"],"additionalProperties":false}"#,
        ),
    ]
}

fn options(hidden: bool, no_ignore: bool) -> WalkOptions {
    WalkOptions {
        respect_ignore_files: !no_ignore,
        include_hidden: hidden,
    }
}

/// A path as shown on its own line: as it is, or JSON-quoted when it holds a control
/// character (a newline in a name must not read as two paths).
fn show(path: &str) -> String {
    if path.chars().any(char::is_control) {
        smith_plugin_sdk::serde_json::to_string(path).unwrap_or_default()
    } else {
        path.to_owned()
    }
}

/// How to get more after a cut at `limit` results.
fn narrow(limit: u32, noun: &str) -> String {
    if limit < 1000 {
        format!("narrow the {noun}, or raise limit (at most 1000)")
    } else {
        format!("narrow the {noun}")
    }
}

fn errors_note(text: &mut String, errors: &[String]) {
    if !errors.is_empty() {
        text.push_str(&format!(
            "\n[{} problem(s) on the way: {}]",
            errors.len(),
            errors.join("; ")
        ));
    }
}

/// The `find` tool.
pub(crate) fn find(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: FindArgs = arguments(args)?;
    let path = a.path.unwrap_or_else(|| ".".to_owned());
    let limit = a.limit.unwrap_or(FIND_DEFAULT);
    let found = fs::find(&path, &a.pattern, limit, options(a.hidden, a.no_ignore))
        .map_err(|e| failed(&path, e))?;
    let paths: Vec<_> = found
        .entries
        .iter()
        .map(|f| {
            let kind = match f.kind {
                EntryKind::Directory => "directory",
                EntryKind::Symlink => "symlink",
                EntryKind::File => "file",
                EntryKind::Other => "other",
            };
            json!({"path": f.path, "kind": kind})
        })
        .collect();
    smith_plugin_sdk::structured(
        &json!({"paths": paths, "truncated": found.truncated, "errors": found.errors}).to_string(),
    );
    let mut text = if found.entries.is_empty() {
        format!("no paths under {path} match `{}`", a.pattern)
    } else {
        found
            .entries
            .iter()
            .map(|f| match f.kind {
                EntryKind::Directory => format!("{}/", show(&f.path)),
                EntryKind::Symlink => format!("{}@", show(&f.path)),
                EntryKind::File | EntryKind::Other => show(&f.path),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    if found.truncated {
        text.push_str(&format!(
            "\n[cut at {} paths: more match; {}]",
            found.entries.len(),
            narrow(limit, "pattern or the path")
        ));
    }
    errors_note(&mut text, &found.errors);
    Ok(ToolOutput::ok(text))
}

/// The `grep` tool.
pub(crate) fn grep(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: GrepArgs = arguments(args)?;
    let path = a.path.unwrap_or_else(|| ".".to_owned());
    let limit = a.limit.unwrap_or(GREP_DEFAULT);
    let request = GrepRequest {
        path: path.clone(),
        pattern: a.pattern.clone(),
        literal: a.literal,
        case_insensitive: a.ignore_case,
        glob: a.glob,
        limit,
        options: options(a.hidden, a.no_ignore),
    };
    let found = fs::grep(&request).map_err(|e| failed(&path, e))?;
    let matches: Vec<_> = found
        .matches
        .iter()
        .map(|m| json!({"path": m.path, "line": m.line, "text": m.text}))
        .collect();
    smith_plugin_sdk::structured(
        &json!({
            "matches": matches,
            "truncated": found.truncated,
            "files_searched": found.files_searched,
            "binary_files": found.binary_files,
            "errors": found.errors,
        })
        .to_string(),
    );
    let mut text = if found.matches.is_empty() {
        format!(
            "no matches for `{}` in {} file(s) under {path}",
            a.pattern, found.files_searched
        )
    } else {
        found
            .matches
            .iter()
            .map(|m| format!("{}:{}:{}", show(&m.path), m.line, m.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    if found.truncated {
        text.push_str(&format!(
            "\n[stopped at {} matching lines: more match; {}]",
            found.matches.len(),
            narrow(limit, "pattern, path or glob")
        ));
    }
    if found.binary_count > 0 {
        let more = found.binary_count - found.binary_files.len() as u64;
        let and_more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        text.push_str(&format!(
            "\n[skipped {} binary file(s): {}{and_more}]",
            found.binary_count,
            found
                .binary_files
                .iter()
                .map(|p| show(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    errors_note(&mut text, &found.errors);
    Ok(ToolOutput::ok(text))
}
