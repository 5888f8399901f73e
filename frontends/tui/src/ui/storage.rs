//! The UI's side of the transcript window and the storage worker: scrolling, what it asks
//! the worker for, and what the worker sends back (chunks, the branch's summary, a search's
//! answer, a second read of the file). No I/O: asks are queued in `Ui::asks` for the loop.

use smith_render_terminal::window::Key;
use smith_ui_intents::Intent;

use super::{Effect, Ui};
use crate::event::Event;
use crate::history::Ask;

impl Ui {
    pub(crate) fn scroll_by(&mut self, delta: isize) -> Option<Effect> {
        self.window.scroll_by(delta, self.page);
        None
    }

    /// Back to the newest output, following it; the newest chunk is asked for again when
    /// it was let go.
    pub(crate) fn follow_latest(&mut self) {
        if self.window.follow() {
            self.ask_chunk(0);
        }
    }

    /// To the oldest line: at once when the oldest chunk is resident, else when it comes.
    pub(super) fn top(&mut self) {
        if self.window.has_older() {
            self.jump_top = true;
            self.asks.push(Ask::Oldest);
            return;
        }
        let first = match self.window.resident().first() {
            Some(&n) => Key::history(n, 0),
            None => Key::live(0),
        };
        self.window.show(first);
    }

    /// Ask the storage worker for chunk `n`, once until it comes.
    pub(crate) fn ask_chunk(&mut self, n: u32) {
        if self.asked.insert(n) {
            self.asks.push(Ask::Chunk(n));
        }
    }

    /// A chunk the storage worker prepared: resident now (if it is from the current read of
    /// the file).
    pub(crate) fn chunk(&mut self, epoch: u64, chunk: smith_render_terminal::window::Chunk) {
        if epoch != self.epoch {
            return;
        }
        self.asked.remove(&chunk.number);
        let (number, older) = (chunk.number, chunk.older);
        if number == 0 {
            self.loading = false;
        }
        self.window.insert(chunk, &self.theme);
        if self.jump_top && !older {
            self.jump_top = false;
            self.window.show(Key::history(number, 0));
        }
    }

    /// What the storage worker sent: a chunk, the branch's summary, a search's answer (any
    /// other event is not the worker's and is ignored here).
    pub(crate) fn storage_event(&mut self, event: Event) {
        match event {
            Event::Chunk { epoch, chunk } => self.chunk(epoch, chunk),
            Event::Summary {
                epoch,
                cost_usd,
                prompts,
            } if epoch == self.epoch => {
                if std::mem::replace(&mut self.summarized, true) {
                    // A second read of the file (the live stream fell behind): its sum
                    // already holds this run's recorded cost, and its prompts are in Up's
                    // history.
                    if let Some(c) = cost_usd {
                        self.status.cost_usd = Some(c);
                    }
                } else {
                    // What the branch cost before this run, and its prompts as Up's
                    // history (before those of this run).
                    if let Some(c) = cost_usd {
                        *self.status.cost_usd.get_or_insert(0.0) += c;
                    }
                    self.editor.remember_earlier(&prompts);
                }
            }
            Event::Found {
                generation,
                epoch,
                chunk,
                index,
            } => self.found(generation, epoch, chunk, index),
            Event::NotFound { generation, older } => self.not_found(generation, older),
            _ => {}
        }
    }

    /// After a frame: ask for what the view nears, let go what it left.
    pub(crate) fn after_frame(&mut self) {
        let wants = self.window.wants(self.page);
        for n in [wants.older, wants.newer].into_iter().flatten() {
            self.ask_chunk(n);
        }
        self.window.evict(self.page);
    }

    /// The live stream fell behind: read the history again from a new snapshot; the live
    /// blocks give way to it (the frontend's notices stay).
    pub(crate) fn read_again(&mut self) {
        self.epoch += 1;
        self.loading = true;
        self.asked.clear();
        self.window.clear_history();
        let mut live = smith_render_terminal::transcript::Transcript::new();
        live.show_thinking = self.window.live.show_thinking;
        for block in self.window.live.blocks() {
            if let smith_render_terminal::transcript::Block::Notice { level, text } = block {
                live.apply(&Intent::Notice {
                    level: *level,
                    text: text.clone(),
                });
            }
        }
        self.window.live = live;
        self.window.scroll = smith_render_terminal::window::Scroll::Follow;
        self.asks.push(Ask::Reload);
    }
}
