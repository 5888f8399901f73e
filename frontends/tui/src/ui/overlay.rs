//! An observer's view of what the writer streams (`smith_app::live`): the assistant message
//! being streamed, drawn after the committed transcript, and the newest progress of running
//! tool calls. The streamed message is withdrawn before committed records are folded in and
//! shown again after them unless a committed assistant message has ended it, so a message
//! never shows twice.

use smith::Role;
use smith_app::live::LiveSnapshot;
use smith_ui_intents::{DeltaKind, Intent};

use super::Ui;

/// Message ids the overlay's streamed messages take (counting down from here), far from the
/// entry ids committed messages carry.
const FIRST_ID: u64 = u64::MAX - 1;

/// What the writer streams now, and how much of it is shown.
#[derive(Debug, Default)]
pub(crate) struct Overlay {
    snapshot: LiveSnapshot,
    /// The largest entry id of a committed assistant message folded in: a streamed message
    /// whose attempt precedes it has ended.
    last_assistant: u64,
    /// Streamed messages shown now.
    shown: u64,
}

impl Ui {
    /// Fold in committed records an observer read, around the streamed overlay.
    pub(crate) fn observed(&mut self, intents: &[Intent]) {
        self.withdraw_overlay();
        for intent in intents {
            if let Intent::MessageEnd {
                entry_id: Some(id),
                message,
                ..
            } = intent
                && message.role == Role::Assistant
            {
                self.overlay.last_assistant = self.overlay.last_assistant.max(*id);
            }
            self.apply(intent);
        }
        self.show_overlay();
    }

    /// The writer streams `snapshot` now.
    pub(crate) fn streaming(&mut self, snapshot: LiveSnapshot) {
        self.withdraw_overlay();
        self.overlay.snapshot = snapshot;
        self.show_overlay();
    }

    fn withdraw_overlay(&mut self) {
        for n in 0..std::mem::take(&mut self.overlay.shown) {
            self.window.live.withdraw(FIRST_ID - n);
        }
    }

    fn show_overlay(&mut self) {
        let Overlay {
            snapshot,
            last_assistant,
            shown,
        } = &mut self.overlay;
        for m in snapshot
            .messages
            .iter()
            .filter(|m| m.attempt > *last_assistant)
        {
            let message_id = FIRST_ID - *shown;
            *shown += 1;
            let live = &mut self.window.live;
            live.apply(&Intent::MessageStart {
                message_id,
                role: Role::Assistant,
            });
            for (kind, text) in [
                (DeltaKind::Thinking, &m.thinking),
                (DeltaKind::Text, &m.text),
            ] {
                if !text.is_empty() {
                    live.apply(&Intent::MessageDelta {
                        message_id,
                        kind,
                        text: text.clone(),
                    });
                }
            }
        }
        for (call_id, text) in &snapshot.tools {
            self.window.live.apply(&Intent::ToolUpdate {
                call_id: call_id.clone(),
                text: text.clone(),
            });
        }
    }
}
