//! The bundled plugins' parsed manifests, kept between the processes of one `smith` binary.
//!
//! Parsing the bundled manifests (about 10 KB of KDL) cost every start about 3 ms of CPU —
//! some 15% of a warm turn — for a result that only changes with the binary. The first
//! process of a binary parses them and writes `<compile cache>/manifests-<key>.json`; the
//! next ones read it. The key is the SHA-256 of this format's name, the running executable's
//! identity (size, modification time and inode: a rebuilt or replaced binary has another) and
//! every bundled manifest's origin and text. The file holds the SHA-256 of its JSON, then the
//! JSON; a file that fails the digest or does not decode is ignored and written again. Only a
//! complete, successful parse is kept: a bundled manifest that does not parse is reported by
//! every process, as before. Nothing here is an error: without a cache directory, or with one
//! that cannot be read or written, the manifests are parsed as they always were.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use smith_host::Manifest;

/// The name of this file format, part of the key: a change to the serde form of [`Manifest`]
/// comes with a rebuilt binary, whose identity is part of the key too.
const FORMAT: &[u8] = b"smith-bundled-manifests-v1";

/// The largest file read: the bundled manifests' JSON is some tens of KiB.
const MAX_BYTES: u64 = 4 << 20;

/// The parsed manifests of `bundled`, in its order: from the file kept in `dir` for this binary
/// when there is a verified one, else parsed with `parse` (and kept, when every one parsed).
pub(crate) fn bundled(
    dir: Option<&Path>,
    bundled: &[smith_plugins::BundledPlugin],
    parse: impl FnOnce() -> Vec<Result<Manifest, smith_host::Error>>,
) -> Vec<Result<Manifest, smith_host::Error>> {
    let path = dir.and_then(|dir| Some(dir.join(format!("manifests-{}.json", key(bundled)?))));
    if let Some(kept) = path.as_deref().and_then(|p| read(p, bundled.len())) {
        return kept.into_iter().map(Ok).collect();
    }
    let parsed = parse();
    if let Some(path) = &path {
        let all: Option<Vec<&Manifest>> = parsed.iter().map(|m| m.as_ref().ok()).collect();
        if let Some(all) = all {
            write(path, &all);
        }
    }
    parsed
}

/// The key of this binary's bundled manifests; `None` when the executable cannot be found.
fn key(bundled: &[smith_plugins::BundledPlugin]) -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(exe).ok()?;
    let mut h = Sha256::new();
    h.update(FORMAT);
    h.update(meta.len().to_le_bytes());
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    h.update(modified.as_nanos().to_le_bytes());
    #[cfg(unix)]
    h.update(std::os::unix::fs::MetadataExt::ino(&meta).to_le_bytes());
    for plugin in bundled {
        for part in [plugin.origin, plugin.manifest] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
    }
    Some(smith_host::fsops::sha256_hex(&h.finalize()))
}

/// The manifests kept at `path`, when it is a regular file of a plausible size whose JSON
/// matches its digest and holds `count` manifests.
fn read(path: &Path, count: usize) -> Option<Vec<Manifest>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let (digest, json) = bytes.split_at_checked(32)?;
    if Sha256::digest(json).as_slice() != digest {
        return None;
    }
    let manifests: Vec<Manifest> = serde_json::from_slice(json).ok()?;
    (manifests.len() == count).then_some(manifests)
}

/// Keep `manifests` at `path` (digest, then JSON) through a temporary file renamed into
/// place; best effort, like the compile cache beside it (the next process parses again).
fn write(path: &Path, manifests: &[&Manifest]) {
    let Ok(json) = serde_json::to_vec(manifests) else {
        return;
    };
    let Some(dir) = path.parent() else {
        return;
    };
    let temp: PathBuf = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut bytes = Sha256::digest(&json).to_vec();
    bytes.extend_from_slice(&json);
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&temp, &bytes))
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
        return;
    }
    remove_stale(dir, path);
}

/// How long another binary's file is kept unused: binaries used side by side (two installed
/// versions, a checkout's builds) keep theirs; those of binaries long gone are removed.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// Remove the `manifests-*.json` files in `dir` other than `keep` not written for
/// [`STALE_AFTER`].
fn remove_stale(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with("manifests-") && n.ends_with(".json"));
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE_AFTER));
        if ours && stale && path != keep {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all() -> Vec<Result<Manifest, smith_host::Error>> {
        smith_plugins::BUNDLED
            .iter()
            .map(|b| Manifest::parse(b.manifest, b.origin))
            .collect()
    }

    fn kept(dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect()
    }

    #[test]
    fn the_second_process_reads_what_the_first_parsed_and_damage_is_parsed_again() {
        let dir = tempfile::tempdir().unwrap();
        let list = smith_plugins::BUNDLED;
        let first = bundled(Some(dir.path()), list, parse_all);
        let files = kept(dir.path());
        assert_eq!(files.len(), 1, "one file kept");
        // The next start does not parse: what it reads equals what was parsed.
        let second = super::bundled(Some(dir.path()), list, || {
            panic!("parsed although the manifests were kept")
        });
        let unwrap = |v: Vec<Result<Manifest, smith_host::Error>>| -> Vec<Manifest> {
            v.into_iter().map(Result::unwrap).collect()
        };
        let first = unwrap(first);
        assert_eq!(unwrap(second), first);
        // A flipped byte, a file cut short, or one that is not a regular file: parsed again
        // (and the file written again where it can be).
        let mut bytes = std::fs::read(&files[0]).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x20;
        std::fs::write(&files[0], &bytes).unwrap();
        let mut parsed = false;
        let third = super::bundled(Some(dir.path()), list, || {
            parsed = true;
            parse_all()
        });
        assert!(parsed, "a damaged file is not read");
        assert_eq!(unwrap(third), first);
        std::fs::write(&files[0], &bytes[..10]).unwrap();
        let mut parsed = false;
        let _ = super::bundled(Some(dir.path()), list, || {
            parsed = true;
            parse_all()
        });
        assert!(parsed, "a file cut short is not read");
        std::fs::remove_file(&files[0]).unwrap();
        std::fs::create_dir(&files[0]).unwrap();
        let mut parsed = false;
        let fourth = super::bundled(Some(dir.path()), list, || {
            parsed = true;
            parse_all()
        });
        assert!(parsed, "a directory in the file's place is passed over");
        assert_eq!(unwrap(fourth), first);
    }

    #[test]
    fn a_failed_parse_is_never_kept_and_other_plugins_have_another_key() {
        let dir = tempfile::tempdir().unwrap();
        let failing = || {
            let mut all = parse_all();
            all[0] = Manifest::parse("not a manifest", "bundled:broken");
            all
        };
        let out = bundled(Some(dir.path()), smith_plugins::BUNDLED, failing);
        assert!(out[0].is_err());
        assert!(kept(dir.path()).is_empty(), "a failed parse is not kept");
        // Another list of bundled plugins (a rebuilt binary's) does not read this one's file.
        let _ = bundled(Some(dir.path()), smith_plugins::BUNDLED, parse_all);
        let fewer = &smith_plugins::BUNDLED[1..];
        let mut parsed = false;
        let _ = bundled(Some(dir.path()), fewer, || {
            parsed = true;
            fewer
                .iter()
                .map(|b| Manifest::parse(b.manifest, b.origin))
                .collect()
        });
        assert!(parsed);
        assert_eq!(kept(dir.path()).len(), 2);
    }
}
