//! The queue as the UI shows it: refreshed from the inbox after each batch of intents, and
//! given back to the draft when the work it waited for is aborted.

use super::{Queued, Ui};

impl Ui {
    /// After an abort, input queued for the aborted work would wait behind whatever is sent
    /// next: it goes back into the draft (a draft being typed goes to the input history, Up
    /// brings it back), to be sent, mended or dropped, and is withdrawn from the queue.
    pub(super) fn take_back_queued(&mut self) {
        if self.queued.is_empty() {
            return;
        }
        let queued = std::mem::take(&mut self.queued);
        let kept = self.editor.stash();
        let text: Vec<&str> = queued.iter().map(|q| q.text.as_str()).collect();
        self.editor.set_text(&text.join("\n"));
        self.stranded.extend(queued.iter().map(|q| q.submission));
        self.status.queued = 0;
        self.hint = Some(format!(
            "the work was aborted: the {} queued message(s) are back in the draft (Enter sends them){}",
            queued.len(),
            if kept {
                "; your draft is in the input history (Up)"
            } else {
                ""
            }
        ));
    }

    /// The queue as the inbox holds it now (delivered and withdrawn items leave it).
    pub(crate) fn refresh_queue(&mut self) {
        if let Some(inbox) = &self.inbox {
            self.queued = inbox
                .queued()
                .into_iter()
                .map(|q| Queued {
                    submission: q.submission,
                    delivery: q.delivery,
                    text: q.input,
                })
                .collect();
            self.status.queued = self.queued.len();
        }
    }
}
