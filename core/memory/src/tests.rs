use std::hint::black_box;
use std::num::NonZeroU64;

use super::*;

#[global_allocator]
static ALLOCATOR: Accounting<std::alloc::System> = Accounting::new(std::alloc::System);

/// A block of `n` bytes, kept from being optimised away.
fn block(n: usize) -> Vec<u8> {
    black_box(Vec::with_capacity(n))
}

#[test]
fn a_scope_counts_its_blocks_exactly() {
    let scope = ScopeGuard::open(Kind::Session);
    let a = block(100);
    let b = block(28);
    let figures = scope.figures();
    assert_eq!(
        (
            figures.allocations,
            figures.allocated_bytes,
            figures.live_bytes
        ),
        (2, 128, 128)
    );
    drop(a);
    drop(b);
    let figures = scope.close();
    assert_eq!(figures.live_bytes, 0);
    assert_eq!(figures.peak_live_bytes, 128);
    assert!(installed());
}

#[test]
fn a_block_freed_on_another_thread_in_another_scope_discharges_its_own() {
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
    let (done, finished) = std::sync::mpsc::sync_channel::<(Figures, Figures)>(1);
    let other = std::thread::spawn(move || {
        let scope = ScopeGuard::open(Kind::IoRequest);
        let received = rx.recv().expect("the block");
        let before = scope.figures();
        drop(received);
        let after = scope.figures();
        done.send((before, after)).expect("told");
    });
    let owner = ScopeGuard::open(Kind::Turn);
    let kept = block(4096);
    let before = owner.figures();
    tx.send(kept).expect("sent");
    let (io_before, io_after) = finished.recv().expect("the figures");
    let after = owner.figures();
    assert_eq!(
        io_before.live_bytes, io_after.live_bytes,
        "the freeing scope is not charged"
    );
    // Waiting on the channel may allocate here (its wait context, kept live): exactly what
    // this scope allocated meanwhile is added, and the 4096 bytes freed elsewhere are not.
    let meanwhile = after.allocated_bytes - before.allocated_bytes;
    assert_eq!(
        after.live_bytes,
        before.live_bytes + meanwhile - 4096,
        "the allocating scope is discharged"
    );
    assert!(after.peak_live_bytes <= before.peak_live_bytes + meanwhile);
    drop(owner);
    other.join().expect("the thread");
}

#[test]
fn a_block_grown_elsewhere_stays_charged_to_the_scope_that_allocated_it() {
    let owner = ScopeGuard::open(Kind::Turn);
    let mut grown = block(16);
    let scope = owner.scope();
    drop(owner);
    let other = ScopeGuard::open(Kind::KernelCall);
    grown.reserve_exact(1000);
    let capacity = grown.capacity() as u64;
    assert_eq!(other.figures().allocated_bytes, 0);
    let (_, figures) = scope.figures();
    assert_eq!(figures.live_bytes, capacity);
    assert_eq!(figures.allocated_bytes, capacity);
    drop(grown);
    let (_, figures) = scope.figures();
    assert_eq!(figures.live_bytes, 0);
    drop(other);
}

#[test]
fn a_scope_entered_on_a_worker_thread_is_charged_there() {
    let turn = ScopeGuard::open(Kind::Turn);
    let scope = turn.scope();
    // Measured on the worker alone: spawning the thread allocates on this one, in the turn.
    let (before, after) = std::thread::scope(|s| {
        s.spawn(move || {
            let _entered = scope.enter();
            let before = scope.figures().1;
            drop(block(512));
            (before, scope.figures().1)
        })
        .join()
        .expect("the worker")
    });
    assert_eq!(after.allocated_bytes - before.allocated_bytes, 512);
    assert_eq!(after.allocations - before.allocations, 1);
    assert_eq!(after.live_bytes, before.live_bytes);
    drop(turn);
}

#[test]
fn a_closed_nested_scope_is_counted_in_its_parent_once() {
    let session = ScopeGuard::open(Kind::Session);
    let kept = block(10);
    let call = ScopeGuard::open(Kind::KernelCall);
    drop(block(90));
    let inner = call.close();
    assert_eq!((inner.allocations, inner.allocated_bytes), (1, 90));
    let outer = session.figures();
    assert_eq!((outer.allocations, outer.allocated_bytes), (2, 100));
    assert_eq!(outer.live_bytes, 10, "live bytes are the scope's own");
    drop(kept);
    drop(session);
}

#[test]
fn a_crossed_ceiling_is_marked_and_nothing_is_refused() {
    set_ceiling(Kind::Frame, NonZeroU64::new(1000));
    let crossed = crossings(Kind::Frame);
    let frame = ScopeGuard::open(Kind::Frame);
    let small = block(900);
    assert!(!frame.figures().ceiling_crossed);
    let big = block(200);
    assert_eq!(
        big.capacity(),
        200,
        "the allocation past the ceiling succeeds"
    );
    assert!(frame.figures().ceiling_crossed);
    let again = block(300);
    assert_eq!(crossings(Kind::Frame), crossed + 1, "once per scope");
    drop((small, big, again));
    let figures = frame.close();
    assert!(figures.ceiling_crossed, "a crossing stays recorded");
    set_ceiling(Kind::Frame, None);
    assert_eq!(ceiling(Kind::Frame), None);
}

#[test]
fn a_scope_closed_with_live_blocks_is_listed_until_they_are_freed() {
    let scope = ScopeGuard::open(Kind::IoRequest);
    let slot = scope.scope();
    let kept = block(64);
    drop(scope);
    let listed = |open: bool| {
        report()
            .scopes
            .iter()
            .any(|row| row.slot == slot.slot && row.open == open && row.kind == Kind::IoRequest)
    };
    assert!(listed(false), "a closed scope with a live block is listed");
    let _entered = slot.enter();
    assert_eq!(Scope::current().slot, 0, "a closed scope is not entered");
    drop(kept);
    assert!(!listed(false), "given back once nothing is live");
}

#[test]
fn when_every_slot_is_taken_a_scope_shares_its_kinds_reserved_one() {
    let mut guards = Vec::with_capacity(slots::SLOTS);
    for _ in 0..slots::SLOTS {
        guards.push(ScopeGuard::open(Kind::KernelCall));
    }
    let last = guards.last().expect("a guard").scope();
    assert_eq!(last.slot, Kind::KernelCall as u32, "the reserved slot");
    while let Some(guard) = guards.pop() {
        drop(guard);
    }
}

#[test]
fn the_report_names_every_kind_and_the_total() {
    let text = report().to_string();
    for kind in Kind::ALL {
        assert!(text.contains(kind.name()), "{text}");
    }
    assert!(text.contains("total"), "{text}");
    assert_eq!(bytes(812), "812 B");
    assert_eq!(bytes(4096), "4.0 KiB");
    assert_eq!(Kind::from_name("kernel-call"), Some(Kind::KernelCall));
    assert_eq!(Kind::from_name("kernel"), None);
}

#[test]
fn an_owned_scope_is_entered_where_its_work_runs_and_closes_on_drop() {
    let session = OwnedScope::open(Kind::Session);
    assert_ne!(
        Scope::current(),
        session.scope(),
        "opening does not enter it"
    );
    {
        let _entered = session.enter();
        drop(block(48));
    }
    assert_eq!(session.figures().allocated_bytes, 48);
    let scope = session.scope();
    drop(session);
    let _entered = scope.enter();
    assert_ne!(Scope::current(), scope, "a closed scope is not entered");
}

#[test]
fn blocks_of_every_alignment_keep_it_their_contents_and_their_charge() {
    use std::alloc::{GlobalAlloc, Layout};
    let mut blocks = Vec::with_capacity(49);
    let scope = ScopeGuard::open(Kind::Turn);
    for align in [1, 2, 4, 8, 16, 64, 4096] {
        for size in [1, 7, 8, 9, 24, 100, 5000] {
            let layout = Layout::from_size_align(size, align).expect("a valid layout");
            // SAFETY: a non-zero size; the block is written within its size and freed below
            // with its layout.
            #[allow(unsafe_code)]
            let block = unsafe { ALLOCATOR.alloc(layout) };
            assert!(!block.is_null());
            assert_eq!(block as usize % align, 0, "{size} bytes aligned to {align}");
            // SAFETY: `size` bytes are the block's.
            #[allow(unsafe_code)]
            unsafe {
                block.write_bytes(align as u8, size)
            };
            blocks.push((block, layout));
        }
    }
    let total: usize = blocks.iter().map(|(_, l)| l.size()).sum();
    assert_eq!(scope.figures().live_bytes, total as u64);
    // Each block in turn is grown to three times its size, then freed.
    let (mut live, mut peak) = (total, total);
    for (block, layout) in blocks.drain(..) {
        peak = peak.max(live + 2 * layout.size());
        live -= layout.size();
        // SAFETY: the block is live, of `layout`; grown it keeps its first `size` bytes.
        #[allow(unsafe_code)]
        unsafe {
            let grown = ALLOCATOR.realloc(block, layout, layout.size() * 3);
            assert_eq!(grown as usize % layout.align(), 0);
            for i in 0..layout.size() {
                assert_eq!(*grown.add(i), layout.align() as u8, "byte {i} kept");
            }
            let grown_layout = Layout::from_size_align_unchecked(layout.size() * 3, layout.align());
            ALLOCATOR.dealloc(grown, grown_layout);
        }
    }
    let figures = scope.close();
    assert_eq!(figures.live_bytes, 0, "every block freed");
    assert_eq!(figures.peak_live_bytes, peak as u64);
}
