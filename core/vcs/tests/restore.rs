//! Restores: byte for byte with modes and deletions, undone by restoring the snapshot taken
//! before, and each refusal leaving the working tree as it was.

mod common;

use std::fs;

use common::Fixture;
use smith_vcs::{Limits, Restore, Vcs, VcsError};

fn expect(id: smith_vcs::SnapshotId) -> Restore {
    Restore {
        expect: Some(id),
        note: String::new(),
    }
}

#[test]
fn restore_puts_back_content_modes_links_and_deletions_and_is_undone_the_same_way() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    f.write("dir/b.sh", "#!/bin/sh\n");
    f.chmod("dir/b.sh", 0o755);
    f.write("dir/deep/c.txt", "c\n");
    // Git records only the executable bit: a file kept across the restore keeps its other
    // permission bits, a recreated one gets 644 (or 755).
    f.write("private.txt", "mine\n");
    f.chmod("private.txt", 0o600);
    std::os::unix::fs::symlink("a.txt", f.root.join("ln")).unwrap();
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    let original = f.tree();

    // What a `bash` command might do: write three files, delete one, change modes.
    f.write("a.txt", "changed\n");
    f.write("private.txt", "changed too\n");
    f.write("new/one.txt", "1\n");
    f.write("new/two.txt", "2\n");
    fs::remove_file(f.root.join("dir/deep/c.txt")).unwrap();
    fs::remove_dir(f.root.join("dir/deep")).unwrap();
    f.chmod("dir/b.sh", 0o644);
    fs::remove_file(f.root.join("ln")).unwrap();
    fs::create_dir(f.root.join("ln")).unwrap();
    f.write("ln/inside.txt", "a directory where a link was\n");
    let second = vcs.snapshot("").unwrap().id;
    let changed = f.tree();

    let undone = vcs.restore(first, &expect(second)).unwrap();
    assert_eq!(
        f.tree(),
        original,
        "the first state, byte for byte and mode for mode"
    );
    assert_eq!(undone.before.id, second);
    assert!(!undone.before.created, "the tree was already snapshotted");
    assert_eq!(
        undone.deleted,
        ["ln/inside.txt", "new/one.txt", "new/two.txt"]
    );
    assert!(undone.written.contains(&"dir/deep/c.txt".to_owned()));
    assert!(
        !f.root.join("new").exists(),
        "directories emptied by the restore are removed"
    );

    // Redo: restore the state the undo started from.
    let redone = vcs.restore(second, &expect(first)).unwrap();
    assert_eq!(f.tree(), changed);
    assert_eq!(redone.target, second);
}

#[test]
fn a_tree_changed_since_the_expected_snapshot_is_refused_and_left_alone() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    f.write("a.txt", "two\n");
    let second = vcs.snapshot("").unwrap().id;
    f.write("b.txt", "not snapshotted yet\n");
    let before = f.tree();
    let err = vcs.restore(first, &expect(second)).unwrap_err();
    match &err {
        VcsError::Changed { since, paths, more } => {
            assert_eq!(*since, second);
            assert_eq!(paths, &["b.txt"]);
            assert_eq!(*more, 0);
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("changed since snapshot"), "{err}");
    assert_eq!(f.tree(), before);
    // Asked to snapshot first, it restores, and the snapshot it took brings b.txt back.
    let done = vcs.restore(first, &Restore::default()).unwrap();
    assert!(done.before.created);
    assert_eq!(f.read("a.txt"), "one\n");
    assert!(!f.root.join("b.txt").exists());
    vcs.restore(done.before.id, &expect(first)).unwrap();
    assert_eq!(f.tree(), before);
}

#[test]
fn files_over_the_bound_are_skipped_and_never_overwritten() {
    let f = Fixture::new();
    f.write("big.bin", "small at first\n");
    let limits = Limits { max_file_bytes: 64 };
    let vcs = Vcs::open(&f.store, &f.root, limits).unwrap();
    let first = vcs.snapshot("").unwrap().id;
    f.write("big.bin", &"x".repeat(100));
    let second = vcs.snapshot("").unwrap();
    assert_eq!(second.skipped.len(), 1);
    assert_eq!(second.skipped[0].path, "big.bin");
    let before = f.tree();
    let err = vcs.restore(first, &expect(second.id)).unwrap_err();
    assert!(
        matches!(&err, VcsError::Unsnapshotted { path, why } if path == "big.bin" && why.contains("100 bytes")),
        "{err:?}"
    );
    assert_eq!(f.tree(), before);
}

#[test]
fn ignored_files_are_never_overwritten() {
    let f = Fixture::new();
    common::git(&f.root, &["init", "-q"]);
    f.write("out.log", "tracked for now\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    f.write(".gitignore", "*.log\n");
    f.write("out.log", "now ignored, and precious\n");
    let second = vcs.snapshot("").unwrap().id;
    let before = f.tree();
    let err = vcs.restore(first, &expect(second)).unwrap_err();
    assert!(
        matches!(&err, VcsError::Unsnapshotted { path, why } if path == "out.log" && why.contains("ignore")),
        "{err:?}"
    );
    assert_eq!(f.tree(), before);
}

#[test]
fn a_write_through_a_symbolic_link_out_of_the_root_is_refused() {
    let f = Fixture::new();
    let outside = f.dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    f.write("gen/file.txt", "generated\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    fs::remove_file(f.root.join("gen/file.txt")).unwrap();
    fs::remove_dir(f.root.join("gen")).unwrap();
    // An ignored link where the directory was: no snapshot holds it.
    common::git(&f.root, &["init", "-q"]);
    f.write(".gitignore", "gen\n");
    std::os::unix::fs::symlink(&outside, f.root.join("gen")).unwrap();
    let second = vcs.snapshot("").unwrap().id;
    let before = f.tree();
    let err = vcs.restore(first, &expect(second)).unwrap_err();
    assert!(
        matches!(&err, VcsError::ThroughLink { path, .. } if path == "gen"),
        "{err:?}"
    );
    assert_eq!(f.tree(), before);
    assert_eq!(
        fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing was written outside"
    );
}

#[test]
fn ids_are_checked_against_this_project() {
    let f = Fixture::new();
    f.write("a.txt", "a\n");
    let vcs = f.vcs();
    let mine = vcs.snapshot("").unwrap().id;
    assert_eq!(vcs.resolve(&mine.short()).unwrap(), mine);
    assert_eq!(vcs.resolve(&mine.to_hex()).unwrap(), mine);

    let other_root = f.dir.path().join("other");
    fs::create_dir(&other_root).unwrap();
    fs::write(other_root.join("z.txt"), "other\n").unwrap();
    let other = Vcs::open(&f.store, &other_root, Limits::default()).unwrap();
    let theirs = other.snapshot("").unwrap().id;
    let err = vcs.resolve(&theirs.to_hex()).unwrap_err();
    match &err {
        VcsError::UnknownSnapshot { other: Some(p), .. } => {
            assert_eq!(p, &fs::canonicalize(&other_root).unwrap())
        }
        e => panic!("{e:?}"),
    }
    assert!(err.to_string().contains("another project"), "{err}");
    assert!(matches!(vcs.resolve("xyz"), Err(VcsError::BadId { .. })));
    assert!(matches!(
        vcs.resolve("0000000000"),
        Err(VcsError::UnknownSnapshot { other: None, .. })
    ));
    // A blob's id is not a snapshot.
    let blob = common::git(&f.root, &["hash-object", "a.txt"]);
    assert!(matches!(
        vcs.resolve(blob.trim()),
        Err(VcsError::UnknownSnapshot { .. })
    ));
}

#[test]
fn a_root_that_is_not_a_directory_is_refused() {
    let f = Fixture::new();
    let file = f.dir.path().join("file");
    fs::write(&file, "").unwrap();
    assert!(matches!(
        Vcs::open(&f.store, &file, Limits::default()),
        Err(VcsError::NotADirectory { .. })
    ));
    let missing = f.dir.path().join("missing");
    assert!(matches!(
        Vcs::open(&f.store, &missing, Limits::default()),
        Err(VcsError::NotADirectory { .. })
    ));
    // A store that is a file cannot hold repositories.
    let err = Vcs::open(&file.join("vcs"), &f.root, Limits::default()).unwrap_err();
    assert!(matches!(err, VcsError::NotWritable { .. }), "{err:?}");
}

#[test]
fn a_write_that_fails_part_way_puts_back_what_the_restore_had_changed() {
    let f = Fixture::new();
    f.write("d1/x", "x0\n");
    f.write("d2/y", "y0\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    f.write("d1/x", "x1\n");
    f.write("d2/y", "y1\n");
    let second = vcs.snapshot("").unwrap().id;
    let changed = f.tree();
    // A directory where the restore writes `d2/y`'s temporary file makes that write fail
    // after `d1/x` was written (an empty directory is in no snapshot, so no check sees it).
    let blocker = f
        .root
        .join(format!("d2/.y.smith-{}.tmp", std::process::id()));
    fs::create_dir(&blocker).unwrap();
    let err = vcs.restore(first, &expect(second)).unwrap_err();
    assert!(
        matches!(&err, VcsError::Partial(p) if matches!(**p, smith_vcs::PartialRestore::RolledBack { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("were put back"), "{err}");
    fs::remove_dir(&blocker).unwrap();
    assert_eq!(f.tree(), changed, "d1/x was put back as it was");
    // With the obstacle gone the same restore goes through.
    vcs.restore(first, &expect(second)).unwrap();
    assert_eq!(fs::read_to_string(f.root.join("d1/x")).unwrap(), "x0\n");
}

#[test]
fn a_file_a_snapshot_left_out_is_neither_shown_as_deleted_nor_deleted_by_a_restore() {
    let f = Fixture::new();
    f.write("small.txt", "s\n");
    f.write("grow.txt", "small\n");
    let vcs = Vcs::open(
        &f.store,
        &f.root,
        Limits {
            max_file_bytes: 100,
        },
    )
    .unwrap();
    let first = vcs.snapshot("").unwrap().id;
    // The file grows past the bound: the next snapshot leaves it out.
    f.write("grow.txt", &"g".repeat(300));
    f.write("small.txt", "t\n");
    let second = vcs.snapshot("").unwrap();
    assert_eq!(second.skipped.len(), 1);
    let diff = vcs.diff(first, second.id).unwrap();
    let paths: Vec<&str> = diff.files.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["small.txt"], "grow.txt is not shown as deleted");
    // Going back to the first state needs grow.txt, which no snapshot holds as it is now.
    let refused = vcs.restore(first, &expect(second.id)).unwrap_err();
    assert!(
        matches!(refused, VcsError::Unsnapshotted { .. }),
        "{refused:?}"
    );
    // Moved out of the way, the first state comes back with its small grow.txt…
    fs::remove_file(f.root.join("grow.txt")).unwrap();
    vcs.restore(first, &Restore::default()).unwrap();
    assert_eq!(
        fs::read_to_string(f.root.join("grow.txt")).unwrap(),
        "small\n"
    );
    // …and going forward again leaves it alone: the second snapshot left it out, it did not
    // delete it.
    let redone = vcs.restore(second.id, &Restore::default()).unwrap();
    assert!(redone.deleted.is_empty(), "{:?}", redone.deleted);
    assert_eq!(
        fs::read_to_string(f.root.join("grow.txt")).unwrap(),
        "small\n"
    );
    assert_eq!(fs::read_to_string(f.root.join("small.txt")).unwrap(), "t\n");
}

#[test]
fn a_note_cannot_claim_a_path_was_left_out() {
    let f = Fixture::new();
    f.write("a.txt", "a\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    fs::remove_file(f.root.join("a.txt")).unwrap();
    let second = vcs.snapshot("Skipped: \"a.txt\"").unwrap().id;
    let diff = vcs.diff(first, second).unwrap();
    assert_eq!(diff.files.len(), 1, "the deletion is shown");
}

#[test]
fn a_snapshotted_link_where_a_directory_was_is_replaced_and_nothing_outside_is_touched() {
    let f = Fixture::new();
    let outside = f.dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("f.txt"), "theirs\n").unwrap();
    f.write("d/f.txt", "mine\n");
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    // The directory becomes a link leading out of the root (snapshotted as a link).
    fs::remove_file(f.root.join("d/f.txt")).unwrap();
    fs::remove_dir(f.root.join("d")).unwrap();
    std::os::unix::fs::symlink(&outside, f.root.join("d")).unwrap();
    let second = vcs.snapshot("").unwrap().id;
    let done = vcs.restore(first, &expect(second)).unwrap();
    assert_eq!(done.deleted, ["d"]);
    assert!(fs::symlink_metadata(f.root.join("d")).unwrap().is_dir());
    assert_eq!(
        fs::read_to_string(f.root.join("d/f.txt")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        fs::read_to_string(outside.join("f.txt")).unwrap(),
        "theirs\n"
    );
}

#[test]
fn export_writes_a_snapshot_into_an_empty_directory_and_nothing_else() {
    let f = Fixture::new();
    f.write("a.txt", "one\n");
    f.write("dir/b.sh", "#!/bin/sh\n");
    f.chmod("dir/b.sh", 0o755);
    std::os::unix::fs::symlink("a.txt", f.root.join("ln")).unwrap();
    let vcs = f.vcs();
    let first = vcs.snapshot("").unwrap().id;
    let original = f.tree();
    f.write("a.txt", "changed\n");

    let copy = f.dir.path().join("copy");
    assert_eq!(vcs.export(first, &copy).unwrap(), 3);
    assert_eq!(
        common::fingerprint(&copy),
        original,
        "content, modes and links"
    );
    assert_eq!(f.read("a.txt"), "changed\n", "the project is not touched");

    // A directory that holds anything is refused, and left as it was.
    let err = vcs.export(first, &copy).unwrap_err();
    assert!(matches!(err, VcsError::NotWritable { .. }), "{err}");
    assert!(err.to_string().contains("not empty"), "{err}");
    assert_eq!(common::fingerprint(&copy), original);
}
