//! A mutation fuzzer for the session-file decoder (spec SMH-SPEC-SPEC0001: Storage and
//! encoding — bounded allocation, validated offsets and lengths, explicit failure; the issue's
//! "bit flips anywhere: a report or an error, never a panic").
//!
//! Seeds are real session files (branches, compressed bodies, index frames). Each iteration
//! applies random mutations — bit flips, byte overwrites, truncation, duplicated and inserted
//! ranges — and runs every reader over the result: the full scan, the streaming reader, the
//! indexed reader (every entry and the selected branch) and a fork. The oracle: no panic, and
//! every entry any reader publishes is byte-for-byte the entry the writer acknowledged under
//! that id — damage may hide entries, never change them. It is not coverage-guided (that needs
//! a nightly toolchain); the iteration count comes from `SMITH_FUZZ_ITERATIONS` (CI: a brief
//! run; `cargo xtask fuzz`: a long one), the seed from `SMITH_FUZZ_SEED`.

use std::collections::HashMap;
use std::path::Path;

use smith::{EntryId, SessionId};
use smith_store::{
    CommitReader, EffectCompletion, EffectOutcome, Entry, ModelChange, Record, SessionReader,
    SessionStart, SessionWriter, fork, read_session,
};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seed_session(dir: &Path, entries: u64) -> (Vec<u8>, HashMap<u64, Entry>) {
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir, id).unwrap();
    w.append(&[Record::SessionStart(SessionStart {
        smith_version: "0.1.0".into(),
        cwd: None,
        imported: None,
    })])
    .unwrap();
    let mut n = 1;
    while n < entries {
        let record = if n % 5 == 0 {
            Record::EffectCompletion(EffectCompletion {
                effect_id: format!("e{n}"),
                outcome: EffectOutcome::Applied,
                output: format!("output line {n}\n").repeat(90).into_bytes(),
                evidence: serde_json::json!({"n": n, "f": -0.0}),
            })
        } else {
            Record::ModelChange(ModelChange {
                model: format!("scripted/m{n}").parse().unwrap(),
            })
        };
        if n % 11 == 0 {
            w.select(EntryId(n / 2)).unwrap();
        }
        w.append(&[record.clone(), record]).unwrap();
        n += 2;
    }
    let path = w.path().to_owned();
    w.close().unwrap();
    let truth = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .map(|e| (e.id.0, e))
        .collect();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    (bytes, truth)
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..=rng.below(3) {
        let len = bytes.len();
        match rng.below(6) {
            0 => {
                let at = rng.below(len);
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => {
                let at = rng.below(len);
                bytes[at] = rng.next() as u8;
            }
            2 => bytes.truncate(rng.below(len + 1)),
            3 => {
                // Duplicate a range somewhere else (frame-shaped bytes in the wrong place).
                let from = rng.below(len);
                let to = (from + rng.below(200)).min(len);
                let piece = bytes[from..to].to_vec();
                let at = rng.below(bytes.len() + 1);
                bytes.splice(at..at, piece);
            }
            4 => {
                let at = rng.below(len + 1);
                let junk: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
                bytes.splice(at..at, junk);
            }
            _ if len < 4 => {
                // Too short to hold a length field: one wrong byte instead.
                let at = rng.below(len);
                bytes[at] = rng.next() as u8;
            }
            _ => {
                // A plausible but wrong length field, anywhere it fits whole.
                let at = rng.below(len - 3);
                let v = (rng.next() as u32).to_le_bytes();
                bytes[at..at + 4].copy_from_slice(&v);
            }
        }
        if bytes.is_empty() {
            break;
        }
    }
}

fn check_entries<'a>(truth: &HashMap<u64, Entry>, entries: impl IntoIterator<Item = &'a Entry>) {
    for e in entries {
        assert_eq!(
            truth.get(&e.id.0),
            Some(e),
            "entry {} was published changed",
            e.id.0
        );
    }
}

fn exercise(dir: &Path, path: &Path, truth: &HashMap<u64, Entry>) {
    if let Ok(out) = read_session(path) {
        check_entries(truth, &out.entries);
    }
    if let Ok(mut r) = CommitReader::open(path) {
        while let Ok(Some(change)) = r.next_change() {
            check_entries(truth, &change.entries);
        }
    }
    if let Ok(mut r) = SessionReader::open(path) {
        let state = r.state();
        for id in 1..=state.last_id.min(2000) {
            if let Ok(e) = r.entry(EntryId(id)) {
                check_entries(truth, [&e]);
            }
        }
        if let Some(leaf) = state.leaf_id()
            && let Ok(branch) = r.branch(leaf, 50)
        {
            check_entries(truth, &branch);
        }
    }
    if let Ok(forked) = fork(path, dir, SessionId::new_now(), None) {
        if let Ok(out) = read_session(&forked.path) {
            check_entries(truth, &out.entries);
        }
        let _ = std::fs::remove_file(&forked.path);
    }
}

#[test]
fn mutated_session_files_never_panic_nor_publish_a_changed_entry() {
    let iterations: usize = std::env::var("SMITH_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("SMITH_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_0f51);
    let dir = tempfile::tempdir().unwrap();
    let seeds = [seed_session(dir.path(), 12), seed_session(dir.path(), 600)];
    let mut rng = Rng(seed | 1);
    let path = dir.path().join(format!("{}.smith", SessionId::new_now()));
    for i in 0..iterations {
        let (clean, truth) = &seeds[i % seeds.len()];
        let mut bytes = clean.clone();
        mutate(&mut rng, &mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        exercise(dir.path(), &path, truth);
    }
    #[allow(clippy::print_stderr)]
    {
        eprintln!("fuzz: {iterations} mutated files, seed {seed}");
    }
}

/// The mutator itself never panics, also on files shorter than a length field (a harness
/// fault would hide decoder faults): every arm on every tiny length, many seeds.
#[test]
fn the_mutator_handles_files_of_any_length() {
    for seed in 1..2000u64 {
        let mut rng = Rng(seed | 1);
        for len in 1..10 {
            let mut bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            mutate(&mut rng, &mut bytes);
        }
    }
}
