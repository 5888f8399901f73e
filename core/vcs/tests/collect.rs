//! Collecting unreferenced snapshots: the objects only they held go, everything a kept snapshot
//! needs stays readable, recent snapshots wait out their grace period, and git still accepts
//! the repository — reachability and all.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{Fixture, git_output};
use smith_vcs::{SnapshotId, VcsError, collect, repository_of};

/// `git fsck --strict` finds nothing: no damage, no missing and no dangling object.
fn fsck_clean(f: &Fixture, repo: &Path) {
    let gd = format!("--git-dir={}", repo.display());
    let fsck = git_output(&f.root, &[&gd, "fsck", "--strict", "--unreachable"]);
    assert!(
        fsck.status.success() && fsck.stdout.is_empty(),
        "{}{}",
        String::from_utf8_lossy(&fsck.stdout),
        String::from_utf8_lossy(&fsck.stderr)
    );
}

fn loose(repo: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(repo.join("objects"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().len() == 2)
        .flat_map(|e| {
            std::fs::read_dir(e.path())
                .unwrap()
                .flatten()
                .map(|o| o.path())
        })
        .collect()
}

/// Make every object of `repo` look a day older than it is.
fn age(repo: &Path) {
    let then = SystemTime::now() - Duration::from_secs(86_400);
    for path in loose(repo) {
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(then)
            .unwrap();
    }
}

const GRACE: Duration = Duration::from_secs(3600);

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
    let referenced = HashSet::from([s1, s3]);

    // Young: kept through the grace period, whatever references it.
    let fresh = collect(&repo, &referenced, GRACE, false).unwrap();
    assert_eq!(
        (fresh.snapshots.len(), fresh.objects, fresh.young),
        (0, 0, 1)
    );

    age(&repo);
    let before = loose(&repo).len();
    let dry = collect(&repo, &referenced, GRACE, true).unwrap();
    assert_eq!(dry.snapshots, vec![s2]);
    // The commit, its root tree and the one blob only it held (dir/ is shared).
    assert_eq!(dry.objects, 3, "{dry:?}");
    assert!(dry.bytes > 0);
    assert_eq!(loose(&repo).len(), before, "a dry run removes nothing");

    let done = collect(&repo, &referenced, GRACE, false).unwrap();
    assert_eq!(done, dry);
    assert_eq!(loose(&repo).len(), before - 3);
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
    // s1 lost its only child: a keep ref makes it reachable, so git gc would keep it too.
    assert!(repo.join("refs/smith/keep").join(s1.to_hex()).is_file());
    fsck_clean(&f, &repo);

    // A later snapshot reuses what stayed, and the repository is still whole.
    f.write("c.txt", "sea\n");
    let s4 = vcs.snapshot("fourth").unwrap().id;
    assert_eq!(vcs.diff(s3, s4).unwrap().stat().files, 1);
    fsck_clean(&f, &repo);

    // Once nothing references s1, it goes, and its keep ref with it.
    age(&repo);
    let done = collect(&repo, &HashSet::from([s3]), GRACE, false).unwrap();
    assert_eq!(done.snapshots, vec![s1]);
    assert!(!repo.join("refs/smith/keep").join(s1.to_hex()).exists());
    fsck_clean(&f, &repo);
}

#[test]
fn the_branch_head_and_a_snapshot_handed_out_again_are_kept() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    let vcs = f.vcs();
    let head = vcs.snapshot("only").unwrap().id;
    let repo = vcs.repository().to_path_buf();
    age(&repo);
    let before = loose(&repo).len();
    let done = collect(&repo, &HashSet::new(), GRACE, false).unwrap();
    assert!(done.snapshots.is_empty() && done.objects == 0, "{done:?}");
    assert_eq!(loose(&repo).len(), before);

    // A tool batch starts: its "before" snapshot is the head, handed out again, and not yet
    // recorded in any session when another snapshot moves the head on. It stays through the
    // grace period; the first snapshot, old and unreferenced, goes.
    f.write("a.txt", "two\n");
    let second = vcs.snapshot("two").unwrap().id;
    age(&repo);
    let before_batch = vcs.snapshot("same as the head").unwrap().id;
    assert_eq!(before_batch, second, "the head is handed out again");
    f.write("a.txt", "three\n");
    let third = vcs.snapshot("elsewhere").unwrap().id;
    let unknown = SnapshotId::from_hex(&"ab".repeat(20)).unwrap();
    let done = collect(&repo, &HashSet::from([unknown]), GRACE, false).unwrap();
    assert_eq!(
        done.snapshots,
        vec![head],
        "only the first, unreferenced and old, goes"
    );
    assert_eq!(done.young, 1, "{done:?}");
    assert_eq!(vcs.diff(second, third).unwrap().stat().files, 1);
    fsck_clean(&f, &repo);
}

#[test]
fn objects_an_interrupted_collection_left_are_collected_next_time() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    let vcs = f.vcs();
    let s1 = vcs.snapshot("first").unwrap().id;
    f.write("a.txt", "two\n");
    let s2 = vcs.snapshot("second").unwrap().id;
    let repo = vcs.repository().to_path_buf();
    // What a collection interrupted after removing s1's commit leaves: its tree and blob.
    let hex = s1.to_hex();
    std::fs::remove_file(repo.join("objects").join(&hex[..2]).join(&hex[2..])).unwrap();
    age(&repo);
    let done = collect(&repo, &HashSet::new(), GRACE, false).unwrap();
    assert!(done.snapshots.is_empty());
    assert_eq!(done.objects, 2, "the orphaned tree and blob: {done:?}");
    assert!(vcs.diff(s2, s2).unwrap().unified().is_empty());
    fsck_clean(&f, &repo);
}

#[test]
fn a_project_without_a_repository_has_none_to_collect() {
    let f = Fixture::new();
    std::fs::create_dir_all(&f.store).unwrap();
    assert_eq!(repository_of(&f.store, &f.root).unwrap(), None);
}
