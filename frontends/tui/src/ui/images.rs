//! Images pasted from the system clipboard into the draft (Ctrl+V): each stands in the
//! draft as a chip the editor knows by an id, the image itself kept here until the draft is
//! sent with it — or given back, with the draft as it was sent, when the submission is
//! refused.

use super::{Effect, Ui};
use crate::paste_image::Pasted;

impl Ui {
    /// Read the clipboard's image (Ctrl+V); it arrives as [`crate::event::Event::Pasted`].
    pub(super) fn paste_image(&mut self) -> Option<Effect> {
        if self.observer() {
            self.hint = Some("this view is read-only: nothing is sent from it, so no image is pasted (a fork is writable: /fork)".into());
            return None;
        }
        self.hint = Some("reading the clipboard's image…".into());
        Some(Effect::PasteImage)
    }

    /// The clipboard read ended: its image goes into the draft as a chip at the cursor, or
    /// the hint says why there is none.
    pub(crate) fn pasted(&mut self, read: Result<Pasted, String>) {
        match read {
            Ok(image) => {
                // Its id as it arrives, so two reads in flight never share one.
                self.next_image += 1;
                let id = self.next_image;
                if self.editor.attach(id, &format!("image · {}", image.label)) {
                    self.hint = None;
                    self.images.push((id, image));
                } else {
                    self.hint =
                        Some("the draft holds as many chips as it can: send it first".into());
                }
            }
            Err(why) => self.hint = Some(why),
        }
    }

    /// The images whose chips the draft holds, in the order they stand.
    pub(super) fn draft_images(&self) -> Vec<Pasted> {
        self.editor
            .attachments()
            .into_iter()
            .filter_map(|id| {
                self.images
                    .iter()
                    .find(|(i, _)| *i == id)
                    .map(|(_, p)| p.clone())
            })
            .collect()
    }

    /// The draft is being sent with its images: it and they are kept until the submission
    /// is admitted or refused (a refusal gives them back), the draft's others dropped.
    pub(super) fn sent_images(&mut self) {
        let ids = self.editor.attachments();
        self.images.retain(|(id, _)| ids.contains(id));
        self.images_sent = Some((self.editor.draft(), std::mem::take(&mut self.images)));
    }

    /// A refused submission comes back into the empty draft as it was sent: its text, its
    /// chips where they stood, its images.
    pub(super) fn restore_images(&mut self) {
        if let Some((draft, images)) = self.images_sent.take() {
            self.editor.set_draft(&draft);
            self.images = images;
        }
    }
}
