//! What each tag does to the output: the start and end of the elements the converter tracks.

use super::{
    BLOCKS, HEAD_CONTENT, Open, SKIPPED, Tag, VOID, Writer, heading_level, language, span_marker,
};

/// Elements whose end tag may be left out (HTML ends them at the next of their kind or a
/// block): one marked hidden is not hidden here, or a missing end tag would hide the rest.
const IMPLIED_END: &[&[u8]] = &[
    b"p",
    b"li",
    b"dt",
    b"dd",
    b"tr",
    b"td",
    b"th",
    b"option",
    b"optgroup",
    b"thead",
    b"tbody",
    b"tfoot",
    b"colgroup",
    b"caption",
    b"rb",
    b"rt",
    b"rp",
    b"html",
    b"head",
    b"body",
];

/// Whether a link's classes say it is a heading's link to itself (`§`, `¶`, `#`), which
/// documentation generators add: rustdoc's `doc-anchor`, Sphinx's `headerlink`, the
/// `anchor`, `heading-anchor` and `header-anchor` of static site generators.
fn self_link(class: Option<&str>) -> bool {
    class.is_some_and(|c| {
        c.split_whitespace().any(|c| {
            matches!(
                c,
                "doc-anchor" | "headerlink" | "anchor" | "heading-anchor" | "header-anchor"
            )
        })
    })
}

impl Writer {
    /// The start tag just read ([`Writer::tag`]).
    pub(super) fn start(&mut self) {
        let tag = std::mem::take(&mut self.tag);
        let name = tag.name.as_slice();
        if !HEAD_CONTENT.contains(&name) {
            self.leave_head(name == b"body");
        }
        // `<svg/>`, `<math/>` and the empty elements inside them are empty (foreign content
        // honours `/>`; HTML's own elements do not).
        let empty = tag.self_closing && (name == b"svg" || name == b"math" || self.skipping > 0);
        if !empty {
            self.switch = html5gum::naive_next_state(name);
        }
        if let Some(skipped) = SKIPPED.iter().find(|s| **s == name) {
            if !empty {
                self.push(Open::Skipped(skipped));
            }
        } else if (tag.hidden || name == b"a" && self_link(tag.class.as_deref()))
            && !empty
            && !VOID.contains(&name)
            && !IMPLIED_END.contains(&name)
        {
            self.push(Open::Hidden(name.to_vec()));
        } else if self.skipping > 0 || self.full() {
            // Inside a skipped element only nested skipped elements are tracked; once the
            // output is full, nothing more is opened (a marker not written is not closed).
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
        match tag.name.as_slice() {
            b"br" if self.in_pre() => self.pre_text("\n"),
            b"br" if self.in_cell() => self.space = true,
            // Before the first content of an element with a marker, a break is not content.
            b"br" if !self.pending.is_empty() => {}
            b"br" => {
                // What is owed goes first, then the break itself (at most one blank line).
                self.settle();
                if self.trailing < 2 && !self.out.is_empty() {
                    self.newline();
                }
            }
            b"hr" => {
                self.break_lines(2);
                self.flush();
                self.out.push_str("---");
                self.line_start = false;
                self.trailing = 0;
                self.break_lines(2);
            }
            // A task list's box.
            b"input"
                if tag
                    .kind
                    .as_deref()
                    .is_some_and(|k| k.eq_ignore_ascii_case("checkbox")) =>
            {
                self.content(if tag.checked { "[x]" } else { "[ ]" });
            }
            b"img" => {
                let alt = tag.alt.as_deref().map(str::trim).unwrap_or_default();
                if alt.is_empty() {
                    return;
                }
                let alt = alt.split_whitespace().collect::<Vec<_>>().join(" ");
                match tag.src.as_deref() {
                    Some(src) if !self.in_pre() && !src.starts_with("data:") => {
                        self.content(&format!("![{alt}]({src})"));
                    }
                    _ => self.text(alt.as_bytes()),
                }
            }
            _ => {}
        }
    }

    /// A start tag that may open something.
    fn element(&mut self, tag: &Tag) {
        let name = tag.name.as_slice();
        if let Some(level) = heading_level(name) {
            self.break_lines(2);
            let marked = self.pend(&format!("{} ", &"######"[..level]), true);
            self.push(Open::Heading(marked));
        } else if let Some(marker) = span_marker(name) {
            if self.in_code() {
                // Inside code, markup is not Markdown: `<code>let <b>x</b></code>`.
                return;
            }
            if self.in_pre() {
                // Preformatted text has no emphasis; `<pre><code class="language-rust">`
                // names the fence's language.
                if let (Some(fence), Some(language)) =
                    (self.fence.as_mut(), language(tag.class.as_deref()))
                    && fence.is_empty()
                {
                    fence.push_str(language);
                }
                return;
            }
            let marked = self.pend(marker, false);
            self.push(Open::Span(marker, marked));
        } else {
            match name {
                b"a" => self.link(tag),
                b"ul" | b"menu" | b"ol" => {
                    let nested = self.inside(|o| matches!(o, Open::Item(..)));
                    self.break_lines(if nested { 1 } else { 2 });
                    let first = tag.start.as_deref().and_then(|s| s.trim().parse().ok());
                    self.push(Open::List((name == b"ol").then(|| first.unwrap_or(1))));
                }
                b"li" => self.item(),
                b"blockquote" => {
                    // The break before the quote is not part of it (its lines would get the
                    // quote's prefix): written first. The first line's `> ` waits for content.
                    self.break_lines(2);
                    self.settle();
                    let marked = self.pend("> ", false);
                    self.push(Open::Quote(marked));
                }
                // A code block cannot sit in a pipe table's row: its text joins the cell.
                b"pre" if self.in_cell() => self.space = true,
                b"pre" => {
                    self.break_lines(2);
                    self.fence = Some(language(tag.class.as_deref()).unwrap_or("").to_owned());
                    self.push(Open::Pre);
                }
                b"table" | b"tr" | b"td" | b"th" if self.in_inner_table(name) => {
                    // A table inside a cell: flattened into the cell.
                    self.space = true;
                    let name = match name {
                        b"table" => &b"table"[..],
                        b"tr" => b"tr",
                        b"td" => b"td",
                        _ => b"th",
                    };
                    self.push(Open::Inert(name));
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

    /// Whether table tag `name` belongs to a table inside a cell (a `<table>` in a cell, or a
    /// row or cell of such a table) rather than to the cell's own table.
    fn in_inner_table(&self, name: &[u8]) -> bool {
        if !self.in_cell() {
            return false;
        }
        name == b"table"
            || self
                .nearest(|o| *o == Open::Inert(b"table"), |o| *o == Open::Cell)
                .is_some()
    }

    /// `<a>`: a link inside a link is not HTML, so the outer one ends; inside `<pre>` only its
    /// text is written.
    fn link(&mut self, tag: &Tag) {
        if let Some(at) = self.nearest(|o| matches!(o, Open::Link(..)), |_| false) {
            self.close_to(at);
        }
        let href = tag
            .href
            .as_deref()
            .map(str::trim)
            .filter(|h| {
                !h.is_empty() && !h.starts_with("javascript:") && !self.in_pre() && !self.in_code()
            })
            .map(str::to_owned);
        let marked = self.pend(if href.is_some() { "[" } else { "" }, false);
        self.push(Open::Link(href, marked));
    }

    /// `<li>`: an open item of the same list ends; its marker.
    fn item(&mut self) {
        let is_list = |o: &Open| matches!(o, Open::List(_));
        if let Some(at) = self.nearest(|o| matches!(o, Open::Item(..)), is_list) {
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
        let marked = self.pend(&marker, true);
        self.push(Open::Item(marker.len(), marked));
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
            self.flush();
            self.out.push_str("| ");
        } else {
            self.space = false;
            self.out.push_str(" | ");
        }
        self.line_start = true;
        self.trailing = 0;
        self.push(Open::Cell);
    }

    /// An end tag: the nearest open element of its name closes, with all opened inside it —
    /// inside a skipped element, only up to it (its own tags were not tracked).
    pub(super) fn end(&mut self, name: &[u8]) {
        let skipping = self.skipping > 0;
        let found = self.nearest(
            |o| o.closed_by(name),
            |o| skipping && matches!(o, Open::Skipped(_) | Open::Hidden(_)),
        );
        if let Some(at) = found {
            self.close_to(at);
        } else if self.untracked > 0 {
            self.untracked -= 1;
        } else if !skipping && (BLOCKS.contains(&name) || name == b"dd" || name == b"dt") {
            self.break_lines(2);
        }
    }
}
