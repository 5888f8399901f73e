//! One frame: the observer banner, the transcript window, queued input, the question or the
//! completion choices, the input, the status line — and the help overlay over them. Widgets
//! are `smith-render-terminal`'s; this file is the layout. The transcript's lines are cached
//! per block by its window, so a frame re-wraps only the blocks that changed. Over the
//! transcript: the "new output below" marker, the selected entry, search matches; over
//! everything, the top overlay (help, entry detail).

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::{Position, Rect};
use ratatui_core::style::Style;
use ratatui_core::text::{Line, Span};
use ratatui_core::widgets::Widget;
use smith_render_terminal::Theme;
use smith_render_terminal::input::InputView;
use smith_render_terminal::sanitize::sanitize;
use smith_render_terminal::status::StatusLine;
use smith_render_terminal::transcript::detail_lines;
use smith_render_terminal::wrap::{Piece, wrap};
use smith_store::holder::Holder;

use crate::keys::{ACTIONS, Action};
use crate::layers::Layer;
use crate::question_view::{QuestionView, answer_lines, draw_question, question_lines};
use crate::ui::{Held, Ui};

/// The writer as a person reads it: `pid 42 on box (tui, since 12:01:33 UTC)`.
pub(crate) fn holder_words(holder: Option<&Holder>) -> String {
    match holder {
        Some(h) => {
            let secs = h.started_ms.div_euclid(1000);
            let (hh, mm, ss) = (secs / 3600 % 24, secs / 60 % 60, secs % 60);
            format!(
                "pid {} on {} ({}, since {hh:02}:{mm:02}:{ss:02} UTC)",
                h.pid,
                sanitize(&h.host),
                sanitize(&h.frontend)
            )
        }
        None => "another Smith process".into(),
    }
}

pub(crate) fn rows(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

pub(crate) fn line(buf: &mut Buffer, area: Rect, y: u16, spans: Vec<Span<'_>>) {
    if y < area.y + area.height {
        buf.set_line(area.x, y, &Line::from(spans), area.width);
    }
}

/// Draw `ui` into `buf` (the whole `area`); where the cursor goes, if shown.
pub(crate) fn draw(ui: &mut Ui, area: Rect, buf: &mut Buffer) -> Option<Position> {
    let t = ui.theme.clone();
    let width = area.width;
    let (top, mut bottom) = draw_chrome(ui, &t, area, buf);
    // The input (at most a third of the screen), then what sits above it.
    let mut cursor = None;
    let question = ui.questions.front().cloned();
    // A question is shown whole, wrapped, in up to two thirds of the screen; the rest scrolls.
    let question_lines = question
        .as_ref()
        .map(|q| question_lines(q, &t, width))
        .unwrap_or_default();
    let mut answer_lines = question
        .as_ref()
        .map(|q| answer_lines(q, &t, width))
        .unwrap_or_default();
    // Choices taller than the screen keep what fits (with a row of the prompt above them):
    // a question is never drawn as nothing.
    answer_lines.truncate(usize::from(bottom - top).saturating_sub(2).max(1));
    let question_room = usize::from((bottom - top) * 2 / 3)
        .saturating_sub(answer_lines.len())
        .max(2);
    // A prompt longer than its room gives one row to the marker saying where it is.
    let prompt_rows = if question_lines.len() > question_room {
        question_room
    } else {
        question_lines.len()
    };
    ui.question_page = question_room.saturating_sub(1).max(1);
    // Scrolled past the end (PgDn held down): back to the last page, so PgUp moves at once.
    let page = if question_lines.len() > question_room {
        question_room - 1
    } else {
        question_room
    };
    ui.question_scroll = ui
        .question_scroll
        .min(question_lines.len().saturating_sub(page));
    let input_h = if question.is_some() {
        rows(prompt_rows + answer_lines.len())
    } else {
        let view = InputView {
            editor: &ui.editor,
            placeholder: "",
            theme: &t,
        };
        view.height(width).min((bottom - top) / 3).max(1)
    };
    if bottom.saturating_sub(top) > input_h {
        bottom -= input_h;
        let input_area = Rect::new(area.x, bottom, width, input_h);
        match &question {
            Some(q) => {
                let shown = QuestionView {
                    lines: &question_lines,
                    answer: &answer_lines,
                    scroll: ui.question_scroll,
                };
                draw_question(q, &shown, &t, input_area, buf, &mut cursor);
            }
            None => {
                let placeholder = placeholder(ui);
                let view = InputView {
                    editor: &ui.editor,
                    placeholder: &placeholder,
                    theme: &t,
                };
                cursor = Some(view.cursor(input_area));
                view.render(input_area, buf);
            }
        }
    }
    let room = usize::from(bottom.saturating_sub(top) / 2)
        .saturating_sub(1)
        .max(1);
    let above = above::lines(ui, &t, width, room);
    let above_h = rows(above.len()).min(bottom.saturating_sub(top) / 2);
    bottom -= above_h;
    for (i, spans) in above.into_iter().take(usize::from(above_h)).enumerate() {
        line(buf, area, bottom + rows(i), spans);
    }
    // The transcript fills the rest.
    let transcript = Rect::new(area.x, top, width, bottom.saturating_sub(top));
    draw_transcript(ui, &t, transcript, buf);
    match ui.layers.last() {
        Some(Layer::Help { .. }) => {
            draw_help(ui, &t, area, buf);
            return None;
        }
        Some(Layer::Detail { .. }) => {
            draw_detail(ui, &t, area, buf);
            return None;
        }
        Some(Layer::Text { .. }) => {
            draw_text(ui, &t, area, buf);
            return None;
        }
        Some(Layer::Picker(picker)) => {
            return pickers::draw(picker, &t, area, buf);
        }
        _ => {}
    }
    cursor
}

/// The status line (at the bottom, or the top with layout `status-top`) and an observer's or
/// a replay's banner at the top: the rows left between them, `(top, bottom)`.
fn draw_chrome(ui: &Ui, t: &Theme, area: Rect, buf: &mut Buffer) -> (u16, u16) {
    let width = area.width;
    let mut top = area.y;
    let mut bottom = area.y + area.height;
    // The status line, at the bottom or (layout `status-top`) the top.
    if bottom > top {
        let y = if ui.layout == smith_app::product::wit::Layout::StatusTop {
            top += 1;
            top - 1
        } else {
            bottom -= 1;
            bottom
        };
        StatusLine {
            status: &ui.status,
            theme: t,
        }
        .render(Rect::new(area.x, y, width, 1), buf);
    }
    // The observer banner, at the top: who writes, and whether the view follows; or the
    // replay's.
    let banner = match &ui.held {
        Held::Observer {
            holder,
            follow,
            writer_gone,
        } => {
            let owner = if *writer_gone {
                "its writer closed the session (it stays read-only)".to_owned()
            } else {
                format!("written by {}", holder_words(holder.as_ref()))
            };
            Some(format!(
                " read-only · {owner} · follow-live {} ({})",
                if *follow { "on" } else { "off" },
                ui.keymap.keys_of(Action::ToggleFollow),
            ))
        }
        Held::Replay => Some(
            " replay · read-only · rebuilt from the session file: nothing runs, nothing is written"
                .to_owned(),
        ),
        Held::Writer => None,
    };
    if let Some(text) = banner
        && bottom > top
    {
        buf.set_style(Rect::new(area.x, top, width, 1), t.status_alert);
        line(
            buf,
            area,
            top,
            vec![Span::styled(
                smith_render_terminal::cut_to_width(&text, usize::from(width)),
                t.status_alert,
            )],
        );
        top += 1;
    }
    (top, bottom)
}

/// The transcript in `transcript`: the window's visible lines, a new session's welcome, the
/// selected entry marked, search matches highlighted, URLs linked, and the "new output
/// below" marker.
fn draw_transcript(ui: &mut Ui, t: &Theme, transcript: Rect, buf: &mut Buffer) {
    let width = transcript.width;
    ui.page = usize::from(transcript.height);
    ui.window.layout(t, width);
    ui.window.render(transcript, buf);
    if let Some(welcome) = ui.welcome.as_ref().filter(|_| ui.window.total() == 0) {
        welcome::draw(ui, welcome, t, transcript, buf);
    }
    if let Some(key) = ui.selected() {
        for (k, row, rows_) in ui.window.visible(ui.page) {
            if k == key {
                let y = transcript.y + self::rows(row);
                buf.set_style(
                    Rect::new(transcript.x, y, width, self::rows(rows_)),
                    t.selected,
                );
                // The bar marks the entry's rows in the margin, never over its text: a row
                // whose first cell holds text keeps it (the background still marks it).
                for y in y..y + self::rows(rows_) {
                    if let Some(cell) = buf.cell_mut(Position::new(transcript.x, y))
                        && cell.symbol() == " "
                    {
                        cell.set_symbol("▌");
                    }
                }
            }
        }
    }
    if let Some(needle) = ui.needle() {
        smith_render_terminal::search::highlight(buf, transcript, &needle, t.search_match);
    }
    if ui.hyperlinks {
        smith_render_terminal::links::link(buf, transcript);
    }
    if ui.window.unseen(ui.page) && transcript.height > 1 {
        let y = transcript.y + transcript.height - 1;
        let text = format!(
            " ↓ new output below · {} returns to the latest ",
            ui.keymap.keys_of(Action::Bottom)
        );
        let w = rows(Line::from(text.clone()).width()).min(width);
        let x = transcript.x + width.saturating_sub(w);
        buf.set_line(
            x,
            y,
            &Line::from(Span::styled(
                smith_render_terminal::cut_to_width(&text, usize::from(w)),
                t.status_alert,
            )),
            w,
        );
    }
}

/// A text overlay (a diff): its lines, scrollable, diff lines coloured.
fn draw_text(ui: &mut Ui, t: &Theme, area: Rect, buf: &mut Buffer) {
    let Some(Layer::Text {
        title,
        lines,
        scroll,
    }) = ui.layers.last_mut()
    else {
        return;
    };
    let shown: Vec<Line<'static>> = lines
        .iter()
        .map(|l| {
            let style = if l.starts_with("+++") || l.starts_with("---") || l.starts_with("diff ") {
                t.heading
            } else if l.starts_with('+') {
                t.diff_added
            } else if l.starts_with('-') {
                t.diff_removed
            } else if l.starts_with("@@") {
                t.tool
            } else {
                t.assistant
            };
            Line::from(Span::styled(sanitize(l).into_owned(), style))
        })
        .collect();
    *scroll = panel(t, area, buf, title, &shown, *scroll);
}

fn placeholder(ui: &Ui) -> String {
    if matches!(ui.held, Held::Observer { .. }) {
        return "read-only observer: submission is disabled".into();
    }
    if matches!(ui.held, Held::Replay) {
        return "replay: nothing runs and nothing is written; submission is disabled".into();
    }
    if let Some(why) = &ui.unprepared {
        return format!("no turn can run: {why}");
    }
    if ui.running.is_some() {
        return format!(
            "Enter queues a follow-up, {} a steer · Esc aborts",
            ui.keymap.keys_of(Action::Steer)
        );
    }
    let help = ui.keymap.keys_of(Action::Help);
    if help.is_empty() {
        "ask anything · @path attaches a file · / for commands".to_owned()
    } else {
        format!("ask anything · @path attaches a file · / for commands · {help} for keys")
    }
}

pub(crate) fn unicode_width(s: &str) -> u16 {
    rows(Line::from(s.to_owned()).width())
}

/// The help overlay's lines for an inner width of `width` columns: every action's keys in
/// a column as wide as the widest (at most a third of the width; longer key lists wrap in
/// it), its help text wrapped beside them; then every command with its usage, keys and
/// summary.
fn help_lines(ui: &Ui, t: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut rows_: Vec<(String, String)> = ACTIONS
        .iter()
        .map(|(a, help)| {
            let keys = ui.keymap.keys_of(*a);
            (
                if keys.is_empty() {
                    "—".to_owned()
                } else {
                    keys
                },
                (*help).to_owned(),
            )
        })
        .collect();
    if ui.vim.is_some() {
        rows_.push((
            "Vim mode".to_owned(),
            "on (tui.input-mode vim): Esc in insert mode goes to normal mode, where h j k l w b e 0 ^ $ gg G move, x X D C s S dd cc dw cw db d$ d0 edit, i a I A o O insert and u undoes; Esc in normal mode is the Esc above.".to_owned(),
        ));
    }
    rows_.push(("Mouse".to_owned(), crate::keys::MOUSE.to_owned()));
    rows_.push((String::new(), String::new()));
    rows_.push((
        "Commands".to_owned(),
        "type / to filter them, Enter runs one".to_owned(),
    ));
    for c in &ui.product.commands {
        let keys = ui.command_keys(c);
        let mut help = c.summary.clone();
        if !keys.is_empty() {
            help.push_str(&format!(" ({keys})"));
        }
        if !c.is_own() {
            help.push_str(&format!(" · {}", c.holder()));
        }
        rows_.push((c.usage(), help));
    }
    let widest = rows_
        .iter()
        .map(|(l, _)| Line::from(l.clone()).width())
        .max();
    let key_w = rows(widest.unwrap_or(0)).min(width / 3).max(1);
    let text_w = width.saturating_sub(key_w + 3).max(1);
    let mut out = Vec::new();
    for (label, help) in rows_ {
        let keys = wrap(&[Piece::new(label, t.tool)], key_w, &[], &[]);
        let help = wrap(&[Piece::new(help, t.assistant)], text_w, &[], &[]);
        for i in 0..keys.len().max(help.len()).max(1) {
            let mut spans = vec![Span::raw(" ")];
            let k = keys.get(i).cloned().unwrap_or_default();
            let pad = usize::from(key_w).saturating_sub(k.width()) + 2;
            spans.extend(k.spans);
            spans.push(Span::raw(" ".repeat(pad)));
            spans.extend(help.get(i).cloned().unwrap_or_default().spans);
            out.push(Line::from(spans));
        }
    }
    out
}

/// The help overlay: every binding of the key table in a framed panel.
fn draw_help(ui: &mut Ui, t: &Theme, area: Rect, buf: &mut Buffer) {
    let inner = area.width.saturating_sub(2).min(110).saturating_sub(2);
    let lines = help_lines(ui, t, inner);
    if let Some(Layer::Help { scroll }) = ui.layers.last_mut() {
        *scroll = panel(t, area, buf, "Keys and commands", &lines, *scroll);
    }
}

/// The entry detail overlay: the selected entry in full (a tool's whole output).
fn draw_detail(ui: &mut Ui, t: &Theme, area: Rect, buf: &mut Buffer) {
    let Some(&Layer::Detail { key, scroll }) = ui.layers.last() else {
        return;
    };
    let inner = area.width.saturating_sub(2).min(110).saturating_sub(2);
    let lines = match ui.window.block(key) {
        Some(block) => detail_lines(block, t, inner),
        None => vec![Line::from("this entry is no longer loaded; Esc closes")],
    };
    let shown = panel(t, area, buf, "Entry · y copies", &lines, scroll);
    if let Some(Layer::Detail { scroll, .. }) = ui.layers.last_mut() {
        *scroll = shown;
    }
}

/// A framed panel over the middle of `area` (at most 110 columns) showing `lines` from
/// `scroll` (returned clamped), titled `name` with the range shown when they do not fit.
pub(crate) fn panel(
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
    name: &str,
    lines: &[Line<'static>],
    scroll: usize,
) -> usize {
    let w = area.width.saturating_sub(2).min(110);
    if w < 24 || area.height < 5 {
        return scroll;
    }
    let inner_w = w - 2;
    let h = area.height.saturating_sub(2).min(rows(lines.len() + 2));
    let x = area.x + (area.width - w) / 2;
    let y = area.y + (area.height - h) / 2;
    let panel = Rect::new(x, y, w, h);
    buf.set_style(panel, Style::default());
    for row in panel.rows() {
        for col in row.columns() {
            if let Some(cell) = buf.cell_mut(Position::new(col.x, col.y)) {
                cell.reset();
            }
        }
    }
    let visible = usize::from(h - 2);
    let most = lines.len().saturating_sub(visible);
    let scroll = scroll.min(most);
    let title = if most > 0 {
        format!(
            " {name} {}-{} of {} · ↑↓ PgUp PgDn scroll · Esc closes ",
            scroll + 1,
            (scroll + visible).min(lines.len()),
            lines.len()
        )
    } else {
        format!(" {name} · Esc closes ")
    };
    let rule = |left: &str, right: &str, title: &str| {
        let title = smith_render_terminal::cut_to_width(title, usize::from(inner_w));
        let fill = usize::from(inner_w).saturating_sub(Line::from(title.clone()).width());
        Line::from(vec![
            Span::styled(left.to_owned(), t.dim),
            Span::styled(title, t.heading),
            Span::styled(format!("{}{right}", "─".repeat(fill)), t.dim),
        ])
    };
    buf.set_line(x, y, &rule("┌", "┐", &title), w);
    for (i, l) in lines.iter().skip(scroll).take(visible).enumerate() {
        let row = y + 1 + rows(i);
        buf.set_line(x, row, &Line::from(Span::styled("│", t.dim)), 1);
        buf.set_line(x + 1, row, l, inner_w);
        buf.set_line(x + w - 1, row, &Line::from(Span::styled("│", t.dim)), 1);
    }
    for row in y + 1 + rows(visible.min(lines.len()))..y + h - 1 {
        buf.set_line(x, row, &Line::from(Span::styled("│", t.dim)), 1);
        buf.set_line(x + w - 1, row, &Line::from(Span::styled("│", t.dim)), 1);
    }
    buf.set_line(x, y + h - 1, &rule("└", "┘", ""), w);
    scroll
}

mod above;
mod pickers;
#[cfg(test)]
mod tests;
mod welcome;
