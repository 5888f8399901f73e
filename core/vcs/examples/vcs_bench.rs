//! Bench for `cargo xtask bench`: a snapshot of a 10,000-file tree (100 directories of 100
//! files, 1–2 KiB each) after one file changed — incremental: the other 9,999 are vouched for
//! by the stat cache — and the restore that undoes a 3-file change (snapshot of the tree as it
//! is, check, write three files), in that tree and in a 1,000-file one. Median of 15 runs
//! each, in milliseconds. Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith_vcs::{Limits, Restore, Vcs};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Writes `dirs` directories of 100 files each under `root`.
fn tree(root: &std::path::Path, dirs: usize) -> std::io::Result<()> {
    for d in 0..dirs {
        let sub = root.join(format!("src/mod{d:03}"));
        std::fs::create_dir_all(&sub)?;
        for f in 0..100 {
            let text = format!("// file {d}/{f}\n{}\n", "let x = 1;\n".repeat(100 + f));
            std::fs::write(sub.join(format!("f{f:03}.rs")), text)?;
        }
    }
    Ok(())
}

/// Median milliseconds of 15 restores that undo a 3-file change in the tree `vcs` owns.
fn undo_ms(vcs: &Vcs, root: &std::path::Path) -> Result<f64, Box<dyn std::error::Error>> {
    while vcs.snapshot("")?.read > 0 {}
    let mut undo = Vec::new();
    for i in 0..15 {
        let before = vcs.snapshot("")?.id;
        for n in 0..3 {
            std::fs::write(
                root.join(format!("src/mod00{n}/f00{n}.rs")),
                format!("edit {i}\n"),
            )?;
        }
        let after = vcs.snapshot("")?.id;
        let start = Instant::now();
        let done = vcs.restore(
            before,
            &Restore {
                expect: Some(after),
                note: String::new(),
            },
        )?;
        undo.push(start.elapsed().as_secs_f64() * 1e3);
        assert_eq!(done.written.len(), 3);
    }
    Ok(median(undo))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let root = dir.path().join("project");
    tree(&root, 100)?;
    let vcs = Vcs::open(&dir.path().join("vcs"), &root, Limits::default())?;
    let start = Instant::now();
    vcs.snapshot("")?;
    println!(
        "vcs_snapshot_10k_first_ms {:.3}",
        start.elapsed().as_secs_f64() * 1e3
    );
    // Until the files are older than the stat cache (git's racy-clean rule), they are reread.
    while vcs.snapshot("")?.read > 0 {}

    let mut snapshot = Vec::new();
    for i in 0..15 {
        std::fs::write(root.join("src/mod042/f007.rs"), format!("changed {i}\n"))?;
        let start = Instant::now();
        let s = vcs.snapshot("")?;
        snapshot.push(start.elapsed().as_secs_f64() * 1e3);
        assert!(s.read <= 2 && s.created, "incremental: read {}", s.read);
    }
    println!("vcs_snapshot_10k_one_changed_ms {:.3}", median(snapshot));
    println!("vcs_undo_3_files_10k_ms {:.3}", undo_ms(&vcs, &root)?);

    let small = dir.path().join("small");
    tree(&small, 10)?;
    let vcs = Vcs::open(&dir.path().join("vcs"), &small, Limits::default())?;
    vcs.snapshot("")?;
    println!("vcs_undo_3_files_ms {:.3}", undo_ms(&vcs, &small)?);
    Ok(())
}
