//! Bench for `cargo xtask bench`: projecting the next request's context from a session file
//! (what resume and request reconstruction do; spec: Sessions → Effective request context —
//! projection obeys bounded working-set laws). Sessions of real files: a 10,000-entry
//! selected branch (user and assistant messages, a context edit every 100 entries), and a
//! 1,000-entry branch alone and beside 9,000 unrelated entries. Median of 20 projections each
//! (opening the reader included), in milliseconds; and what a running session's next round
//! costs instead (its resident projection cloned into the request); and projecting and
//! opening a session whose 1,000 or 100,000 entries lie behind a compaction (flat: what the
//! kept context costs). Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith::{ContentBlock, EntryId, Message, Role, SessionId};
use smith_store::{
    ContextEdit, EditChange, EditOp, MessageRecord, Record, SessionReader, SessionWriter,
};

fn message(role: Role, text: String) -> Record {
    Record::Message(MessageRecord {
        message: Message {
            role,
            content: vec![ContentBlock::Text { text }],
        },
        model: None,
        stop_reason: None,
        usage: None,
        error: None,
        attempt: None,
    })
}

/// A session with `unrelated` entries on a branch of their own, then a selected branch of
/// `branch` entries from the root; its path and leaf.
fn session(
    dir: &std::path::Path,
    branch: usize,
    unrelated: usize,
) -> Result<(std::path::PathBuf, EntryId), Box<dyn std::error::Error>> {
    let mut w = SessionWriter::create(dir, SessionId::new_now())?;
    let root = w.append(&[message(Role::User, "root".into())])?[0];
    for chunk in 0..unrelated / 100 {
        let batch: Vec<Record> = (0..100)
            .map(|i| {
                message(
                    Role::Assistant,
                    format!("unrelated {chunk}/{i}: {}", "x".repeat(150)),
                )
            })
            .collect();
        w.append(&batch)?;
    }
    w.select(root)?;
    let mut leaf = root;
    let mut n = 1;
    while n < branch {
        let first = w.next_entry_id();
        let mut batch: Vec<Record> = (0..99)
            .map(|i| {
                let role = if i % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                };
                message(
                    role,
                    format!("entry {n}+{i} of the branch: {}", "y".repeat(150)),
                )
            })
            .collect();
        batch.push(Record::ContextEdit(ContextEdit {
            edits: vec![EditOp {
                target: first,
                change: EditChange::Replace("(shortened)".into()),
            }],
        }));
        let ids = w.append(&batch)?;
        leaf = *ids.last().unwrap_or(&leaf);
        n += batch.len();
    }
    let path = w.path().to_owned();
    w.close()?;
    Ok((path, leaf))
}

fn median_ms(path: &std::path::Path, leaf: EntryId) -> Result<f64, Box<dyn std::error::Error>> {
    let mut samples = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut reader = SessionReader::open(path)?;
        let projection = smith_agent::project(&mut reader, Some(leaf))?;
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
        std::hint::black_box(projection);
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}

/// A session of `summarized` entries compacted away, then 100 kept entries, the compaction
/// (carrying the state before it, as the agent records it) and 100 entries after it; its
/// path, id and leaf.
fn compacted(
    dir: &std::path::Path,
    summarized: usize,
) -> Result<(std::path::PathBuf, SessionId, EntryId), Box<dyn std::error::Error>> {
    let id = SessionId::new_now();
    let session = smith_agent::Session::create(dir, id, None)?;
    let journal = session.journal();
    let mut writer = journal.lock();
    let batch = |from: usize, n: usize, what: &str| -> Vec<Record> {
        (0..n)
            .map(|i| {
                let role = if (from + i).is_multiple_of(2) {
                    Role::User
                } else {
                    Role::Assistant
                };
                message(role, format!("{what} {}: {}", from + i, "z".repeat(150)))
            })
            .collect()
    };
    for chunk in 0..summarized / 100 {
        writer.append(&batch(chunk * 100, 100, "summarized"))?;
    }
    let kept = writer.append(&batch(0, 100, "kept"))?;
    writer.append(&[Record::Compaction(smith_store::Compaction {
        summary: "the summary".into(),
        first_kept: Some(kept[0]),
        attempt: None,
        usage: None,
        started: None,
        carried: Some(smith_store::Carried::default()),
    })])?;
    let after = writer.append(&batch(100, 100, "after"))?;
    drop(writer);
    let path = session.path().to_owned();
    session.close()?;
    Ok((path, id, *after.last().unwrap_or(&kept[0])))
}

/// Median of 20 openings of the session (what attaching to it costs), in milliseconds.
fn open_ms(path: &std::path::Path, id: SessionId) -> Result<f64, Box<dyn std::error::Error>> {
    let mut samples = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let opened = smith_agent::Session::open(path, id)?;
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
        opened.session.close()?;
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}

/// Peak resident set of this process so far, in KiB (`VmHWM`; 0 where unknown).
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

/// Open the session and project its next request in a fresh process (this bench, run with
/// `PROJECTION_BENCH_OPEN=PATH ID`), so its peak resident set is the opening's alone.
fn open_rss_kib(path: &std::path::Path, id: SessionId) -> Result<u64, Box<dyn std::error::Error>> {
    let out = std::process::Command::new(std::env::current_exe()?)
        .env("PROJECTION_BENCH_OPEN", format!("{} {id}", path.display()))
        .output()?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().parse()?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Ok(target) = std::env::var("PROJECTION_BENCH_OPEN") {
        let (path, id) = target.rsplit_once(' ').ok_or("PATH ID")?;
        let mut opened = smith_agent::Session::open(std::path::Path::new(path), id.parse()?)?;
        std::hint::black_box(opened.session.context()?.len());
        println!("{}", peak_rss_kib());
        return Ok(());
    }
    let ten = tempfile::tempdir()?;
    let (path, leaf) = session(ten.path(), 10_000, 0)?;
    println!("projection_10k_ms {:.3}", median_ms(&path, leaf)?);
    if std::env::var_os("SMITH_BENCH_PROFILE").is_some() {
        for _ in 0..10 {
            median_ms(&path, leaf)?;
        }
        return Ok(());
    }
    // What each round of a running session does instead: the resident projection, cloned
    // into the request.
    let mut reader = SessionReader::open(&path)?;
    let resident = smith_agent::project(&mut reader, Some(leaf))?.items;
    let mut samples = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        std::hint::black_box(resident.clone());
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    println!(
        "projection_10k_resident_ms {:.3}",
        samples[samples.len() / 2]
    );
    let alone = tempfile::tempdir()?;
    let (path, leaf) = session(alone.path(), 1_000, 0)?;
    println!("projection_1k_ms {:.3}", median_ms(&path, leaf)?);
    let beside = tempfile::tempdir()?;
    let (path, leaf) = session(beside.path(), 1_000, 9_000)?;
    println!("projection_1k_beside_9k_ms {:.3}", median_ms(&path, leaf)?);
    // After a compaction, projecting and opening cost what the kept context costs, whatever
    // the summarized history's length.
    for (name, summarized) in [("1k", 1_000), ("100k", 100_000)] {
        let dir = tempfile::tempdir()?;
        let (path, id, leaf) = compacted(dir.path(), summarized)?;
        println!(
            "projection_compacted_{name}_ms {:.3}",
            median_ms(&path, leaf)?
        );
        println!("open_compacted_{name}_ms {:.3}", open_ms(&path, id)?);
        println!("open_compacted_{name}_rss_kib {}", open_rss_kib(&path, id)?);
    }
    Ok(())
}
