//! `smith sessions delete` and `prune` with the built binary: a session is removed with the
//! snapshots only it referenced (those another session shares stay, and undo still restores
//! them), one being written is refused and left whole, and prune chooses by age and `--keep`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::{Project, git, vcs_records};
use crate::common::{stderr, stdout};

/// The second run: one edit of `a.txt`, which the first run left as `hello\nthere\n`.
const SECOND: &str = r##"round {
  tool-call id="d1" name="edit" arguments=#"{"path": "a.txt", "edits": [{"old_text": "there", "new_text": "again"}]}"#
  stop "tool_use"
}
round {
  text "done"
  stop "end_turn"
}
"##;

fn id_of(session: &Path) -> String {
    session.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The project's snapshot repository in the data home.
fn repository(p: &Project) -> PathBuf {
    let mut repos: Vec<PathBuf> = std::fs::read_dir(p.env.home().join("vcs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(repos.len(), 1, "{repos:?}");
    repos.remove(0)
}

/// Make every object of `repo` look two days old: past the grace period that keeps recent
/// snapshots.
fn age(repo: &Path) {
    let then = SystemTime::now() - Duration::from_secs(2 * 86_400);
    for fan in std::fs::read_dir(repo.join("objects")).unwrap().flatten() {
        if fan.file_name().len() != 2 {
            continue;
        }
        for object in std::fs::read_dir(fan.path()).unwrap().flatten() {
            File::options()
                .write(true)
                .open(object.path())
                .unwrap()
                .set_modified(then)
                .unwrap();
        }
    }
}

fn has_object(repo: &Path, hex: &str) -> bool {
    repo.join("objects")
        .join(&hex[..2])
        .join(&hex[2..])
        .exists()
}

/// Run the second script; its session file.
fn second_run(p: &Project) -> PathBuf {
    let script = p.env.write("second.kdl", SECOND);
    let before = p.env.session_files();
    p.ok(&[
        "eval",
        "-m",
        "scripted/second",
        "--script",
        script.to_str().unwrap(),
        "again",
    ]);
    let mut after = p.env.session_files();
    after.retain(|f| !before.contains(f));
    assert_eq!(after.len(), 1);
    after.remove(0)
}

#[test]
fn delete_removes_the_session_and_the_snapshots_only_it_referenced() {
    let p = Project::new();
    let first = p.run();
    let second = second_run(&p);
    let repo = repository(&p);
    let mine: Vec<_> = vcs_records(&first).into_iter().map(|(_, r)| r).collect();
    let theirs: Vec<_> = vcs_records(&second).into_iter().map(|(_, r)| r).collect();
    // The second run starts where the first ended: that snapshot is shared.
    assert_eq!(mine[1].after, theirs[0].before);
    let only_mine = [mine[0].before.clone(), mine[0].after.clone()];
    assert!(only_mine.iter().all(|s| has_object(&repo, s)));

    // Just written, the snapshots wait out their grace period.
    let fresh = p.ok(&["sessions", "delete", "--dry-run", &id_of(&first)]);
    assert!(
        !stdout(&fresh).contains("snapshots of"),
        "{}",
        stdout(&fresh)
    );
    assert!(
        stderr(&fresh).contains("kept 2 unreferenced snapshots of "),
        "{}",
        stderr(&fresh)
    );
    age(&repo);
    let dry = p.ok(&["sessions", "delete", "--dry-run", &id_of(&first)]);
    let text = stdout(&dry);
    assert!(
        text.starts_with(&format!("would delete {} ", id_of(&first)))
            && text.contains("\"change things\"")
            && text.contains("would remove 2 snapshots of "),
        "{text}"
    );
    assert!(first.exists() && only_mine.iter().all(|s| has_object(&repo, s)));

    let out = p.ok(&["sessions", "delete", &id_of(&first)]);
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("deleted {} ", id_of(&first)))
            && text.contains("removed 2 snapshots of "),
        "{text}"
    );
    assert!(!first.exists());
    assert!(only_mine.iter().all(|s| !has_object(&repo, s)));
    assert!(has_object(&repo, &theirs[0].before) && has_object(&repo, &theirs[0].after));
    // git still accepts the repository, and the remaining session's undo restores the shared
    // snapshot byte for byte.
    let gd = format!("--git-dir={}", repo.display());
    let fsck = git(&p.dir, &[&gd, "fsck", "--strict", "--unreachable"]);
    assert!(stdout(&fsck).is_empty(), "{}", stdout(&fsck));
    p.ok(&["undo", "--session", &id_of(&second)]);
    assert_eq!(
        std::fs::read_to_string(p.dir.join("a.txt")).unwrap(),
        "hello\nthere\n"
    );
    let listed = stdout(&p.ok(&["sessions", "list"]));
    assert!(!listed.contains(&id_of(&first)) && listed.contains(&id_of(&second)));
}

#[test]
fn a_session_being_written_is_refused_and_left_whole() {
    let p = Project::new();
    let first = p.run();
    let second = second_run(&p);
    let bytes = std::fs::read(&second).unwrap();
    // Another process's writer lock: the OS lock a writer holds, taken from this process.
    let writer = File::open(&second).unwrap();
    writer.try_lock().unwrap();
    let out = p.smith(&["sessions", "delete", &id_of(&second), &id_of(&first)]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "session {} kept: another Smith process is writing it",
            id_of(&second)
        )),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).starts_with(&format!("deleted {} ", id_of(&first))));
    assert!(!first.exists());
    assert_eq!(std::fs::read(&second).unwrap(), bytes);
    drop(writer);
    p.ok(&["sessions", "delete", &id_of(&second)]);
    assert!(p.env.session_files().is_empty());
}

#[test]
fn prune_chooses_by_age_and_keeps_the_newest_asked_for() {
    let p = Project::new();
    let first = p.run();
    let second = second_run(&p);
    let age = |path: &Path, days: u64| {
        let when = SystemTime::now() - Duration::from_secs(days * 86_400);
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    };
    age(&first, 40);
    age(&second, 10);

    for bad in ["soon", "-3d", "30"] {
        let out = p.smith(&["sessions", "prune", &format!("--older-than={bad}")]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("`{bad}` is not an age")),
            "{}",
            stderr(&out)
        );
    }
    let none = p.ok(&["sessions", "prune", "--older-than", "60d"]);
    assert!(stdout(&none).is_empty());
    assert!(
        stderr(&none).contains("nothing to prune"),
        "{}",
        stderr(&none)
    );

    let dry = stdout(&p.ok(&["sessions", "prune", "--older-than", "1w", "--dry-run"]));
    assert_eq!(dry.matches("would delete ").count(), 2, "{dry}");
    assert_eq!(p.env.session_files().len(), 2);

    let kept = stdout(&p.ok(&["sessions", "prune", "--older-than", "1w", "--keep", "1"]));
    assert!(
        kept.starts_with(&format!("deleted {} ", id_of(&first))),
        "{kept}"
    );
    assert!(!kept.contains(&id_of(&second)), "{kept}");
    assert_eq!(p.env.session_files(), vec![second.clone()]);

    let rest = stdout(&p.ok(&["sessions", "prune", "--older-than", "30 days"]));
    assert!(rest.is_empty(), "{rest}");
    // A writer holds it: prune refuses it as delete does, and it stays whole.
    let writer = File::open(&second).unwrap();
    writer.try_lock().unwrap();
    let busy = p.smith(&["sessions", "prune", "--older-than", "1w"]);
    assert_eq!(busy.status.code(), Some(4), "{}", stderr(&busy));
    assert!(stderr(&busy).contains("kept: another Smith process is writing it"));
    assert_eq!(p.env.session_files(), vec![second.clone()]);
    drop(writer);
    let rest = stdout(&p.ok(&["sessions", "prune", "--older-than", "1w"]));
    assert!(
        rest.starts_with(&format!("deleted {} ", id_of(&second))),
        "{rest}"
    );
    assert!(p.env.session_files().is_empty());
}
