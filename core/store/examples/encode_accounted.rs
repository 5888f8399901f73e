//! The memory accounting's cost on the store's encoding, for `cargo xtask bench` (issue 72:
//! ≤ 3 %): 1,000 representative entries encoded here, with the accounting allocator wrapping
//! the system's, and by the twin `store_bench encode` (built beside this example; `cargo xtask
//! bench` runs it first), without — five times each, interleaved. Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

#[global_allocator]
static GLOBAL: smith_memory::Accounting<std::alloc::System> =
    smith_memory::Accounting::new(std::alloc::System);

#[path = "shared/encode.rs"]
mod encode;

/// The twin's `encode_1000_ms`.
fn twin() -> Result<f64, Box<dyn std::error::Error>> {
    let plain = std::env::current_exe()?.with_file_name("store_bench");
    let out = std::process::Command::new(&plain)
        .arg("encode")
        .output()
        .map_err(|e| {
            format!(
                "cannot run the twin {} ({e}): build it first (`cargo build --release -p smith-store --example store_bench`)",
                plain.display()
            )
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("encode_1000_ms ")?.trim().parse().ok())
        .ok_or_else(|| format!("the twin printed no `encode_1000_ms`: {text}").into())
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut plain, mut accounted) = (vec![], vec![]);
    for _ in 0..5 {
        plain.push(twin()?);
        accounted.push(encode::encode_1000_ms()?);
    }
    let (plain, accounted) = (median(plain), median(accounted));
    println!("accounted_encode_1000_ms {accounted:.3}");
    println!("accounting_encode_overhead {:.4}", accounted / plain);
    Ok(())
}
