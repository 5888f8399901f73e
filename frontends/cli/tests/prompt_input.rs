//! Where eval's prompt comes from, with the built binary: stdin when no prompt is given and
//! stdin is not a terminal; an argument never reads stdin (an inherited pipe that never
//! closes cannot hang the run) unless `--stdin` appends it as a fenced block; `@path`
//! attaches a file, recorded with its path, size and SHA-256 in the admitted submission.

mod common;

use std::process::Stdio;

use common::{Env, records, stderr, stdout};
use sha2::Digest;
use smith_store::{Record, read_session};

/// The first submission of the session written last.
fn submission(env: &Env) -> smith_store::Submission {
    let mut files = env.session_files();
    files.sort_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap());
    let path = files.pop().unwrap();
    read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .find_map(|e| match e.record {
            Record::Submission(s) => Some(s),
            _ => None,
        })
        .unwrap()
}

#[test]
fn without_a_prompt_argument_stdin_is_the_prompt() {
    let env = Env::new();
    let out = env.run_with_stdin(&["eval", "-m", "scripted/demo"], "hello from a pipe\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("hello from a pipe"),
        "{}",
        stdout(&out)
    );
    assert_eq!(submission(&env).input, "hello from a pipe\n");
    // An empty pipe is an empty prompt: refused, with the fix.
    let out = env.run_with_stdin(&["eval", "-m", "scripted/demo"], "  \n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the prompt read from stdin is empty"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_prompt_argument_never_waits_for_an_open_stdin_and_stdin_appends_only_when_asked() {
    let env = Env::new();
    // stdin stays open and silent for the whole run: the run must not read it.
    let mut child = env
        .command(&["eval", "-m", "scripted/demo", "just this"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let held = child.stdin.take().unwrap();
    let mut status = None;
    smith_testkit::wait_until("eval with an open stdin to finish", || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    drop(held);
    assert_eq!(status.unwrap().code(), Some(0));
    assert_eq!(submission(&env).input, "just this");

    let env = Env::new();
    let out = env.run_with_stdin(
        &["eval", "-m", "scripted/demo", "--stdin", "review this"],
        "diff --git a/x b/x\n+``` fenced\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        submission(&env).input,
        "review this\n\n````\ndiff --git a/x b/x\n+``` fenced\n````"
    );
    // --stdin needs a prompt to append to, and `-` already reads stdin.
    for args in [
        &["eval", "-m", "scripted/demo", "--stdin"][..],
        &["eval", "-m", "scripted/demo", "--stdin", "-"],
    ] {
        let out = env.run_with_stdin(args, "x");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("--stdin"), "{}", stderr(&out));
    }
}

#[test]
fn at_path_attaches_a_file_recorded_with_its_hash() {
    let env = Env::new();
    let notes = "line one\nline two\n";
    std::fs::write(env.root.path().join("notes.md"), notes).unwrap();
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/demo",
        "summarise @notes.md, please",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let s = submission(&env);
    let sha: String = sha2::Sha256::digest(notes.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(s.attachments.len(), 1);
    assert_eq!(s.attachments[0].path, "notes.md");
    assert_eq!(s.attachments[0].bytes, notes.len() as u64);
    assert_eq!(s.attachments[0].sha256, sha);
    assert!(
        s.input
            .starts_with("summarise @notes.md, please\n\n`notes.md` (18 bytes, sha256 ")
            && s.input.contains("```\nline one\nline two\n```"),
        "{}",
        s.input
    );
    // The model saw the content: the demo script echoes the prompt.
    let end = records(&out)
        .into_iter()
        .find(|r| r["type"] == "message_end" && r["message"]["role"] == "assistant")
        .unwrap();
    assert!(end.to_string().contains("line two"), "{end}");

    // A mention of nothing refuses the prompt, names the fix, and writes no session.
    let before = env.session_files().len();
    let out = env.run(&["eval", "-m", "scripted/demo", "read @nope.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`@nope.txt` names no file in the working directory")
            && stderr(&out).contains("`@@nope.txt`"),
        "{}",
        stderr(&out)
    );
    let out = env.run(&["eval", "-m", "scripted/demo", "read @../outside"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is outside the working directory"),
        "{}",
        stderr(&out)
    );
    assert_eq!(env.session_files().len(), before);
    // `@@` is a literal `@`, and an address is text.
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "mail me@example.com about @@home",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(submission(&env).input, "mail me@example.com about @home");
}
