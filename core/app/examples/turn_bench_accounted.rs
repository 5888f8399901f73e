//! The memory accounting's cost on one agent turn, for `cargo xtask bench` (issue 72: ≤ 3 %):
//! the turn of `shared/turn.rs` run here, with the accounting allocator wrapping the system
//! allocator, and in its twin `turn_bench --serve` (built beside this example), on the system
//! allocator alone. The two run in lockstep, in 4 sessions each, the turns `turn_bench`
//! measures: 3 warm-up turns, then 6 blocks of 5 turns, each block run by both (which goes
//! first alternates), so both compare the same turn numbers of their growing sessions and a
//! busy spell of the machine falls on one block, not on one side. The overhead is the median
//! over the 24 blocks of the block's ratio of median walls.
//! Prints `name value` lines: this build's figures (the allocations counted by the accounting
//! itself, every kind of scope summed), the overhead and its blocks' spread, and the KiB the
//! block headers add to a turn (8 bytes per block: the few aligned to more than 8 carry their
//! alignment instead, so it is a floor).
#![allow(clippy::print_stdout, missing_docs)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

#[global_allocator]
static GLOBAL: smith_memory::Accounting<std::alloc::System> =
    smith_memory::Accounting::new(std::alloc::System);

/// Allocations and bytes allocated so far, every kind of scope summed (reading them does not
/// allocate).
fn counted() -> (u64, u64) {
    smith_memory::Kind::ALL
        .into_iter()
        .map(|kind| smith_memory::kind_figures(kind).0)
        .fold((0, 0), |(n, b), f| {
            (n + f.allocations, b + f.allocated_bytes)
        })
}

#[path = "shared/turn.rs"]
mod turn;

/// The baseline twin, serving turns.
struct Twin {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Twin {
    fn spawn() -> Result<Self, Box<dyn std::error::Error>> {
        let plain = std::env::current_exe()?.with_file_name("turn_bench");
        let mut child = Command::new(&plain)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot run the twin {} ({e}): build it first (`cargo build --release -p smith-app --example turn_bench`)",
                    plain.display()
                )
            })?;
        let stdin = child.stdin.take().ok_or("the twin's stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("the twin's stdout")?);
        Ok(Self {
            child,
            stdin,
            stdout,
        })
    }

    /// Go on in a fresh session.
    fn restart(&mut self) -> Result<(), Box<dyn std::error::Error>> {
        writeln!(self.stdin, "new")?;
        self.stdin.flush()?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        if line.trim() != "ok" {
            return Err(format!("the twin answered `{}` to `new`", line.trim()).into());
        }
        Ok(())
    }

    /// The walls of `n` more turns of the twin, in milliseconds.
    fn turns(&mut self, n: usize) -> Result<Vec<f64>, Box<dyn std::error::Error>> {
        writeln!(self.stdin, "{n}")?;
        self.stdin.flush()?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        let walls: Vec<f64> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("the twin answered `{}`: {e}", line.trim()))?;
        if walls.len() != n {
            return Err(format!(
                "the twin ran {} turns of {n}: `{}`",
                walls.len(),
                line.trim()
            )
            .into());
        }
        Ok(walls)
    }
}

const SESSIONS: usize = 4;
const SESSION_BLOCKS: usize = 6;
const BLOCKS: usize = SESSIONS * SESSION_BLOCKS;
const BLOCK_TURNS: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut twin = Twin::spawn()?;
    let mut bench = turn::Bench::new(counted)?;
    let (mut ratios, mut samples) = (vec![], vec![]);
    for block in 0..BLOCKS {
        if block % SESSION_BLOCKS == 0 {
            if block > 0 {
                twin.restart()?;
                bench.restart()?;
            }
            twin.turns(3)?;
            bench.turns(3)?;
        }
        let (plain, accounted) = if block % 2 == 0 {
            let plain = twin.turns(BLOCK_TURNS)?;
            (plain, bench.turns(BLOCK_TURNS)?)
        } else {
            let accounted = bench.turns(BLOCK_TURNS)?;
            (twin.turns(BLOCK_TURNS)?, accounted)
        };
        let accounted_wall = turn::median(accounted.iter().map(|s| s.wall_ms).collect());
        ratios.push(accounted_wall / turn::median(plain));
        samples.extend(accounted);
    }
    drop(twin.stdin);
    twin.child.wait()?;
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    let f = turn::medians(&samples);
    println!("accounted_turn_wall_ms {:.3}", f.wall_ms);
    println!("turn_allocations {:.0}", f.allocations);
    println!("turn_alloc_kib {:.1}", f.alloc_kib);
    println!("accounting_turn_overhead {:.4}", turn::median(ratios));
    println!("accounting_turn_overhead_p25 {:.4}", sorted[BLOCKS / 4]);
    println!(
        "accounting_turn_overhead_p75 {:.4}",
        sorted[BLOCKS - 1 - BLOCKS / 4]
    );
    println!(
        "accounting_foreign_blocks {}",
        smith_memory::foreign_blocks()
    );
    println!(
        "accounting_turn_header_kib {:.1}",
        f.allocations * 8.0 / 1024.0
    );
    Ok(())
}
