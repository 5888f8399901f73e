//! Prompt history search (Alt+R, the frontend's own key): the prompts sent before — the
//! session's, read with its history, then the ones sent since the UI started — searched as
//! the person types, newest first, case ignored. The match stands in the draft while the
//! search is open; Enter or Tab takes it (to edit or send), Esc puts back the draft the search
//! set aside. Any other key takes the match and keeps its usual meaning, as a shell's
//! reverse search does.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use smith_render_terminal::input::Editor;

use super::{Effect, Layer, Ui};
use crate::keys::Action;

/// An open prompt history search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Recall {
    /// What is searched for, as typed.
    pub(crate) query: String,
    /// The history index of the match in the draft when it was found (`None`: no match
    /// yet). The history may change meanwhile (a resumed session's prompts arrive before
    /// it): [`Recall::current`] finds the match again by its text.
    pub(crate) at: Option<usize>,
    /// The last step found nothing: `Some(true)` older, `Some(false)` newer.
    pub(crate) missed: Option<bool>,
    /// The draft as it was when the search opened.
    aside: Editor,
}

/// Whether history entry `prompt` matches the lowercase `query` (every entry matches an
/// empty one).
fn matches(prompt: &str, query: &str) -> bool {
    query.is_empty() || prompt.to_lowercase().contains(query)
}

impl Recall {
    /// Where the match `shown` (the draft's text) stands in `history` now: the newest entry
    /// holding it, while there is a match.
    pub(crate) fn current(&self, history: &[String], shown: &str) -> Option<usize> {
        self.at?;
        history.iter().rposition(|h| h == shown)
    }

    /// How many prompts of `history` match, and the number of the one shown (`shown`, the
    /// draft's text) among them counting from the newest (1).
    pub(crate) fn position(&self, history: &[String], shown: &str) -> (usize, Option<usize>) {
        let query = self.query.to_lowercase();
        let found: Vec<usize> = (0..history.len())
            .rev()
            .filter(|i| matches(&history[*i], &query))
            .collect();
        let current = self
            .current(history, shown)
            .and_then(|at| found.iter().position(|i| *i == at))
            .map(|n| n + 1);
        (found.len(), current)
    }
}

impl Ui {
    /// Open the prompt history search, or, open already, go to the older match.
    pub(crate) fn open_recall(&mut self) {
        if matches!(self.layers.last(), Some(Layer::Recall(_))) {
            self.recall_step(true, false);
            return;
        }
        if self.editor.history().is_empty() {
            self.hint = Some("no prompt sent yet to search: the prompts you send here, and this session's earlier ones, are searched".into());
            return;
        }
        self.layers.push(Layer::Recall(Recall {
            query: String::new(),
            at: None,
            missed: None,
            aside: self.editor.clone(),
        }));
    }

    /// What the open search does with `key`: `Some(effect)` when it used the key, `None`
    /// when it took the match and the key keeps its usual meaning.
    pub(crate) fn recall_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
    ) -> Option<Option<Effect>> {
        let Some(Layer::Recall(recall)) = self.layers.last_mut() else {
            return None;
        };
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match (action, key.code) {
            (Some(Action::Escape), _) => {
                let aside = recall.aside.clone();
                self.layers.pop();
                self.editor.restore_draft(&aside);
            }
            (Some(Action::HistorySearch), _) | (_, KeyCode::Up) => self.recall_step(true, false),
            (_, KeyCode::Down) => self.recall_step(false, false),
            (Some(Action::Submit | Action::Complete), _) | (_, KeyCode::Tab) => self.recall_take(),
            (_, KeyCode::Backspace) => {
                recall.query.pop();
                self.recall_step(true, true);
            }
            (_, KeyCode::Char('u')) if key.modifiers == KeyModifiers::CONTROL => {
                recall.query.clear();
                self.recall_step(true, true);
            }
            (None, KeyCode::Char(c)) if plain => {
                recall.query.push(c);
                self.recall_step(true, true);
            }
            _ => {
                self.recall_take();
                return None;
            }
        }
        Some(None)
    }

    /// Show the next match older (or newer) than the one shown — from the newest when
    /// `restart` (the query changed) — skipping prompts equal to the one shown. None found:
    /// the draft keeps what it shows and the search says so.
    fn recall_step(&mut self, older: bool, restart: bool) {
        let Some(Layer::Recall(recall)) = self.layers.last_mut() else {
            return;
        };
        let history = self.editor.history();
        let query = recall.query.to_lowercase();
        if restart && query.is_empty() {
            // No query (cleared again): the draft set aside, as when the search opened.
            recall.at = None;
            recall.missed = None;
            let aside = recall.aside.clone();
            self.editor.restore_draft(&aside);
            return;
        }
        let from = if restart {
            None
        } else {
            recall.current(history, &self.editor.expanded())
        };
        let current = from.and_then(|i| history.get(i));
        let candidate = |i: &usize| matches(&history[*i], &query) && Some(&history[*i]) != current;
        let found = if older {
            (0..from.unwrap_or(history.len()).min(history.len()))
                .rev()
                .find(candidate)
        } else {
            from.and_then(|f| (f + 1..history.len()).find(candidate))
        };
        match found {
            Some(i) => {
                let text = history[i].clone();
                recall.at = Some(i);
                recall.missed = None;
                self.editor.set_text(&text);
                // The cursor on the match, so a long prompt shows where it is.
                let lower = text.to_lowercase();
                if lower.len() == text.len()
                    && let Some(at) = lower.find(&query).filter(|_| !query.is_empty())
                {
                    self.editor.set_cursor(at);
                }
            }
            None if restart => {
                // The query matches nothing: the draft set aside shows again.
                recall.at = None;
                recall.missed = Some(true);
                let aside = recall.aside.clone();
                self.editor.restore_draft(&aside);
            }
            None => recall.missed = Some(older),
        }
    }

    /// Close the search with its match in the draft. A draft it set aside that differs is
    /// kept as the newest history entry (Up brings it back), so no typed text is lost.
    fn recall_take(&mut self) {
        let Some(Layer::Recall(recall)) = self.layers.pop() else {
            return;
        };
        if recall.at.is_none() {
            self.editor.restore_draft(&recall.aside);
            return;
        }
        let aside = recall.aside.expanded();
        if aside != self.editor.expanded() {
            self.editor.remember(&aside);
            if !recall.aside.attachments().is_empty() {
                self.hint = Some("the draft the match replaced is in the input history as text; its image is not kept (Ctrl+V pastes it again)".into());
            }
        }
    }
}
