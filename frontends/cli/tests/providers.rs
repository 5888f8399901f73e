//! `smith eval` against provider plugins over loopback HTTP servers (no test reaches the
//! internet): an `openai-compatible/<any-name>` model with only a base URL, a tool-using
//! round whose next request pairs the result with the recorded call id, a cut stream failing
//! the run, and a credential canary that never leaves the request header.

mod common;

use common::{Env, Vendor, records, stderr, stdout};
use smith_ai::loopback;

const TEXT: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello from the loopback model\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

const CANARY: &str = "sk-canary-7f3a9e";

fn base_url_flag(url: &str) -> String {
    format!("provider.openai-compatible.base-url={url}/v1")
}

#[test]
fn an_openai_compatible_model_of_any_name_needs_only_a_base_url() {
    let env = Env::new();
    let server = loopback::serve(vec![loopback::sse_in_pieces(TEXT.as_bytes(), 5)]);
    let out = env.run(&[
        "eval",
        "-c",
        &base_url_flag(&server.url),
        "-m",
        "openai-compatible/my-local-model",
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Hello from the loopback model"),
        "{}",
        stdout(&out)
    );
    let sent = server.request_json().unwrap();
    assert_eq!(sent["model"], "my-local-model");
    // The bundled prompt plugin's instructions come first, then the prompt.
    assert_eq!(sent["messages"][0]["role"], "system");
    assert!(
        sent["messages"][0]["content"]
            .as_str()
            .unwrap()
            .starts_with("You are Smith, a coding agent")
    );
    assert_eq!(sent["messages"][1]["content"], "hi");
}

#[test]
fn a_tool_round_sends_the_result_paired_by_the_recorded_call_id_and_the_key_stays_secret() {
    let env = Env::new();
    std::fs::write(env.root.path().join("marker.txt"), "x").unwrap();
    let call = "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_77\",\"type\":\"function\",\"function\":{\"name\":\"ls\",\"arguments\":\"{}\"}}]},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(call.as_bytes(), 7),
        loopback::sse_in_pieces(TEXT.as_bytes(), 7),
    ]);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base_url_flag(&server.url),
            "-m",
            "openai-compatible/m",
            "list the files",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(
        first
            .to_lowercase()
            .contains(&format!("authorization: bearer {CANARY}").to_lowercase())
    );
    let second = server.request_json().unwrap();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[2]["tool_calls"][0]["id"], "call_77");
    assert_eq!(messages[3]["role"], "tool");
    assert_eq!(messages[3]["tool_call_id"], "call_77");
    assert!(
        messages[3]["content"]
            .as_str()
            .unwrap()
            .contains("marker.txt")
    );
    // The canary is in no output and in no session file.
    let records = records(&out);
    assert!(records.iter().any(|r| r["type"] == "tool_end"));
    assert!(!stdout(&out).contains(CANARY) && !stderr(&out).contains(CANARY));
    for file in env.session_files() {
        let bytes = std::fs::read(file).unwrap();
        assert!(!bytes.windows(CANARY.len()).any(|w| w == CANARY.as_bytes()));
    }
}

#[test]
fn a_stream_cut_before_its_end_fails_the_run_and_is_recorded() {
    let env = Env::new();
    let cut = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Half an ans\"},\"finish_reason\":null}]}\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(cut.as_bytes(), 9)]);
    let out = env.run(&[
        "eval",
        "-c",
        &base_url_flag(&server.url),
        "-m",
        "openai-compatible/m",
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cut off"), "{}", stderr(&out));
}

#[test]
fn an_unreachable_server_and_a_missing_key_say_what_to_do() {
    let env = Env::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = env.run(&[
        "eval",
        "-c",
        &format!("provider.openai-compatible.base-url=http://127.0.0.1:{port}/v1"),
        "-m",
        "openai-compatible/m",
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("check the base URL"),
        "{}",
        stderr(&out)
    );
    let out = env
        .command(&["eval", "-m", "anthropic/claude-haiku-4-5", "hi"])
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ANTHROPIC_API_KEY"),
        "{}",
        stderr(&out)
    );
    let out = env.run(&["eval", "-m", "nowhere/x", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("anthropic") && stderr(&out).contains("openai-compatible"),
        "{}",
        stderr(&out)
    );
}

/// Opt-in end-to-end test against a real OpenAI-compatible server (for example llama.cpp's
/// `llama-server`): runs when `SMITH_TEST_OPENAI_COMPATIBLE_URL` names its `/v1` base URL and
/// the server is reachable; otherwise it is skipped and says so on stderr.
#[test]
// A skipped opt-in test says so on stderr.
#[allow(clippy::print_stderr)]
fn a_real_local_server_answers_when_one_is_named() {
    let Ok(url) = std::env::var("SMITH_TEST_OPENAI_COMPATIBLE_URL") else {
        eprintln!(
            "skipped: no real server named; set SMITH_TEST_OPENAI_COMPATIBLE_URL=http://127.0.0.1:8080/v1 to run against a local llama.cpp server"
        );
        return;
    };
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let reachable = std::net::ToSocketAddrs::to_socket_addrs(&authority)
        .ok()
        .and_then(|mut a| a.next())
        .is_some_and(|addr| {
            std::net::TcpStream::connect_timeout(&addr, std::time::Duration::from_secs(2)).is_ok()
        });
    if !reachable {
        eprintln!("skipped: {url} is not reachable");
        return;
    }
    let env = Env::new();
    let out = env.run(&[
        "eval",
        "-c",
        &format!("provider.openai-compatible.base-url={url}"),
        "-m",
        "openai-compatible/local",
        "Answer with one word: hello",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).trim().is_empty());
}

#[test]
fn each_vendor_runs_through_eval_with_its_key_and_base_url() {
    // Catalogued models of each vendor (the bundled catalog).
    for Vendor {
        id,
        model,
        key_var: env_var,
        text_stream: body,
        request_line: path,
    } in common::VENDORS
    {
        let env = Env::new();
        let server = loopback::serve(vec![loopback::sse_in_pieces(body.as_bytes(), 5)]);
        let out = env
            .command(&[
                "eval",
                "-c",
                &format!("provider.{id}.base-url={}", server.url),
                "-m",
                &format!("{id}/{model}"),
                "hi",
            ])
            .env(env_var, CANARY)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{id}: {}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!("from {id}")),
            "{id}: {}",
            stdout(&out)
        );
        let request = String::from_utf8(server.request().unwrap()).unwrap();
        assert!(request.starts_with(path), "{id}: {request}");
        assert!(
            request.contains(CANARY),
            "{id}: the key is sent in its header"
        );
        assert!(!stderr(&out).contains(CANARY) && !stdout(&out).contains(CANARY));
    }
}

#[test]
fn a_tool_the_policy_refuses_is_not_in_the_request_the_provider_receives() {
    let env = Env::new();
    let names = |extra: &[&str]| -> Vec<String> {
        let server = loopback::serve(vec![loopback::sse_in_pieces(TEXT.as_bytes(), 64)]);
        let base = base_url_flag(&server.url);
        let mut args = vec!["eval", "-c", &base, "-m", "openai-compatible/m", "hi"];
        args.splice(1..1, extra.iter().copied());
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let sent = server.request_json().unwrap();
        sent["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    // Programs switched off: bash is not offered at all.
    let refused = names(&["-c", "process.allow=false"]);
    assert!(refused.contains(&"read".to_owned()), "{refused:?}");
    assert!(!refused.contains(&"bash".to_owned()), "{refused:?}");
    // An untrusted project offers it, each program asked first (the permissions guide).
    assert!(names(&[]).contains(&"bash".to_owned()));
    assert!(names(&["--allow-process"]).contains(&"bash".to_owned()));
}
