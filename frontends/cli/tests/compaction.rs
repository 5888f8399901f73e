//! Compaction through the built binary against a real provider plugin over loopback HTTP
//! (SMH-SPEC-SPEC0001: Compaction, cost, and secrets; issue 29): `smith compact` sends the
//! summarized prefix with the bundled compaction plugin's ask, records the summary once,
//! `sessions get` still shows the raw history beside the summary, the next request starts from
//! the summary and its recorded request rebuilds exactly; a summary cut by the output limit or
//! a cut stream is not kept; a context overflow compacts once and runs the round again, or —
//! with `compaction.auto` off — fails naming the setting; eval `--json` carries the
//! compaction's records.

mod common;

use common::{Env, records, stderr, stdout};
use smith_ai::loopback;

const MODEL: &str = "openai-compatible/m";

/// An OpenAI chat SSE stream answering `text`, ending by `finish` (`stop`, `length`), or cut
/// before any finish when `finish` is `None`.
fn stream(text: &str, finish: Option<&str>) -> Vec<u8> {
    let text = serde_json::to_string(text).unwrap();
    let mut out = format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{text}}},\"finish_reason\":null}}]}}\n\n"
    );
    if let Some(finish) = finish {
        out.push_str(&format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"{finish}\"}}]}}\n\ndata: [DONE]\n\n"
        ));
    }
    out.into_bytes()
}

fn answer(text: &str) -> Vec<loopback::Step> {
    loopback::sse_in_pieces(&stream(text, Some("stop")), 29)
}

/// The refusal an OpenAI-compatible server sends for a context that does not fit.
fn overflow() -> Vec<loopback::Step> {
    loopback::json_response(
        "400 Bad Request",
        r#"{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
    )
}

fn base_url(server: &loopback::Server) -> String {
    format!("provider.openai-compatible.base-url={}/v1", server.url)
}

/// Run `args` with the loopback server as the provider and a key in the environment.
fn smith(env: &Env, server: &loopback::Server, args: &[&str]) -> std::process::Output {
    let url = base_url(server);
    let mut all = vec!["-c", url.as_str()];
    all.extend_from_slice(args);
    env.command(&all)
        .env("OPENAI_COMPATIBLE_API_KEY", "sk-test")
        .output()
        .unwrap()
}

/// A session of `turns` turns ("prompt N" + 400 bytes each), answered "answer N"; its id.
fn session(env: &Env, turns: usize) -> String {
    let server = loopback::serve((0..turns).map(|i| answer(&format!("answer {i}"))).collect());
    let mut id = String::new();
    for i in 0..turns {
        let prompt = format!("prompt {i} {}", "x".repeat(400));
        let mut args = vec!["eval", "--json", "-m", MODEL];
        if i > 0 {
            args.extend_from_slice(&["--session", &id]);
        }
        args.push(&prompt);
        let out = smith(env, &server, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        if i == 0 {
            id = records(&out)[0]["session"].as_str().unwrap().to_owned();
        }
    }
    id
}

/// The user messages' texts of an OpenAI chat request body.
fn users(sent: &serde_json::Value) -> Vec<String> {
    sent["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| match &m["content"] {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// What a run said about its rounds, attempts, compactions, messages and end: what its
/// replay must say the same.
fn shape(recs: &[serde_json::Value]) -> Vec<serde_json::Value> {
    recs.iter()
        .filter(|r| {
            matches!(
                r["type"].as_str(),
                Some(
                    "round_start"
                        | "round_end"
                        | "attempt"
                        | "attempt_failed"
                        | "compaction_start"
                        | "compaction_end"
                        | "message_end"
                        | "run_end"
                )
            )
        })
        .cloned()
        .collect()
}

/// The session's entries of `kind` as `sessions get --json` shows them.
fn entries(env: &Env, id: &str, kind: &str) -> Vec<serde_json::Value> {
    records(&env.run(&["sessions", "get", id, "--json", "--limit", "1000"]))
        .into_iter()
        .filter(|r| r["type"] == "entry" && r["kind"] == kind)
        .collect()
}

#[test]
fn smith_compact_summarizes_through_the_provider_and_the_next_request_starts_from_the_summary() {
    let env = Env::new();
    let id = session(&env, 3);
    let server = loopback::serve(vec![answer("SUMMARY of turns 0 and 1"), answer("done")]);
    let out = smith(
        &env,
        &server,
        &[
            "compact",
            &id,
            "--keep-tokens",
            "10",
            "--instructions",
            "the parser work",
            "-m",
            MODEL,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "SUMMARY of turns 0 and 1\n");
    assert!(
        stderr(&out).contains("compacting (manual)"),
        "{}",
        stderr(&out)
    );
    // The request: the summarized turns, then the bundled plugin's ask with the focus.
    let sent = server.request_json().expect("the compaction's request");
    let asked = users(&sent);
    assert!(asked[0].starts_with("prompt 0"), "{asked:?}");
    assert!(
        !asked.iter().any(|u| u.starts_with("prompt 2")),
        "{asked:?}"
    );
    let ask = asked.last().unwrap();
    assert!(ask.contains("Write the summary now"), "{ask}");
    assert!(ask.contains("focus on this: the parser work"), "{ask}");
    assert!(
        sent["tools"].is_array(),
        "the tools stay advertised: {sent}"
    );

    // History is kept: every prompt is still recorded, beside the summary.
    let messages = entries(&env, &id, "message");
    assert_eq!(messages.len(), 6, "{messages:?}");
    let compactions = entries(&env, &id, "compaction");
    assert_eq!(compactions.len(), 1);
    assert!(
        compactions[0]
            .to_string()
            .contains("SUMMARY of turns 0 and 1"),
        "{}",
        compactions[0]
    );
    // The compaction's recorded request rebuilds exactly from the file.
    let attempt = entries(&env, &id, "attempt").last().unwrap()["id"]
        .as_u64()
        .unwrap();
    let shown = records(&env.run(&[
        "sessions",
        "get",
        &id,
        "--request",
        &attempt.to_string(),
        "--json",
    ]));
    assert_eq!(shown[0]["verified"], true, "{}", shown[0]);

    // The next turn starts from the summary and carries the kept turn verbatim.
    let out = smith(
        &env,
        &server,
        &["eval", "--session", &id, "-m", MODEL, "go on"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let next = users(&server.request_json().expect("the next turn's request"));
    assert_eq!(next[0], "SUMMARY of turns 0 and 1", "{next:?}");
    assert!(next[1].starts_with("prompt 2"), "{next:?}");
    assert_eq!(next.last().unwrap(), "go on");
    assert_eq!(next.len(), 3, "{next:?}");
}

#[test]
fn a_summary_cut_by_the_output_limit_or_a_cut_stream_is_not_kept() {
    for (what, body) in [
        ("the output limit", stream("SUMMARY, trunc", Some("length"))),
        ("a cut stream", stream("SUMM", None)),
    ] {
        let env = Env::new();
        let id = session(&env, 3);
        let server = loopback::serve(vec![loopback::sse_in_pieces(&body, 17), answer("done")]);
        let out = smith(
            &env,
            &server,
            &["compact", &id, "--keep-tokens", "10", "-m", MODEL],
        );
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("compaction failed"),
            "{what}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{what}");
        assert!(entries(&env, &id, "compaction").is_empty(), "{what}");
        let _ = server.request();
        // The next request is the uncompacted conversation.
        let out = smith(
            &env,
            &server,
            &["eval", "--session", &id, "-m", MODEL, "go on"],
        );
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
        let next = users(&server.request_json().unwrap());
        assert!(next[0].starts_with("prompt 0"), "{what}: {next:?}");
        assert_eq!(next.len(), 4, "{what}: {next:?}");
    }
}

#[test]
fn a_context_overflow_compacts_once_and_retries_or_fails_naming_the_setting_when_off() {
    // On (the default): the refusal, the compaction, the round again from the summary.
    let env = Env::new();
    let id = session(&env, 3);
    let server = loopback::serve(vec![overflow(), answer("SUMMARY"), answer("fits now")]);
    let out = smith(
        &env,
        &server,
        &["eval", "--json", "--session", &id, "-m", MODEL, "go on"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let start = recs
        .iter()
        .find(|r| r["type"] == "compaction_start")
        .expect("a compaction_start record");
    assert_eq!(start["reason"], "overflow");
    let end = recs
        .iter()
        .find(|r| r["type"] == "compaction_end")
        .expect("a compaction_end record");
    assert_eq!(end["summary"], "SUMMARY");
    assert!(end["entry_id"].is_u64(), "{end}");
    let last = recs.last().unwrap();
    assert_eq!(last["type"], "run_end");
    assert_eq!(last["stop_reason"], "end_turn");
    let (first, ask, retried) = (
        users(&server.request_json().unwrap()),
        users(&server.request_json().unwrap()),
        users(&server.request_json().unwrap()),
    );
    assert_eq!(first.len(), 4, "{first:?}");
    assert!(ask.last().unwrap().contains("Write the summary now"));
    assert_eq!(retried[0], "SUMMARY", "{retried:?}");
    assert_eq!(retried.last().unwrap(), "go on");
    assert_eq!(entries(&env, &id, "compaction").len(), 1);

    // Off: the same refusal fails the run, naming the setting; nothing is compacted.
    let env = Env::new();
    let id = session(&env, 3);
    let server = loopback::serve(vec![overflow()]);
    let out = smith(
        &env,
        &server,
        &[
            "eval",
            "-c",
            "compaction.auto=false",
            "--session",
            &id,
            "-m",
            MODEL,
            "go on",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`compaction.auto`"),
        "{}",
        stderr(&out)
    );
    assert!(entries(&env, &id, "compaction").is_empty());
    assert_eq!(server.requests_now(), 1, "no compaction request was sent");
}

#[test]
fn compactions_replay_as_they_ran_with_no_key_and_no_connection_to_the_provider() {
    let env = Env::new();
    let id = session(&env, 3);
    let server = loopback::serve(vec![overflow(), answer("SUMMARY"), answer("fits now")]);
    let live = smith(
        &env,
        &server,
        &["eval", "--json", "--session", &id, "-m", MODEL, "go on"],
    );
    assert_eq!(live.status.code(), Some(0), "{}", stderr(&live));
    let server = loopback::serve(vec![answer("MANUAL SUMMARY")]);
    let out = smith(
        &env,
        &server,
        &["compact", &id, "--keep-tokens", "10", "-m", MODEL],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // The provider's base URL is a listener that must see nothing, and there is no key.
    let idle = loopback::serve(vec![]);
    let url = base_url(&idle);
    let replay = env
        .command(&["-c", &url, "replay", &id, "--json", "--turns", "4"])
        .env_remove("OPENAI_COMPATIBLE_API_KEY")
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    assert_eq!(idle.requests_now(), 0, "a replay connects to no provider");
    let replayed = records(&replay);
    assert_eq!(replayed[0]["type"], "replay");
    // What the live run emitted about rounds, attempts and the compaction, the same.
    let live = shape(&records(&live));
    let replayed = shape(&replayed);
    assert_eq!(replayed[..live.len()], live[..]);
    // Then the manual compaction after the run, with its reason and summary.
    let rest: Vec<_> = replayed[live.len()..].iter().collect();
    let kinds: Vec<&str> = rest.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["compaction_start", "attempt", "compaction_end"]);
    assert_eq!(rest[0]["reason"], "manual");
    assert!(rest[0]["summarized"].as_u64().unwrap() > 0, "{}", rest[0]);
    assert_eq!(rest[2]["summary"], "MANUAL SUMMARY");
}

#[test]
fn compacting_what_fits_in_the_kept_context_is_a_usage_error_that_sends_nothing() {
    let env = Env::new();
    let id = session(&env, 1);
    let server = loopback::serve(vec![]);
    let out = smith(&env, &server, &["compact", &id, "-m", MODEL]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("nothing to compact"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--keep-tokens"), "{}", stderr(&out));
    assert_eq!(server.requests_now(), 0);
}

#[test]
fn a_request_past_the_threshold_of_the_catalogs_window_is_compacted_first() {
    let env = Env::new();
    let id = session(&env, 3);
    // From now on the model's record gives a 600-token window; with no instructions or tools
    // (their plugins disabled) the conversation alone passes half of it.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"openai-compatible/m\" {\n    tools #true\n    context 600\n}\n",
    )
    .unwrap();
    let server = loopback::serve(vec![answer("SUMMARY"), answer("done")]);
    let out = smith(
        &env,
        &server,
        &[
            "eval",
            "--json",
            "-c",
            "compaction.threshold=50",
            "-c",
            "compaction.keep-tokens=10",
            "--disable-plugin",
            "files",
            "--disable-plugin",
            "shell",
            "--disable-plugin",
            "docs",
            "--disable-plugin",
            "web",
            "--disable-plugin",
            "todo",
            "--disable-plugin",
            "prompt",
            "--session",
            &id,
            "-m",
            MODEL,
            "go on",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let start = recs
        .iter()
        .find(|r| r["type"] == "compaction_start")
        .expect("a compaction_start record");
    assert_eq!(start["reason"], "threshold");
    let ask = users(&server.request_json().expect("the compaction's request"));
    assert!(
        ask.last().unwrap().contains("Write the summary now"),
        "{ask:?}"
    );
    assert!(ask[0].starts_with("prompt 0"), "{ask:?}");
    let round = users(&server.request_json().expect("the round's request"));
    assert_eq!(round[0], "SUMMARY", "{round:?}");
    assert_eq!(round.last().unwrap(), "go on");
    assert_eq!(entries(&env, &id, "compaction").len(), 1);
    // Usage: the summary's attempt and the answer's, each counted once.
    let attempts = entries(&env, &id, "attempt");
    assert_eq!(attempts.len(), 5, "three turns, the compaction, the answer");
    // The replay shows the compaction inside the round it preceded, as the run did.
    let replay = env.run(&["replay", &id, "--json", "--turns", "4"]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    assert_eq!(shape(&records(&replay)), shape(&recs));
}
