//! The exact allocation count of one terminal UI frame (issue 72; spec: Performance and
//! portability → Memory accounting — "allocation-count tests assert exact counts and bounds
//! only tighten"): a 10,000-entry session's transcript opened headless, settled, and one frame
//! drawn in a scope of the accounting allocator, checked against `allocations.txt` beside this
//! file. The frame before it is drawn unmeasured, so what a first frame prepares is not
//! counted. Regenerate: `BLESS=1 cargo test -p smith-tui --test allocations`.

use std::time::Duration;

use smith_memory::{Accounting, Kind, ScopeGuard};
use smith_testkit::allocations::{Counted, check};
use smith_testkit::large::{Shape, large_session};
use smith_tui::headless::Headless;

#[global_allocator]
static ALLOCATOR: Accounting<std::alloc::System> = Accounting::new(std::alloc::System);

#[test]
fn one_frame_of_a_10000_entry_transcript_allocates_exactly_what_was_recorded() {
    let dir = tempfile::tempdir().unwrap();
    // One turn of the builder is 10 entries of about 210 bytes each with 200-byte results.
    let built = large_session(
        dir.path(),
        Shape {
            result_bytes: 200,
            file_bytes: 10_000 * 210,
            bulk_off_branch: false,
            compacted: false,
        },
        "/work",
    );
    assert!(built.last_id >= 9_000, "{} entries", built.last_id);
    let mut ui = Headless::open(&built.path, 100, 40);
    ui.settle(Duration::from_secs(60)).unwrap();
    ui.frame();
    let scope = ScopeGuard::open(Kind::Frame);
    ui.frame();
    let frame = Counted::of("frame_of_10000_entry_transcript", scope.close());
    assert!(frame.allocations > 0, "a frame draws its transcript");
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    check(
        &here.join("tests/allocations.txt"),
        &here.join("../../Cargo.lock"),
        "BLESS=1 cargo test -p smith-tui --test allocations",
        &[frame],
    );
}
