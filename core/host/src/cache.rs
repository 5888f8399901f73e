//! The compile cache: compiled components shared by every Smith process (tests included), so
//! start-up deserializes instead of compiling (compiling costs 100 ms–2 s, loading a compiled
//! artifact under a millisecond).
//!
//! An entry is `<dir>/<key>.cwasm`, where the key is the SHA-256 of the engine's
//! compatibility hash (wasmtime version and configuration), the compiler tier and the
//! component's bytes. The `.cwasm` file holds the artifact alone, so that wasmtime maps it
//! (`Component::deserialize_file`) instead of copying it into memory: a start touches only the
//! code it runs, and the artifact's pages stay shared with the page cache. Its digest — the
//! SHA-256 of the entry's name and the artifact — is the 32 bytes of `<dir>/<key>.sum`,
//! written after it. Each file is written to a temporary name and renamed into place. An
//! entry whose artifact does not match its digest (damaged, cut short, another component's
//! filed under this key, or its digest missing because a process ended between the two
//! renames), that is not a regular file or that is implausibly large is ignored and rewritten.
//!
//! Two compilers serve it ([`Tier`]): Cranelift, whose code is optimized, and wasmtime's
//! baseline compiler Winch, about five times faster to compile (measured on the bundled
//! plugins, 2 cores: 2.4 s for all of them with Cranelift, 0.45 s with Winch) for slower code.
//! A cache made [`CompileCache::baseline_first`] compiles what it lacks with Winch, so a first
//! run does not wait for Cranelift, and compiles the optimized code later on a background
//! thread at the lowest priority; the next process that finds it uses it.

use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, mpsc};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use crate::Error;

/// Which compiler made a component's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Winch, wasmtime's baseline compiler: fast to compile, slower code.
    Baseline,
    /// Cranelift: optimized code.
    Optimized,
}

/// The two engines a host compiles with, one per [`Tier`]; configured alike but for the
/// compiler.
#[derive(Clone)]
pub(crate) struct Engines {
    pub(crate) optimized: Engine,
    pub(crate) baseline: Engine,
}

impl Engines {
    pub(crate) fn get(&self, tier: Tier) -> &Engine {
        match tier {
            Tier::Baseline => &self.baseline,
            Tier::Optimized => &self.optimized,
        }
    }
}

/// Where compiled components are kept; `None` compiles every time.
#[derive(Clone, Debug)]
pub struct CompileCache {
    dir: Option<PathBuf>,
    /// Compile what is missing with the baseline compiler first (see the module docs).
    baseline_first: bool,
    /// The first failure to write an entry (shared by clones): a cache that cannot be written
    /// costs every start a compile, which the user should hear about.
    write_failure: Arc<Mutex<Option<String>>>,
    /// The background compiler of optimized code, started by the first job (shared by clones).
    upgrades: Arc<OnceLock<Mutex<mpsc::Sender<Upgrade>>>>,
}

/// One component to compile with Cranelift in the background, and where its entry goes.
struct Upgrade {
    engine: Engine,
    wasm: Vec<u8>,
    path: PathBuf,
}

/// Feeds `Hash` output into SHA-256 (stable, unlike `DefaultHasher`).
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl CompileCache {
    /// A cache in `dir` (created when first written), or none.
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self {
            dir,
            baseline_first: false,
            write_failure: Arc::default(),
            upgrades: Arc::default(),
        }
    }

    /// The same cache, compiling what it lacks with the baseline compiler so that nothing
    /// waits for Cranelift, whose optimized code is then compiled in the background for the
    /// processes that come later (see the module docs).
    #[must_use]
    pub fn baseline_first(mut self) -> Self {
        self.baseline_first = true;
        self
    }

    /// Why an entry could not be written, when one could not (the first such failure): the
    /// entry's path and the I/O error. Plugins still load, those not kept compiled again on
    /// every start.
    pub fn write_failure(&self) -> Option<String> {
        self.write_failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The cache directory, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn key(engine: &Engine, tier: Tier, wasm: &[u8]) -> String {
        let mut h = ShaHasher(Sha256::new());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut h);
        h.0.update(match tier {
            Tier::Optimized => b"smith-compile-cache-v3".as_slice(),
            Tier::Baseline => b"smith-compile-cache-v3-baseline".as_slice(),
        });
        h.0.update(wasm);
        crate::fsops::sha256_hex(&h.0.finalize())
    }

    /// The compiled form of component `wasm` and its tier: the optimized code from the cache
    /// when a verified entry exists; else, for a [`CompileCache::baseline_first`] cache, the
    /// baseline code (cached, or compiled now) with the optimized code compiled in the
    /// background; else compiled now with Cranelift. What is compiled is stored, best effort.
    /// `origin` names the plugin in errors.
    ///
    /// # Errors
    /// [`Error::Component`] when `wasm` is not a valid component for this engine.
    pub(crate) fn load(
        &self,
        engines: &Engines,
        wasm: &[u8],
        origin: &str,
    ) -> Result<(Component, Tier), Error> {
        let first = if self.baseline_first {
            Tier::Baseline
        } else {
            Tier::Optimized
        };
        let Some(dir) = &self.dir else {
            return Ok((compile(engines.get(first), wasm, origin)?, first));
        };
        let optimized = dir.join(format!(
            "{}.cwasm",
            Self::key(&engines.optimized, Tier::Optimized, wasm)
        ));
        if let Some(component) = read_verified(&engines.optimized, &optimized) {
            return Ok((component, Tier::Optimized));
        }
        let path = match first {
            Tier::Optimized => optimized.clone(),
            Tier::Baseline => dir.join(format!(
                "{}.cwasm",
                Self::key(&engines.baseline, Tier::Baseline, wasm)
            )),
        };
        let component = match read_verified(engines.get(first), &path) {
            Some(component) => component,
            None => {
                let component = compile(engines.get(first), wasm, origin)?;
                self.store(dir, &path, &component);
                component
            }
        };
        if first == Tier::Baseline {
            self.upgrade(Upgrade {
                engine: engines.optimized.clone(),
                wasm: wasm.to_vec(),
                path: optimized,
            });
        }
        Ok((component, first))
    }

    /// Write `component`'s entry at `path`; a failure is kept for [`Self::write_failure`].
    fn store(&self, dir: &Path, path: &Path, component: &Component) {
        if let Ok(artifact) = component.serialize() {
            // A cache that cannot be written only costs time, but that is said.
            remove_abandoned_temporaries(dir);
            if let Err(e) = write_entry(dir, path, &artifact) {
                let mut failure = self
                    .write_failure
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                failure.get_or_insert_with(|| e.to_string());
            }
        }
    }

    /// Hand `job` to the background compiler, starting it on the first job. A process that
    /// ends first loses the job (its temporary file is swept later); the next one redoes it.
    fn upgrade(&self, job: Upgrade) {
        let sender = self.upgrades.get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Upgrade>();
            // Without a thread, jobs queue unanswered: only time is lost.
            let _ = std::thread::Builder::new()
                .name("smith-optimize".into())
                .spawn(move || optimize(&rx));
            Mutex::new(tx)
        });
        let _ = sender
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(job);
    }
}

/// How long a process lives before its background compiler starts: a short command (a
/// scripted turn, a listing) ends first and pays neither the CPU nor the memory of Cranelift;
/// a process that lives on (a turn waiting on a model, an interactive session, a server)
/// compiles the optimized code for the processes after it.
const OPTIMIZE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// The background compiler: lowest priority, so it takes only time nothing else wants.
/// It writes an entry only into a directory that still exists (a test's temporary home may
/// be gone), and each at most once per process (a job is sent only when no verified entry
/// was found, so a damaged one is replaced).
fn optimize(jobs: &mpsc::Receiver<Upgrade>) {
    // Linux gives each thread its own nice value; elsewhere this is best effort.
    #[cfg(target_os = "linux")]
    let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
    std::thread::sleep(OPTIMIZE_AFTER);
    let mut done = std::collections::HashSet::new();
    while let Ok(job) = jobs.recv() {
        let Some(dir) = job.path.parent() else {
            continue;
        };
        if !dir.is_dir() || !done.insert(job.path.clone()) {
            continue;
        }
        let Ok(component) = Component::new(&job.engine, &job.wasm) else {
            continue;
        };
        if let Ok(artifact) = component.serialize() {
            let _ = write_entry(dir, &job.path, &artifact);
        }
    }
}

fn compile(engine: &Engine, wasm: &[u8], origin: &str) -> Result<Component, Error> {
    Component::new(engine, wasm).map_err(|e| Error::Component {
        origin: origin.to_owned(),
        reason: format!("{e:#}"),
    })
}

/// The largest entry read: the bundled plugins' artifacts are at most about 1.1 MB; anything
/// far larger is not an entry this cache wrote.
const MAX_ENTRY_BYTES: u64 = 256 << 20;

/// The digest an entry holds: of its key (its file name) and its artifact, so an artifact
/// filed under another component's key fails it like a damaged one. `artifact` is read to
/// its end in pieces; an I/O error is `None`.
fn entry_digest(path: &Path, mut artifact: impl std::io::Read) -> Option<[u8; 32]> {
    let mut h = Sha256::new();
    h.update(
        path.file_name()
            .map(|n| n.as_encoded_bytes())
            .unwrap_or_default(),
    );
    // Hashed through a small buffer: the artifact is never whole in this process's memory.
    let mut buf = [0u8; 16 << 10];
    loop {
        match artifact.read(&mut buf) {
            Ok(0) => return Some(h.finalize().into()),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// Where the digest of the entry at `path` is kept: beside it, `<key>.sum`.
fn digest_path(path: &Path) -> PathBuf {
    path.with_extension("sum")
}

/// Whether `path` is a regular file of at most `max` bytes (a FIFO would block an open, a
/// device or a huge file would be read without end).
fn plausible(path: &Path, max: u64) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= max)
}

fn read_verified(engine: &Engine, path: &Path) -> Option<Component> {
    let sum = digest_path(path);
    if !plausible(path, MAX_ENTRY_BYTES) || !plausible(&sum, 32) {
        return None;
    }
    let digest = std::fs::read(&sum).ok()?;
    let file = std::fs::File::open(path).ok()?;
    if entry_digest(path, std::io::Read::take(&file, MAX_ENTRY_BYTES))?.as_slice() != digest {
        return None;
    }
    let mapped = same_file(&file, path);
    // SAFETY: `Component::deserialize_file` requires a file produced by
    // `Component::serialize` of a compatible engine, left unchanged while the component
    // lives. The entry's name is the SHA-256 of this engine's compatibility hash and the
    // component, and its content was just verified against the digest written after it, so
    // these are exactly the bytes this Smith serialized (a truncated or corrupted file fails
    // the digest and is recompiled). What is mapped is the file just checked — the same open
    // file, reached through its descriptor — so an entry renamed into place in between is not
    // what loads; entries are only ever replaced by renaming, never written in place. The
    // cache directory belongs to the user running Smith; whoever can write there can also
    // replace the smith binary itself. This is Smith's one `unsafe` exception (the workspace
    // forbids unsafe code everywhere else).
    #[allow(unsafe_code)]
    let component = unsafe { Component::deserialize_file(engine, &mapped) };
    drop(file);
    component.ok()
}

/// A path that opens the same file as the open `file` (found at `path`): on Linux its
/// descriptor's `/proc/self/fd/N`, which names the open file itself, not whatever `path`
/// names by then; elsewhere, or without `/proc`, `path`.
fn same_file(file: &std::fs::File, path: &Path) -> PathBuf {
    #[cfg(target_os = "linux")]
    {
        let fd = PathBuf::from(format!(
            "/proc/self/fd/{}",
            std::os::fd::AsRawFd::as_raw_fd(file)
        ));
        if fd.exists() {
            return fd;
        }
    }
    let _ = file;
    path.to_owned()
}

/// Remove the temporary files (`.<key>.cwasm.<pid>.tmp`, `.<key>.sum.<pid>.tmp`) in `dir` that a killed process or a
/// full disk left: those whose process no longer exists and that are older than
/// [`ABANDONED_AFTER`], and any older than [`FORGOTTEN_AFTER`], so a live writer's file is
/// never touched.
fn remove_abandoned_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.starts_with('.'))
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit_once('.'))
            .and_then(|(_, pid)| pid.parse::<i32>().ok())
        else {
            continue;
        };
        let age = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .unwrap_or_default();
        if age > FORGOTTEN_AFTER || (age > ABANDONED_AFTER && !process_exists(pid)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// How old a temporary file of a process that no longer exists must be to be removed.
const ABANDONED_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// How old a temporary file is removed whatever its process id names: a writer takes
/// seconds, and the id may have been reused (or belong to another machine or container
/// sharing the cache).
const FORGOTTEN_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// Whether process `pid` exists (a signal-0 probe; a process of another user exists too).
fn process_exists(pid: i32) -> bool {
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Write the entry at `path` — the artifact, then its digest beside it — each through a
/// temporary file renamed into place. A failed step removes its temporary at once (a full
/// disk leaves nothing behind); an artifact left without its digest is not loaded.
///
/// Nothing is synced: an entry is a copy of work that can be redone, and every read checks the
/// artifact against its digest, so what a power loss leaves half-written is compiled again.
/// Syncing the two files cost a first run one to three milliseconds a file, on its critical
/// path.
///
/// # Errors
/// The first I/O error, its message naming the directory or file it happened to.
fn write_entry(dir: &Path, path: &Path, artifact: &[u8]) -> std::io::Result<()> {
    let naming = |at: &Path| {
        let at = at.to_owned();
        move |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", at.display()))
    };
    std::fs::create_dir_all(dir).map_err(naming(dir))?;
    let digest = entry_digest(path, artifact).ok_or_else(|| std::io::Error::other("unreadable"))?;
    write_file(dir, path, artifact).map_err(naming(path))?;
    let sum = digest_path(path);
    write_file(dir, &sum, &digest).map_err(naming(&sum))
}

/// Write `bytes` at `path` through `.<name>.<pid>.tmp`, renamed into place.
fn write_file(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let file = std::fs::File::create(&temp)?;
    let written = (|| -> std::io::Result<()> {
        let mut file = file;
        file.write_all(bytes)?;
        drop(file);
        std::fs::rename(&temp, path)
    })();
    written.inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path a checked entry is mapped through opens the file that was checked, even when
    /// another has been renamed over its name since.
    #[test]
    fn the_file_mapped_is_the_file_checked_not_what_its_name_names_later() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("k.cwasm");
        std::fs::write(&entry, b"checked").unwrap();
        let file = std::fs::File::open(&entry).unwrap();
        let other = dir.path().join("other");
        std::fs::write(&other, b"renamed over it").unwrap();
        std::fs::rename(&other, &entry).unwrap();
        let mapped = same_file(&file, &entry);
        let expected: &[u8] = if cfg!(target_os = "linux") {
            b"checked"
        } else {
            b"renamed over it"
        };
        assert_eq!(std::fs::read(mapped).unwrap(), expected);
    }

    /// A write that fails names the file or directory it failed at, not only the entry.
    #[test]
    fn a_failed_write_names_where_it_failed() {
        let dir = tempfile::tempdir().unwrap();
        let entry = dir.path().join("k.cwasm");
        std::fs::create_dir(dir.path().join("k.sum")).unwrap();
        let err = write_entry(dir.path(), &entry, b"artifact").unwrap_err();
        assert!(err.to_string().contains("k.sum"), "{err}");
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"").unwrap();
        let err = write_entry(&file, &file.join("k.cwasm"), b"artifact").unwrap_err();
        assert!(err.to_string().contains("a-file:"), "{err}");
    }
}
