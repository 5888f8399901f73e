//! The single writer of a session file.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use smith::{EntryId, SessionId};

use crate::format::{self, EntryMeta};
use crate::reader::{ReadOutcome, TornTail, read_from};
use crate::{Entry, Error, Record};

/// What opening an existing session for writing recovered.
#[derive(Debug)]
pub struct Recovery {
    /// The committed entries found, in append order.
    pub entries: Vec<Entry>,
    /// The torn tail that was cut off (it was never published or acknowledged).
    pub truncated: Option<TornTail>,
}

/// The one writer of a session file. Holds an exclusive OS lock on the file for its lifetime
/// (`File::try_lock`), so at most one writer exists per session across processes.
///
/// Every [`SessionWriter::append`] writes one committed change and returns only after
/// `fsync` (`File::sync_data`) returned: the returned ids are durably acknowledged. After a
/// failed write or fsync the writer refuses further appends ([`Error::Uncertain`]) until the
/// file is reopened, because the durable end of the file is no longer known.
#[derive(Debug)]
pub struct SessionWriter {
    file: File,
    path: PathBuf,
    id: SessionId,
    next_id: u64,
    leaf: Option<EntryId>,
    end: u64,
    sequence: u64,
    uncertain: Option<String>,
    /// A storage fault to inject into the next append (tests only).
    #[cfg(test)]
    fault: Option<Fault>,
}

/// A storage fault the fault-injecting tests make the next append suffer.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fault {
    /// Only the first `n` bytes reach the file, then the write fails.
    ShortWrite(usize),
    /// The disk is full: the first `n` bytes are written, then `ENOSPC`.
    NoSpace(usize),
    /// Everything is written but `fsync` fails.
    Fsync,
}

fn io<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> Error + 'a {
    move |source| Error::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

fn lock(file: &File, path: &Path) -> Result<(), Error> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(Error::Locked {
            path: path.to_owned(),
        }),
        Err(TryLockError::Error(source)) => Err(Error::Io {
            action: "locking session file",
            path: path.to_owned(),
            source,
        }),
    }
}

/// Milliseconds since the Unix epoch, UTC (0 if the clock is before 1970).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl SessionWriter {
    /// Create a new session file `<dir>/<id>.smith` holding only the file header, lock it, and
    /// make its creation durable (file and directory fsync). Fails if the file exists.
    ///
    /// # Errors
    /// [`Error::Io`] when the directory is missing or not writable, or the file exists.
    pub fn create(dir: &Path, id: SessionId) -> Result<Self, Error> {
        let path = dir.join(crate::file_name(&id));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(io("creating session file", &path))?;
        lock(&file, &path)?;
        file.write_all(&format::header_bytes())
            .map_err(io("writing session file", &path))?;
        file.sync_all().map_err(io("syncing session file", &path))?;
        sync_dir(dir)?;
        Ok(Self {
            file,
            path,
            id,
            next_id: 1,
            leaf: None,
            end: format::HEADER_LEN as u64,
            sequence: 0,
            uncertain: None,
            #[cfg(test)]
            fault: None,
        })
    }

    /// Open an existing session file for writing: take the lock, read every complete committed
    /// change, and cut off a torn tail (bytes that were never acknowledged).
    ///
    /// # Errors
    /// [`Error::Locked`] when another process writes the session; the read errors of
    /// [`crate::read_session`] (a damaged file is refused, never truncated).
    pub fn open(path: &Path, id: SessionId) -> Result<(Self, Recovery), Error> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io("opening session file", path))?;
        lock(&file, path)?;
        let reader = file.try_clone().map_err(io("opening session file", path))?;
        let ReadOutcome {
            entries,
            torn_tail,
            committed_end,
            last_sequence,
        } = read_from(path, reader)?;
        if torn_tail.is_some() {
            file.set_len(committed_end)
                .map_err(io("truncating the torn tail of session file", path))?;
            file.sync_all().map_err(io("syncing session file", path))?;
        }
        let writer = Self {
            next_id: entries.last().map_or(1, |e| e.id.0 + 1),
            leaf: entries.last().map(|e| e.id),
            file,
            path: path.to_owned(),
            id,
            end: committed_end,
            sequence: last_sequence,
            uncertain: None,
            #[cfg(test)]
            fault: None,
        };
        Ok((
            writer,
            Recovery {
                entries,
                truncated: torn_tail,
            },
        ))
    }

    /// The session id.
    pub fn id(&self) -> SessionId {
        self.id
    }

    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The selected leaf: the last committed entry, `None` in an empty session.
    pub fn leaf(&self) -> Option<EntryId> {
        self.leaf
    }

    /// The id the next appended entry will get.
    pub fn next_entry_id(&self) -> EntryId {
        EntryId(self.next_id)
    }

    /// Append `records` as one committed change, each parented to the one before it (the
    /// first to the current leaf), and return their ids once `fsync` returned.
    ///
    /// # Errors
    /// [`Error::Encode`] before anything is written when a record is out of bounds;
    /// [`Error::Io`] when the write or fsync fails (the writer then becomes uncertain);
    /// [`Error::Uncertain`] after an earlier failure.
    pub fn append(&mut self, records: &[Record]) -> Result<Vec<EntryId>, Error> {
        if let Some(reason) = &self.uncertain {
            return Err(Error::Uncertain {
                path: self.path.clone(),
                reason: reason.clone(),
            });
        }
        if records.is_empty() {
            return Ok(Vec::new());
        }
        let count = u32::try_from(records.len())
            .ok()
            .filter(|&n| n <= format::MAX_ENTRIES_PER_COMMIT)
            .ok_or_else(|| Error::Encode {
                reason: format!(
                    "{} entries in one change exceed the bound of {}",
                    records.len(),
                    format::MAX_ENTRIES_PER_COMMIT
                ),
            })?;
        let timestamp_ms = now_ms();
        let mut buf = Vec::new();
        let mut ids = Vec::with_capacity(records.len());
        let mut parent = self.leaf.map_or(0, |e| e.0);
        for (offset, record) in records.iter().enumerate() {
            let id = self.next_id + offset as u64;
            let body = record.encode_body()?;
            let payload = EntryMeta {
                id,
                parent,
                timestamp_ms,
                record_kind: record.kind(),
            }
            .encode(&body);
            if payload.len() > format::MAX_PAYLOAD as usize {
                return Err(Error::Encode {
                    reason: format!(
                        "a {} entry of {} bytes exceeds the frame bound of {} bytes",
                        record.kind_name(),
                        payload.len(),
                        format::MAX_PAYLOAD
                    ),
                });
            }
            format::push_frame(&mut buf, format::KIND_ENTRY, &payload);
            ids.push(EntryId(id));
            parent = id;
        }
        let sequence = self.sequence + 1;
        format::push_frame(
            &mut buf,
            format::KIND_COMMIT,
            &format::commit_payload(sequence, count),
        );
        if let Err(e) = self.write_at_end(&buf) {
            self.uncertain = Some(e.to_string());
            return Err(e);
        }
        self.end += buf.len() as u64;
        self.sequence = sequence;
        self.next_id += u64::from(count);
        self.leaf = ids.last().copied();
        Ok(ids)
    }

    fn write_at_end(&mut self, buf: &[u8]) -> Result<(), Error> {
        self.file
            .seek(SeekFrom::Start(self.end))
            .map_err(io("seeking in session file", &self.path))?;
        #[cfg(test)]
        if let Some(fault) = self.fault.take() {
            let (n, error) = match fault {
                Fault::ShortWrite(n) => (n, std::io::Error::from(std::io::ErrorKind::WriteZero)),
                Fault::NoSpace(n) => (n, std::io::Error::from(std::io::ErrorKind::StorageFull)),
                Fault::Fsync => (buf.len(), std::io::Error::other("injected fsync failure")),
            };
            let n = n.min(buf.len());
            self.file
                .write_all(&buf[..n])
                .map_err(io("writing session file", &self.path))?;
            let action = if matches!(fault, Fault::Fsync) {
                "syncing session file"
            } else {
                "writing session file"
            };
            return Err(io(action, &self.path)(error));
        }
        self.file
            .write_all(buf)
            .map_err(io("writing session file", &self.path))?;
        self.file
            .sync_data()
            .map_err(io("syncing session file", &self.path))
    }
}

fn sync_dir(dir: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io("syncing session directory", dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ModelChange, SessionStart, read_session};

    fn start() -> Record {
        Record::SessionStart(SessionStart {
            smith_version: "0.1.0".into(),
            cwd: Some("/tmp".into()),
        })
    }

    fn model() -> Record {
        Record::ModelChange(ModelChange {
            model: "scripted/demo".parse().unwrap(),
        })
    }

    #[test]
    fn storage_faults_never_publish_a_partial_change_nor_acknowledge_an_unsynced_one() {
        for fault in [
            Fault::ShortWrite(0),
            Fault::ShortWrite(5),
            Fault::ShortWrite(40),
            Fault::NoSpace(13),
            Fault::NoSpace(60),
            Fault::Fsync,
        ] {
            let dir = tempfile::tempdir().unwrap();
            let id = SessionId::new_now();
            let mut w = SessionWriter::create(dir.path(), id).unwrap();
            let acknowledged = w.append(&[start(), model()]).unwrap();
            w.fault = Some(fault);
            let err = w.append(&[model(), model()]).unwrap_err();
            assert!(matches!(err, Error::Io { .. }), "{fault:?}: {err}");
            // Uncertain: the writer refuses to go on until the file is reopened.
            let again = w.append(&[model()]).unwrap_err();
            assert!(
                matches!(again, Error::Uncertain { .. }),
                "{fault:?}: {again}"
            );
            let path = w.path().to_owned();
            drop(w);
            let seen = read_session(&path).unwrap();
            let ids: Vec<_> = seen.entries.iter().map(|e| e.id).collect();
            match fault {
                // All bytes reached the file; only the acknowledgement is missing. A reader
                // may publish the complete change, but it was never acknowledged.
                Fault::Fsync => assert!(ids.len() == 2 || ids.len() == 4, "{fault:?}"),
                _ => assert_eq!(
                    ids, acknowledged,
                    "{fault:?}: no partial change is published"
                ),
            }
            // Reopening recovers a usable boundary and appends continue after it.
            let (mut w, rec) = SessionWriter::open(&path, id).unwrap();
            let next = w.append(&[model()]).unwrap();
            assert_eq!(next[0].0, rec.entries.len() as u64 + 1, "{fault:?}");
            for ack in &acknowledged {
                assert!(
                    read_session(&path)
                        .unwrap()
                        .entries
                        .iter()
                        .any(|e| e.id == *ack)
                );
            }
        }
    }

    #[test]
    fn appended_changes_read_back_in_order_with_parents() {
        let dir = tempfile::tempdir().unwrap();
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id).unwrap();
        assert_eq!(w.append(&[start()]).unwrap(), vec![EntryId(1)]);
        assert_eq!(
            w.append(&[model(), model()]).unwrap(),
            vec![EntryId(2), EntryId(3)]
        );
        let out = read_session(w.path()).unwrap();
        assert!(out.torn_tail.is_none());
        let ids: Vec<_> = out
            .entries
            .iter()
            .map(|e| (e.id.0, e.parent.map(|p| p.0)))
            .collect();
        assert_eq!(ids, vec![(1, None), (2, Some(1)), (3, Some(2))]);
        assert_eq!(out.entries[0].record, start());
        assert_eq!(out.last_sequence, 2);
    }

    #[test]
    fn second_writer_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let id = SessionId::new_now();
        let w = SessionWriter::create(dir.path(), id).unwrap();
        let err = SessionWriter::open(w.path(), id).unwrap_err();
        assert!(matches!(err, Error::Locked { .. }), "{err}");
        let path = w.path().to_owned();
        drop(w);
        SessionWriter::open(&path, id).unwrap();
    }

    #[test]
    fn every_truncation_publishes_only_complete_changes_and_appends_continue() {
        let dir = tempfile::tempdir().unwrap();
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id).unwrap();
        let mut ends = vec![w.end];
        w.append(&[start()]).unwrap();
        ends.push(w.end);
        w.append(&[model(), model()]).unwrap();
        ends.push(w.end);
        w.append(&[model()]).unwrap();
        ends.push(w.end);
        let path = w.path().to_owned();
        drop(w);
        let full = std::fs::read(&path).unwrap();
        let counts = [0usize, 1, 3, 4];
        for cut in format::HEADER_LEN..=full.len() {
            std::fs::write(&path, &full[..cut]).unwrap();
            let complete = ends.iter().rposition(|&e| e as usize <= cut).unwrap();
            let out = read_session(&path).unwrap();
            assert_eq!(out.entries.len(), counts[complete], "cut at {cut}");
            assert_eq!(
                out.torn_tail.is_some(),
                cut != ends[complete] as usize,
                "cut at {cut}"
            );
            let (mut w, rec) = SessionWriter::open(&path, id).unwrap();
            assert_eq!(rec.entries.len(), counts[complete]);
            let new = w.append(&[model()]).unwrap();
            assert_eq!(new, vec![EntryId(counts[complete] as u64 + 1)]);
            drop(w);
            let again = read_session(&path).unwrap();
            assert_eq!(again.entries.len(), counts[complete] + 1);
            assert!(again.torn_tail.is_none());
        }
    }

    #[test]
    fn unknown_version_and_foreign_files_are_refused_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id).unwrap();
        w.append(&[start()]).unwrap();
        let path = w.path().to_owned();
        drop(w);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8] = 9;
        let crc = crc32c::crc32c(&bytes[..12]);
        bytes[12..16].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let err = read_session(&path).unwrap_err();
        assert!(
            matches!(err, Error::UnsupportedVersion { found: 9, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("version 9"));
        assert!(SessionWriter::open(&path, id).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "file unchanged");

        let other = dir.path().join("x.smith");
        std::fs::write(&other, b"not a session at all").unwrap();
        assert!(matches!(
            read_session(&other),
            Err(Error::NotASession { .. })
        ));
    }

    #[test]
    fn a_flipped_bit_is_reported_and_the_file_never_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id).unwrap();
        w.append(&[start()]).unwrap();
        w.append(&[model()]).unwrap();
        let path = w.path().to_owned();
        drop(w);
        let clean = std::fs::read(&path).unwrap();
        for at in format::HEADER_LEN..clean.len() {
            let mut bytes = clean.clone();
            bytes[at] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            // A report or an error, never a panic; and a writer never cuts damaged history.
            match read_session(&path) {
                Ok(out) => assert!(out.entries.len() <= 2),
                Err(e) => assert!(matches!(e, Error::Corrupt { .. }), "{e}"),
            }
            // Version 0 cannot tell a flipped length bit in the last frame from a torn tail
            // (documented in the format); opening must still never panic.
            let _ = SessionWriter::open(&path, id);
        }
    }
}
