//! The input's vi mode (`tui.input-mode vim`): a draft starts in insert mode, where keys do
//! what they do in the standard mode; Esc goes to normal mode, where a plain key is a vi
//! command — a motion, an edit, an operator waiting for its motion (`d`, `c`, `g`) or a way
//! back to insert — and never text. Keys with Ctrl or Alt, Enter and the other named keys keep
//! their meaning in both modes, and Esc in normal mode does what Esc always does (close,
//! clear, abort). The status line shows the mode.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use smith_render_terminal::input::Draft;

use super::{Effect, Ui};
use crate::keys::Action;

/// The most undo steps kept.
const UNDO: usize = 100;

/// Which of vi's modes the input is in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keys type text.
    #[default]
    Insert,
    /// Plain keys are commands.
    Normal,
}

/// The vi mode's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Vim {
    /// The mode.
    pub(crate) mode: Mode,
    /// An operator waiting for its motion (`d`, `c`, `g`).
    pending: Option<char>,
    /// The drafts before each change, newest last (`u` takes the newest back): a
    /// normal-mode edit, or a stay in insert mode that changed the draft.
    undo: Vec<Draft>,
    /// The draft as insert mode found it (the stay's undo step, kept when it changed
    /// something).
    insert_from: Option<Draft>,
}

impl Vim {
    /// A new draft's vi mode: insert mode, from the empty draft.
    fn fresh() -> Self {
        Self {
            insert_from: Some(Draft::default()),
            ..Self::default()
        }
    }

    /// Keep `before` as an undo step (the oldest go past [`UNDO`]).
    fn push_undo(&mut self, before: Draft) {
        self.undo.push(before);
        if self.undo.len() > UNDO {
            self.undo.remove(0);
        }
    }
}

impl Vim {
    /// The mode as the status line names it.
    pub(crate) fn name(&self) -> &'static str {
        match self.mode {
            Mode::Insert => "INSERT",
            Mode::Normal => "NORMAL",
        }
    }
}

impl Ui {
    /// What the vi mode does with `key`: `Some(effect)` when it used the key, `None` when
    /// the key keeps its usual meaning (also when the vi mode is off).
    pub(super) fn vim_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
    ) -> Option<Option<Effect>> {
        let idle_or_drafting = !(self.editor.is_empty() && self.busy());
        let vim = self.vim.as_mut()?;
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match vim.mode {
            Mode::Insert => {
                // Esc closes a completion list first, as it does in the standard mode; on
                // an empty draft while work runs it aborts the work, as there.
                if action == Some(Action::Escape) && self.choices.is_empty() && idle_or_drafting {
                    vim.mode = Mode::Normal;
                    if let Some(from) = vim.insert_from.take()
                        && !from.same_text(&self.editor.draft())
                    {
                        vim.push_undo(from);
                    }
                    // vi leaves insert mode on the character before the cursor.
                    if !self.editor.at_line_start() {
                        self.editor.left();
                    }
                    self.sync_mode();
                    return Some(None);
                }
                None
            }
            Mode::Normal => {
                // Esc with an operator waiting cancels the operator, nothing else.
                if vim.pending.is_some() && action == Some(Action::Escape) {
                    vim.pending = None;
                    return Some(None);
                }
                if !plain {
                    vim.pending = None;
                    return None;
                }
                match key.code {
                    KeyCode::Char(c) => {
                        self.vim_command(c);
                        Some(None)
                    }
                    KeyCode::Backspace => {
                        self.vim_command('h');
                        Some(None)
                    }
                    KeyCode::Delete => {
                        self.vim_command('x');
                        Some(None)
                    }
                    _ => None,
                }
            }
        }
    }

    /// Carry out normal-mode command `c` (with the operator waiting, if any).
    fn vim_command(&mut self, c: char) {
        let Some(vim) = self.vim.as_mut() else {
            return;
        };
        let pending = vim.pending.take();
        let at_start = self.editor.at_line_start();
        let at_end = self.editor.at_line_end();
        let before = self.editor.draft();
        let e = &mut self.editor;
        let mut insert = false;
        match (pending, c) {
            (Some('d'), 'd') => e.delete_line(),
            (Some('c'), 'c') | (None, 'S') => {
                e.clear_line();
                insert = true;
            }
            (Some('d'), 'w') => e.vi_delete_word(),
            // `cw` changes to the word's end (vi keeps the space after it).
            (Some('c'), 'w') => {
                e.vi_delete_change_word();
                insert = true;
            }
            (Some(op @ ('d' | 'c')), 'e') => {
                e.vi_delete_word_end();
                insert = op == 'c';
            }
            (Some(op @ ('d' | 'c')), 'b') => {
                e.vi_delete_word_back();
                insert = op == 'c';
            }
            (Some(op @ ('d' | 'c')), '$') => {
                e.delete_to_line_end();
                insert = op == 'c';
            }
            (Some(op @ ('d' | 'c')), '0') => {
                e.delete_to_line_start();
                insert = op == 'c';
            }
            (Some('g'), 'g') => e.to_start(),
            // An operator and a motion it does not take: both dropped, as vi does.
            (Some(_), _) => {}
            (None, 'd' | 'c' | 'g') => vim.pending = Some(c),
            // Within the line, as vi moves.
            (None, 'h') if !at_start => e.left(),
            (None, 'l') if !at_end => e.right(),
            (None, 'j') => e.down(),
            (None, 'k') => e.up(),
            (None, 'w') => e.vi_word_forward(),
            (None, 'e') => e.vi_word_end(),
            (None, 'b') => e.vi_word_back(),
            (None, '0') => e.home(),
            (None, '^') => e.first_non_blank(),
            (None, '$') => e.end(),
            (None, 'G') => e.to_end(),
            // A character of the line, never its line break.
            (None, 'x') if !at_end => e.delete(),
            (None, 'X') if !at_start => e.backspace(),
            (None, 'D') => e.delete_to_line_end(),
            (None, 'C') => {
                e.delete_to_line_end();
                insert = true;
            }
            (None, 's') => {
                if !at_end {
                    e.delete();
                }
                insert = true;
            }
            (None, 'i') => insert = true,
            (None, 'a') => {
                if !e.at_line_end() {
                    e.right();
                }
                insert = true;
            }
            (None, 'I') => {
                e.first_non_blank();
                insert = true;
            }
            (None, 'A') => {
                e.end();
                insert = true;
            }
            (None, 'o') => {
                e.end();
                e.newline();
                insert = true;
            }
            (None, 'O') => {
                e.home();
                e.newline();
                e.left();
                insert = true;
            }
            (None, 'u') => {
                match vim.undo.pop() {
                    Some(draft) => e.set_draft(&draft),
                    None => self.hint = Some("nothing to undo in the draft".into()),
                }
                return;
            }
            _ => {}
        }
        if insert {
            // The change that enters insert mode and what is typed there are one undo step.
            vim.insert_from = Some(before);
            vim.mode = Mode::Insert;
            self.sync_mode();
            return;
        }
        // A change is an undo step; Up and Down through the history are not changes.
        if !self.editor.draft().same_text(&before) && !matches!(c, 'j' | 'k') {
            vim.push_undo(before);
        }
        if self.editor.at_line_end() && !self.editor.at_line_start() {
            // In normal mode the cursor is on a character, never after a line's last.
            self.editor.left();
        }
    }

    /// Back to insert mode (a new draft starts there), the undo steps of the old one
    /// dropped.
    pub(super) fn vim_reset(&mut self) {
        if let Some(vim) = self.vim.as_mut() {
            *vim = Vim::fresh();
            self.sync_mode();
        }
    }

    /// Turn the vi mode on (`tui.input-mode vim`), in insert mode.
    pub(crate) fn set_vim(&mut self, on: bool) {
        self.vim = on.then(Vim::fresh);
        self.sync_mode();
    }

    /// The status line's mode from the vi mode's.
    fn sync_mode(&mut self) {
        self.status.input_mode = self.vim.as_ref().map(|v| v.name().to_owned());
    }
}
