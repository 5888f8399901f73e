//! The overlays and modes over the transcript that own focus while they are open — the help,
//! the search, entry selection and the entry detail — on a stack: the top one gets the keys
//! it uses first, and Esc closes it (spec: Terminal interface). Keys a layer does not use
//! (Ctrl+C, paging, F1) keep their meaning.
//!
//! Search runs over the whole transcript: the live blocks here, recorded history through the
//! storage worker, chunk by chunk, so entries that are not resident are found too; the match
//! is shown with its block at the top of the view and every occurrence on screen highlighted.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use smith_render_terminal::markdown::code_blocks;
use smith_render_terminal::transcript::Block;
use smith_render_terminal::window::{Chunk, Key};

use crate::history::Ask;
use crate::keys::Action;
use crate::ui::{Effect, Ui};

/// One overlay or mode.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Layer {
    /// Every key binding; `scroll` is its first shown line (clamped when drawn).
    Help { scroll: usize },
    /// The transcript search.
    Search(Search),
    /// An entry is selected; `code` is the code block `c` copies next.
    Select { key: Key, code: usize },
    /// One entry in full, scrolled to line `scroll`.
    Detail { key: Key, scroll: usize },
    /// A picker: sessions, branches, plugins.
    Picker(crate::pickers::Picker),
    /// The prompt history search.
    Recall(crate::ui::Recall),
    /// Text a command read (a diff), titled, scrolled to line `scroll`.
    Text {
        title: String,
        lines: Vec<String>,
        scroll: usize,
    },
}

/// The search's query and where it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Search {
    /// What is searched for, as typed.
    pub(crate) query: String,
    /// The block of the match shown.
    pub(crate) current: Option<Key>,
    /// How the last step went.
    pub(crate) finding: Finding,
}

/// How a search step went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Finding {
    /// Nothing searched yet (an empty query).
    #[default]
    Idle,
    /// The storage worker is looking through history.
    Searching,
    /// A match is shown.
    Found,
    /// No match in that direction (older, or newer).
    Nothing { older: bool },
}

impl Layer {
    /// The search, if this layer is one.
    pub(crate) fn search(&self) -> Option<&Search> {
        match self {
            Self::Search(s) => Some(s),
            _ => None,
        }
    }
}

impl Ui {
    /// The lowercase query of an open search (for highlighting), if any.
    pub(crate) fn needle(&self) -> Option<String> {
        self.layers
            .iter()
            .rev()
            .find_map(Layer::search)
            .map(|s| s.query.to_lowercase())
            .filter(|q| !q.is_empty())
    }

    /// The selected entry, if any.
    pub(crate) fn selected(&self) -> Option<Key> {
        self.layers.iter().rev().find_map(|l| match l {
            Layer::Select { key, .. } => Some(*key),
            _ => None,
        })
    }

    /// What the top layer does with `key`: `Some(effect)` when it used the key, `None` when
    /// the key keeps its usual meaning.
    pub(crate) fn layer_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
    ) -> Option<Option<Effect>> {
        let page = self.page.max(2) - 1;
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self.layers.last_mut()? {
            Layer::Picker(_) => Some(self.picker_key(key, action)),
            Layer::Recall(_) => self.recall_key(key, action),
            Layer::Help { scroll } | Layer::Detail { scroll, .. } | Layer::Text { scroll, .. } => {
                match (action, key.code) {
                    (Some(Action::LineUp), _) | (_, KeyCode::Up) => {
                        *scroll = scroll.saturating_sub(1);
                    }
                    (Some(Action::LineDown), _) | (_, KeyCode::Down) => *scroll += 1,
                    (Some(Action::PageUp), _) => *scroll = scroll.saturating_sub(page),
                    (Some(Action::PageDown), _) => *scroll += page,
                    (Some(Action::Top), _) => *scroll = 0,
                    (Some(Action::Escape), _) => {
                        self.layers.pop();
                    }
                    (Some(Action::Help), _) => {
                        if matches!(self.layers.last(), Some(Layer::Help { .. })) {
                            self.layers.pop();
                        } else {
                            self.layers.push(Layer::Help { scroll: 0 });
                        }
                    }
                    (_, KeyCode::Char('y')) if plain => {
                        if let Some(Layer::Detail { key, .. }) = self.layers.last() {
                            return Some(self.copy_entry(*key));
                        }
                    }
                    (Some(Action::Interrupt | Action::Quit), _) => return None,
                    _ => {}
                }
                Some(None)
            }
            Layer::Search(s) => {
                match (action, key.code) {
                    (Some(Action::Escape), _) => {
                        self.layers.pop();
                    }
                    (Some(Action::Search | Action::Submit), _) | (_, KeyCode::Up) => {
                        self.search_step(true);
                    }
                    (_, KeyCode::Down) => self.search_step(false),
                    (_, KeyCode::Backspace) => {
                        s.query.pop();
                        s.current = None;
                        self.search_step(true);
                    }
                    // Ctrl+U clears the query, as it clears the draft.
                    (_, KeyCode::Char('u'))
                        if key
                            .modifiers
                            .contains(crossterm::event::KeyModifiers::CONTROL) =>
                    {
                        s.query.clear();
                        s.current = None;
                    }
                    (None, KeyCode::Char(c)) if plain => {
                        s.query.push(c);
                        s.current = None;
                        self.search_step(true);
                    }
                    _ => return None,
                }
                Some(None)
            }
            Layer::Select { key: at, code } => {
                let at = *at;
                match (action, key.code) {
                    (Some(Action::Escape | Action::Select), _) => {
                        self.layers.pop();
                    }
                    (_, KeyCode::Up | KeyCode::Char('k')) => self.select_move(at, true),
                    (_, KeyCode::Down | KeyCode::Char('j')) => self.select_move(at, false),
                    (Some(Action::Submit), _) => {
                        self.layers.push(Layer::Detail { key: at, scroll: 0 });
                    }
                    (_, KeyCode::Char('y')) if plain => return Some(self.copy_entry(at)),
                    (_, KeyCode::Char('c')) if plain => {
                        let next = *code;
                        return Some(self.copy_code(at, next));
                    }
                    (None, KeyCode::Char(_)) => {}
                    _ => return None,
                }
                Some(None)
            }
        }
    }

    /// Open the search (or, open already, go to the older match).
    pub(crate) fn open_search(&mut self) {
        if matches!(self.layers.last(), Some(Layer::Search(_))) {
            self.search_step(true);
            return;
        }
        self.layers.push(Layer::Search(Search::default()));
    }

    /// Select the newest entry shown.
    pub(crate) fn open_select(&mut self) {
        match self.window.visible(self.page).last() {
            Some(&(key, ..)) => self.layers.push(Layer::Select { key, code: 0 }),
            None => self.hint = Some("nothing to select yet: the transcript is empty".into()),
        }
    }

    fn select_move(&mut self, at: Key, up: bool) {
        let Some(next) = self.window.neighbour(at, up) else {
            // At the edge of what is resident: bring the view there, so the chunk beyond
            // is read, and try again.
            self.window.show(at);
            if up && self.window.has_older() {
                self.hint = Some("reading older entries…".into());
            }
            return;
        };
        if let Some(Layer::Select { key, code }) = self.layers.last_mut() {
            *key = next;
            *code = 0;
        }
        if !self
            .window
            .visible(self.page)
            .iter()
            .any(|(k, ..)| *k == next)
        {
            self.window.show(next);
        }
    }

    fn copy_entry(&mut self, at: Key) -> Option<Effect> {
        let block = self.window.block(at)?;
        let what = match block {
            Block::User { .. } => "your message",
            Block::Assistant { .. } => "the answer",
            Block::Tool {
                output: Some(_), ..
            } => "the tool's output",
            Block::Tool { .. } => "the tool's arguments",
            Block::Notice { .. } => "the notice",
            Block::Appended { source, .. }
                if source == smith_render_terminal::transcript::COMPACTION_SOURCE =>
            {
                "the compaction's summary"
            }
            Block::Appended { .. } => "the entry",
            Block::RunEnd { .. } => "the stop reason",
        };
        Some(Effect::Copy {
            text: block.text(),
            what: what.to_owned(),
        })
    }

    fn copy_code(&mut self, at: Key, next: usize) -> Option<Effect> {
        let text = match self.window.block(at)? {
            Block::Assistant { text, .. } | Block::User { text } => text.clone(),
            Block::Tool { output, .. } => output.clone().unwrap_or_default(),
            _ => String::new(),
        };
        let blocks = code_blocks(&text);
        if blocks.is_empty() {
            self.hint = Some(format!(
                "this entry has no code block; y copies all of it ({} leaves the selection)",
                self.keymap.keys_of(Action::Escape)
            ));
            return None;
        }
        let i = next % blocks.len();
        if let Some(Layer::Select { code, .. }) = self.layers.last_mut() {
            *code = i + 1;
        }
        Some(Effect::Copy {
            text: blocks[i].clone(),
            what: format!("code block {} of {}", i + 1, blocks.len()),
        })
    }

    /// The next match older (`older`) or newer than the one shown (from the newest when
    /// none is): among the live blocks here, in history through the storage worker.
    pub(crate) fn search_step(&mut self, older: bool) {
        let Some(Layer::Search(s)) = self.layers.last() else {
            return;
        };
        let needle = s.query.to_lowercase();
        if needle.is_empty() {
            self.set_finding(None, Finding::Idle);
            return;
        }
        let live = self.window.live.blocks();
        let hit = |i: &usize| live[*i].matches(&needle);
        let from = s.current.map(|k| (k.chunk(), k.index));
        let history_from = match from {
            None if older => match (0..live.len()).rev().find(hit) {
                Some(i) => return self.found_live(i),
                None => (0, None),
            },
            None => return self.set_finding(None, Finding::Nothing { older }),
            Some((None, i)) if older => match (0..i.min(live.len())).rev().find(hit) {
                Some(j) => return self.found_live(j),
                None => (0, None),
            },
            Some((None, i)) => match (i + 1..live.len()).find(hit) {
                Some(j) => return self.found_live(j),
                None => return self.set_finding(s.current, Finding::Nothing { older }),
            },
            Some((Some(c), i)) => (c, Some(i)),
        };
        self.generation += 1;
        let current = s.current;
        self.set_finding(current, Finding::Searching);
        self.asks.push(Ask::Search {
            generation: self.generation,
            needle,
            from: history_from,
            older,
        });
    }

    fn set_finding(&mut self, current: Option<Key>, finding: Finding) {
        if let Some(Layer::Search(s)) = self.layers.last_mut() {
            s.current = current;
            s.finding = finding;
        }
    }

    fn found_live(&mut self, index: usize) {
        if !self.window.shows_live() {
            self.follow_latest();
        }
        let key = Key::live(index);
        self.show_match(key);
        self.set_finding(Some(key), Finding::Found);
    }

    /// The storage worker found search `generation`'s match: block `index` of `chunk`.
    pub(crate) fn found(&mut self, generation: u64, epoch: u64, chunk: Chunk, index: usize) {
        if generation != self.generation || epoch != self.epoch {
            return;
        }
        let key = Key::history(chunk.number, index);
        self.asked.remove(&chunk.number);
        self.window.insert(chunk, &self.theme);
        self.show_match(key);
        self.set_finding(Some(key), Finding::Found);
    }

    /// Hold the view on the line of block `key` that shows the search's query.
    fn show_match(&mut self, key: Key) {
        match self.needle() {
            Some(needle) => self.window.show_match(key, &needle),
            None => self.window.show(key),
        }
    }

    /// The storage worker found nothing more for search `generation`: going newer, the live
    /// blocks come next.
    pub(crate) fn not_found(&mut self, generation: u64, older: bool) {
        if generation != self.generation {
            return;
        }
        let current = self
            .layers
            .last()
            .and_then(Layer::search)
            .and_then(|s| s.current);
        if !older {
            let needle = self.needle().unwrap_or_default();
            if let Some(i) = self
                .window
                .live
                .blocks()
                .iter()
                .position(|b| b.matches(&needle))
            {
                return self.found_live(i);
            }
        }
        self.set_finding(current, Finding::Nothing { older });
    }
}

#[cfg(test)]
mod tests;
