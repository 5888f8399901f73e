//! Shared helpers: real directories, the git CLI, and a fingerprint of a tree on disk.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use smith_vcs::{Limits, Vcs};

/// A project root and a snapshot store, both fresh.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub store: PathBuf,
}

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("project");
        let store = dir.path().join("data/vcs");
        fs::create_dir_all(&root).unwrap();
        Self { dir, root, store }
    }

    pub fn vcs(&self) -> Vcs {
        Vcs::open(&self.store, &self.root, Limits::default()).unwrap()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    pub fn chmod(&self, rel: &str, mode: u32) {
        fs::set_permissions(self.root.join(rel), fs::Permissions::from_mode(mode)).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    pub fn tree(&self) -> Tree {
        fingerprint(&self.root)
    }
}

/// Each file and link under a directory (`.git` aside): its kind, permission bits and content.
pub type Tree = BTreeMap<String, (char, u32, Vec<u8>)>;

pub fn fingerprint(root: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == ".git" {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            let mode = meta.permissions().mode() & 0o7777;
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(rel, ('l', 0, target.to_string_lossy().as_bytes().to_vec()));
            } else if meta.is_dir() {
                // Directories are implied by what they hold (git tracks no empty ones).
                stack.push(path);
            } else {
                out.insert(rel, ('f', mode, fs::read(&path).unwrap()));
            }
        }
    }
    out
}

/// Run git with `args` in `dir`, isolated from the user's configuration; its stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = git_output(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn git_output(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap()
}
