//! Reconciling an effect whose outcome is unknown (spec: Durable effect boundary — "Unknown →
//! Reconciled: explicit reconciliation"), with the built binary: a process killed inside a
//! `read` leaves an unknown effect that `smith effects` lists with its evidence; a verdict is
//! recorded beside the original completion (which stays), shown by `effects`, `sessions get`
//! and replay; and each bad request is refused with nothing written.
#![cfg(unix)]

mod common;

use common::{Env, records, stderr, stdout};
use smith_store::{EffectOutcome, Record, read_session};

#[test]
fn an_unknown_effect_is_listed_reconciled_and_replayed() {
    let env = Env::new();
    let (session, path) = env.session_killed_mid_effect();

    let listed = env.run(&["effects", &session, "--json"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    let effects = records(&listed);
    assert_eq!(effects.len(), 1, "{effects:?}");
    let effect = effects[0]["effect_id"].as_str().unwrap().to_owned();
    assert_eq!(effects[0]["effect"], "fs.read");
    assert_eq!(effects[0]["verdict"], serde_json::Value::Null);
    // Not opened since the kill: no completion yet.
    assert_eq!(effects[0]["completion"], serde_json::Value::Null);

    let out = env.run(&[
        "effects",
        "reconcile",
        &session,
        &effect,
        "not-applied",
        "--note",
        "the pipe was never written to",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("effect {effect} (fs.read "))
            && stdout(&out).contains("reconciled as not-applied"),
        "{}",
        stdout(&out)
    );

    // On disk: the completion recovery wrote (unknown, its evidence) stays, and the verdict
    // pairs with it.
    let entries = read_session(&path).unwrap().entries;
    let completion = entries
        .iter()
        .find(|e| matches!(&e.record, Record::EffectCompletion(c) if c.effect_id == effect))
        .unwrap();
    let Record::EffectCompletion(c) = &completion.record else {
        unreachable!()
    };
    assert_eq!(c.outcome, EffectOutcome::Unknown);
    let verdicts: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectVerdict(v) => Some((e.pair, v.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0].0, Some(completion.id));
    assert_eq!(verdicts[0].1.outcome, EffectOutcome::NotApplied);
    assert_eq!(verdicts[0].1.note, "the pipe was never written to");

    let listed = stdout(&env.run(&["effects", &session]));
    assert!(
        listed.contains("verdict: not-applied at ")
            && listed.contains("the pipe was never written to"),
        "{listed}"
    );
    assert!(
        listed.contains("\n  asked: {\"path\":\"pipe\","),
        "what it was asked: {listed}"
    );
    let got = stdout(&env.run(&["sessions", "get", &session]));
    assert!(
        got.contains(&format!("verdict on effect {effect}: not-applied")),
        "{got}"
    );
    let replay = env.run(&["replay", &session]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    let shown = format!("{}{}", stdout(&replay), stderr(&replay));
    assert!(
        shown.contains(&format!(
            "effect {effect} reconciled: it did not happen (not applied)"
        )),
        "{shown}"
    );

    // A second verdict replaces the first, and says so; a note's line break stays on its
    // line wherever it is shown.
    let again = env.run(&[
        "effects",
        "reconcile",
        &session,
        &effect,
        "applied",
        "--note",
        "read it after all\n  verdict: forged",
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("replaces the earlier one (not-applied"),
        "{}",
        stderr(&again)
    );
    let effects = records(&env.run(&["effects", &session, "--json"]));
    assert_eq!(effects[0]["verdict"]["outcome"], "applied");
    let listed = stdout(&env.run(&["effects", &session]));
    assert!(listed.contains("read it after all ⏎ "), "{listed}");
    assert_eq!(
        listed
            .lines()
            .filter(|l| l.starts_with("  verdict:"))
            .count(),
        1,
        "the note cannot start a line of its own: {listed}"
    );

    // Re-execution compares against the verdict: the call, never run again while its
    // outcome was unknown, now runs (the pipe is a plain file by now) and is compared.
    let pipe = env.root.path().join("pipe");
    std::fs::remove_file(&pipe).unwrap();
    std::fs::write(&pipe, "written at last\n").unwrap();
    let rerun = env.run(&[
        "replay",
        &session,
        "--execute",
        "--in",
        env.root.path().to_str().unwrap(),
    ]);
    let text = stdout(&rerun);
    // Run, and compared with the verdict's outcome: the outcomes agree, the output differs
    // (what was recorded is the recovery's note).
    assert!(
        text.contains("fs.read pipe: DIFFERENT"),
        "{text}{}",
        stderr(&rerun)
    );
    assert!(text.contains("   \"outcome\": \"applied\","), "{text}");
    assert!(!text.contains("-  \"outcome\""), "{text}");
}

#[test]
fn bad_reconciliations_are_refused_and_write_nothing() {
    let env = Env::new();
    let (session, path) = env.session_killed_mid_effect();
    let effect = records(&env.run(&["effects", &session, "--json"]))[0]["effect_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let refused = |args: &[&str], status: i32, says: &str| {
        let before = std::fs::read(&path).unwrap();
        let out = env.run(args);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read(&path).unwrap(), before, "{args:?} wrote");
    };
    refused(
        &[
            "effects",
            "reconcile",
            &session,
            "no-such-effect",
            "applied",
        ],
        2,
        &format!("has no effect `no-such-effect`; its unknown effects: {effect}"),
    );
    refused(
        &["effects", "reconcile", &session, &effect, "unknown"],
        2,
        "invalid value 'unknown'",
    );
    let long = "x".repeat(5000);
    refused(
        &[
            "effects",
            "reconcile",
            &session,
            &effect,
            "applied",
            "--note",
            &long,
        ],
        2,
        "the note is 5000 bytes, over the bound of 4096",
    );
    // Another process writes the session: the OS lock a writer holds.
    let writer = std::fs::File::open(&path).unwrap();
    writer.try_lock().unwrap();
    refused(
        &["effects", "reconcile", &session, &effect, "applied"],
        4,
        "another Smith process is writing it; reconcile once that process has finished",
    );
    drop(writer);

    // An effect whose outcome is known takes no verdict.
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "hello\n").unwrap();
    let script = env.write(
        "read.kdl",
        "round {\n  tool-call id=\"r1\" name=\"read\" arguments=#\"{\"path\": \"notes.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"ok\"\n  stop \"end_turn\"\n}\n",
    );
    let run = env
        .command(&[
            "eval",
            "-m",
            "scripted/read",
            "--script",
            script.to_str().unwrap(),
            "read",
        ])
        .current_dir(&work)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let other = env
        .session_files()
        .into_iter()
        .find(|p| *p != path)
        .unwrap();
    let other_id = other.file_stem().unwrap().to_string_lossy().into_owned();
    let applied = read_session(&other)
        .unwrap()
        .entries
        .into_iter()
        .find_map(|e| match e.record {
            Record::EffectCompletion(c) if c.outcome == EffectOutcome::Applied => Some(c.effect_id),
            _ => None,
        })
        .expect("the read recorded an applied effect");
    let before = std::fs::read(&other).unwrap();
    let out = env.run(&["effects", "reconcile", &other_id, &applied, "not-applied"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ended `applied`, not unknown"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&other).unwrap(), before);
    let none = env.run(&["effects", &other_id]);
    assert!(
        stderr(&none).contains("has no effect of unknown outcome"),
        "{}",
        stderr(&none)
    );
}

#[test]
fn reopening_after_the_crash_says_which_effects_ended_unknown_and_where_to_look() {
    let env = Env::new();
    let (session, _) = env.session_killed_mid_effect();
    let out = env.run(&[
        "eval",
        "--session",
        &session,
        "-m",
        "scripted/demo",
        "what happened?",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "session {session}: an earlier process ended in the middle of 1 effect, so its outcome is unknown (c1/1); it is never run again — `smith effects {session}` lists them"
        )),
        "{}",
        stderr(&out)
    );
    // Said once: the next opening has nothing new to recover.
    let again = env.run(&[
        "eval",
        "--session",
        &session,
        "-m",
        "scripted/demo",
        "and now?",
    ]);
    assert!(
        !stderr(&again).contains("unknown outcome"),
        "{}",
        stderr(&again)
    );
}

/// A verdict counts when the turn is settled rather than continued (issue 68): new input
/// settles it, and the cut-off call's result says what the person found — not "unknown".
#[test]
fn settling_after_a_verdict_answers_the_call_with_it() {
    let env = Env::new();
    let (session, path) = env.session_killed_mid_effect();
    let listed = env.run(&["effects", &session, "--json"]);
    let effect = records(&listed)[0]["effect_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = env.run(&[
        "effects",
        "reconcile",
        &session,
        &effect,
        "applied",
        "--note",
        "it was read",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&["eval", "--session", &session, "-m", "scripted/demo", "next"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("settled as aborted"),
        "{}",
        stderr(&out)
    );
    let results: Vec<String> = read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::ToolResult(r) => Some(r.result.output),
            _ => None,
        })
        .collect();
    assert!(
        results
            .iter()
            .any(|r| r.contains("a person found it applied (it was read)")),
        "{results:?}"
    );
}
