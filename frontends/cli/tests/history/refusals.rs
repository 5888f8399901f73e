//! Each refusal of undo, redo and restore says why and changes nothing: not the working tree,
//! not the session's record.

use std::os::unix::fs::PermissionsExt as _;

use super::common::stderr;
use super::{Project, tree, vcs_records};

/// `smith ARGS` fails with `status`, its stderr containing `says`, and changes neither the
/// tree nor the session.
fn refused(p: &Project, session: &std::path::Path, args: &[&str], status: i32, says: &str) {
    let tree_before = tree(&p.dir);
    let records = vcs_records(session).len();
    let out = p.smith(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(status), "smith {args:?}: {err}");
    assert!(
        err.contains(says),
        "smith {args:?} should say {says:?}: {err}"
    );
    assert_eq!(tree(&p.dir), tree_before, "smith {args:?} changed the tree");
    assert_eq!(
        vcs_records(session).len(),
        records,
        "smith {args:?} recorded a change"
    );
}

#[test]
fn a_tree_changed_since_the_session_recorded_it_is_not_overwritten() {
    let p = Project::new();
    let session = p.run();
    std::fs::write(p.dir.join("b.txt"), "edited by hand").unwrap();
    refused(
        &p,
        &session,
        &["undo"],
        1,
        "the working tree changed since snapshot",
    );
    refused(&p, &session, &["restore", "3"], 1, "--snapshot-first");
    // Asked to, the hand edit is kept in the snapshot the undo records as `before`, which a
    // restore brings back.
    p.ok(&["undo", "--snapshot-first"]);
    assert!(!p.dir.join("b.txt").exists());
    let kept = vcs_records(session.as_path()).pop().unwrap().1.before;
    p.ok(&["restore", &kept]);
    assert_eq!(
        std::fs::read(p.dir.join("b.txt")).unwrap(),
        b"edited by hand"
    );
}

#[test]
fn a_snapshot_or_session_of_another_project_is_refused() {
    let p = Project::new();
    let session = p.run();
    let theirs = vcs_records(&session)[0].1.before.clone();
    // A second project in the same home, with its own run.
    let other = p.env.root.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("a.txt"), "hello\nworld\n").unwrap();
    std::fs::write(other.join("gone.txt"), "x\n").unwrap();
    let run = |args: &[&str]| p.env.command(args).current_dir(&other).output().unwrap();
    let script = p.env.write(
        "other.kdl",
        "round {\n  text \"hi\"\n  stop \"end_turn\"\n}\n",
    );
    let out = run(&[
        "eval",
        "-m",
        "scripted/o",
        "--script",
        script.to_str().unwrap(),
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(other.join("a.txt"), "changed\n").unwrap();
    let before = tree(&other);
    let out = run(&["restore", &theirs, "--snapshot-first"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("another project"), "{}", stderr(&out));
    let id = session.file_stem().unwrap().to_str().unwrap();
    let out = run(&["undo", "--session", id]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("changed the project"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&other), before);
    // Not an id at all.
    refused(
        &p,
        &session,
        &["restore", "not-a-snapshot"],
        2,
        "is not a snapshot id",
    );
    refused(&p, &session, &["restore", "99999"], 2, "has no entry 99999");
}

#[test]
fn a_write_through_a_symbolic_link_leaving_the_root_is_refused() {
    let p = Project::new();
    let session = p.run();
    p.ok(&["undo"]);
    // `sub/c.txt` comes back on redo; `sub` is now an ignored link to a directory outside.
    let outside = p.env.root.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.dir.join("sub")).unwrap();
    std::fs::write(p.dir.join(".git/info/exclude"), "sub\n").unwrap();
    refused(&p, &session, &["redo"], 1, "symbolic link");
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing was written outside"
    );
}

#[test]
fn a_file_over_the_size_bound_is_never_overwritten() {
    let p = Project::new();
    let session = p.run();
    // `gone.txt` comes back on undo, but a file of that name too large to snapshot is there.
    std::fs::write(p.dir.join("gone.txt"), vec![b'x'; 100]).unwrap();
    refused(
        &p,
        &session,
        &["-c", "history.max-file-bytes=50", "undo"],
        1,
        "gone.txt",
    );
}

#[test]
fn a_project_smith_may_not_write_is_refused() {
    let p = Project::new();
    let session = p.run();
    let mode = std::fs::metadata(&p.dir).unwrap().permissions().mode();
    std::fs::set_permissions(&p.dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(p.dir.join("probe"), "").is_ok() {
        // Permission bits do not bind this user (root): nothing to refuse here.
        std::fs::remove_file(p.dir.join("probe")).unwrap();
        std::fs::set_permissions(&p.dir, std::fs::Permissions::from_mode(mode)).unwrap();
        return;
    }
    refused(&p, &session, &["undo"], 1, "cannot write");
    std::fs::set_permissions(&p.dir, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_restore_to_the_state_the_tree_is_in_records_nothing_and_keeps_redo() {
    let p = Project::new();
    let session = p.run();
    p.ok(&["undo"]);
    // The state at the latest entry is the tree as it is now.
    let latest = vcs_records(&session).last().unwrap().0.to_string();
    refused(
        &p,
        &session,
        &["restore", &latest],
        2,
        "already holds snapshot",
    );
    // What the undo took back can still be redone.
    p.ok(&["redo"]);
    assert!(tree(&p.dir).contains_key("run.sh"));
}
