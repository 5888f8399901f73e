//! The replay thread of `smith replay --tui`: the session's runs rebuilt from its file
//! ([`smith_app::playback`]) at the asked pace, each intent sent to the render loop as an
//! observed record, and a notice when the replay ends.

use std::path::PathBuf;

use smith::{Cancel, SessionId};
use smith_app::playback::{self, Options};
use smith_ui_intents::{Delivery, Intent, IntentSink, NoticeLevel};

use crate::event::{Event, Events};

/// Sends each intent to the render loop.
struct ToLoop(Events);

impl IntentSink for ToLoop {
    fn emit(&mut self, intent: Intent) -> Delivery {
        self.0.send(Event::Observed(vec![intent]));
        Delivery::Shown
    }
}

/// Replay session `id` (its file `path`) as `options` say on a thread of its own, until it
/// ends or `cancel` is cancelled.
pub(crate) fn start(
    path: PathBuf,
    id: SessionId,
    options: Options,
    cancel: Cancel,
    events: Events,
) {
    std::thread::spawn(move || {
        let mut sink = ToLoop(events.clone());
        let (level, text) = match playback::play(&path, id, &options, &cancel, &mut sink) {
            Ok(played) if played.stopped.is_some() => return,
            Ok(played) => {
                let mut text = format!(
                    "replay ended: {} turn(s), {} entries of session {id}; nothing ran and nothing was written",
                    played.turns, played.entries
                );
                if let Some(torn) = &played.torn {
                    text.push_str(&format!(
                        "; its last change was cut off ({torn}), so it ends at the last complete change"
                    ));
                }
                if !played.unknown.is_empty() {
                    text.push_str(&format!(
                        "; {} entr(ies) of a kind this Smith does not know were not replayed",
                        played.unknown.len()
                    ));
                }
                if played.skipped > 0 {
                    text.push_str(&format!(
                        "; {} damaged change(s) were skipped (`smith sessions verify {id}`)",
                        played.skipped
                    ));
                }
                (NoticeLevel::Info, text)
            }
            Err(e) => (NoticeLevel::Error, format!("the replay failed: {e}")),
        };
        events.send(Event::Notice(level, text));
    });
}
