//! Bundles every document under `docs/` into one zstd-compressed blob embedded in the binary,
//! and builds the tantivy search index of those documents ahead of time (embedding it makes
//! opening the index at run time take tens of microseconds instead of milliseconds; measured
//! by `cargo xtask bench`).
//!
//! Bundle layout (before compression), repeated per entry in order:
//! `name_len u16 LE | name (UTF-8, `/`-separated) | data_len u32 LE | data`.
//! The corpus bundle's entries are documents (name: path relative to docs/); the index
//! bundle's are the index directory's files; the man bundle's are the manual pages of `man/`
//! (name: `smith-eval.1`). Every document's front matter is validated here,
//! so a bad document fails the build with its path and line.

use std::path::{Path, PathBuf};

#[path = "src/frontmatter.rs"]
#[allow(dead_code, unreachable_pub)]
mod frontmatter;

#[path = "src/schema.rs"]
#[allow(dead_code, unreachable_pub)]
mod schema;

#[path = "src/sections.rs"]
#[allow(dead_code, unreachable_pub)]
mod sections;

use tantivy::directory::Directory;

fn push_entry(bundle: &mut Vec<u8>, name: &str, data: &[u8]) {
    let name_len = u16::try_from(name.len()).expect("entry name under 64 KiB");
    let data_len = u32::try_from(data.len()).expect("entry under 4 GiB");
    bundle.extend_from_slice(&name_len.to_le_bytes());
    bundle.extend_from_slice(name.as_bytes());
    bundle.extend_from_slice(&data_len.to_le_bytes());
    bundle.extend_from_slice(data);
}

fn write_bundle(out: &std::path::Path, name: &str, bundle: &[u8]) {
    let compressed = zstd::bulk::compress(bundle, 19).expect("zstd compresses in memory");
    std::fs::write(out.join(format!("{name}.zst")), compressed).expect("OUT_DIR is writable");
    std::fs::write(out.join(format!("{name}.len")), bundle.len().to_string())
        .expect("OUT_DIR is writable");
}

/// Build the search index of `docs` in RAM and bundle its files.
fn index_bundle(docs: &[(frontmatter::FrontMatter, String)]) -> Vec<u8> {
    let (schema, fields) = schema::schema();
    let index = tantivy::Index::create_in_ram(schema);
    schema::register_tokenizer(&index);
    let mut writer = index
        .writer_with_num_threads(1, schema::WRITER_BUDGET)
        .expect("an in-RAM index writer");
    let rows = docs.iter().map(|(f, body)| {
        (
            f.id.as_str(),
            f.title.as_str(),
            f.kind.as_str(),
            f.tags.as_slice(),
            body.as_str(),
        )
    });
    schema::index_rows(&mut writer, fields, rows).expect("indexing in RAM succeeds");
    drop(writer);
    let dir = index.directory();
    let mut names: Vec<std::path::PathBuf> = dir.list_managed_files().into_iter().collect();
    names.push(".managed.json".into());
    names.sort();
    let mut bundle = Vec::new();
    for name in names {
        if let Ok(data) = dir.atomic_read(&name) {
            push_entry(&mut bundle, &name.to_string_lossy(), &data);
        }
    }
    bundle
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
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
    let root = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let docs = root.join("docs");
    println!("cargo::rerun-if-changed={}", docs.display());
    let mut paths = Vec::new();
    collect(&docs, &mut paths);
    paths.sort();
    let mut bundle = Vec::new();
    let mut parsed = Vec::new();
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
        let (front, body) = frontmatter::parse(&text)
            .unwrap_or_else(|e| panic!("docs/{rel}: invalid front matter: {e}"));
        // The body as the corpus holds it: line 1 is its first non-blank line.
        parsed.push((front.clone(), body.trim_start_matches('\n').to_owned()));
        if let Some(other) = ids.insert(front.id.clone(), rel.clone()) {
            panic!(
                "docs/{rel}: id `{}` is already used by docs/{other}",
                front.id
            );
        }
        push_entry(&mut bundle, &rel, text.as_bytes());
    }
    // The manual pages (generated from the command declarations by `cargo xtask man`).
    let man = root.join("man");
    println!("cargo::rerun-if-changed={}", man.display());
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&man)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "1"))
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    let mut man_bundle = Vec::new();
    for path in &pages {
        println!("cargo::rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("man/{name}: cannot read: {e}"));
        push_entry(&mut man_bundle, &name, &data);
    }
    // The index lists documents in id order, as the corpus does.
    parsed.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_bundle(&out, "corpus", &bundle);
    write_bundle(&out, "index", &index_bundle(&parsed));
    write_bundle(&out, "man", &man_bundle);
}
