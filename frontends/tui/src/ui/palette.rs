//! The palette's part of the UI state: what it shows for the draft, the keys it owns (Up and
//! Down choose, Tab completes, Enter runs the chosen command or takes the chosen value), and
//! the keys that run a command.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Effect, Ui};
use crate::keys::Action;

impl Ui {
    /// The keys that run `command`: those bound to it, and for a command that triggers a key
    /// action, that action's keys.
    pub(crate) fn command_keys(&self, command: &smith_app::product::Command) -> String {
        let mut keys = vec![self.keymap.keys_of_command(&command.name)];
        if let smith_app::product::wit::CommandAction::Key(a) = command.action {
            keys.push(self.keymap.keys_of(Action::from_key_action(a)));
        }
        keys.retain(|k| !k.is_empty());
        keys.join(" / ")
    }

    /// What the palette shows, when the draft is a palette line.
    pub(crate) fn palette_view(&self) -> Option<crate::palette::View<'_>> {
        if !self.layers.is_empty() || !self.questions.is_empty() || self.observer() {
            return None;
        }
        crate::palette::view(&self.product, &self.values, &self.editor.shown())
    }

    /// The palette's command matches, when it lists commands.
    #[cfg(test)]
    pub(crate) fn palette_matches(&self) -> Option<Vec<&smith_app::product::Command>> {
        match self.palette_view()? {
            crate::palette::View::Commands(found) => Some(found),
            crate::palette::View::Values { .. } => None,
        }
    }

    /// The palette's own keys: Up/Down choose, Tab completes, Enter runs the chosen command
    /// when the draft names none exactly (or takes the chosen value for the argument being
    /// typed, then runs the line). Enter takes a row only when it was chosen with Up/Down or
    /// holds what was typed: a mistyped name is refused with what it is near, never run as
    /// whatever it fuzzily resembles.
    pub(super) fn palette_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
    ) -> Option<Option<Effect>> {
        use crate::palette::View;
        let plain = key.modifiers.difference(KeyModifiers::SHIFT).is_empty();
        let shown = self.editor.shown();
        // The rows; the chosen row's draft for Tab (and whether that draft is complete); and
        // for Enter, the same only when the row was chosen or holds what was typed.
        type Draft = Option<(String, bool)>;
        let (rows, tab, enter): (usize, Draft, Draft) = match self.palette_view()? {
            View::Commands(found) => {
                let typed = crate::palette::query(&shown).unwrap_or_default();
                let chosen = found.get(self.palette.min(found.len().saturating_sub(1)));
                let draft = chosen.map(|c| {
                    let needs = c.arguments.iter().any(|a| a.required);
                    if needs {
                        (format!("/{} ", c.name), false)
                    } else {
                        (format!("/{}", c.name), true)
                    }
                });
                let exact = self.product.command(typed).is_some();
                let meant = chosen.is_some_and(|c| self.palette_chose || holds(&c.name, typed));
                let enter = draft.clone().filter(|_| meant && !exact);
                (found.len(), draft, enter)
            }
            View::Values {
                values,
                start,
                exact,
                ..
            } => {
                let typed = &shown[start..];
                let chosen = values.get(self.palette.min(values.len().saturating_sub(1)));
                let draft = chosen.map(|v| (format!("{}{v}", &shown[..start]), true));
                let meant = chosen.is_some_and(|v| self.palette_chose || holds(v, typed));
                let enter = draft.clone().filter(|_| meant && !exact);
                (values.len(), draft, enter)
            }
        };
        match (key.code, action) {
            (KeyCode::Up, _) if plain => {
                self.palette = self.palette.saturating_sub(1);
                self.palette_chose = true;
                Some(None)
            }
            (KeyCode::Down, _) if plain => {
                self.palette = (self.palette + 1).min(rows.saturating_sub(1));
                self.palette_chose = true;
                Some(None)
            }
            (_, Some(Action::Complete)) => {
                if let Some((draft, _)) = tab {
                    let spaced = if draft.ends_with(' ') {
                        draft
                    } else {
                        format!("{draft} ")
                    };
                    self.editor.set_text(&spaced);
                    self.palette = 0;
                    self.palette_chose = false;
                }
                Some(None)
            }
            (_, Some(Action::Submit)) => {
                let (draft, complete) = enter?;
                self.palette = 0;
                self.palette_chose = false;
                self.editor.set_text(&draft);
                if complete {
                    Some(self.act(Action::Submit))
                } else {
                    // A command that needs arguments is put in place for them, not run.
                    Some(None)
                }
            }
            _ => None,
        }
    }
}

/// Whether `row` holds `typed` (case ignored): what was typed is in the row itself, not only
/// fuzzily near it.
fn holds(row: &str, typed: &str) -> bool {
    row.to_lowercase().contains(&typed.to_lowercase())
}
