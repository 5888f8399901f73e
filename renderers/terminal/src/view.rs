//! The transcript's visible window: the lines that fit an area, counted from the bottom, so
//! new output never moves a window scrolled up (spec: Terminal interface — "scrolling away from
//! the bottom does not jump on new output").

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::text::Line;
use ratatui_core::widgets::Widget;

/// Where the window is: following the newest line, or held at a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scroll {
    /// The bottom: new lines scroll into view.
    #[default]
    Follow,
    /// Held with line `top` (an index into the transcript's lines) at the top.
    Held {
        /// The first line shown.
        top: usize,
    },
}

impl Scroll {
    /// The first line shown of `total` in a window `height` lines tall.
    pub fn top(self, total: usize, height: usize) -> usize {
        let last_top = total.saturating_sub(height);
        match self {
            Self::Follow => last_top,
            Self::Held { top } => top.min(last_top),
        }
    }

    /// Moved by `delta` lines (negative: up), for `total` lines in `height`; moving to the
    /// bottom follows again.
    pub fn moved(self, delta: isize, total: usize, height: usize) -> Self {
        let last_top = total.saturating_sub(height);
        let top = self
            .top(total, height)
            .saturating_add_signed(delta)
            .min(last_top);
        if top >= last_top {
            Self::Follow
        } else {
            Self::Held { top }
        }
    }
}

/// Draws `lines` from `scroll` into an area.
#[derive(Debug)]
pub struct TranscriptView<'a> {
    /// Every line of the transcript at the area's width.
    pub lines: &'a [Line<'static>],
    /// Which of them are shown.
    pub scroll: Scroll,
}

impl Widget for TranscriptView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let height = usize::from(area.height);
        let top = self.scroll.top(self.lines.len(), height);
        for (row, line) in self.lines.iter().skip(top).take(height).enumerate() {
            let y = area.y + u16::try_from(row).unwrap_or(u16::MAX);
            buf.set_line(area.x, y, line, area.width);
        }
    }
}
