//! The global allocator wrapper: every block gets a header naming the scope slot that
//! allocated it, so freeing it anywhere — another thread, another scope — discharges the
//! scope that was charged. The header's last 8 bytes, just before the block, are one word
//! holding a tag, the header's own size and the slot: freeing finds the header from what it
//! recorded, never from the layout the caller passes, so a caller that frees with another
//! alignment than it allocated with (which the system allocator forgives) cannot make it
//! free the wrong address. This is the crate's only `unsafe` code (the trait is `unsafe`);
//! the accounting it calls is safe code in `slots.rs` that neither allocates, locks nor
//! aborts.

use std::alloc::{GlobalAlloc, Layout};

/// The header in front of a block of alignment up to 8 — most blocks: one word, and a
/// multiple of the block's alignment. A block aligned to more gets its alignment as header,
/// so it keeps its natural alignment.
const WORD: usize = 8;

/// A [`GlobalAlloc`] that passes every request to `A` with a header in front of the block,
/// and charges the block to the innermost open scope of the allocating thread
/// ([`crate::ScopeGuard`]).
///
/// The header is 8 bytes per block of alignment up to 8 and `align` bytes above — the
/// accounting's memory cost, reported by the turn bench. Install it once, in a binary:
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

/// The header size for a block of alignment `align`: a power of two, at least [`WORD`].
fn header(align: usize) -> usize {
    align.max(WORD)
}

/// The tag a header word starts with, mixed with the block's address: a block this allocator
/// did not make (memory another allocator gave, handed to Rust and freed through the global
/// allocator — undefined behaviour the system allocator forgives) is told apart and passed to
/// the inner allocator untouched and uncounted, instead of freeing a wrong address.
const TAG: u64 = 0x5eed_a11c_0c8a_7e11;

/// The header word's layout, low bits first: the slot (16 bits), the header size's base-2
/// logarithm (8 bits), the tag mixed with the address (the 40 bits left).
const SLOT_BITS: u32 = 16;
/// See [`SLOT_BITS`].
const SIZE_BITS: u32 = 8;
/// See [`SLOT_BITS`].
const TAG_SHIFT: u32 = SLOT_BITS + SIZE_BITS;

const _: () = assert!(
    crate::slots::SLOTS <= 1 << SLOT_BITS,
    "every slot fits the header"
);

/// The tag bits of the header word of the block at `block`.
fn tag(block: *const u8) -> u64 {
    (TAG ^ block as u64) << TAG_SHIFT
}

/// Write the header word of the block at `block` into the 8 bytes before it: the tag, the
/// header's size `header`, the `slot`.
///
/// # Safety
/// `block` is `base + header` of a live block of the inner allocator, `header ≥ 8`.
#[allow(unsafe_code)]
unsafe fn write_header(block: *mut u8, header: usize, slot: u32) {
    let word = tag(block) | u64::from(header.trailing_zeros()) << SLOT_BITS | u64::from(slot);
    // SAFETY: the 8 bytes before `block` are inside the header and 8-aligned (`block` is
    // 8-aligned at least).
    unsafe { block.sub(WORD).cast::<u64>().write(word) }
}

/// The header of the block at `block`: its size and the slot charged; `None` when the block
/// carries no header of this allocator.
///
/// # Safety
/// `block` is a live block the global allocator handed out, or one another allocator made
/// with at least 8 readable bytes before it (the system allocator's chunk header).
#[allow(unsafe_code)]
unsafe fn read_header(block: *const u8) -> Option<(usize, u32)> {
    // SAFETY: as the contract says; the tag is checked before the rest is trusted.
    let word = unsafe { block.sub(WORD).cast::<u64>().read() };
    let shift = (word >> SLOT_BITS) & ((1 << SIZE_BITS) - 1);
    if word >> TAG_SHIFT != tag(block) >> TAG_SHIFT || !(3..usize::BITS as u64).contains(&shift) {
        return None;
    }
    Some((1 << shift, (word & ((1 << SLOT_BITS) - 1)) as u32))
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

// Never inlined: the compiler treats what the global allocator returns as a fresh object and
// a freed one as gone, so a header read or written outside the block must stay behind a call
// it cannot see through. Inlined by link-time optimization, it let the optimizer rearrange
// Cranelift's compilation into a crash (measured: the release turn bench, with Cranelift
// compiling the bundled plugins, segfaulted; never with these calls out of line).
//
// SAFETY (whole impl): every block handed out is `base + header` of a block the inner
// allocator gave for `outer(layout)`; `base` is aligned to `header ≥ 8`, so `base + header`
// is aligned to the caller's alignment and the header's last 8 bytes (its word) are inside
// the block.
// `dealloc` and `realloc` read the header size recorded there to find `base` again, and give
// the inner allocator the layout it allocated with.
#[allow(unsafe_code)]
unsafe impl<A: GlobalAlloc> GlobalAlloc for Accounting<A> {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((outer, header)) = outer(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `outer` has a non-zero size (it holds the header).
        let base = unsafe { self.inner.alloc(outer) };
        if base.is_null() {
            return base;
        }
        let slot = crate::slots::charge(wide(layout.size()));
        // SAFETY: see the impl's comment.
        unsafe {
            let block = base.add(header);
            write_header(block, header, slot);
            block
        }
    }

    #[inline(never)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let Some((outer, header)) = outer(layout) else {
            return std::ptr::null_mut();
        };
        // SAFETY: `outer` has a non-zero size.
        let base = unsafe { self.inner.alloc_zeroed(outer) };
        if base.is_null() {
            return base;
        }
        let slot = crate::slots::charge(wide(layout.size()));
        // SAFETY: see the impl's comment.
        unsafe {
            let block = base.add(header);
            write_header(block, header, slot);
            block
        }
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc`: its header says where the inner block starts and
        // the layout it was allocated with (the size the caller passes is the one it asked).
        unsafe {
            let Some((header, slot)) = read_header(ptr) else {
                crate::slots::foreign();
                return self.inner.dealloc(ptr, layout);
            };
            // The tag is cleared, so a second free of this block is not taken for ours.
            ptr.sub(WORD).cast::<u64>().write(0);
            crate::slots::discharge(slot, wide(layout.size()));
            let outer = Layout::from_size_align_unchecked(layout.size() + header, header);
            self.inner.dealloc(ptr.sub(header), outer);
        }
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `dealloc`.
        let Some((header, _)) = (unsafe { read_header(ptr) }) else {
            crate::slots::foreign();
            // SAFETY: not ours: the inner allocator made it, with this layout.
            return unsafe { self.inner.realloc(ptr, layout, new_size) };
        };
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
            // The block stays charged to the scope that allocated it; its header moved with it.
            let block = moved.add(header);
            // The tag mixes in the address, which moved.
            let slot = (block.sub(WORD).cast::<u64>().read() & ((1 << SLOT_BITS) - 1)) as u32;
            write_header(block, header, slot);
            crate::slots::resize(slot, wide(layout.size()), wide(new_size));
            block
        }
    }
}
