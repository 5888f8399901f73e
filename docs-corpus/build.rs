//! Bundles every document under `docs/` into one zstd-compressed blob embedded in the binary.
//!
//! Bundle layout (before compression), repeated per document in path order:
//! `path_len u16 LE | path (UTF-8, relative to docs/, `/`-separated) | text_len u32 LE | text`.
//! Every document's front matter is validated here, so a bad document fails the build with
//! its path and line.

use std::path::{Path, PathBuf};

#[path = "src/frontmatter.rs"]
#[allow(dead_code, unreachable_pub)]
mod frontmatter;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|x| x == "md") {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let docs = root.join("docs");
    println!("cargo::rerun-if-changed={}", docs.display());
    let mut paths = Vec::new();
    collect(&docs, &mut paths);
    paths.sort();
    let mut bundle = Vec::new();
    let mut ids = std::collections::BTreeMap::new();
    for path in &paths {
        println!("cargo::rerun-if-changed={}", path.display());
        let rel = path
            .strip_prefix(&docs)
            .expect("collected under docs/")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("docs/{rel}: cannot read: {e}"));
        let (front, _) = frontmatter::parse(&text)
            .unwrap_or_else(|e| panic!("docs/{rel}: invalid front matter: {e}"));
        if let Some(other) = ids.insert(front.id.clone(), rel.clone()) {
            panic!("docs/{rel}: id `{}` is already used by docs/{other}", front.id);
        }
        let path_len = u16::try_from(rel.len()).expect("document path under 64 KiB");
        let text_len = u32::try_from(text.len()).expect("document under 4 GiB");
        bundle.extend_from_slice(&path_len.to_le_bytes());
        bundle.extend_from_slice(rel.as_bytes());
        bundle.extend_from_slice(&text_len.to_le_bytes());
        bundle.extend_from_slice(text.as_bytes());
    }
    let compressed = zstd::bulk::compress(&bundle, 19).expect("zstd compresses in memory");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("corpus.zst"), compressed).expect("OUT_DIR is writable");
    std::fs::write(out.join("corpus.len"), bundle.len().to_string()).expect("OUT_DIR is writable");
}
