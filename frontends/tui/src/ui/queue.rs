//! The queue as the UI shows it: refreshed from the inbox after each batch of intents, and
//! given back to the draft when the work it waited for is aborted, and sent as the next turn
//! when the work ended before delivering it.

use super::{Effect, Queued, Ui};

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
        self.withdrawing.extend(queued.iter().map(|q| q.submission));
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

    /// Mark `text` as on its way (admitting, following the latest) before it is submitted.
    pub(crate) fn sending(&mut self, text: &str) {
        self.admitting = true;
        self.sent = Some(text.to_owned());
        self.status.state = "sending".into();
        self.follow_latest();
    }

    /// Submit `text` as a new turn.
    pub(crate) fn send(&mut self, text: String) -> Effect {
        self.sending(&text);
        Effect::Submit(text)
    }

    /// Input left in the queue once the work has ended: a follow-up sent as the run was
    /// ending, queued after the work's last look at the queue. It is what the person sent
    /// next, so it is withdrawn from the queue (recorded, saying why) and sent as the next
    /// turn — never left waiting for work that will not come, never delivered twice (only
    /// what was withdrawn is sent). `None` while work runs, for an observer, or with nothing
    /// left over.
    pub(crate) fn send_left_over(&mut self) -> Option<Effect> {
        if self.busy() || !matches!(self.held, super::Held::Writer) || self.enqueued.is_empty() {
            return None;
        }
        let inbox = self.inbox.clone()?;
        let mut texts = Vec::new();
        for q in std::mem::take(&mut self.queued) {
            let reason = "sent as the next turn: the work had ended before it was delivered";
            if !self.enqueued.contains(&q.submission) {
                self.queued.push(q);
            } else if inbox.withdraw(q.submission, reason).is_ok() {
                texts.push(q.text);
            }
        }
        self.status.queued = self.queued.len();
        (!texts.is_empty()).then(|| self.send(texts.join("\n\n")))
    }

    /// The queue as the inbox holds it now (delivered and withdrawn items leave it).
    pub(crate) fn refresh_queue(&mut self) {
        if let Some(inbox) = &self.inbox {
            let listed = inbox.queued();
            let still = |id: &smith::EntryId| listed.iter().any(|q| q.submission == *id);
            self.withdrawing.retain(still);
            self.enqueued.retain(still);
            self.queued = listed
                .into_iter()
                .filter(|q| !self.withdrawing.contains(&q.submission))
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
