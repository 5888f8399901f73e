//! Model selection through the built binary (spec SMH-SPEC-SPEC0001: Providers, models, and
//! authentication → Model capabilities, Failover, Dispatch identity; Compaction, cost, and
//! secrets → cost accounting): aliases and groups from models.kdl, failover on a rate limit,
//! bounded retry of transient failures, no retry of an invalid request, capability checks
//! before any byte is sent, attempt records that keep the selection apart from the physical
//! dispatch, and usage priced per attempt — against real provider plugins and loopback HTTP
//! servers that play each vendor's documented wire format.

mod common;

use common::{Env, records, stderr};
use smith_ai::loopback;

const CANARY: &str = "sk-canary-route-5b1e";

/// A chat-completions stream answering `text`, with usage unless `usage` is empty.
fn chat(text: &str, usage: &str) -> Vec<loopback::Step> {
    let mut body = format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"{text}\"}},\"finish_reason\":null}}]}}\n\ndata: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\n"
    );
    if !usage.is_empty() {
        body.push_str(&format!("data: {{\"choices\":[],\"usage\":{usage}}}\n\n"));
    }
    body.push_str("data: [DONE]\n\n");
    loopback::sse_in_pieces(body.as_bytes(), 9)
}

fn error(status: &str) -> Vec<loopback::Step> {
    loopback::json_response(status, "{\"error\":{\"message\":\"no\"}}")
}

/// Two priced local models, an alias and a group.
const MODELS: &str = r#"
source "test-prices" date="2026-11-30" {
    title "prices made up for this test"
}
model "openai-compatible/primary" source="test-prices" {
    tools #true
    thinking "off" "high"
    price input=1.0 output=2.0 cache-read=0.5 cache-write=0
}
model "openai-compatible/backup" source="test-prices" {
    tools #true
    price input=10.0 output=20.0 cache-read=5.0 cache-write=0
}
model "openai-compatible/no-tools" source="test-prices" {
    tools #false
    price input=1.0 output=1.0 cache-read=1.0 cache-write=0
}
alias "fast" "main"
group "main" "openai-compatible/primary" "openai-compatible/backup"
group "picky" "openai-compatible/no-tools" "openai-compatible/backup"
"#;

fn env_with_models() -> Env {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(env.home().join("models.kdl"), MODELS).unwrap();
    env
}

fn eval(env: &Env, url: &str, model: &str, extra: &[&str]) -> std::process::Output {
    let base = format!("provider.openai-compatible.base-url={url}/v1");
    let mut args = vec!["eval", "--json", "-c", &base, "-m", model];
    args.extend_from_slice(extra);
    args.push("hi");
    env.command(&args)
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .output()
        .unwrap()
}

fn of_type<'r>(recs: &'r [serde_json::Value], kind: &str) -> Vec<&'r serde_json::Value> {
    recs.iter().filter(|r| r["type"] == kind).collect()
}

#[test]
fn a_rate_limit_fails_over_to_the_backup_which_is_priced_and_the_selection_stays() {
    let env = env_with_models();
    let usage = r#"{"prompt_tokens":1000,"completion_tokens":100,"prompt_tokens_details":{"cached_tokens":200}}"#;
    let server = loopback::serve(vec![
        error("429 Too Many Requests"),
        chat("from backup", usage),
    ]);
    let out = eval(&env, &server.url, "fast", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = server.request_json().unwrap();
    let second = server.request_json().unwrap();
    assert_eq!(first["model"], "primary");
    assert_eq!(second["model"], "backup");

    let recs = records(&out);
    assert_eq!(recs[0]["model"], "fast", "run_start carries the selection");
    let attempts = of_type(&recs, "attempt");
    assert_eq!(attempts.len(), 2);
    let (a1, a2) = (&attempts[0]["attempt"], &attempts[1]["attempt"]);
    for a in [a1, a2] {
        assert_eq!(
            a["selection"], "fast",
            "routing never changes the selection"
        );
        assert_eq!(a["round"], 1);
        assert_eq!(a["routing"]["source"], "group");
        assert_eq!(a["routing"]["of"], 2);
    }
    assert_eq!(a1["model"], "openai-compatible/primary");
    assert_eq!(
        a1["routing"]["path"],
        serde_json::json!(["fast", "main", "openai-compatible/primary"])
    );
    assert_eq!(a2["model"], "openai-compatible/backup");
    assert_eq!(a2["after"], "failover");
    assert_eq!(a2["number"], 2);
    assert_eq!(a2["capabilities"]["price"]["input"], 10.0);
    // Failover keeps the round's plugin generation.
    assert_eq!(a1["generation"], a2["generation"]);
    let failed = of_type(&recs, "attempt_failed");
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["failure"]["kind"], "rate_limited");
    assert_eq!(failed[0]["failure"]["next"], "failover");
    assert_eq!(failed[0]["failure"]["attempt"], attempts[0]["entry_id"]);

    // Priced at the backup's prices: 800 input, 200 cached, 100 output tokens.
    let want = (800.0 * 10.0 + 200.0 * 5.0 + 100.0 * 20.0) / 1e6;
    let usage = &of_type(&recs, "usage")[0];
    assert_eq!(usage["attempt"], attempts[1]["entry_id"]);
    assert_eq!(usage["model"], "openai-compatible/backup");
    let cost = usage["cost_usd"].as_f64().unwrap();
    assert!((cost - want).abs() < 1e-12, "{cost} != {want}");
    let end = recs.last().unwrap();
    assert!((end["cost_usd"].as_f64().unwrap() - want).abs() < 1e-12);

    // The session holds both attempts and the failure; inspection prices the same.
    let id = recs[0]["session"].as_str().unwrap();
    let got = records(&env.run(&["sessions", "get", id, "--json", "--usage"]));
    let kinds: Vec<&str> = got.iter().filter_map(|r| r["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        [
            "session_start",
            // The key variable's value is a secret the session is redacted against.
            "secret_registration",
            "submission",
            "model_change",
            "message",
            // The instructions and the tool definitions the request carries.
            "request_input",
            "request_input",
            "attempt",
            "request",
            "attempt_failed",
            "attempt",
            "request",
            "message",
            "run_end"
        ]
    );
    let summary = got.iter().find(|r| r["type"] == "usage").unwrap();
    assert_eq!(summary["attempts"][0]["failed"], "rate_limited");
    assert!(summary["attempts"][0]["usage"].is_null());
    assert!((summary["cost_usd"].as_f64().unwrap() - want).abs() < 1e-12);
    assert_eq!(
        summary["total"]["responses"], 1,
        "the refused attempt is no response"
    );

    // The key went only into request headers.
    let file = std::fs::read(&env.session_files()[0]).unwrap();
    assert!(!file.windows(CANARY.len()).any(|w| w == CANARY.as_bytes()));
    assert!(!String::from_utf8_lossy(&out.stdout).contains(CANARY));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(CANARY));
}

#[test]
fn transient_failures_are_retried_within_bounds_then_the_round_fails() {
    let env = env_with_models();
    // Twice unavailable, then an answer: two retries of the same model.
    let server = loopback::serve(vec![
        error("503 Service Unavailable"),
        error("503 Service Unavailable"),
        chat("third time", ""),
    ]);
    let out = eval(&env, &server.url, "openai-compatible/primary", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let attempts = of_type(&recs, "attempt");
    assert_eq!(attempts.len(), 3);
    assert_eq!(attempts[1]["attempt"]["after"], "retry");
    assert_eq!(attempts[2]["attempt"]["after"], "retry");
    assert!(
        attempts
            .iter()
            .all(|a| a["attempt"]["model"] == "openai-compatible/primary")
    );

    // Always unavailable: one try and two retries, then the round fails — never a fourth.
    let server = loopback::serve(vec![
        error("503 Service Unavailable"),
        error("503 Service Unavailable"),
        error("503 Service Unavailable"),
        chat("never asked", ""),
    ]);
    let out = eval(&env, &server.url, "openai-compatible/primary", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let recs = records(&out);
    assert_eq!(of_type(&recs, "attempt").len(), 3);
    let failed = of_type(&recs, "attempt_failed");
    assert_eq!(
        failed.len(),
        2,
        "the last failure ends the round as its response"
    );
    for _ in 0..3 {
        assert!(server.request().is_some());
    }
    assert!(server.requests_now() == 0, "a fourth request was sent");
}

#[test]
fn an_invalid_request_is_not_retried_nor_failed_over() {
    let env = env_with_models();
    // The server echoes the key it was sent: the echo is redacted everywhere.
    let echo = loopback::json_response(
        "400 Bad Request",
        &format!("{{\"error\":{{\"message\":\"bad request from Bearer {CANARY}\"}}}}"),
    );
    let server = loopback::serve(vec![echo, chat("never asked", "")]);
    let out = eval(&env, &server.url, "main", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let recs = records(&out);
    assert_eq!(of_type(&recs, "attempt").len(), 1);
    assert!(of_type(&recs, "attempt_failed").is_empty());
    assert!(server.request().is_some());
    assert_eq!(server.requests_now(), 0, "no second request");
    let end = recs.last().unwrap();
    assert_eq!(end["stop_reason"], "error");
    // Redacted before the codec read it: the key's reference, as everywhere else.
    assert!(
        end["error"]
            .as_str()
            .unwrap()
            .contains("from Bearer ⟦secret:OPENAI_COMPATIBLE_API_KEY⟧"),
        "{end}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains(CANARY));
    for file in env.session_files() {
        let bytes = std::fs::read(file).unwrap();
        assert!(!bytes.windows(CANARY.len()).any(|w| w == CANARY.as_bytes()));
    }
}

#[test]
fn a_capability_the_model_lacks_fails_before_any_byte_is_sent() {
    let env = env_with_models();
    let server = loopback::serve(vec![chat("never asked", "")]);
    // Tools are on (the bundled tool plugins), and this model has none: refused before the
    // input is admitted (a usage error, the run's one `error` record).
    let out = eval(&env, &server.url, "openai-compatible/no-tools", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(env.session_files().is_empty(), "no empty session is left");
    let recs = records(&out);
    assert_eq!(recs.last().unwrap()["type"], "error");
    let err = recs.last().unwrap()["message"].as_str().unwrap().to_owned();
    assert!(
        err.contains("cannot take this input, so nothing was written")
            && err.contains("openai-compatible/no-tools cannot take this request")
            && err.contains("tool use is not supported")
            && err.contains("test-prices"),
        "{err}"
    );
    assert!(of_type(&records(&out), "attempt").is_empty());
    // A thinking level the model does not list: refused while routing, before a session is
    // written (a usage error, the run's one `error` record).
    let sessions = env.session_files().len();
    let out = eval(
        &env,
        &server.url,
        "openai-compatible/backup",
        &["--thinking", "high"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let end = records(&out).pop().unwrap();
    assert_eq!(end["type"], "error", "{end}");
    assert!(
        end["message"]
            .as_str()
            .unwrap()
            .contains("thinking level `high`"),
        "{end}"
    );
    assert_eq!(env.session_files().len(), sessions, "nothing was written");
    assert_eq!(server.requests_now(), 0, "nothing reached the server");

    // In a group, the model that cannot take the request is passed over, on the record.
    let server = loopback::serve(vec![chat("from backup", "")]);
    let out = eval(&env, &server.url, "picky", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let attempts = of_type(&recs, "attempt");
    assert_eq!(attempts.len(), 1);
    let a = &attempts[0]["attempt"];
    assert_eq!(a["model"], "openai-compatible/backup");
    assert!(
        a["routing"]["skipped"][0]
            .as_str()
            .is_some_and(|s| s.starts_with("openai-compatible/no-tools")),
        "{a}"
    );
    assert_eq!(server.request_json().unwrap()["model"], "backup");
}

#[test]
fn the_thinking_level_is_sent_to_a_model_that_lists_it() {
    let env = env_with_models();
    let server = loopback::serve(vec![chat("thought", "")]);
    let out = eval(
        &env,
        &server.url,
        "openai-compatible/primary",
        &["--thinking", "high"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    assert_eq!(of_type(&recs, "attempt")[0]["attempt"]["thinking"], "high");
    assert_eq!(server.request_json().unwrap()["reasoning_effort"], "high");
}

#[test]
fn a_provider_that_reports_no_usage_leaves_usage_and_cost_unknown() {
    let env = env_with_models();
    let server = loopback::serve(vec![chat("no usage here", "")]);
    let out = eval(&env, &server.url, "openai-compatible/primary", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let end = recs.last().unwrap();
    assert_eq!(end["usage"]["responses"], 1);
    assert!(end["usage"]["input"].is_null() && end["usage"]["output"].is_null());
    assert!(end["cost_usd"].is_null(), "unknown, never zero: {end}");
    assert!(of_type(&recs, "usage")[0]["cost_usd"].is_null());
}

#[test]
fn cache_reads_and_writes_are_priced_once_each_at_the_catalog_prices() {
    let env = Env::new();
    // Anthropic's documented stream: input, cache-creation and cache-read tokens at the
    // start, output tokens at the end.
    let body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1000,\"cache_creation_input_tokens\":2000,\"cache_read_input_tokens\":30000,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"cached\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":400}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(body.as_bytes(), 11)]);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &format!("provider.anthropic.base-url={}", server.url),
            "-m",
            "anthropic/claude-haiku-4-5",
            "hi",
        ])
        .env("ANTHROPIC_API_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let usage = &of_type(&recs, "usage")[0];
    assert_eq!(usage["usage"]["input"], 1000);
    assert_eq!(usage["usage"]["cache_write"], 2000);
    assert_eq!(usage["usage"]["cache_read"], 30000);
    assert_eq!(usage["usage"]["output"], 400);
    // The bundled catalog (litellm 1.110.2): $1 input, $5 output, $0.10 cache read, $1.25
    // cache write per million tokens.
    let want = (1000.0 * 1.0 + 400.0 * 5.0 + 30000.0 * 0.1 + 2000.0 * 1.25) / 1e6;
    let cost = usage["cost_usd"].as_f64().unwrap();
    assert!((cost - want).abs() < 1e-12, "{cost} != {want}");
    let a = &of_type(&recs, "attempt")[0]["attempt"];
    assert_eq!(
        a["capabilities"]["provenance"]["source"]["id"],
        "litellm-1.110.2"
    );
    assert_eq!(
        a["capabilities"]["provenance"]["source"]["date"],
        "2026-11-20"
    );
}

#[test]
fn routing_problems_fail_before_anything_runs_with_every_problem_named() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("models.kdl"),
        "alias \"a\" \"b\"\nalias \"b\" \"a\"\nalias \"x\" \"scripted/demo\"\ngroup \"x\" \"scripted/demo\"\n",
    )
    .unwrap();
    let out = env.run(&["eval", "-m", "scripted/demo", "hi"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("cycle a → b → a"), "{err}");
    assert!(err.contains("`x` is ambiguous"), "{err}");
    assert!(env.session_files().is_empty(), "nothing was written");

    let out = env.run(&["eval", "-m", "nowhere", "hi"]);
    assert_eq!(out.status.code(), Some(2));

    let env = Env::new();
    let out = env.run(&["eval", "-m", "slow", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`slow` is not a model"),
        "{}",
        stderr(&out)
    );
    // An uncatalogued model of a vendor without a default: refused with the fix named.
    let out = env.run(&["eval", "-m", "anthropic/claude-unknown-9", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not in the model catalog") && stderr(&out).contains("models.kdl"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn account_buckets_are_tried_in_order_and_name_only_their_labels() {
    let env = env_with_models();
    env.write_auth(
        "provider \"openai-compatible\" {\n    api-key \"sk-first-1111\"\n    account \"spare\" {\n        api-key \"sk-second-2222\"\n    }\n}\n",
    );
    let server = loopback::serve(vec![error("429 Too Many Requests"), chat("spare", "")]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-m",
            "openai-compatible/primary",
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let first = String::from_utf8(server.request().unwrap()).unwrap();
    let second = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(first.contains("Bearer sk-first-1111"), "{first}");
    assert!(second.contains("Bearer sk-second-2222"), "{second}");
    let recs = records(&out);
    let attempts = of_type(&recs, "attempt");
    assert_eq!(attempts[0]["attempt"]["account"], "auth-file");
    assert_eq!(attempts[1]["attempt"]["account"], "spare");
    assert_eq!(attempts[1]["attempt"]["after"], "failover");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("sk-first") && !text.contains("sk-second"));
}

#[test]
fn models_lists_every_record_with_provenance() {
    let env = env_with_models();
    let out = env.run(&["models", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let recs = records(&out);
    let haiku = recs
        .iter()
        .find(|r| r["provider"] == "anthropic" && r["id"] == "claude-haiku-4-5")
        .unwrap();
    assert_eq!(haiku["tools"], true);
    assert_eq!(haiku["price"]["cache_write"], 1.25);
    assert_eq!(haiku["provenance"]["source"]["id"], "litellm-1.110.2");
    let primary = recs
        .iter()
        .find(|r| r["provider"] == "openai-compatible" && r["id"] == "primary")
        .unwrap();
    assert_eq!(primary["provenance"]["source"]["id"], "test-prices");
    let default = recs
        .iter()
        .find(|r| r["provider"] == "openai-compatible" && r["uncatalogued_default"] == true)
        .unwrap();
    assert_eq!(default["tools"], true);
    assert!(
        default["price"].is_null(),
        "a local model's price is unknown"
    );
    assert!(
        recs.iter()
            .all(|r| r["provider"].is_string() && r["id"].is_string())
    );
    let plain = String::from_utf8(env.run(&["models"]).stdout).unwrap();
    assert!(plain.contains("anthropic/claude-haiku-4-5\n"), "{plain}");
    assert!(
        plain.contains("source litellm-1.110.2 (2026-11-20)"),
        "{plain}"
    );

    // A user record that replaces a bundled one shows what it replaced.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"anthropic/claude-haiku-4-5\" {\n    tools #true\n    context 1000\n}\n",
    )
    .unwrap();
    let recs = records(&env.run(&["models", "--json"]));
    let haiku = recs
        .iter()
        .find(|r| r["provider"] == "anthropic" && r["id"] == "claude-haiku-4-5")
        .unwrap();
    assert_eq!(haiku["context"], 1000);
    let conflict = &haiku["provenance"]["conflicts"][0];
    assert_eq!(conflict["source"], "litellm-1.110.2");
    assert!(
        conflict["differs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d.as_str().unwrap().starts_with("context: 200000")),
        "{conflict}"
    );
    // A broken file names its line.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"a/b\" {\n  tools \"yes\"\n}\n",
    )
    .unwrap();
    let out = env.run(&["models"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("models.kdl:2"), "{}", stderr(&out));
    // A user record cannot cite the reviewed snapshot's source.
    std::fs::write(
        env.home().join("models.kdl"),
        "source \"litellm-1.110.2\" date=\"2026-11-20\" { title \"fake\" }\nmodel \"openai-compatible/x\" source=\"litellm-1.110.2\" { tools #true }\n",
    )
    .unwrap();
    let out = env.run(&["models"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is a source of the bundled catalog"),
        "{}",
        stderr(&out)
    );
}

/// A token endpoint answering `token`, a model server playing `model`, and the two settings
/// pointing openai-compatible at them.
fn renewal_servers(
    token: Vec<loopback::Step>,
    model: Vec<Vec<loopback::Step>>,
) -> (loopback::Server, loopback::Server, String, String) {
    let tokens = loopback::serve(vec![token]);
    let models = loopback::serve(model);
    let base = format!("provider.openai-compatible.base-url={}/v1", models.url);
    let token_url = format!(
        "provider.openai-compatible.token-url={}/oauth/token",
        tokens.url
    );
    (tokens, models, base, token_url)
}

#[test]
fn an_expired_renewable_credential_is_renewed_before_use_and_stored() {
    let env = env_with_models();
    let refresh = "rt-canary-9d2c";
    let sso = format!(
        "    account \"sso\" {{\n        access-token \"at-old-expired\"\n        expires-at 1000\n        refresh-token \"{refresh}\"\n    }}\n"
    );
    let auth = env.write_auth(&format!("provider \"openai-compatible\" {{\n{sso}}}\n"));
    let (tokens, models, base, token_url) = renewal_servers(
        loopback::json_response(
            "200 OK",
            r#"{"access_token":"at-fresh-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-next-2"}"#,
        ),
        vec![chat("renewed", ""), chat("again", "")],
    );
    let run = |env: &Env| {
        env.command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-c",
            &token_url,
            "-c",
            "provider.openai-compatible.client-id=smith-test",
            "-m",
            "openai-compatible/primary",
            "hi",
        ])
        .output()
        .unwrap()
    };
    let out = run(&env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let grant = String::from_utf8(tokens.request().unwrap()).unwrap();
    assert!(grant.starts_with("POST /oauth/token"), "{grant}");
    assert!(
        grant.ends_with(&format!(
            "grant_type=refresh_token&refresh_token={refresh}&client_id=smith-test"
        )),
        "{grant}"
    );
    let sent = String::from_utf8(models.request().unwrap()).unwrap();
    assert!(
        sent.contains("Bearer at-fresh-1"),
        "the renewed token is used: {sent}"
    );
    let stored = std::fs::read_to_string(&auth).unwrap();
    assert!(
        stored.contains("at-fresh-1") && stored.contains("rt-next-2"),
        "{stored}"
    );
    assert!(!stored.contains("at-old-expired"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&auth).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let recs = records(&out);
    assert_eq!(of_type(&recs, "attempt")[0]["attempt"]["account"], "sso");
    // No token reaches the output or the session.
    for secret in [refresh, "rt-next-2", "at-fresh-1"] {
        assert!(!String::from_utf8_lossy(&out.stdout).contains(secret));
        assert!(!String::from_utf8_lossy(&out.stderr).contains(secret));
        for file in env.session_files() {
            let bytes = std::fs::read(file).unwrap();
            assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()));
        }
    }

    // Still valid: used as stored, no renewal.
    let out = run(&env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tokens.requests_now(), 0, "no second renewal");
    assert!(
        String::from_utf8(models.request().unwrap())
            .unwrap()
            .contains("Bearer at-fresh-1")
    );

    // A refused renewal: nothing is sent to the model, and the message names the account
    // and the fix, never a token.
    env.write_auth(&format!("provider \"openai-compatible\" {{\n{sso}}}\n"));
    let (_tokens, models, base, token_url) = renewal_servers(
        loopback::json_response("400 Bad Request", r#"{"error":"invalid_grant"}"#),
        vec![chat("never", "")],
    );
    let out = env
        .command(&[
            "eval",
            "-c",
            &base,
            "-c",
            &token_url,
            "-m",
            "openai-compatible/primary",
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("account `sso`") && err.contains("invalid_grant"),
        "{err}"
    );
    assert!(
        !err.contains(refresh) && !err.contains("at-old-expired"),
        "{err}"
    );
    assert_eq!(models.requests_now(), 0);

    // With another account in the bucket, the one that cannot be renewed is passed over —
    // said on stderr and recorded in the attempt's routing — and the other is used.
    env.write_auth(&format!(
        "provider \"openai-compatible\" {{\n{sso}    account \"spare\" {{\n        api-key \"sk-spare-3333\"\n    }}\n}}\n"
    ));
    let (_tokens, models, base, token_url) = renewal_servers(
        loopback::json_response("400 Bad Request", r#"{"error":"invalid_grant"}"#),
        vec![chat("spare", "")],
    );
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-c",
            &token_url,
            "-m",
            "openai-compatible/primary",
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning") && stderr(&out).contains("account `sso`"));
    let recs = records(&out);
    let a = &of_type(&recs, "attempt")[0]["attempt"];
    assert_eq!(a["account"], "spare");
    assert!(
        a["routing"]["skipped"][0]
            .as_str()
            .is_some_and(|s| s.contains("account `sso`")),
        "{a}"
    );
    assert!(
        String::from_utf8(models.request().unwrap())
            .unwrap()
            .contains("sk-spare-3333")
    );
}

#[test]
fn configuration_may_name_the_key_variable() {
    let env = env_with_models();
    let server = loopback::serve(vec![chat("configured", "")]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-c",
            "provider.openai-compatible.api-key-env=MY_LOCAL_KEY",
            "-m",
            "openai-compatible/primary",
            "hi",
        ])
        .env("MY_LOCAL_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(sent.contains(&format!("Bearer {CANARY}")), "{sent}");
    let recs = records(&out);
    assert_eq!(
        of_type(&recs, "attempt")[0]["attempt"]["account"],
        "env:MY_LOCAL_KEY"
    );
    let status = env
        .command(&[
            "-c",
            "provider.openai-compatible.api-key-env=MY_LOCAL_KEY",
            "auth",
            "status",
            "--json",
        ])
        .env("MY_LOCAL_KEY", CANARY)
        .output()
        .unwrap();
    let rec = records(&status)
        .into_iter()
        .find(|r| r["provider"] == "openai-compatible")
        .unwrap();
    assert_eq!(
        (rec["env"].as_str(), rec["source"].as_str()),
        (Some("MY_LOCAL_KEY"), Some("environment"))
    );
    assert!(!String::from_utf8_lossy(&status.stdout).contains(CANARY));
}
