//! The keys of a waiting question (spec: Terminal interface — one modal for every ask): no
//! other key answers it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use smith::Answer;

use super::{Effect, Question, Ui};
use crate::keys::Action;

impl Ui {
    /// What `key` does to the waiting question (the first): Esc refuses it, PgUp/PgDn scroll
    /// a long one, its own keys answer it; Ctrl+C, Ctrl+D and F1 keep their meaning.
    pub(super) fn question_key(&mut self, key: KeyEvent, action: Option<Action>) -> Option<Effect> {
        let question = self.questions.front_mut()?;
        let id = question.id().to_owned();
        if action == Some(Action::Escape) {
            self.questions.pop_front();
            self.question_scroll = 0;
            return Some(Effect::Refuse(id));
        }
        // A long question scrolls (the drawing clamps the offset to what there is).
        match key.code {
            KeyCode::PageUp => {
                self.question_scroll = self.question_scroll.saturating_sub(self.question_page);
                return None;
            }
            KeyCode::PageDown => {
                self.question_scroll = self.question_scroll.saturating_add(self.question_page);
                return None;
            }
            _ => {}
        }
        if matches!(
            action,
            Some(Action::Interrupt | Action::Quit | Action::Help)
        ) {
            return self.act(action?);
        }
        let answer = match question {
            Question::Confirm { default, .. } => match key.code {
                KeyCode::Char('y' | 'Y') => Some(Answer::Confirm(true)),
                KeyCode::Char('n' | 'N') => Some(Answer::Confirm(false)),
                KeyCode::Enter => default.map(Answer::Confirm),
                _ => None,
            },
            Question::Select { options, at, .. } => match key.code {
                KeyCode::Up | KeyCode::Left => {
                    *at = at.saturating_sub(1);
                    None
                }
                KeyCode::Down | KeyCode::Right => {
                    *at = (*at + 1).min(options.len().saturating_sub(1));
                    None
                }
                KeyCode::Char(c @ '1'..='9') => {
                    let i = c as usize - '1' as usize;
                    (i < options.len()).then_some(Answer::Select(i as u32))
                }
                KeyCode::Enter if !options.is_empty() => Some(Answer::Select(*at as u32)),
                _ => None,
            },
            Question::Text { text, .. } => match key.code {
                KeyCode::Enter => Some(Answer::Text(std::mem::take(text))),
                KeyCode::Backspace => {
                    text.pop();
                    None
                }
                KeyCode::Char(c)
                    if !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
                {
                    text.push(c);
                    None
                }
                _ => None,
            },
        };
        let answer = answer?;
        self.questions.pop_front();
        self.question_scroll = 0;
        Some(Effect::Answer(id, answer))
    }
}
