//! `smith docs` against the built binary (spec SMH-SPEC-SPEC0001: Documentation and help →
//! Retrieval).

mod common;

use common::{Env, records, stderr, stdout};

#[test]
fn list_then_get_every_document_in_both_forms() {
    let env = Env::new();
    let out = env.run(&["docs", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let docs = records(&out);
    assert!(docs.len() >= 8, "{docs:?}");
    let ids: Vec<String> = docs
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "list is ordered by id");
    let plain = stdout(&env.run(&["docs", "list"]));
    for id in &ids {
        assert!(
            plain.lines().any(|l| l.starts_with(id.as_str())),
            "{id} missing from readable list"
        );
        let got = env.run(&["docs", "get", id]);
        assert_eq!(got.status.code(), Some(0), "get {id}: {}", stderr(&got));
        let json = env.run(&["docs", "get", id, "--json"]);
        let rec = &records(&json)[0];
        assert_eq!(rec["id"], id.as_str());
        // Same content: piped readable output is the markdown the JSON record carries (a
        // document past the first window adds the line saying how to read on).
        let readable = stdout(&got);
        let readable = match readable.rfind("\n(lines 1..") {
            Some(at) if readable[at..].contains("continue with --lines") => &readable[..=at],
            _ => readable.as_str(),
        };
        assert_eq!(readable, rec["text"].as_str().unwrap(), "{id}");
        for link in rec["links"].as_array().unwrap() {
            if link["external"] == false {
                assert!(link["id"].is_string(), "{id}: unresolved link {link}");
            }
        }
    }
    assert!(!env.home().exists(), "docs touched SMITH_HOME");
}

#[test]
fn docs_work_from_an_empty_directory_with_an_empty_home() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let empty = env.root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = env
        .command(&["docs", "search", "session"])
        .current_dir(&empty)
        .env_remove("HOME")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("session"));
    assert_eq!(std::fs::read_dir(env.home()).unwrap().count(), 0);
}

#[test]
fn search_pages_through_all_results_exactly_once() {
    let env = Env::new();
    let all = records(&env.run(&["docs", "search", "smith", "--json", "--limit", "100"]));
    let page = all.last().unwrap();
    assert_eq!(page["type"], "page");
    assert!(page["next_cursor"].is_null());
    let expected: Vec<_> = all[..all.len() - 1]
        .iter()
        .map(|h| h["id"].clone())
        .collect();
    assert!(expected.len() >= 4);
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["docs", "search", "smith", "--json", "--limit", "3"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        let recs = records(&env.run(&args));
        let (page, hits) = recs.split_last().unwrap();
        assert!(hits.len() <= 3);
        seen.extend(hits.iter().map(|h| h["id"].clone()));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, expected);
    // Readable output names the continuation.
    let text = stdout(&env.run(&["docs", "search", "smith", "--limit", "1"]));
    assert!(text.contains("(results 1–1 of "), "{text}");
    assert!(text.contains("more with --cursor "), "{text}");
}

#[test]
fn the_first_hit_of_known_queries() {
    let env = Env::new();
    for (query, id) in [
        ("scripted provider gate", "scripted-provider"),
        ("torn tail recovery frame", "session-format"),
        ("exit status", "exit-status"),
    ] {
        let recs = records(&env.run(&["docs", "search", query, "--json"]));
        assert_eq!(recs[0]["id"], id, "{query}");
    }
}

#[test]
fn piped_output_has_no_escape_bytes() {
    let env = Env::new();
    for args in [
        vec!["docs", "list"],
        vec!["docs", "search", "session"],
        vec!["docs", "get", "eval"],
    ] {
        let out = env.run(&args);
        assert!(!out.stdout.contains(&0x1b), "{args:?}");
    }
}

#[test]
fn line_windows_and_their_errors() {
    let env = Env::new();
    let out = env.run(&["docs", "get", "eval", "--lines", "1..3"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().count(), 3);
    let rec = &records(&env.run(&["docs", "get", "eval", "--lines", "2..4", "--json"]))[0];
    assert_eq!(
        (rec["line_start"].as_u64(), rec["line_end"].as_u64()),
        (Some(2), Some(4))
    );
    assert!(rec["next_lines"].is_string());

    let out = env.run(&["docs", "get", "eval", "--lines", "9999..10000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("9999..10000"), "{}", stderr(&out));
    let out = env.run(&["docs", "get", "eval", "--lines", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`x`"));
}

#[test]
fn unknown_ids_name_the_closest() {
    let env = Env::new();
    let out = env.run(&["docs", "get", "sesion-format"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("`sesion-format`") && err.contains("session-format"),
        "{err}"
    );
    let out = env.run(&["docs", "search", "x", "--cursor", "0-00000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("different query"), "{}", stderr(&out));
    let out = env.run(&["docs", "search", "x", "--limit", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = env.run(&["docs", "get", "EVAL"]);
    assert!(stderr(&out).contains("closest: eval"), "{}", stderr(&out));
}

#[test]
fn hostile_queries_get_answers_not_crashes() {
    let env = Env::new();
    let out = env.run(&["docs", "search", "-session"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a leading - is query syntax: {}",
        stderr(&out)
    );
    let out = env.run(&["docs", "search", "zzqx\u{1b}[31mred"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !out.stdout.contains(&0x1b),
        "the echoed query carries an escape"
    );
    let nested = "(".repeat(5000);
    let out = env.run(&["docs", "search", &nested]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = env.run(&["docs", "search", &format!("{nested}session")]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "over the length bound: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("1000 characters"));
}

#[test]
fn a_question_is_answered_by_its_section_and_a_query_of_nothing_says_so() {
    let env = Env::new();
    let text = stdout(&env.run(&["docs", "search", "how do I continue a session"]));
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("eval  ")
            && first.contains("› Continuing a session")
            && first.contains("(smith docs get eval --lines "),
        "{text}"
    );
    // The printed window is that section.
    let lines = first
        .rsplit("--lines ")
        .next()
        .unwrap()
        .trim_end_matches(')');
    let section = stdout(&env.run(&["docs", "get", "eval", "--lines", lines]));
    assert!(section.starts_with("## Continuing a session"), "{section}");
    let json = records(&env.run(&["docs", "search", "how do I continue a session", "--json"]));
    assert_eq!(json[0]["section"], "Continuing a session");
    for nothing in ["xylophone quasar", "how do I knit a scarf", "the of and"] {
        let out = env.run(&["docs", "search", nothing]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out), format!("no document matches `{nothing}`\n"));
        let page = records(&env.run(&["docs", "search", nothing, "--json"]));
        assert_eq!(page.len(), 1);
        assert_eq!(page[0]["total"], 0);
    }
}

#[test]
fn completions_and_man_pages_come_from_the_declarations() {
    let env = Env::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (shell, file) in [
        ("bash", "smith.bash"),
        ("zsh", "_smith"),
        ("fish", "smith.fish"),
        ("powershell", "_smith.ps1"),
    ] {
        let out = env.run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let shipped = std::fs::read_to_string(root.join("dist/completions").join(file)).unwrap();
        assert_eq!(
            stdout(&out),
            shipped,
            "{shell}: the shipped script is stale"
        );
    }
    let out = env.run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));

    let page = stdout(&env.run(&["docs", "man", "eval"]));
    assert!(
        page.contains(&format!(
            ".TH smith-eval 1  \"smith {}\" \"Smith Manual\"",
            env!("CARGO_PKG_VERSION")
        )),
        "{page}"
    );
    assert!(page.contains("\\-\\-continue"), "{page}");
    let list = stdout(&env.run(&["docs", "man", "--list"]));
    assert!(list.lines().any(|l| l == "smith-sessions-list.1"), "{list}");
    // Every name `--list` prints opens its page, and so does the help's example given as one
    // argument or as words.
    for name in list.lines() {
        let out = env.run(&["docs", "man", name]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let stem = name.trim_end_matches(".1");
        assert!(stdout(&out).contains(&format!(".TH {stem} 1")), "{name}");
    }
    let words = stdout(&env.run(&["docs", "man", "sessions", "list"]));
    assert!(words.contains(".TH smith-sessions-list 1"), "{words}");
    assert_eq!(stdout(&env.run(&["docs", "man", "sessions list"])), words);
    assert_eq!(stdout(&env.run(&["docs", "man", "smith-eval.1"])), page);
    let out = env.run(&["docs", "man", "frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no manual page for `smith frobnicate`"),
        "{}",
        stderr(&out)
    );
}
