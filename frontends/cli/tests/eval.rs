//! `smith eval` end to end against the built binary (spec SMH-SPEC-SPEC0001: Interface modes →
//! Eval, Diagnostics; the exit statuses of `docs/exit-status.md`).

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

use common::{Env, records, stderr, stdout, wait_for};
use smith_store::{Record, read_session};

/// `smith eval -m scripted/x --script SCRIPT hi`.
fn run_script(env: &Env, script: &std::path::Path) -> std::process::Output {
    env.run(&[
        "eval",
        "-m",
        "scripted/x",
        "--script",
        script.to_str().unwrap(),
        "hi",
    ])
}

#[test]
fn help_and_version_touch_nothing() {
    let env = Env::new();
    let help = env.run(&["--help"]);
    assert!(help.status.success());
    let text = stdout(&help);
    assert!(
        text.contains("eval") && text.contains("Exit status"),
        "{text}"
    );
    let eval_help = env.run(&["eval", "--help"]);
    assert!(stdout(&eval_help).contains("--no-session"));
    let version = env.run(&["-V"]);
    assert!(version.status.success());
    assert_eq!(
        stdout(&version).trim(),
        format!("smith {}", env!("CARGO_PKG_VERSION"))
    );
    // The long form names the commit built and the target too (issue 73).
    let version = env.run(&["--version"]);
    assert!(version.status.success());
    let text = stdout(&version);
    let (commit, target) = text
        .trim()
        .strip_prefix(&format!("smith {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|rest| rest.split_once(' '))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{text}"
    );
    assert!(
        target.contains("-linux-") || !cfg!(target_os = "linux"),
        "{text}"
    );
    assert!(!env.home().exists(), "help or version created files");
}

#[test]
fn plain_eval_streams_the_answer_with_no_escape_bytes_and_creates_a_session() {
    let env = Env::new();
    let out = env.run(&["eval", "--model", "scripted/demo", "Hello there"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("You said: Hello there"), "{text}");
    assert!(text.ends_with('\n'));
    assert!(!out.stdout.contains(&0x1b), "escape byte on piped stdout");
    assert!(!out.stderr.contains(&0x1b), "escape byte on piped stderr");
    assert!(
        stderr(&out).contains("thinking:"),
        "thinking goes to stderr"
    );
    assert!(!text.contains("thinking"), "thinking leaked to stdout");
    assert_eq!(env.session_files().len(), 1);
}

#[test]
fn every_run_creates_a_distinct_session() {
    let env = Env::new();
    for _ in 0..2 {
        assert!(
            env.run(&["eval", "-m", "scripted/demo", "hi"])
                .status
                .success()
        );
    }
    let files = env.session_files();
    assert_eq!(files.len(), 2);
    assert_ne!(files[0], files[1]);
}

/// Checks the `--json` invariants of docs-corpus/docs/eval-json.md on one run's records.
fn check_json_invariants(recs: &[serde_json::Value]) {
    assert_eq!(recs.first().unwrap()["type"], "run_start");
    let last = recs.last().unwrap();
    assert_eq!(last["type"], "run_end");
    assert!(last["stop_reason"].is_string());
    assert_eq!(recs.iter().filter(|r| r["type"] == "run_end").count(), 1);
    // Per message: start, then deltas, then end; the end equals the assembled deltas.
    let mut open: HashMap<u64, (String, String)> = HashMap::new();
    let mut ended = Vec::new();
    let mut tool_started = Vec::new();
    let (mut receipted, mut turned) = (false, false);
    let mut last_attempt: Option<u64> = None;
    for r in recs {
        match r["type"].as_str().unwrap() {
            "message_start" => {
                let id = r["message_id"].as_u64().unwrap();
                assert!(
                    open.insert(id, Default::default()).is_none(),
                    "started twice: {r}"
                );
            }
            "message_delta" => {
                let id = r["message_id"].as_u64().unwrap();
                let buf = open
                    .get_mut(&id)
                    .unwrap_or_else(|| panic!("delta outside start/end: {r}"));
                let text = r["text"].as_str().unwrap();
                match r["kind"].as_str().unwrap() {
                    "text" => buf.0.push_str(text),
                    "thinking" => buf.1.push_str(text),
                    other => panic!("unknown delta kind {other}"),
                }
            }
            "message_end" => {
                let id = r["message_id"].as_u64().unwrap();
                let (text, thinking) = open
                    .remove(&id)
                    .unwrap_or_else(|| panic!("end without start: {r}"));
                let content = r["message"]["content"].as_array().unwrap();
                let joined = |kind: &str| -> String {
                    content
                        .iter()
                        .filter(|b| b["type"] == kind)
                        .map(|b| b["text"].as_str().unwrap())
                        .collect()
                };
                if r["message"]["role"] == "assistant" {
                    assert_eq!(joined("text"), text, "end record differs from its deltas");
                    assert_eq!(joined("thinking"), thinking);
                }
                for call in content.iter().filter(|b| b["type"] == "tool_call") {
                    ended.push(call["id"].as_str().unwrap().to_owned());
                }
            }
            "tool_start" => {
                let id = r["call_id"].as_str().unwrap().to_owned();
                assert!(
                    ended.contains(&id),
                    "tool_start before its message ended: {r}"
                );
                tool_started.push(id);
            }
            "tool_end" => {
                let id = r["call_id"].as_str().unwrap();
                assert!(
                    tool_started.iter().any(|s| s == id),
                    "tool_end before tool_start: {r}"
                );
            }
            "receipt" => {
                assert!(!receipted, "one receipt per run: {r}");
                assert!(!turned, "the receipt precedes every provider request: {r}");
                receipted = true;
            }
            "round_start" => {
                assert!(
                    receipted,
                    "a provider request before the admission receipt: {r}"
                );
                turned = true;
            }
            "attempt" => {
                assert!(turned, "an attempt outside a turn: {r}");
                assert!(r["entry_id"].is_u64(), "{r}");
                last_attempt = r["entry_id"].as_u64();
            }
            "usage" => {
                assert_eq!(
                    r["attempt"].as_u64(),
                    last_attempt,
                    "usage belongs to the latest attempt: {r}"
                );
            }
            "context_use" => {
                assert!(r["used_tokens"].is_u64(), "{r}");
            }
            "run_start" | "run_end" | "notice" | "round_end" | "attempt_failed" => {}
            other => panic!("undocumented record type {other}"),
        }
    }
    assert!(open.is_empty(), "messages never ended: {open:?}");
}

#[test]
fn plain_eval_ends_with_the_turns_use_and_cost_on_stderr_only() {
    let env = Env::new();
    let out = env.run(&["eval", "-m", "scripted/demo", "Hi"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stderr(&out);
    // The scripted provider's scripts are free: a known zero.
    assert!(
        said.lines()
            .last()
            .is_some_and(|l| l == "smith: turn: 1 request, 24 input tokens, 31 output tokens, $0"),
        "{said}"
    );
    assert!(!stdout(&out).contains("turn:"), "{}", stdout(&out));
    let off = env.run(&[
        "eval",
        "-c",
        "eval.cost-line=false",
        "-m",
        "scripted/demo",
        "Hi",
    ]);
    assert_eq!(off.status.code(), Some(0), "{}", stderr(&off));
    assert!(!stderr(&off).contains("turn:"), "{}", stderr(&off));
}

#[test]
fn json_eval_records_parse_and_keep_their_invariants() {
    let env = Env::new();
    let out = env.run(&["eval", "--json", "-m", "scripted/demo", "Hi"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "JSON mode wrote diagnostics: {}",
        stderr(&out)
    );
    let recs = records(&out);
    check_json_invariants(&recs);
    let end = recs.last().unwrap();
    assert_eq!(end["stop_reason"], "end_turn");
    assert_eq!(end["usage"]["input"], 24);
    assert_eq!(recs[0]["model"], "scripted/demo");
    // The attempt names the physical dispatch and the catalog record it was checked against:
    // the scripted plugin's own (scripts are free), so the cost is a known zero.
    let attempt = recs.iter().find(|r| r["type"] == "attempt").unwrap();
    let a = &attempt["attempt"];
    assert_eq!(a["selection"], "scripted/demo");
    assert_eq!(a["model"], "scripted/demo");
    assert_eq!(a["routing"]["source"], "direct");
    assert_eq!(a["capabilities"]["tools"], true);
    assert_eq!(
        a["capabilities"]["provenance"]["source"]["id"],
        "scripted-plugin"
    );
    assert!(
        a["generation"]
            .as_str()
            .is_some_and(|g| g.starts_with("scripted@0.1.0#") && g.len() == 27),
        "{a}"
    );
    let usage = recs.iter().find(|r| r["type"] == "usage").unwrap();
    assert_eq!(usage["cost_usd"], 0.0);
    assert_eq!(usage["model"], "scripted/demo");
    assert_eq!(end["cost_usd"], 0.0);
}

#[test]
fn a_multi_round_tool_call_runs_the_bundled_tool_records_its_effect_and_continues() {
    let env = Env::new();
    env.write("README.md", "# A project\nIt does things.\n");
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/tool-call",
        "Read the README",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    check_json_invariants(&recs);
    let tool_end = recs.iter().find(|r| r["type"] == "tool_end").unwrap();
    assert_eq!(tool_end["call_id"], "call_1");
    assert_eq!(tool_end["is_error"], false, "{tool_end}");
    assert!(
        tool_end["output"]
            .as_str()
            .unwrap()
            .starts_with("# A project\nIt does things.\n")
    );
    let assistant_ends = recs
        .iter()
        .filter(|r| r["type"] == "message_end" && r["message"]["role"] == "assistant")
        .count();
    assert_eq!(assistant_ends, 2, "the run continued after the tool result");

    // The session holds the call, the effect's intent and completion (each paired), then the
    // result paired with the call's message.
    let files = env.session_files();
    let entries = read_session(&files[0]).unwrap().entries;
    let call_at = entries
        .iter()
        .position(|e| matches!(&e.record, Record::Message(m) if m.message.tool_calls().any(|c| c.id == "call_1")))
        .unwrap();
    let call_entry = entries[call_at].id;
    let Record::EffectIntent(intent) = &entries[call_at + 1].record else {
        panic!("the effect's intent is recorded before it runs: {entries:?}")
    };
    assert_eq!(
        (intent.effect.as_str(), intent.call_id.as_str()),
        ("fs.read", "call_1")
    );
    assert_eq!(entries[call_at + 1].pair, Some(call_entry));
    let Record::EffectCompletion(done) = &entries[call_at + 2].record else {
        panic!("then its completion: {entries:?}")
    };
    assert_eq!(done.outcome, smith_store::EffectOutcome::Applied);
    assert_eq!(entries[call_at + 2].pair, Some(entries[call_at + 1].id));
    let Record::ToolResult(r) = &entries[call_at + 3].record else {
        panic!("the call is followed by its result: {entries:?}")
    };
    assert_eq!(r.result.call_id, "call_1");
    assert_eq!(entries[call_at + 3].pair, Some(call_entry));
    assert_eq!(tool_end["entry_id"], entries[call_at + 3].id.0);
}

#[test]
fn a_call_to_a_tool_no_plugin_provides_is_answered_without_running_anything() {
    let env = Env::new();
    let script = env.write(
        "unknown.kdl",
        "round {\n  tool-call id=\"c1\" name=\"rm\" arguments=#\"{}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"ok\"\n  stop \"end_turn\"\n}\n",
    );
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/unknown",
        "--script",
        script.to_str().unwrap(),
        "go",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let tool_end = recs.iter().find(|r| r["type"] == "tool_end").unwrap();
    assert_eq!(tool_end["is_error"], true);
    let text = tool_end["output"].as_str().unwrap();
    assert!(
        text.contains("unknown tool `rm`") && text.contains("read"),
        "{text}"
    );
    let entries = read_session(&env.session_files()[0]).unwrap().entries;
    assert!(
        !entries
            .iter()
            .any(|e| matches!(e.record, Record::EffectIntent(_)))
    );
}

#[test]
fn the_edit_script_writes_reads_edits_and_rereads_a_file() {
    let env = Env::new();
    let out = env.run(&["eval", "--json", "-m", "scripted/edit", "make notes"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("notes.txt")).unwrap(),
        "Hello, Smith\nSecond line\n"
    );
    let recs = records(&out);
    check_json_invariants(&recs);
    let tools: Vec<(&str, bool)> = recs
        .iter()
        .filter(|r| r["type"] == "tool_end")
        .map(|r| {
            (
                r["name"].as_str().unwrap(),
                r["is_error"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tools,
        [
            ("write", false),
            ("read", false),
            ("edit", false),
            ("read", false)
        ]
    );
    let last_read = recs.iter().rfind(|r| r["type"] == "tool_end").unwrap();
    assert!(
        last_read["output"]
            .as_str()
            .unwrap()
            .starts_with("Hello, Smith\n")
    );
    let entries = read_session(&env.session_files()[0]).unwrap().entries;
    let effects: Vec<&str> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectIntent(i) => Some(i.effect.as_str()),
            _ => None,
        })
        .collect();
    // The history plugin snapshots the tree around each batch that may change files.
    assert_eq!(
        effects,
        [
            "vcs.snapshot",
            "fs.write",
            "vcs.snapshot",
            "fs.read",
            "vcs.snapshot",
            // The edit reads the file first, for the diff its result shows.
            "fs.read",
            "fs.edit",
            "vcs.snapshot",
            "fs.read"
        ]
    );
}

#[test]
fn no_session_leaves_no_session_behind() {
    let env = Env::new();
    let out = env.run(&["eval", "--no-session", "-m", "scripted/demo", "hi"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(env.session_files().is_empty());
    assert!(!env.sessions().exists());
    let leftovers: Vec<_> = std::fs::read_dir(env.tmp()).unwrap().collect();
    assert!(
        leftovers.is_empty(),
        "temporary store not removed: {leftovers:?}"
    );
}

#[test]
fn no_session_keeps_the_store_after_a_failed_run() {
    let env = Env::new();
    let script = env.write(
        "fail.kdl",
        "round { text \"a\"; error \"down\" kind=\"unavailable\" }",
    );
    let out = env.run(&[
        "eval",
        "--no-session",
        "-m",
        "scripted/x",
        "--script",
        script.to_str().unwrap(),
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("kept for inspection"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(env.tmp()).unwrap().count(), 1);
}

#[test]
fn missing_model_and_unknown_models_exit_2_with_diagnostics_and_write_nothing() {
    let env = Env::new();
    let out = env.run(&["eval", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--model scripted/demo"),
        "{}",
        stderr(&out)
    );

    let out = env.run(&["eval", "-m", "acme/gpt", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("`acme`") && err.contains("known providers: scripted"),
        "{err}"
    );

    let out = env.run(&["eval", "-m", "scripted/nope", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("scripted/demo, scripted/tool-call"),
        "{}",
        stderr(&out)
    );

    let out = env.run(&["eval", "-m", "noslash", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`noslash`"));
    assert!(!env.home().exists(), "a refused run wrote files");
}

#[test]
fn missing_or_malformed_scripts_exit_2_naming_file_line_and_field() {
    let env = Env::new();
    let out = env.run(&["eval", "-m", "scripted/x", "--script", "nowhere.kdl", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nowhere.kdl"), "{}", stderr(&out));

    let script = env.write(
        "bad.kdl",
        "round {\n    text \"ok\"\n    tool-call name=\"read\" arguments=\"not json\"\n    stop \"tool_use\"\n}\n",
    );
    let out = run_script(&env, &script);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.kdl:3:"), "{err}");
    assert!(err.contains("round 1 › tool-call › arguments"), "{err}");

    let script = env.write("syntax.kdl", "round {\n  text \"unclosed\n");
    let out = run_script(&env, &script);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("syntax.kdl:"), "{}", stderr(&out));

    let out = env.run(&[
        "eval",
        "-m",
        "acme/x",
        "--script",
        script.to_str().unwrap(),
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!env.home().exists(), "a refused run wrote files");
}

#[test]
fn the_prompt_can_come_from_stdin() {
    let env = Env::new();
    let out = env.run_with_stdin(&["eval", "-m", "scripted/demo", "-"], "from a pipe");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("You said: from a pipe"));

    let out = env.run(&["eval", "-m", "scripted/demo", "-"]);
    assert_eq!(out.status.code(), Some(2), "empty stdin is an empty prompt");
    assert!(stderr(&out).contains("stdin is empty"), "{}", stderr(&out));
}

#[test]
fn session_attaches_by_unique_prefix_and_appends() {
    let env = Env::new();
    assert!(
        env.run(&["eval", "-m", "scripted/demo", "first"])
            .status
            .success()
    );
    let file = env.session_files().remove(0);
    let id = file.file_stem().unwrap().to_str().unwrap().to_owned();
    let before = read_session(&file).unwrap().entries.len();
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &id[..13],
        "second",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(env.session_files(), vec![file.clone()]);
    let entries = read_session(&file).unwrap().entries;
    assert!(entries.len() > before);
    let prompts: Vec<String> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::Message(m) if m.message.role == smith::Role::User => Some(m.message.text()),
            _ => None,
        })
        .collect();
    assert_eq!(prompts, ["first", "second"]);

    let out = env.run(&["eval", "-m", "scripted/demo", "--session", "ffffffff", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("matches no session"));
    let out = env.run(&["eval", "-m", "scripted/demo", "--session", "../etc", "x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_session_of_unknown_format_version_is_refused_unchanged() {
    let env = Env::new();
    assert!(
        env.run(&["eval", "-m", "scripted/demo", "first"])
            .status
            .success()
    );
    let file = env.session_files().remove(0);
    let mut bytes = std::fs::read(&file).unwrap();
    smith_testkit::set_format_version(&mut bytes, 7);
    std::fs::write(&file, &bytes).unwrap();
    let id = file.file_stem().unwrap().to_str().unwrap().to_owned();
    let out = env.run(&["eval", "-m", "scripted/demo", "--session", &id, "x"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("format version 7"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[test]
fn a_session_held_by_another_writer_is_refused_with_status_4() {
    let env = Env::new();
    assert!(
        env.run(&["eval", "-m", "scripted/demo", "first"])
            .status
            .success()
    );
    let file = env.session_files().remove(0);
    let id: smith::SessionId = file.file_stem().unwrap().to_str().unwrap().parse().unwrap();
    let (_held, _) = smith_store::SessionWriter::open(&file, id).unwrap();
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &id.to_string(),
        "x",
    ]);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        stderr(&out).contains("open for writing by another"),
        "{}",
        stderr(&out)
    );
}

const GATED: &str =
    "round {\n  text \"before \"\n  gate \"hold\"\n  text \"after\"\n  stop \"end_turn\"\n}\n";

/// Start `smith eval --json` on the gated script; it stops at the gate `hold`.
fn spawn_gated(env: &Env) -> std::process::Child {
    let script = env.write("gated.kdl", GATED);
    env.command(&[
        "eval",
        "--json",
        "-m",
        "scripted/g",
        "--script",
        script.to_str().unwrap(),
        "hi",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap()
}

#[test]
fn a_gate_holds_the_run_and_the_user_message_is_already_durable() {
    let env = Env::new();
    let child = spawn_gated(&env);
    let waiting = env.root.path().join("hold.waiting");
    wait_for(&waiting);
    // Held at the gate: the user's input was recorded before the provider was asked.
    let file = env.session_files().remove(0);
    let entries = read_session(&file).unwrap().entries;
    assert!(
        entries
            .iter()
            .any(|e| matches!(&e.record, Record::Message(m) if m.message.text() == "hi"))
    );
    std::fs::write(env.root.path().join("hold.release"), b"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    check_json_invariants(&recs);
    let end = recs
        .iter()
        .rev()
        .find(|r| r["type"] == "message_end")
        .unwrap();
    assert_eq!(end["message"]["content"][0]["text"], "before after");
}

#[cfg(unix)]
#[test]
fn ctrl_c_aborts_the_run_records_it_and_exits_130() {
    let env = Env::new();
    let child = spawn_gated(&env);
    wait_for(&env.root.path().join("hold.waiting"));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let recs = records(&out);
    check_json_invariants(&recs);
    assert_eq!(recs.last().unwrap()["stop_reason"], "aborted");
    let file = env.session_files().remove(0);
    let entries = read_session(&file).unwrap().entries;
    assert!(matches!(
        &entries.last().unwrap().record,
        Record::RunEnd(end) if end.stop_reason == smith::StopReason::Aborted
    ));
}

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let env = Env::new();
    let mut child = spawn_gated(&env);
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    lines.read_line(&mut first).unwrap();
    assert!(first.contains("run_start"));
    wait_for(&env.root.path().join("hold.waiting"));
    drop(lines); // the reader goes away
    std::fs::write(env.root.path().join("hold.release"), b"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "not quiet: {}", stderr(&out));
    let file = env.session_files().remove(0);
    let entries = read_session(&file).unwrap().entries;
    assert!(matches!(
        &entries.last().unwrap().record,
        Record::RunEnd(end) if end.stop_reason == smith::StopReason::Aborted
    ));
}

#[test]
fn escape_sequences_in_model_text_never_reach_the_output() {
    let env = Env::new();
    let out = env.run(&["eval", "-m", "scripted/demo", "red \u{1b}[31mtext\u{7}"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("red ␛[31mtext␇"), "{}", stdout(&out));
    assert!(!out.stdout.contains(&0x1b) && !out.stdout.contains(&0x07));
    let out = env.run(&["eval", "-m", "acme/\u{1b}[2J", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b), "{}", stderr(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_stderr_neither_panics_nor_loses_the_answer() {
    let env = Env::new();
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out = env
        .command(&["eval", "-m", "scripted/demo", "hi"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("You said: hi"));
    let out = env
        .command(&["eval", "-m", "scripted/nope", "hi"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a usage error stays a usage error"
    );
}

#[test]
fn a_script_repeating_a_call_id_is_refused_before_anything_is_written() {
    let env = Env::new();
    let script = env.write(
        "dup.kdl",
        "round {\n  tool-call id=\"c\" name=\"read\"\n  tool-call id=\"c\" name=\"write\"\n  stop \"tool_use\"\n}\n",
    );
    let out = run_script(&env, &script);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("dup.kdl:3:"), "{}", stderr(&out));
    assert!(!env.home().exists());
}

#[cfg(unix)]
#[test]
fn sigterm_aborts_like_ctrl_c() {
    let env = Env::new();
    let child = spawn_gated(&env);
    wait_for(&env.root.path().join("hold.waiting"));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(records(&out).last().unwrap()["stop_reason"], "aborted");
    assert!(
        !env.root.path().join("hold.waiting").exists(),
        "gate marker left behind"
    );
}

#[test]
fn independent_sessions_are_written_by_separate_processes_at_once() {
    let env = Env::new();
    // One process holds its session's writer lock, parked at a gate mid-run…
    let child = spawn_gated(&env);
    wait_for(&env.root.path().join("hold.waiting"));
    let held = env.session_files();
    assert_eq!(held.len(), 1);
    // …while another process creates, writes and finishes a second session.
    let out = env.run(&["eval", "-m", "scripted/demo", "meanwhile"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // And a third continues the second session while the first is still held.
    let second = env
        .session_files()
        .into_iter()
        .find(|f| !held.contains(f))
        .unwrap();
    let id = second.file_stem().unwrap().to_str().unwrap().to_owned();
    let out = env.run(&["eval", "-m", "scripted/demo", "--session", &id, "more"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(env.root.path().join("hold.release"), b"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for file in env.session_files() {
        let outcome = read_session(&file).unwrap();
        assert!(outcome.torn_tail.is_none() && outcome.skipped.is_empty());
        assert!(matches!(
            outcome.entries.last().unwrap().record,
            Record::RunEnd(_)
        ));
    }
}
