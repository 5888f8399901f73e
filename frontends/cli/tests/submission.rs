//! Submissions, receipts and deduplication keys through the built binary (spec: Sessions →
//! Submission and receipts): admission is durable before any work; a repeated key recovers
//! the original submission across restarts; a conflicting reuse creates no work.

mod common;

use common::{Env, records, stderr};
use smith_store::{Record, read_session};

/// Run eval `--json` with `args` (before the prompt) and `prompt`; the output.
fn eval(env: &Env, args: &[&str], prompt: &str) -> std::process::Output {
    let mut all = vec!["eval", "--json"];
    all.extend_from_slice(args);
    all.push(prompt);
    env.run(&all)
}

fn entry_count(path: &std::path::Path) -> usize {
    read_session(path).unwrap().entries.len()
}

#[test]
fn a_repeated_key_returns_the_original_submission_across_restarts_without_running() {
    let env = Env::new();
    let (id, path) = env.demo_session();

    let keyed = [
        "-m",
        "scripted/demo",
        "--session",
        &id,
        "--dedup-key",
        "job-7",
    ];
    let first = eval(&env, &keyed, "do the thing");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let recs = records(&first);
    let receipt = recs.iter().find(|r| r["type"] == "receipt").unwrap();
    assert_eq!(receipt["deduplicated"], false);
    assert_eq!(receipt["state"], "admitted");
    assert_eq!(receipt["dedup_key"], "job-7");
    let submission = receipt["submission"].as_u64().unwrap();
    let answer = recs
        .iter()
        .find(|r| r["type"] == "message_end" && r["message"]["role"] == "assistant")
        .unwrap()
        .clone();
    let entries = read_session(&path).unwrap().entries;
    let admitted = entries.iter().find(|e| e.id.0 == submission).unwrap();
    let Record::Submission(s) = &admitted.record else {
        panic!("the receipt names the submission entry: {admitted:?}")
    };
    assert_eq!(
        (s.dedup_key.as_deref(), s.input.as_str()),
        (Some("job-7"), "do the thing")
    );
    let end = entries.last().unwrap();
    assert!(matches!(end.record, Record::RunEnd(_)));
    assert_eq!(
        end.pair,
        Some(admitted.id),
        "the run's end is the terminal receipt"
    );
    let count = entry_count(&path);

    // A new process (a restart) with the same key and content: the original, nothing run.
    let again = eval(&env, &keyed, "do the thing");
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let recs = records(&again);
    let kinds: Vec<&str> = recs.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "run_start",
            "receipt",
            "message_start",
            "message_delta",
            "message_delta",
            "message_end",
            "run_end"
        ]
    );
    assert_eq!(recs[1]["deduplicated"], true);
    assert_eq!(recs[1]["submission"], submission);
    assert_eq!(recs[1]["state"], "terminal");
    assert_eq!(recs[1]["stop_reason"], "end_turn");
    assert_eq!(recs[5]["message"], answer["message"]);
    assert_eq!(recs[5]["message_id"], answer["message_id"]);
    assert_eq!(recs[5]["stop_reason"], answer["stop_reason"]);
    assert_eq!(recs[5]["usage"], answer["usage"]);
    assert_eq!(entry_count(&path), count, "nothing was written");

    // The plain form prints the recorded answer and says nothing ran.
    let plain = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &id,
        "--dedup-key",
        "job-7",
        "do the thing",
    ]);
    assert_eq!(plain.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&plain.stdout).contains("You said: do the thing"));
    assert!(
        stderr(&plain).contains("nothing was run"),
        "{}",
        stderr(&plain)
    );
    assert_eq!(entry_count(&path), count);

    // The receipts are listed from the file alone, one per submission.
    let listed = records(&env.run(&["sessions", "receipts", &id, "--json"]));
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[1]["submission"], submission);
    assert_eq!(listed[1]["dedup_key"], "job-7");
    assert_eq!(listed[1]["state"], "terminal");
    assert_eq!(listed[1]["stop_reason"], "end_turn");
    assert_eq!(listed[1]["answer"], answer["message_id"]);
    let text = String::from_utf8(env.run(&["sessions", "receipts", &id]).stdout).unwrap();
    assert!(text.contains("key job-7: end_turn at #"), "{text}");
}

#[test]
fn a_conflicting_reuse_of_a_key_fails_and_creates_no_work() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let keyed =
        |model: &'static str| vec!["-m", model, "--session", id.as_str(), "--dedup-key", "k"];
    let first = eval(&env, &keyed("scripted/demo"), "one");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let count = entry_count(&path);
    for (model, prompt) in [("scripted/demo", "two"), ("scripted/tool-call", "one")] {
        let out = eval(&env, &keyed(model), prompt);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{model} {prompt}: {}",
            stderr(&out)
        );
        let err = stderr(&out);
        assert!(
            err.contains("`k`") && err.contains("different content") && err.contains("new key"),
            "{err}"
        );
        // Refused input runs nothing: the one record is the error, with the same words.
        let records = String::from_utf8(out.stdout.clone()).unwrap();
        let lines: Vec<serde_json::Value> = records
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{records}");
        assert_eq!(lines[0]["type"], "error");
        assert_eq!(lines[0]["status"], 2);
        assert!(
            lines[0]["message"]
                .as_str()
                .unwrap()
                .contains("different content"),
            "{records}"
        );
        assert_eq!(entry_count(&path), count, "no new work");
    }
    // Bad keys and a key without a session are usage errors.
    let out = eval(
        &env,
        &["-m", "scripted/demo", "--session", &id, "--dedup-key", ""],
        "x",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = eval(&env, &["-m", "scripted/demo", "--dedup-key", "k"], "x");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--session"), "{}", stderr(&out));
    let out = eval(
        &env,
        &["-m", "scripted/demo", "--no-session", "--dedup-key", "k"],
        "x",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a temporary store cannot remember a key"
    );
    assert_eq!(entry_count(&path), count);
}

#[cfg(unix)]
#[test]
fn work_killed_mid_run_settles_as_aborted_and_its_key_recovers_that_receipt() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    // A script that waits at a gate inside the provider round: the work is admitted, then the
    // process is killed.
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"partial\"\n  gate \"hold\"\n  text \"never\"\n  stop \"end_turn\"\n}\n",
    );
    let keyed = [
        "-m",
        "scripted/gated",
        "--script",
        script.to_str().unwrap(),
        "--session",
        &id,
        "--dedup-key",
        "crash-1",
    ];
    let mut args = vec!["eval", "--json"];
    args.extend_from_slice(&keyed);
    args.push("long job");
    let mut child = env
        .command(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    common::wait_for(&env.root.path().join("hold.waiting"));
    child.kill().unwrap();
    child.wait().unwrap();
    let submission = read_session(&path)
        .unwrap()
        .entries
        .iter()
        .find(|e| matches!(&e.record, Record::Submission(s) if s.dedup_key.as_deref() == Some("crash-1")))
        .map(|e| e.id)
        .expect("the submission was durable before the work ran");

    // The repeat after the crash: the same submission, settled as aborted by recovery, and
    // not run again.
    let again = eval(&env, &keyed, "long job");
    assert_eq!(
        again.status.code(),
        Some(1),
        "the original work was interrupted: {}",
        stderr(&again)
    );
    let recs = records(&again);
    let receipt = recs.iter().find(|r| r["type"] == "receipt").unwrap();
    assert_eq!(receipt["deduplicated"], true);
    assert_eq!(receipt["submission"], submission.0);
    assert_eq!(receipt["state"], "terminal");
    assert_eq!(receipt["stop_reason"], "aborted");
    let entries = read_session(&path).unwrap().entries;
    let ends: Vec<_> = entries
        .iter()
        .filter(|e| matches!(e.record, Record::RunEnd(_)) && e.pair == Some(submission))
        .collect();
    assert_eq!(ends.len(), 1, "exactly one terminal receipt");
    assert!(
        !entries
            .iter()
            .any(|e| matches!(&e.record, Record::Message(m) if m.message.text().contains("never"))),
        "the interrupted work was not re-run"
    );
}

#[test]
fn a_fork_does_not_inherit_its_sources_keys() {
    let env = Env::new();
    let (id, _) = env.demo_session();
    let keyed = |session: &str| {
        vec![
            "-m",
            "scripted/demo",
            "--session",
            session,
            "--dedup-key",
            "shared",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    let args = keyed(&id);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(eval(&env, &args, "same").status.code(), Some(0));
    let fork = env.run(&["sessions", "fork", &id]);
    assert_eq!(fork.status.code(), Some(0), "{}", stderr(&fork));
    let fork_id = String::from_utf8(fork.stdout).unwrap().trim().to_owned();
    // The fork holds the source's keyed submission, attributed to the source: the same key in
    // the fork is new work of the fork's own.
    let args = keyed(&fork_id);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = eval(&env, &args, "same");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let receipt = records(&out)
        .into_iter()
        .find(|r| r["type"] == "receipt")
        .unwrap();
    assert_eq!(receipt["deduplicated"], false, "{receipt}");
    // …and the source still deduplicates its own.
    let args = keyed(&id);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = records(&eval(&env, &args, "same"));
    assert_eq!(again[1]["deduplicated"], true);
}

#[test]
fn a_fork_taken_inside_an_admission_settles_the_cut_off_submission() {
    let env = Env::new();
    let (id, _) = env.demo_session();
    let out = eval(
        &env,
        &["-m", "scripted/demo", "--session", &id, "--dedup-key", "fk"],
        "pA",
    );
    let submission = records(&out)
        .into_iter()
        .find(|r| r["type"] == "receipt")
        .unwrap()["submission"]
        .as_u64()
        .unwrap();
    // Fork at the submission itself: the user message it delivered stays behind.
    let fork = env.run(&["sessions", "fork", &id, "--at", &submission.to_string()]);
    assert_eq!(fork.status.code(), Some(0), "{}", stderr(&fork));
    let fork_id = String::from_utf8(fork.stdout).unwrap().trim().to_owned();
    let out = eval(
        &env,
        &["-m", "scripted/demo", "--session", &fork_id],
        "next",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path = env.sessions().join(format!("{fork_id}.smith"));
    let entries = read_session(&path).unwrap().entries;
    let ends: Vec<_> = entries
        .iter()
        .filter(|e| {
            matches!(e.record, Record::RunEnd(_)) && e.pair.map(|p| p.0) == Some(submission)
        })
        .collect();
    assert_eq!(
        ends.len(),
        1,
        "the cut-off submission has its terminal receipt: {entries:?}"
    );
}
