//! The UI's side of the transcript window and the storage worker: scrolling, what it asks
//! the worker for, and what the worker sends back (chunks, the branch's summary, a search's
//! answer, a second read of the file). No I/O: asks are queued in `Ui::asks` for the loop.

use smith_render_terminal::window::Key;
use smith_ui_intents::Intent;

use super::{Effect, Ui};

/// Live blocks a writer keeps before folding them into history at an idle turn end.
pub(crate) const FOLD_AT: usize = 200;
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

    /// A turn's work ended with the session's leaf at `leaf`: idle now. When this process's
    /// own runs have left more than [`FOLD_AT`] live blocks and the view follows the bottom
    /// with no overlay open,
    /// the history is read again up to `leaf`, and those blocks give way to it when its
    /// newest chunk comes ([`Ui::chunk`]): what the process itself ran stays windowed like
    /// history read from the file (spec: Working sets — UI retention follows visible content
    /// and bounded scrollback caches, not total history size).
    pub(crate) fn work_ended(&mut self, leaf: Option<u64>) {
        self.admitting = false;
        self.running = None;
        self.status.state = "idle".into();
        self.refresh_queue();
        let blocks = self.window.live.blocks().len();
        if matches!(self.held, super::Held::Writer)
            && blocks > FOLD_AT
            && self.window.scroll == smith_render_terminal::window::Scroll::Follow
            && self.layers.is_empty()
            && self.fold.is_none()
            && !self.loading
            && let Some(leaf) = leaf
        {
            self.fold = Some((self.epoch + 1, blocks));
            self.folded = Some(self.epoch + 1);
            self.asks.push(Ask::Reload { leaf: Some(leaf) });
        }
    }

    /// A chunk the storage worker prepared: resident now (if it is from the current read of
    /// the file). The first chunk of a fold's read (its newest) replaces the history and the
    /// live blocks it holds in one step, so no frame shows either twice or neither.
    pub(crate) fn chunk(&mut self, epoch: u64, chunk: smith_render_terminal::window::Chunk) {
        if let Some((fold, blocks)) = self.fold
            && epoch == fold
        {
            self.fold = None;
            self.epoch = fold;
            self.asked.clear();
            self.window.clear_history();
            self.window.drop_live_front(blocks);
            // A view held in the history that was read again has no anchor in the new read.
            self.window.scroll = smith_render_terminal::window::Scroll::Follow;
        }
        if epoch != self.epoch {
            return;
        }
        self.asked.remove(&chunk.number);
        let (number, older) = (chunk.number, chunk.older);
        // A chunk asked for while the view was elsewhere (the search jumped since) must not
        // replace the range the view now holds: inserting a chunk far from the resident
        // ones clears them, and the view would fall to the top of the one that came. It is
        // let go; the window asks again for what the view nears.
        let held = match self.window.scroll {
            smith_render_terminal::window::Scroll::Held { key, .. } => key.chunk(),
            smith_render_terminal::window::Scroll::Follow => Some(0),
        };
        let wanted = held == Some(number) || (self.jump_top && !older);
        if !self.window.joins(number) && !wanted {
            return;
        }
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
            // A fold's read holds nothing the status and Up's history lack.
            Event::Summary { epoch, .. } if self.folded == Some(epoch) => {}
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
        // A fold still under way was the worker's latest read: this one follows it.
        self.epoch = self.fold.take().map_or(self.epoch, |(f, _)| f) + 1;
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
        self.window.replace_live(live);
        self.window.scroll = smith_render_terminal::window::Scroll::Follow;
        self.asks.push(Ask::Reload { leaf: None });
    }
}
