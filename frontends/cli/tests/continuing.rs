//! Continuing sessions with the built binary: `--continue` and `--session last` pick this
//! directory's latest session, a continued session runs the model it last recorded (said on
//! stderr) unless a flag or setting selects one, `--session-id` makes a first prompt
//! retry-safe, and `sessions list` shows titles, directories and models (`--here`).

mod common;

use common::{Env, records, stderr, stdout};
use smith_store::{Record, read_session};

fn submissions(path: &std::path::Path) -> Vec<smith_store::Submission> {
    read_session(path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Submission(s) => Some(s),
            _ => None,
        })
        .collect()
}

#[test]
fn continue_picks_this_directorys_latest_session_and_its_recorded_model() {
    let env = Env::new();
    let here = env.root.path().join("here");
    let elsewhere = env.root.path().join("elsewhere");
    std::fs::create_dir(&here).unwrap();
    std::fs::create_dir(&elsewhere).unwrap();
    let run_in =
        |dir: &std::path::Path, args: &[&str]| env.command(args).current_dir(dir).output().unwrap();

    // Nothing to continue yet: said, with the fix, and nothing is written.
    let out = run_in(&here, &["eval", "--continue", "hello"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no session in")
            && stderr(&out).contains("was started in this directory"),
        "{}",
        stderr(&out)
    );
    assert!(env.session_files().is_empty());

    let first = run_in(
        &here,
        &["eval", "-m", "scripted/tool-call", "first prompt here"],
    );
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    // A later session elsewhere is not this directory's.
    let other = run_in(&elsewhere, &["eval", "-m", "scripted/demo", "other place"]);
    assert_eq!(other.status.code(), Some(0), "{}", stderr(&other));
    let files = env.session_files();
    assert_eq!(files.len(), 2);
    let mine = files
        .iter()
        .find(|p| submissions(p)[0].input == "first prompt here")
        .unwrap()
        .clone();
    let id = mine.file_stem().unwrap().to_str().unwrap().to_owned();

    // No -m, no setting: the recorded model, and stderr says so.
    let out = run_in(&here, &["eval", "--continue", "second"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "continuing session {id} with scripted/tool-call, the model it last recorded"
        )),
        "{}",
        stderr(&out)
    );
    let subs = submissions(&mine);
    assert_eq!(subs.len(), 2);
    assert_eq!(subs[1].model.to_string(), "scripted/tool-call");
    assert_eq!(env.session_files().len(), 2, "no new session");

    // `--session last` is the same; a setting wins over the recorded model (and no note).
    let out = env
        .command(&["eval", "--session", "last", "third"])
        .current_dir(&here)
        .env("SMITH_MODEL", "scripted/demo")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("last recorded"), "{}", stderr(&out));
    let subs = submissions(&mine);
    assert_eq!(subs.len(), 3);
    assert_eq!(subs[2].model.to_string(), "scripted/demo");

    // `--session ID` without -m continues with the model that session last recorded.
    let out = run_in(&elsewhere, &["eval", "--session", &id, "fourth"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(submissions(&mine)[3].model.to_string(), "scripted/demo");
}

#[test]
fn a_caller_named_session_makes_the_first_prompt_retry_safe() {
    let env = Env::new();
    let id = "0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";
    let args = [
        "eval",
        "--json",
        "--session-id",
        id,
        "--dedup-key",
        "first",
        "-m",
        "scripted/demo",
        "Hello",
    ];
    let once = env.run(&args);
    assert_eq!(once.status.code(), Some(0), "{}", stderr(&once));
    let first = records(&once);
    assert_eq!(first[0]["session"], id);
    let path = env.sessions().join(format!("{id}.smith"));
    assert_eq!(submissions(&path).len(), 1);
    // The retry (a lost answer, a crash) is the same admission: nothing runs again.
    let again = env.run(&args);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let receipt = records(&again)
        .into_iter()
        .find(|r| r["type"] == "receipt")
        .unwrap();
    assert_eq!(receipt["deduplicated"], true, "{receipt}");
    assert_eq!(submissions(&path).len(), 1);
    assert_eq!(env.session_files().len(), 1);

    // Not a UUID: refused before anything is written, naming the value.
    let out = env.run(&["eval", "--session-id", "nope", "-m", "scripted/demo", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`nope` is not a session id"),
        "{}",
        stderr(&out)
    );
    // A dedup key needs a session to be unique in.
    let out = env.run(&["eval", "--dedup-key", "k", "-m", "scripted/demo", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(env.session_files().len(), 1);
}

#[test]
fn sessions_list_shows_title_directory_and_model_and_filters_by_directory() {
    let env = Env::new();
    let here = env.root.path().join("proj");
    std::fs::create_dir(&here).unwrap();
    // None yet: stdout stays empty, and stderr says so.
    let out = env.run(&["sessions", "list"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("no sessions in"), "{}", stderr(&out));
    let long = format!("Explain the layout {}\nsecond line", "x".repeat(100));
    let out = env
        .command(&["eval", "-m", "scripted/demo", &long])
        .current_dir(&here)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&["eval", "-m", "scripted/tool-call", "from the root"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let json = records(&env.run(&["sessions", "list", "--json"]));
    assert_eq!(json.len(), 2);
    let proj = json
        .iter()
        .find(|r| r["cwd"] == here.to_str().unwrap())
        .unwrap();
    let title = proj["title"].as_str().unwrap();
    assert!(
        title.starts_with("Explain the layout xxx") && title.ends_with('…'),
        "{title}"
    );
    assert_eq!(title.chars().count(), 72);
    assert_eq!(proj["last_model"], "scripted/demo");
    assert!(proj["modified_ms"].as_u64().unwrap() > 0);

    // A session file's path names its session as its id does.
    let path = env
        .session_files()
        .into_iter()
        .find(|p| {
            let out = env.run(&["sessions", "get", p.to_str().unwrap(), "--json"]);
            stdout(&out).contains("from the root")
        })
        .expect("the path of a session file names it");
    let out = env.run(&["eval", "--session", path.to_str().unwrap(), "again"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let text = stdout(&env.run(&["sessions", "list"]));
    assert!(
        text.contains("scripted/tool-call") && text.contains("\"from the root\""),
        "{text}"
    );
    let mine = env
        .command(&["sessions", "list", "--here"])
        .current_dir(&here)
        .output()
        .unwrap();
    let mine = stdout(&mine);
    assert_eq!(mine.lines().count(), 1, "{mine}");
    assert!(
        mine.contains("Explain the layout") && !mine.contains("from the root"),
        "{mine}"
    );
}

/// `last` is the session most recently written in this directory, not the latest started:
/// after A then B are created and A is written again, every command that takes a session
/// (`sessions get`, `replay`, `undo`, `eval --session`) means A by `last`. With no session
/// here, `undo` (which defaults to `last`) says so without naming a flag that was not given.
#[test]
fn last_is_the_session_most_recently_written_for_every_command() {
    let env = Env::new();
    let out = env.run(&["undo"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no session in") && !stderr(&out).contains("--session"),
        "{}",
        stderr(&out)
    );

    let a = env.run(&["eval", "-m", "scripted/demo", "alpha"]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let a_file = env.session_files().remove(0);
    let a_id = a_file.file_stem().unwrap().to_str().unwrap().to_owned();
    let b = env.run(&["eval", "-m", "scripted/demo", "beta"]);
    assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
    let again = env.run(&[
        "eval",
        "--session",
        &a_id,
        "-m",
        "scripted/demo",
        "alpha again",
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));

    let got = env.run(&["sessions", "get", "last"]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    assert!(stdout(&got).contains("alpha again"), "{}", stdout(&got));
    let replayed = env.run(&["replay", "--json"]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert!(stdout(&replayed).contains(&a_id), "{}", stdout(&replayed));
    assert!(!stdout(&replayed).contains("beta"), "{}", stdout(&replayed));
    let next = env.run(&["eval", "--session", "last", "-m", "scripted/demo", "gamma"]);
    assert_eq!(next.status.code(), Some(0), "{}", stderr(&next));
    let inputs: Vec<String> = submissions(&a_file).into_iter().map(|s| s.input).collect();
    assert_eq!(inputs, ["alpha", "alpha again", "gamma"]);
}
