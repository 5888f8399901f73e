//! OSC 8 hyperlinks over what is drawn: every `http://` or `https://` URL a row shows is made
//! a link to itself, so a terminal that supports them opens it on a click even when the URL
//! was wrapped onto the next row (each part links to the whole). Written as one cell holding
//! the escape sequences and the URL's text, with its drawn width forced and the cells it
//! covers skipped, so the buffer's diff stays in step with the screen.

use std::num::NonZeroU16;

use ratatui_core::buffer::{Buffer, CellDiffOption};
use ratatui_core::layout::Rect;

/// Characters a URL does not end with (sentence punctuation and closing brackets after it).
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')', ']', '}', '>', '\'', '"'];

/// One URL's run of cells on a row: its first and last column and its text.
struct Run {
    y: u16,
    first: u16,
    last: u16,
    text: String,
}

/// Make every URL shown in `area` of `buf` an OSC 8 hyperlink; returns how many runs were
/// linked. A URL that runs into the area's right edge continues with the first word of the
/// next row (after its indentation).
pub fn link(buf: &mut Buffer, area: Rect) -> usize {
    let mut runs: Vec<(Run, String)> = Vec::new();
    for y in area.top()..area.bottom() {
        let mut x = area.left();
        while x < area.right() {
            let Some(run) = url_at(buf, area, x, y) else {
                x += 1;
                continue;
            };
            x = run.last + 1;
            let mut target = run.text.clone();
            // Wrapped: the next row's first word carries on.
            let mut parts = Vec::new();
            let (mut row, mut end) = (y, run.last);
            while end + 1 == area.right() && row + 1 < area.bottom() {
                row += 1;
                let Some(more) = continuation(buf, area, row) else {
                    break;
                };
                target.push_str(&more.text);
                end = more.last;
                parts.push(more);
            }
            // Each part links to the whole URL.
            runs.extend(parts.into_iter().map(|p| (p, target.clone())));
            runs.push((run, target));
        }
    }
    // A continuation row also scanned as a row of its own: linked once.
    runs.sort_by_key(|(r, _)| (r.y, r.first));
    runs.dedup_by_key(|(r, _)| (r.y, r.first));
    for (run, target) in &runs {
        write(buf, run, target);
    }
    runs.len()
}

/// The URL starting at column `x` of row `y`, if one does.
fn url_at(buf: &Buffer, area: Rect, x: u16, y: u16) -> Option<Run> {
    let starts = ["https://", "http://"];
    let mut text = String::new();
    let mut last = x;
    for cx in x..area.right() {
        let symbol = buf[(cx, y)].symbol();
        if symbol.is_empty() || symbol.chars().any(char::is_whitespace) {
            break;
        }
        if text.is_empty() && !starts.iter().any(|s| s.starts_with(symbol)) {
            return None;
        }
        text.push_str(symbol);
        last = cx;
        if text.len() <= 8
            && !starts
                .iter()
                .any(|s| s.starts_with(&text) || text.starts_with(s))
        {
            return None;
        }
    }
    if !starts.iter().any(|s| text.starts_with(s)) {
        return None;
    }
    // The column before must not be part of a word (`xhttps://` is not a URL).
    if x > area.left()
        && !buf[(x - 1, y)]
            .symbol()
            .chars()
            .all(|c| c.is_whitespace() || "([<'\"".contains(c))
    {
        return None;
    }
    trim(Run {
        y,
        first: x,
        last,
        text,
    })
}

/// The first word of row `y` (after leading spaces) as a URL's continuation.
fn continuation(buf: &Buffer, area: Rect, y: u16) -> Option<Run> {
    let first = (area.left()..area.right()).find(|&x| buf[(x, y)].symbol() != " ")?;
    let mut text = String::new();
    let mut last = first;
    for x in first..area.right() {
        let symbol = buf[(x, y)].symbol();
        if symbol.is_empty() || symbol.chars().any(char::is_whitespace) {
            break;
        }
        text.push_str(symbol);
        last = x;
    }
    trim(Run {
        y,
        first,
        last,
        text,
    })
}

/// `run` without the punctuation that follows a URL in prose.
fn trim(mut run: Run) -> Option<Run> {
    while run.text.ends_with(TRAILING) && run.last > run.first {
        run.text.pop();
        run.last -= 1;
    }
    (!run.text.is_empty() && run.text.is_ascii()).then_some(run)
}

/// Write `run` as a link to `target`.
fn write(buf: &mut Buffer, run: &Run, target: &str) {
    // Only printable ASCII reaches the escape sequence (the text is drawn, so sanitized, and
    // a URL run is ASCII by `trim`).
    if target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return;
    }
    let Some(width) = NonZeroU16::new(run.last - run.first + 1) else {
        return;
    };
    let cell = &mut buf[(run.first, run.y)];
    cell.set_symbol(&format!("\x1b]8;;{target}\x1b\\{}\x1b]8;;\x1b\\", run.text));
    cell.set_diff_option(CellDiffOption::ForcedWidth(width));
    for x in run.first + 1..=run.last {
        buf[(x, run.y)].set_diff_option(CellDiffOption::Skip);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui_core::style::Style;

    fn row_symbols(buf: &Buffer, y: u16) -> Vec<String> {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect()
    }

    #[test]
    fn urls_become_links_to_themselves_without_their_trailing_punctuation() {
        let area = Rect::new(0, 0, 40, 2);
        let mut buf = Buffer::empty(area);
        buf.set_string(
            0,
            0,
            "see https://example.com/a, or xhttps://no",
            Style::new(),
        );
        assert_eq!(link(&mut buf, area), 1);
        let cells = row_symbols(&buf, 0);
        assert_eq!(
            cells[4],
            "\x1b]8;;https://example.com/a\x1b\\https://example.com/a\x1b]8;;\x1b\\"
        );
        assert_eq!(
            buf[(4, 0)].diff_option,
            CellDiffOption::ForcedWidth(NonZeroU16::new(21).unwrap())
        );
        assert_eq!(buf[(5, 0)].diff_option, CellDiffOption::Skip);
        // The comma after it is its own cell, untouched.
        assert_eq!(cells[25], ",");
        assert_eq!(buf[(25, 0)].diff_option, CellDiffOption::None);
    }

    #[test]
    fn a_url_wrapped_onto_the_next_row_links_both_parts_to_the_whole() {
        let area = Rect::new(0, 0, 12, 2);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, "go https://e", Style::new());
        buf.set_string(0, 1, "  xample.com", Style::new());
        assert_eq!(link(&mut buf, area), 2);
        let whole = "https://example.com";
        assert!(
            buf[(3, 0)]
                .symbol()
                .starts_with(&format!("\x1b]8;;{whole}\x1b\\https://e"))
        );
        assert!(
            buf[(2, 1)]
                .symbol()
                .starts_with(&format!("\x1b]8;;{whole}\x1b\\xample.com"))
        );
    }
}
