//! The draft's own keys: the editing keys no key table names (motions, deletions, the
//! history's Up and Down, Home and End scrolling an empty draft) and `@path` completion.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Ui;
use crate::complete;

impl Ui {
    pub(super) fn complete(&mut self) {
        let Some(partial) = complete::mention(self.editor.before_cursor()).map(str::to_owned)
        else {
            self.hint = Some("Tab completes an @path: type @ and the start of a file name".into());
            return;
        };
        // Choices listed: each Tab puts the next one in place of the mention.
        if !self.choices.is_empty() {
            let next = self.choice.map_or(0, |i| (i + 1) % self.choices.len());
            self.editor
                .replace_before_cursor(partial.len(), &self.choices[next]);
            self.choice = Some(next);
            return;
        }
        let complete::Choices {
            paths: choices,
            unmentionable,
        } = complete::choices(&self.cwd, &partial);
        match choices.len() {
            0 if unmentionable > 0 => {
                self.hint = Some(format!(
                    "only names with white space start with `{partial}`, and an @mention ends at white space; rename the file to attach it"
                ));
            }
            0 => {
                self.hint = Some(format!(
                    "no file in the working directory starts with `{partial}`"
                ));
            }
            1 => self
                .editor
                .replace_before_cursor(partial.len(), &choices[0]),
            _ => {
                let common = complete::common_prefix(&choices);
                if common.len() > partial.len() {
                    self.editor.replace_before_cursor(partial.len(), &common);
                } else {
                    self.choices = choices;
                }
            }
        }
    }

    pub(super) fn edit(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        // With an empty draft, Home and End have nothing to move in: they scroll.
        if self.editor.is_empty() && !ctrl && !alt {
            match key.code {
                KeyCode::Home => return self.top(),
                KeyCode::End => return self.follow_latest(),
                _ => {}
            }
        }
        let e = &mut self.editor;
        match key.code {
            KeyCode::Char('a') if ctrl => e.home(),
            KeyCode::Char('e') if ctrl => e.end(),
            KeyCode::Char('k') if ctrl => e.kill_to_end(),
            KeyCode::Char('u') if ctrl => {
                e.stash();
            }
            KeyCode::Char('w') if ctrl => e.delete_word_left(),
            KeyCode::Char('b') if alt => e.word_left(),
            KeyCode::Char('f') if alt => e.word_right(),
            KeyCode::Char(c) if !ctrl && !alt => e.insert_char(c),
            KeyCode::Backspace if alt || ctrl => e.delete_word_left(),
            KeyCode::Backspace => e.backspace(),
            KeyCode::Delete => e.delete(),
            KeyCode::Left if ctrl || alt => e.word_left(),
            KeyCode::Right if ctrl || alt => e.word_right(),
            KeyCode::Left => e.left(),
            KeyCode::Right => e.right(),
            KeyCode::Home => e.home(),
            KeyCode::End => e.end(),
            KeyCode::Up => e.up(),
            KeyCode::Down => e.down(),
            _ => {}
        }
    }
}
