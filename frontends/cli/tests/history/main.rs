//! VCS-backed history with the built binary (spec: Replay and VCS → VCS; the undo/restore
//! guide): a scripted run's `edit` and a `bash` command that writes three files (one
//! executable) and deletes one are undone and redone byte for byte, modes and deletions too;
//! restore travels to the state at an earlier entry; Smith's diff applies with `git apply`
//! and its `--stat` is git's; git reads the snapshot objects; the user's repository is never
//! touched; and each refusal changes nothing.
#![cfg(unix)]

#[path = "../common/mod.rs"]
mod common;
mod delete;
mod plugin;
mod refusals;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{Env, stderr, stdout};
use smith_store::{Record, VcsOp, VcsRecord, read_session};

/// The script: round 1 edits `a.txt`, round 2 runs `bash` writing three files (one
/// executable) and deleting `gone.txt`.
const SCRIPT: &str = r##"round {
  tool-call id="c1" name="edit" arguments=#"{"path": "a.txt", "edits": [{"old_text": "world", "new_text": "there"}]}"#
  stop "tool_use"
}
round {
  tool-call id="c2" name="bash" arguments=#"{"command": "printf one > b.txt && mkdir -p sub && printf two > sub/c.txt && printf '#!/bin/sh\necho hi\n' > run.sh && chmod +x run.sh && rm gone.txt"}"#
  stop "tool_use"
}
round {
  text "done"
  stop "end_turn"
}
"##;

/// Every file under `dir` but `.git`: its bytes and mode bits.
pub(crate) fn tree(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out, false);
    out
}

/// Every file under `dir/.git`, bytes and mode bits.
fn git_dir(dir: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    walk(&dir.join(".git"), &dir.join(".git"), &mut out, true);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (Vec<u8>, u32)>, git: bool) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        if !git && entry.file_name() == ".git" {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            walk(root, &path, out, git);
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let bytes = if meta.file_type().is_symlink() {
                std::fs::read_link(&path)
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes()
            } else {
                std::fs::read(&path).unwrap()
            };
            out.insert(rel, (bytes, meta.permissions().mode() & 0o777));
        }
    }
}

pub(crate) fn git(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
    out
}

/// A project: a git repository with a commit, a branch and a stash entry, and a file the
/// script deletes.
pub(crate) struct Project {
    pub(crate) env: Env,
    pub(crate) dir: PathBuf,
}

impl Project {
    pub(crate) fn new() -> Self {
        let env = Env::new();
        let dir = env.root.path().join("project");
        std::fs::create_dir(&dir).unwrap();
        let id = ["-c", "user.email=ada@example.com", "-c", "user.name=Ada"];
        git(&dir, &["init", "-q", "-b", "main"]);
        std::fs::write(dir.join("a.txt"), "hello\nworld\n").unwrap();
        std::fs::write(dir.join("gone.txt"), "soon deleted\n").unwrap();
        git(&dir, &["add", "."]);
        git(&dir, &[id[0], id[1], id[2], id[3], "commit", "-qm", "init"]);
        git(&dir, &["branch", "feature"]);
        std::fs::write(dir.join("a.txt"), "hello\nworld\nstashed\n").unwrap();
        git(&dir, &[id[0], id[1], id[2], id[3], "stash", "-q"]);
        Self { env, dir }
    }

    pub(crate) fn smith(&self, args: &[&str]) -> Output {
        self.env
            .command(args)
            .current_dir(&self.dir)
            .output()
            .unwrap()
    }

    pub(crate) fn ok(&self, args: &[&str]) -> Output {
        let out = self.smith(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "smith {args:?}: {}",
            stderr(&out)
        );
        out
    }

    /// Run the script; the session file.
    pub(crate) fn run(&self) -> PathBuf {
        self.run_with(&[])
    }

    /// Run the script with the global options `options` too; the session file.
    pub(crate) fn run_with(&self, options: &[&str]) -> PathBuf {
        let script = self.env.write("history.kdl", SCRIPT);
        let mut args = vec!["--allow-process"];
        args.extend_from_slice(options);
        args.extend([
            "eval",
            "-m",
            "scripted/history",
            "--script",
            script.to_str().unwrap(),
            "change things",
        ]);
        self.ok(&args);
        self.env.session_files().remove(0)
    }
}

/// The session's vcs records, in file order.
pub(crate) fn vcs_records(path: &Path) -> Vec<(u64, VcsRecord)> {
    read_session(path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Vcs(v) => Some((e.id.0, v)),
            _ => None,
        })
        .collect()
}

#[test]
fn an_edit_and_a_bash_command_are_undone_and_redone_byte_for_byte() {
    let p = Project::new();
    let repo_before = git_dir(&p.dir);
    let state0 = tree(&p.dir);
    let session = p.run();
    let state2 = tree(&p.dir);
    assert_eq!(state2["run.sh"].1, 0o755, "{:?}", state2.keys());
    assert!(!state2.contains_key("gone.txt"));

    // One step per batch that changed the tree, each bracketing its calls.
    let records = vcs_records(&session);
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0].1.op, VcsOp::Batch);
    assert_eq!(records[0].1.calls, vec!["c1".to_owned()]);
    assert_eq!(records[1].1.calls, vec!["c2".to_owned()]);
    assert_eq!(records[0].1.after, records[1].1.before);
    assert_eq!(
        records[1].1.root,
        p.dir.canonicalize().unwrap().to_str().unwrap()
    );

    let out = p.ok(&["undo"]);
    let text = stdout(&out);
    // In words, no snapshot ids: what was taken back, of which turn, then each path.
    assert!(
        text.starts_with("undid the changes to ") && text.contains(" files (turn 1)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  deleted run.sh") && text.contains("\n  written gone.txt"),
        "{text}"
    );
    assert!(!text.contains(&records[1].1.before[..12]), "{text}");
    let state1 = tree(&p.dir);
    assert_eq!(state1["a.txt"].0, b"hello\nthere\n");
    assert_eq!(state1["gone.txt"].0, b"soon deleted\n");
    assert!(!state1.contains_key("run.sh") && !state1.contains_key("sub/c.txt"));
    p.ok(&["undo"]);
    assert_eq!(
        tree(&p.dir),
        state0,
        "two undos give back the tree before the run"
    );
    let nothing = p.smith(&["undo"]);
    assert_eq!(nothing.status.code(), Some(2), "{}", stderr(&nothing));
    assert!(stderr(&nothing).contains("no change of the working tree to undo"));

    p.ok(&["redo"]);
    assert_eq!(tree(&p.dir), state1);
    p.ok(&["redo"]);
    assert_eq!(
        tree(&p.dir),
        state2,
        "two redos give back the tree after the run"
    );
    let nothing = p.smith(&["redo"]);
    assert_eq!(nothing.status.code(), Some(2), "{}", stderr(&nothing));

    // Every operation is on record, naming the steps it moved.
    let ops: Vec<(VcsOp, usize)> = vcs_records(&session)
        .iter()
        .map(|(_, r)| (r.op, r.steps.len()))
        .collect();
    assert_eq!(
        ops,
        [
            (VcsOp::Batch, 0),
            (VcsOp::Batch, 0),
            (VcsOp::Undo, 1),
            (VcsOp::Undo, 1),
            (VcsOp::Redo, 1),
            (VcsOp::Redo, 1)
        ]
    );
    // The user's repository — HEAD, branches, index, stash, objects, config — is untouched.
    assert_eq!(git_dir(&p.dir), repo_before);
    assert_eq!(
        stdout(&git(&p.dir, &["stash", "list"])).lines().count(),
        1,
        "the stash entry is still there"
    );
}

#[test]
fn undo_of_a_turn_takes_back_every_batch_of_it() {
    let p = Project::new();
    let state0 = tree(&p.dir);
    let session = p.run();
    let out = p.ok(&["undo", "--turn", "--json"]);
    let record: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(record["op"], "undo");
    assert_eq!(record["steps"].as_array().unwrap().len(), 2, "{record}");
    assert_eq!(tree(&p.dir), state0);
    let last = vcs_records(&session).pop().unwrap().1;
    assert_eq!(last.steps.len(), 2);
    p.ok(&["redo"]);
    assert!(
        tree(&p.dir).contains_key("run.sh"),
        "the redo replays the whole turn"
    );
}

#[test]
fn restore_travels_to_the_state_at_an_earlier_entry_and_is_undoable() {
    let p = Project::new();
    let session = p.run();
    let state2 = tree(&p.dir);
    let records = vcs_records(&session);
    // The state at the first batch's entry: after the edit, before `bash`.
    let entry = records[0].0.to_string();
    p.ok(&["restore", &entry]);
    let at = tree(&p.dir);
    assert_eq!(at["a.txt"].0, b"hello\nthere\n");
    assert!(at.contains_key("gone.txt") && !at.contains_key("b.txt"));
    // By snapshot id too: the tree before the run.
    let before = &records[0].1.before;
    p.ok(&["restore", &before[..12]]);
    assert_eq!(tree(&p.dir)["a.txt"].0, b"hello\nworld\n");
    // A restore is a step: undo takes it back.
    p.ok(&["undo"]);
    assert_eq!(tree(&p.dir), at);
    p.ok(&["undo"]);
    assert_eq!(tree(&p.dir), state2);
}

#[test]
fn git_applies_smiths_diff_and_agrees_on_stat_and_modes_and_reads_the_snapshots() {
    let p = Project::new();
    let state0 = tree(&p.dir);
    let session = p.run();
    let state2 = tree(&p.dir);
    let records = vcs_records(&session);
    let (from, to) = (&records[0].1.before, &records[1].1.after);
    let patch = stdout(&p.ok(&["diff", from, to]));
    assert!(patch.contains("new file mode 100755"), "{patch}");
    assert!(patch.contains("deleted file mode 100644"), "{patch}");

    // A copy of the tree before the run, as a git repository of its own.
    let scratch = p.env.root.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    for (path, (bytes, mode)) in &state0 {
        let file = scratch.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, bytes).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(*mode)).unwrap();
    }
    let id = ["-c", "user.email=ada@example.com", "-c", "user.name=Ada"];
    git(&scratch, &["init", "-q"]);
    git(&scratch, &["add", "."]);
    git(
        &scratch,
        &[id[0], id[1], id[2], id[3], "commit", "-qm", "from"],
    );
    std::fs::write(p.env.root.path().join("smith.patch"), &patch).unwrap();
    git(&scratch, &["apply", "../smith.patch"]);
    assert_eq!(
        tree(&scratch),
        state2,
        "git apply of Smith's diff turns FROM into TO"
    );

    git(&scratch, &["add", "-A"]);
    git(
        &scratch,
        &[id[0], id[1], id[2], id[3], "commit", "-qm", "to"],
    );
    let theirs = stdout(&git(&scratch, &["diff", "--stat=80", "HEAD~1", "HEAD"]));
    let ours = stdout(&p.ok(&["diff", "--stat", from, to]));
    assert_eq!(ours, theirs, "--stat is git's");
    let raw = stdout(&git(&scratch, &["diff", "--raw", "HEAD~1", "HEAD"]));
    let json: serde_json::Value =
        serde_json::from_str(stdout(&p.ok(&["diff", "--json", from, to])).trim()).unwrap();
    for file in json["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let line = raw
            .lines()
            .find(|l| l.ends_with(&format!("\t{path}")))
            .unwrap();
        let modes: Vec<&str> = line.split_whitespace().take(2).collect();
        let old = file["old_mode"].as_str().unwrap_or("000000");
        let new = file["new_mode"].as_str().unwrap_or("000000");
        assert_eq!(modes, [format!(":{old}").as_str(), new], "{path}: {line}");
    }

    // The snapshots are ordinary git objects in Smith's own repository.
    let vcs = p.env.home().join("vcs");
    let repo = std::fs::read_dir(&vcs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let repo = repo.to_str().unwrap();
    git(&p.dir, &["--git-dir", repo, "fsck", "--no-dangling"]);
    let kind = stdout(&git(&p.dir, &["--git-dir", repo, "cat-file", "-t", to]));
    assert_eq!(kind.trim(), "commit");
    let listing = stdout(&git(&p.dir, &["--git-dir", repo, "ls-tree", "-r", to]));
    assert!(
        listing.contains("100755 blob") && listing.contains("run.sh"),
        "{listing}"
    );
}

#[test]
fn undo_works_from_a_subdirectory_of_the_project() {
    let p = Project::new();
    let state0 = tree(&p.dir);
    p.run();
    let sub = p.dir.join("sub");
    assert!(sub.is_dir(), "the script made it");
    let out = p
        .env
        .command(&["undo", "--turn"])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tree(&p.dir), state0);
}

#[test]
fn a_batch_aborted_while_its_program_runs_is_still_undoable() {
    let p = Project::new();
    let before = tree(&p.dir);
    // The program changes a file, says so, and then runs until it is stopped.
    let script = p.env.write(
        "aborted.kdl",
        r##"round {
  tool-call id="c1" name="bash" arguments=#"{"command": "printf changed > a.txt && touch started && exec sleep 600"}"#
  stop "tool_use"
}
round {
  text "never reached"
  stop "end_turn"
}
"##,
    );
    let child = p
        .env
        .command(&[
            "--allow-process",
            "eval",
            "-m",
            "scripted/aborted",
            "--script",
            script.to_str().unwrap(),
            "change and wait",
        ])
        .current_dir(&p.dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    smith_testkit::wait_until("the program changing the file", || {
        p.dir.join("started").exists()
    });
    // Ctrl-C: the run is aborted (recorded) and the program stopped.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !said.contains("undo cannot take this run's changes back"),
        "{said}"
    );
    assert_eq!(std::fs::read(p.dir.join("a.txt")).unwrap(), b"changed");
    let session = p.env.session_files().remove(0);
    let records = vcs_records(&session);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].1.calls, vec!["c1".to_owned()]);

    p.ok(&["undo"]);
    assert_eq!(
        tree(&p.dir),
        before,
        "undo takes back what the aborted batch changed"
    );
}
