//! Collecting unreferenced snapshots: the objects only they held go, everything a kept snapshot
//! needs stays readable, and git still accepts the repository.

mod common;

use std::collections::BTreeSet;

use common::{Fixture, git_output};
use smith_vcs::{SnapshotId, VcsError, collect, repository_of};

fn fsck_clean(f: &Fixture, repo: &std::path::Path) {
    let gd = format!("--git-dir={}", repo.display());
    let fsck = git_output(&f.root, &[&gd, "fsck", "--strict", "--no-dangling"]);
    assert!(
        fsck.status.success() && fsck.stdout.is_empty(),
        "{}{}",
        String::from_utf8_lossy(&fsck.stdout),
        String::from_utf8_lossy(&fsck.stderr)
    );
}

fn loose_count(repo: &std::path::Path) -> usize {
    std::fs::read_dir(repo.join("objects"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().len() == 2)
        .map(|e| std::fs::read_dir(e.path()).unwrap().count())
        .sum()
}

#[test]
fn a_middle_snapshot_goes_with_what_only_it_held_and_the_rest_stays_whole() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    f.write("dir/b.txt", "bee\n");
    let vcs = f.vcs();
    let s1 = vcs.snapshot("first").unwrap().id;
    f.write("a.txt", "two, held only by the second snapshot\n");
    let s2 = vcs.snapshot("second").unwrap().id;
    f.write("a.txt", "three\n");
    let s3 = vcs.snapshot("third").unwrap().id;
    let repo = repository_of(&f.store.canonicalize().unwrap(), vcs.root())
        .unwrap()
        .expect("the project has a repository");
    assert_eq!(repo, vcs.repository());
    let before = loose_count(&repo);

    let wanted = BTreeSet::from([s2]);
    let dry = collect(&repo, &wanted, true).unwrap();
    assert_eq!(dry.snapshots, vec![s2]);
    // The commit, its root tree and the one blob only it held (dir/ is shared).
    assert_eq!(dry.objects, 3, "{dry:?}");
    assert!(dry.bytes > 0);
    assert_eq!(loose_count(&repo), before, "a dry run removes nothing");

    let done = collect(&repo, &wanted, false).unwrap();
    assert_eq!(done, dry);
    assert_eq!(loose_count(&repo), before - 3);
    assert!(matches!(
        vcs.resolve(&s2.to_hex()),
        Err(VcsError::UnknownSnapshot { .. })
    ));
    // The kept snapshots read back whole, and diff across the gap.
    let diff = vcs.diff(s1, s3).unwrap();
    assert_eq!(diff.stat().files, 1, "{}", diff.unified());
    assert!(diff.unified().contains("+three"));
    let shallow = std::fs::read_to_string(repo.join("shallow")).unwrap();
    assert_eq!(shallow, format!("{}\n", s3.to_hex()));
    fsck_clean(&f, &repo);

    // A later snapshot reuses what stayed, and the repository is still whole.
    f.write("c.txt", "sea\n");
    let s4 = vcs.snapshot("fourth").unwrap().id;
    assert_eq!(vcs.diff(s3, s4).unwrap().stat().files, 1);
    fsck_clean(&f, &repo);
}

#[test]
fn the_branch_head_and_unknown_ids_are_kept() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    let vcs = f.vcs();
    let head = vcs.snapshot("only").unwrap().id;
    let unknown = SnapshotId::from_hex(&"ab".repeat(20)).unwrap();
    let repo = vcs.repository().to_path_buf();
    let before = loose_count(&repo);
    let done = collect(&repo, &BTreeSet::from([head, unknown]), false).unwrap();
    assert!(done.snapshots.is_empty() && done.objects == 0, "{done:?}");
    assert_eq!(done.kept.len(), 2);
    assert_eq!(loose_count(&repo), before);
    assert!(vcs.diff(head, head).unwrap().unified().is_empty());
}

#[test]
fn a_project_without_a_repository_has_none_to_collect() {
    let f = Fixture::new();
    std::fs::create_dir_all(&f.store).unwrap();
    assert_eq!(repository_of(&f.store, &f.root).unwrap(), None);
}
