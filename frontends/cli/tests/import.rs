//! `smith sessions import` with the built binary, on session files the real tools wrote
//! (`tests/fixtures/import`: Codex CLI 0.171.0, Claude Code 2.1.332, pi 0.73.1, made by its
//! `make.sh` against a loopback model): each imports with its prompt, response, tool call and
//! result, model, usage and times, continues with the scripted model (the imported history in
//! the request), and bad files are refused naming the line with nothing written.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use common::{Env, records, stderr, stdout};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import")
        .join(name)
}

/// Import `file`; the new session's id.
fn import(env: &Env, file: &Path) -> String {
    let out = env.run(&["sessions", "import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let id = stdout(&out).trim().to_owned();
    assert_eq!(id.len(), 36, "{id}");
    id
}

/// The session's entries as `sessions get --json` gives them: (kind, record).
fn entries(env: &Env, id: &str) -> Vec<(String, Value)> {
    let out = env.run(&["sessions", "export", id]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    records(&out)
        .into_iter()
        .map(|r| (r["kind"].as_str().unwrap().to_owned(), r["record"].clone()))
        .collect()
}

fn kinds(entries: &[(String, Value)]) -> Vec<&str> {
    entries.iter().map(|(k, _)| k.as_str()).collect()
}

/// What every fixture holds: one prompt, a response with a tool call, its result, a final
/// answer — checked in the imported session, which then continues with the scripted model.
fn check(
    file: &str,
    format: &str,
    version: &str,
    model: &str,
    tool: &str,
    usage: [u64; 4],
    prompt_ms: i64,
) {
    let env = Env::new();
    let id = import(&env, &fixture(file));
    let got = entries(&env, &id);
    assert_eq!(
        kinds(&got),
        [
            "session_start",
            "submission",
            "model_change",
            "message",
            "message",
            "tool_result",
            "message",
            "run_end"
        ],
        "{got:#?}"
    );
    let start = &got[0].1;
    assert_eq!(start["imported"]["format"], format);
    assert_eq!(start["imported"]["version"], version);
    assert!(
        start["imported"]["source"]
            .as_str()
            .unwrap()
            .ends_with(file),
        "{start}"
    );
    let bytes = std::fs::read(fixture(file)).unwrap();
    let sha = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(&bytes));
    let sha: String = sha.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(start["imported"]["sha256"], sha);
    assert_eq!(got[1].1["model"], model);
    assert!(
        got[1].1["input"]
            .as_str()
            .unwrap()
            .starts_with("What does hello.txt say?")
    );
    let first = &got[4].1;
    assert_eq!(first["model"], model);
    assert_eq!(first["stop_reason"], "tool_use");
    let blocks = first["message"]["content"].as_array().unwrap();
    assert!(
        blocks.iter().any(|b| b["type"] == "thinking"),
        "the reasoning is carried: {blocks:?}"
    );
    let call = blocks.iter().find(|b| b["type"] == "tool_call").unwrap();
    assert_eq!(call["name"], tool);
    let u = &first["usage"];
    assert_eq!(
        [
            &u["input"],
            &u["output"],
            &u["cache_read"],
            &u["cache_write"]
        ]
        .map(|v| v.as_u64().unwrap()),
        usage,
        "{u}"
    );
    let result = &got[5].1["result"];
    assert_eq!(result["call_id"], call["id"]);
    assert_eq!(result["name"], tool);
    assert!(
        result["output"]
            .as_str()
            .unwrap()
            .contains("hello from the fixture")
    );
    assert!(
        got[6].1["message"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("hello from the fixture")
    );
    // Dated by the source, not by the import: the prompt's time, to the millisecond.
    let dated = records(&env.run(&["sessions", "export", &id]));
    assert_eq!(
        dated[3]["timestamp_ms"].as_i64(),
        Some(prompt_ms),
        "{}",
        dated[3]
    );

    // It continues like any other session: the next request holds the imported history.
    let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "and then?"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = entries(&env, &id);
    let attempt = records(&env.run(&["sessions", "export", &id]))
        .into_iter()
        .find(|r| r["kind"] == "attempt")
        .unwrap()["id"]
        .as_u64()
        .unwrap();
    let request = env.run(&["sessions", "get", &id, "--request", &attempt.to_string()]);
    let text = stdout(&request);
    assert!(
        text.contains("user: What does hello.txt say?")
            && text.contains("tool_result")
            && text.contains("user: and then?"),
        "{text}"
    );
    assert!(after.len() > got.len());
}

#[test]
fn a_codex_rollout_imports_and_continues() {
    // Codex counts cached tokens in its input: 5856 with 2928 cached.
    check(
        "codex-rollout.jsonl",
        "codex",
        "0.171.0",
        "fixture/fake-model",
        "exec_command",
        [2928, 42, 2928, 0],
        1_796_584_462_529,
    );
}

#[test]
fn a_claude_code_session_imports_and_continues() {
    check(
        "claude-code.jsonl",
        "claude-code",
        "2.1.332",
        "anthropic/claude-opus-5-5",
        "Bash",
        [1676, 42, 558, 558],
        1_796_584_463_206,
    );
}

#[test]
fn a_pi_session_imports_and_continues() {
    check(
        "pi-session.jsonl",
        "pi",
        "3",
        "fixture/fake-model",
        "bash",
        [701, 42, 701, 0],
        1_796_584_464_413,
    );
}

#[test]
fn what_is_not_carried_over_is_listed_and_recorded() {
    let env = Env::new();
    let out = env.run(&[
        "sessions",
        "import",
        fixture("claude-code.jsonl").to_str().unwrap(),
    ]);
    assert!(
        stderr(&out).contains("not carried over: 7 × context attachments the harness added"),
        "{}",
        stderr(&out)
    );
    let id = stdout(&out).trim().to_owned();
    let start = &entries(&env, &id)[0].1;
    assert_eq!(
        start["imported"]["dropped"],
        serde_json::json!(["7 × context attachments the harness added"])
    );
    let listed = stdout(&env.run(&["sessions", "list"]));
    assert!(
        listed.contains("(imported from claude-code 2.1.332)"),
        "{listed}"
    );
}

#[test]
fn a_pi_branch_is_kept_and_the_last_entry_stays_selected() {
    // The pi fixture with a second prompt answered beside the first answer: pi's tree, as its
    // `/tree` makes one (the entries are the fixture's own, re-parented by hand).
    let env = Env::new();
    let mut lines: Vec<String> = std::fs::read_to_string(fixture("pi-session.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let user: Value = serde_json::from_str(&lines[3]).unwrap();
    let mut retry = user.clone();
    retry["id"] = "aaaa0001".into();
    retry["message"]["content"][0]["text"] = "Another way, please.".into();
    let mut answer: Value = serde_json::from_str(&lines[6]).unwrap();
    answer["id"] = "aaaa0002".into();
    answer["parentId"] = "aaaa0001".into();
    answer["message"]["content"][0]["text"] = "Here is another way.".into();
    lines.push(retry.to_string());
    lines.push(answer.to_string());
    let file = env.write("branched.jsonl", &(lines.join("\n") + "\n"));
    let id = import(&env, &file);
    let got = entries(&env, &id);
    let submissions = got.iter().filter(|(k, _)| k == "submission").count();
    assert_eq!(submissions, 2, "{got:#?}");
    // Each branch's turn ends on that branch, paired with its own submission.
    let exported = records(&env.run(&["sessions", "export", &id]));
    let ends: Vec<&Value> = exported.iter().filter(|r| r["kind"] == "run_end").collect();
    assert_eq!(ends.len(), 2);
    let pairs: std::collections::BTreeSet<u64> =
        ends.iter().map(|e| e["pair"].as_u64().unwrap()).collect();
    assert_eq!(pairs.len(), 2, "each run_end ends another turn");
    for pair in pairs {
        assert_eq!(exported[pair as usize - 1]["kind"], "submission");
    }
    // The selected branch is the retry's: the second prompt, then its answer.
    let branch = stdout(&env.run(&["sessions", "get", &id, "--branch"]));
    assert!(
        branch.contains("Another way, please.") && branch.contains("Here is another way."),
        "{branch}"
    );
    assert!(!branch.contains("hello from the fixture"), "{branch}");
}

/// Run an import expected to fail; its stderr. Nothing may be written.
fn refused(env: &Env, file: &Path, status: i32) -> String {
    let out = env.run(&["sessions", "import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(status), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let left: Vec<_> = std::fs::read_dir(env.sessions())
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "nothing is written: {left:?}");
    let text = stderr(&out);
    assert!(text.contains("nothing was written"), "{text}");
    text
}

#[test]
fn bad_files_are_refused_naming_what_is_wrong_and_nothing_is_written() {
    let env = Env::new();
    let pi = std::fs::read_to_string(fixture("pi-session.jsonl")).unwrap();

    let unknown = env.write("notes.jsonl", "{\"hello\": 1}\n");
    let text = refused(&env, &unknown, 2);
    assert!(
        text.contains("is not a session file this Smith imports"),
        "{text}"
    );

    let newer = env.write(
        "newer.jsonl",
        &pi.replacen("\"version\":3", "\"version\":9", 1),
    );
    let text = refused(&env, &newer, 2);
    assert!(text.contains("format version 9"), "{text}");

    let mut cut: Vec<&str> = pi.lines().collect();
    let half = &cut[4][..cut[4].len() / 2];
    cut[4] = half;
    let torn_middle = env.write("torn-middle.jsonl", &(cut.join("\n") + "\n"));
    let text = refused(&env, &torn_middle, 2);
    assert!(text.contains("line 5: not JSON"), "{text}");

    let mut bytes = pi.as_bytes().to_vec();
    let at = bytes.iter().position(|b| *b == b'h').unwrap();
    bytes[at] = 0xff;
    let invalid = env.root.path().join("invalid.jsonl");
    std::fs::write(&invalid, bytes).unwrap();
    let text = refused(&env, &invalid, 2);
    assert!(
        text.contains(": not UTF-8 (invalid byte at column"),
        "{text}"
    );

    let empty = env.write("empty.jsonl", "\n\n");
    let text = refused(&env, &empty, 2);
    assert!(text.contains("holds no conversation"), "{text}");

    let long = env.root.path().join("long.jsonl");
    std::fs::write(&long, vec![b'x'; (64 << 20) + 2]).unwrap();
    let text = refused(&env, &long, 2);
    assert!(text.contains("line 1 is longer than"), "{text}");

    let missing = env.root.path().join("missing.jsonl");
    let text = refused(&env, &missing, 1);
    assert!(text.contains("cannot read"), "{text}");
}

#[test]
fn a_torn_last_line_is_left_out_and_listed() {
    let env = Env::new();
    let pi = std::fs::read_to_string(fixture("pi-session.jsonl")).unwrap();
    let last = pi.trim_end().rfind('\n').unwrap();
    let torn = &pi[..last + 40];
    let file = env.write("torn.jsonl", torn);
    let out = env.run(&["sessions", "import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not carried over: 1 × torn last line"),
        "{}",
        stderr(&out)
    );
    let got = entries(&env, stdout(&out).trim());
    // The final answer was the torn line: the turn ends after the tool result.
    assert_eq!(kinds(&got).last(), Some(&"run_end"));
    assert_eq!(got.iter().filter(|(k, _)| k == "message").count(), 2);
}

/// A scripted turn that reads a file with the `read` tool, then answers.
const READ_SCRIPT: &str = r##"round {
  tool-call id="r1" name="read" arguments=#"{"path": "notes.txt"}"#
  stop "tool_use"
}
round {
  text "It says hello."
  stop "end_turn"
}
"##;

#[test]
fn smith_s_own_export_round_trips_byte_for_byte_and_continues() {
    let env = Env::new();
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "hello\n").unwrap();
    let script = env.write("read.kdl", READ_SCRIPT);
    let run = |args: &[&str]| {
        let out = env.command(args).current_dir(&work).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        out
    };
    let script = script.to_str().unwrap();
    run(&[
        "eval",
        "-m",
        "scripted/read",
        "--script",
        script,
        "what do my notes say?",
    ]);
    let id = stdout(&run(&["sessions", "list", "--json"]))
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .next()
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // A second branch beside the first turn, so the export holds a tree.
    run(&["sessions", "select", &id, "1"]);
    run(&[
        "eval",
        "--session",
        &id,
        "-m",
        "scripted/demo",
        "start over",
    ]);
    let exported = run(&["sessions", "export", &id]).stdout;
    let file = env.root.path().join("export.jsonl");
    std::fs::write(&file, &exported).unwrap();

    // Into a store that lacks it: the same session, byte for byte.
    let elsewhere = Env::new();
    let restored = import(&elsewhere, &file);
    assert_eq!(restored, id);
    let again = elsewhere.run(&["sessions", "export", &id]);
    assert!(again.stdout == exported, "the round trip is exact");
    let verify = elsewhere.run(&["sessions", "verify", &id]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    // Its recorded requests still rebuild to the sha256 they were sent with.
    let attempt = records(&again)
        .into_iter()
        .find(|r| r["kind"] == "attempt")
        .unwrap()["id"]
        .to_string();
    let request = stdout(&elsewhere.run(&["sessions", "get", &id, "--request", &attempt]));
    assert!(
        request.contains("verified: rebuilt from the session file"),
        "{request}"
    );
    let more = elsewhere.run(&["eval", "--session", &id, "-m", "scripted/demo", "and now"]);
    assert_eq!(more.status.code(), Some(0), "{}", stderr(&more));

    // Into the store that holds it: refused, nothing changed.
    let before = std::fs::read(env.sessions().join(format!("{id}.smith"))).unwrap();
    let out = env.run(&["sessions", "import", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("exists already"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(env.sessions().join(format!("{id}.smith"))).unwrap(),
        before
    );

    // A cut export is refused: entries must run from 1 without a gap.
    let text = String::from_utf8(exported).unwrap();
    let cut: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(n, _)| *n != 3)
        .map(|(_, l)| l)
        .collect();
    let third = Env::new();
    let cut_file = third.write("cut.jsonl", &(cut.join("\n") + "\n"));
    let text = refused(&third, &cut_file, 2);
    assert!(text.contains("entry 5 where entry 4 was due"), "{text}");
}

/// The Claude Code fixture's lines as JSON values.
fn claude_lines() -> Vec<Value> {
    std::fs::read_to_string(fixture("claude-code.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_claude_code_retry_is_a_branch_and_the_tool_s_leaf_stays_selected() {
    // A retry beside the first prompt (a second root, as a rewind makes), answered, and the
    // `last-prompt` line naming the first branch's leaf, as Claude Code writes it at exit.
    let env = Env::new();
    let mut lines = claude_lines();
    let last_prompt = lines
        .iter()
        .position(|l| l["type"] == "last-prompt")
        .unwrap();
    let leaf = lines.remove(last_prompt);
    let prompt = lines.iter().find(|l| l["type"] == "user").unwrap().clone();
    let mut retry = prompt.clone();
    retry["uuid"] = "retry-0001".into();
    retry["message"]["content"] = "Try a different way.".into();
    let answer = lines
        .iter()
        .rev()
        .find(|l| l["type"] == "assistant")
        .unwrap()
        .clone();
    let mut other = answer.clone();
    other["uuid"] = "retry-0002".into();
    other["parentUuid"] = "retry-0001".into();
    other["message"]["id"] = "msg_retry".into();
    other["message"]["content"][0]["text"] = "A different answer.".into();
    lines.push(retry);
    lines.push(other);
    lines.push(leaf);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let id = import(&env, &env.write("retry.jsonl", &text));
    let got = entries(&env, &id);
    assert_eq!(got.iter().filter(|(k, _)| k == "submission").count(), 2);
    assert_eq!(got.iter().filter(|(k, _)| k == "run_end").count(), 2);
    let branch = stdout(&env.run(&["sessions", "get", &id, "--branch"]));
    assert!(branch.contains("hello from the fixture"), "{branch}");
    assert!(!branch.contains("A different answer."), "{branch}");
}

#[test]
fn a_claude_code_response_split_around_its_tool_result_is_one_response() {
    // The response's text line written after the tool result (its lines need not chain):
    // still one response, its usage counted once.
    let env = Env::new();
    let mut lines = claude_lines();
    let text_at = lines
        .iter()
        .position(|l| l["type"] == "assistant" && l["message"]["content"][0]["type"] == "text")
        .unwrap();
    let text_line = lines.remove(text_at);
    let result_at = lines
        .iter()
        .position(|l| l["type"] == "user" && l["message"]["content"].is_array())
        .unwrap();
    lines.insert(result_at + 1, text_line);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let id = import(&env, &env.write("split.jsonl", &text));
    let got = entries(&env, &id);
    let responses: Vec<&Value> = got
        .iter()
        .filter(|(k, r)| k == "message" && r["message"]["role"] == "assistant")
        .map(|(_, r)| r)
        .collect();
    assert_eq!(responses.len(), 2, "{got:#?}");
    let first = responses[0]["message"]["content"].as_array().unwrap();
    assert!(
        first.iter().any(|b| b["type"] == "text") && first.iter().any(|b| b["type"] == "tool_call")
    );
    let end = &got.iter().find(|(k, _)| k == "run_end").unwrap().1;
    assert_eq!(end["usage"]["responses"], 2);
    assert_eq!(end["usage"]["output"], 42 + 16);
}

#[test]
fn an_older_codex_rollout_without_usage_records_takes_the_token_count_events() {
    let env = Env::new();
    let text: String = std::fs::read_to_string(fixture("codex-rollout.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"type\":\"token_usage_record\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let id = import(&env, &env.write("older.jsonl", &text));
    let got = entries(&env, &id);
    let usage: Vec<&Value> = got
        .iter()
        .filter(|(k, r)| k == "message" && r["message"]["role"] == "assistant")
        .map(|(_, r)| &r["usage"])
        .collect();
    assert_eq!(usage[0]["input"], 5856 - 2928);
    assert_eq!(usage[1]["input"], 6065 - 3032);
    assert_eq!(usage[1]["output"], 16);
}

#[test]
fn repeated_lines_and_lost_parents_still_give_a_session_that_continues() {
    for file in [
        "codex-rollout.jsonl",
        "claude-code.jsonl",
        "pi-session.jsonl",
    ] {
        let env = Env::new();
        // Every line twice, as a careless concatenation makes it.
        let doubled: String = std::fs::read_to_string(fixture(file))
            .unwrap()
            .lines()
            .map(|l| format!("{l}\n{l}\n"))
            .collect();
        let out = env.run(&[
            "sessions",
            "import",
            env.write("doubled.jsonl", &doubled).to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("repeated"),
            "{file}: {}",
            stderr(&out)
        );
        let id = stdout(&out).trim().to_owned();
        let got = entries(&env, &id);
        assert_eq!(
            got.iter().filter(|(k, _)| k == "submission").count(),
            1,
            "{file}: {got:#?}"
        );
        assert_eq!(
            got.iter().filter(|(k, _)| k == "tool_result").count(),
            1,
            "{file}"
        );
        let next = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "next"]);
        assert_eq!(next.status.code(), Some(0), "{file}: {}", stderr(&next));
    }

    // A Claude Code line whose parent the file does not hold follows the line before it.
    let env = Env::new();
    let mut lines = claude_lines();
    let result = lines
        .iter_mut()
        .find(|l| l["type"] == "user" && l["message"]["content"].is_array())
        .unwrap();
    result["parentUuid"] = "00000000-dead-beef-0000-000000000000".into();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = env.run(&[
        "sessions",
        "import",
        env.write("lost.jsonl", &text).to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("links to a parent the file does not hold"),
        "{}",
        stderr(&out)
    );
    let id = stdout(&out).trim().to_owned();
    let branch = stdout(&env.run(&["sessions", "get", &id, "--branch"]));
    assert!(
        branch.contains("What does hello.txt say?") && branch.contains("hello from the fixture"),
        "{branch}"
    );
    let next = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "next"]);
    assert_eq!(next.status.code(), Some(0), "{}", stderr(&next));
}

#[test]
fn the_same_file_twice_is_refused_and_stdin_and_a_byte_order_mark_are_read() {
    let env = Env::new();
    let id = import(&env, &fixture("pi-session.jsonl"));
    let again = env.run(&[
        "sessions",
        "import",
        fixture("pi-session.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(
        stderr(&again).contains(&format!("imported already, as session {id}")),
        "{}",
        stderr(&again)
    );
    assert_eq!(env.session_files().len(), 1);

    // The id is dated by the source: it lists when the conversation began (its prompt).
    let listed = records(&env.run(&["sessions", "list", "--json"]));
    assert_eq!(
        listed[0]["created_ms"], 1_796_584_464_413_u64,
        "{}",
        listed[0]
    );

    let other = Env::new();
    let text = std::fs::read_to_string(fixture("codex-rollout.jsonl")).unwrap();
    let out = other
        .command(&["sessions", "import", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("\u{feff}{text}").as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(codex 0.171.0): 1 turn, "),
        "{}",
        stderr(&out)
    );

    // A session file itself is named for what it is.
    let third = Env::new();
    let own = env.sessions().join(format!("{id}.smith"));
    let text = refused(&third, &own, 2);
    assert!(text.contains("is a Smith session file itself"), "{text}");
}

#[test]
fn control_characters_survive_the_export_and_import_round_trip() {
    let env = Env::new();
    let prompt = "c1 \u{85} next line, \u{9b}31m csi, \u{7f} del";
    let out = env.run(&["eval", "-m", "scripted/demo", prompt]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let id = env.session_files()[0]
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let exported = env.run(&["sessions", "export", &id]).stdout;
    let text = String::from_utf8(exported.clone()).unwrap();
    // Escaped in the JSON, so a terminal never acts on them and a reader gets them back.
    assert!(text.contains("\\u0085") && text.contains("\\u009b") && text.contains("\\u007f"));
    assert!(!text.contains('\u{85}') && !text.contains('\u{fffd}'));
    let file = env.write("export.jsonl", &text);
    env.run(&["sessions", "delete", &id]);
    assert_eq!(import(&env, &file), id);
    let again = env.run(&["sessions", "export", &id]).stdout;
    assert!(again == exported, "the round trip is exact");
    let got = records(&env.run(&["sessions", "get", &id, "--json"]));
    assert!(
        got.iter().any(|r| r["record"]["input"] == prompt),
        "{got:?}"
    );
}
