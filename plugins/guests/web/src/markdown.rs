//! HTML to Markdown for the model to read, in one pass over the tokens of `html5gum` (the
//! WHATWG tokenizer): no document tree is built, so the time and memory are those of the
//! tokenizer and the output (issue 61: a 1 MB page within 50 ms of the server's own time; on
//! the bench page, natively, this takes ~11 ms where the converters that build a tree took
//! 47–98 ms: `htmd`, `mdka`, `html-to-markdown-rs`).
//!
//! What a tree builder would do for the output is done with a small stack of the open
//! elements that change it (lists, list items, quotes, preformatted text, links, emphasis,
//! tables, and the skipped elements whose content is not the page's text): an end tag closes
//! the nearest open element of its name and every element opened inside it, an end tag of no
//! open element is ignored, and the implied ends that matter (a list item or a table cell or
//! row starting while one is open, `<body>` ending the head) are applied. Text is collapsed as
//! a browser shows it (runs of white space become one space; `<pre>` keeps them); character
//! references are decoded by the tokenizer; `<script>`, `<style>` and the other raw-text
//! elements are tokenized as raw text and skipped.
//!
//! Markdown written: `#`–`######` headings, paragraphs, `**strong**`, `*emphasis*`,
//! `` `code` ``, fenced code blocks (the language from a `language-*` class), `[links](href)`,
//! `![images](src)` with alt text, `-` and `1.` lists (nested by indentation), `>` quotes,
//! tables as pipe tables (the first row as the header), `---` rules, line breaks.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};

/// Elements whose content is not the page's text (with their children).
const SKIPPED: &[&[u8]] = &[
    b"script",
    b"style",
    b"noscript",
    b"template",
    b"svg",
    b"canvas",
    b"iframe",
    b"head",
    b"nav",
    b"form",
    b"button",
    b"select",
    b"textarea",
    b"math",
    b"object",
    b"title",
];

/// Elements that start and end a block (a paragraph break around them).
const BLOCKS: &[&[u8]] = &[
    b"p",
    b"div",
    b"section",
    b"article",
    b"main",
    b"header",
    b"footer",
    b"aside",
    b"address",
    b"details",
    b"summary",
    b"dialog",
    b"figure",
    b"figcaption",
    b"fieldset",
    b"hgroup",
    b"dl",
    b"caption",
    b"center",
];

/// Elements the head holds: any other start tag (or text) while `<head>` is open ends it, as
/// HTML's "in head" insertion mode does.
const HEAD_CONTENT: &[&[u8]] = &[
    b"meta",
    b"link",
    b"title",
    b"style",
    b"script",
    b"base",
    b"noscript",
    b"template",
];

/// Elements with no content and no end tag (never pushed on the stack).
const VOID: &[&[u8]] = &[
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
    b"source", b"track", b"wbr", b"param", b"keygen",
];

/// The deepest the stack of open elements grows; elements opened past it are not tracked
/// (their content is still converted, without their Markdown).
const MAX_OPEN: usize = 512;

/// The longest line prefix written (quotes' `> ` and list indentation), in bytes: deeper
/// nesting is not indented further, so a deeply nested page cannot multiply its size.
const MAX_PREFIX: usize = 32;

/// The most Markdown written, in bytes; past it the rest of the page is not converted.
pub(crate) const MAX_OUTPUT: usize = 8 << 20;

/// An open element that changes the output.
#[derive(PartialEq, Eq)]
enum Open {
    /// A skipped element (its name is in [`SKIPPED`]): nothing inside it is shown.
    Skipped(&'static [u8]),
    /// `<ul>` (`None`) or `<ol>` (`Some(next number)`).
    List(Option<u64>),
    /// A list item: the width of its marker, by which its continuation lines are indented.
    Item(usize),
    Quote,
    Pre,
    /// `<a>`: where its text starts in the output (an empty link is dropped) and its target
    /// (none: its text is written without the link).
    Link(usize, Option<String>),
    /// `<strong>`/`<b>` (`"**"`), `<em>`/`<i>` (`"*"`), `<code>` (`` "`" ``), `<del>`/`<s>`
    /// (`"~~"`): the marker and where it was written (an empty span is dropped).
    Span(&'static str, usize),
    Heading,
    /// A table: rows written so far.
    Table(usize),
    /// A table row: cells written so far.
    Row(usize),
    Cell,
}

impl Open {
    /// Whether an end tag named `name` closes this element.
    fn closed_by(&self, name: &[u8]) -> bool {
        match *self {
            Open::Skipped(skipped) => skipped == name,
            Open::List(None) => name == b"ul" || name == b"menu",
            Open::List(Some(_)) => name == b"ol",
            Open::Item(_) => name == b"li",
            Open::Quote => name == b"blockquote",
            Open::Pre => name == b"pre",
            Open::Link(..) => name == b"a",
            Open::Span(marker, _) => span_marker(name) == Some(marker),
            Open::Heading => heading_level(name).is_some(),
            Open::Table(_) => name == b"table",
            Open::Row(_) => name == b"tr",
            Open::Cell => name == b"td" || name == b"th",
        }
    }
}

fn heading_level(name: &[u8]) -> Option<usize> {
    match name {
        [b'h', level @ b'1'..=b'6'] => Some(usize::from(level - b'0')),
        _ => None,
    }
}

fn span_marker(name: &[u8]) -> Option<&'static str> {
    match name {
        b"strong" | b"b" => Some("**"),
        b"em" | b"i" => Some("*"),
        b"code" | b"kbd" | b"samp" | b"tt" => Some("`"),
        b"del" | b"s" | b"strike" => Some("~~"),
        _ => None,
    }
}

/// A start tag being read: its name and the attributes the output uses.
#[derive(Default)]
struct Tag {
    name: Vec<u8>,
    /// Which attribute's value comes next: `href`, `src`, `alt`, `class` or another.
    attribute: Vec<u8>,
    href: Option<String>,
    src: Option<String>,
    alt: Option<String>,
    class: Option<String>,
}

impl Tag {
    fn clear(&mut self) {
        self.name.clear();
        self.attribute.clear();
        self.href = None;
        self.src = None;
        self.alt = None;
        self.class = None;
    }

    /// The value of the attribute just named (the first of duplicates counts, as in HTML).
    fn value(&mut self, value: &[u8]) {
        let slot = match self.attribute.as_slice() {
            b"href" => &mut self.href,
            b"src" => &mut self.src,
            b"alt" => &mut self.alt,
            b"class" => &mut self.class,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(String::from_utf8_lossy(value).into_owned());
        }
    }
}

/// The converter's state between tokens.
struct Writer {
    out: String,
    open: Vec<Open>,
    /// Open elements past [`MAX_OPEN`] (not on the stack; their end tags are ignored).
    untracked: usize,
    /// Skipped elements open: while any is, nothing is written.
    skipping: usize,
    /// `<pre>` elements open: white space is kept.
    pres: usize,
    /// Table cells open: line breaks become spaces.
    cells: usize,
    /// Newlines owed before the next text: 1 a line break, 2 a paragraph break.
    newlines: u8,
    /// A space owed before the next text on this line.
    space: bool,
    /// Nothing but the line's prefix or a marker (`- `, `# `, `[`) is on the current line since
    /// its start: leading white space is dropped.
    fresh: bool,
    /// A `<pre>`'s opening fence not written yet, with its language (from the `<code>` in it):
    /// written with its first text.
    fence: Option<String>,
    tag: Tag,
}

impl Writer {
    fn new(capacity: usize) -> Self {
        Writer {
            out: String::with_capacity(capacity),
            open: Vec::new(),
            untracked: 0,
            skipping: 0,
            pres: 0,
            cells: 0,
            newlines: 0,
            space: false,
            fresh: true,
            fence: None,
            tag: Tag::default(),
        }
    }

    fn inside(&self, want: impl Fn(&Open) -> bool) -> bool {
        self.open.iter().any(want)
    }

    fn in_pre(&self) -> bool {
        self.pres > 0
    }

    fn in_cell(&self) -> bool {
        self.cells > 0
    }

    /// Ask for a break of `n` newlines before the next text (in a table cell: a space). None
    /// right after a marker: `<li><p>` is one item line, `<a><div>` one link.
    fn break_lines(&mut self, n: u8) {
        if self.fresh && !self.out.is_empty() && self.newlines == 0 {
            return;
        }
        if self.in_cell() {
            self.space = true;
        } else {
            self.newlines = self.newlines.max(n);
        }
    }

    /// Write what every new line starts with.
    fn push_prefix(&mut self) {
        let prefix = self.prefix();
        self.out.push_str(&prefix);
    }

    /// What every new line starts with: the quotes' `> ` and the list items' indentation
    /// (empty, without allocating, outside them).
    fn prefix(&self) -> String {
        let mut prefix = String::new();
        for open in &self.open {
            match open {
                Open::Quote => prefix.push_str("> "),
                Open::Item(width) => prefix.extend(std::iter::repeat_n(' ', *width)),
                _ => {}
            }
            if prefix.len() >= MAX_PREFIX {
                prefix.truncate(MAX_PREFIX);
                break;
            }
        }
        prefix
    }

    /// Write the owed newlines (each line with its prefix; trailing blanks trimmed), or the
    /// owed space.
    fn settle(&mut self) {
        if self.newlines > 0 {
            let owed = self.newlines;
            self.newlines = 0;
            self.space = false;
            if self.out.is_empty() {
                // The first line has its prefix too (a page that starts with a quote).
                self.push_prefix();
                self.fresh = true;
                return;
            }
            for _ in 0..owed {
                // Trailing spaces go (a blank line inside a quote keeps its `>`).
                let kept = self.out.trim_end_matches(' ').len();
                self.out.truncate(kept);
                self.out.push('\n');
                self.push_prefix();
            }
            self.fresh = true;
        } else if self.space && !self.fresh {
            self.out.push(' ');
        }
        self.space = false;
    }

    /// Write `marker` (a list marker, a heading's `#`s, `[`, `**`): white space after it is
    /// dropped when `opens` (it begins something).
    fn marker(&mut self, marker: &str, opens: bool) {
        if self.full() {
            return;
        }
        self.settle();
        self.out.push_str(marker);
        self.fresh = opens;
    }

    fn text(&mut self, text: &[u8]) {
        if self.skipping > 0 || self.full() {
            return;
        }
        let text = String::from_utf8_lossy(text);
        if self.in_pre() {
            self.settle();
            let text = match self.fence.take() {
                Some(language) => {
                    self.out.push_str("```");
                    self.out.push_str(&language);
                    self.out.push('\n');
                    self.push_prefix();
                    // The newline right after `<pre>` is not content (HTML's parsing rule).
                    text.strip_prefix('\n').unwrap_or(&text)
                }
                None => &text,
            };
            let mut lines = text.split('\n');
            if let Some(first) = lines.next() {
                self.out.push_str(first);
            }
            for line in lines {
                self.out.push('\n');
                self.push_prefix();
                self.out.push_str(line);
            }
            self.fresh = false;
            return;
        }
        for (i, word) in text.split(|c: char| c.is_ascii_whitespace()).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            self.settle();
            self.out.push_str(word);
            self.fresh = false;
        }
    }

    fn push(&mut self, open: Open) {
        if self.open.len() >= MAX_OPEN {
            self.untracked += 1;
            return;
        }
        match open {
            Open::Skipped(_) => self.skipping += 1,
            Open::Pre => self.pres += 1,
            Open::Cell => self.cells += 1,
            _ => {}
        }
        self.open.push(open);
    }

    /// Whether [`MAX_OUTPUT`] is reached: nothing more is written but the ends of what is open.
    fn full(&self) -> bool {
        self.out.len() >= MAX_OUTPUT
    }

    /// Take back what was written from `at` (an empty span's marker).
    fn unwrite(&mut self, at: usize) {
        if at > self.out.len() || !self.out.is_char_boundary(at) {
            return;
        }
        self.out.truncate(at);
        self.fresh = self.out.is_empty() || self.out.ends_with([' ', '\n']);
    }

    /// Close the top element: what its end writes.
    fn pop(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        match open {
            Open::Skipped(_) => self.skipping -= 1,
            Open::List(_) => {
                let nested = self.inside(|o| matches!(o, Open::Item(_)));
                self.break_lines(if nested { 1 } else { 2 });
            }
            Open::Quote | Open::Heading => self.break_lines(2),
            Open::Item(_) => self.break_lines(1),
            Open::Pre => {
                self.pres -= 1;
                // An empty `<pre>` writes nothing.
                if self.fence.take().is_none() {
                    let line_start = format!("\n{}", self.prefix());
                    if !self.out.ends_with(&line_start) {
                        self.out.push_str(&line_start);
                    }
                    self.out.push_str("```");
                    self.fresh = false;
                }
                self.break_lines(2);
            }
            Open::Link(start, href) => match href {
                // Nothing shown for it (an icon): the `[` goes too.
                Some(_) if self.out.len() == start => self.unwrite(start - 1),
                Some(href) => {
                    self.out.push_str("](");
                    self.out.push_str(&href);
                    self.out.push(')');
                }
                None => {}
            },
            Open::Span(marker, start) => {
                if self.out.len() == start {
                    self.unwrite(start - marker.len());
                } else {
                    self.out.push_str(marker);
                }
            }
            Open::Table(_) => self.break_lines(2),
            Open::Row(cells) => {
                if cells > 0 {
                    self.out.push_str(" |");
                    let first = match self.open.last_mut() {
                        Some(Open::Table(rows)) => {
                            *rows += 1;
                            *rows == 1
                        }
                        _ => false,
                    };
                    if first {
                        self.out.push('\n');
                        self.push_prefix();
                        self.out.push('|');
                        for _ in 0..cells {
                            self.out.push_str(" --- |");
                        }
                    }
                    self.break_lines(1);
                }
            }
            Open::Cell => self.cells -= 1,
        }
    }
}

impl Writer {
    /// Close open elements down to and including the one at `at`.
    fn close_to(&mut self, at: usize) {
        while self.open.len() > at {
            self.pop();
        }
    }

    /// Where the nearest open element `closes` is, searching down from the top but not past
    /// one that `stops` the search.
    fn nearest(
        &self,
        closes: impl Fn(&Open) -> bool,
        stops: impl Fn(&Open) -> bool,
    ) -> Option<usize> {
        for (at, open) in self.open.iter().enumerate().rev() {
            if closes(open) {
                return Some(at);
            }
            if stops(open) {
                return None;
            }
        }
        None
    }

    /// Text or a start tag that the head cannot hold ends an open `<head>` (`anywhere`: also
    /// when elements are open inside it, for `<body>`).
    fn leave_head(&mut self, anywhere: bool) {
        let head = |o: &Open| *o == Open::Skipped(b"head");
        if anywhere {
            if let Some(at) = self.nearest(head, |_| false) {
                self.close_to(at);
            }
        } else if self.open.last().is_some_and(head) {
            self.pop();
        }
    }

    /// The start tag just read ([`Writer::tag`]).
    fn start(&mut self) {
        let tag = std::mem::take(&mut self.tag);
        let name = tag.name.as_slice();
        if !HEAD_CONTENT.contains(&name) {
            self.leave_head(name == b"body");
        }
        if let Some(skipped) = SKIPPED.iter().find(|s| **s == name) {
            self.push(Open::Skipped(skipped));
        } else if self.skipping > 0 {
            // Inside a skipped element only nested skipped elements are tracked.
        } else if VOID.contains(&name) {
            self.void(&tag);
        } else {
            self.element(&tag);
        }
        self.tag = tag;
        self.tag.clear();
    }

    /// `<br>`, `<hr>`, `<img>`.
    fn void(&mut self, tag: &Tag) {
        if self.full() {
            return;
        }
        match tag.name.as_slice() {
            b"br" if self.in_pre() => self.text(b"\n"),
            b"br" if self.in_cell() => self.space = true,
            b"br" => {
                self.settle();
                let kept = self.out.trim_end_matches(' ').len();
                self.out.truncate(kept);
                self.out.push('\n');
                self.push_prefix();
                self.fresh = true;
            }
            b"hr" => {
                self.break_lines(2);
                self.marker("---", false);
                self.break_lines(2);
            }
            b"img" => {
                let alt = tag.alt.as_deref().map(str::trim).unwrap_or_default();
                if alt.is_empty() {
                    return;
                }
                let alt = alt.split_whitespace().collect::<Vec<_>>().join(" ");
                match tag.src.as_deref() {
                    Some(src) if !src.starts_with("data:") => {
                        self.marker(&format!("![{alt}]({src})"), false);
                    }
                    _ => self.text(alt.as_bytes()),
                }
            }
            _ => {}
        }
    }

    /// A start tag that may open something (nothing once the output is full: a marker not
    /// written must not be taken back).
    fn element(&mut self, tag: &Tag) {
        if self.full() {
            return;
        }
        let name = tag.name.as_slice();
        if let Some(level) = heading_level(name) {
            self.break_lines(2);
            self.marker(&"######"[..level], false);
            self.marker(" ", true);
            self.push(Open::Heading);
        } else if let Some(marker) = span_marker(name) {
            if marker == "`" && self.in_pre() {
                // `<pre><code class="language-rust">`: the fence's language.
                if let (Some(fence), Some(class)) = (self.fence.as_mut(), &tag.class)
                    && fence.is_empty()
                    && let Some(language) = class
                        .split_whitespace()
                        .find_map(|c| c.strip_prefix("language-").or(c.strip_prefix("lang-")))
                {
                    fence.push_str(language);
                }
                return;
            }
            self.marker(marker, true);
            let start = self.out.len();
            self.push(Open::Span(marker, start));
        } else {
            match name {
                b"a" => {
                    // A link inside a link is not HTML: the outer one ends.
                    if let Some(at) = self.nearest(|o| matches!(o, Open::Link(..)), |_| false) {
                        self.close_to(at);
                    }
                    let href = tag
                        .href
                        .as_deref()
                        .map(str::trim)
                        .filter(|h| !h.is_empty() && !h.starts_with("javascript:"))
                        .map(str::to_owned);
                    if href.is_some() {
                        self.marker("[", true);
                    }
                    let start = self.out.len();
                    self.push(Open::Link(start, href));
                }
                b"ul" | b"menu" | b"ol" => {
                    let nested = self.inside(|o| matches!(o, Open::Item(_)));
                    self.break_lines(if nested { 1 } else { 2 });
                    self.push(Open::List((name == b"ol").then_some(1)));
                }
                b"li" => self.item(),
                b"blockquote" => {
                    // The break before the quote is not part of it: written first.
                    self.break_lines(2);
                    self.settle();
                    self.push(Open::Quote);
                    self.out.push_str("> ");
                    self.fresh = true;
                }
                b"pre" => {
                    self.break_lines(2);
                    self.settle();
                    self.fence = Some(String::new());
                    self.push(Open::Pre);
                }
                b"table" => {
                    self.break_lines(2);
                    self.push(Open::Table(0));
                }
                b"tr" => self.row(),
                b"td" | b"th" => self.cell(),
                b"dt" | b"dd" => self.break_lines(1),
                _ if BLOCKS.contains(&name) => self.break_lines(2),
                _ => {}
            }
        }
    }

    /// `<li>`: an open item of the same list ends; its marker.
    fn item(&mut self) {
        let is_list = |o: &Open| matches!(o, Open::List(_));
        if let Some(at) = self.nearest(|o| matches!(o, Open::Item(_)), is_list) {
            self.close_to(at);
        }
        self.break_lines(1);
        let marker = match self
            .nearest(is_list, |_| false)
            .map(|at| &mut self.open[at])
        {
            Some(Open::List(Some(next))) => {
                let marker = format!("{next}. ");
                *next += 1;
                marker
            }
            _ => "- ".to_owned(),
        };
        self.marker(&marker, true);
        self.push(Open::Item(marker.len()));
    }

    /// `<tr>`: an open row of the same table ends.
    fn row(&mut self) {
        let is_table = |o: &Open| matches!(o, Open::Table(_));
        if self.nearest(is_table, |_| false).is_none() {
            self.break_lines(1);
            return;
        }
        if let Some(at) = self.nearest(|o| matches!(o, Open::Row(_)), is_table) {
            self.close_to(at);
        }
        self.break_lines(1);
        self.push(Open::Row(0));
    }

    /// `<td>`, `<th>`: an open cell of the same row ends; the cell's `|`.
    fn cell(&mut self) {
        let is_table = |o: &Open| matches!(o, Open::Table(_));
        if self.nearest(is_table, |_| false).is_none() {
            self.space = true;
            return;
        }
        if let Some(at) = self.nearest(
            |o| *o == Open::Cell,
            |o| matches!(o, Open::Row(_) | Open::Table(_)),
        ) {
            self.close_to(at);
        }
        if self
            .nearest(|o| matches!(o, Open::Row(_)), is_table)
            .is_none()
        {
            self.row();
        }
        let first = match self.open.last_mut() {
            Some(Open::Row(cells)) => {
                *cells += 1;
                *cells == 1
            }
            _ => true,
        };
        if first {
            self.marker("| ", true);
        } else {
            self.space = false;
            self.newlines = 0;
            self.out.push_str(" | ");
            self.fresh = true;
        }
        self.push(Open::Cell);
    }

    /// An end tag: the nearest open element of its name closes, with all opened inside it.
    fn end(&mut self, name: &[u8]) {
        if let Some(at) = self.nearest(|o| o.closed_by(name), |_| false) {
            self.close_to(at);
        } else if self.untracked > 0 {
            self.untracked -= 1;
        } else if self.skipping == 0 && (BLOCKS.contains(&name) || name == b"dd" || name == b"dt") {
            self.break_lines(2);
        }
    }

    fn event(&mut self, event: CallbackEvent<'_>) {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag.clear();
                self.tag.name.extend_from_slice(name);
            }
            CallbackEvent::AttributeName { name } => {
                self.tag.attribute.clear();
                self.tag.attribute.extend_from_slice(name);
            }
            CallbackEvent::AttributeValue { value } => self.tag.value(value),
            CallbackEvent::CloseStartTag { .. } => self.start(),
            CallbackEvent::EndTag { name } => self.end(name),
            CallbackEvent::String { value } => {
                if value.iter().any(|b| !b.is_ascii_whitespace()) {
                    self.leave_head(false);
                }
                self.text(value);
            }
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
    }

    fn finish(mut self) -> Converted {
        let full = self.full();
        self.close_to(0);
        let kept = self.out.trim_end().len();
        self.out.truncate(kept);
        Converted {
            text: self.out,
            full,
        }
    }
}

/// A page converted.
pub(crate) struct Converted {
    /// The Markdown.
    pub(crate) text: String,
    /// Whether [`MAX_OUTPUT`] was reached (the rest of the page not converted).
    pub(crate) full: bool,
}

/// `html` as Markdown (see the module's documentation). Never fails: malformed HTML is
/// tokenized as a browser would, and what cannot be read as Markdown is written as text.
pub(crate) fn convert(html: &str) -> Converted {
    let mut writer = Writer::new(html.len() / 2);
    {
        let mut emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            writer.event(event);
            None::<()>
        });
        emitter.naively_switch_states(true);
        for _ in Tokenizer::new_with_emitter(html, emitter) {}
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::{MAX_OUTPUT, MAX_PREFIX, convert};

    fn md(html: &str) -> String {
        convert(html).text
    }

    #[test]
    fn blocks_and_inline_text_read_as_markdown() {
        let html = "<!doctype html><html><head><title>T</title><meta charset=utf-8>\
            <script>var SCRIPT = '<p>no</p>';</script><style>p { color: red }</style></head>\
            <body><nav><ul><li><a href='/'>NAV</a></li></ul></nav>\
            <h1>Getting   started</h1>\
            <p>Read the <a href=\"/docs\">project</a> docs &mdash; <em> good </em>and<strong></strong> short.<br>Next line.</p>\
            <hr><div>In a div<div>nested</div>tail</div>\
            <p>Inline <code>x &lt; y</code>, <a href=\"javascript:void(0)\">a script link</a>, \
            <a href=\"/icon\"><img src=\"i.png\"></a>an icon, <img src=\"/logo.png\" alt=\" The  logo \">.</p>\
            <form><input name=q><button>Go</button></form><footer>&copy; 2026</footer></body></html>";
        assert_eq!(
            md(html),
            "# Getting started\n\n\
             Read the [project](/docs) docs — *good* and short.\nNext line.\n\n\
             ---\n\n\
             In a div\n\nnested\n\ntail\n\n\
             Inline `x < y`, a script link, an icon, ![The logo](/logo.png).\n\n\
             © 2026"
        );
    }

    #[test]
    fn lists_nest_by_indentation_and_items_end_where_html_ends_them() {
        let html =
            "<ul><li>one<li>two<ol><li>two.a</li><li>two.b</ol></li><li>three</ul><p>after</p>";
        assert_eq!(
            md(html),
            "- one\n- two\n  1. two.a\n  2. two.b\n- three\n\nafter"
        );
    }

    #[test]
    fn quotes_code_blocks_and_tables_keep_their_shape() {
        let html = "<blockquote><p>Quoted.</p><p>More.</p></blockquote>\
            <pre><code class=\"language-rust\">\nfn main() {\n    println!(\"&lt;hi&gt;\");\n}\n</code></pre>\
            <table><thead><tr><th>Name<th>Value</thead><tbody><tr><td>a<td>1<tr><td>b<br>c</td><td><p>2</p></td></tbody></table>";
        assert_eq!(
            md(html),
            "> Quoted.\n>\n> More.\n\n\
             ```rust\nfn main() {\n    println!(\"<hi>\");\n}\n```\n\n\
             | Name | Value |\n| --- | --- |\n| a | 1 |\n| b c | 2 |"
        );
    }

    #[test]
    fn a_head_without_its_end_tag_ends_where_the_body_starts() {
        assert_eq!(
            md("<html><head><title>T</title><link rel=x>Body text<p>more"),
            "Body text\n\nmore"
        );
        assert_eq!(md("<head><title>T</title><body><p>shown"), "shown");
    }

    #[test]
    fn deep_nesting_is_bounded_in_time_indentation_and_output() {
        let deep = "<div>".repeat(20_000) + "DEEP-TEXT";
        assert_eq!(md(&deep), "DEEP-TEXT");
        let lists = "<ul><li>x".repeat(2_000) + "<br>end";
        let out = md(&lists);
        let last = out.lines().last().unwrap();
        assert_eq!(last.trim_start(), "end");
        assert!(last.len() <= MAX_PREFIX + "end".len(), "{last:?}");
        let big = "<ul><li>x".repeat(200) + &"a<br>".repeat(400_000);
        let converted = convert(&big);
        assert!(converted.full);
        assert!(converted.text.len() <= MAX_OUTPUT + 4096);
    }

    /// Tag soup (every open and close in any order, broken tags and references) converts
    /// without a panic, and every text survives.
    #[test]
    fn tag_soup_never_panics() {
        const PARTS: &[&str] = &[
            "<b>",
            "</b>",
            "<a href=x>",
            "</a>",
            "<li>",
            "</li>",
            "<ul>",
            "</ul>",
            "<ol>",
            "</ol>",
            "<pre>",
            "</pre>",
            "<code class='language-x'>",
            "</code>",
            "<table>",
            "<tr>",
            "<td>",
            "</td>",
            "</tr>",
            "</table>",
            "<blockquote>",
            "</blockquote>",
            "<p>",
            "</p>",
            "<br>",
            "<hr>",
            "<img alt=é src=y>",
            "word ",
            " \n ",
            "é€",
            "<head>",
            "<body>",
            "<script>",
            "</script>",
            "<nav>",
            "</nav>",
            "<h3>",
            "</h3>",
            "&amp;",
            "<",
            ">",
            "</",
            "<!--",
            "-->",
            "\u{a0}",
            "&#x1F600;",
            "&bogus;",
            "<em>",
            "</em>",
            "<th>",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % 1_000_003).unwrap()
        };
        for _ in 0..5_000 {
            let n = next() % 60;
            let html: String = (0..n).map(|_| PARTS[next() % PARTS.len()]).collect();
            let _ = convert(&html);
        }
    }
}
