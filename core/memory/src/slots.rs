//! The scope table: a fixed array of slots, one per open scope (or closed scope whose blocks
//! are still live), updated with relaxed atomics. Nothing here allocates, locks or aborts:
//! the allocator calls [`charge`], [`discharge`] and [`resize`] from inside `alloc`.
//!
//! A thread keeps what it charges to its own innermost scope in thread-local cells and
//! publishes it to the slot every 64 allocations or 64 KiB of change, and whenever it enters
//! or leaves a scope or reads figures, and the paths that touch shared counters stay out of
//! line (`#[cold]`): atomic operations on every allocation, inlined by link-time optimization
//! into every allocation site, cost the encode bench 24 % and the turn bench 6 %; batched and
//! out of line, both measure within noise (`cargo xtask bench`). A scope's
//! figures are therefore exact once the threads that worked in it have left it (a closed
//! scope's always are); while threads work in it, another thread reading it may miss what they
//! have not yet published. A thread that ends without leaving a scope — one that only ever
//! ran in the process's — takes at most 63 allocations and 64 KiB unpublished with it, so the
//! process's figures carry that bound per such thread.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::{Figures, Kind};

/// How many scopes can be tracked at once, the reserved ones included. A scope opened when
/// every slot is taken is charged to its kind's reserved slot instead (its figures are then
/// shared with every other such scope of that kind).
pub(crate) const SLOTS: usize = 1024;

/// Slots `0..KINDS` are reserved, one per kind, permanently open; slot 0 is the process.
const KINDS: usize = Kind::ALL.len();

/// `state`'s bits: the scope is open (its guard not yet dropped).
const OPEN: u64 = 0b10;
/// `state`'s bits: the slot is taken (open, or closed with blocks still charged to it).
const TAKEN: u64 = 0b01;
/// `state`'s generation unit: the generation counts claims, above the two flag bits.
const GENERATION: u64 = 0b100;

pub(crate) struct Slot {
    /// `generation << 2 | OPEN | TAKEN`.
    state: AtomicU64,
    kind: AtomicU8,
    /// The slot of the scope that was innermost when this one was opened, where its counts
    /// are folded when it closes.
    parent: AtomicU64,
    count: AtomicU64,
    allocated: AtomicU64,
    live: AtomicU64,
    peak: AtomicU64,
    /// Allocations and bytes of the scopes opened inside this one, folded in as they close.
    nested_count: AtomicU64,
    nested_allocated: AtomicU64,
    crossed: AtomicBool,
}

impl Slot {
    const fn new() -> Self {
        Self {
            state: AtomicU64::new(0),
            kind: AtomicU8::new(0),
            parent: AtomicU64::new(0),
            count: AtomicU64::new(0),
            allocated: AtomicU64::new(0),
            live: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            nested_count: AtomicU64::new(0),
            nested_allocated: AtomicU64::new(0),
            crossed: AtomicBool::new(false),
        }
    }

    fn figures(&self) -> Figures {
        Figures {
            allocations: self.count.load(Relaxed) + self.nested_count.load(Relaxed),
            allocated_bytes: self.allocated.load(Relaxed) + self.nested_allocated.load(Relaxed),
            live_bytes: u64::try_from(signed(self.live.load(Relaxed))).unwrap_or(0),
            peak_live_bytes: self.peak.load(Relaxed),
            ceiling_crossed: self.crossed.load(Relaxed),
        }
    }
}

static TABLE: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];

/// Per kind, the figures of scopes whose slots were given back (closed, nothing live): their
/// allocations and bytes summed, their highest peak.
struct Retired {
    count: AtomicU64,
    allocated: AtomicU64,
    peak: AtomicU64,
    scopes: AtomicU64,
}

static RETIRED: [Retired; KINDS] = [const {
    Retired {
        count: AtomicU64::new(0),
        allocated: AtomicU64::new(0),
        peak: AtomicU64::new(0),
        scopes: AtomicU64::new(0),
    }
}; KINDS];

/// Per kind, the live-byte ceiling (0: none).
static CEILINGS: [AtomicU64; KINDS] = [const { AtomicU64::new(0) }; KINDS];

/// Per kind, how many scopes crossed its ceiling.
static CROSSINGS: [AtomicU64; KINDS] = [const { AtomicU64::new(0) }; KINDS];

/// Blocks freed or resized through the accounting allocator that it did not make.
static FOREIGN: AtomicU64 = AtomicU64::new(0);

/// Whether the accounting allocator has charged anything in this process.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Where the next claim starts looking.
static HINT: AtomicU64 = AtomicU64::new(KINDS as u64);

/// A thread publishes what it charged to its innermost scope once this many allocations or
/// bytes of change are pending, and whenever it enters or leaves a scope or reads figures.
const FLUSH_COUNT: u64 = 64;
/// See [`FLUSH_COUNT`].
const FLUSH_BYTES: i64 = 64 * 1024;

/// A thread's view of its innermost scope: the slot, and what it charged there since it last
/// published to the slot's shared counters (plain cells: no atomic operation per
/// allocation). While one thread works in a scope, the peak it tracks is exact.
struct Local {
    slot: Cell<u32>,
    count: Cell<u64>,
    allocated: Cell<u64>,
    /// Change of the live bytes since the last publication.
    live: Cell<i64>,
    /// The slot's live bytes as this thread last saw them.
    base: Cell<u64>,
    /// The highest `live` since the last publication: the slot's peak as this thread saw it
    /// is `base + high`.
    high: Cell<i64>,
}

thread_local! {
    /// The innermost open scope of this thread (the process's at first) and what is pending
    /// there. `const`-initialised with no destructor, so reading it never allocates.
    static LOCAL: Local = const {
        Local {
            slot: Cell::new(0),
            count: Cell::new(0),
            allocated: Cell::new(0),
            live: Cell::new(0),
            base: Cell::new(0),
            high: Cell::new(0),
        }
    };
}

fn slot(index: u32) -> &'static Slot {
    TABLE.get(index as usize).unwrap_or(&TABLE[0])
}

fn kind_of(index: u8) -> Kind {
    Kind::ALL
        .get(usize::from(index))
        .copied()
        .unwrap_or(Kind::Process)
}

/// The reserved slots start open with their kind.
fn reserved(kind: Kind) -> u32 {
    let index = kind as usize;
    let slot = &TABLE[index];
    if slot.state.load(Relaxed) & OPEN == 0 {
        slot.kind.store(kind as u8, Relaxed);
        slot.state.store(OPEN | TAKEN, Relaxed);
    }
    index as u32
}

/// The innermost open scope of this thread (its slot). During a thread's teardown, the
/// process's.
pub(crate) fn current() -> u32 {
    LOCAL.try_with(|l| l.slot.get()).unwrap_or(0)
}

/// Publish what this thread has pending to its scope's shared counters.
pub(crate) fn flush() {
    let _ = LOCAL.try_with(publish);
}

#[cold]
#[inline(never)]
fn publish(local: &Local) {
    let (count, allocated, live) = (local.count.get(), local.allocated.get(), local.live.get());
    if count == 0 && allocated == 0 && live == 0 {
        return;
    }
    let index = local.slot.get();
    let slot = slot(index);
    slot.count.fetch_add(count, Relaxed);
    slot.allocated.fetch_add(allocated, Relaxed);
    if !INSTALLED.load(Relaxed) {
        INSTALLED.store(true, Relaxed);
    }
    let delta = live as u64;
    let now = slot.live.fetch_add(delta, Relaxed).wrapping_add(delta);
    // The slot's live bytes at their highest as this thread saw them; below zero only while
    // another thread's frees of this slot's blocks are published before their allocations.
    let seen = i128::from(signed(local.base.get())) + i128::from(local.high.get());
    let seen = u64::try_from(seen).unwrap_or(0);
    raise_peak(slot, seen.max(now));
    local.count.set(0);
    local.allocated.set(0);
    local.live.set(0);
    local.base.set(now);
    local.high.set(0);
    if now == 0 {
        let state = slot.state.load(Relaxed);
        if state & (OPEN | TAKEN) == TAKEN {
            give_back(index, state);
        }
    }
}

/// Make `index` this thread's innermost scope (what was pending published first); returns
/// the one it replaces.
pub(crate) fn swap_current(index: u32) -> u32 {
    LOCAL
        .try_with(|local| {
            publish(local);
            local.base.set(slot(index).live.load(Relaxed));
            local.high.set(0);
            local.slot.replace(index)
        })
        .unwrap_or(0)
}

/// Whether `local` holds enough to publish.
fn due(local: &Local) -> bool {
    local.count.get() >= FLUSH_COUNT || local.live.get().abs() >= FLUSH_BYTES
}

/// A change of `bytes` live bytes (positive: allocated) pending in `local`; its high-water
/// mark follows.
fn pend(local: &Local, bytes: i64) {
    let live = local.live.get() + bytes;
    local.live.set(live);
    if live > local.high.get() {
        local.high.set(live);
    }
}

/// A slot's live bytes read as signed: the shared counter wraps below zero while a thread
/// publishes frees of blocks whose allocation another thread has not published yet.
fn signed(live: u64) -> i64 {
    live as i64
}

/// Charge `bytes` newly allocated to this thread's innermost scope, and return its slot (the
/// one the block's header names): one thread-local access per allocation.
pub(crate) fn charge(bytes: u64) -> u32 {
    let charged = LOCAL.try_with(|local| {
        local.count.set(local.count.get() + 1);
        local.allocated.set(local.allocated.get() + bytes);
        pend(local, bytes as i64);
        if due(local) {
            publish(local);
        }
        local.slot.get()
    });
    charged.unwrap_or_else(|_| {
        // A thread in teardown: the process's scope, straight to its shared counters.
        charge_shared(0, bytes);
        0
    })
}

/// [`charge`] straight to the slot's shared counters (a thread in teardown).
#[cold]
#[inline(never)]
fn charge_shared(index: u32, bytes: u64) {
    INSTALLED.store(true, Relaxed);
    let slot = slot(index);
    slot.count.fetch_add(1, Relaxed);
    slot.allocated.fetch_add(bytes, Relaxed);
    let live = slot.live.fetch_add(bytes, Relaxed).wrapping_add(bytes);
    raise_peak(slot, live);
}

/// Discharge `bytes` freed from slot `index`; a closed slot with nothing live left is given
/// back.
pub(crate) fn discharge(index: u32, bytes: u64) {
    let pending = LOCAL.try_with(|local| {
        if local.slot.get() != index {
            return false;
        }
        pend(local, -(bytes as i64));
        if due(local) {
            publish(local);
        }
        true
    });
    if pending != Ok(true) {
        discharge_shared(index, bytes);
    }
}

/// [`discharge`] straight to the slot's shared counters: a block freed outside the scope
/// that allocated it.
#[cold]
#[inline(never)]
fn discharge_shared(index: u32, bytes: u64) {
    let slot = slot(index);
    let before = slot.live.fetch_sub(bytes, Relaxed);
    if before == bytes {
        let state = slot.state.load(Relaxed);
        if state & (OPEN | TAKEN) == TAKEN {
            give_back(index, state);
        }
    }
}

/// A block of slot `index` changed size from `old` to `new` bytes: a growth is charged as
/// allocated bytes, a shrink only lowers the live bytes.
pub(crate) fn resize(index: u32, old: u64, new: u64) {
    let pending = LOCAL.try_with(|local| {
        if local.slot.get() != index {
            return false;
        }
        if new >= old {
            local.allocated.set(local.allocated.get() + (new - old));
        }
        pend(local, new as i64 - old as i64);
        if due(local) {
            publish(local);
        }
        true
    });
    if pending != Ok(true) {
        resize_shared(index, old, new);
    }
}

/// [`resize`] straight to the slot's shared counters.
#[cold]
#[inline(never)]
fn resize_shared(index: u32, old: u64, new: u64) {
    let slot = slot(index);
    if new >= old {
        let grown = new - old;
        slot.allocated.fetch_add(grown, Relaxed);
        let live = slot.live.fetch_add(grown, Relaxed).wrapping_add(grown);
        raise_peak(slot, live);
    } else {
        slot.live.fetch_sub(old - new, Relaxed);
    }
}

fn raise_peak(slot: &Slot, live: u64) {
    if signed(live) >= 0 && live > slot.peak.load(Relaxed) {
        slot.peak.fetch_max(live, Relaxed);
        let ceiling = CEILINGS[usize::from(slot.kind.load(Relaxed)) % KINDS].load(Relaxed);
        if ceiling != 0 && live > ceiling && !slot.crossed.swap(true, Relaxed) {
            CROSSINGS[usize::from(slot.kind.load(Relaxed)) % KINDS].fetch_add(1, Relaxed);
        }
    }
}

/// Claim a slot for a new scope of `kind`, nested in this thread's innermost scope: its
/// `(slot, generation)`. When every slot is taken, the kind's reserved slot.
pub(crate) fn open(kind: Kind) -> (u32, u64) {
    let parent = current();
    let start = HINT.load(Relaxed) as usize;
    for step in 0..(SLOTS - KINDS) {
        let index = KINDS + (start - KINDS + step) % (SLOTS - KINDS);
        let slot = &TABLE[index];
        let state = slot.state.load(Relaxed);
        if state & TAKEN != 0 {
            continue;
        }
        let claimed = ((state & !(OPEN | TAKEN)) + GENERATION) | OPEN | TAKEN;
        if slot
            .state
            .compare_exchange(state, claimed, Relaxed, Relaxed)
            .is_ok()
        {
            slot.kind.store(kind as u8, Relaxed);
            slot.parent.store(u64::from(parent), Relaxed);
            for counter in [
                &slot.count,
                &slot.allocated,
                &slot.live,
                &slot.peak,
                &slot.nested_count,
                &slot.nested_allocated,
            ] {
                counter.store(0, Relaxed);
            }
            slot.crossed.store(false, Relaxed);
            HINT.store((index + 1) as u64, Relaxed);
            return (index as u32, claimed >> 2);
        }
    }
    let index = reserved(kind);
    (index, TABLE[index as usize].state.load(Relaxed) >> 2)
}

/// Whether slot `index` still holds the open scope of `generation`.
pub(crate) fn is_open(index: u32, generation: u64) -> bool {
    if (index as usize) < KINDS {
        return true;
    }
    let state = slot(index).state.load(Relaxed);
    state & OPEN != 0 && state >> 2 == generation
}

/// The generation of slot `index`'s scope.
pub(crate) fn generation(index: u32) -> u64 {
    slot(index).state.load(Relaxed) >> 2
}

/// The figures of slot `index`, and its kind.
pub(crate) fn figures(index: u32) -> (Kind, Figures) {
    flush();
    let slot = slot(index);
    (kind_of(slot.kind.load(Relaxed)), slot.figures())
}

/// Close the scope of `generation` in slot `index`: its counts are folded into its parent,
/// and the slot is given back once nothing it charged is live. Returns its final figures
/// (`None` when it was closed already, or is a reserved slot).
pub(crate) fn close(index: u32, generation: u64) -> Option<Figures> {
    flush();
    if (index as usize) < KINDS {
        return None;
    }
    let slot = slot(index);
    let state = slot.state.load(Relaxed);
    if state & OPEN == 0 || state >> 2 != generation {
        return None;
    }
    let closed = state & !OPEN;
    if slot
        .state
        .compare_exchange(state, closed, Relaxed, Relaxed)
        .is_err()
    {
        return None;
    }
    let figures = slot.figures();
    let parent = self::slot(u32::try_from(slot.parent.load(Relaxed)).unwrap_or(0));
    parent.nested_count.fetch_add(figures.allocations, Relaxed);
    parent
        .nested_allocated
        .fetch_add(figures.allocated_bytes, Relaxed);
    if slot.live.load(Relaxed) == 0 {
        give_back(index, closed);
    }
    Some(figures)
}

/// Give slot `index` back (closed, nothing live) if its state is still `state`: its figures
/// join its kind's retired ones.
fn give_back(index: u32, state: u64) {
    let slot = slot(index);
    if slot
        .state
        .compare_exchange(state, state & !TAKEN, Relaxed, Relaxed)
        .is_ok()
    {
        let retired = &RETIRED[usize::from(slot.kind.load(Relaxed)) % KINDS];
        retired.count.fetch_add(slot.count.load(Relaxed), Relaxed);
        retired
            .allocated
            .fetch_add(slot.allocated.load(Relaxed), Relaxed);
        retired.peak.fetch_max(slot.peak.load(Relaxed), Relaxed);
        retired.scopes.fetch_add(1, Relaxed);
    }
}

/// The figures of every scope of `kind` so far: allocations and bytes summed over its scopes
/// (each counted where it was allocated: nested scopes are not added again), live bytes
/// summed, the highest peak of any one scope; and how many scopes there were.
pub(crate) fn kind_totals(kind: Kind) -> (Figures, u64) {
    flush();
    if kind == Kind::Process {
        reserved(kind);
    }
    let retired = &RETIRED[kind as usize];
    let mut figures = Figures {
        allocations: retired.count.load(Relaxed),
        allocated_bytes: retired.allocated.load(Relaxed),
        live_bytes: 0,
        peak_live_bytes: retired.peak.load(Relaxed),
        ceiling_crossed: false,
    };
    let mut scopes = retired.scopes.load(Relaxed);
    for slot in &TABLE {
        if slot.state.load(Relaxed) & TAKEN == 0 || slot.kind.load(Relaxed) != kind as u8 {
            continue;
        }
        scopes += 1;
        figures.allocations += slot.count.load(Relaxed);
        figures.allocated_bytes += slot.allocated.load(Relaxed);
        figures.live_bytes += u64::try_from(signed(slot.live.load(Relaxed))).unwrap_or(0);
        figures.peak_live_bytes = figures.peak_live_bytes.max(slot.peak.load(Relaxed));
        figures.ceiling_crossed |= slot.crossed.load(Relaxed);
    }
    (figures, scopes)
}

/// Visit every taken slot: its number, kind, whether its scope is open, its figures.
pub(crate) fn each(mut visit: impl FnMut(u32, Kind, bool, Figures)) {
    flush();
    reserved(Kind::Process);
    for (index, slot) in TABLE.iter().enumerate() {
        let state = slot.state.load(Relaxed);
        if state & TAKEN == 0 {
            continue;
        }
        visit(
            index as u32,
            kind_of(slot.kind.load(Relaxed)),
            state & OPEN != 0,
            slot.figures(),
        );
    }
}

/// Set `kind`'s ceiling in bytes (0: none).
pub(crate) fn set_ceiling(kind: Kind, bytes: u64) {
    CEILINGS[kind as usize].store(bytes, Relaxed);
}

/// `kind`'s ceiling in bytes (0: none).
pub(crate) fn ceiling(kind: Kind) -> u64 {
    CEILINGS[kind as usize].load(Relaxed)
}

/// Whether the accounting allocator has charged anything in this process (what this thread
/// has pending is published first, so its own allocations count).
pub(crate) fn installed() -> bool {
    flush();
    INSTALLED.load(Relaxed)
}

/// How many scopes of `kind` crossed its ceiling.
pub(crate) fn crossings(kind: Kind) -> u64 {
    CROSSINGS[kind as usize].load(Relaxed)
}

/// A block the accounting allocator did not make was freed or resized through it.
pub(crate) fn foreign() {
    FOREIGN.fetch_add(1, Relaxed);
}

/// How many blocks the accounting allocator did not make were freed or resized through it.
pub(crate) fn foreign_count() -> u64 {
    FOREIGN.load(Relaxed)
}
