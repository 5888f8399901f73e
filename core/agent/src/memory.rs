//! A turn's memory scope (spec: Performance and portability → Memory accounting): the run
//! opens it inside its session's scope on the thread that runs it, its tool calls enter it
//! on their worker threads, and its end reads its figures into the `run_end` record and
//! intent, with a warning when a ceiling was crossed.

use smith_memory::{Entered, Kind, OwnedScope, ScopeGuard};

/// The kinds whose scopes a turn does not own but causes (its plugin calls and its requests):
/// crossings of their ceilings while the turn ran are reported at its end.
const CAUSED: [Kind; 2] = [Kind::KernelCall, Kind::IoRequest];

/// The turn's scope, entered on the run's thread while the run lives.
#[derive(Debug)]
pub(crate) struct TurnScope {
    // Dropped in this order: the turn's scope closes, then the session's is left.
    turn: ScopeGuard,
    _session: Entered,
    crossings: [u64; CAUSED.len()],
    reported: bool,
    /// The figures read at the turn's end, so its record and its intent agree.
    ended: Option<smith::TurnMemory>,
}

impl TurnScope {
    /// Enter `session`'s scope and open the turn's inside it.
    pub(crate) fn open(session: &OwnedScope) -> Self {
        let entered = session.enter();
        Self {
            turn: ScopeGuard::open(Kind::Turn),
            _session: entered,
            crossings: CAUSED.map(smith_memory::crossings),
            reported: false,
            ended: None,
        }
    }

    /// The turn's figures at its end: read once, at the first call (when its `run_end` is
    /// recorded), and the same after.
    pub(crate) fn end(&mut self) -> Option<smith::TurnMemory> {
        if self.ended.is_none() {
            self.ended = self.figures();
        }
        self.ended
    }

    /// The turn's figures now; `None` when no accounting allocator is installed.
    pub(crate) fn figures(&self) -> Option<smith::TurnMemory> {
        if !smith_memory::installed() {
            return None;
        }
        let figures = self.turn.figures();
        let ceiling = smith_memory::ceiling(Kind::Turn).map(std::num::NonZeroU64::get);
        Some(smith::TurnMemory {
            allocations: figures.allocations,
            allocated_bytes: figures.allocated_bytes,
            peak_live_bytes: figures.peak_live_bytes,
            live_bytes: figures.live_bytes,
            ceiling_bytes: ceiling,
            ceiling_crossed: figures.ceiling_crossed,
        })
    }

    /// The warnings the turn's end gives, once: its own ceiling crossed, and the ceilings of
    /// the plugin calls and requests crossed while it ran (counted process-wide: another
    /// session's turn running at the same time may add to them).
    pub(crate) fn warnings(&mut self, memory: Option<&smith::TurnMemory>) -> Vec<String> {
        if std::mem::replace(&mut self.reported, true) {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        if let Some(m) = memory.filter(|m| m.ceiling_crossed) {
            warnings.push(format!(
                "this turn's memory went past the turn ceiling of {} (memory.ceiling.turn): it peaked at {} live, {} allocated in {} blocks; the turn was not stopped — raise the ceiling or compact the session if this is expected",
                smith_memory::bytes(m.ceiling_bytes.unwrap_or_default()),
                smith_memory::bytes(m.peak_live_bytes),
                smith_memory::bytes(m.allocated_bytes),
                m.allocations
            ));
        }
        for (kind, before) in CAUSED.into_iter().zip(self.crossings) {
            let crossed = smith_memory::crossings(kind).saturating_sub(before);
            if crossed > 0 {
                let ceiling = smith_memory::ceiling(kind).map_or(0, std::num::NonZeroU64::get);
                warnings.push(format!(
                    "{crossed} {} scope{} went past the ceiling of {} (memory.ceiling.{}) while this turn ran; nothing was stopped",
                    kind.name(),
                    if crossed == 1 { "" } else { "s" },
                    smith_memory::bytes(ceiling),
                    kind.name()
                ));
            }
        }
        warnings
    }
}
