//! The global allocator wrapper: every block gets a header naming the scope slot that
//! allocated it, so freeing it anywhere — another thread, another scope — discharges the
//! scope that was charged. This is the crate's only `unsafe` code (the trait is `unsafe`);
//! the accounting it calls is safe code in `lib.rs` that neither allocates, locks nor aborts.

use std::alloc::{GlobalAlloc, Layout};

/// The smallest header in front of each block, in bytes: room for the slot number, and a
/// multiple of every alignment the system allocator gives by default (16 on the 64-bit
/// targets Smith ships), so a block keeps its natural alignment.
const MIN_HEADER: usize = 16;

/// A [`GlobalAlloc`] that passes every request to `A` with a header in front of the block,
/// and charges the block to the innermost open scope of the allocating thread
/// ([`crate::ScopeGuard`]).
///
/// The header is `max(16, align)` bytes per block — the accounting's memory cost, reported
/// by the turn bench. Install it once, in a binary:
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: smith_memory::Accounting<std::alloc::System> =
///     smith_memory::Accounting::new(std::alloc::System);
///
/// let turn = smith_memory::ScopeGuard::open(smith_memory::Kind::Turn);
/// let kept = vec![0u8; 100];
/// assert_eq!(turn.figures().live_bytes, 100);
/// drop(kept);
/// assert_eq!(turn.close().peak_live_bytes, 100);
/// ```
#[derive(Debug)]
pub struct Accounting<A> {
    inner: A,
}

impl<A> Accounting<A> {
    /// Wrap `inner`.
    pub const fn new(inner: A) -> Self {
        Self { inner }
    }
}

/// The header size for a block of alignment `align`.
fn header(align: usize) -> usize {
    align.max(MIN_HEADER)
}

/// The layout asked of the inner allocator for `layout` (the block with its header in
/// front), and the header's size; `None` when the sum overflows.
fn outer(layout: Layout) -> Option<(Layout, usize)> {
    let header = header(layout.align());
    let size = layout.size().checked_add(header)?;
    Layout::from_size_align(size, header)
        .ok()
        .map(|outer| (outer, header))
}

/// `bytes` as the accounting's unit (a `usize` always fits in a `u64` on supported targets).
fn wide(bytes: usize) -> u64 {
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

// SAFETY (whole impl): every block handed out is `base + header` of a block the inner
// allocator gave for `outer(layout)`; `base` is aligned to `header ≥ 16`, so the slot number
// written at `base` is aligned and inside the block, and `base + header` is aligned to the
// caller's alignment. `dealloc` and `realloc` receive the caller's `layout`, from which the
// same header size is computed, so they find `base` again.
#[allow(unsafe_code)]
unsafe impl<A: GlobalAlloc> GlobalAlloc for Accounting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((outer, header)) = outer(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `outer` has a non-zero size (it holds the header).
        let base = unsafe { self.inner.alloc(outer) };
        if base.is_null() {
            return base;
        }
        let slot = crate::slots::current();
        // SAFETY: see the impl's comment.
        unsafe {
            base.cast::<u32>().write(slot);
            crate::slots::charge(slot, wide(layout.size()));
            base.add(header)
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let Some((outer, header)) = outer(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `outer` has a non-zero size.
        let base = unsafe { self.inner.alloc_zeroed(outer) };
        if base.is_null() {
            return base;
        }
        let slot = crate::slots::current();
        // SAFETY: see the impl's comment.
        unsafe {
            base.cast::<u32>().write(slot);
            crate::slots::charge(slot, wide(layout.size()));
            base.add(header)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let header = header(layout.align());
        // SAFETY: `ptr` came from `alloc` with this `layout`: `base` is `ptr - header`, and
        // `outer(layout)` succeeded then, so it does now.
        unsafe {
            let base = ptr.sub(header);
            let slot = base.cast::<u32>().read();
            crate::slots::discharge(slot, wide(layout.size()));
            let outer = Layout::from_size_align_unchecked(layout.size() + header, header);
            self.inner.dealloc(base, outer);
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let header = header(layout.align());
        let Some(new_outer) = new_size.checked_add(header) else {
            return std::ptr::null_mut();
        };
        if Layout::from_size_align(new_outer, header).is_err() {
            return std::ptr::null_mut();
        }
        // SAFETY: as in `dealloc`; the inner allocator keeps the header's bytes (the
        // block's prefix) when it moves the block.
        unsafe {
            let base = ptr.sub(header);
            let outer = Layout::from_size_align_unchecked(layout.size() + header, header);
            let moved = self.inner.realloc(base, outer, new_outer);
            if moved.is_null() {
                return moved;
            }
            // The block stays charged to the scope that allocated it.
            let slot = moved.cast::<u32>().read();
            crate::slots::resize(slot, wide(layout.size()), wide(new_size));
            moved.add(header)
        }
    }
}
