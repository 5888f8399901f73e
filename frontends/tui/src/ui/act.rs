//! What each action of the key table does to the UI state (a key bound to it, a command's
//! key action, the palette's Enter): submit, steer and commands, editing, the overlays,
//! scrolling, leaving.

use smith::Delivery;

use super::{Effect, Held, Layer, Ui};
use crate::keys::Action;

impl Ui {
    pub(super) fn act(&mut self, action: Action) -> Option<Effect> {
        match action {
            Action::Submit | Action::Steer => self.send_draft(action),
            Action::Newline => {
                self.editor.newline();
                None
            }
            Action::PasteImage => self.paste_image(),
            Action::Withdraw => {
                let last = self.queued.last()?.clone();
                if !self.editor.is_empty() {
                    self.hint = Some(
                        "the draft is not empty: send or clear it (Esc) before taking queued input back".into(),
                    );
                    return None;
                }
                self.editor.set_text(&last.text);
                self.queued.pop();
                self.status.queued = self.queued.len();
                self.withdrawing.push(last.submission);
                Some(Effect::Withdraw(last.submission))
            }
            Action::Escape => {
                if !self.choices.is_empty() {
                    self.choices.clear();
                    self.choice = None;
                } else if !self.editor.is_empty() {
                    self.stash_draft();
                } else if let Some((_, message)) = self.editing.take() {
                    self.status.state = "idle".into();
                    self.hint = Some(format!(
                        "editing entry {message} cancelled: the next message continues the current branch"
                    ));
                } else if let Some(work) = self.running {
                    self.status.state = "aborting".into();
                    return Some(Effect::Abort(work));
                } else if self.interrupted.take().is_some() {
                    return Some(Effect::SettleInterrupted);
                } else if matches!(self.held, Held::Replay) && self.back.is_some() {
                    // A replay opened from a session: back to it.
                    return Some(Effect::Go(crate::go::Go::Back));
                }
                None
            }
            Action::Complete => {
                self.complete();
                None
            }
            Action::ExternalEditor => Some(Effect::ExternalEditor),
            Action::ToggleThinking => {
                self.window.live.show_thinking = !self.window.live.show_thinking;
                None
            }
            Action::ToggleFollow => {
                if let Held::Observer { follow, .. } = &mut self.held {
                    *follow = !*follow;
                    if *follow {
                        self.follow_latest();
                    }
                }
                None
            }
            Action::Help => {
                self.layers.push(Layer::Help { scroll: 0 });
                None
            }
            Action::Palette => {
                if self.editor.is_empty() {
                    self.editor.set_text("/");
                    self.palette = 0;
                    self.palette_chose = false;
                } else {
                    self.hint = Some(format!(
                        "the palette opens on an empty draft: send or clear this one first ({} clears it; Up brings it back)",
                        self.keymap.keys_of(Action::Escape)
                    ));
                }
                None
            }
            Action::Search => {
                self.open_search();
                None
            }
            Action::HistorySearch => {
                self.open_recall();
                None
            }
            Action::TogglePlan => {
                self.toggle_plan();
                None
            }
            Action::Select => {
                self.open_select();
                None
            }
            Action::PageUp => self.scroll_by(-(self.page.max(2) as isize - 1)),
            Action::PageDown => self.scroll_by(self.page.max(2) as isize - 1),
            Action::LineUp => self.scroll_by(-1),
            Action::LineDown => self.scroll_by(1),
            Action::Top => {
                self.top();
                None
            }
            Action::Bottom => {
                self.follow_latest();
                None
            }
            Action::Interrupt => {
                if self.quit_armed {
                    return Some(Effect::Quit);
                }
                // Running work is interrupted first, the draft kept; pressed again while the
                // abort is under way, it arms leaving as when idle.
                if let Some(work) = self.running
                    && self.status.state != "aborting"
                {
                    self.status.state = "aborting".into();
                    self.hint = Some(
                        "interrupting the running work (recorded); Ctrl+C again arms leaving"
                            .to_owned(),
                    );
                    return Some(Effect::Abort(work));
                }
                let stashed = self.editor.stash();
                self.quit_armed = true;
                self.hint = Some(format!(
                    "press Ctrl+C again to leave{}{}",
                    if stashed {
                        " (the draft is kept: Up brings it back)"
                    } else {
                        ""
                    },
                    if self.running.is_some() {
                        " (the running work is aborted, recorded)"
                    } else {
                        ""
                    }
                ));
                None
            }
            Action::Quit => {
                if self.editor.is_empty() {
                    Some(Effect::Quit)
                } else {
                    self.editor.delete();
                    None
                }
            }
        }
    }

    /// Send the draft (Enter; `Action::Steer` queues it as a steer while work runs): a
    /// `/NAME` line runs that command, `//…` sends one `/` less, images go with a turn of
    /// their own, an edited earlier message starts a new branch.
    fn send_draft(&mut self, action: Action) -> Option<Effect> {
        if self.editor.is_empty() {
            if self.interrupted.is_some() && !self.busy() {
                if let Some(why) = self.cannot_submit() {
                    self.hint = Some(why);
                    return None;
                }
                self.interrupted = None;
                // Admitted again by its receipt: from then on Esc aborts it and input queues.
                self.admitting = true;
                self.status.state = "continuing".into();
                self.follow_latest();
                return Some(Effect::ContinueInterrupted);
            }
            return None;
        }
        // `/NAME …`: a command of the product layer (never sent to the model); `//…`
        // sends the text with one `/` less.
        let shown = self.editor.shown();
        if let Some(line) = shown.strip_prefix('/')
            && !line.starts_with('/')
            && !line.is_empty()
        {
            if line.contains('\n') {
                self.hint = Some(
                    "a command is one line: remove the line breaks, or start the draft with // to send it as a message".into(),
                );
                return None;
            }
            let line = line.to_owned();
            self.editor.submit()?;
            return self.command(line);
        }
        if let Some(why) = self.cannot_submit() {
            self.hint = Some(why);
            return None;
        }
        if shown.starts_with("//") {
            // One `/` less, the chips kept.
            self.editor.delete_first_char();
        }
        if self.busy() && self.editing.is_some() {
            self.hint = Some(
                "work is running: the edited message starts a new branch once it has ended; send it then (Esc aborts the work)".into(),
            );
            return None;
        }
        let images = self.draft_images();
        if !images.is_empty() && self.busy() {
            self.hint = Some("an image goes with a turn of its own: send this draft once the work has ended (or delete the image's chip to queue the text)".into());
            return None;
        }
        if !images.is_empty() {
            self.sent_images();
        }
        let text = self.editor.submit()?;
        if !images.is_empty() {
            let at = self.editing.take().map(|(at, _)| at);
            self.sending(&text);
            return Some(Effect::SubmitImages { text, at, images });
        }
        if self.busy() {
            let delivery = if action == Action::Steer {
                Delivery::Steer
            } else {
                Delivery::FollowUp
            };
            return Some(Effect::Enqueue(text, delivery));
        }
        match self.editing.take() {
            // An earlier message edited: a new branch from where it was sent.
            Some((at, _)) => {
                self.sending(&text);
                Some(Effect::SubmitAt(text, at))
            }
            None => Some(self.send(text)),
        }
    }

    /// Hide the plan's panel or show it again; with no plan, say so and change nothing.
    fn toggle_plan(&mut self) {
        if self.plan.is_empty() {
            self.hint = Some(
                "no plan yet: the model writes one with todo_write for multi-step work".into(),
            );
            return;
        }
        self.plan_hidden = !self.plan_hidden;
        self.hint = Some(if self.plan_hidden {
            format!(
                "plan hidden ({} shows it)",
                self.keymap.keys_of(Action::TogglePlan)
            )
        } else {
            "plan shown".into()
        });
    }
}
