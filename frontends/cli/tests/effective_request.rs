//! The effective request against a real provider plugin over loopback HTTP (SMH-SPEC-SPEC0001:
//! Sessions → Effective request context, Context edits; plan SMH-PLAN-99TPLN9I B1, B3): the
//! bundled prompt and AGENTS.md plugins give the instructions, a context edit changes what the
//! next request carries while inspection keeps the original, navigating before the edit
//! restores it, each recorded request encodes again to the exact bytes the server received —
//! offline and without a credential — and a request that cannot be recorded is never sent.

mod common;

use common::{Env, records, stderr, stdout};
use smith_ai::loopback;

const TEXT: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello from the loopback model\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

const LS_CALL: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"ls\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";

const CANARY: &str = "sk-canary-5d1e0b";

const MODEL: &str = "openai-compatible/m";

fn base_url(server: &loopback::Server) -> String {
    format!("provider.openai-compatible.base-url={}/v1", server.url)
}

/// The body bytes of a raw HTTP request.
fn body(raw: &[u8]) -> Vec<u8> {
    let at = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a request head")
        + 4;
    raw[at..].to_vec()
}

fn json(raw: &[u8]) -> serde_json::Value {
    serde_json::from_slice(&body(raw)).expect("a JSON body")
}

/// The system message's text of an OpenAI chat request.
fn system(sent: &serde_json::Value) -> String {
    assert_eq!(sent["messages"][0]["role"], "system", "{sent}");
    sent["messages"][0]["content"].as_str().unwrap().to_owned()
}

/// The session's only file's id.
fn session_id(env: &Env) -> String {
    let path = env.session_files().remove(0);
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

/// The entry ids of `kind` (as `sessions get --json` names it), in order.
fn entries_of(env: &Env, id: &str, kind: &str) -> Vec<u64> {
    records(&env.run(&["sessions", "get", id, "--json", "--limit", "1000"]))
        .iter()
        .filter(|r| r["type"] == "entry" && r["kind"] == kind)
        .map(|r| r["id"].as_u64().unwrap())
        .collect()
}

/// `sessions get ID --request ATTEMPT --wire --json`, run with no credential in the
/// environment: the wire record.
fn wire(env: &Env, id: &str, attempt: u64) -> serde_json::Value {
    let out = env.run(&[
        "sessions",
        "get",
        id,
        "--request",
        &attempt.to_string(),
        "--wire",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", stdout(&out));
    recs.remove(0)
}

#[test]
fn agents_md_enters_the_first_request_and_its_change_only_the_next_and_every_request_encodes_again_exactly()
 {
    let env = Env::new();
    // The temp root is the project: a work tree whose AGENTS.md applies.
    std::fs::create_dir(env.root.path().join(".git")).unwrap();
    let agents = env.write("AGENTS.md", "Run the tests with `make check`.\n");
    // Round 1 is held until the test has changed the file.
    let mut first = vec![loopback::Step::Wait];
    first.extend(loopback::sse_in_pieces(LS_CALL.as_bytes(), 11));
    let server = loopback::serve(vec![first, loopback::sse_in_pieces(TEXT.as_bytes(), 13)]);
    let child = env
        .command(&[
            "eval",
            "-c",
            &base_url(&server),
            "-m",
            MODEL,
            "list the files",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let round1 = server.request().expect("round 1's request");
    // Round 1's request is fixed before it was sent: changing the file now reaches only the
    // next request.
    std::fs::write(&agents, "Run the tests with `cargo test --workspace`.\n").unwrap();
    server.go();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let round2 = server.request().expect("round 2's request");
    let (one, two) = (system(&json(&round1)), system(&json(&round2)));
    assert!(
        one.starts_with("You are Smith, a coding agent"),
        "the bundled prompt comes first: {one}"
    );
    let path = agents.canonicalize().unwrap();
    assert!(
        one.contains(&format!("Instructions from {}", path.display())),
        "{one}"
    );
    assert!(
        one.contains("make check") && !one.contains("cargo test --workspace"),
        "{one}"
    );
    assert!(
        two.contains("cargo test --workspace") && !two.contains("make check"),
        "{two}"
    );
    assert!(one.contains(&format!(
        "Working directory: {}",
        env.root.path().canonicalize().unwrap().display()
    )));

    // Inspection rebuilds each request from the file alone: round 1 still says what it said.
    let id = session_id(&env);
    let attempts = entries_of(&env, &id, "attempt");
    assert_eq!(attempts.len(), 2);
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "1.1.1", "--json"]));
    assert_eq!(shown[0]["type"], "request");
    assert_eq!(shown[0]["verified"], true);
    assert_eq!(shown[0]["attempt"], attempts[0]);
    assert_eq!(shown[0]["instructions"], one.as_str());
    assert_eq!(shown[0]["pieces"][1]["handler"], "agents-md@0.1.0");
    assert_eq!(
        shown[0]["pieces"][1]["source"],
        path.display().to_string().as_str()
    );
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "1.2.1", "--json"]));
    assert_eq!(shown[0]["instructions"], two.as_str());
    // Each recorded request, encoded again by the recorded provider plugin generation, is the
    // body the server received, byte for byte — with no credential and no server.
    drop(server);
    for (attempt, raw) in attempts.iter().zip([&round1, &round2]) {
        let w = wire(&env, &id, *attempt);
        assert_eq!(
            w["body"].as_str().unwrap().as_bytes(),
            body(raw).as_slice(),
            "attempt {attempt}"
        );
        assert_eq!(w["method"], "POST");
        assert_eq!(w["path"], "/chat/completions");
        let text = w.to_string();
        assert!(!text.contains(CANARY), "{text}");
    }
    // The unchanged prompt piece and tool definitions were recorded once, not per round.
    let inputs = entries_of(&env, &id, "request_input");
    assert_eq!(
        inputs.len(),
        4,
        "the prompt, two AGENTS.md versions and the tools"
    );
}

#[test]
fn a_context_edit_reaches_the_next_request_while_history_keeps_the_original_and_navigating_before_it_restores_it()
 {
    let env = Env::new();
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
    ]);
    let flag = base_url(&server);
    let out = env.run(&["eval", "-c", &flag, "-m", MODEL, "my password is hunter2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = json(&server.request().unwrap());
    assert_eq!(first["messages"][1]["content"], "my password is hunter2");
    let id = session_id(&env);
    let user = entries_of(&env, &id, "message")[0];
    let before_edit = entries_of(&env, &id, "run_end")[0];
    let replacement = env.write("redacted.txt", "(the user shared a password here)");
    let out = env.run(&[
        "sessions",
        "edit",
        &id,
        "--replace",
        &format!("{user}={}", replacement.display()),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("context edit"), "{}", stdout(&out));

    let out = env.run(&["eval", "-c", &flag, "-m", MODEL, "--session", &id, "go on"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let second = json(&server.request().unwrap());
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"], "(the user shared a password here)");
    assert_eq!(messages[3]["content"], "go on");
    assert!(!second.to_string().contains("hunter2"), "{second}");
    // Raw history keeps the original; the edited request says which edit changed the item.
    let got = records(&env.run(&["sessions", "get", &id, "--json"]));
    let original = got.iter().find(|r| r["id"] == user).unwrap();
    assert_eq!(
        original["record"]["message"]["content"][0]["text"],
        "my password is hunter2"
    );
    let edit = entries_of(&env, &id, "context_edit")[0];
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "2.1.1", "--json"]));
    assert_eq!(shown[0]["context"][0]["entry"], user);
    assert_eq!(shown[0]["context"][0]["edited_by"], edit);

    // Back before the edit: the next request sees the original again.
    let out = env.run(&["sessions", "select", &id, &before_edit.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&["eval", "-c", &flag, "-m", MODEL, "--session", &id, "again"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let third = json(&server.request().unwrap());
    assert_eq!(third["messages"][1]["content"], "my password is hunter2");
    assert_eq!(third["messages"][3]["content"], "again");
    // Three turns, each in its own process, recorded the unchanged prompt and tools once.
    assert_eq!(entries_of(&env, &id, "request_input").len(), 2);

    // A batch that would break pairing, an off-branch target or a non-message is refused
    // and changes nothing.
    let before = std::fs::read(env.session_files().remove(0)).unwrap();
    let edited_leaf = entries_of(&env, &id, "message")[3];
    for (args, says) in [
        (vec!["--omit", "99999"], "has no entry 99999"),
        (
            vec!["--omit", &edited_leaf.to_string()],
            "not on the selected branch",
        ),
        (vec!["--omit", "1"], "not a message or tool result"),
        (
            vec!["--replace", &format!("{user}=")],
            "names no FILE after `=`",
        ),
        (
            vec!["--replace", &format!("{user}=/dev/null")],
            "is empty; an empty message",
        ),
        (
            vec!["--replace", &format!("{user}=-"), "--replace", "2=-"],
            "read standard input",
        ),
    ] {
        let mut all = vec!["sessions", "edit", &id];
        all.extend(args.iter().copied());
        let out = env.run(&all);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
    assert_eq!(
        std::fs::read(env.session_files().remove(0)).unwrap(),
        before,
        "refused batches write nothing"
    );
}

/// A file-size limit that lets the submission be recorded but not the attempt and its
/// request: the provider is never asked.
#[test]
fn a_request_that_cannot_be_recorded_is_never_sent() {
    let env = Env::new();
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
    ]);
    // Warm the shared compile cache with the same plugins (the limit would make its writes
    // fail too).
    let warm = env.run(&[
        "eval",
        "--no-session",
        "-c",
        &base_url(&server),
        "-m",
        MODEL,
        "warm",
    ]);
    assert_eq!(warm.status.code(), Some(0), "{}", stderr(&warm));
    server.request().expect("the warming request");
    // An AGENTS.md of 60 KB of pseudo-random text the store cannot compress below the limit
    // (32 KiB: the plugins' memory images fit under it).
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let text: String = (0..60_000)
        .map(|i| {
            if i % 80 == 79 {
                return '\n';
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(b'a' + (x % 26) as u8)
        })
        .collect();
    env.write("AGENTS.md", &text);
    let cmd = env.command(&["eval", "-c", &base_url(&server), "-m", MODEL, "hello"]);
    let out = common::under_file_size_limit(&cmd, 64).output().unwrap();
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not record"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.requests_now(), 0, "nothing was sent");
    // The session holds the submission and its failed end, and no attempt.
    let id = session_id(&env);
    assert!(entries_of(&env, &id, "attempt").is_empty());
    assert_eq!(entries_of(&env, &id, "run_end").len(), 1);
}

/// A secret in an AGENTS.md file reaches neither the provider nor the session as plaintext:
/// the request carries its reference, the recorded piece too, and the rebuilt request still
/// hashes to what was sent.
#[test]
fn a_secret_in_agents_md_is_sent_and_recorded_as_its_reference() {
    let env = Env::new();
    let value = "ghp_agentsmd0123456789abcdef";
    env.write("AGENTS.md", &format!("Deploy with the token {value}.\n"));
    let server = loopback::serve(vec![loopback::sse_in_pieces(TEXT.as_bytes(), 17)]);
    let out = env
        .command(&[
            "eval",
            "-c",
            "secrets.env=DEPLOY_TOKEN",
            "-c",
            &base_url(&server),
            "-m",
            MODEL,
            "deploy",
        ])
        .env("DEPLOY_TOKEN", value)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let raw = server.request().unwrap();
    let sent = String::from_utf8_lossy(&raw);
    assert!(!sent.contains(value), "the provider never sees the value");
    assert!(system(&json(&raw)).contains("⟦secret:DEPLOY_TOKEN⟧"));
    let file = std::fs::read(env.session_files().remove(0)).unwrap();
    assert!(!file.windows(value.len()).any(|w| w == value.as_bytes()));
    let id = session_id(&env);
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "1.1.1", "--json"]));
    assert_eq!(shown[0]["verified"], true, "{}", shown[0]);
    assert!(
        shown[0]["instructions"]
            .as_str()
            .unwrap()
            .contains("⟦secret:DEPLOY_TOKEN⟧")
    );
}

/// A project written for Claude Code works unchanged: its CLAUDE.md is sent to the provider
/// and recorded as the request's context, headed by its path; `context.files` can leave it out.
#[test]
fn a_claude_md_enters_the_request_where_no_agents_md_is() {
    let env = Env::new();
    std::fs::create_dir(env.root.path().join(".git")).unwrap();
    let claude = env.write("CLAUDE.md", "Format with `pnpm fmt` before committing.\n");
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
        loopback::sse_in_pieces(TEXT.as_bytes(), 17),
    ]);
    let out = env
        .command(&["eval", "-c", &base_url(&server), "-m", MODEL, "hi"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = system(&json(&server.request().unwrap()));
    assert!(
        sent.contains(&format!("# Instructions from {}", claude.display()))
            && sent.contains("Format with `pnpm fmt` before committing."),
        "{sent}"
    );
    let id = session_id(&env);
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "1.1.1", "--json"]));
    assert_eq!(shown[0]["verified"], true, "{}", shown[0]);
    assert!(
        shown[0]["instructions"]
            .as_str()
            .unwrap()
            .contains("pnpm fmt"),
        "{}",
        shown[0]
    );
    // Only AGENTS.md, as the user chose: the project's CLAUDE.md is not read.
    let out = env
        .command(&[
            "eval",
            "-c",
            "context.files=AGENTS.md",
            "-c",
            &base_url(&server),
            "-m",
            MODEL,
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = system(&json(&server.request().unwrap()));
    assert!(!sent.contains("pnpm fmt"), "{sent}");
    // A name no context handler reads is said, and the handler's own order applies.
    let out = env
        .command(&[
            "eval",
            "-c",
            "context.files=GEMINI.md",
            "-c",
            &base_url(&server),
            "-m",
            MODEL,
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("context.files: no context handler reads `GEMINI.md`")
            && said.contains("their own order applies: AGENTS.md, CLAUDE.md"),
        "{said}"
    );
    let sent = system(&json(&server.request().unwrap()));
    assert!(sent.contains("pnpm fmt"), "{sent}");
}

/// The bundled `docs` tool searches and reads Smith's own documentation, bounded, and says
/// how to continue; bad calls are answered with what to do.
#[test]
fn the_docs_tool_searches_and_reads_the_built_in_documentation() {
    let env = Env::new();
    let script = env.write(
        "docs.kdl",
        r##"round {
  tool-call id="c1" name="docs" arguments=#"{"search": "context edit replace omit"}"#
  tool-call id="c2" name="docs" arguments=#"{"get": "context", "limit": 5}"#
  tool-call id="c3" name="docs" arguments=#"{"get": "contxt"}"#
  tool-call id="c4" name="docs" arguments=#"{}"#
  stop "tool_use"
}
round {
  text "done"
  stop "end_turn"
}
"##,
    );
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/t",
        "--script",
        script.to_str().unwrap(),
        "how do I edit the context?",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends: Vec<serde_json::Value> = records(&out)
        .into_iter()
        .filter(|r| r["type"] == "tool_end")
        .collect();
    assert_eq!(ends.len(), 4);
    let text = |i: usize| ends[i]["output"].as_str().unwrap().to_owned();
    assert_eq!(ends[0]["is_error"], false, "{}", text(0));
    assert!(
        text(0).contains("context — What the model sees"),
        "{}",
        text(0)
    );
    assert!(text(0).contains("{\"get\": \"ID\""), "{}", text(0));
    assert_eq!(ends[1]["is_error"], false, "{}", text(1));
    assert!(
        text(1).starts_with("What the model sees (context) — lines 1–5 of"),
        "{}",
        text(1)
    );
    assert!(text(1).contains("(more: {\"get\": \"context\", \"offset\": 6})"));
    assert_eq!(ends[2]["is_error"], true);
    assert!(
        text(2).contains("context"),
        "closest ids named: {}",
        text(2)
    );
    assert_eq!(ends[3]["is_error"], true);
    assert!(text(3).contains("exactly one of"), "{}", text(3));
}

/// The instructions are plugins like any other: disabled, the request carries none, and its
/// record says so.
#[test]
fn with_the_prompt_and_context_plugins_disabled_no_instructions_are_sent() {
    let env = Env::new();
    env.write("AGENTS.md", "Never seen.\n");
    let server = loopback::serve(vec![loopback::sse_in_pieces(TEXT.as_bytes(), 17)]);
    let out = env.run(&[
        "eval",
        "--disable-plugin",
        "prompt",
        "--disable-plugin",
        "agents-md",
        "-c",
        &base_url(&server),
        "-m",
        MODEL,
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = json(&server.request().unwrap());
    assert_eq!(sent["messages"][0]["role"], "user", "{sent}");
    assert_eq!(sent["messages"][0]["content"], "hi");
    let id = session_id(&env);
    let shown = records(&env.run(&["sessions", "get", &id, "--request", "1.1.1", "--json"]));
    assert!(shown[0]["instructions"].is_null(), "{}", shown[0]);
    assert_eq!(shown[0]["verified"], true);
}

/// An edit needs the writer lock: while another process writes the session (held at a gate)
/// it is refused with exit 4 and the file is unchanged; once the run ends it applies.
#[test]
fn an_edit_of_a_session_another_process_writes_is_refused() {
    let env = Env::new();
    let (id, path) = env.demo_session();
    let script = env.write(
        "hold.kdl",
        "round {\n  gate \"hold\"\n  text \"held\"\n  stop \"end_turn\"\n}\n",
    );
    let mut run = env
        .command(&[
            "eval",
            "-m",
            "scripted/t",
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
    let user = entries_of(&env, &id, "message")[0];
    let before = std::fs::read(&path).unwrap();
    let out = env.run(&["sessions", "edit", &id, "--omit", &user.to_string()]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("another Smith process"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was written");
    std::fs::write(env.root.path().join("hold.release"), "").unwrap();
    assert!(run.wait().unwrap().success());
    // Once the run has ended the same edit applies.
    let out = env.run(&["sessions", "edit", &id, "--omit", &user.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
