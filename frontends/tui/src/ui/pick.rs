//! What the pickers' keys do (sessions, branches, plugins) and how their rows, overlays and
//! a changed branch reach the UI state.

use std::sync::atomic::Ordering;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Effect, Held, Layer, Ui};
use crate::go::Go;
use crate::keys::Action;
use crate::pickers::{Kind, Listed, Picker};
use crate::work::Write;

impl Ui {
    /// Open the picker of `kind` over everything else; its rows are read (the effect).
    pub(crate) fn open_picker(&mut self, kind: Kind) -> Option<Effect> {
        let request = self.listing.fetch_add(1, Ordering::AcqRel) + 1;
        let mut picker = Picker::new(kind, request);
        // Reopened (Tab between this directory and every one): the query stays.
        if let Some(Layer::Picker(old)) = self.layers.last()
            && matches!(
                (old.kind, kind),
                (Kind::Sessions { .. }, Kind::Sessions { .. })
            )
        {
            picker.query.clone_from(&old.query);
            picker.back = old.back;
            self.layers.pop();
        }
        self.layers.retain(|l| !matches!(l, Layer::Picker(_)));
        if kind == Kind::Themes {
            // The UI has them: no listing to wait for.
            picker.rows = self
                .product
                .themes
                .iter()
                .map(|t| crate::pickers::Row {
                    key: t.name.clone(),
                    label: t.name.clone(),
                    detail: t.summary.clone(),
                    depth: 0,
                    marked: self.product.theme.as_deref() == Some(t.name.as_str()),
                    branch: None,
                })
                .collect();
            picker.loading = false;
            self.layers.push(Layer::Picker(picker));
            return None;
        }
        self.layers.push(Layer::Picker(picker));
        Some(Effect::List(kind))
    }

    /// The picker on top, if it is one.
    fn picker_mut(&mut self) -> Option<&mut Picker> {
        match self.layers.last_mut() {
            Some(Layer::Picker(p)) => Some(p),
            _ => None,
        }
    }

    /// Rows read for a picker: appended when it is still open and waiting for them.
    pub(crate) fn listed(&mut self, listed: Listed) {
        let Some(picker) = self.layers.iter_mut().rev().find_map(|l| match l {
            Layer::Picker(p) if p.request == listed.request => Some(p),
            _ => None,
        }) else {
            return;
        };
        match listed.rows {
            Ok(rows) => picker.rows.extend(rows),
            Err(why) => picker.error = Some(why),
        }
        picker.loading = !listed.done;
        // The branches picker opens on the message the selected branch ends with.
        if picker.kind == Kind::Branches && listed.done && picker.query.is_empty() {
            picker.chosen = picker.rows.iter().rposition(|r| r.marked).unwrap_or(0);
        }
    }

    /// Show `text` in a scrollable overlay titled `title`.
    pub(crate) fn overlay(&mut self, title: String, text: String) {
        let lines = text.lines().map(str::to_owned).collect();
        self.layers.push(Layer::Text {
            title,
            lines,
            scroll: 0,
        });
    }

    /// The session's branch now ends at `leaf`: read the transcript of that branch.
    pub(crate) fn read_again_at(&mut self, leaf: u64) {
        self.read_again();
        if let Some(crate::history::Ask::Reload { leaf: at }) = self.asks.last_mut() {
            *at = Some(leaf);
        }
    }

    /// What the picker on top does with `key`.
    pub(crate) fn picker_key(&mut self, key: KeyEvent, action: Option<Action>) -> Option<Effect> {
        if let Some(effect) = self.effects_key(key) {
            return effect;
        }
        let page = self.page.max(2) - 1;
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let picker = self.picker_mut()?;
        let count = picker.shown().len();
        // The effects picker's query is a note: typing it keeps the chosen row.
        let filters = picker.kind != Kind::Effects;
        match (action, key.code) {
            (Some(Action::Escape), _) => {
                self.layers.pop();
                self.listing.fetch_add(1, Ordering::AcqRel);
                return None;
            }
            (Some(Action::Interrupt | Action::Quit), _) => {
                self.layers.pop();
                self.listing.fetch_add(1, Ordering::AcqRel);
                return self.act(action?);
            }
            (_, KeyCode::Up) => picker.chosen = picker.chosen.saturating_sub(1),
            (_, KeyCode::Down) => picker.chosen = (picker.chosen + 1).min(count.saturating_sub(1)),
            (_, KeyCode::PageUp) => picker.chosen = picker.chosen.saturating_sub(page),
            (_, KeyCode::PageDown) => {
                picker.chosen = (picker.chosen + page).min(count.saturating_sub(1));
            }
            (_, KeyCode::Home) => picker.chosen = 0,
            (_, KeyCode::End) => picker.chosen = count.saturating_sub(1),
            (_, KeyCode::Backspace) => {
                picker.delete_back();
                if filters {
                    picker.chosen = 0;
                }
            }
            (_, KeyCode::Delete) => {
                picker.delete_forward();
                if filters {
                    picker.chosen = 0;
                }
            }
            (_, KeyCode::Left) => picker.move_cursor(true),
            (_, KeyCode::Right) => picker.move_cursor(false),
            // Ctrl+U clears the filter, as it clears the draft.
            (_, KeyCode::Char('u')) if ctrl => {
                picker.clear_query();
                if filters {
                    picker.chosen = 0;
                }
            }
            (_, KeyCode::Tab) => {
                if let Kind::Sessions { all } = picker.kind {
                    return self.open_picker(Kind::Sessions { all: !all });
                }
            }
            (_, KeyCode::Char('e')) if ctrl => return self.edit_message(),
            (Some(Action::Submit), _) | (_, KeyCode::Enter) => return self.choose(),
            (_, KeyCode::Char(c)) if plain => {
                picker.insert(c.encode_utf8(&mut [0; 4]));
                if filters {
                    picker.chosen = 0;
                }
            }
            _ => {}
        }
        None
    }

    /// Enter on the chosen row.
    fn choose(&mut self) -> Option<Effect> {
        let Some(Layer::Picker(picker)) = self.layers.last() else {
            return None;
        };
        let Some(row) = picker.chosen_row().cloned() else {
            self.hint = Some(if picker.loading {
                "still reading: a moment".into()
            } else {
                "nothing to choose: change the query (Backspace) or Esc".into()
            });
            return None;
        };
        let kind = picker.kind;
        match kind {
            Kind::Sessions { .. } => {
                if row.marked {
                    self.hint = Some(format!("session {} is the one open here", row.key));
                    return None;
                }
                self.close_picker();
                Some(Effect::Go(Go::Attach(row.key)))
            }
            Kind::Branches => {
                let branch = row.branch?;
                match &self.held {
                    Held::Writer if self.busy() || self.compacting => {
                        self.close_picker();
                        self.hint = Some(
                            "work is running: another branch can be continued once it has ended (Esc aborts it)".into(),
                        );
                        None
                    }
                    Held::Writer => {
                        self.close_picker();
                        Some(Effect::Write(Write::Select(branch.tip)))
                    }
                    Held::Observer { .. } => {
                        // Navigation only: the writer's selection is not touched.
                        self.close_picker();
                        if let Held::Observer { follow, .. } = &mut self.held {
                            *follow = false;
                        }
                        self.read_again_at(branch.tip.0);
                        self.hint = Some(format!(
                            "showing the branch that ends at entry {} (read-only; the writer's branch is unchanged; Ctrl+F follows it again)",
                            branch.tip.0
                        ));
                        None
                    }
                    Held::Replay => {
                        self.hint =
                            Some("a replay shows one branch; Esc goes back to the session".into());
                        None
                    }
                }
            }
            Kind::Themes => {
                self.close_picker();
                Some(Effect::Command(format!("theme {}", row.key)))
            }
            // Its keys are its own (`Ui::effects_key`).
            Kind::Effects => None,
            Kind::Plugins => {
                if !matches!(self.held, Held::Writer) {
                    self.hint = Some("this view runs nothing, so it loads no plugins".into());
                    return None;
                }
                self.close_picker();
                Some(Effect::Write(Write::Plugin(row.key, !row.marked)))
            }
        }
    }

    /// Ctrl+E on a branches row: its message into the draft, to be sent as a new branch from
    /// where it was sent.
    fn edit_message(&mut self) -> Option<Effect> {
        let Some(Layer::Picker(picker)) = self.layers.last() else {
            return None;
        };
        if picker.kind != Kind::Branches {
            return None;
        }
        let branch = picker.chosen_row()?.branch.clone()?;
        if !matches!(self.held, Held::Writer) {
            self.close_picker();
            self.hint = Some(
                "read-only: editing a message writes a branch; /fork makes a writable copy first"
                    .into(),
            );
            return None;
        }
        if self.busy() || self.compacting {
            self.close_picker();
            self.hint = Some(
                "work is running: an edit starts a new branch once it has ended (Esc aborts it)"
                    .into(),
            );
            return None;
        }
        let Some(at) = branch.destination else {
            self.hint = Some(format!(
                "entry {} was sent onto no branch, so there is nowhere to fork it from",
                branch.entry.0
            ));
            return None;
        };
        if !self.editor.is_empty() {
            self.stash_draft();
        }
        self.close_picker();
        self.editor.set_text(&branch.input);
        self.editing = Some((at, branch.entry));
        self.status.state = format!("editing entry {}", branch.entry.0);
        self.hint = Some(format!(
            "editing entry {}: Enter sends it as a new branch from entry {} (the old branch stays) · Esc on an empty draft cancels",
            branch.entry.0, at.0
        ));
        None
    }

    fn close_picker(&mut self) {
        if matches!(self.layers.last(), Some(Layer::Picker(_))) {
            self.layers.pop();
        }
        self.listing.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests;
