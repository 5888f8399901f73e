//! Measures the secret proxy for `cargo xtask bench`: redacting 64 MiB of tool output (printable
//! pseudo-random text with a secret every 64 KiB) against 100 registered secrets, each in all
//! its forms (median of 5), and building the redactor. Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith_secrets::Redactor;

fn main() {
    let names: Vec<String> = (0..100).map(|i| format!("SECRET_{i}")).collect();
    let values: Vec<String> = (0..100)
        .map(|i| {
            format!(
                "sk-bench-{i:03}-{:016x}",
                0x9e37_79b9_u64.wrapping_mul(i + 1)
            )
        })
        .collect();
    let start = Instant::now();
    let redactor = Redactor::new(
        names
            .iter()
            .zip(&values)
            .map(|(n, v)| (n.as_str(), v.as_str())),
    )
    .expect("valid secrets");
    let build_ms = start.elapsed().as_secs_f64() * 1000.0;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut text = String::with_capacity(64 << 20);
    while text.len() < 64 << 20 {
        for _ in 0..(64 << 10) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.push(char::from(b' ' + (seed % 95) as u8));
        }
        text.push_str(&values[(seed % 100) as usize]);
    }
    let mut samples: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let out = redactor.redact(&text);
            let took = t.elapsed().as_secs_f64() * 1000.0;
            assert!(out.len() < text.len(), "the secrets were replaced");
            took
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!("redact_64mib_100_ms {:.3}", samples[2]);
    println!("redactor_build_100_ms {build_ms:.3}");
}
