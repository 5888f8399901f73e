//! The effects of unknown outcome a recovery left, offered for a verdict when the session is
//! opened (spec: Durable effect boundary — "Unknown → Reconciled: explicit reconciliation"):
//! a picker of them whose query is the note, Ctrl+A for "it took effect", Ctrl+N for "it did
//! not" (one at a time: the next waits until the rows read again show it recorded, the note
//! kept until then). `smith effects` lists and reconciles them from the command line.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use smith::EffectOutcome;
use smith_app::verdicts::UnknownEffect;

use super::{Effect, Held, Layer, Ui};
use crate::pickers::{Kind, Picker, effect_row};
use crate::work::Write;

impl Ui {
    /// The session's effects of unknown outcome, as read now: the open effects picker shows
    /// them, and closes once each has its verdict; else, the first time (the session just
    /// opened), they are offered when one has no verdict and this view writes the session.
    pub(crate) fn unknown_effects(&mut self, effects: &[UnknownEffect]) {
        let rows: Vec<_> = effects.iter().map(effect_row).collect();
        let judged = effects.iter().all(|e| e.verdict.is_some());
        let open = self
            .layers
            .iter()
            .position(|l| matches!(l, Layer::Picker(p) if p.kind == Kind::Effects));
        if let Some(at) = open {
            if judged {
                self.layers.remove(at);
            } else if let Layer::Picker(picker) = &mut self.layers[at] {
                let recorded = picker.pending.take().is_some_and(|done| {
                    effects
                        .iter()
                        .any(|e| e.address == done && e.verdict.is_some())
                });
                if recorded {
                    // The note goes with it; on to the next one without a verdict.
                    picker.clear_query();
                    picker.error = None;
                    picker.chosen = effects
                        .iter()
                        .position(|e| e.verdict.is_none())
                        .unwrap_or(0);
                } else {
                    picker.chosen = picker.chosen.min(rows.len().saturating_sub(1));
                }
                picker.rows = rows;
            }
            return;
        }
        let offered = std::mem::replace(&mut self.effects_offered, true);
        if offered || judged || !matches!(self.held, Held::Writer) {
            return;
        }
        let mut picker = Picker::new(Kind::Effects, 0);
        // The first without a verdict is chosen.
        picker.chosen = effects
            .iter()
            .position(|e| e.verdict.is_none())
            .unwrap_or(0);
        picker.rows = rows;
        picker.loading = false;
        self.layers.push(Layer::Picker(picker));
    }

    /// A verdict was refused (`why`): said in the effects picker, whose note and chosen row
    /// stay; with no picker open, in the transcript.
    pub(crate) fn verdict_refused(&mut self, why: String) {
        match self.layers.iter_mut().find_map(|l| match l {
            Layer::Picker(p) if p.kind == Kind::Effects => Some(p),
            _ => None,
        }) {
            Some(picker) => {
                picker.pending = None;
                picker.error = Some(why);
            }
            None => self.refused(why),
        }
    }

    /// What the effects picker does with `key`, when it is one of its own: Ctrl+A and Ctrl+N
    /// record the verdict on the chosen effect with the typed note; Enter says how. `None`:
    /// the key is the picker's as any picker's (moving, typing the note, Esc).
    pub(crate) fn effects_key(&mut self, key: KeyEvent) -> Option<Option<Effect>> {
        let Some(Layer::Picker(picker)) = self.layers.last() else {
            return None;
        };
        if picker.kind != Kind::Effects {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let outcome = match key.code {
            KeyCode::Char('a') if ctrl => EffectOutcome::Applied,
            KeyCode::Char('n') if ctrl => EffectOutcome::NotApplied,
            KeyCode::Enter => {
                self.hint = Some(
                    "Ctrl+A records that the chosen effect took effect, Ctrl+N that it did not, with the note typed; Esc leaves them unknown".into(),
                );
                return Some(None);
            }
            _ => return None,
        };
        if picker.pending.is_some() {
            self.hint = Some("recording the verdict before: a moment".into());
            return Some(None);
        }
        let Some(effect) = picker.chosen_row().map(|r| r.key.clone()) else {
            return Some(None);
        };
        if !matches!(self.held, Held::Writer) {
            self.hint = Some("read-only: a verdict is written to the session".into());
            return Some(None);
        }
        let note = picker.query.trim().to_owned();
        let Some(Layer::Picker(picker)) = self.layers.last_mut() else {
            return Some(None);
        };
        if note.len() > smith_app::verdicts::MAX_NOTE_BYTES {
            picker.error = Some(format!(
                "the note is {} bytes, over the bound of {}: shorten it (Backspace, Ctrl+U clears it)",
                note.len(),
                smith_app::verdicts::MAX_NOTE_BYTES
            ));
            return Some(None);
        }
        picker.error = None;
        picker.pending = Some(effect.clone());
        Some(Some(Effect::Write(Write::Verdict {
            effect,
            outcome,
            note,
        })))
    }
}
