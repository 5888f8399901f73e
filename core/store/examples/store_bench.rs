//! Measures the session store for `cargo xtask bench`: encoding 1,000 representative entries
//! (spec: ≤ 5 ms; `store_bench encode` measures only that, for `encode_accounted`), and opening a cleanly closed session to fetch its last 50 entries at
//! 10,000 and 100,000 entries, each in a fresh child process so wall time and peak RSS are the
//! open's alone (median of 5); then the same open of a file with a torn tail (a full scan).
//! Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith::{EntryId, SessionId};
use smith_store::{EntryHead, Record, SessionReader, SessionWriter};

/// Peak resident set of this process in KiB (Linux `VmHWM`), 0 where unknown.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Child mode: open `path` as a reader, fetch the selected branch's last 50 entries, print
/// `ms peak_kib`.
fn open_last50(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let start = Instant::now();
    let mut reader = SessionReader::open(std::path::Path::new(path))?;
    let leaf = reader.state().leaf_id().ok_or("empty session")?;
    let last = reader.branch(leaf, 50)?;
    let took = start.elapsed();
    assert_eq!(last.len(), 50);
    println!(
        "{:.3} {} {}",
        took.as_secs_f64() * 1000.0,
        peak_rss_kib(),
        reader.used_index()
    );
    Ok(())
}

/// Run this example in child mode on `path`; returns (ms, peak KiB, used index).
fn child(path: &std::path::Path) -> Result<(f64, u64, bool), Box<dyn std::error::Error>> {
    let mut samples = Vec::new();
    for _ in 0..5 {
        let out = std::process::Command::new(std::env::current_exe()?)
            .arg("open")
            .arg(path)
            .output()?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
        }
        let text = String::from_utf8(out.stdout)?;
        let mut parts = text.split_whitespace();
        let ms: f64 = parts.next().ok_or("no time")?.parse()?;
        let kib: u64 = parts.next().ok_or("no rss")?.parse()?;
        let indexed = parts.next() == Some("true");
        samples.push((ms, kib, indexed));
    }
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(samples[2])
}

#[path = "shared/encode.rs"]
mod encode;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "open" {
        return open_last50(&args[2]);
    }
    println!("encode_1000_ms {:.3}", encode::encode_1000_ms()?);
    if args.len() == 2 && args[1] == "encode" {
        return Ok(());
    }

    for n in [10_000usize, 100_000] {
        let dir = tempfile::tempdir()?;
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id)?;
        // Changes of 3 entries (prompt, call, result), as a run records them.
        for chunk in (0..n).collect::<Vec<_>>().chunks(3) {
            let batch: Vec<Record> = chunk
                .iter()
                .map(|&i| smith_testkit::representative(i))
                .collect();
            w.append(&batch)?;
        }
        let path = w.path().to_owned();
        w.close()?;
        let (ms, kib, indexed) = child(&path)?;
        println!("open_last50_{n}_ms {ms:.3}");
        println!("open_last50_{n}_rss_kib {kib}");
        println!("open_last50_{n}_indexed {}", u8::from(indexed));
        if n == 100_000 {
            // A torn tail: the first half of the next entry frame after the last commit, as an
            // interrupted write leaves it. Opening must scan the file.
            let head = EntryHead {
                id: EntryId(n as u64 + 1),
                parent: Some(EntryId(n as u64)),
                pair: None,
                timestamp_ms: 1_700_000_000_000,
            };
            let frame = smith_store::entry_frame(&head, &smith_testkit::representative(0))?;
            let mut bytes = std::fs::read(&path)?;
            bytes.extend_from_slice(&frame[..frame.len() / 2]);
            std::fs::write(&path, &bytes)?;
            let (ms, kib, _) = child(&path)?;
            println!("open_torn_{n}_ms {ms:.3}");
            println!("open_torn_{n}_rss_kib {kib}");
        }
    }
    Ok(())
}
