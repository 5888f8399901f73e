//! The picker overlay: a framed panel with the query, how many rows match (and whether more
//! are being read), the rows around the chosen one — each marked when current, indented by
//! its depth, its label then its detail — and what the keys do.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::{Position, Rect};
use ratatui_core::text::{Line, Span};
use smith_render_terminal::Theme;
use smith_render_terminal::sanitize::sanitize;

use super::panel;
use crate::pickers::{Kind, Picker};

/// Draw `picker` over `area`; where the cursor goes (the query's end).
pub(super) fn draw(picker: &Picker, t: &Theme, area: Rect, buf: &mut Buffer) -> Option<Position> {
    let w = area.width.saturating_sub(2).min(110);
    if w < 24 || area.height < 8 {
        // Too small to show it, yet it takes the keys: say so, rather than nothing.
        let line = smith_render_terminal::cut_to_width(
            &format!(
                "{}: enlarge the terminal to see it (Esc closes it)",
                picker.title()
            ),
            usize::from(area.width),
        );
        buf.set_string(area.x, area.y, line, t.warning);
        return None;
    }
    let inner = usize::from(w - 2);
    // Borders, the query, the count, the keys.
    let room = usize::from(area.height.saturating_sub(2))
        .saturating_sub(5)
        .max(1);
    let shown = picker.shown();
    let chosen = picker.chosen.min(shown.len().saturating_sub(1));
    let first = chosen.saturating_sub(room.saturating_sub(1));
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(room + 3);
    lines.push(Line::from(vec![
        Span::styled(picker.prompt().to_owned(), t.heading),
        Span::styled(sanitize(&picker.query).into_owned(), t.user),
    ]));
    let count = match (&picker.error, picker.loading) {
        // The effects picker's error is a refused verdict, its rows as read.
        (Some(why), _) if picker.kind == Kind::Effects => Span::styled(
            smith_render_terminal::cut_to_width(&format!(" {why}"), inner),
            t.error,
        ),
        (Some(why), _) => Span::styled(
            smith_render_terminal::cut_to_width(&format!(" cannot read them: {why}"), inner),
            t.error,
        ),
        (None, true) => Span::styled(
            format!(
                " {} of {} so far · reading…",
                shown.len(),
                picker.rows.len()
            ),
            t.dim,
        ),
        (None, false) if picker.rows.is_empty() => {
            Span::styled(format!(" {}", empty_words(picker.kind)), t.warning)
        }
        (None, false) => Span::styled(format!(" {} of {}", shown.len(), picker.rows.len()), t.dim),
    };
    lines.push(Line::from(count));
    for (n, &i) in shown.iter().enumerate().skip(first).take(room) {
        let row = &picker.rows[i];
        let is_chosen = n == chosen;
        let mark = if row.marked { "● " } else { "  " };
        let indent = if row.depth == 0 {
            String::new()
        } else {
            format!("{}└ ", "  ".repeat(row.depth - 1))
        };
        // The chosen row is pointed at, so it shows without colour too.
        let pointer = if is_chosen { "›" } else { " " };
        let head = format!("{pointer}{mark}{indent}{}", sanitize(&row.label));
        let head = smith_render_terminal::cut_to_width(&head, inner);
        let head_w = Line::from(head.clone()).width();
        let tail = smith_render_terminal::cut_to_width(
            &format!("  {}", sanitize(&row.detail)),
            inner.saturating_sub(head_w),
        );
        let (head_style, tail_style) = if is_chosen {
            (t.selected, t.selected)
        } else if row.marked {
            (t.heading, t.dim)
        } else {
            (t.assistant, t.dim)
        };
        let mut spans = vec![
            Span::styled(head, head_style),
            Span::styled(tail, tail_style),
        ];
        if is_chosen {
            let used = head_w + Line::from(spans[1].content.to_string()).width();
            spans.push(Span::styled(
                " ".repeat(inner.saturating_sub(used)),
                t.selected,
            ));
        }
        lines.push(Line::from(spans));
    }
    while lines.len() < room + 2 {
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled(
        smith_render_terminal::cut_to_width(&format!(" {}", picker.keys()), inner),
        t.dim,
    )));
    panel(t, area, buf, picker.title(), &lines, 0);
    // The panel is centred: the query is its first inner line.
    let h = area
        .height
        .saturating_sub(2)
        .min(u16::try_from(lines.len() + 2).unwrap_or(u16::MAX));
    let x = area.x + (area.width - w) / 2;
    let y = area.y + (area.height - h) / 2;
    // The cursor where the query's is (Left and Right move it).
    let typed =
        u16::try_from(Line::from(sanitize(&picker.query[..picker.cursor()]).into_owned()).width())
            .unwrap_or(u16::MAX);
    let prompt = u16::try_from(Line::from(picker.prompt()).width()).unwrap_or(u16::MAX);
    Some(Position::new(
        (x + 1 + prompt).saturating_add(typed).min(x + w - 2),
        y + 1,
    ))
}

fn empty_words(kind: Kind) -> &'static str {
    match kind {
        Kind::Sessions { all: false } => {
            "no sessions were started in this directory · Tab lists every directory's"
        }
        Kind::Sessions { all: true } => "no sessions yet",
        Kind::Branches => "nothing sent yet: the session has one empty branch",
        Kind::Plugins => "no plugins",
        Kind::Themes => "no themes",
        Kind::Effects => "every effect has its verdict",
    }
}
