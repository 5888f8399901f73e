//! Measures the runtime's overhead of one agent turn for `cargo xtask bench` (the turn is
//! `shared/turn.rs`), with the system allocator counted by `stats_alloc` and no memory
//! accounting: `turn_bench_accounted` runs it as its twin. Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

#[path = "shared/turn.rs"]
mod turn;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let f = turn::measure(|| {
        let stats = GLOBAL.stats();
        (stats.allocations as u64, stats.bytes_allocated as u64)
    })?;
    println!("turn_wall_ms {:.3}", f.wall_ms);
    println!("turn_allocations {:.0}", f.allocations);
    println!("turn_alloc_kib {:.1}", f.alloc_kib);
    println!("turn_fsyncs {:.0}", f.fsyncs);
    Ok(())
}
