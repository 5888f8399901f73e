//! Themes as data: every style a widget draws with, by role. [`Theme::default`] is the dark
//! theme; [`Theme::plain`] uses no colour (for `NO_COLOR` and terminals without colour), only
//! bold, italic, underline and reverse.

use ratatui_core::style::{Color, Modifier, Style};

/// The styles widgets draw with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The user's messages.
    pub user: Style,
    /// The label before a user message (`›`).
    pub user_label: Style,
    /// Assistant text.
    pub assistant: Style,
    /// Thinking (collapsed or shown).
    pub thinking: Style,
    /// Markdown headings.
    pub heading: Style,
    /// Inline code.
    pub code_inline: Style,
    /// Code block lines.
    pub code_block: Style,
    /// A code block's language label.
    pub code_label: Style,
    /// Block quotes and list bullets.
    pub quote: Style,
    /// Links.
    pub link: Style,
    /// A tool block's heading (its name and arguments).
    pub tool: Style,
    /// A tool's output preview.
    pub tool_output: Style,
    /// A failed tool's heading and output.
    pub tool_error: Style,
    /// Added lines of a diff.
    pub diff_added: Style,
    /// Removed lines of a diff.
    pub diff_removed: Style,
    /// Informational notices.
    pub notice: Style,
    /// Warnings.
    pub warning: Style,
    /// Errors.
    pub error: Style,
    /// The status line.
    pub status: Style,
    /// An emphasized part of the status line (the access mode when read-only).
    pub status_alert: Style,
    /// Dim secondary text (times, counts, hints).
    pub dim: Style,
    /// The selected entry's rows.
    pub selected: Style,
    /// A search match.
    pub search_match: Style,
}

impl Default for Theme {
    fn default() -> Self {
        let fg = |c| Style::new().fg(c);
        Self {
            user: fg(Color::White).add_modifier(Modifier::BOLD),
            user_label: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            assistant: Style::new(),
            thinking: fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            heading: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            code_inline: fg(Color::Yellow),
            code_block: fg(Color::Gray),
            code_label: fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
            quote: fg(Color::DarkGray),
            link: fg(Color::Blue).add_modifier(Modifier::UNDERLINED),
            tool: fg(Color::Magenta),
            tool_output: fg(Color::DarkGray),
            tool_error: fg(Color::Red),
            diff_added: fg(Color::Green),
            diff_removed: fg(Color::Red),
            notice: fg(Color::Blue),
            warning: fg(Color::Yellow),
            error: fg(Color::Red).add_modifier(Modifier::BOLD),
            status: Style::new().fg(Color::Black).bg(Color::Gray),
            status_alert: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            dim: fg(Color::DarkGray),
            selected: Style::new().bg(Color::Indexed(236)),
            search_match: Style::new().fg(Color::Black).bg(Color::Yellow),
        }
    }
}

impl Theme {
    /// No colour at all: emphasis by modifiers only.
    pub fn plain() -> Self {
        let none = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let italic = Style::new().add_modifier(Modifier::ITALIC);
        Self {
            user: bold,
            user_label: bold,
            assistant: none,
            thinking: italic,
            heading: bold,
            code_inline: none,
            code_block: none,
            code_label: italic,
            quote: none,
            link: Style::new().add_modifier(Modifier::UNDERLINED),
            tool: bold,
            tool_output: none,
            tool_error: bold,
            diff_added: none,
            diff_removed: none,
            notice: none,
            warning: bold,
            error: bold,
            status: Style::new().add_modifier(Modifier::REVERSED),
            status_alert: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            dim: none,
            selected: Style::new().add_modifier(Modifier::BOLD),
            search_match: Style::new().add_modifier(Modifier::REVERSED),
        }
    }
}
