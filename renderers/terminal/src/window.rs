//! The transcript's working set and its visible window (spec: Terminal interface, Working
//! sets; DESIGN §10). Recorded history arrives as immutable **chunks** — chunk 0 the newest,
//! each higher number older — that a storage worker prepares; a few are resident, next to
//! each other, and the rest are asked for as the view nears them and let go as it leaves
//! them, so resident memory follows what is visible, not the history's size. After the
//! history come the **live** blocks this run folds from intents ([`Transcript`]).
//!
//! The view is anchored to a block ([`Key`]) and a line in it, never to a line number: new
//! output, chunks arriving or leaving above, and reflow at a new width never move a view that
//! is held ("scrolling away from the bottom does not jump on new output"). Lines are drawn per
//! block and kept until the block, the width or the thinking setting changes, so a frame
//! re-wraps only what changed.

use std::collections::VecDeque;

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::text::Line;

use crate::Theme;
use crate::transcript::{Block, Transcript, block_lines};

/// Resident chunks at most; the one the view is in and its neighbours always stay.
pub const RESIDENT_CHUNKS: usize = 5;

/// A block's place in the whole transcript: a history chunk's block, or a live one. Ordered
/// oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// `-1 - chunk` for history (older chunks are smaller), 0 for live blocks.
    part: i64,
    /// The block's index in its chunk, or among the live blocks.
    pub index: usize,
}

impl Key {
    /// Block `index` of history chunk `chunk`.
    pub fn history(chunk: u32, index: usize) -> Self {
        Self {
            part: -1 - i64::from(chunk),
            index,
        }
    }

    /// Live block `index`.
    pub fn live(index: usize) -> Self {
        Self { part: 0, index }
    }

    /// The history chunk it is in; `None` for a live block.
    pub fn chunk(self) -> Option<u32> {
        (self.part < 0).then(|| u32::try_from(-1 - self.part).unwrap_or(u32::MAX))
    }
}

/// Where the view is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scroll {
    /// At the bottom: new lines scroll into view.
    #[default]
    Follow,
    /// Held with line `line` of block `key` at the top.
    Held {
        /// The block at the top.
        key: Key,
        /// Its first line shown (its separator line is 0 when it has one).
        line: usize,
    },
}

/// One chunk of recorded history, as the storage worker prepares it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// Its number: 0 the newest, higher older.
    pub number: u32,
    /// Its blocks, oldest first.
    pub blocks: Vec<Block>,
    /// More history lies before it.
    pub older: bool,
}

#[derive(Debug)]
struct Resident {
    chunk: Chunk,
    lines: Vec<Vec<Line<'static>>>,
}

#[derive(Debug, Default)]
struct Drawn {
    rev: u64,
    lines: Vec<Line<'static>>,
}

/// Lines of a block shown above the line a search lands on.
pub const MATCH_CONTEXT: usize = 2;

/// The resident history, the live transcript, their lines at one width, and the view.
#[derive(Debug, Default)]
pub struct Window {
    /// The live blocks, folded from this run's intents.
    pub live: Transcript,
    chunks: VecDeque<Resident>,
    drawn: Vec<Drawn>,
    width: u16,
    thinking: bool,
    /// Where the view is.
    pub scroll: Scroll,
    unseen: bool,
    seen_revision: u64,
}

/// What the window would have the storage worker read next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wants {
    /// An older chunk, for a view near the top of what is resident.
    pub older: Option<u32>,
    /// A newer chunk, for a view near the bottom of resident history that is not the newest.
    pub newer: Option<u32>,
}

impl Window {
    /// An empty window, following the bottom.
    pub fn new() -> Self {
        Self::default()
    }

    /// Put `chunk` in: next to the resident ones (older or newer), or, when it is not their
    /// neighbour, in their place. A chunk already resident is left as it is.
    pub fn insert(&mut self, chunk: Chunk, theme: &Theme) {
        let lines = self.draw_chunk(&chunk, theme);
        let resident = Resident { chunk, lines };
        let n = resident.chunk.number;
        match (self.chunks.front(), self.chunks.back()) {
            (Some(f), _) if f.chunk.number + 1 == n => self.chunks.push_front(resident),
            (_, Some(b)) if b.chunk.number == n + 1 => self.chunks.push_back(resident),
            _ if self.chunks.iter().any(|r| r.chunk.number == n) => {}
            _ => {
                self.chunks.clear();
                self.chunks.push_back(resident);
            }
        }
    }

    /// Let the first `n` live blocks go, their content now in the resident history read
    /// again: their lines go with them, and a view held on one of them follows the bottom
    /// (one held below them stays where it is).
    pub fn drop_live_front(&mut self, n: usize) {
        let n = n.min(self.live.blocks().len());
        self.live.drop_front(n);
        self.drawn.drain(..n.min(self.drawn.len()));
        if let Scroll::Held { key, line } = self.scroll
            && key.chunk().is_none()
        {
            self.scroll = match key.index.checked_sub(n) {
                Some(index) => Scroll::Held {
                    key: Key::live(index),
                    line,
                },
                None => Scroll::Follow,
            };
        }
    }

    /// Put `live` in place of the live blocks (the transcript read again keeps only some),
    /// forgetting every cached line of the old ones.
    pub fn replace_live(&mut self, live: Transcript) {
        self.live = live;
        // Its revisions start again: no cached line of the old blocks may pass for the new.
        self.drawn.clear();
    }

    /// Let every resident chunk go (a history read again from the start).
    pub fn clear_history(&mut self) {
        self.chunks.clear();
    }

    /// The resident chunks' numbers, oldest first.
    pub fn resident(&self) -> Vec<u32> {
        self.chunks.iter().map(|r| r.chunk.number).collect()
    }

    /// Whether chunk `n` would join the resident range where it is (it is resident, next to
    /// either end, or nothing is resident) rather than replace the whole range
    /// ([`Window::insert`] clears the range for a chunk far from it).
    pub fn joins(&self, n: u32) -> bool {
        match (self.chunks.front(), self.chunks.back()) {
            (Some(front), Some(back)) => n <= front.chunk.number + 1 && n + 1 >= back.chunk.number,
            _ => true,
        }
    }

    /// Whether history older than the resident chunks lies in the file.
    pub fn has_older(&self) -> bool {
        self.chunks.front().is_some_and(|r| r.chunk.older)
    }

    /// Whether the newest chunk is resident (or there is no history), so the live blocks
    /// follow the resident history and are shown.
    pub fn shows_live(&self) -> bool {
        self.chunks.back().is_none_or(|r| r.chunk.number == 0)
    }

    fn draw_chunk(&self, chunk: &Chunk, theme: &Theme) -> Vec<Vec<Line<'static>>> {
        chunk
            .blocks
            .iter()
            .map(|b| block_lines(b, self.thinking, theme, self.width.max(1)))
            .collect()
    }

    /// Draw every line again at the next [`Window::layout`] (after a theme change: the
    /// cached lines carry the old styles).
    pub fn restyle(&mut self) {
        self.width = 0;
    }

    /// Bring every line up to date for `width` columns: everything again when the width or
    /// the thinking setting changed, else only live blocks whose revision moved.
    pub fn layout(&mut self, theme: &Theme, width: u16) {
        let width = width.max(1);
        if width != self.width || self.live.show_thinking != self.thinking {
            self.width = width;
            self.thinking = self.live.show_thinking;
            self.drawn.clear();
            let redrawn: Vec<_> = self
                .chunks
                .iter()
                .map(|r| self.draw_chunk(&r.chunk, theme))
                .collect();
            for (r, lines) in self.chunks.iter_mut().zip(redrawn) {
                r.lines = lines;
            }
        }
        let blocks = self.live.blocks();
        self.drawn.truncate(blocks.len());
        for (i, block) in blocks.iter().enumerate() {
            let rev = self.live.block_revision(i);
            match self.drawn.get_mut(i) {
                Some(d) if d.rev == rev => {}
                Some(d) => {
                    *d = Drawn {
                        rev,
                        lines: block_lines(block, self.thinking, theme, width),
                    };
                }
                None => self.drawn.push(Drawn {
                    rev,
                    lines: block_lines(block, self.thinking, theme, width),
                }),
            }
        }
        let revision = self.live.revision();
        if revision != self.seen_revision {
            if matches!(self.scroll, Scroll::Held { .. }) || !self.shows_live() {
                self.unseen = true;
            }
            self.seen_revision = revision;
        }
    }

    /// Every shown block in order with its lines: resident history, then the live blocks
    /// when they follow it.
    fn shown(&self) -> impl Iterator<Item = (Key, &[Line<'static>])> {
        let history = self.chunks.iter().flat_map(|r| {
            r.lines
                .iter()
                .enumerate()
                .map(move |(i, l)| (Key::history(r.chunk.number, i), l.as_slice()))
        });
        let live = self
            .drawn
            .iter()
            .enumerate()
            .filter(|_| self.shows_live())
            .map(|(i, d)| (Key::live(i), d.lines.as_slice()));
        history.chain(live)
    }

    /// Each shown block's key and height in rows (a separator line above every block but
    /// the first).
    fn heights(&self) -> impl Iterator<Item = (Key, usize)> {
        self.shown()
            .enumerate()
            .map(|(i, (k, l))| (k, l.len() + usize::from(i > 0)))
    }

    /// Rows of every shown block.
    pub fn total(&self) -> usize {
        self.heights().map(|(_, h)| h).sum()
    }

    /// The row a view anchored at `key`, line `line` starts at; `None` when `key` is not
    /// shown.
    fn row_of(&self, key: Key, line: usize) -> Option<usize> {
        let mut row = 0;
        for (k, h) in self.heights() {
            if k == key {
                return Some(row + line.min(h.saturating_sub(1)));
            }
            row += h;
        }
        None
    }

    /// The block and line at row `row` (the last block when past the end).
    fn at_row(&self, row: usize) -> Option<(Key, usize)> {
        let mut start = 0;
        let mut last = None;
        for (k, h) in self.heights() {
            if row < start + h {
                return Some((k, row - start));
            }
            start += h;
            last = Some((k, h.saturating_sub(1)));
        }
        last
    }

    /// The first row shown in a view `height` rows tall.
    pub fn top(&self, height: usize) -> usize {
        let last_top = self.total().saturating_sub(height);
        match self.scroll {
            Scroll::Follow => last_top,
            Scroll::Held { key, line } => self.row_of(key, line).unwrap_or(0).min(last_top),
        }
    }

    /// New output arrived below a held view `height` rows tall, out of its sight (the "new
    /// output below" marker).
    pub fn unseen(&self, height: usize) -> bool {
        self.unseen
            && (!self.shows_live()
                || (matches!(self.scroll, Scroll::Held { .. })
                    && self.top(height) + height < self.total()))
    }

    /// Follow the bottom again. When the newest history is not resident, its resident
    /// chunks are let go and the caller asks for chunk 0.
    pub fn follow(&mut self) -> bool {
        self.scroll = Scroll::Follow;
        self.unseen = false;
        if self.shows_live() {
            return false;
        }
        self.chunks.clear();
        true
    }

    /// Move the view by `delta` rows (negative: up) in a view `height` rows tall; reaching
    /// the bottom of the live blocks follows again.
    pub fn scroll_by(&mut self, delta: isize, height: usize) {
        let total = self.total();
        let last_top = total.saturating_sub(height);
        let row = self.top(height).saturating_add_signed(delta).min(last_top);
        if row >= last_top && self.shows_live() {
            self.scroll = Scroll::Follow;
            self.unseen = false;
        } else if let Some((key, line)) = self.at_row(row) {
            self.scroll = Scroll::Held { key, line };
        }
    }

    /// Hold the view with block `key` at its top.
    pub fn show(&mut self, key: Key) {
        self.scroll = Scroll::Held { key, line: 0 };
    }

    /// Hold the view on block `key` where its drawn lines first show `needle` (lowercase),
    /// with [`MATCH_CONTEXT`] lines of the block above it; at the block's top when no drawn
    /// line shows it whole (a match a wrap splits, or in text the block does not draw).
    pub fn show_match(&mut self, key: Key, needle: &str) {
        let line = self
            .shown()
            .find(|(k, _)| *k == key)
            .and_then(|(_, lines)| {
                lines.iter().position(|l| {
                    let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                    crate::search::contains(&text, needle)
                })
            })
            .unwrap_or(0);
        // A block's first row is the separator above it (but for the first block shown).
        let first = self.shown().next().is_some_and(|(k, _)| k == key);
        let line = line + usize::from(!first);
        self.scroll = Scroll::Held {
            key,
            line: line.saturating_sub(MATCH_CONTEXT),
        };
    }

    /// The block at `key`, if resident.
    pub fn block(&self, key: Key) -> Option<&Block> {
        match key.chunk() {
            None => self.live.blocks().get(key.index),
            Some(n) => self
                .chunks
                .iter()
                .find(|r| r.chunk.number == n)?
                .chunk
                .blocks
                .get(key.index),
        }
    }

    /// The shown block before (`up`) or after `key`.
    pub fn neighbour(&self, key: Key, up: bool) -> Option<Key> {
        let keys: Vec<Key> = self.shown().map(|(k, _)| k).collect();
        let at = keys.iter().position(|k| *k == key)?;
        if up {
            at.checked_sub(1).map(|i| keys[i])
        } else {
            keys.get(at + 1).copied()
        }
    }

    /// The shown blocks, in order, with the rows they take in a view `height` rows tall:
    /// `(key, first row on screen, rows)`, only those at least partly visible (a block's
    /// separator line is not its own).
    pub fn visible(&self, height: usize) -> Vec<(Key, usize, usize)> {
        let top = self.top(height);
        let mut out = Vec::new();
        let mut start = 0;
        for (i, (k, h)) in self.heights().enumerate() {
            let end = start + h;
            // The separator line above a block is not the block's.
            let content = start + usize::from(i > 0);
            if end > top && content < top + height {
                let first = content.max(top);
                out.push((k, first - top, end.min(top + height) - first));
            }
            start = end;
            if start >= top + height {
                break;
            }
        }
        out
    }

    /// The chunks to read next for a view `height` rows tall: an older one when the view is
    /// within two screens of the top of resident history and more lies before it; a newer
    /// one when it is within two screens of the bottom of resident history that is not the
    /// newest.
    pub fn wants(&self, height: usize) -> Wants {
        let (Some(front), Some(back)) = (self.chunks.front(), self.chunks.back()) else {
            return Wants::default();
        };
        let top = self.top(height);
        let total = self.total();
        Wants {
            older: (front.chunk.older && top < height * 2).then_some(front.chunk.number + 1),
            newer: (!self.shows_live() && top + height * 3 > total)
                .then(|| back.chunk.number.saturating_sub(1)),
        }
    }

    /// Let chunks go, farthest from the view first, until at most [`RESIDENT_CHUNKS`] are
    /// resident; the chunk the view is in and its neighbours stay.
    pub fn evict(&mut self, height: usize) {
        while self.chunks.len() > RESIDENT_CHUNKS {
            let at = self
                .visible(height)
                .first()
                .and_then(|(k, ..)| k.chunk())
                .unwrap_or(0);
            let front = self.chunks.front().map_or(0, |r| r.chunk.number);
            let back = self.chunks.back().map_or(0, |r| r.chunk.number);
            // Distances in chunks: the front is older (a higher number).
            if front.saturating_sub(at) >= at.saturating_sub(back) {
                self.chunks.pop_front();
            } else {
                self.chunks.pop_back();
            }
        }
    }

    /// Draw the shown lines into `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let height = usize::from(area.height);
        let top = self.top(height);
        let mut row = 0usize;
        let mut y = area.y;
        for (i, (_, lines)) in self.shown().enumerate() {
            let sep = usize::from(i > 0);
            let h = lines.len() + sep;
            if row + h <= top {
                row += h;
                continue;
            }
            let skip = top.saturating_sub(row);
            let rows = std::iter::repeat_n(None, sep).chain(lines.iter().map(Some));
            for line in rows.skip(skip) {
                if y >= area.bottom() {
                    return;
                }
                if let Some(line) = line {
                    buf.set_line(area.x, y, line, area.width);
                }
                y += 1;
            }
            row += h;
        }
    }

    /// Bytes the resident lines and blocks hold, roughly (text and spans; what the
    /// working-set checks compare).
    pub fn resident_bytes(&self) -> usize {
        let lines = |ls: &[Line<'static>]| -> usize {
            ls.iter()
                .map(|l| l.spans.iter().map(|s| s.content.len() + 32).sum::<usize>() + 48)
                .sum()
        };
        let blocks = |bs: &[Block]| -> usize { bs.iter().map(|b| b.text().len() + 64).sum() };
        self.chunks
            .iter()
            .map(|r| blocks(&r.chunk.blocks) + r.lines.iter().map(|l| lines(l)).sum::<usize>())
            .sum::<usize>()
            + blocks(self.live.blocks())
            + self.drawn.iter().map(|d| lines(&d.lines)).sum::<usize>()
    }
}
