//! Memory accounting (spec: Performance and portability → Memory accounting): every
//! allocation is attributed to the innermost active lifetime scope on its thread — process,
//! session, turn, kernel call, frame or io request — and stays charged to it for its whole
//! life, wherever it is freed.
//!
//! Install [`Accounting`] as the global allocator in a binary, then open scopes with
//! [`ScopeGuard::open`] (this thread) and carry them to worker threads with [`Scope::enter`].
//! Per scope and per kind the table keeps the allocation count, allocated bytes, live bytes and
//! peak live bytes ([`Figures`]). Accounting never allocates, never locks and never aborts: a
//! [ceiling](set_ceiling) crossed is only marked on the scope, for the owner to report.
//!
//! Without the allocator installed (a library's tests), scopes open and close and every figure
//! is zero: [`installed`] says which.
//!
//! No Smith dependency. The `unsafe` code is the [`GlobalAlloc`](std::alloc::GlobalAlloc)
//! implementation alone (`alloc.rs`), the workspace's second documented exception.

mod alloc;
mod report;
mod slots;

pub use alloc::Accounting;
pub use report::{Report, ScopeRow, bytes, report};

/// The kinds of lifetime scope, outermost first (spec: "process, session, turn, kernel call,
/// frame, or io request").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// The process: whatever no other scope holds.
    Process = 0,
    /// An open session.
    Session = 1,
    /// One submission's run.
    Turn = 2,
    /// A call into a plugin's wasm (a tool call, a handler's event, a provider request).
    KernelCall = 3,
    /// One frame the terminal UI draws.
    Frame = 4,
    /// One exchange with the outside: an HTTP request, a file effect.
    IoRequest = 5,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: [Kind; 6] = [
        Kind::Process,
        Kind::Session,
        Kind::Turn,
        Kind::KernelCall,
        Kind::Frame,
        Kind::IoRequest,
    ];

    /// The kind's name in settings and reports: `process`, `session`, `turn`, `kernel-call`,
    /// `frame`, `io-request`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Process => "process",
            Kind::Session => "session",
            Kind::Turn => "turn",
            Kind::KernelCall => "kernel-call",
            Kind::Frame => "frame",
            Kind::IoRequest => "io-request",
        }
    }

    /// The kind named `name` ([`Kind::name`]).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A scope's figures, or a kind's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Blocks allocated (a reallocation is not a new block). A scope's count includes the
    /// scopes opened inside it that have closed.
    pub allocations: u64,
    /// Bytes allocated, growth by reallocation included; like `allocations`, nested closed
    /// scopes included.
    pub allocated_bytes: u64,
    /// Bytes of the scope's own blocks not yet freed.
    pub live_bytes: u64,
    /// The most `live_bytes` ever was. For a kind: the highest peak of any one of its scopes.
    pub peak_live_bytes: u64,
    /// Whether `live_bytes` went past the kind's ceiling ([`set_ceiling`]).
    pub ceiling_crossed: bool,
}

/// A scope: a handle to its slot in the table, valid on any thread while the scope is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    slot: u32,
    generation: u64,
}

impl Scope {
    /// The innermost open scope of this thread (the process when none is).
    pub fn current() -> Scope {
        let slot = slots::current();
        Scope {
            slot,
            generation: slots::generation(slot),
        }
    }

    /// Make this scope the innermost on this thread until the returned guard drops (a worker
    /// thread doing the scope's work). A scope already closed is not entered: the thread keeps
    /// its own.
    #[must_use = "the scope is left when the guard drops"]
    pub fn enter(self) -> Entered {
        let open = slots::is_open(self.slot, self.generation);
        let previous = if open {
            slots::swap_current(self.slot)
        } else {
            slots::current()
        };
        Entered { previous }
    }

    /// The scope's figures now, and its kind.
    pub fn figures(self) -> (Kind, Figures) {
        slots::figures(self.slot)
    }
}

/// A scope entered on this thread ([`Scope::enter`]); dropping it restores the scope that was
/// innermost before.
#[derive(Debug)]
pub struct Entered {
    previous: u32,
}

impl Drop for Entered {
    fn drop(&mut self) {
        slots::swap_current(self.previous);
    }
}

/// An open scope this thread entered: dropping it (or [`ScopeGuard::close`]) leaves and closes
/// it. Guards nest: drop them in reverse order of opening.
#[derive(Debug)]
pub struct ScopeGuard {
    scope: Scope,
    kind: Kind,
    previous: u32,
    closed: bool,
}

impl ScopeGuard {
    /// Open a scope of `kind` inside this thread's innermost scope and enter it.
    #[must_use = "the scope closes when the guard drops"]
    pub fn open(kind: Kind) -> ScopeGuard {
        let (slot, generation) = slots::open(kind);
        let previous = slots::swap_current(slot);
        ScopeGuard {
            scope: Scope { slot, generation },
            kind,
            previous,
            closed: false,
        }
    }

    /// The scope, to enter on another thread.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Its figures now.
    pub fn figures(&self) -> Figures {
        slots::figures(self.scope.slot).1
    }

    /// Leave and close it: its final figures.
    pub fn close(mut self) -> Figures {
        self.finish().unwrap_or_else(|| self.figures())
    }

    fn finish(&mut self) -> Option<Figures> {
        if std::mem::replace(&mut self.closed, true) {
            return None;
        }
        slots::swap_current(self.previous);
        slots::close(self.scope.slot, self.scope.generation)
    }
}

impl Drop for ScopeGuard {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A scope opened without entering it: its owner enters it on whichever thread does its
/// work ([`Scope::enter`]), and dropping it closes it. For a scope that outlives one call on
/// one thread, like a session. Its parent is the scope innermost where it was opened.
#[derive(Debug)]
pub struct OwnedScope {
    scope: Scope,
}

impl OwnedScope {
    /// Open a scope of `kind` inside this thread's innermost scope, without entering it.
    pub fn open(kind: Kind) -> OwnedScope {
        let (slot, generation) = slots::open(kind);
        OwnedScope {
            scope: Scope { slot, generation },
        }
    }

    /// The scope, to enter.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Enter it on this thread until the returned guard drops.
    #[must_use = "the scope is left when the guard drops"]
    pub fn enter(&self) -> Entered {
        self.scope.enter()
    }

    /// Its figures now.
    pub fn figures(&self) -> Figures {
        self.scope.figures().1
    }
}

impl Drop for OwnedScope {
    fn drop(&mut self) {
        slots::close(self.scope.slot, self.scope.generation);
    }
}

/// How many scopes of `kind` have crossed its ceiling in this process so far: a caller
/// compares two readings to learn of crossings in scopes it does not own (the kernel calls
/// and io requests of a turn).
pub fn crossings(kind: Kind) -> u64 {
    slots::crossings(kind)
}

/// Set the live-byte ceiling of every scope of `kind` (`None`: no ceiling). A scope whose live
/// bytes go past it is marked once ([`Figures::ceiling_crossed`]); nothing is refused.
pub fn set_ceiling(kind: Kind, bytes: Option<std::num::NonZeroU64>) {
    slots::set_ceiling(kind, bytes.map_or(0, std::num::NonZeroU64::get));
}

/// `kind`'s ceiling in bytes, if one is set.
pub fn ceiling(kind: Kind) -> Option<std::num::NonZeroU64> {
    std::num::NonZeroU64::new(slots::ceiling(kind))
}

/// The figures of every scope of `kind` so far, and how many scopes it had: allocations and
/// bytes where each was allocated (nested scopes are not counted again), live bytes summed,
/// the highest peak of any one scope, whether any open scope crossed the ceiling.
pub fn kind_figures(kind: Kind) -> (Figures, u64) {
    slots::kind_totals(kind)
}

/// How many blocks the accounting allocator did not make were freed or resized through it:
/// memory another allocator gave that was handed to Rust (undefined behaviour a library may
/// commit, which the system allocator forgives). They are passed to the inner allocator
/// unaccounted; a non-zero figure says the accounting misses them.
pub fn foreign_blocks() -> u64 {
    slots::foreign_count()
}

/// Whether the accounting allocator is installed: it has charged an allocation in this
/// process. When not, every figure is zero.
pub fn installed() -> bool {
    slots::installed()
}

#[cfg(test)]
mod tests;
