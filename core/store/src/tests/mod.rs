//! Tests of the writer, readers and fork against real files, including injected storage faults
//! (spec: Committed changes; Storage and encoding; Checkpoints and integrity; Access ownership).

use std::path::{Path, PathBuf};

use smith::{EntryId, SessionId};

use crate::format::{self, FRAME_HEAD_LEN};
use crate::writer::{Fault, PendingFrame};
use crate::{
    Error, ModelChange, NewEntry, Record, SessionReader, SessionStart, SessionWriter, fork,
    read_session,
};

fn start() -> Record {
    Record::SessionStart(SessionStart {
        smith_version: "0.1.0".into(),
        cwd: Some("/tmp".into()),
        imported: None,
    })
}

fn model(n: u64) -> Record {
    Record::ModelChange(ModelChange {
        model: format!("scripted/m{n}").parse().unwrap(),
    })
}

fn new_session(dir: &Path) -> (SessionWriter, SessionId) {
    let id = SessionId::new_now();
    (SessionWriter::create(dir, id).unwrap(), id)
}

fn ids(entries: &[crate::Entry]) -> Vec<u64> {
    entries.iter().map(|e| e.id.0).collect()
}

mod damage;

#[test]
fn storage_faults_never_publish_a_partial_change_nor_acknowledge_an_unsynced_one() {
    for fault in [
        Fault::ShortWrite(0),
        Fault::ShortWrite(5),
        Fault::ShortWrite(60),
        Fault::NoSpace(13),
        Fault::NoSpace(100),
        Fault::Fsync,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (mut w, id) = new_session(dir.path());
        let acknowledged = w.append(&[start(), model(1)]).unwrap();
        w.fault = Some(fault);
        let err = w.append(&[model(2), model(3)]).unwrap_err();
        assert!(matches!(err, Error::Io { .. }), "{fault:?}: {err}");
        // Uncertain: the writer refuses to go on until the file is reopened.
        let again = w.append(&[model(4)]).unwrap_err();
        assert!(
            matches!(again, Error::Uncertain { .. }),
            "{fault:?}: {again}"
        );
        assert!(matches!(w.select(EntryId(1)), Err(Error::Uncertain { .. })));
        let path = w.path().to_owned();
        drop(w);
        let seen = read_session(&path).unwrap();
        match fault {
            // All bytes reached the file; only the acknowledgement is missing: the change is
            // complete, and the file says it is not known to be durable.
            Fault::Fsync => {
                assert_eq!(ids(&seen.entries), vec![1, 2, 3, 4], "{fault:?}");
                assert_eq!(seen.state.sequence, 2);
                assert!(!seen.state.acknowledged(2), "{fault:?}");
                assert!(seen.state.acknowledged(1));
            }
            _ => assert_eq!(
                ids(&seen.entries),
                vec![1, 2],
                "{fault:?}: no partial change"
            ),
        }
        // Reopening recovers a usable boundary, syncs it, and appends continue after it.
        let (mut w, rec) = SessionWriter::open(&path, id).unwrap();
        let before = rec.reader.state().last_id;
        let next = w.append(&[model(5)]).unwrap();
        assert_eq!(next[0].0, before + 1, "{fault:?}");
        let after = read_session(&path).unwrap();
        assert!(
            after.state.acknowledged(after.state.sequence - 1),
            "{fault:?}"
        );
        for ack in &acknowledged {
            assert!(after.entries.iter().any(|e| e.id == *ack));
        }
    }
}

#[test]
fn a_writer_recovers_in_place_after_a_storage_fault_and_records_on() {
    for fault in [Fault::ShortWrite(5), Fault::NoSpace(100), Fault::Fsync] {
        let dir = tempfile::tempdir().unwrap();
        let (mut w, _id) = new_session(dir.path());
        w.append(&[start(), model(1)]).unwrap();
        w.fault = Some(fault);
        assert!(w.append(&[model(2), model(3)]).is_err());
        // The unacknowledged change is cut back; the next change follows the last one whose
        // fsync returned, as reopening would have it.
        w.recover().unwrap();
        assert_eq!(
            w.append(&[model(4)]).unwrap(),
            vec![EntryId(3)],
            "{fault:?}"
        );
        let path = w.path().to_owned();
        w.close().unwrap();
        let seen = read_session(&path).unwrap();
        assert!(
            seen.torn_tail.is_none() && seen.skipped.is_empty(),
            "{fault:?}"
        );
        assert_eq!(ids(&seen.entries), vec![1, 2, 3], "{fault:?}");
        assert_eq!(&seen.entries[2].record, &model(4));
        assert!(seen.state.acknowledged(seen.state.sequence - 1));
    }
}

#[test]
fn appended_changes_read_back_in_order_with_parents_and_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, _) = new_session(dir.path());
    assert_eq!(w.append(&[start()]).unwrap(), vec![EntryId(1)]);
    let pair = NewEntry {
        record: model(2),
        pair: Some(EntryId(1)),
    };
    assert_eq!(
        w.append_entries(&[model(1).into(), pair]).unwrap(),
        vec![EntryId(2), EntryId(3)]
    );
    let future = NewEntry {
        record: model(3),
        pair: Some(EntryId(9)),
    };
    assert!(matches!(
        w.append_entries(&[future]),
        Err(Error::Encode { .. })
    ));
    w.close().unwrap();
    let out = read_session(
        &dir.path().join(
            std::fs::read_dir(dir.path())
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .file_name(),
        ),
    )
    .unwrap();
    assert!(out.torn_tail.is_none());
    let links: Vec<_> = out
        .entries
        .iter()
        .map(|e| (e.id.0, e.parent.map(|p| p.0), e.pair.map(|p| p.0)))
        .collect();
    assert_eq!(
        links,
        vec![(1, None, None), (2, Some(1), None), (3, Some(2), Some(1))]
    );
    assert_eq!(out.entries[0].record, start());
    // Two appends and the close marker; the close records everything as acknowledged.
    assert_eq!(out.state.sequence, 3);
    assert_eq!(out.state.durable_through, 2);
}

#[test]
fn a_second_opener_is_an_observer_and_writer_exit_never_promotes_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, id) = new_session(dir.path());
    w.append(&[start(), model(1)]).unwrap();
    let path = w.path().to_owned();
    let err = SessionWriter::open(&path, id).unwrap_err();
    assert!(matches!(err, Error::Locked { .. }), "{err}");
    // Read-only access at once, at the snapshot boundary of the moment.
    let mut observer = SessionReader::open(&path).unwrap();
    assert!(observer.live_writer());
    w.append(&[model(2)]).unwrap();
    assert_eq!(observer.state().last_id, 2, "a snapshot does not move");
    assert_eq!(observer.branch(EntryId(2), 10).unwrap().len(), 2);
    drop(w);
    // The observer stays an observer; a new writer may open now.
    assert!(observer.live_writer());
    let (_w, rec) = SessionWriter::open(&path, id).unwrap();
    assert_eq!(rec.reader.state().last_id, 3);
}

#[test]
fn independent_sessions_are_writable_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut a, _) = new_session(dir.path());
    let (mut b, _) = new_session(dir.path());
    a.append(&[start()]).unwrap();
    b.append(&[start()]).unwrap();
    a.append(&[model(1)]).unwrap();
    b.append(&[model(1)]).unwrap();
}

/// A file with several changes and the end offset of each.
fn multi_change_file(dir: &Path) -> (PathBuf, SessionId, Vec<(usize, usize)>) {
    let (mut w, id) = new_session(dir);
    let mut ends = vec![(std::fs::metadata(w.path()).unwrap().len() as usize, 0)];
    let mut n = 0;
    for batch in [1usize, 2, 1, 3] {
        let records: Vec<Record> = (0..batch)
            .map(|_| {
                n += 1;
                if n == 1 { start() } else { model(n) }
            })
            .collect();
        w.append(&records).unwrap();
        ends.push((
            std::fs::metadata(w.path()).unwrap().len() as usize,
            n as usize,
        ));
    }
    (w.path().to_owned(), id, ends)
}

#[test]
fn every_truncation_publishes_only_complete_changes_and_appends_continue() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id, ends) = multi_change_file(dir.path());
    let full = std::fs::read(&path).unwrap();
    for cut in format::HEADER_LEN..=full.len() {
        std::fs::write(&path, &full[..cut]).unwrap();
        let complete = ends.iter().rposition(|&(e, _)| e <= cut).unwrap();
        let (end, count) = ends[complete];
        let out = read_session(&path).unwrap();
        assert_eq!(out.entries.len(), count, "cut at {cut}");
        assert_eq!(out.torn_tail.is_some(), cut != end, "cut at {cut}");
        assert!(out.skipped.is_empty(), "cut at {cut}: {:?}", out.skipped);
        let (mut w, rec) = SessionWriter::open(&path, id).unwrap();
        assert_eq!(rec.reader.state().last_id as usize, count);
        let new = w.append(&[model(99)]).unwrap();
        assert_eq!(new, vec![EntryId(count as u64 + 1)]);
        drop(w);
        let again = read_session(&path).unwrap();
        assert_eq!(again.entries.len(), count + 1);
        assert!(again.torn_tail.is_none());
    }
}

#[test]
fn zero_filled_tails_are_torn_tails() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id, ends) = multi_change_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[0u8; 4096]);
    std::fs::write(&path, &bytes).unwrap();
    let out = read_session(&path).unwrap();
    assert_eq!(out.entries.len(), ends.last().unwrap().1);
    assert_eq!(
        out.torn_tail.unwrap().reason,
        "zero bytes where frames should be"
    );
    SessionWriter::open(&path, id).unwrap();
}

#[test]
fn unknown_version_and_foreign_files_are_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id, _) = multi_change_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8] = 9;
    std::fs::write(&path, &bytes).unwrap();
    let err = read_session(&path).unwrap_err();
    assert!(
        matches!(err, Error::UnsupportedVersion { found: 9, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("version 9"));
    assert!(SessionWriter::open(&path, id).is_err());
    assert!(SessionReader::open(&path).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "file unchanged");

    let other = dir.path().join("x.smith");
    std::fs::write(&other, b"not a session at all").unwrap();
    assert!(matches!(
        read_session(&other),
        Err(Error::NotASession { .. })
    ));
    std::fs::write(&other, b"SMITHSES").unwrap();
    assert!(matches!(
        read_session(&other),
        Err(Error::NotASession { .. })
    ));
}

#[test]
fn a_flipped_bit_is_reported_and_no_writer_changes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id, ends) = multi_change_file(dir.path());
    let total = ends.last().unwrap().1;
    let clean = std::fs::read(&path).unwrap();
    for at in 0..clean.len() {
        for bit in [0x01u8, 0x10, 0x80] {
            let mut bytes = clean.clone();
            bytes[at] ^= bit;
            std::fs::write(&path, &bytes).unwrap();
            // A report or an error, never a panic and never a wrong entry.
            match read_session(&path) {
                Ok(out) => {
                    assert!(out.entries.len() <= total);
                    let lost = total - out.entries.len();
                    assert!(
                        lost == 0 || !out.skipped.is_empty() || out.torn_tail.is_some(),
                        "flip at {at}: {lost} entries vanished without a report"
                    );
                    assert!(
                        out.torn_tail.is_none(),
                        "flip at {at} looks like a torn tail"
                    );
                }
                Err(e) => assert!(
                    matches!(
                        e,
                        Error::Corrupt { .. }
                            | Error::NotASession { .. }
                            | Error::UnsupportedVersion { .. }
                    ),
                    "flip at {at}: {e}"
                ),
            }
            if let Ok(mut r) = SessionReader::open(&path) {
                for id in 1..=r.state().last_id {
                    let _ = r.entry(EntryId(id));
                }
            }
            // Opening to write never cuts complete frames.
            drop(SessionWriter::open(&path, id));
            assert_eq!(
                std::fs::read(&path).unwrap(),
                bytes,
                "flip at {at}: file changed"
            );
        }
    }
}

#[test]
fn corrupt_frames_with_intact_lengths_are_skipped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id, ends) = multi_change_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    // Damage the payload of the first entry of the second change (entries 2 and 3).
    let at = ends[1].0 + FRAME_HEAD_LEN + 45;
    bytes[at] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let out = read_session(&path).unwrap();
    assert_eq!(ids(&out.entries), vec![1, 4, 5, 6, 7]);
    assert_eq!(out.skipped.len(), 1);
    let s = &out.skipped[0];
    assert_eq!(
        (s.offset, s.entries, s.at_end),
        (ends[1].0 as u64, Some((2, 3)), false)
    );
    assert!(s.reason.contains("checksum"), "{}", s.reason);
    // The damage stays; appends continue after it and the damaged entries stay withheld.
    // (Opening to write is fast and does not verify the middle of the file.)
    let (mut w, _) = SessionWriter::open(&path, id).unwrap();
    w.append(&[model(8)]).unwrap();
    drop(w);
    let mut r = SessionReader::open(&path).unwrap();
    assert!(matches!(r.entry(EntryId(2)), Err(Error::Corrupt { .. })));
    assert_eq!(r.entry(EntryId(8)).unwrap().record, model(8));
    assert_eq!(&std::fs::read(&path).unwrap()[..bytes.len()], &bytes[..]);
}

#[test]
fn branches_select_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, id) = new_session(dir.path());
    w.append(&[start(), model(2), model(3)]).unwrap();
    w.select(EntryId(2)).unwrap();
    assert_eq!(w.append(&[model(4)]).unwrap(), vec![EntryId(4)]);
    assert!(matches!(w.select(EntryId(9)), Err(Error::Encode { .. })));
    let path = w.path().to_owned();
    w.close().unwrap();
    let out = read_session(&path).unwrap();
    assert_eq!(
        out.entries[3].parent,
        Some(EntryId(2)),
        "a new branch beside entry 3"
    );
    assert_eq!(out.state.leaf, 4);
    let (mut w, mut rec) = SessionWriter::open(&path, id).unwrap();
    assert_eq!(w.leaf(), Some(EntryId(4)));
    assert_eq!(
        ids(&rec.reader.branch(EntryId(4), 10).unwrap()),
        vec![4, 2, 1]
    );
    assert_eq!(
        ids(&rec.reader.branch(EntryId(3), 10).unwrap()),
        vec![3, 2, 1]
    );
    w.select(EntryId(3)).unwrap();
    let e = w.append(&[model(5)]).unwrap();
    drop(w);
    let out = read_session(&path).unwrap();
    assert_eq!(out.entries[4].parent, Some(EntryId(3)));
    assert_eq!(out.state.leaf, e[0].0);
}

/// A session of `n` entries in changes of 1 to 4 entries, with branches now and then.
fn big_session(dir: &Path, n: u64) -> (PathBuf, SessionId) {
    let (mut w, id) = new_session(dir);
    w.append(&[start()]).unwrap();
    let mut next = 2;
    while next <= n {
        let batch = ((next % 4) + 1).min(n - next + 1);
        let records: Vec<Record> = (next..next + batch).map(model).collect();
        if next % 97 == 0 {
            w.select(EntryId(next / 2)).unwrap();
        }
        w.append(&records).unwrap();
        next += batch;
    }
    let path = w.path().to_owned();
    w.close().unwrap();
    (path, id)
}

#[test]
fn the_index_finds_every_entry_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = big_session(dir.path(), 1500);
    let full = read_session(&path).unwrap();
    assert!(full.index_problems.is_empty(), "{:?}", full.index_problems);
    let mut r = SessionReader::open(&path).unwrap();
    assert!(r.used_index());
    for e in &full.entries {
        assert_eq!(&r.entry(e.id).unwrap(), e);
    }
    assert!(r.used_index(), "no lookup fell back to a scan");
    // Reopening to write extends the index (its back pointers found by descent).
    let (mut w, _) = SessionWriter::open(&path, id).unwrap();
    for n in 0..700 {
        w.append(&[model(n)]).unwrap();
    }
    w.close().unwrap();
    let full = read_session(&path).unwrap();
    assert!(full.index_problems.is_empty(), "{:?}", full.index_problems);
    let mut r = SessionReader::open(&path).unwrap();
    assert!(r.used_index());
    for e in full.entries.iter().step_by(7) {
        assert_eq!(&r.entry(e.id).unwrap(), e);
    }
    let leaf = r.state().leaf_id().unwrap();
    assert_eq!(r.branch(leaf, 50).unwrap().len(), 50);
}

#[test]
fn an_invalid_index_never_hides_history() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = big_session(dir.path(), 600);
    let full = read_session(&path).unwrap();
    // Point every offset of the newest index frame at the file header, checksums recomputed:
    // structurally valid, semantically wrong.
    let index_at = full.state.index_offset as usize;
    let mut bytes = std::fs::read(&path).unwrap();
    let len = u32::from_le_bytes(bytes[index_at..index_at + 4].try_into().unwrap()) as usize;
    let payload = index_at + FRAME_HEAD_LEN;
    let count = u32::from_le_bytes(bytes[payload + 16..payload + 20].try_into().unwrap()) as usize;
    for i in 0..count {
        let o = payload + 24 + i * 8;
        bytes[o..o + 8].copy_from_slice(&40u64.to_le_bytes());
    }
    let crc = crc32c::crc32c(&bytes[index_at..payload + len]);
    bytes[payload + len..payload + len + 4].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let again = read_session(&path).unwrap();
    assert_eq!(again.entries, full.entries);
    assert!(!again.index_problems.is_empty());
    let mut r = SessionReader::open(&path).unwrap();
    for e in &full.entries {
        assert_eq!(&r.entry(e.id).unwrap(), e);
    }
    assert!(!r.used_index(), "the reader fell back to a full scan");
}

#[test]
fn large_bodies_are_compressed_and_decompression_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, _) = new_session(dir.path());
    let big = Record::SessionStart(SessionStart {
        smith_version: "x".repeat(100_000),
        cwd: None,
        imported: None,
    });
    w.append(std::slice::from_ref(&big)).unwrap();
    let path = w.path().to_owned();
    drop(w);
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() < 2_000, "compressed: {} bytes", bytes.len());
    assert_eq!(read_session(&path).unwrap().entries[0].record, big);
    // Claim a smaller decoded length: decompression stops at the bound and reports.
    let mut bytes = bytes;
    let frame = format::HEADER_LEN;
    let meta = frame + FRAME_HEAD_LEN;
    bytes[meta + 28..meta + 32].copy_from_slice(&1000u32.to_le_bytes());
    let len = u32::from_le_bytes(bytes[frame..frame + 4].try_into().unwrap()) as usize;
    let end = meta + len;
    let crc = crc32c::crc32c(&bytes[frame..end]);
    bytes[end..end + 4].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let out = read_session(&path).unwrap();
    assert!(out.entries.is_empty());
    assert!(
        out.skipped[0].reason.contains("1000"),
        "{}",
        out.skipped[0].reason
    );
}

#[test]
fn unknown_frames_survive_a_fork_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, _) = new_session(dir.path());
    w.append(&[start()]).unwrap();
    let unknown = PendingFrame {
        kind: 0x7777,
        flags: 0x0003,
        payload: b"a future frame".to_vec(),
        entry: None,
    };
    let mut expected = Vec::new();
    format::push_frame(&mut expected, unknown.kind, unknown.flags, &unknown.payload);
    let entry = w.append(&[model(2)]).unwrap();
    let _ = entry;
    w.write_change(vec![unknown], 2).unwrap();
    w.append(&[model(3), model(4)]).unwrap();
    let source = w.path().to_owned();
    w.close().unwrap();
    let read = read_session(&source).unwrap();
    assert_eq!(read.entries.len(), 4);

    let forked = fork(&source, dir.path(), SessionId::new_now(), Some(EntryId(3))).unwrap();
    assert_eq!((forked.leaf, forked.entries), (Some(EntryId(3)), 3));
    let bytes = std::fs::read(&forked.path).unwrap();
    assert!(
        bytes.windows(expected.len()).any(|w| w == expected),
        "the unknown frame is in the fork byte for byte"
    );
    let out = read_session(&forked.path).unwrap();
    assert_eq!(out.entries[..], read.entries[..3]);
    assert_eq!(out.state.leaf, 3);
    // The entry frames themselves are copied byte for byte too.
    let src = std::fs::read(&source).unwrap();
    let first_entry = &src[format::HEADER_LEN..format::HEADER_LEN + 60];
    assert!(bytes.windows(first_entry.len()).any(|w| w == first_entry));
    // The fork is independently writable; no temporary file is left behind.
    let (mut w, _) = SessionWriter::open(&forked.path, forked.id).unwrap();
    assert_eq!(w.append(&[model(9)]).unwrap(), vec![EntryId(4)]);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    assert!(matches!(
        fork(&source, dir.path(), SessionId::new_now(), Some(EntryId(99))),
        Err(Error::Encode { .. })
    ));
    // The writer's record of who writes (`holder`) goes with the writer.
    drop(w);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn records_out_of_bounds_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, _) = new_session(dir.path());
    let mut deep = serde_json::Value::Null;
    for _ in 0..100 {
        deep = serde_json::Value::Array(vec![deep]);
    }
    let intent = Record::EffectIntent(crate::EffectIntent {
        effect_id: "e1".into(),
        call_id: "c1".into(),
        plugin: "files@0.1.0#1".into(),
        tool: "write".into(),
        effect: "file.write".into(),
        target: None,
        input: deep,
    });
    let before = std::fs::read(w.path()).unwrap();
    let err = w.append(&[intent]).unwrap_err();
    assert!(err.to_string().contains("nested"), "{err}");
    let too_many: Vec<Record> = (0..=format::MAX_ENTRIES_PER_COMMIT as u64)
        .map(model)
        .collect();
    assert!(matches!(w.append(&too_many), Err(Error::Encode { .. })));
    assert_eq!(std::fs::read(w.path()).unwrap(), before);
    w.append(&[start()]).unwrap();
}

#[test]
fn a_writer_with_a_redactor_never_writes_a_secret_in_any_string_bytes_or_key() {
    let dir = tempfile::tempdir().unwrap();
    let (mut w, _id) = new_session(dir.path());
    let secret = "sk-store-secret-0123456789";
    w.set_redactor(smith_secrets::Shared::new(
        smith_secrets::Redactor::new([("KEY", secret)]).unwrap(),
    ));
    w.append(&[
        start(),
        Record::EffectIntent(smith::EffectIntent {
            effect_id: "c/1".into(),
            call_id: "c".into(),
            plugin: "files@0.1.0#1".into(),
            tool: "write".into(),
            effect: "fs.write".into(),
            target: Some(format!("dir/{secret}.txt")),
            input: serde_json::json!({ secret: [{"deep": secret}] }),
        }),
        Record::EffectCompletion(smith::EffectCompletion {
            effect_id: "c/1".into(),
            outcome: smith::EffectOutcome::Applied,
            output: format!("wrote {secret}").repeat(200).into_bytes(),
            evidence: serde_json::Value::Null,
        }),
    ])
    .unwrap();
    let path = w.path().to_owned();
    drop(w);
    let read = read_session(&path).unwrap();
    let mut bodies = Vec::new();
    for e in &read.entries {
        bodies.extend(e.record.encode_body().unwrap());
    }
    let text = String::from_utf8_lossy(&bodies);
    assert!(!text.contains(secret), "a secret reached the file");
    assert_eq!(text.matches("⟦secret:KEY⟧").count(), 203, "{text}");
}

#[test]
fn abandoned_temporary_files_are_removed_and_live_or_fresh_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let aged = |path: &std::path::Path| {
        let then = std::time::SystemTime::now() - crate::ABANDONED_AFTER * 2;
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(then)
            .unwrap();
    };
    // A creator still holds its temporary file: kept, however old.
    let (live, live_temp) = SessionWriter::create_temp(dir.path(), SessionId::new_now()).unwrap();
    aged(&live_temp);
    // A creator that died (its lock released) long enough ago: removed.
    let (dead, dead_temp) = SessionWriter::create_temp(dir.path(), SessionId::new_now()).unwrap();
    drop(dead);
    aged(&dead_temp);
    // One that died a moment ago may be a creator between creating and locking: kept.
    let (fresh, fresh_temp) = SessionWriter::create_temp(dir.path(), SessionId::new_now()).unwrap();
    drop(fresh);
    // A killed process's writer-record and live-feed temporaries: removed once old; the
    // records themselves and a fresh temporary are kept.
    let touch = |name: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, "{}").unwrap();
        path
    };
    let record_temp = touch(".01ab.smith.writer.4242");
    let live_feed_temp = touch(".01ab.smith.live.4243");
    aged(&record_temp);
    aged(&live_feed_temp);
    let record = touch(".01ab.smith.writer");
    aged(&record);
    let fresh_record_temp = touch(".01ac.smith.writer.77");
    assert_eq!(crate::remove_abandoned_temporaries(dir.path()).unwrap(), 3);
    assert!(live_temp.exists() && fresh_temp.exists() && !dead_temp.exists());
    assert!(!record_temp.exists() && !live_feed_temp.exists());
    assert!(record.exists() && fresh_record_temp.exists());
    drop(live);
    assert_eq!(
        crate::remove_abandoned_temporaries(&dir.path().join("none")).unwrap(),
        0
    );
}
