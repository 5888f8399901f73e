//! A turn's memory scope (spec: Performance and portability → Memory accounting): the run
//! opens it inside its session's scope on the thread that runs it, its tool calls enter it
//! on their worker threads, and its end reads its figures into the `run_end` record and
//! intent — with the ceilings crossed while it ran, each scope's crossing said once — and a
//! warning for each.

use std::sync::atomic::{AtomicBool, Ordering};

use smith_memory::{Entered, Kind, OwnedScope, Scope, ScopeGuard};

/// Whether the process scope's crossing was said (once per process).
static PROCESS_SAID: AtomicBool = AtomicBool::new(false);

/// The turn's scope, entered on the run's thread while the run lives.
#[derive(Debug)]
pub(crate) struct TurnScope {
    // Dropped in this order: the turn's scope closes, then the session's is left.
    turn: ScopeGuard,
    _session: Entered,
    session: Scope,
    /// How many kernel-call and io-request scopes had crossed their ceilings when it opened.
    crossings: [u64; 2],
    /// The figures read at the turn's end, so its record and its intent agree.
    ended: Option<smith::TurnMemory>,
    said: bool,
}

impl TurnScope {
    /// Enter `session`'s scope and open the turn's inside it.
    pub(crate) fn open(session: &OwnedScope) -> Self {
        let entered = session.enter();
        Self {
            turn: ScopeGuard::open(Kind::Turn),
            _session: entered,
            session: session.scope(),
            crossings: [Kind::KernelCall, Kind::IoRequest].map(smith_memory::crossings),
            ended: None,
            said: false,
        }
    }

    /// The turn's figures at its end — `None` when no accounting allocator is installed —
    /// read once, at the first call (when its `run_end` is recorded), and the same after.
    /// `session_said` is the session's flag that its own crossing was said.
    pub(crate) fn end(&mut self, session_said: &mut bool) -> Option<smith::TurnMemory> {
        if self.ended.is_none() && smith_memory::installed() {
            let figures = self.turn.figures();
            let now = [Kind::KernelCall, Kind::IoRequest].map(smith_memory::crossings);
            let calls = now[0].saturating_sub(self.crossings[0]);
            let requests = now[1].saturating_sub(self.crossings[1]);
            let session_crossed = self.session.figures().1.ceiling_crossed && !*session_said;
            *session_said |= session_crossed;
            let process_crossed = smith_memory::crossings(Kind::Process) > 0
                && !PROCESS_SAID.swap(true, Ordering::Relaxed);
            self.ended = Some(smith::TurnMemory {
                allocations: figures.allocations,
                allocated_bytes: figures.allocated_bytes,
                peak_live_bytes: figures.peak_live_bytes,
                live_bytes: figures.live_bytes,
                ceiling_bytes: smith_memory::ceiling(Kind::Turn).map(std::num::NonZeroU64::get),
                ceiling_crossed: figures.ceiling_crossed,
                kernel_calls_crossed: calls,
                io_requests_crossed: requests,
                session_ceiling_crossed: session_crossed,
                process_ceiling_crossed: process_crossed,
            });
        }
        self.ended
    }

    /// The warnings the turn's end gives about `memory` (its [`TurnScope::end`]), once.
    pub(crate) fn warnings(&mut self, memory: Option<&smith::TurnMemory>) -> Vec<String> {
        if std::mem::replace(&mut self.said, true) {
            return Vec::new();
        }
        let Some(m) = memory else {
            return Vec::new();
        };
        let ceiling = |kind: Kind| {
            smith_memory::bytes(smith_memory::ceiling(kind).map_or(0, std::num::NonZeroU64::get))
        };
        let mut warnings = Vec::new();
        if m.ceiling_crossed {
            warnings.push(format!(
                "this turn's memory went past the turn ceiling of {} (memory.ceiling.turn): it peaked at {} live, {} allocated in {} blocks; the turn was not stopped — raise the ceiling, or compact the session if this is expected",
                ceiling(Kind::Turn),
                smith_memory::bytes(m.peak_live_bytes),
                smith_memory::bytes(m.allocated_bytes),
                m.allocations
            ));
        }
        for (crossed, kind) in [
            (m.kernel_calls_crossed, Kind::KernelCall),
            (m.io_requests_crossed, Kind::IoRequest),
        ] {
            if crossed > 0 {
                warnings.push(format!(
                    "{crossed} {} scope{} went past the ceiling of {} (memory.ceiling.{}) while this turn ran; nothing was stopped (`/memory` shows the scopes)",
                    kind.name(),
                    if crossed == 1 { "" } else { "s" },
                    ceiling(kind),
                    kind.name()
                ));
            }
        }
        for (crossed, kind, whose) in [
            (m.session_ceiling_crossed, Kind::Session, "this session's"),
            (
                m.process_ceiling_crossed,
                Kind::Process,
                "the process's own",
            ),
        ] {
            if crossed {
                warnings.push(format!(
                    "{whose} memory went past the ceiling of {} (memory.ceiling.{}); nothing was stopped (`/memory` shows the scopes)",
                    ceiling(kind),
                    kind.name()
                ));
            }
        }
        warnings
    }
}
