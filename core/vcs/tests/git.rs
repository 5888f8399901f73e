//! Snapshots as the git CLI sees them: objects it reads and checks, diffs it applies and counts
//! as Smith does, and the user's own repository left exactly as it was.

mod common;

use std::fs;

use common::{Fixture, fingerprint, git, git_output};
use smith_vcs::{FileChange, Restore};

fn sample(f: &Fixture) {
    f.write("README.md", "hello\nworld\n");
    f.write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n");
    f.write("bin/run.sh", "#!/bin/sh\necho run\n");
    f.chmod("bin/run.sh", 0o755);
    f.write(".hidden/config", "x = 1\n");
    f.write("with space/a b.txt", "spaced\n");
    std::os::unix::fs::symlink("README.md", f.root.join("link")).unwrap();
}

#[test]
fn git_reads_and_checks_the_snapshot_objects() {
    let f = Fixture::new();
    sample(&f);
    let vcs = f.vcs();
    let snap = vcs.snapshot("session test\nentry 1").unwrap();
    assert!(snap.created);
    assert_eq!(snap.files, 6);
    let repo = vcs.repository().to_path_buf();
    let gd = format!("--git-dir={}", repo.display());
    let fsck = git_output(&f.root, &[&gd, "fsck", "--strict", "--no-dangling"]);
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );
    assert!(fsck.stdout.is_empty() && fsck.stderr.is_empty(), "{fsck:?}");
    let listed = git(&f.root, &[&gd, "ls-tree", "-r", &snap.id.to_hex()]);
    let modes: Vec<(String, String)> = listed
        .lines()
        .map(|l| {
            let (meta, path) = l.split_once('\t').unwrap();
            (path.to_owned(), meta.split(' ').next().unwrap().to_owned())
        })
        .collect();
    let want = [
        (".hidden/config", "100644"),
        ("README.md", "100644"),
        ("bin/run.sh", "100755"),
        ("link", "120000"),
        ("src/main.rs", "100644"),
        ("with space/a b.txt", "100644"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(p, m)| ((*p).into(), (*m).into()))
        .collect();
    assert_eq!(modes, want);
    let main = git(
        &f.root,
        &[&gd, "cat-file", "-p", &format!("{}:src/main.rs", snap.id)],
    );
    assert_eq!(main, f.read("src/main.rs"));
    let link = git(
        &f.root,
        &[&gd, "cat-file", "-p", &format!("{}:link", snap.id)],
    );
    assert_eq!(link, "README.md");
    let log = git(&f.root, &[&gd, "log", "--format=%s%n%b", "main"]);
    assert!(
        log.starts_with("smith snapshot\nsession test\nentry 1"),
        "{log}"
    );
}

#[test]
fn an_unchanged_tree_is_the_latest_snapshot_and_unchanged_files_are_not_read() {
    let f = Fixture::new();
    for i in 0..50 {
        f.write(&format!("d{}/f{i}.txt", i % 5), &format!("file {i}\n"));
    }
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap();
    assert_eq!(first.read, 50);
    // The files must be older than the stat cache for it to vouch for them (git's racy rule):
    // wait until the clock has moved past their mtimes by rewriting the cache once more.
    let mut again = vcs.snapshot("").unwrap();
    while again.read > 0 {
        again = vcs.snapshot("").unwrap();
    }
    assert_eq!(again.id, first.id);
    assert!(!again.created);
    f.write("d1/f1.txt", "changed\n");
    let third = vcs.snapshot("").unwrap();
    assert!(third.created);
    assert_eq!(third.read, 1, "only the changed file is read");
    assert_ne!(third.id, first.id);
    // A damaged stat cache is ignored: every file is read, the snapshot is the same.
    fs::write(vcs.repository().join("smith-stat"), b"garbage").unwrap();
    let fourth = vcs.snapshot("").unwrap();
    assert_eq!(fourth.read, 50);
    assert_eq!(fourth.id, third.id);
}

#[test]
fn git_apply_of_the_diff_turns_from_into_to_and_counts_agree() {
    let f = Fixture::new();
    sample(&f);
    let vcs = f.vcs();
    let from = vcs.snapshot("").unwrap().id;
    let copy = f.dir.path().join("copy");
    copy_tree(&f.root, &copy);
    git(&copy, &["init", "-q"]);

    f.write("README.md", "hello\nthere\nworld\n");
    f.write("src/lib.rs", "pub fn f() {}\n");
    fs::remove_file(f.root.join("with space/a b.txt")).unwrap();
    f.chmod("bin/run.sh", 0o644);
    f.chmod("src/main.rs", 0o755);
    f.write("src/main.rs", "fn main() {}\n");
    f.write("empty", "");
    f.write("no-newline", "last line");
    fs::remove_file(f.root.join("link")).unwrap();
    f.write("link", "now a file\n");
    let to = vcs.snapshot("").unwrap().id;

    let diff = vcs.diff(from, to).unwrap();
    let changes: Vec<(&str, FileChange)> = diff
        .files
        .iter()
        .map(|d| (d.path.as_str(), d.change))
        .collect();
    assert_eq!(
        changes,
        [
            ("README.md", FileChange::Modified),
            ("bin/run.sh", FileChange::Mode),
            ("empty", FileChange::Added),
            ("link", FileChange::Deleted),
            ("link", FileChange::Added),
            ("no-newline", FileChange::Added),
            ("src/lib.rs", FileChange::Added),
            ("src/main.rs", FileChange::Modified),
            ("with space/a b.txt", FileChange::Deleted),
        ]
    );
    let patch = f.dir.path().join("change.patch");
    fs::write(&patch, diff.unified()).unwrap();
    let patch = patch.to_str().unwrap();
    git(&copy, &["apply", "--check", patch]);
    git(&copy, &["apply", patch]);
    assert_eq!(
        fingerprint(&copy)
            .into_iter()
            .filter(|(p, _)| p != ".git")
            .collect::<common::Tree>(),
        f.tree()
    );

    // git's own counts and modes for the same two trees.
    let gd = format!("--git-dir={}", vcs.repository().display());
    let numstat = git(
        &f.root,
        &[
            &gd,
            "diff",
            "--numstat",
            "--no-renames",
            &diff.from,
            &diff.to,
        ],
    );
    // Per path, lines added and removed as git counts them (a path that changed kind may be
    // one line of git's or two of ours: summed per path).
    let mut theirs = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for line in numstat.lines() {
        let mut cols = line.splitn(3, '\t');
        let (i, d, p) = (
            cols.next().unwrap(),
            cols.next().unwrap(),
            cols.next().unwrap(),
        );
        let e = theirs.entry(p.to_owned()).or_default();
        e.0 += i.parse::<u64>().unwrap();
        e.1 += d.parse::<u64>().unwrap();
    }
    let mut ours = std::collections::BTreeMap::<String, (u64, u64)>::new();
    for d in &diff.files {
        let e = ours.entry(d.path.clone()).or_default();
        e.0 += d.insertions;
        e.1 += d.deletions;
    }
    assert_eq!(ours, theirs);
    let stat = diff.stat();
    assert_eq!(
        (stat.insertions, stat.deletions),
        theirs.values().fold((0, 0), |a, v| (a.0 + v.0, a.1 + v.1))
    );
    let summary = git(
        &f.root,
        &[
            &gd,
            "diff",
            "--summary",
            "--no-renames",
            &diff.from,
            &diff.to,
        ],
    );
    assert!(
        summary.contains("mode change 100755 => 100644 bin/run.sh"),
        "{summary}"
    );
    assert!(
        summary.contains("mode change 100644 => 100755 src/main.rs"),
        "{summary}"
    );
    let run = diff.files.iter().find(|d| d.path == "bin/run.sh").unwrap();
    assert_eq!(
        (run.old_mode.as_deref(), run.new_mode.as_deref()),
        (Some("100755"), Some("100644"))
    );
}

#[test]
fn the_users_repository_is_identical_before_and_after() {
    let f = Fixture::new();
    git(&f.root, &["init", "-q", "-b", "trunk"]);
    sample(&f);
    f.write(".gitignore", "target/\n");
    f.write("target/out.o", "ignored build output\n");
    git(&f.root, &["add", "."]);
    git(&f.root, &["commit", "-q", "-m", "first"]);
    git(&f.root, &["branch", "feature"]);
    f.write("README.md", "stashed\n");
    git(&f.root, &["stash", "-q"]);
    f.write("staged.txt", "in the index\n");
    git(&f.root, &["add", "staged.txt"]);
    let before = fingerprint(&f.root.join(".git"));

    let vcs = f.vcs();
    let a = vcs.snapshot("").unwrap();
    assert!(a.skipped.is_empty());
    let listed = git(
        &f.root,
        &[
            &format!("--git-dir={}", vcs.repository().display()),
            "ls-tree",
            "-r",
            "--name-only",
            &a.id.to_hex(),
        ],
    );
    assert!(
        !listed.contains("target/"),
        "ignored files are not snapshotted: {listed}"
    );
    assert!(listed.contains(".gitignore"));
    f.write("src/main.rs", "changed\n");
    let b = vcs.snapshot("").unwrap();
    vcs.diff(a.id, b.id).unwrap();
    vcs.restore(
        a.id,
        &Restore {
            expect: Some(b.id),
            note: String::new(),
        },
    )
    .unwrap();
    assert_eq!(f.read("target/out.o"), "ignored build output\n");

    assert_eq!(
        fingerprint(&f.root.join(".git")),
        before,
        "nothing under .git changed"
    );
    assert_eq!(git(&f.root, &["stash", "list"]).lines().count(), 1);
    assert_eq!(git(&f.root, &["branch", "--show-current"]).trim(), "trunk");
    assert_eq!(
        git(&f.root, &["diff", "--cached", "--name-only"]).trim(),
        "staged.txt"
    );
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}
