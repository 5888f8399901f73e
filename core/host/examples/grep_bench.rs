//! Measures the in-process search facilities for `cargo xtask bench` on a generated tree of
//! 50,000 text files (500 directories of 100 files, a `.gitignore`, one file holding the
//! literal): `grep` for the literal and `find` by glob, each the median of 5 warm runs, and
//! ripgrep (`rg -F`) on the same tree in the same run when it is installed (`-1` when not).
//! Prints `name value` lines (milliseconds).
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith_host::fsops::Root;
use smith_host::search::{GrepRequest, WalkOptions};

const LITERAL: &str = "smith_bench_needle_7f3a";

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn time(mut f: impl FnMut()) -> f64 {
    let mut samples = Vec::new();
    f(); // warm the page cache
    for _ in 0..5 {
        let t = Instant::now();
        f();
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    median(samples)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tree = tempfile::tempdir()?;
    std::fs::write(tree.path().join(".gitignore"), "*.log\n")?;
    let body = "fn example() -> u32 {\n    let value = 42;\n    value + 1\n}\n".repeat(8);
    for d in 0..500 {
        let dir = tree.path().join(format!("dir{d:03}"));
        std::fs::create_dir(&dir)?;
        for f in 0..100 {
            let text = if d == 321 && f == 54 {
                format!("{body}// {LITERAL}\n")
            } else {
                body.clone()
            };
            std::fs::write(dir.join(format!("file{f:03}.rs")), text)?;
        }
    }
    let root = Root::open(tree.path())?;
    let request = GrepRequest {
        path: ".",
        pattern: LITERAL,
        literal: true,
        case_insensitive: false,
        glob: None,
        limit: 0,
        options: WalkOptions::default(),
    };
    let found = root.grep(&request, &|| false)?;
    assert_eq!(found.matches.len(), 1, "the literal is in one file");
    assert_eq!(found.files_searched, 50_000);
    println!(
        "grep_50000_ms {:.3}",
        time(|| {
            let _ = root.grep(&request, &|| false);
        })
    );
    println!(
        "find_50000_ms {:.3}",
        time(|| {
            let _ = root.find(".", "*.rs", 1000, WalkOptions::default(), &|| false);
        })
    );
    let rg = std::process::Command::new("rg")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let rg_ms = if rg {
        time(|| {
            let _ = std::process::Command::new("rg")
                .args(["-F", LITERAL])
                .current_dir(tree.path())
                .output();
        })
    } else {
        -1.0
    };
    println!("rg_50000_ms {rg_ms:.3}");
    Ok(())
}
