//! The stat cache: what each file looked like when it was last read, so that a snapshot reads
//! only the files whose metadata changed (git's index does the same).
//!
//! File `smith-stat` in the repository: `SMSTAT01`, a little-endian u32 count, the entries, and
//! a CRC-32C of everything before it. A file that fails to parse is ignored (every file is read
//! again), never trusted in part.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use gix::ObjectId;

const MAGIC: &[u8; 8] = b"SMSTAT01";
const FILE: &str = "smith-stat";

/// What identifies an unchanged file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) mtime_ns: i128,
    pub(crate) ctime_ns: i128,
    pub(crate) size: u64,
    pub(crate) ino: u64,
    pub(crate) mode: u32,
}

impl Stamp {
    pub(crate) fn of(meta: &fs::Metadata) -> Self {
        Self {
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            size: meta.size(),
            ino: meta.ino(),
            mode: meta.mode(),
        }
    }
}

/// The cache as loaded: entries and the cache file's own mtime.
#[derive(Default)]
pub(crate) struct StatCache {
    entries: HashMap<Vec<u8>, (Stamp, ObjectId)>,
    written_ns: i128,
}

impl StatCache {
    fn path(dir: &Path) -> PathBuf {
        dir.join(FILE)
    }

    /// The cache of repository `dir`; empty when missing or damaged.
    pub(crate) fn load(dir: &Path) -> Self {
        let path = Self::path(dir);
        let (Ok(bytes), Ok(meta)) = (fs::read(&path), fs::metadata(&path)) else {
            return Self::default();
        };
        parse(&bytes).map_or_else(Self::default, |entries| Self {
            entries,
            written_ns: Stamp::of(&meta).mtime_ns,
        })
    }

    /// Every blob id the cache names (a snapshot may reuse each without writing it again).
    pub(crate) fn blob_ids(&self) -> impl Iterator<Item = ObjectId> + '_ {
        self.entries.values().map(|(_, id)| *id)
    }

    /// The blob id of `path` when its metadata equals what was cached and the file is older than
    /// the cache (a file changed in the same clock tick as the cache was written is read again).
    pub(crate) fn lookup(&self, path: &[u8], stamp: &Stamp) -> Option<ObjectId> {
        let (cached, id) = self.entries.get(path)?;
        (cached == stamp && stamp.mtime_ns < self.written_ns).then_some(*id)
    }

    /// Replace the cache of repository `dir` with `entries`, atomically (a temporary file renamed
    /// over the old one). A failure leaves the old cache, which is only ever a hint.
    pub(crate) fn save(dir: &Path, entries: &[(Vec<u8>, Stamp, ObjectId)]) -> std::io::Result<()> {
        let mut out = Vec::with_capacity(16 + entries.len() * 96);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(
            &u32::try_from(entries.len())
                .unwrap_or(u32::MAX)
                .to_le_bytes(),
        );
        for (path, s, id) in entries.iter().take(u32::MAX as usize) {
            out.extend_from_slice(&u32::try_from(path.len()).unwrap_or(0).to_le_bytes());
            out.extend_from_slice(path);
            out.extend_from_slice(&s.mtime_ns.to_le_bytes());
            out.extend_from_slice(&s.ctime_ns.to_le_bytes());
            out.extend_from_slice(&s.size.to_le_bytes());
            out.extend_from_slice(&s.ino.to_le_bytes());
            out.extend_from_slice(&s.mode.to_le_bytes());
            out.extend_from_slice(id.as_bytes());
        }
        let crc = crc32c::crc32c(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!("{FILE}.{}.{nanos}.tmp", std::process::id()));
        fs::write(&tmp, &out)?;
        fs::rename(&tmp, Self::path(dir)).inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })
    }
}

fn parse(bytes: &[u8]) -> Option<HashMap<Vec<u8>, (Stamp, ObjectId)>> {
    let (body, crc) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
    if crc32c::crc32c(body).to_le_bytes() != crc || !body.starts_with(MAGIC) {
        return None;
    }
    let mut r = Reader(&body[MAGIC.len()..]);
    let count = r.u32()?;
    let mut entries = HashMap::with_capacity(count.min(1 << 20) as usize);
    for _ in 0..count {
        let len = r.u32()? as usize;
        let path = r.take(len)?.to_vec();
        let stamp = Stamp {
            mtime_ns: i128::from_le_bytes(r.take(16)?.try_into().ok()?),
            ctime_ns: i128::from_le_bytes(r.take(16)?.try_into().ok()?),
            size: r.u64()?,
            ino: r.u64()?,
            mode: r.u32()?,
        };
        let id = ObjectId::try_from(r.take(20)?).ok()?;
        entries.insert(path, (stamp, id));
    }
    r.0.is_empty().then_some(entries)
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, tail) = self.0.split_at_checked(n)?;
        self.0 = tail;
        Some(head)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}
