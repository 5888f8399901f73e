//! A tool call drawn as lines: a one-line heading (mark, name, a summary of its arguments),
//! its live progress, the change a file tool's arguments describe as a coloured line diff,
//! and a bounded preview of its output.
//!
//! The diff comes from the arguments, not from the tool's output, so it shows while the call
//! runs and for any tool whose arguments have the file tools' shapes: `edits: [{old_text,
//! new_text}]` (an edit) or `path` with `content` (a whole-file write). Output that is itself a
//! unified diff (a line starting `@@ `) is coloured too.

use ratatui_core::text::{Line, Span};
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::Theme;
use crate::sanitize::sanitize;
use crate::transcript::{PREVIEW_LINES, paragraphs};

/// Lines of a file tool's diff shown (the first ones; the rest are counted).
pub(crate) const DIFF_LINES: usize = 2 * PREVIEW_LINES;

/// Wrapped lines of a tool's error shown (an error is meant to be read whole; a flood is
/// still bounded, the rest counted).
pub(crate) const ERROR_LINES: usize = 40;

/// String arguments longer than this (in characters) are summarised as `key=…`.
const SHORT_STRING: usize = 48;

/// One line of a diff: its sign (`+`, `-`, ` ` for context, `⋯` between edits) and text.
type DiffLine = (char, String);

/// A running tool's spinner, one frame per [`crate::transcript::SPIN_EVERY`].
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/// How many frames the spinner has.
pub(crate) const SPINNER_FRAMES: u8 = SPINNER.len() as u8;

/// What a tool call block shows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Call<'a> {
    pub name: &'a str,
    pub arguments: &'a Value,
    /// The last progress (a program's newest output) while it runs.
    pub progress: Option<&'a str>,
    /// How long it has run, once ticked.
    pub clock: Option<&'a crate::transcript::Clock>,
    /// `None` while it runs.
    pub output: Option<&'a str>,
    pub is_error: bool,
}

/// `seconds` as a person reads a duration: `42s`, `3m 05s`, `1h 02m`.
fn elapsed(seconds: u64) -> String {
    match seconds {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m {:02}s", s / 60, s % 60),
        s => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The lines a tool call shows: heading (with a spinner and the time run while it runs),
/// its newest progress, argument diff and output preview, cut to `width` cells.
pub(crate) fn tool_lines(call: &Call<'_>, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let Call {
        name,
        arguments,
        progress,
        clock,
        output,
        is_error,
    } = *call;
    let style = if is_error {
        theme.tool_error
    } else {
        theme.tool
    };
    let mark = match (output, is_error, clock) {
        (None, _, Some(c)) => format!("{} ", SPINNER[usize::from(c.frame) % SPINNER.len()]),
        (None, _, None) => "◌ ".to_owned(),
        (Some(_), false, _) => "● ".to_owned(),
        (Some(_), true, _) => "✗ ".to_owned(),
    };
    // The time run, from the first whole second, kept whole however long the heading.
    let ran = match (output, clock) {
        (None, Some(c)) if c.seconds > 0 => format!(" · {}", elapsed(c.seconds)),
        _ => String::new(),
    };
    let args = summarize_arguments(arguments);
    let heading = if args.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {args}")
    };
    let inner = usize::from(width).saturating_sub(2);
    let ran_width = unicode_width::UnicodeWidthStr::width(ran.as_str());
    // The heading stays one line: long arguments are cut with an ellipsis.
    let heading = crate::cut_to_width(
        &sanitize(&heading).replace('\n', " ⏎ "),
        inner.saturating_sub(ran_width),
    );
    let mut out = vec![Line::from(vec![
        Span::styled(mark, style),
        Span::styled(heading, style),
        Span::styled(ran, theme.dim),
    ])];
    let indent = Span::styled("  ", theme.dim);
    if let Some(p) = progress {
        // The newest lines only: a program's output streams here, bounded.
        let lead = [indent.clone()];
        let mut lines = paragraphs(p.trim_end_matches('\n'), theme.dim, width, &lead, &lead);
        lines.drain(..lines.len().saturating_sub(PREVIEW_LINES));
        out.extend(lines);
    }
    // A result that is a unified diff (an edit's) says where the change landed: shown with
    // line numbers instead of the diff the arguments describe.
    let numbered = output.filter(|_| !is_error).and_then(numbered_diff);
    if let Some((header, lines)) = &numbered {
        for line in header.iter().take(PREVIEW_LINES) {
            let shown = crate::cut_to_width(&sanitize(line), inner);
            out.push(Line::from(vec![
                indent.clone(),
                Span::styled(shown, theme.tool_output),
            ]));
        }
        let width_of = |n: usize| n.to_string().len();
        let gutter = lines
            .iter()
            .filter_map(|l| l.0)
            .map(width_of)
            .max()
            .unwrap_or(1);
        let shown = lines.len().min(DIFF_LINES);
        for (number, sign, text) in &lines[..shown] {
            let style = match sign {
                '+' => theme.diff_added,
                '-' => theme.diff_removed,
                _ => theme.dim,
            };
            let number = number.map_or_else(|| " ".repeat(gutter), |n| format!("{n:>gutter$}"));
            let line = crate::cut_to_width(
                &format!("{sign}{}", sanitize(text)),
                inner.saturating_sub(gutter + 1),
            );
            out.push(Line::from(vec![
                indent.clone(),
                Span::styled(format!("{number} "), theme.dim),
                Span::styled(line, style),
            ]));
        }
        if lines.len() > shown {
            out.push(more(&indent, lines.len() - shown, theme));
        }
        return out;
    }
    if !is_error && let Some(diff) = argument_diff(arguments) {
        let shown = diff.len().min(DIFF_LINES);
        for (sign, text) in &diff[..shown] {
            let style = match sign {
                '+' => theme.diff_added,
                '-' => theme.diff_removed,
                _ => theme.dim,
            };
            let line = crate::cut_to_width(&format!("{sign}{}", sanitize(text)), inner);
            out.push(Line::from(vec![indent.clone(), Span::styled(line, style)]));
        }
        if diff.len() > shown {
            out.push(more(&indent, diff.len() - shown, theme));
        }
    }
    if let Some(text) = output
        && is_error
    {
        // An error is shown whole, wrapped: the fix it names is what the person needs.
        let lead = [indent.clone()];
        let mut lines = paragraphs(text.trim_end(), theme.tool_error, width, &lead, &lead);
        if lines.len() > ERROR_LINES {
            let hidden = lines.len() - ERROR_LINES;
            lines.truncate(ERROR_LINES);
            lines.push(more(&indent, hidden, theme));
        }
        out.extend(lines);
    } else if let Some(text) = output {
        let text = sanitize(text);
        let all: Vec<&str> = text.lines().collect();
        let unified = all.iter().any(|l| l.starts_with("@@ "));
        let body = if is_error {
            theme.tool_error
        } else {
            theme.tool_output
        };
        for line in all.iter().take(PREVIEW_LINES) {
            let style = match line.as_bytes().first() {
                Some(b'+') if unified && !line.starts_with("+++") => theme.diff_added,
                Some(b'-') if unified && !line.starts_with("---") => theme.diff_removed,
                _ => body,
            };
            let shown = crate::cut_to_width(line, inner);
            out.push(Line::from(vec![indent.clone(), Span::styled(shown, style)]));
        }
        if all.len() > PREVIEW_LINES {
            out.push(more(&indent, all.len() - PREVIEW_LINES, theme));
        }
    }
    out
}

/// One line of a numbered diff: its line number (the new file's, the old one's for a
/// removed line; none for the `⋯` between hunks), its sign and its text.
type Numbered<'a> = (Option<usize>, char, &'a str);

/// `text` read as lines before a unified diff and the diff's lines numbered from its hunk
/// headers (`@@ -a,b +c,d @@`); `None` when it holds no hunk.
fn numbered_diff(text: &str) -> Option<(Vec<&str>, Vec<Numbered<'_>>)> {
    let first = text.lines().position(|l| l.starts_with("@@ "))?;
    let header: Vec<&str> = text.lines().take(first).collect();
    let mut lines = Vec::new();
    let (mut old, mut new) = (0, 0);
    for line in text.lines().skip(first) {
        if let Some(rest) = line.strip_prefix("@@ ") {
            // `-a,b +c,d @@`: the old and new starts.
            let mut parts = rest.split(' ');
            let start = |p: Option<&str>, sign: char| {
                p.and_then(|p| p.strip_prefix(sign))
                    .and_then(|p| p.split(',').next())
                    .and_then(|n| n.parse::<usize>().ok())
            };
            old = start(parts.next(), '-')?;
            new = start(parts.next(), '+')?;
            if !lines.is_empty() {
                lines.push((None, '⋯', ""));
            }
            continue;
        }
        let (sign, body) = match line.chars().next() {
            Some(c @ ('+' | '-' | ' ')) => (c, &line[1..]),
            _ => (' ', line),
        };
        match sign {
            '-' => {
                lines.push((Some(old), sign, body));
                old += 1;
            }
            '+' => {
                lines.push((Some(new), sign, body));
                new += 1;
            }
            _ => {
                lines.push((Some(new), sign, body));
                old += 1;
                new += 1;
            }
        }
    }
    Some((header, lines))
}

fn more(indent: &Span<'static>, hidden: usize, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        indent.clone(),
        Span::styled(format!("… {hidden} more lines"), theme.dim),
    ])
}

/// A short one-line form of a tool's arguments. A lone string argument is shown as itself;
/// otherwise `path` (when a string) leads bare, then each other argument in the order the
/// model gave them as `key=value`,
/// with long or multi-line strings as `key=…`, arrays as `key=[N]` and objects as `key={…}`.
pub(crate) fn summarize_arguments(arguments: &Value) -> String {
    let Value::Object(map) = arguments else {
        return match arguments {
            Value::Null => String::new(),
            other => other.to_string(),
        };
    };
    if map.len() == 1
        && let Some(Value::String(s)) = map.values().next()
    {
        return s.clone();
    }
    let mut parts = Vec::with_capacity(map.len());
    if let Some(Value::String(path)) = map.get("path") {
        parts.push(path.clone());
    }
    for (key, value) in map {
        let shown = match value {
            Value::String(_) if key == "path" => continue,
            Value::String(s) if s.chars().count() <= SHORT_STRING && !s.contains('\n') => s.clone(),
            Value::String(_) => "…".to_owned(),
            Value::Array(items) => format!("[{}]", items.len()),
            Value::Object(_) => "{…}".to_owned(),
            other => other.to_string(),
        };
        parts.push(format!("{key}={shown}"));
    }
    parts.join(" ")
}

/// The change a file tool's arguments describe, when they have one of its shapes: each of
/// `edits`' `old_text` → `new_text` as a line diff with its context lines (edits separated
/// by a `⋯` line), or a write's whole `content` as added lines. `None` for other arguments.
fn argument_diff(arguments: &Value) -> Option<Vec<DiffLine>> {
    let map = arguments.as_object()?;
    if let Some(Value::Array(edits)) = map.get("edits") {
        let mut out = Vec::new();
        for edit in edits {
            let (Some(old), Some(new)) = (
                edit.get("old_text").and_then(Value::as_str),
                edit.get("new_text").and_then(Value::as_str),
            ) else {
                return None;
            };
            if !out.is_empty() {
                out.push(('⋯', String::new()));
            }
            for change in TextDiff::from_lines(old, new).iter_all_changes() {
                let sign = match change.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                };
                let text = change.value();
                out.push((sign, text.strip_suffix('\n').unwrap_or(text).to_owned()));
            }
        }
        return (!out.is_empty()).then_some(out);
    }
    match (map.get("path"), map.get("content")) {
        (Some(Value::String(_)), Some(Value::String(content))) => {
            Some(content.lines().map(|l| ('+', l.to_owned())).collect())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn arguments_summarise_to_one_short_line() {
        assert_eq!(summarize_arguments(&json!({"command": "ls -l"})), "ls -l");
        assert_eq!(
            summarize_arguments(&json!({"path": "a.rs", "offset": 10, "limit": 5})),
            "a.rs offset=10 limit=5"
        );
        assert_eq!(
            summarize_arguments(&json!({"path": "a.rs", "edits": [{}, {}], "content": "x\ny"})),
            "a.rs edits=[2] content=…"
        );
        assert_eq!(summarize_arguments(&json!(null)), "");
        assert_eq!(summarize_arguments(&json!({})), "");
    }

    #[test]
    fn an_edit_becomes_a_line_diff_with_its_context() {
        let args = json!({"path": "a.rs", "edits": [
            {"old_text": "fn a() {}\nfn b() {}\n", "new_text": "fn a() {}\nfn c() {}\n"},
            {"old_text": "x", "new_text": "y"},
        ]});
        let diff = argument_diff(&args).expect("an edit's arguments");
        let signs: String = diff.iter().map(|(s, _)| *s).collect();
        assert_eq!(signs, " -+⋯-+");
        assert_eq!(diff[1].1, "fn b() {}");
        assert_eq!(diff[2].1, "fn c() {}");
    }

    #[test]
    fn a_write_is_all_additions_and_other_arguments_have_no_diff() {
        let diff = argument_diff(&json!({"path": "n.txt", "content": "one\ntwo\n"}));
        assert_eq!(
            diff,
            Some(vec![('+', "one".to_owned()), ('+', "two".to_owned())])
        );
        assert_eq!(argument_diff(&json!({"command": "ls"})), None);
        assert_eq!(argument_diff(&json!({"edits": [{"old_text": 1}]})), None);
    }
}
