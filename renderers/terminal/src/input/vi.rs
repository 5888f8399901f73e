//! The editor's vi motions and edits, for the terminal UI's vi mode: words by vi's classes
//! (a run of word characters, or of other non-blank characters — punctuation, a chip — is a
//! word), line-wise edits, and the cursor tests a modal editor needs. Byte offsets always
//! land on character boundaries.

use super::Editor;

impl Editor {
    /// The vi word class of the character at byte `at`: 0 white space (or none), 1 a word
    /// character (letter, digit, `_`), 2 any other (punctuation, a chip).
    fn vi_class(&self, at: usize) -> u8 {
        match self.text[at..].chars().next() {
            Some(c) if c.is_whitespace() => 0,
            Some(c) if c.is_alphanumeric() || c == '_' => 1,
            Some(_) => 2,
            None => 0,
        }
    }

    /// The byte offset after the character at `at`.
    fn after(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(self.text.len(), |c| at + c.len_utf8())
    }

    /// The byte offset of the character before `at`.
    fn before(&self, at: usize) -> usize {
        self.text[..at]
            .chars()
            .next_back()
            .map_or(0, |c| at - c.len_utf8())
    }

    /// Where vi's `w` goes from the cursor: past the run of its word class, then past white
    /// space; the draft's end at most.
    fn vi_w(&self) -> usize {
        let mut at = self.cursor;
        let class = self.vi_class(at);
        if class != 0 {
            while at < self.text.len() && self.vi_class(at) == class {
                at = self.after(at);
            }
        }
        while at < self.text.len() && self.vi_class(at) == 0 {
            at = self.after(at);
        }
        at
    }

    /// Where vi's `e` goes from the cursor: at least one character on, past white space, to
    /// the last character of the run that follows.
    fn vi_e(&self) -> usize {
        let mut at = self.after(self.cursor);
        while at < self.text.len() && self.vi_class(at) == 0 {
            at = self.after(at);
        }
        if at >= self.text.len() {
            return self.before(self.text.len());
        }
        let class = self.vi_class(at);
        loop {
            let next = self.after(at);
            if next >= self.text.len() || self.vi_class(next) != class {
                return at;
            }
            at = next;
        }
    }

    /// Where vi's `b` goes from the cursor: at least one character back, past white space,
    /// to the first character of the run there.
    fn vi_b(&self) -> usize {
        let mut at = self.before(self.cursor);
        while at > 0 && self.vi_class(at) == 0 {
            at = self.before(at);
        }
        let class = self.vi_class(at);
        while class != 0 && at > 0 && self.vi_class(self.before(at)) == class {
            at = self.before(at);
        }
        at
    }

    /// vi's `w`: to the start of the next word.
    pub fn vi_word_forward(&mut self) {
        self.cursor = self.vi_w();
    }

    /// vi's `e`: to the last character of this or the next word.
    pub fn vi_word_end(&mut self) {
        self.cursor = self.vi_e();
    }

    /// vi's `b`: to the first character of this or the previous word.
    pub fn vi_word_back(&mut self) {
        self.cursor = self.vi_b();
    }

    /// Delete what vi's `dw` deletes: to where `w` goes, within the line.
    pub fn vi_delete_word(&mut self) {
        let to = self.vi_w().min(self.line_end()).max(self.cursor);
        self.text.replace_range(self.cursor..to, "");
    }

    /// Delete what vi's `de` (and `cw`) delete: through the last character of the word `e`
    /// goes to, within the line.
    pub fn vi_delete_word_end(&mut self) {
        let end = self.after(self.vi_e());
        let to = end.min(self.line_end()).max(self.cursor);
        self.text.replace_range(self.cursor..to, "");
    }

    /// Delete what vi's `cw` deletes: on a word, to its end — the run of the cursor's class,
    /// never the white space after it, however short the rest of the word; on white space,
    /// the white space.
    pub fn vi_delete_change_word(&mut self) {
        let class = self.vi_class(self.cursor);
        let mut to = self.cursor;
        while to < self.line_end() && self.vi_class(to) == class {
            to = self.after(to);
        }
        self.text.replace_range(self.cursor..to, "");
    }

    /// Delete what vi's `db` deletes: from where `b` goes to the cursor, within the line.
    pub fn vi_delete_word_back(&mut self) {
        let from = self.vi_b().max(self.line_start());
        self.text.replace_range(from..self.cursor, "");
        self.cursor = from;
    }

    /// To the line's first character that is not white space (vi's `^`).
    pub fn first_non_blank(&mut self) {
        let start = self.line_start();
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        self.cursor = start + (line.len() - line.trim_start().len());
    }

    /// To the draft's start.
    pub fn to_start(&mut self) {
        self.cursor = 0;
    }

    /// To the draft's end.
    pub fn to_end(&mut self) {
        self.cursor = self.text.len();
    }

    /// Delete from the cursor to the end of the line, never the line break (vi's `D`).
    pub fn delete_to_line_end(&mut self) {
        let end = self.line_end();
        self.text.replace_range(self.cursor..end, "");
    }

    /// Delete from the line's start to the cursor (vi's `d0`).
    pub fn delete_to_line_start(&mut self) {
        let start = self.line_start();
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
    }

    /// Delete the cursor's line and its line break (vi's `dd`); the cursor goes to the start
    /// of the line that takes its place.
    pub fn delete_line(&mut self) {
        let start = self.line_start();
        let end = self.line_end();
        let (from, to) = if end < self.text.len() {
            (start, end + 1)
        } else {
            // The last line: the break before it goes with it.
            (start.saturating_sub(1), end)
        };
        self.text.replace_range(from..to, "");
        self.cursor = from.min(self.text.len());
        self.cursor = self.line_start();
    }

    /// Empty the cursor's line, keeping its line break (vi's `cc`).
    pub fn clear_line(&mut self) {
        let start = self.line_start();
        let end = self.line_end();
        self.text.replace_range(start..end, "");
        self.cursor = start;
    }

    /// Whether the cursor is at the end of its line.
    pub fn at_line_end(&self) -> bool {
        self.cursor == self.line_end()
    }

    /// Whether the cursor is at the start of its line.
    pub fn at_line_start(&self) -> bool {
        self.cursor == self.line_start()
    }
}
