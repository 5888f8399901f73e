//! A question in place of the input: its prompt wrapped whole (scrolled when longer than its
//! room, with a marker saying what is above and below), then its choices, each on lines of its
//! own, the chosen one marked; a yes/no's keys; a text's line so far.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::{Position, Rect};
use ratatui_core::text::{Line, Span};
use smith_render_terminal::Theme;
use smith_render_terminal::sanitize::sanitize;
use smith_render_terminal::wrap::{Piece, wrap};

use crate::draw::{line, rows, unicode_width};
use crate::ui::Question;

/// A question's prompt lines, its answer lines, and how far the prompt is scrolled.
pub(crate) struct QuestionView<'a> {
    pub(crate) lines: &'a [Line<'static>],
    pub(crate) answer: &'a [Line<'static>],
    pub(crate) scroll: usize,
}

/// The prompt of `q`, each of its lines wrapped to `width` (after `? ` on the first).
pub(crate) fn question_lines(q: &Question, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let prompt = match q {
        Question::Confirm { prompt, .. }
        | Question::Select { prompt, .. }
        | Question::Text { prompt, .. } => prompt,
    };
    let mut out = Vec::new();
    for (i, text) in prompt.lines().enumerate() {
        let lead = if i == 0 { "? " } else { "  " };
        let piece = Piece::new(sanitize(text).into_owned(), t.warning);
        out.extend(wrap(
            &[piece],
            width,
            &[Span::styled(lead, t.warning)],
            &[Span::styled("  ", t.warning)],
        ));
    }
    out
}

/// What answers `q`, wrapped to `width`: each choice on its own lines (a long one — the rule
/// and file a lasting choice writes — shown whole), the chosen one marked; a yes/no's keys; a
/// text's line so far.
pub(crate) fn answer_lines(q: &Question, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let led = |lead: String, text: String| {
        wrap(
            &[Piece::new(text, t.user)],
            width,
            &[Span::styled(lead, t.user)],
            &[Span::styled("   ", t.user)],
        )
    };
    let one = |text: String| led(String::new(), text);
    match q {
        Question::Confirm { default, .. } => one(match default {
            Some(true) => "[Y/n] · Esc declines".to_owned(),
            Some(false) => "[y/N] · Esc declines".to_owned(),
            None => "[y/n] · Esc declines".to_owned(),
        }),
        Question::Select { options, at, .. } => options
            .iter()
            .enumerate()
            .flat_map(|(i, o)| {
                let mark = if i == *at { "▸" } else { " " };
                led(format!("{mark}{} ", i + 1), sanitize(o).into_owned())
            })
            .collect(),
        Question::Text { secret, text, .. } => {
            let shown = if *secret {
                "•".repeat(text.chars().count())
            } else {
                sanitize(text).into_owned()
            };
            one(format!("› {shown}"))
        }
    }
}

pub(crate) fn draw_question(
    q: &Question,
    shown: &QuestionView<'_>,
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
    cursor: &mut Option<Position>,
) {
    let answer_rows = shown.answer.len();
    let mut room = usize::from(area.height).saturating_sub(answer_rows);
    let total = shown.lines.len();
    let scrolled = total > room;
    if scrolled {
        // The last prompt row says what is above and below.
        room = room.saturating_sub(1);
    }
    let scroll = shown.scroll.min(total.saturating_sub(room));
    for (row, l) in shown.lines.iter().skip(scroll).take(room).enumerate() {
        buf.set_line(area.x, area.y + rows(row), l, area.width);
    }
    let mut y = area.y + rows(room.min(total));
    if scrolled {
        let below = total - (scroll + room).min(total);
        let text = format!(
            "  ↕ lines {}–{} of {total}{} · PgUp/PgDn scroll",
            scroll + 1,
            (scroll + room).min(total),
            if below > 0 {
                format!(", {below} more below")
            } else {
                String::new()
            }
        );
        line(buf, area, y, vec![Span::styled(text, t.dim)]);
        y += 1;
    }
    for l in shown.answer {
        buf.set_line(area.x, y, l, area.width);
        y += 1;
    }
    if let Question::Text { secret, text, .. } = q {
        let shown_text = if *secret {
            "•".repeat(text.chars().count())
        } else {
            sanitize(text).into_owned()
        };
        let w = unicode_width(&format!("› {shown_text}"));
        *cursor = Some(Position::new(
            area.x + w.min(area.width.saturating_sub(1)),
            y.saturating_sub(1),
        ));
    }
}
