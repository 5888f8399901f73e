//! A Markdown table drawn as a table: columns as wide as their widest cell, narrowed (the
//! widest first) until the table fits the width, cell text wrapped inside its column, aligned
//! as the delimiter row says, ruled with box-drawing lines and the header set apart.

use pulldown_cmark::Alignment;
use ratatui_core::style::Style;
use ratatui_core::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

use crate::wrap::{Piece, wrap};

/// The narrowest a column is made before the table is given up as a table.
const NARROWEST: usize = 3;

/// One row: its cells, each the styled pieces of its text.
pub(crate) type Row = Vec<Vec<Piece>>;

/// `rows` (the first `header` of them the head) as lines at most `width` columns wide,
/// each starting with `lead` (a quote bar, a list indent); `None` when the columns cannot
/// fit even at their narrowest (the caller then shows the cells as text).
pub(crate) fn table_lines(
    rows: &[Row],
    aligns: &[Alignment],
    header: usize,
    width: usize,
    lead: &[Span<'static>],
    rule: Style,
) -> Option<Vec<Line<'static>>> {
    let columns = rows.iter().map(Vec::len).max()?.max(aligns.len());
    if columns == 0 {
        return None;
    }
    let lead_width: usize = lead.iter().map(Span::width).sum();
    // `│ a │ b │`: three columns of rule and padding per cell, one more at the end.
    let room = width.checked_sub(lead_width + 3 * columns + 1)?;
    let natural = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|cell| cell.iter().map(|p| p.text.width()).sum::<usize>())
            .max()
            .unwrap_or(0)
            .max(1)
    };
    let mut widths: Vec<usize> = (0..columns).map(natural).collect();
    while widths.iter().sum::<usize>() > room {
        let (widest, w) = widths.iter().copied().enumerate().max_by_key(|(_, w)| *w)?;
        if w <= NARROWEST {
            return None;
        }
        widths[widest] = w - 1;
    }
    let border = |left: &str, mid: &str, right: &str| {
        let mut text = left.to_owned();
        for (i, w) in widths.iter().enumerate() {
            text.push_str(&"─".repeat(w + 2));
            text.push_str(if i + 1 == columns { right } else { mid });
        }
        let mut spans = lead.to_vec();
        spans.push(Span::styled(text, rule));
        Line::from(spans)
    };
    let mut out = vec![border("┌", "┬", "┐")];
    for (r, row) in rows.iter().enumerate() {
        if r == header && header > 0 {
            out.push(border("├", "┼", "┤"));
        }
        // Each cell wrapped in its column; the row as tall as its tallest cell.
        let cells: Vec<Vec<Line<'static>>> = (0..columns)
            .map(|c| match row.get(c) {
                Some(pieces) if !pieces.is_empty() => wrap(
                    pieces,
                    u16::try_from(widths[c]).unwrap_or(u16::MAX),
                    &[],
                    &[],
                ),
                _ => vec![Line::default()],
            })
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for y in 0..height {
            let mut spans = lead.to_vec();
            spans.push(Span::styled("│", rule));
            for (c, lines) in cells.iter().enumerate() {
                let line = lines.get(y).cloned().unwrap_or_default();
                let free = widths[c].saturating_sub(line.width());
                let (before, after) = match aligns.get(c) {
                    Some(Alignment::Right) => (free, 0),
                    Some(Alignment::Center) => (free / 2, free - free / 2),
                    _ => (0, free),
                };
                spans.push(Span::raw(" ".repeat(before + 1)));
                spans.extend(line.spans);
                spans.push(Span::raw(" ".repeat(after + 1)));
                spans.push(Span::styled("│", rule));
            }
            out.push(Line::from(spans));
        }
    }
    out.push(border("└", "┴", "┘"));
    Some(out)
}
