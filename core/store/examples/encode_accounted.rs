//! The memory accounting's cost on the store's encoding, for `cargo xtask bench` (issue 72:
//! ≤ 3 %): 1,000 representative entries encoded by this example, with the accounting allocator
//! wrapping the system's, and by its twin `store_bench encode` (built beside it), on the system
//! allocator alone — each a fresh process, 11 of each, interleaved (`encode_accounted --once`
//! is one measurement). Where `setarch -R` is found (Linux), the processes run without address
//! space randomization: with it, where the heap and the code land makes a process's encoding
//! take either about 0.33 or 0.49 ms on this machine, for either build, which would swamp a
//! difference of a few percent. Prints `name value` lines: the median encoding, the ratio of
//! the medians, and whether randomization was off (1) or not (0).
#![allow(clippy::print_stdout, missing_docs)]

use std::path::Path;
use std::process::Command;

#[global_allocator]
static GLOBAL: smith_memory::Accounting<std::alloc::System> =
    smith_memory::Accounting::new(std::alloc::System);

#[path = "shared/encode.rs"]
mod encode;

/// `program arg`'s `encode_1000_ms`, without address space randomization when `fixed`.
fn measure(program: &Path, arg: &str, fixed: bool) -> Result<f64, Box<dyn std::error::Error>> {
    let mut cmd = if fixed {
        let mut cmd = Command::new("setarch");
        cmd.arg("-R").arg(program);
        cmd
    } else {
        Command::new(program)
    };
    let out = cmd.arg(arg).output().map_err(|e| {
        format!(
            "cannot run {} ({e}): build it first (`cargo build --release -p smith-store --example store_bench --example encode_accounted`)",
            program.display()
        )
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("encode_1000_ms ")?.trim().parse().ok())
        .ok_or_else(|| format!("{} printed no `encode_1000_ms`: {text}", program.display()).into())
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().nth(1).as_deref() == Some("--once") {
        println!("encode_1000_ms {:.4}", encode::encode_1000_ms()?);
        return Ok(());
    }
    let me = std::env::current_exe()?;
    let plain = me.with_file_name("store_bench");
    let fixed = Command::new("setarch")
        .args(["-R", "true"])
        .output()
        .is_ok_and(|out| out.status.success());
    let (mut plains, mut accounted) = (vec![], vec![]);
    for round in 0..11 {
        if round % 2 == 0 {
            plains.push(measure(&plain, "encode", fixed)?);
            accounted.push(measure(&me, "--once", fixed)?);
        } else {
            accounted.push(measure(&me, "--once", fixed)?);
            plains.push(measure(&plain, "encode", fixed)?);
        }
    }
    let (plain, accounted) = (median(plains), median(accounted));
    println!("accounted_encode_1000_ms {accounted:.3}");
    println!("accounting_encode_overhead {:.4}", accounted / plain);
    println!("accounting_encode_aslr_off {}", u8::from(fixed));
    Ok(())
}
