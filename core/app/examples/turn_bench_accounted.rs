//! The memory accounting's cost on one agent turn, for `cargo xtask bench` (issue 72: ≤ 3 %):
//! the turn of `shared/turn.rs` measured here, with the accounting allocator wrapping the
//! counted system allocator, and in its twin `turn_bench` (built beside this example; `cargo
//! xtask bench` runs it first), without — five times each, interleaved. Prints `name value`
//! lines: this build's figures (counted by the accounting itself, every kind of scope summed),
//! the wall-time ratio of the medians, and the KiB the 16-byte block headers add to a turn.
#![allow(clippy::print_stdout, missing_docs)]

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

/// The twin's `turn_wall_ms`.
fn twin() -> Result<f64, Box<dyn std::error::Error>> {
    let me = std::env::current_exe()?;
    let plain = me.with_file_name("turn_bench");
    let out = std::process::Command::new(&plain).output().map_err(|e| {
        format!(
            "cannot run the twin {} ({e}): build it first (`cargo build --release -p smith-app --example turn_bench`)",
            plain.display()
        )
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    let figure = |name: &str| -> Result<f64, String> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
            .ok_or_else(|| format!("the twin printed no `{name}`: {text}"))
    };
    Ok(figure("turn_wall_ms ")?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut plain, mut accounted) = (vec![], vec![]);
    let mut last = None;
    for _ in 0..5 {
        plain.push(twin()?);
        let f = turn::measure(counted)?;
        accounted.push(f.wall_ms);
        last = Some(f);
    }
    let last = last.expect("five runs");
    let (plain, accounted) = (turn::median(plain), turn::median(accounted));
    println!("accounted_turn_wall_ms {accounted:.3}");
    println!("accounted_turn_allocations {:.0}", last.allocations);
    println!("accounted_turn_fsyncs {:.0}", last.fsyncs);
    println!("accounting_turn_overhead {:.4}", accounted / plain);
    println!("accounted_turn_alloc_kib {:.1}", last.alloc_kib);
    println!(
        "accounting_foreign_blocks {}",
        smith_memory::foreign_blocks()
    );
    println!(
        "accounting_turn_header_kib {:.1}",
        last.allocations * 16.0 / 1024.0
    );
    Ok(())
}
