//! The compile cache: compiled components shared by every Smith process (tests included), so
//! start-up deserializes instead of compiling (compiling costs 100 ms–2 s, loading a compiled
//! artifact under a millisecond).
//!
//! An entry is `<dir>/<key>.cwasm`, where the key is the SHA-256 of the engine's
//! compatibility hash (wasmtime version and configuration) and the component's bytes. The
//! file holds the SHA-256 of the artifact followed by the artifact, written to a temporary
//! name and renamed into place; a file whose digest does not match is ignored and rewritten.

use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use crate::Error;

/// Where compiled components are kept; `None` compiles every time.
#[derive(Clone, Debug)]
pub struct CompileCache {
    dir: Option<PathBuf>,
    /// The first failure to write an entry (shared by clones): a cache that cannot be written
    /// costs every start a compile, which the user should hear about.
    write_failure: std::sync::Arc<std::sync::Mutex<Option<String>>>,
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
            write_failure: std::sync::Arc::default(),
        }
    }

    /// Why an entry could not be written, when one could not (the first such failure): the
    /// directory and the I/O error. Plugins still load, compiled on every start.
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

    fn key(engine: &Engine, wasm: &[u8]) -> String {
        let mut h = ShaHasher(Sha256::new());
        std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut h);
        h.0.update(b"smith-compile-cache-v1");
        h.0.update(wasm);
        crate::fsops::sha256_hex(&h.0.finalize())
    }

    /// The compiled form of component `wasm`: from the cache when a verified entry exists,
    /// else compiled now (and stored, best effort). `origin` names the plugin in errors.
    ///
    /// # Errors
    /// [`Error::Component`] when `wasm` is not a valid component for this engine.
    pub fn load(&self, engine: &Engine, wasm: &[u8], origin: &str) -> Result<Component, Error> {
        let Some(dir) = &self.dir else {
            return compile(engine, wasm, origin);
        };
        let path = dir.join(format!("{}.cwasm", Self::key(engine, wasm)));
        if let Some(component) = read_verified(engine, &path) {
            return Ok(component);
        }
        let component = compile(engine, wasm, origin)?;
        if let Ok(artifact) = component.serialize() {
            // A cache that cannot be written only costs time, but that is said.
            remove_abandoned_temporaries(dir);
            if let Err(e) = write_entry(dir, &path, &artifact) {
                let mut failure = self
                    .write_failure
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                failure.get_or_insert_with(|| format!("{}: {e}", dir.display()));
            }
        }
        Ok(component)
    }
}

fn compile(engine: &Engine, wasm: &[u8], origin: &str) -> Result<Component, Error> {
    Component::new(engine, wasm).map_err(|e| Error::Component {
        origin: origin.to_owned(),
        reason: format!("{e:#}"),
    })
}

fn read_verified(engine: &Engine, path: &Path) -> Option<Component> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() < 32 {
        return None;
    }
    let (digest, artifact) = bytes.split_at(32);
    if Sha256::digest(artifact).as_slice() != digest {
        return None;
    }
    // SAFETY: `Component::deserialize` requires bytes produced by `Component::serialize` of a
    // compatible engine. The entry's name is the SHA-256 of this engine's compatibility hash
    // and the component, and its content is verified against the digest written with it, so
    // these are exactly the bytes this Smith serialized (a truncated or corrupted file fails
    // the digest and is recompiled). The cache directory belongs to the user running Smith;
    // whoever can write there can also replace the smith binary itself. This is Smith's one
    // `unsafe` exception (the workspace forbids unsafe code everywhere else).
    #[allow(unsafe_code)]
    let component = unsafe { Component::deserialize(engine, artifact) };
    component.ok()
}

/// Remove the temporary entries (`.<key>.cwasm.<pid>.tmp`) in `dir` that a killed process or a
/// full disk left: only those whose process no longer exists and that are older than
/// [`ABANDONED_AFTER`], so a live writer's file is never touched.
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
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > ABANDONED_AFTER));
        if old && !process_exists(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// How old a temporary file of a process that no longer exists must be to be removed.
const ABANDONED_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

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

fn write_entry(dir: &Path, path: &Path, artifact: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut file = std::fs::File::create(&temp)?;
    file.write_all(&Sha256::digest(artifact))?;
    file.write_all(artifact)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
