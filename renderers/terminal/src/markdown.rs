//! Markdown (CommonMark, with strikethrough and task lists) as styled terminal lines:
//! headings, paragraphs, bullet and numbered lists (nested, with hanging indents), block
//! quotes, emphasis, strong, inline code, links (text then the target, dim), rules, and code
//! blocks under their language label, hard-wrapped with their spacing kept, and tables drawn
//! as tables (`table.rs`). A line break the text has stays a line break (models write
//! one where they mean one). Everything is [`sanitize`](crate::sanitize::sanitize)d first.
//! HTML is shown as its text.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui_core::style::{Modifier, Style};
use ratatui_core::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::Theme;
use crate::wrap::{Piece, wrap};

/// The code blocks of Markdown `text`, in order: each one's text exactly as written between
/// its fences (or indented), without the fences — what copying a code block gives.
pub fn code_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for event in Parser::new_ext(
        text,
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
    ) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => open = Some(String::new()),
            Event::Text(t) => {
                if let Some(code) = open.as_mut() {
                    code.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(open.take()),
            _ => {}
        }
    }
    out
}

/// `text` as Markdown in lines of at most `width` columns.
pub fn markdown(text: &str, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let text = crate::sanitize::sanitize(text);
    let mut r = Renderer {
        theme,
        width,
        out: Vec::new(),
        pieces: Vec::new(),
        styles: vec![theme.assistant],
        lists: Vec::new(),
        quote: 0,
        item_start: false,
        code: None,
        link: None,
        table: None,
    };
    let options =
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS | Options::ENABLE_TABLES;
    for event in Parser::new_ext(&text, options) {
        r.event(event);
    }
    r.flush();
    while r.out.last().is_some_and(|l| l.width() == 0) {
        r.out.pop();
    }
    r.out
}

struct Renderer<'t> {
    theme: &'t Theme,
    width: u16,
    out: Vec<Line<'static>>,
    /// The inline text of the block being read.
    pieces: Vec<Piece>,
    styles: Vec<Style>,
    /// Open lists: the next number of a numbered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    quote: usize,
    /// The next flushed line starts a list item (it gets the bullet).
    item_start: bool,
    /// A code block being read: its language and text.
    code: Option<(String, String)>,
    /// The target of the link being read.
    link: Option<String>,
    /// A table being read.
    table: Option<Table>,
}

/// A table being read: its columns' alignments, its rows so far, how many are the head.
struct Table {
    aligns: Vec<pulldown_cmark::Alignment>,
    rows: Vec<crate::table::Row>,
    header: usize,
}

impl Renderer<'_> {
    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let s = f(self.style());
        self.styles.push(s);
    }

    /// A blank line before a new block (none at the very top or inside a list's items).
    fn gap(&mut self) {
        if self.out.last().is_some_and(|l| l.width() > 0) && !self.item_start {
            self.out.push(Line::default());
        }
    }

    /// The prefixes of the block's first line and of its continuation lines.
    fn prefixes(&mut self) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let mut first = Vec::new();
        let mut rest = Vec::new();
        for _ in 0..self.quote {
            first.push(Span::styled("│ ", self.theme.quote));
            rest.push(Span::styled("│ ", self.theme.quote));
        }
        let depth = self.lists.len();
        if depth > 0 {
            let indent = "  ".repeat(depth - 1);
            let marker = match self.lists.last().copied().flatten() {
                Some(n) => format!("{n}. "),
                None => "• ".to_owned(),
            };
            let hang = " ".repeat(marker.width());
            if std::mem::take(&mut self.item_start) {
                first.push(Span::raw(indent.clone()));
                first.push(Span::styled(marker, self.theme.quote));
            } else {
                first.push(Span::raw(format!("{indent}{hang}")));
            }
            rest.push(Span::raw(format!("{indent}{hang}")));
        }
        (first, rest)
    }

    /// Write the inline text read so far as wrapped lines.
    fn flush(&mut self) {
        if self.pieces.is_empty() {
            return;
        }
        let pieces = std::mem::take(&mut self.pieces);
        let (first, rest) = self.prefixes();
        self.out.extend(wrap(&pieces, self.width, &first, &rest));
    }

    fn text(&mut self, text: &str) {
        if let Some((_, code)) = self.code.as_mut() {
            code.push_str(text);
            return;
        }
        let style = self.style();
        self.pieces.push(Piece::new(text.replace('\n', " "), style));
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => self.text(&t),
            Event::Code(t) => {
                let style = self.theme.code_inline;
                self.pieces.push(Piece::new(t.to_string(), style));
            }
            Event::SoftBreak | Event::HardBreak if self.table.is_none() => self.flush(),
            Event::SoftBreak | Event::HardBreak => self.text(" "),
            Event::Rule => {
                self.flush();
                self.gap();
                let w = usize::from(self.width.clamp(1, 40));
                self.out
                    .push(Line::from(Span::styled("─".repeat(w), self.theme.dim)));
            }
            Event::TaskListMarker(done) => {
                let style = self.theme.quote;
                self.pieces
                    .push(Piece::new(if done { "[x] " } else { "[ ] " }, style));
            }
            Event::FootnoteReference(t) => self.text(&format!("[{t}]")),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&t),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {
                self.flush();
                self.gap();
            }
            Tag::Heading { level, .. } => {
                self.flush();
                self.gap();
                // A top-level heading is underlined too; the rest differ by the text alone.
                let heading = match level {
                    HeadingLevel::H1 => self.theme.heading.add_modifier(Modifier::UNDERLINED),
                    _ => self.theme.heading,
                };
                self.styles.push(heading);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.gap();
                self.quote += 1;
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.gap();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(first) => {
                self.flush();
                if self.lists.is_empty() {
                    self.gap();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                self.flush();
                self.item_start = true;
            }
            Tag::Table(aligns) => {
                self.flush();
                self.gap();
                self.table = Some(Table {
                    aligns,
                    rows: Vec::new(),
                    header: 0,
                });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = self.table.as_mut() {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableCell => self.pieces.clear(),
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } => {
                let link = self.theme.link;
                self.styles.push(link);
                self.link = Some(dest_url.to_string());
            }
            Tag::Image { dest_url, .. } => {
                self.text("[image: ");
                self.link = Some(dest_url.to_string());
                let link = self.theme.link;
                self.styles.push(link);
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush(),
            TagEnd::Heading(_) => {
                self.flush();
                self.styles.pop();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.code_block(&lang, &code);
                }
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Item => {
                self.flush();
                if let Some(Some(n)) = self.lists.last_mut() {
                    *n += 1;
                }
                self.item_start = false;
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.pieces);
                if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                    row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = self.table.as_mut() {
                    t.header = t.rows.len();
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.table_block(&t);
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link | TagEnd::Image => {
                self.styles.pop();
                if let Some(url) = self.link.take()
                    && !url.is_empty()
                {
                    let dim = self.theme.dim;
                    let image = matches!(tag, TagEnd::Image);
                    self.pieces.push(Piece::new(
                        format!(" ({url}){}", if image { "]" } else { "" }),
                        dim,
                    ));
                }
            }
            _ => {}
        }
    }

    /// A table: drawn as one when its columns fit, else each row as its cells' text joined
    /// by ` │ `.
    fn table_block(&mut self, t: &Table) {
        let (first, _) = self.prefixes();
        let drawn = crate::table::table_lines(
            &t.rows,
            &t.aligns,
            t.header,
            usize::from(self.width),
            &first,
            self.theme.dim,
        );
        if let Some(lines) = drawn {
            self.out.extend(lines);
            return;
        }
        for row in &t.rows {
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    self.pieces.push(Piece::new(" │ ", self.theme.dim));
                }
                self.pieces.extend(cell.iter().cloned());
            }
            self.flush();
        }
    }

    /// A code block: its language label, then its lines hard-wrapped with spacing kept.
    fn code_block(&mut self, lang: &str, code: &str) {
        let (first, rest) = self.prefixes();
        let lead = |mut spans: Vec<Span<'static>>| {
            spans.push(Span::raw("  "));
            spans
        };
        if !lang.is_empty() {
            let mut label = first.clone();
            label.push(Span::styled(lang.to_owned(), self.theme.code_label));
            self.out.push(Line::from(label));
        }
        let style = self.theme.code_block;
        let mut prefix = if lang.is_empty() {
            lead(first)
        } else {
            lead(rest.clone())
        };
        for line in code.strip_suffix('\n').unwrap_or(code).split('\n') {
            let used: usize = prefix.iter().map(Span::width).sum();
            let room = usize::from(self.width).saturating_sub(used).max(1);
            let mut chunk = String::new();
            let mut chunk_w = 0;
            for g in line.graphemes(true) {
                let gw = g.width();
                if chunk_w + gw > room && !chunk.is_empty() {
                    let mut spans = prefix.clone();
                    spans.push(Span::styled(std::mem::take(&mut chunk), style));
                    self.out.push(Line::from(spans));
                    chunk_w = 0;
                }
                chunk.push_str(g);
                chunk_w += gw;
            }
            let mut spans = prefix.clone();
            spans.push(Span::styled(chunk, style));
            self.out.push(Line::from(spans));
            prefix = lead(rest.clone());
        }
    }
}
