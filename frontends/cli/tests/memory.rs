//! Memory accounting through the built binary (issue 72; spec: Performance and portability →
//! Memory accounting): a turn's figures in its `run_end` record, its end event and `sessions
//! get --usage`; a turn ceiling set low is crossed, warned, recorded, and the turn completes;
//! `SMITH_MEMORY_REPORT` writes the scope table at exit, and a file that cannot be written is
//! a warning that leaves the run alone; a ceiling that is zero or not a number is refused
//! naming its key.

mod common;

use common::{Env, records, stderr, stdout};
use smith_store::{Record, read_session};

/// The `run_end` records of the only session of `env`.
fn run_ends(env: &Env) -> Vec<smith_store::RunEnd> {
    let files = env.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    read_session(&files[0])
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::RunEnd(r) => Some(r),
            _ => None,
        })
        .collect()
}

#[test]
fn a_turn_past_its_ceiling_is_warned_recorded_and_completes() {
    let env = Env::new();
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/demo",
        "-c",
        "memory.ceiling.turn=4096",
        "hello",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = records(&out);
    let end = records.last().expect("a run_end");
    assert_eq!(end["type"], "run_end");
    assert_eq!(end["stop_reason"], "end_turn", "the turn completed");
    let memory = &end["memory"];
    assert_eq!(memory["ceiling_bytes"], 4096);
    assert_eq!(memory["ceiling_crossed"], true);
    assert!(
        memory["peak_live_bytes"].as_u64().unwrap() > 4096,
        "{memory}"
    );
    assert!(memory["allocations"].as_u64().unwrap() > 0, "{memory}");
    let warning = records
        .iter()
        .find(|r| r["type"] == "notice" && r["level"] == "warning")
        .expect("a warning notice");
    assert!(
        warning["text"]
            .as_str()
            .unwrap()
            .contains("memory.ceiling.turn"),
        "{warning}"
    );
    let recorded = run_ends(&env);
    let figures = recorded[0].memory.expect("the run_end records the figures");
    assert!(figures.ceiling_crossed);
    assert_eq!(figures.allocations, memory["allocations"].as_u64().unwrap());
    let usage = env.run(&["sessions", "get", "last", "--usage"]);
    let text = stdout(&usage);
    assert!(
        text.contains(&format!("{} allocations", figures.allocations))
            && text.contains("past the ceiling of 4.0 KiB"),
        "{text}"
    );
}

#[test]
fn a_turn_under_no_ceiling_records_its_figures_and_no_warning() {
    let env = Env::new();
    let out = env.run(&["eval", "--json", "-m", "scripted/demo", "hello"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = records(&out);
    assert!(
        !records
            .iter()
            .any(|r| r["type"] == "notice" && r["level"] == "warning")
    );
    let memory = &records.last().unwrap()["memory"];
    assert!(memory.get("ceiling_crossed").is_none(), "{memory}");
    let figures = run_ends(&env)[0].memory.expect("figures recorded");
    assert!(figures.peak_live_bytes >= figures.live_bytes);
    assert!(figures.allocated_bytes >= figures.peak_live_bytes);
}

#[test]
fn the_report_is_written_at_exit_and_an_unwritable_one_is_only_a_warning() {
    let env = Env::new();
    let report = env.tmp().join("memory.txt");
    let out = env
        .command(&["eval", "-m", "scripted/demo", "hello"])
        .env("SMITH_MEMORY_REPORT", &report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let table = std::fs::read_to_string(&report).unwrap();
    for kind in [
        "process",
        "session",
        "turn",
        "kernel-call",
        "frame",
        "io-request",
    ] {
        assert!(table.contains(kind), "{table}");
    }
    assert!(!table.contains("not installed"), "{table}");

    let unwritable = env.tmp().join("no-such-directory/memory.txt");
    let out = env
        .command(&["eval", "-m", "scripted/demo", "hello"])
        .env("SMITH_MEMORY_REPORT", &unwritable)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the run is unaffected: {}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("You said: hello"));
    let err = stderr(&out);
    assert!(
        err.contains("memory report could not be written")
            && err.contains("no-such-directory/memory.txt")
            && err.contains("SMITH_MEMORY_REPORT"),
        "{err}"
    );
}

#[test]
fn a_ceiling_that_is_zero_or_not_a_number_is_refused_naming_its_key() {
    let env = Env::new();
    for value in ["0", "lots", "-5"] {
        let out = env.run(&[
            "eval",
            "-m",
            "scripted/demo",
            "-c",
            &format!("memory.ceiling.kernel-call={value}"),
            "hello",
        ]);
        assert!(!out.status.success(), "{value} was taken");
        let err = stderr(&out);
        assert!(
            err.contains("memory.ceiling.kernel-call") && err.contains(value),
            "{value}: {err}"
        );
    }
    assert!(env.session_files().is_empty(), "nothing ran");
}
