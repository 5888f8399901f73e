//! Rendering markdown for a terminal.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};

const BOLD: &str = "\x1b[1m";
const UNDERLINE: &str = "\x1b[4m";
const ITALIC: &str = "\x1b[3m";
const DIM: &str = "\x1b[2m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// Render a markdown body for a terminal: bold underlined headings, emphasis, cyan inline
/// code, dim indented code blocks, bulleted lists, table rows with `│` separators, and links as
/// their text followed by the target (for a corpus link, the `smith docs get` command that
/// opens it, via `link_hint`). Control characters in the source are not passed through.
///
/// Callers use it only when stdout is a terminal; piped output is the markdown itself.
pub fn render_terminal(markdown: &str, link_hint: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut list_depth = 0usize;
    let mut in_code_block = false;
    let mut link_targets: Vec<String> = Vec::new();
    let mut style_stack: Vec<&'static str> = Vec::new();
    let restyle = |out: &mut String, stack: &[&'static str]| {
        out.push_str(RESET);
        for s in stack {
            out.push_str(s);
        }
    };
    // Tables are gathered cell by cell (plain text) and laid out with aligned columns at
    // their end.
    let mut table: Option<Vec<Vec<String>>> = None;
    let opts = pulldown_cmark::Options::ENABLE_TABLES;
    for event in Parser::new_ext(markdown, opts) {
        if let Some(rows) = table.as_mut() {
            match event {
                Event::Start(Tag::TableHead | Tag::TableRow) => rows.push(Vec::new()),
                Event::Start(Tag::TableCell) => {
                    if let Some(row) = rows.last_mut() {
                        row.push(String::new());
                    }
                }
                Event::Text(t) | Event::Code(t) => {
                    if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                        cell.push_str(&sanitize(&t));
                    }
                }
                Event::SoftBreak | Event::HardBreak => {
                    if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                        cell.push(' ');
                    }
                }
                Event::End(TagEnd::Table) => {
                    out.push_str(&layout_table(rows));
                    out.push('\n');
                    table = None;
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::Table(_)) => table = Some(Vec::new()),
            Event::Start(Tag::Heading { level, .. }) => {
                if !out.is_empty() && !out.ends_with("\n\n") {
                    out.push('\n');
                }
                style_stack.push(BOLD);
                if level == HeadingLevel::H1 {
                    style_stack.push(UNDERLINE);
                }
                restyle(&mut out, &style_stack);
            }
            Event::End(TagEnd::Heading(level)) => {
                style_stack.pop();
                if level == HeadingLevel::H1 {
                    style_stack.pop();
                }
                restyle(&mut out, &style_stack);
                out.push_str("\n\n");
            }
            Event::Start(Tag::Paragraph) => {}
            Event::End(TagEnd::Paragraph) => {
                out.push_str(if list_depth > 0 { "\n" } else { "\n\n" })
            }
            Event::Start(Tag::Emphasis) => {
                style_stack.push(ITALIC);
                restyle(&mut out, &style_stack);
            }
            Event::Start(Tag::Strong) => {
                style_stack.push(BOLD);
                restyle(&mut out, &style_stack);
            }
            Event::End(TagEnd::Emphasis | TagEnd::Strong) => {
                style_stack.pop();
                restyle(&mut out, &style_stack);
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code_block = true;
                if let CodeBlockKind::Fenced(lang) = kind
                    && !lang.is_empty()
                {
                    out.push_str(&format!("{DIM}  ┌ {}{RESET}\n", sanitize(&lang)));
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                out.push('\n');
            }
            Event::Start(Tag::List(_)) => list_depth += 1,
            Event::End(TagEnd::List(_)) => {
                list_depth = list_depth.saturating_sub(1);
                if list_depth == 0 {
                    out.push('\n');
                }
            }
            Event::Start(Tag::Item) => {
                out.push_str(&"  ".repeat(list_depth.saturating_sub(1)));
                out.push_str("• ");
            }
            Event::End(TagEnd::Item) if !out.ends_with('\n') => out.push('\n'),
            Event::Start(Tag::Link { dest_url, .. }) => link_targets.push(dest_url.to_string()),
            Event::End(TagEnd::Link) => {
                if let Some(target) = link_targets.pop() {
                    out.push_str(&format!("{DIM} ({}){RESET}", sanitize(&link_hint(&target))));
                    restyle(&mut out, &style_stack);
                }
            }
            Event::Code(code) => out.push_str(&format!("{CYAN}{}{RESET}", sanitize(&code))),
            Event::Text(text) if in_code_block => {
                for line in text.lines() {
                    out.push_str(&format!("{DIM}  │ {}{RESET}\n", sanitize(line)));
                }
            }
            Event::Text(text) => out.push_str(&sanitize(&text)),
            Event::SoftBreak => out.push(' '),
            Event::HardBreak => out.push('\n'),
            Event::Rule => out.push_str(&format!("{DIM}{}{RESET}\n\n", "─".repeat(40))),
            _ => {}
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Lay out `rows` (the first is the header) with every column as wide as its widest cell,
/// `│` between columns and a rule under the header.
fn layout_table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.trim().chars().count());
        }
    }
    let mut out = String::new();
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..columns)
            .map(|i| {
                let cell = row.get(i).map_or("", |c| c.trim());
                let pad = widths[i] - cell.chars().count();
                if r == 0 {
                    format!("{BOLD}{cell}{RESET}{}", " ".repeat(pad))
                } else {
                    format!("{cell}{}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(cells.join(" │ ").trim_end());
        out.push('\n');
        if r == 0 {
            // Long cells wrap at the terminal's edge anyway; keep the rule short.
            let rule: Vec<String> = widths.iter().map(|w| "─".repeat((*w).min(40))).collect();
            out.push_str(&format!("{DIM}{}{RESET}\n", rule.join("─┼─")));
        }
    }
    out
}

/// Drop control characters (other than tab) from document text.
fn sanitize(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_structure_with_styles() {
        let out = render_terminal(
            "# Title\n\nSome *em* and `code`, see [x](x.md).\n\n- one\n- two\n\n```sh\nrun it\n```\n",
            &|t| format!("smith docs get {t}"),
        );
        assert!(out.contains(&format!("{BOLD}{UNDERLINE}Title")), "{out:?}");
        assert!(out.contains(&format!("{CYAN}code{RESET}")));
        assert!(out.contains("(smith docs get x.md)"));
        assert!(out.contains("• one\n• two\n"));
        assert!(out.contains("│ run it"));
    }

    #[test]
    fn tables_get_aligned_columns() {
        let out = render_terminal(
            "| a | long header |\n| --- | --- |\n| wide cell | `x` |\n",
            &|t| t.to_owned(),
        );
        let plain: String = out.replace(BOLD, "").replace(RESET, "").replace(DIM, "");
        let lines: Vec<&str> = plain.lines().collect();
        assert_eq!(lines[0], "a         │ long header");
        assert_eq!(lines[1], "──────────┼────────────");
        assert_eq!(lines[2], "wide cell │ x");
    }
}
