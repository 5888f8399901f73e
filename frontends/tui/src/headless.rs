//! The terminal UI without a terminal: the same state, storage worker and drawing as
//! [`crate::run`], drawn into an in-memory buffer, driven by keys. For the working-set tests
//! and the frame and search benchmarks (`cargo xtask bench`); not a frontend, and not a
//! stable interface.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use smith_render_terminal::Theme;

use crate::event::{Event, Events};
use crate::history::{self, Storage};
use crate::layers::{Finding, Layer};
use crate::ui::{Held, Ui};

/// The storage worker did not answer within the deadline (`what` was awaited), or it
/// stopped (the session file could not be read: its notice says why).
#[derive(Debug, thiserror::Error)]
#[error("the headless terminal UI waited {waited:?} for {what}; the storage worker did not answer")]
pub struct Stalled {
    /// What was awaited.
    pub what: String,
    /// How long.
    pub waited: Duration,
}

/// A UI on one session file, as a writer opening it would show it, `width` × `height` cells.
pub struct Headless {
    ui: Ui,
    storage: Storage,
    rx: mpsc::Receiver<(u64, Event)>,
    events: Events,
    buf: Buffer,
}

impl Headless {
    /// Open `session` (a `.smith` file): the storage worker starts reading it, as it does in
    /// the terminal.
    pub fn open(session: &Path, width: u16, height: u16) -> Self {
        let (events, rx) = Events::channel();
        let storage = history::start(session.to_owned(), events.clone(), None);
        let mut ui = Ui::new(
            Theme::default(),
            Held::Writer,
            "headless".into(),
            std::path::PathBuf::from("."),
        );
        ui.loading = true;
        let buf = Buffer::empty(Rect::new(0, 0, width, height));
        Self {
            ui,
            storage,
            rx,
            events,
            buf,
        }
    }

    /// Draw one frame (as the loop does after events), then pass what the view asks for to
    /// the storage worker.
    pub fn frame(&mut self) {
        let area = self.buf.area;
        self.buf.reset();
        crate::draw::draw(&mut self.ui, area, &mut self.buf);
        self.ui.after_frame();
        for ask in self.ui.asks.drain(..) {
            self.storage.ask(ask);
        }
    }

    /// Whether the UI waits on the storage worker: a chunk asked for, the first chunk, the
    /// oldest, a search.
    fn waiting(&self) -> Option<&'static str> {
        if self.ui.loading {
            Some("the newest chunk")
        } else if self.ui.fold.is_some() {
            Some("the newest chunk of the history read again")
        } else if self.ui.jump_top {
            Some("the oldest chunk")
        } else if !self.ui.asked.is_empty() {
            Some("the chunks the view nears")
        } else if matches!(
            self.ui.layers.last(),
            Some(Layer::Search(s)) if s.finding == Finding::Searching
        ) {
            Some("a search")
        } else {
            None
        }
    }

    /// Frames and the worker's answers until nothing is awaited (each answer drawn, so the
    /// next chunk the view nears is asked for too).
    ///
    /// # Errors
    /// [`Stalled`] when an answer takes longer than `deadline`.
    pub fn settle(&mut self, deadline: Duration) -> Result<(), Stalled> {
        self.frame();
        while let Some(what) = self.waiting() {
            let started = Instant::now();
            let event = self.rx.recv_timeout(deadline).map_err(|_| Stalled {
                what: what.to_owned(),
                waited: started.elapsed(),
            })?;
            self.ui.storage_event(event.1);
            while let Ok((_, event)) = self.rx.try_recv() {
                self.ui.storage_event(event);
            }
            self.frame();
        }
        Ok(())
    }

    /// Move running tools' clocks to `now`, as the loop does while a tool runs.
    pub fn tick(&mut self, now: std::time::Instant) {
        self.ui.window.live.tick(now);
    }

    /// Fold in a live intent (as the session's work emits them), without drawing.
    pub fn apply(&mut self, intent: &smith_ui_intents::Intent) {
        self.ui.apply(intent);
    }

    /// A turn's work ended with the session's leaf at `leaf` (as the work thread reports it),
    /// then draw: this may fold the live blocks into history ([`Headless::settle`] waits).
    pub fn work_ended(&mut self, leaf: u64) {
        self.ui.work_ended(Some(leaf));
        self.frame();
    }

    /// Whether live blocks are being folded into history (the read they give way to has not
    /// come yet).
    pub fn folding(&self) -> bool {
        self.ui.fold.is_some()
    }

    /// Live blocks resident now (this process's own runs, not yet folded into history).
    pub fn live_blocks(&self) -> usize {
        self.ui.window.live.blocks().len()
    }

    /// Give the UI the bundled product layer (the palette's commands and keys) and the
    /// pickers' values of `app` (its catalog's models, its plugins).
    pub fn with_product(mut self, app: &smith_app::App) -> Self {
        self = self.with_bundled_keys();
        self.ui.values = std::sync::Arc::new(smith_app::product::ArgumentValues::of(app));
        self
    }

    /// Give the UI the bundled product layer's commands and key bindings (Ctrl+R searches,
    /// as in the terminal), no pickers' values.
    pub fn with_bundled_keys(mut self) -> Self {
        self.ui = self.ui.with_bundled_product();
        self
    }

    /// Open the resume picker over `app`'s sessions started in `cwd` (read on their thread, as
    /// in the terminal), then draw its first frame.
    pub fn open_sessions(&mut self, app: &std::sync::Arc<smith_app::App>, cwd: &Path) {
        self.open_picker(app, cwd, crate::pickers::Kind::Sessions { all: false });
    }

    /// Open the branches picker of `session` (a `.smith` file), then draw its first frame.
    pub fn open_branches(&mut self, app: &std::sync::Arc<smith_app::App>, session: &Path) {
        self.ui.opened = Some((smith::SessionId::new_now(), session.to_owned()));
        self.open_picker(app, Path::new("."), crate::pickers::Kind::Branches);
    }

    fn open_picker(
        &mut self,
        app: &std::sync::Arc<smith_app::App>,
        cwd: &Path,
        kind: crate::pickers::Kind,
    ) {
        let _ = self.ui.open_picker(kind);
        crate::pickers::start(
            app,
            cwd,
            self.ui.opened.clone(),
            kind,
            (
                self.ui.listing.load(std::sync::atomic::Ordering::Acquire),
                std::sync::Arc::clone(&self.ui.listing),
            ),
            &self.events,
        );
        self.frame();
    }

    /// Wait for the open picker's next batch of rows and draw it; how many rows it holds and
    /// whether more are being read.
    ///
    /// # Errors
    /// [`Stalled`] when no batch comes within `deadline`.
    pub fn picker_rows(&mut self, deadline: Duration) -> Result<(usize, bool), Stalled> {
        let started = Instant::now();
        loop {
            let left = deadline.saturating_sub(started.elapsed());
            let (_, event) = self.rx.recv_timeout(left).map_err(|_| Stalled {
                what: "the picker's rows".to_owned(),
                waited: started.elapsed(),
            })?;
            if let Event::Listed(listed) = event {
                self.ui.listed(listed);
                self.frame();
                return Ok(match self.ui.layers.last() {
                    Some(Layer::Picker(p)) => (p.rows.len(), p.loading),
                    _ => (0, false),
                });
            }
        }
    }

    /// Close the overlay or the draft (Esc), then draw.
    pub fn escape(&mut self) {
        self.key(KeyCode::Esc, KeyModifiers::NONE);
    }

    /// Press `code` with `modifiers`, then draw.
    pub fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) {
        let _ = self.ui.key(KeyEvent::new(code, modifiers));
        self.frame();
    }

    /// Type `text` (each character a key), then draw.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let _ = self
                .ui
                .key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        self.frame();
    }

    /// Whether the search on top has found its match (and it is shown).
    pub fn found(&self) -> bool {
        matches!(
            self.ui.layers.last(),
            Some(Layer::Search(s)) if s.finding == Finding::Found
        )
    }

    /// Bytes the resident transcript holds (its blocks and their drawn lines): what the
    /// working set bounds.
    pub fn resident_bytes(&self) -> usize {
        self.ui.window.resident_bytes()
    }

    /// History chunks resident now.
    pub fn resident_chunks(&self) -> usize {
        self.ui.window.resident().len()
    }

    /// The last frame as text, rows trimmed.
    pub fn screen(&self) -> String {
        let area = self.buf.area;
        (area.top()..area.bottom())
            .map(|y| {
                (area.left()..area.right())
                    .map(|x| self.buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
