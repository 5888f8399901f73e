//! Measures the runtime's overhead of one agent turn for `cargo xtask bench` (the turn is
//! `shared/turn.rs`) on the system allocator, nothing wrapped: median of 30 turns after 3
//! warm-up turns, one session. Prints `name value` lines.
//!
//! `turn_bench --serve` is the baseline twin of `turn_bench_accounted`: it loads the same
//! bench, then for each line on stdin until it ends: `N` runs `N` more turns and prints their
//! wall times (milliseconds, space-separated) on one line; `new` goes on in a fresh session
//! and prints `ok`.
#![allow(clippy::print_stdout, missing_docs)]

use std::io::{BufRead, Write};

#[path = "shared/turn.rs"]
mod turn;

fn serve(bench: &mut turn::Bench) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim() == "new" {
            bench.restart()?;
            writeln!(out, "ok")?;
            out.flush()?;
            continue;
        }
        let n: usize = line
            .trim()
            .parse()
            .map_err(|e| format!("`{line}` on stdin is not a count of turns: {e}"))?;
        let walls: Vec<String> = bench
            .turns(n)?
            .iter()
            .map(|s| format!("{:.4}", s.wall_ms))
            .collect();
        writeln!(out, "{}", walls.join(" "))?;
        out.flush()?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The system allocator counts nothing.
    let mut bench = turn::Bench::new(|| (0, 0))?;
    if std::env::args().nth(1).as_deref() == Some("--serve") {
        return serve(&mut bench);
    }
    bench.turns(3)?;
    let f = turn::medians(&bench.turns(30)?);
    println!("turn_wall_ms {:.3}", f.wall_ms);
    println!("turn_fsyncs {:.0}", f.fsyncs);
    Ok(())
}
