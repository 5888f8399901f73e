//! `smith sessions` against the built binary (spec SMH-SPEC-SPEC0001: Interface modes →
//! Session inspection).

mod common;

use common::{Env, records, stderr, stdout};

fn two_sessions(env: &Env) -> Vec<std::path::PathBuf> {
    assert!(
        env.run(&["eval", "-m", "scripted/tool-call", "read the readme"])
            .status
            .success()
    );
    assert!(
        env.run(&["eval", "-m", "scripted/demo", "hello there"])
            .status
            .success()
    );
    env.session_files()
}

fn id_of(path: &std::path::Path) -> String {
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

#[test]
fn list_names_every_session_oldest_first_and_changes_nothing() {
    let env = Env::new();
    let files = two_sessions(&env);
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let out = env.run(&["sessions", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let ids: Vec<_> = recs
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, files.iter().map(|f| id_of(f)).collect::<Vec<_>>());
    assert_eq!(recs[0]["smith_version"], env!("CARGO_PKG_VERSION"));
    assert!(recs[0]["created_ms"].as_u64().unwrap() > 1_700_000_000_000);
    let plain = stdout(&env.run(&["sessions", "list"]));
    assert_eq!(plain.lines().count(), 2);
    assert!(!plain.contains('\u{1b}'));
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert_eq!(before, after, "inspection is read-only");
}

#[test]
fn get_pages_through_every_entry_exactly_once() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id = id_of(&files[0]);
    let all = records(&env.run(&[
        "sessions", "get", &id, "--json", "--limit", "1000", "--usage",
    ]));
    let (page, rest) = all.split_last().unwrap();
    let (usage, entries) = rest.split_last().unwrap();
    assert!(page["next_cursor"].is_null());
    // Usage over the whole session: each response once, at its attempt's recorded prices.
    assert_eq!(usage["type"], "usage");
    assert_eq!(usage["attempts"].as_array().unwrap().len(), 2);
    assert_eq!(usage["total"]["responses"], 2);
    // The tool-call script reports no cache figures: unknown, never zero. Its prices are a
    // known zero for every bucket, so the cost is still a known zero.
    assert_eq!(usage["total"]["input"], 115);
    assert!(usage["total"]["cache_read"].is_null());
    assert_eq!(usage["cost_usd"], 0.0);
    assert_eq!(usage["attempts"][0]["model"], "scripted/tool-call");
    let kinds: Vec<_> = entries
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "session_start",
            "submission",
            "model_change",
            "message",
            // The instructions and tool definitions the request carried (recorded once), then
            // each attempt with its recorded request.
            "request_input",
            "request_input",
            "attempt",
            "request",
            "message",
            "effect_intent",
            "effect_completion",
            "tool_result",
            "checkpoint",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["sessions", "get", &id, "--json", "--limit", "3"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        let recs = records(&env.run(&args));
        let (page, entries) = recs.split_last().unwrap();
        assert!(
            entries.iter().all(|e| e["type"] == "entry"),
            "without --usage a page holds entries and its trailer"
        );
        assert!(entries.len() <= 3);
        seen.extend(entries.iter().map(|e| e["id"].as_u64().unwrap()));
        match page["next_cursor"].as_u64() {
            Some(next) => cursor = Some(next.to_string()),
            None => break,
        }
    }
    assert_eq!(seen, (1..=17).collect::<Vec<u64>>());
    let out = env.run(&["sessions", "get", &id, "--cursor", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not an entry of session"));
}

#[test]
fn grep_names_session_and_entry_of_each_match() {
    let env = Env::new();
    let files = two_sessions(&env);
    let recs = records(&env.run(&["sessions", "grep", "(?i)README", "--json"]));
    assert!(!recs.is_empty());
    for r in &recs {
        assert_eq!(r["session"], id_of(&files[0]).as_str());
        assert!(r["entry"].as_u64().is_some());
        assert!(
            r["line"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("readme")
        );
    }
    let text = stdout(&env.run(&["sessions", "grep", "hello there"]));
    assert!(
        text.contains(&format!("{} #4 user: hello there", id_of(&files[1]))),
        "{text}"
    );
    let out = env.run(&["sessions", "grep", "("]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a valid pattern"));
}

#[test]
fn damaged_sessions_are_reported_with_status_3_and_never_repaired() {
    let env = Env::new();
    let files = two_sessions(&env);
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&files[0], &bytes).unwrap();
    // list reads only each session's first change (no history decoding), so this damage is
    // for verify and grep to find; a damaged first change is reported by list too.
    let out = env.run(&["sessions", "list"]);
    assert!(
        stdout(&out).contains(&id_of(&files[1])),
        "the intact session is still listed"
    );
    let out = env.run(&["sessions", "verify", &id_of(&files[0])]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("damaged session"), "{}", stderr(&out));
    assert!(stdout(&out).contains("damaged"), "{}", stdout(&out));
    let out = env.run(&["sessions", "grep", "hello"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stdout(&out).contains("hello there"));
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        bytes,
        "inspection never repairs"
    );
    let mut head = bytes.clone();
    head[20] ^= 0xff; // inside the first frame
    std::fs::write(&files[0], &head).unwrap();
    let out = env.run(&["sessions", "list"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout(&out).contains(&id_of(&files[1])),
        "the intact session is still listed"
    );
    let out = env.run(&["sessions", "verify", &id_of(&files[1])]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("intact"));
}

#[test]
fn inspection_reads_a_session_another_process_is_writing() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id: smith::SessionId = id_of(&files[0]).parse().unwrap();
    let (_writer, _) = smith_store::SessionWriter::open(&files[0], id).unwrap();
    let out = env.run(&["sessions", "get", &id.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("run_end"));
}

#[test]
fn branches_are_selected_forked_and_resumed() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id = id_of(&files[1]);
    let before = records(&env.run(&["sessions", "get", &id, "--json"]));
    let last = before[before.len() - 2]["id"].as_u64().unwrap();
    // Select the first user message: the next run continues beside the old branch.
    let out = env.run(&["sessions", "select", &id, "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &id,
        "second try",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let all = records(&env.run(&["sessions", "get", &id, "--json", "--limit", "1000"]));
    let first_new = all
        .iter()
        .find(|r| r["id"].as_u64() == Some(last + 1))
        .expect("the new run's first entry");
    assert_eq!(
        first_new["parent"], 3,
        "the new branch starts at the selected entry"
    );
    // --branch walks the selected branch only: the old run's entries after 3 are not on it.
    let branch = records(&env.run(&["sessions", "get", &id, "--json", "--branch"]));
    let ids: Vec<u64> = branch.iter().filter_map(|r| r["id"].as_u64()).collect();
    assert!(ids.contains(&3) && !ids.contains(&last), "{ids:?}");
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
    // Fork at entry 3: a new session with entries 1..=3 and 3 selected.
    let out = env.run(&["sessions", "fork", &id, "--at", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fork = &records(&out)[0];
    let forked = fork["session"].as_str().unwrap().to_owned();
    assert_eq!(
        (fork["entries"].as_u64(), fork["leaf"].as_u64()),
        (Some(3), Some(3))
    );
    let copy = records(&env.run(&["sessions", "get", &forked, "--json"]));
    assert_eq!(copy.len(), 4, "three entries and the page record");
    assert_eq!(copy[2]["record"], all[2]["record"]);
    let out = env.run(&["sessions", "verify", &forked]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &forked,
        "on the fork",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Bad entries are usage errors that name the range.
    let out = env.run(&["sessions", "select", &id, "999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("999"), "{}", stderr(&out));
    let out = env.run(&["sessions", "fork", &id, "--at", "999"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(
        said.contains("entry 999 is past the session's committed entries (1..=")
            && said.contains(&format!("`smith sessions get {id}` lists the entries"))
            && said.matches("cannot").count() == 1,
        "{said}"
    );
}

#[test]
fn select_refuses_a_branch_that_would_split_a_tool_batch_and_writes_nothing() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id = id_of(&files[0]);
    let entries = records(&env.run(&["sessions", "get", &id, "--json", "--limit", "1000"]));
    // The tool call's effect: the branch ending there holds the call but not its result.
    let inside = entries
        .iter()
        .find(|e| e["kind"] == "effect_intent")
        .and_then(|e| e["id"].as_u64())
        .expect("the tool-call run records an effect");
    let before = std::fs::read(&files[0]).unwrap();
    let out = env.run(&["sessions", "select", &id, &inside.to_string()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("tool batch") && stderr(&out).contains(&inside.to_string()),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        before,
        "a refused selection writes nothing"
    );
    // The batch's last result is a branch point like any other.
    let result = entries
        .iter()
        .find(|e| e["kind"] == "tool_result")
        .and_then(|e| e["id"].as_u64())
        .unwrap();
    let out = env.run(&["sessions", "select", &id, &result.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn selecting_inside_a_finished_turn_and_back_never_changes_how_its_work_ended() {
    let env = Env::new();
    let id = "0190f3a4-5b6c-7d8e-9f00-112233445566";
    let run = |prompt: &str| {
        env.run(&[
            "eval",
            "-m",
            "scripted/tool-call",
            "--session-id",
            id,
            "--dedup-key",
            "k1",
            prompt,
        ])
    };
    let out = run("read the readme");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let entries = records(&env.run(&["sessions", "get", id, "--json", "--limit", "1000"]));
    let of = |kind: &str| {
        entries
            .iter()
            .filter(|e| e["kind"] == kind)
            .filter_map(|e| e["id"].as_u64())
            .collect::<Vec<u64>>()
    };
    let (result, end) = (of("tool_result")[0], of("run_end")[0]);
    // A branch point inside the finished turn (its batch's last result), then its end again.
    for entry in [result, end, result] {
        let out = env.run(&["sessions", "select", id, &entry.to_string()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let out = env.run(&["sessions", "select", id, &end.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = records(&env.run(&["sessions", "get", id, "--json", "--limit", "1000"]));
    assert_eq!(
        after.iter().filter(|e| e["kind"] == "run_end").count(),
        1,
        "no run end was made up for work that ended"
    );
    // The retried submission finds its original, successful end.
    let out = run("read the readme");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let receipts = records(&env.run(&["sessions", "receipts", id, "--json"]));
    assert_eq!(receipts[0]["stop_reason"], "end_turn", "{receipts:?}");
}

#[test]
fn mutation_through_an_observer_fails_before_any_effect() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id: smith::SessionId = id_of(&files[0]).parse().unwrap();
    let (_writer, _) = smith_store::SessionWriter::open(&files[0], id).unwrap();
    let before = std::fs::read(&files[0]).unwrap();
    let out = env.run(&["sessions", "select", &id.to_string(), "1"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("open for writing"),
        "{}",
        stderr(&out)
    );
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--session",
        &id.to_string(),
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        before,
        "nothing was written"
    );
    // Reading and forking still work while the writer holds the session.
    let out = env.run(&["sessions", "verify", &id.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = env.run(&["sessions", "fork", &id.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn damage_and_odd_files_get_the_documented_statuses() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id = id_of(&files[0]);
    // A flipped byte inside one entry's body: get shows every other entry and exits 3.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let clean = bytes.clone();
    let needle = b"README";
    let at = bytes.windows(needle.len()).position(|w| w == needle);
    let at = at.expect("an uncompressed body holds the text");
    bytes[at] ^= 0x20;
    std::fs::write(&files[0], &bytes).unwrap();
    let out = env.run(&["sessions", "get", &id, "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let shown = records(&out).len();
    assert!(
        shown >= 4,
        "the intact entries are still shown ({shown} records)"
    );
    assert!(stderr(&out).contains("withheld"), "{}", stderr(&out));
    // Records are validated on access: a page that ends before the damage reads none of it
    // (exit 0); verification reads everything and reports it; continuing the session reads
    // its selected branch, which runs through the damage, and refuses with exit 3.
    let out = env.run(&["sessions", "get", &id, "--limit", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&["sessions", "verify", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let out = env.run(&["eval", "-m", "scripted/demo", "--session", &id, "go on"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("damaged"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        bytes,
        "nothing was written"
    );
    // A torn tail is noted, nothing acknowledged is missing: exit 0.
    std::fs::write(&files[0], &clean[..clean.len() - 10]).unwrap();
    let out = env.run(&["sessions", "get", &id]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("never acknowledged"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&files[0], &clean).unwrap();
    // Cursors off the selected branch and --at 0 are usage errors.
    let other = id_of(&files[1]);
    assert!(
        env.run(&["sessions", "select", &other, "3"])
            .status
            .success()
    );
    assert!(
        env.run(&["eval", "-m", "scripted/demo", "--session", &other, "again"])
            .status
            .success()
    );
    let out = env.run(&["sessions", "get", &other, "--branch", "--cursor", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not on the selected branch"));
    let out = env.run(&["sessions", "fork", &other, "--at", "0"]);
    assert_eq!(out.status.code(), Some(2));
    // Something that is not a readable session file is an I/O failure (1), not damage (3).
    let bogus = env
        .sessions()
        .join(format!("{}.smith", smith::SessionId::new_now()));
    std::fs::create_dir(&bogus).unwrap();
    let out = env.run(&["sessions", "list"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot read session"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn watch_follows_a_running_session_without_gaps_and_stopping_it_leaves_the_work_alone() {
    use std::io::BufRead;
    let env = Env::new();
    let (id, path) = env.demo_session();
    let script = env.write(
        "gated.kdl",
        "round {\n  text \"before \"\n  gate \"hold\"\n  text \"after\"\n  stop \"end_turn\"\n}\n",
    );
    let run = env
        .command(&[
            "eval",
            "--json",
            "-m",
            "scripted/g",
            "--script",
            script.to_str().unwrap(),
            "--session",
            &id,
            "second",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    common::wait_for(&env.root.path().join("hold.waiting"));

    // One watcher follows from the start until the session is idle.
    let mut follower = env
        .command(&["sessions", "watch", &id, "--json", "--until-idle"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Another is cancelled mid-run: the run must not notice.
    let mut quitter = env
        .command(&["sessions", "watch", &id, "--from", "3"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut quitter_out = std::io::BufReader::new(quitter.stdout.take().unwrap());
    let mut lines = std::io::BufReader::new(follower.stdout.take().unwrap()).lines();
    // The history so far arrives before the run goes on.
    let mut seen: Vec<serde_json::Value> = Vec::new();
    let committed = smith_store::read_session(&path).unwrap().entries.len();
    while seen.len() < committed {
        seen.push(serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap());
    }
    // Once it printed (its signal handler is in place), interrupt it.
    let mut first = String::new();
    quitter_out.read_line(&mut first).unwrap();
    assert!(first.starts_with("#3 "), "{first}");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(quitter.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    assert_eq!(
        quitter.wait().unwrap().code(),
        Some(0),
        "ending a watch is a success"
    );

    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "the run finished normally");
    for line in lines {
        seen.push(serde_json::from_str(&line.unwrap()).unwrap());
    }
    assert_eq!(follower.wait().unwrap().code(), Some(0));
    // Every committed entry exactly once, in commit order, as `get` shows them.
    let ids: Vec<u64> = seen.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    let all = smith_store::read_session(&path).unwrap().entries;
    assert_eq!(ids, all.iter().map(|e| e.id.0).collect::<Vec<_>>());
    let get = records(&env.run(&["sessions", "get", &id, "--json", "--limit", "1000"]));
    assert_eq!(
        seen[..],
        get[..get.len() - 1],
        "watch prints what get prints"
    );
    assert!(
        seen.iter()
            .any(|r| r["kind"] == "run_end" && r["id"].as_u64() == all.last().map(|e| e.id.0))
    );

    // A position past the end is refused, naming the valid ones.
    let out = env.run(&["sessions", "watch", &id, "--from", "999"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("positions are entry ids"),
        "{}",
        stderr(&out)
    );
    let _ = stdout(&out);
}

#[test]
fn export_streams_every_entry_of_get_once_in_order_and_says_damage() {
    let env = Env::new();
    let files = two_sessions(&env);
    let id = id_of(&files[0]);
    // Several runs of tool turns (the export reads 1000 entries a page, as `get` does).
    for n in 0..3 {
        let prompt = format!("again {n}");
        let out = env.run(&[
            "eval",
            "-m",
            "scripted/tool-call",
            "--session",
            &id,
            &prompt,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let before = std::fs::read(&files[0]).unwrap();
    let entries = |out: &std::process::Output| -> Vec<serde_json::Value> {
        records(out)
            .into_iter()
            .filter(|r| r["type"] == "entry")
            .collect()
    };
    let got = entries(&env.run(&["sessions", "get", &id, "--json", "--limit", "1000"]));
    let out = env.run(&["sessions", "export", &id]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Every line is one record, and only entries.
    let text = stdout(&out);
    assert!(
        text.lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l)
                .is_ok_and(|v| v["type"] == "entry"))
    );
    let exported = entries(&out);
    assert!(exported.len() > 10, "{}", exported.len());
    assert_eq!(exported, got, "the same records, once each, in order");
    // The selected branch, as `get --branch` pages it.
    let branch = entries(&env.run(&[
        "sessions", "get", &id, "--json", "--branch", "--limit", "1000",
    ]));
    assert_eq!(
        entries(&env.run(&["sessions", "export", &id, "--branch"])),
        branch
    );
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        before,
        "export changes nothing"
    );

    // A damaged body: the intact entries are exported, the damage is named, exit 3.
    let mut bytes = before.clone();
    let at = bytes
        .windows(6)
        .position(|w| w == b"README")
        .expect("an uncompressed body holds the text");
    bytes[at] ^= 0x20;
    std::fs::write(&files[0], &bytes).unwrap();
    let out = env.run(&["sessions", "export", &id]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("withheld"), "{}", stderr(&out));
    assert!(entries(&out).len() < exported.len() && !entries(&out).is_empty());
}

/// The branches tree the terminal UI's picker shows, over a real session with two branch
/// points: a message sent again from the end of the first turn, and one from the start.
#[test]
fn the_branches_tree_has_a_node_per_message_with_its_forks_tips_and_selection() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let eval = |text: &str| {
        let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", text]);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    let select = |entry: u64| {
        let out = env.run(&["sessions", "select", &id, &entry.to_string()]);
        assert!(out.status.success(), "{}", stderr(&out));
    };
    eval("two");
    let first_end = run_ends(&path)[0];
    select(first_end);
    eval("two again");
    let two_again_end = *run_ends(&path).last().unwrap();
    select(1);
    eval("start again");
    let tree = smith_app::inspect::branches(&path).unwrap();
    let shown: Vec<(&str, usize, bool, bool)> = tree
        .nodes
        .iter()
        .map(|n| (n.input.as_str(), n.depth, n.forks, n.selected))
        .collect();
    assert_eq!(
        shown,
        [
            ("start", 0, false, false),
            ("two", 0, false, false),
            ("two again", 1, true, false),
            ("start again", 1, true, true),
        ]
    );
    assert_eq!(tree.leaves, 3);
    // Each node continues the newest branch below it; a fork starts where its message was sent.
    assert_eq!(tree.nodes[0].tip.0, two_again_end);
    assert_eq!(tree.nodes[2].destination.map(|d| d.0), Some(first_end));
    assert_eq!(tree.nodes[3].destination.map(|d| d.0), Some(1));
    assert_eq!(tree.leaf, Some(tree.nodes[3].tip));
}

/// The ids of the session's `run_end` entries, in order.
fn run_ends(path: &std::path::Path) -> Vec<u64> {
    smith_store::read_session(path)
        .unwrap()
        .entries
        .iter()
        .filter(|e| matches!(e.record, smith_store::Record::RunEnd(_)))
        .map(|e| e.id.0)
        .collect()
}

#[test]
fn a_session_with_only_its_header_says_it_has_no_entries() {
    let env = Env::new();
    std::fs::create_dir_all(env.sessions()).unwrap();
    let id = smith::SessionId::new_now();
    // A valid file whose writer recorded nothing (created, then let go).
    drop(smith_store::SessionWriter::create(&env.sessions(), id).unwrap());
    let out = env.run(&["sessions", "get", &id.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains(&format!("session {id} has no entries yet")),
        "{}",
        stderr(&out)
    );
}

/// One damage, one account of it: continuing a session whose selected branch runs into a
/// damaged entry frame names the byte verification names (not the commit closing the change
/// the index led to first), and says once that the file was left unchanged.
#[test]
fn a_damaged_session_is_described_alike_by_eval_and_verify() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let middle = usize::try_from(std::fs::metadata(&path).unwrap().len()).unwrap();
    for prompt in ["second", "third"] {
        let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", prompt]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    // The head of the second turn's first entry frame is damaged.
    let mut bytes = std::fs::read(&path).unwrap();
    for b in &mut bytes[middle + 20..middle + 28] {
        *b ^= 0xff;
    }
    std::fs::write(&path, &bytes).unwrap();

    let verify = env.run(&["sessions", "verify", &id]);
    assert_eq!(verify.status.code(), Some(3), "{}", stderr(&verify));
    let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "fourth"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let said = stderr(&out);
    let at = said
        .split("is damaged at byte ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("no byte named: {said}"));
    assert!(
        stderr(&verify).contains(&format!("mismatch at byte {at}")),
        "eval names byte {at}, verification: {}",
        stderr(&verify)
    );
    let unchanged = said.matches("not changed").count() + said.matches("left unchanged").count();
    assert_eq!(unchanged, 1, "{said}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing was written");
}

/// Damage on a branch that is not selected does not stop a run on the selected one, but it
/// is said, with the command that shows it, rather than passed over while `sessions verify`
/// reports it.
#[test]
fn damage_on_a_branch_not_selected_is_warned_about_when_continuing() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let first_end = {
        let got = env.run(&["sessions", "get", &id, "--json"]);
        records(&got)
            .iter()
            .filter(|r| r["kind"] == "run_end")
            .map(|r| r["id"].as_u64().unwrap())
            .next_back()
            .unwrap()
    };
    let out = env.run(&[
        "eval",
        "--session",
        &id,
        "-m",
        "scripted/demo",
        "the other way",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let select = env.run(&["sessions", "select", &id, &first_end.to_string()]);
    assert_eq!(select.status.code(), Some(0), "{}", stderr(&select));
    let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "this way"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The answer on the branch no longer selected is damaged.
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes
        .windows(b"You said: the other way".len())
        .position(|w| w == b"You said: the other way")
        .expect("the answer is stored as written");
    for b in &mut bytes[at..at + 8] {
        *b ^= 0xff;
    }
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(env.run(&["sessions", "verify", &id]).status.code(), Some(3));

    let out = env.run(&["eval", "--session", &id, "-m", "scripted/demo", "onwards"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("session {id} has a damaged change at byte"))
            && stderr(&out).contains(&format!("`smith sessions verify {id}`")),
        "{}",
        stderr(&out)
    );
}
