//! The status line: the model, what the work is doing, cost, context use, the session and its
//! access mode — read-only observation shown so it cannot be missed.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::text::{Line, Span};
use ratatui_core::widgets::Widget;
use smith_ui_intents::Access;

use crate::Theme;

/// What the status line shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    /// The model (`provider/model`) or selection.
    pub model: String,
    /// What the work is doing (`idle`, `round 2 · streaming`, `running bash`).
    pub state: String,
    /// The session's cost so far, in US dollars; `None` when unknown.
    pub cost_usd: Option<f64>,
    /// Context tokens used and the model's limit, when known.
    pub context: Option<(u64, Option<u64>)>,
    /// The session id (shown shortened).
    pub session: String,
    /// How the session is held.
    pub access: Option<Access>,
    /// Inputs queued for the running work.
    pub queued: usize,
    /// Programs run with no OS sandbox (`sandbox.mode` `full-access`): shown so it cannot be
    /// missed.
    pub unconfined: bool,
    /// The permission mode the next run uses (`plan`, `ask`, `auto-edit`, `auto`), when known.
    pub permission_mode: Option<String>,
    /// The input's mode where it has modes (vi's `NORMAL`, `INSERT`), shown first.
    pub input_mode: Option<String>,
}

/// Draws a [`Status`] into one line.
#[derive(Debug)]
pub struct StatusLine<'a> {
    /// What to show.
    pub status: &'a Status,
    /// How.
    pub theme: &'a Theme,
}

impl Widget for StatusLine<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.status;
        let t = self.theme;
        buf.set_style(area, t.status);
        let mut left = vec![format!(" {}", s.model), s.state.clone()];
        if let Some(mode) = &s.input_mode {
            left[0] = format!(" -- {mode} -- ·{}", left[0]);
        }
        if let Some(mode) = &s.permission_mode {
            left.push(format!("mode {mode}"));
        }
        if s.queued > 0 {
            left.push(format!("{} queued", s.queued));
        }
        if let Some(cost) = s.cost_usd {
            left.push(format!("${cost:.4}"));
        }
        if let Some((used, limit)) = s.context {
            left.push(match limit {
                Some(l) if l > 0 => format!("ctx {}%", used.saturating_mul(100) / l),
                _ => format!("ctx {used} tok"),
            });
        }
        let session: String = s.session.chars().take(13).collect();
        // The right end: the session, and the alerts (read-only access, no sandbox), which
        // always show; the left is cut last.
        let right = match (s.access, s.unconfined) {
            (Some(Access::Observer), _) => Some(Span::styled(" read-only ", t.status_alert)),
            (_, true) => Some(Span::styled(" no sandbox ", t.status_alert)),
            _ => None,
        };
        let mut session_span = Span::styled(format!(" {session} "), t.status);
        let width = usize::from(area.width);
        let left = left.join(" · ");
        let alert_w = right.as_ref().map_or(0, Span::width);
        // Narrow, the session id goes first: the state, cost and context matter more.
        if unicode_width::UnicodeWidthStr::width(left.as_str()) + 1 + session_span.width() + alert_w
            > width
        {
            session_span = Span::raw("");
        }
        let right_w = session_span.width() + alert_w;
        let left = crate::cut_to_width(&left, width.saturating_sub(right_w + 1));
        let mut spans = vec![Span::styled(left, t.status)];
        let used: usize = spans.iter().map(Span::width).sum();
        let gap = width.saturating_sub(used + right_w);
        spans.push(Span::styled(" ".repeat(gap), t.status));
        spans.push(session_span);
        spans.extend(right);
        buf.set_line(area.x, area.y, &Line::from(spans), area.width);
    }
}
