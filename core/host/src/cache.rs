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
        Self { dir }
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
            // Best effort: a cache that cannot be written only costs time.
            let _ = write_entry(dir, &path, &artifact);
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
