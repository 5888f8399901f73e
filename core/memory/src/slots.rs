//! The scope table: a fixed array of slots, one per open scope (or closed scope whose blocks
//! are still live), updated with relaxed atomics. Nothing here allocates, locks or aborts:
//! the allocator calls [`charge`], [`discharge`] and [`resize`] from inside `alloc`.

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
            live_bytes: self.live.load(Relaxed),
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

/// Whether the accounting allocator has charged anything in this process.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Where the next claim starts looking.
static HINT: AtomicU64 = AtomicU64::new(KINDS as u64);

thread_local! {
    /// The innermost open scope of this thread (a slot number); the process's at first.
    static CURRENT: Cell<u32> = const { Cell::new(0) };
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
    CURRENT.try_with(Cell::get).unwrap_or(0)
}

/// Make `index` this thread's innermost scope; returns the one it replaces.
pub(crate) fn swap_current(index: u32) -> u32 {
    CURRENT.try_with(|c| c.replace(index)).unwrap_or(0)
}

/// Charge `bytes` newly allocated to slot `index`.
pub(crate) fn charge(index: u32, bytes: u64) {
    if !INSTALLED.load(Relaxed) {
        INSTALLED.store(true, Relaxed);
    }
    let slot = slot(index);
    slot.count.fetch_add(1, Relaxed);
    slot.allocated.fetch_add(bytes, Relaxed);
    let live = slot.live.fetch_add(bytes, Relaxed).wrapping_add(bytes);
    raise_peak(slot, live);
}

/// Discharge `bytes` freed from slot `index`; a closed slot with nothing live left is given
/// back.
pub(crate) fn discharge(index: u32, bytes: u64) {
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
    if live > slot.peak.load(Relaxed) {
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
    let slot = slot(index);
    (kind_of(slot.kind.load(Relaxed)), slot.figures())
}

/// Close the scope of `generation` in slot `index`: its counts are folded into its parent,
/// and the slot is given back once nothing it charged is live. Returns its final figures
/// (`None` when it was closed already, or is a reserved slot).
pub(crate) fn close(index: u32, generation: u64) -> Option<Figures> {
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
        figures.live_bytes += slot.live.load(Relaxed);
        figures.peak_live_bytes = figures.peak_live_bytes.max(slot.peak.load(Relaxed));
        figures.ceiling_crossed |= slot.crossed.load(Relaxed);
    }
    (figures, scopes)
}

/// Visit every taken slot: its number, kind, whether its scope is open, its figures.
pub(crate) fn each(mut visit: impl FnMut(u32, Kind, bool, Figures)) {
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

/// Whether the accounting allocator has charged anything in this process.
pub(crate) fn installed() -> bool {
    INSTALLED.load(Relaxed)
}

/// How many scopes of `kind` crossed its ceiling.
pub(crate) fn crossings(kind: Kind) -> u64 {
    CROSSINGS[kind as usize].load(Relaxed)
}
