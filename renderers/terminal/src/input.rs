//! The input editor: a multi-line draft with a cursor, word motions, history, and large pastes
//! kept as placeholder chips (spec: Terminal interface — "input remains responsive"). Pure
//! state and a widget: the event loop maps keys to these operations.
//!
//! A paste over [`CHIP_LINES`] lines or [`CHIP_BYTES`] bytes is not inserted as text: one chip
//! stands in the draft (`[paste 1: 2000 lines, 18.5 KiB]`), moves and deletes as one character, and
//! [`Editor::submit`] sends the whole pasted text in its place. The draft holds each chip as
//! one character of the Unicode private-use range `U+F0000…`; typed or pasted text never
//! carries those (they are replaced by `U+FFFD`), so no text can forge a chip.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::{Position, Rect};
use ratatui_core::text::{Line, Span};
use ratatui_core::widgets::Widget;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::Theme;

mod vi;

/// A paste of more lines than this becomes a chip.
pub const CHIP_LINES: usize = 10;
/// A paste of more bytes than this becomes a chip.
pub const CHIP_BYTES: usize = 2048;
/// The most drafts the history keeps.
pub const HISTORY: usize = 500;

/// The first chip character (supplementary private use area A).
const CHIP_BASE: u32 = 0xF0000;
const CHIP_LAST: u32 = 0xFFFFD;

fn chip_index(c: char) -> Option<usize> {
    let n = c as u32;
    (CHIP_BASE..=CHIP_LAST)
        .contains(&n)
        .then(|| (n - CHIP_BASE) as usize)
}

/// Whether a word-boundary segment is a word (holds a letter or digit).
fn is_word(segment: &str) -> bool {
    segment.chars().any(char::is_alphanumeric)
}

/// `bytes` for a person: `812 B`, `9.4 KiB`, `3.1 MiB`.
pub fn size(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KIB {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{:.1} MiB", b / (KIB * KIB))
    }
}

/// What a chip of the draft stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Chip {
    /// A large paste: sent as its text (shared, so a draft's copy — an undo step — is cheap).
    Paste(std::sync::Arc<str>),
    /// Something attached beside the text (a pasted image), known to the caller by `id`:
    /// shown as `[label]`, sent as `[image K]` (K: its place among the draft's attachments).
    Attachment { id: u64, label: String },
}

/// A draft as [`Editor::draft`] took it: text, cursor and pastes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    text: String,
    cursor: usize,
    pastes: Vec<Chip>,
}

impl Draft {
    /// Whether `other` holds the same text and pastes (wherever its cursor is): a command
    /// that changed neither only moved.
    pub fn same_text(&self, other: &Draft) -> bool {
        self.text == other.text && self.pastes == other.pastes
    }
}

/// The draft being edited, its cursor, its pastes and the history of sent drafts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Editor {
    text: String,
    /// A byte offset into `text`, on a grapheme boundary.
    cursor: usize,
    pastes: Vec<Chip>,
    history: Vec<String>,
    /// While browsing history: the entry shown and the draft set aside.
    browsing: Option<(usize, String)>,
}

impl Editor {
    /// An empty editor.
    pub fn new() -> Self {
        Self::default()
    }

    /// The draft as shown (chips as their labels).
    pub fn shown(&self) -> String {
        self.text.chars().map(|c| self.display(c)).collect()
    }

    /// Whether the draft is empty.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// How `c` is shown: a chip as its label, a tab as four spaces, any other control
    /// character as its Unicode control picture (`␛` for ESC), so the draft never sends a
    /// control sequence to the terminal and every character has a visible width.
    fn display(&self, c: char) -> String {
        match chip_index(c).and_then(|i| self.pastes.get(i).map(|p| (i, p))) {
            Some((i, Chip::Paste(paste))) => {
                let n = paste.lines().count();
                let plural = if n == 1 { "" } else { "s" };
                let number = self.pastes[..i]
                    .iter()
                    .filter(|c| matches!(c, Chip::Paste(_)))
                    .count()
                    + 1;
                format!("[paste {number}: {n} line{plural}, {}]", size(paste.len()))
            }
            Some((_, Chip::Attachment { label, .. })) => format!("[{label}]"),
            None if c == '\t' => "    ".to_owned(),
            None if c.is_control() && c != '\n' => match u32::from(c) {
                n @ 0..0x20 => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
                0x7f => '\u{2421}',
                _ => '\u{fffd}',
            }
            .to_string(),
            None => c.to_string(),
        }
    }

    /// `text` with no chip characters (they become U+FFFD) and CRLF/CR as LF.
    fn clean(text: &str) -> String {
        text.replace("\r\n", "\n")
            .replace('\r', "\n")
            .chars()
            .map(|c| {
                if chip_index(c).is_some() {
                    '\u{fffd}'
                } else {
                    c
                }
            })
            .collect()
    }

    fn insert_raw(&mut self, s: &str) {
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
        self.browsing = None;
    }

    /// The draft's text before the cursor (chips as their private-use characters).
    pub fn before_cursor(&self) -> &str {
        &self.text[..self.cursor]
    }

    /// Replace the last `bytes` bytes before the cursor (cut back to a character boundary)
    /// with `with`, typed: what completion does to the word it completes.
    pub fn replace_before_cursor(&mut self, bytes: usize, with: &str) {
        let mut from = self.cursor.saturating_sub(bytes);
        while !self.text.is_char_boundary(from) {
            from -= 1;
        }
        self.text.replace_range(from..self.cursor, "");
        self.cursor = from;
        let with = Self::clean(with);
        self.insert_raw(&with);
    }

    /// Replace the whole draft with `text` (typed, not pasted), the cursor at its end.
    pub fn set_text(&mut self, text: &str) {
        self.clear();
        let text = Self::clean(text);
        self.insert_raw(&text);
    }

    /// Type `c` at the cursor.
    pub fn insert_char(&mut self, c: char) {
        let s = Self::clean(&c.to_string());
        self.insert_raw(&s);
    }

    /// A line break at the cursor.
    pub fn newline(&mut self) {
        self.insert_raw("\n");
    }

    /// Paste `text` at the cursor: as text, or as one chip when it is large.
    pub fn paste(&mut self, text: &str) {
        let text = Self::clean(text);
        if text.lines().count() > CHIP_LINES || text.len() > CHIP_BYTES {
            let index = self.pastes.len();
            let Some(chip) = char::from_u32(CHIP_BASE + index as u32)
                .filter(|_| CHIP_BASE + (index as u32) <= CHIP_LAST)
            else {
                // Past the chip range (tens of thousands of pastes): inserted as text.
                return self.insert_raw(&text);
            };
            self.pastes.push(Chip::Paste(text.into()));
            self.insert_raw(&chip.to_string());
        } else {
            self.insert_raw(&text);
        }
    }

    /// Insert a chip for an attachment at the cursor — shown as `[label]`, moving and
    /// deleting as one character, sent as `[image K]` — that the caller knows by `id` (see
    /// [`Editor::attachments`]). False when the draft holds as many chips as it can (tens of
    /// thousands): nothing is inserted.
    pub fn attach(&mut self, id: u64, label: &str) -> bool {
        let index = self.pastes.len();
        let Some(chip) = char::from_u32(CHIP_BASE + index as u32)
            .filter(|_| CHIP_BASE + (index as u32) <= CHIP_LAST)
        else {
            return false;
        };
        self.pastes.push(Chip::Attachment {
            id,
            label: Self::clean(label).replace('\n', " "),
        });
        self.insert_raw(&chip.to_string());
        true
    }

    /// The ids of the attachment chips the draft holds, in the order they stand (one deleted
    /// from the text is not among them).
    pub fn attachments(&self) -> Vec<u64> {
        self.text
            .chars()
            .filter_map(|c| match chip_index(c).and_then(|i| self.pastes.get(i)) {
                Some(Chip::Attachment { id, .. }) => Some(*id),
                _ => None,
            })
            .collect()
    }

    fn prev_boundary(&self, at: usize) -> usize {
        self.text[..at]
            .grapheme_indices(true)
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self, at: usize) -> usize {
        self.text[at..]
            .graphemes(true)
            .next()
            .map_or(at, |g| at + g.len())
    }

    /// Delete the character before the cursor.
    pub fn backspace(&mut self) {
        let from = self.prev_boundary(self.cursor);
        self.text.replace_range(from..self.cursor, "");
        self.cursor = from;
    }

    /// Delete the character under the cursor.
    pub fn delete(&mut self) {
        let to = self.next_boundary(self.cursor);
        self.text.replace_range(self.cursor..to, "");
    }

    /// One character left.
    pub fn left(&mut self) {
        self.cursor = self.prev_boundary(self.cursor);
    }

    /// One character right.
    pub fn right(&mut self) {
        self.cursor = self.next_boundary(self.cursor);
    }

    /// To the start of the previous word. Words are Unicode's (UAX #29 word boundaries, a
    /// segment holding a letter or digit), so the cursor never lands inside a grapheme: an
    /// emoji sequence or a letter with combining marks moves as one.
    pub fn word_left(&mut self) {
        self.cursor = self.text[..self.cursor]
            .split_word_bound_indices()
            .rev()
            .find(|(_, w)| is_word(w))
            .map_or(0, |(i, _)| i);
    }

    /// To the end of the next word (words as for [`Editor::word_left`]).
    pub fn word_right(&mut self) {
        let after = &self.text[self.cursor..];
        self.cursor += after
            .split_word_bound_indices()
            .find(|(_, w)| is_word(w))
            .map_or(after.len(), |(i, w)| i + w.len());
    }

    /// Delete from the start of the previous word to the cursor.
    pub fn delete_word_left(&mut self) {
        let end = self.cursor;
        self.word_left();
        self.text.replace_range(self.cursor..end, "");
    }

    fn line_start(&self) -> usize {
        self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1)
    }

    fn line_end(&self) -> usize {
        self.text[self.cursor..]
            .find('\n')
            .map_or(self.text.len(), |i| self.cursor + i)
    }

    /// To the start of the line.
    pub fn home(&mut self) {
        self.cursor = self.line_start();
    }

    /// To the end of the line.
    pub fn end(&mut self) {
        self.cursor = self.line_end();
    }

    /// Delete from the cursor to the end of the line (the line break when at its end).
    pub fn kill_to_end(&mut self) {
        let end = self.line_end();
        let end = if end == self.cursor {
            self.next_boundary(end)
        } else {
            end
        };
        self.text.replace_range(self.cursor..end, "");
    }

    /// Clear the draft (its pastes with it).
    pub fn clear(&mut self) {
        self.text.clear();
        self.cursor = 0;
        self.pastes.clear();
        self.browsing = None;
    }

    /// Up: to the line above, or on the first line, the previous draft of the history.
    pub fn up(&mut self) {
        if self.text[..self.cursor].contains('\n') {
            self.vertical(-1);
            return;
        }
        let at = match &self.browsing {
            Some((i, _)) => i.checked_sub(1),
            None => self.history.len().checked_sub(1),
        };
        if let Some(i) = at {
            let aside = match self.browsing.take() {
                Some((_, aside)) => aside,
                None => std::mem::take(&mut self.text),
            };
            self.text.clone_from(&self.history[i]);
            self.cursor = self.text.len();
            self.browsing = Some((i, aside));
        }
    }

    /// Down: to the line below, or on the last line, the next draft of the history (then the
    /// draft set aside).
    pub fn down(&mut self) {
        if self.text[self.cursor..].contains('\n') {
            self.vertical(1);
            return;
        }
        if let Some((i, aside)) = self.browsing.take() {
            if i + 1 < self.history.len() {
                self.text.clone_from(&self.history[i + 1]);
                self.browsing = Some((i + 1, aside));
            } else {
                self.text = aside;
            }
            self.cursor = self.text.len();
        }
    }

    /// One line up or down, keeping the column (in characters) where the line allows.
    fn vertical(&mut self, delta: i32) {
        let start = self.line_start();
        let column = self.text[start..self.cursor].chars().count();
        let target_start = if delta < 0 {
            self.text[..start.saturating_sub(1)]
                .rfind('\n')
                .map_or(0, |i| i + 1)
        } else {
            self.line_end() + 1
        };
        let line = &self.text[target_start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let offset: usize = line.chars().take(column).map(char::len_utf8).sum();
        self.cursor = target_start + offset;
    }

    /// The draft's text with every chip replaced by its paste (what would be sent).
    pub fn expanded(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut attachments = 0;
        for c in self.text.chars() {
            match chip_index(c).and_then(|i| self.pastes.get(i)) {
                Some(Chip::Paste(paste)) => out.push_str(paste),
                // Where the attachment stood: `[image K]`, K its place among the draft's
                // attachments (the order they go with the message in).
                Some(Chip::Attachment { .. }) => {
                    attachments += 1;
                    out.push_str(&format!("[image {attachments}]"));
                }
                None => out.push(c),
            }
        }
        out
    }

    /// Take the draft to send: its text with every chip replaced by its paste. The editor is
    /// cleared and the draft (as typed, chips expanded) goes into the history. `None` when the
    /// draft is only whitespace.
    pub fn submit(&mut self) -> Option<String> {
        let out = self.expanded();
        self.clear();
        if out.trim().is_empty() {
            return None;
        }
        self.remember(&out);
        Some(out)
    }

    /// Clear the draft but keep it (chips expanded) as the newest history entry, so Up brings
    /// it back: how Esc and Ctrl+C clear, so no draft is lost to a key. Whether there was a
    /// draft to keep.
    pub fn stash(&mut self) -> bool {
        let out = self.expanded();
        self.clear();
        if out.trim().is_empty() {
            return false;
        }
        self.remember(&out);
        true
    }

    /// Put `other`'s draft — its text, cursor and pastes — in place of this one's, keeping
    /// this editor's history: how a search through the history puts back the draft it set
    /// aside.
    pub fn restore_draft(&mut self, other: &Editor) {
        self.set_draft(&other.draft());
    }

    /// The draft as it stands — text, cursor, pastes — to put back later with
    /// [`Editor::set_draft`] (an undo step).
    pub fn draft(&self) -> Draft {
        Draft {
            text: self.text.clone(),
            cursor: self.cursor,
            pastes: self.pastes.clone(),
        }
    }

    /// Put back a draft [`Editor::draft`] took (the history is kept).
    pub fn set_draft(&mut self, draft: &Draft) {
        self.text.clone_from(&draft.text);
        self.cursor = draft.cursor.min(self.text.len());
        self.pastes.clone_from(&draft.pastes);
        self.browsing = None;
    }

    /// Put the cursor at byte `at` of the draft (clamped to its end, moved back to a
    /// character boundary): where a search found what it looked for.
    pub fn set_cursor(&mut self, at: usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        self.cursor = at;
    }

    /// Delete the draft's first character (a chip as one): how `//text` sends `/text` with
    /// its chips kept.
    pub fn delete_first_char(&mut self) {
        let Some(first) = self.text.chars().next() else {
            return;
        };
        let n = first.len_utf8();
        self.text.replace_range(..n, "");
        self.cursor = self.cursor.saturating_sub(n);
        while !self.text.is_char_boundary(self.cursor) {
            self.cursor -= 1;
        }
    }

    /// The history of sent drafts, oldest first (at most [`HISTORY`]).
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// Add `text` to the history (unless it is blank or the newest entry already), bounded:
    /// how a resumed session's earlier prompts become Up's history.
    pub fn remember(&mut self, text: &str) {
        if !text.trim().is_empty() && self.history.last().map(String::as_str) != Some(text) {
            self.history.push(text.to_owned());
            if self.history.len() > HISTORY {
                self.history.remove(0);
            }
        }
    }

    /// Put `earlier` (oldest first) before everything already in the history, as a
    /// resumed session's prompts come after its start; at most the history's bound is kept
    /// (the newest).
    pub fn remember_earlier(&mut self, earlier: &[String]) {
        let mut merged: Vec<String> = Vec::with_capacity(earlier.len() + self.history.len());
        for text in earlier.iter().chain(self.history.iter()) {
            if !text.trim().is_empty() && merged.last() != Some(text) {
                merged.push(text.clone());
            }
        }
        let extra = merged.len().saturating_sub(HISTORY);
        merged.drain(..extra);
        // An entry being browsed keeps pointing at the same draft.
        let added = merged.len().saturating_sub(self.history.len());
        self.history = merged;
        if let Some((i, _)) = self.browsing.as_mut() {
            *i = (*i + added).min(self.history.len().saturating_sub(1));
        }
    }

    /// The draft as lines for `width` columns (chips as their labels; wrapped after the last
    /// space that fits, a longer word where it must) and the cursor's position in them
    /// (column, row).
    pub fn layout(&self, width: u16) -> (Vec<String>, (u16, u16)) {
        let width = usize::from(width.max(1));
        // The graphemes as shown (byte offset, text, width); a line break as `None`.
        let items: Vec<(usize, Option<(String, usize)>)> = self
            .text
            .grapheme_indices(true)
            .map(|(at, g)| {
                if g == "\n" {
                    return (at, None);
                }
                let shown: String = g.chars().map(|c| self.display(c)).collect();
                let w = shown.width();
                (at, Some((shown, w)))
            })
            .collect();
        // Where each line starts (an index into `items`), breaking after the last space
        // that fits — a word longer than the line breaks where it must.
        let mut starts = vec![0usize];
        let mut used = 0usize;
        let mut after_space: Option<usize> = None;
        for (i, (_, item)) in items.iter().enumerate() {
            let Some((shown, w)) = item else {
                starts.push(i + 1);
                used = 0;
                after_space = None;
                continue;
            };
            if used + w > width && used > 0 {
                let line_start = *starts.last().unwrap_or(&0);
                let at = after_space
                    .filter(|&a| a > line_start && a <= i)
                    .unwrap_or(i);
                starts.push(at);
                used = items[at..i]
                    .iter()
                    .filter_map(|(_, it)| it.as_ref().map(|(_, w)| *w))
                    .sum();
                after_space = None;
                // A wide character that still does not fit starts the line itself.
                if used + w > width && used > 0 {
                    starts.push(i);
                    used = 0;
                }
            }
            used += w;
            if shown == " " {
                after_space = Some(i + 1);
            }
        }
        let mut lines = Vec::with_capacity(starts.len());
        let mut cursor = None;
        for (row, pair) in starts.iter().enumerate() {
            let end = starts.get(row + 1).copied().unwrap_or(items.len());
            let mut line = String::new();
            let mut col = 0usize;
            for (at, item) in &items[*pair..end] {
                if *at == self.cursor {
                    cursor = Some((col, row));
                }
                if let Some((shown, w)) = item {
                    line.push_str(shown);
                    col += w;
                }
            }
            lines.push(line);
        }
        let cursor = cursor.unwrap_or_else(|| {
            // At the end of the draft: after the last line, or on a new one when it is full.
            let row = lines.len() - 1;
            let used = lines[row].width();
            if used >= width {
                lines.push(String::new());
                (0, row + 1)
            } else {
                (used, row)
            }
        });
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        (lines, (clamp(cursor.0), clamp(cursor.1)))
    }
}

/// Draws an [`Editor`]'s draft (the last lines that fit, so the cursor's line shows) with a
/// prompt mark, or a dim placeholder when empty; where the terminal cursor goes is
/// [`InputView::cursor`].
#[derive(Debug)]
pub struct InputView<'a> {
    /// The editor.
    pub editor: &'a Editor,
    /// Shown when the draft is empty (why input is disabled, or a hint).
    pub placeholder: &'a str,
    /// Styles.
    pub theme: &'a Theme,
}

impl InputView<'_> {
    /// Rows the draft needs at `width` (at least 1).
    pub fn height(&self, width: u16) -> u16 {
        let (lines, _) = self.editor.layout(width.saturating_sub(2));
        u16::try_from(lines.len()).unwrap_or(u16::MAX).max(1)
    }

    /// Where the terminal cursor goes when drawn into `area`.
    pub fn cursor(&self, area: Rect) -> Position {
        let (lines, (x, y)) = self.editor.layout(area.width.saturating_sub(2));
        let first = u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_sub(area.height);
        Position::new(
            area.x + 2 + x,
            area.y + y.saturating_sub(first).min(area.height.saturating_sub(1)),
        )
    }
}

impl Widget for InputView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width < 3 {
            return;
        }
        let mark = Span::styled("› ", self.theme.user_label);
        if self.editor.is_empty() {
            let line = Line::from(vec![mark, Span::styled(self.placeholder, self.theme.dim)]);
            buf.set_line(area.x, area.y, &line, area.width);
            return;
        }
        let (lines, _) = self.editor.layout(area.width - 2);
        let first = lines.len().saturating_sub(usize::from(area.height));
        for (row, text) in lines.iter().skip(first).enumerate() {
            let lead = if row + first == 0 {
                mark.clone()
            } else {
                Span::raw("  ")
            };
            let line = Line::from(vec![lead, Span::styled(text.clone(), self.theme.user)]);
            let y = area.y + u16::try_from(row).unwrap_or(u16::MAX);
            buf.set_line(area.x, y, &line, area.width);
        }
    }
}

#[cfg(test)]
mod tests;
