//! HTML to Markdown for the model to read, in one pass over the tokens of `html5gum` (the
//! WHATWG tokenizer): no document tree is built, so the time and memory are those of the
//! tokenizer and the output (issue 61: a 1 MB page within 50 ms of the server's own time; on
//! the bench page, natively, this takes ~11 ms where the converters that build a tree took
//! 47–98 ms: `htmd`, `mdka`, `html-to-markdown-rs`).
//!
//! What a tree builder would do for the output is done with a small stack of the open
//! elements that change it (lists, list items, quotes, preformatted text, links, emphasis,
//! headings, tables, and the skipped elements whose content is not the page's text): an end
//! tag closes the nearest open element of its name and every element opened inside it (inside
//! a skipped element, only up to it), an end tag of no open element is ignored, and the
//! implied ends that matter (a list item or a table cell or row starting while one is open,
//! `<body>` or content ending the head) are applied. Text is collapsed as a browser shows it
//! (runs of white space become one space; `<pre>` keeps them); character references are
//! decoded by the tokenizer; `<script>`, `<style>` and the other raw-text elements are
//! tokenized as raw text and skipped.
//!
//! Opening markers (`- `, `## `, `**`, `[`) wait for their element's first content: an element
//! with none (an icon's link, an empty list item) writes nothing, a space before the content
//! goes before the marker, and the breaks a block inside a list item asks for do not split
//! the item from its marker.
//!
//! Markdown written: `#`–`######` headings, paragraphs, `**strong**`, `*emphasis*`,
//! `` `code` ``, `~~deleted~~`, fenced code blocks (the language from a `language-*` class),
//! `[links](href)`, `![images](src)` with alt text, `-` and `1.` lists (nested by
//! indentation), `>` quotes, tables as pipe tables (the first row as the header; a table inside
//! a cell flattened into it), `---` rules, line breaks.

use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Span, Tokenizer};

mod elements;
#[cfg(test)]
mod tests;

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
    b"form",
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
/// (their content is still converted, without their Markdown). It bounds the work each tag
/// and each line costs.
const MAX_OPEN: usize = 64;

/// The longest line prefix written (quotes' `> ` and list indentation), in bytes: deeper
/// nesting is not indented further, so a deeply nested page cannot multiply its size.
const MAX_PREFIX: usize = 32;

/// The most Markdown written, in bytes; past it the rest of the page is not converted.
pub(crate) const MAX_OUTPUT: usize = 8 << 20;

/// Where an element's opening marker went: still in [`Writer::pending`] at byte `at` while
/// [`Writer::flushes`] is `flushes`, else written.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Marked {
    flushes: u64,
    at: usize,
}

/// An open element that changes the output.
#[derive(PartialEq, Eq)]
enum Open {
    /// A skipped element (its name is in [`SKIPPED`]): nothing inside it is shown.
    Skipped(&'static [u8]),
    /// An element marked as not shown (`hidden`, `aria-hidden="true"`,
    /// `role="navigation"`), by its name: nothing inside it is shown either.
    Hidden(Vec<u8>),
    /// `<ul>` (`None`) or `<ol>` (`Some(next number)`).
    List(Option<u64>),
    /// A list item: the width of its marker, by which its continuation lines are indented.
    Item(usize, Marked),
    /// `<blockquote>` and its `> ` (the first line's; the following lines' are their prefix).
    Quote(Marked),
    Pre,
    /// `<a>` and its target (none: its text is written without the link).
    Link(Option<String>, Marked),
    /// `<strong>`/`<b>` (`"**"`), `<em>`/`<i>` (`"*"`), `<code>` (`` "`" ``), `<del>`/`<s>`
    /// (`"~~"`) and its marker.
    Span(&'static str, Marked),
    Heading(Marked),
    /// A table: rows written so far.
    Table(usize),
    /// A table row: cells written so far.
    Row(usize),
    Cell,
    /// A table, row or cell inside a cell: flattened into it (its end a space).
    Inert(&'static [u8]),
}

impl Open {
    /// Whether an end tag named `name` closes this element.
    fn closed_by(&self, name: &[u8]) -> bool {
        match *self {
            Open::Skipped(tag) | Open::Inert(tag) => tag == name,
            Open::Hidden(ref tag) => tag == name,
            Open::List(None) => name == b"ul" || name == b"menu",
            Open::List(Some(_)) => name == b"ol",
            Open::Item(..) => name == b"li",
            Open::Quote(_) => name == b"blockquote",
            Open::Pre => name == b"pre",
            Open::Link(..) => name == b"a",
            Open::Span(marker, _) => span_marker(name) == Some(marker),
            Open::Heading(_) => heading_level(name).is_some(),
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

/// The language a `class` attribute names (`language-rust`, `lang-rust`).
fn language(class: Option<&str>) -> Option<&str> {
    class?
        .split_whitespace()
        .find_map(|c| c.strip_prefix("language-").or(c.strip_prefix("lang-")))
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
    /// `type` (an `<input>`'s).
    kind: Option<String>,
    /// `start` (an `<ol>`'s first number).
    start: Option<String>,
    /// `checked` is present (a checkbox's).
    checked: bool,
    /// It ended with `/>` (honoured for SVG and MathML, whose elements may be empty).
    self_closing: bool,
    /// It is not shown: `hidden`, `aria-hidden="true"`, or `role="navigation"`.
    hidden: bool,
}

impl Tag {
    fn clear(&mut self) {
        self.name.clear();
        self.attribute.clear();
        self.href = None;
        self.src = None;
        self.alt = None;
        self.class = None;
        self.kind = None;
        self.start = None;
        self.checked = false;
        self.self_closing = false;
        self.hidden = false;
    }

    /// The value of the attribute just named (the first of duplicates counts, as in HTML).
    fn value(&mut self, value: &[u8]) {
        let slot = match self.attribute.as_slice() {
            b"aria-hidden" => {
                self.hidden |= value.eq_ignore_ascii_case(b"true");
                return;
            }
            b"role" => {
                self.hidden |= value.eq_ignore_ascii_case(b"navigation");
                return;
            }
            b"href" => &mut self.href,
            b"src" => &mut self.src,
            b"alt" => &mut self.alt,
            b"class" => &mut self.class,
            b"type" => &mut self.kind,
            b"start" => &mut self.start,
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
    /// Newlines owed before the next content: 1 a line break, 2 a paragraph break.
    newlines: u8,
    /// Newlines at the end of the output since its last content (a `<br>`'s, a break's).
    trailing: u8,
    /// A space owed before the next content on this line.
    space: bool,
    /// Only the line's prefix is on the current line: white space is not written.
    line_start: bool,
    /// Opening markers waiting for their element's first content.
    pending: String,
    /// Where the first list item's or heading's marker is in [`Writer::pending`]: breaks
    /// asked for before its content are not made (`<li><p>` is one item line).
    pending_block: Option<usize>,
    /// Times [`Writer::pending`] was written out.
    flushes: u64,
    /// A `<pre>`'s opening fence not written yet, with its language: written with its first
    /// text.
    fence: Option<String>,
    /// The state the tokenizer reads the content of the start tag just read in, when it is
    /// text (`html5gum::naive_next_state`; not for `<style/>` inside SVG, which is empty).
    switch: Option<html5gum::State>,
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
            trailing: 0,
            space: false,
            line_start: true,
            pending: String::new(),
            pending_block: None,
            flushes: 0,
            fence: None,
            switch: None,
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

    /// Inside inline code (`<code>`, `<kbd>`…), where markup writes no markers.
    fn in_code(&self) -> bool {
        self.inside(|o| matches!(o, Open::Span("`", _)))
    }

    /// Whether [`MAX_OUTPUT`] is reached: nothing more is written but the ends of what is open.
    fn full(&self) -> bool {
        self.out.len() >= MAX_OUTPUT
    }

    /// Ask for a break of `n` newlines before the next content (in a table cell: a space;
    /// while a list item's or heading's marker waits for its content: none).
    fn break_lines(&mut self, n: u8) {
        if self.in_cell() {
            self.space = true;
        } else if self.pending_block.is_none() {
            self.newlines = self.newlines.max(n);
        }
    }

    /// What every new line starts with: the quotes' `> ` and the list items' indentation
    /// (empty, without allocating, outside them).
    fn prefix(&self) -> String {
        let mut prefix = String::new();
        for open in &self.open {
            match open {
                Open::Quote(_) => prefix.push_str("> "),
                Open::Item(width, _) => prefix.extend(std::iter::repeat_n(' ', *width)),
                _ => {}
            }
            if prefix.len() >= MAX_PREFIX {
                prefix.truncate(MAX_PREFIX);
                break;
            }
        }
        prefix
    }

    /// End the line: trailing spaces go (a blank line inside a quote keeps its `>`), the next
    /// line gets its prefix.
    fn newline(&mut self) {
        let kept = self.out.trim_end_matches(' ').len();
        self.out.truncate(kept);
        self.out.push('\n');
        let prefix = self.prefix();
        self.out.push_str(&prefix);
        self.trailing = self.trailing.saturating_add(1);
        self.line_start = true;
    }

    /// Write the owed newlines (less those already at the end), then the owed space.
    fn settle(&mut self) {
        if self.newlines > 0 {
            let owed = self.newlines.saturating_sub(self.trailing);
            self.newlines = 0;
            self.space = false;
            // Nothing is written before the first content.
            if !self.out.is_empty() {
                for _ in 0..owed {
                    self.newline();
                }
            }
        }
        if self.space && !self.line_start {
            self.out.push(' ');
        }
        self.space = false;
    }

    /// Write what goes before content: the owed breaks and space, then the pending markers.
    fn flush(&mut self) {
        self.settle();
        if !self.pending.is_empty() {
            self.out.push_str(&self.pending);
            self.pending.clear();
            self.pending_block = None;
            self.flushes += 1;
        }
    }

    /// Write `content` (a word, an image), after what goes before it.
    fn content(&mut self, content: &str) {
        if self.full() {
            return;
        }
        self.flush();
        self.out.push_str(content);
        self.line_start = false;
        self.trailing = 0;
    }

    /// Add an opening marker to those waiting for content (`block`: a list item's or a
    /// heading's, which keeps breaks from splitting it from its content); where it went.
    fn pend(&mut self, marker: &str, block: bool) -> Marked {
        if block && self.pending_block.is_some() {
            // A block inside one that has no content yet (`<li><ul><li>`): the outer marker
            // is written on a line of its own.
            self.flush();
            self.newlines = 1;
        }
        if block {
            self.settle();
        }
        let at = self.pending.len();
        if block {
            self.pending_block = Some(at);
        }
        self.pending.push_str(marker);
        Marked {
            flushes: self.flushes,
            at,
        }
    }

    /// Whether the marker `marked` is still waiting (its element had no content): then it is
    /// taken back.
    fn unpend(&mut self, marked: Marked) -> bool {
        if marked.flushes != self.flushes {
            return false;
        }
        self.pending.truncate(marked.at);
        if self.pending_block.is_some_and(|b| b >= marked.at) {
            self.pending_block = None;
        }
        true
    }

    fn text(&mut self, text: &[u8]) {
        if self.skipping > 0 || self.full() {
            return;
        }
        let text = String::from_utf8_lossy(text);
        if self.in_pre() {
            self.pre_text(&text);
            return;
        }
        let escape = self.in_cell() && text.contains('|');
        for (i, word) in text.split(|c: char| c.is_ascii_whitespace()).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            if escape {
                // A `|` in a cell would end it.
                self.content(&word.replace('|', "\\|"));
            } else {
                self.content(word);
            }
        }
    }

    /// Text inside `<pre>`, as it is (each line with the prefix), after the opening fence.
    fn pre_text(&mut self, text: &str) {
        let text = match self.fence.take() {
            Some(language) => {
                self.flush();
                self.out.push_str("```");
                self.out.push_str(&language);
                self.newline();
                // The newline right after `<pre>` is not content (HTML's parsing rule).
                text.strip_prefix('\n').unwrap_or(text)
            }
            None => {
                self.flush();
                text
            }
        };
        let prefix = self.prefix();
        for (i, line) in text.split('\n').enumerate() {
            if self.full() {
                break;
            }
            if i > 0 {
                self.out.push('\n');
                self.out.push_str(&prefix);
            }
            self.out.push_str(line);
        }
        self.line_start = false;
        self.trailing = 0;
    }

    fn push(&mut self, open: Open) {
        if self.open.len() >= MAX_OPEN {
            self.untracked += 1;
            return;
        }
        match open {
            Open::Skipped(_) | Open::Hidden(_) => self.skipping += 1,
            Open::Pre => self.pres += 1,
            Open::Cell => self.cells += 1,
            _ => {}
        }
        self.open.push(open);
    }

    /// Close the top element: what its end writes.
    fn pop(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        match open {
            Open::Skipped(_) | Open::Hidden(_) => self.skipping -= 1,
            Open::List(_) => {
                let nested = self.inside(|o| matches!(o, Open::Item(..)));
                self.break_lines(if nested { 1 } else { 2 });
            }
            Open::Quote(marked) => {
                self.unpend(marked);
                self.break_lines(2);
            }
            Open::Heading(marked) => {
                self.unpend(marked);
                self.break_lines(2);
            }
            Open::Item(_, marked) => {
                self.unpend(marked);
                // A paragraph's end inside the item does not part it from the next one.
                self.newlines = self.newlines.min(1);
                self.break_lines(1);
            }
            Open::Pre => {
                self.pres -= 1;
                // An empty `<pre>` writes nothing.
                if self.fence.take().is_none() {
                    let line_start = format!("\n{}", self.prefix());
                    if !self.out.ends_with(&line_start) {
                        self.out.push_str(&line_start);
                    }
                    self.out.push_str("```");
                    self.line_start = false;
                    self.trailing = 0;
                }
                self.break_lines(2);
            }
            Open::Link(href, marked) => {
                if let Some(href) = href
                    && !self.unpend(marked)
                {
                    self.out.push_str("](");
                    self.out.push_str(&href);
                    self.out.push(')');
                }
            }
            Open::Span(marker, marked) => {
                if !self.unpend(marked) {
                    self.out.push_str(marker);
                }
            }
            Open::Table(_) => self.break_lines(2),
            Open::Row(cells) => self.end_row(cells),
            Open::Cell => self.cells -= 1,
            Open::Inert(_) => self.space = true,
        }
    }

    /// A row of `cells` ends: its closing `|`, and after the table's first row the header's
    /// separator.
    fn end_row(&mut self, cells: usize) {
        if cells == 0 {
            return;
        }
        self.out.push_str(" |");
        let first = match self.open.last_mut() {
            Some(Open::Table(rows)) => {
                *rows += 1;
                *rows == 1
            }
            _ => false,
        };
        if first && !self.full() {
            self.newline();
            self.out.push('|');
            for _ in 0..cells {
                self.out.push_str(" --- |");
            }
            self.line_start = false;
            self.trailing = 0;
        }
        self.break_lines(1);
    }

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
}

impl Writer {
    fn event(&mut self, event: CallbackEvent<'_>) {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag.clear();
                self.tag.name.extend_from_slice(name);
            }
            CallbackEvent::AttributeName { name } => {
                self.tag.attribute.clear();
                self.tag.attribute.extend_from_slice(name);
                self.tag.checked |= name == b"checked";
                self.tag.hidden |= name == b"hidden";
            }
            CallbackEvent::AttributeValue { value } => self.tag.value(value),
            CallbackEvent::CloseStartTag { self_closing } => {
                self.tag.self_closing = self_closing;
                self.start();
            }
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
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    let mut writer = Writer::new(html.len() / 2);
    {
        // A start tag whose content is text (a script's, a style's) hands the tokenizer the
        // state to read it in.
        let emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            writer.event(event);
            writer.switch.take()
        });
        let mut tokenizer = Tokenizer::new_with_emitter(html, emitter);
        while let Some(Ok(state)) = tokenizer.next() {
            tokenizer.set_state(state);
        }
    }
    writer.finish()
}

/// `text` — an element's text as the page has it, a `<title>`'s — with its character
/// references decoded as the tokenizer reads a title (RCDATA: no tags inside).
pub(crate) fn decode(text: &str) -> String {
    let mut tokenizer = Tokenizer::new(text);
    // With no start tag before, no end tag ends the text.
    tokenizer.set_state(html5gum::State::RcData);
    let mut out = String::with_capacity(text.len());
    for token in tokenizer {
        if let Ok(html5gum::Token::String(s)) = token {
            out.push_str(&String::from_utf8_lossy(&s.value.0));
        }
    }
    out
}
