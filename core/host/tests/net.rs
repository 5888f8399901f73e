//! The `net` facility with real components against loopback servers: the `net-probe` test
//! plugin (one request exactly as its arguments say, granted `granted.test` by its manifest)
//! and the bundled `permissions` policy, a real session file. No test reaches the internet.

mod common;

use std::net::TcpListener;
use std::sync::mpsc;

use common::{Fixture, cache, source};
use serde_json::{Value, json};
use smith::{Cancel, ToolCall, ToolEvent};
use smith_ai::loopback::{self, Step, head};
use smith_host::net::{HostPattern, NetRules};
use smith_host::{Host, Limits, PermissionMode, Permissions, Policy};
use smith_store::EffectOutcome;

fn host() -> Host {
    let sources: Vec<_> = smith_plugins::BUNDLED
        .iter()
        .filter(|p| p.origin.contains("permissions"))
        .chain([&smith_plugins::NET_PROBE])
        .map(source)
        .collect();
    Host::load(&sources, &cache(), Limits::default()).unwrap()
}

fn patterns(texts: &[&str]) -> Vec<HostPattern> {
    texts.iter().map(|t| t.parse().unwrap()).collect()
}

/// The probe's grant widened by `allow` and narrowed by `deny`, in `mode`.
fn policy(mode: PermissionMode, allow: &[&str], deny: &[&str]) -> Policy {
    let mut net = NetRules::default();
    net.allow.insert("net-probe".into(), patterns(allow));
    net.deny.insert("net-probe".into(), patterns(deny));
    Policy {
        permissions: Permissions {
            mode,
            ..Permissions::default()
        },
        net,
        ..Policy::default()
    }
}

/// What the probe answered, as JSON.
fn answer(f: &Fixture, tools: &dyn smith::ToolRegistry, args: Value) -> Value {
    let out = f.call(tools, "fetch", args);
    assert!(!out.is_error, "{}", out.output);
    serde_json::from_str(&out.output).unwrap()
}

/// The recorded intents' and completions' JSON of every `net.fetch`, in order.
fn records(f: &Fixture) -> Vec<(Value, Value, String)> {
    f.completed()
        .into_iter()
        .filter(|c| c.effect == "net.fetch")
        .map(|c| (c.input, c.evidence, c.output))
        .collect()
}

/// Call the probe with `args`, cancelling the call as soon as the response's body starts to
/// arrive (its "reading the body" progress); what the call answered.
fn call_cancelled_at_the_body(
    f: &Fixture,
    tools: &dyn smith::ToolRegistry,
    args: Value,
) -> smith::ToolOutput {
    let (tx, rx) = mpsc::channel::<ToolEvent>();
    let cancel = Cancel::new();
    let watcher = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            for event in rx {
                if let ToolEvent::Progress(text) = event
                    && text.contains("reading the body")
                {
                    cancel.cancel();
                }
            }
        })
    };
    let call = ToolCall {
        id: "call_fetch".into(),
        name: "fetch".into(),
        arguments: args,
    };
    let context = smith::ToolContext {
        events: Some(tx),
        ..f.context()
    };
    let out = tools.call(&call, &context, &cancel);
    drop(context);
    watcher.join().unwrap();
    assert!(cancel.is_cancelled());
    out
}

fn port_of(url: &str) -> u16 {
    url.rsplit(':').next().unwrap().parse().unwrap()
}

#[test]
fn a_granted_host_is_answered_and_the_request_and_response_are_recorded() {
    let server = loopback::serve(vec![loopback::json_response("200 OK", r#"{"ok":true}"#)]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[&granted], &[]));
    let f = Fixture::new();
    let got = answer(
        &f,
        &tools,
        json!({
            "method": "POST",
            "url": format!("{}/v1/things?q=1", server.url),
            "headers": [["authorization", "Bearer sk-canary-42"], ["content-type", "application/json"]],
            "body": "{\"ask\":1}",
        }),
    );
    assert_eq!(got["status"], 200);
    assert_eq!(got["body"], r#"{"ok":true}"#);
    assert_eq!(got["end"], "complete");
    let sent = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(sent.starts_with("POST /v1/things?q=1 HTTP/1.1"), "{sent}");
    assert!(
        sent.contains("sk-canary-42") && sent.ends_with("{\"ask\":1}"),
        "{sent}"
    );
    assert_eq!(
        f.effects(),
        vec![("net.fetch".to_owned(), EffectOutcome::Applied)]
    );
    let (input, evidence, output) = records(&f).remove(0);
    assert_eq!(input["method"], "POST");
    assert_eq!(input["body"], "{\"ask\":1}");
    let headers = input["headers"].to_string();
    assert!(!headers.contains("sk-canary-42"), "{headers}");
    assert!(headers.contains("not recorded"), "{headers}");
    assert_eq!(evidence["status"], 200);
    assert_eq!(evidence["end"], "complete");
    assert_eq!(output, r#"{"ok":true}"#);
}

#[test]
fn an_ungranted_host_or_a_non_public_address_is_refused_before_connecting_and_recorded() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/");
    let by_name = format!("127.0.0.1:{port}");
    let cases: [(&[&str], &[&str], &str); 3] = [
        // Nothing covers it: the manifest grants only granted.test.
        (&[], &[], "plugins.net-probe.net.allow"),
        // A wildcard covers it, but a loopback address needs its name.
        (&["*:*"], &[], "loopback"),
        // Named, and denied by the user.
        (&[&by_name], &["127.0.0.1:*"], "plugins.net-probe.net.deny"),
    ];
    let f = Fixture::new();
    for (allow, deny, said) in cases {
        let tools = host()
            .loadout()
            .with_policy(policy(PermissionMode::Auto, allow, deny));
        let got = answer(&f, &tools, json!({"url": url}));
        assert_eq!(got["error"], "denied", "{allow:?} {deny:?}: {got}");
        let message = got["message"].as_str().unwrap();
        assert!(message.contains(said), "{allow:?}: {message}");
        assert!(message.contains(&by_name), "{message}");
    }
    // A host name resolving to loopback, covered by a wildcard only, is refused too.
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &["*:*"], &[]));
    let got = answer(
        &f,
        &tools,
        json!({"url": format!("http://LocalHost:{port}/")}),
    );
    assert_eq!(got["error"], "denied", "{got}");
    assert!(
        got["message"].as_str().unwrap().contains("loopback"),
        "{got}"
    );
    assert_eq!(
        listener.accept().map(|_| ()).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock,
        "nothing connected while the rest was refused"
    );
    let outcomes: Vec<_> = f.effects().into_iter().map(|(_, o)| o).collect();
    assert_eq!(outcomes, vec![EffectOutcome::NotApplied; 4]);
}

#[test]
fn malformed_requests_get_a_typed_error_naming_the_url_and_nothing_is_recorded() {
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &["*:*"], &[]));
    let f = Fixture::new();
    for (args, said) in [
        (json!({"url": "file:///etc/passwd"}), "scheme `file`"),
        (json!({"url": "not a url"}), "not an absolute URL"),
        (
            json!({"url": "http://granted.test/", "headers": [["host", "evil.test"]]}),
            "header `host`",
        ),
        (
            json!({"url": "http://granted.test/", "method": "GET /x"}),
            "not an HTTP method",
        ),
        (
            json!({"url": "http://granted.test/", "body": "x".repeat((16 << 20) + 1)}),
            "at most",
        ),
    ] {
        let got = answer(&f, &tools, args);
        assert_eq!(got["error"], "invalid", "{got}");
        let message = got["message"].as_str().unwrap();
        assert!(
            message.contains(said) && message.contains("net-probe"),
            "{message}"
        );
    }
    assert!(records(&f).is_empty());
}

#[test]
fn a_response_past_the_requested_bound_is_cut_and_said_so() {
    let body = "y".repeat(10_000);
    let server = loopback::serve(vec![vec![
        head("200 OK", &format!("content-length: {}\r\n", body.len())),
        Step::Send(body.into_bytes()),
    ]]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[&granted], &[]));
    let f = Fixture::new();
    let got = answer(&f, &tools, json!({"url": server.url, "max": 1000}));
    assert_eq!(got["body"].as_str().unwrap().len(), 1000);
    assert_eq!(got["end"], json!({"truncated": 1000}));
    let (_, evidence, _) = records(&f).remove(0);
    assert_eq!(evidence["end"], json!({"truncated": 1000}));
    assert_eq!(evidence["body_bytes"], 1000);
}

#[test]
fn cancelling_mid_body_ends_the_request_at_once_keeping_what_arrived() {
    // Read whole (`fetch`) and as a stream (`open`).
    for streamed in [false, true] {
        let server = loopback::serve(vec![vec![
            head("200 OK", "transfer-encoding: chunked\r\n"),
            Step::Send(b"5\r\nfirst\r\n".to_vec()),
            // Held until the server is dropped: only cancellation ends the body.
            Step::Wait,
        ]]);
        let granted = format!("127.0.0.1:{}", port_of(&server.url));
        let tools = host()
            .loadout()
            .with_policy(policy(PermissionMode::Auto, &[&granted], &[]));
        let f = Fixture::new();
        let args = json!({"url": server.url, "stream": streamed});
        let out = call_cancelled_at_the_body(&f, &tools, args);
        let (_, evidence, output) = records(&f).remove(0);
        assert_eq!(evidence["end"], "cancelled", "{}", out.output);
        assert!("first".starts_with(&output), "{output}");
        assert_eq!(
            f.effects(),
            vec![("net.fetch".to_owned(), EffectOutcome::Applied)]
        );
    }
}

#[test]
fn after_a_cancel_two_small_fetches_still_go_out_and_no_more() {
    let held = loopback::serve(vec![vec![
        head("200 OK", "transfer-encoding: chunked\r\n"),
        Step::Send(b"5\r\nfirst\r\n".to_vec()),
        Step::Wait,
    ]]);
    let told = loopback::serve(vec![
        loopback::json_response("202 Accepted", ""),
        loopback::json_response("202 Accepted", ""),
        loopback::json_response("202 Accepted", ""),
    ]);
    let tools = host().loadout().with_policy(policy(
        PermissionMode::Auto,
        &[
            &format!("127.0.0.1:{}", port_of(&held.url)),
            &format!("127.0.0.1:{}", port_of(&told.url)),
        ],
        &[],
    ));
    let f = Fixture::new();
    let args = json!({"url": held.url, "stream": true, "then": told.url, "times": 3});
    let out = call_cancelled_at_the_body(&f, &tools, args);
    let got: Value = serde_json::from_str(&out.output).unwrap();
    assert_eq!(got["end"], "cancelled", "{got}");
    // Two last words reached the server; the third was cancelled before it started.
    assert_eq!(got["then"][0], 202, "{got}");
    assert_eq!(got["then"][1], 202, "{got}");
    assert_eq!(got["then"][2]["error"], "cancelled", "{got}");
    assert_eq!(told.requests_now(), 2);
    assert_eq!(
        f.effects(),
        vec![
            ("net.fetch".to_owned(), EffectOutcome::Applied),
            ("net.fetch".to_owned(), EffectOutcome::Applied),
            ("net.fetch".to_owned(), EffectOutcome::Applied),
            ("net.fetch".to_owned(), EffectOutcome::NotApplied),
        ]
    );
}

#[test]
fn a_secret_in_a_response_is_redacted_for_the_plugin_and_the_record_and_never_restored_into_a_request()
 {
    const SECRET: &str = "tok-4c9f1e27d3a8b605";
    let server = loopback::serve(vec![loopback::json_response(
        "200 OK",
        &format!(r#"{{"token":"{SECRET}"}}"#),
    )]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let policy = policy(PermissionMode::Auto, &[&granted], &[]);
    policy
        .secrets
        .register("API_TOKEN", SECRET, None, "test")
        .unwrap();
    let tools = host().loadout().with_policy(policy);
    let f = Fixture::new();
    let got = answer(
        &f,
        &tools,
        json!({"url": server.url, "headers": [["x-probe", "⟦secret:API_TOKEN⟧"]]}),
    );
    let body = got["body"].as_str().unwrap();
    assert!(
        !body.contains(SECRET) && body.contains("⟦secret:API_TOKEN⟧"),
        "{body}"
    );
    let sent = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(
        !sent.contains(SECRET),
        "a reference is never restored for the network: {sent}"
    );
    let (_, _, recorded) = records(&f).remove(0);
    assert!(!recorded.contains(SECRET), "{recorded}");
}

#[test]
fn the_permission_mode_decides_per_host_and_a_session_choice_covers_the_host() {
    let server = loopback::serve(vec![
        loopback::json_response("200 OK", "{}"),
        loopback::json_response("200 OK", "{}"),
    ]);
    let host_port = format!("127.0.0.1:{}", port_of(&server.url));
    let f = Fixture::new();
    // Plan mode: refused without asking.
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Plan, &[&host_port], &[]));
    let got = answer(&f, &tools, json!({"url": server.url}));
    assert_eq!(got["error"], "denied");
    assert!(
        got["message"].as_str().unwrap().contains("plan mode"),
        "{got}"
    );
    // Ask mode: asked, naming the host; allowed for the session, not asked again.
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Ask, &[&host_port], &[]));
    let session_choice = Box::leak(
        format!("Allow `fetch` to reach {host_port} for the rest of this session").into_boxed_str(),
    );
    let (out, prompts) = common::policy::call_answering(
        &f,
        &tools,
        "fetch",
        json!({"url": server.url}),
        Some(session_choice),
    );
    assert!(
        !out.is_error && out.output.contains("\"status\":200"),
        "{}",
        out.output
    );
    assert_eq!(prompts.len(), 1);
    assert!(
        prompts[0].contains(&format!("send this request to {host_port}")),
        "{prompts:?}"
    );
    let (out, prompts) =
        common::policy::call_answering(&f, &tools, "fetch", json!({"url": server.url}), None);
    assert!(out.output.contains("\"status\":200"), "{}", out.output);
    assert!(prompts.is_empty(), "{prompts:?}");
}

#[test]
fn a_credential_bound_to_a_host_is_sent_there_only_and_the_plugin_never_sees_it() {
    const TOKEN: &str = "mcp-tok-91c4e0b7a2d3";
    // The server echoes what it was sent.
    let bound = loopback::serve(vec![loopback::json_response(
        "200 OK",
        &format!(r#"{{"echo":"Bearer {TOKEN}"}}"#),
    )]);
    let other = loopback::serve(vec![loopback::json_response("200 OK", "{}")]);
    let (bound_at, other_at) = (
        format!("127.0.0.1:{}", port_of(&bound.url)),
        format!("127.0.0.1:{}", port_of(&other.url)),
    );
    let mut policy = policy(PermissionMode::Auto, &[&bound_at, &other_at], &[]);
    policy
        .secrets
        .register("MCP_TOKEN", TOKEN, None, "test")
        .unwrap();
    policy.net.credentials.insert(
        "net-probe".into(),
        vec![format!("{bound_at}=MCP_TOKEN").parse().unwrap()],
    );
    let tools = host().loadout().with_policy(policy);
    let f = Fixture::new();
    // The plugin's own authorization header is replaced, not sent beside it.
    let got = answer(
        &f,
        &tools,
        json!({"url": bound.url, "headers": [["Authorization", "Bearer forged"]]}),
    );
    let sent = String::from_utf8(bound.request().unwrap()).unwrap();
    assert!(
        sent.contains(&format!("authorization: Bearer {TOKEN}")),
        "{sent}"
    );
    assert!(!sent.contains("forged"), "{sent}");
    let body = got["body"].as_str().unwrap();
    assert!(
        !body.contains(TOKEN) && body.contains("⟦secret:MCP_TOKEN⟧"),
        "{body}"
    );
    // Another host gets nothing.
    answer(&f, &tools, json!({"url": other.url}));
    let sent = String::from_utf8(other.request().unwrap()).unwrap();
    assert!(
        !sent.to_ascii_lowercase().contains("authorization"),
        "{sent}"
    );
    // The record names the credential, never its value.
    let (input, _, _) = records(&f).remove(0);
    assert_eq!(input["credential"]["secret"], "MCP_TOKEN");
    assert!(!input.to_string().contains(TOKEN));
    // A binding to a secret nobody registered refuses the request, saying how to fix it.
    let mut unbound = self::policy(PermissionMode::Auto, &[&bound_at], &[]);
    unbound.net.credentials.insert(
        "net-probe".into(),
        vec![format!("{bound_at}=MISSING").parse().unwrap()],
    );
    let tools = host().loadout().with_policy(unbound);
    let got = answer(&f, &tools, json!({"url": bound.url}));
    assert_eq!(got["error"], "denied");
    assert!(
        got["message"]
            .as_str()
            .unwrap()
            .contains("smith secrets add MISSING"),
        "{got}"
    );
}

#[test]
fn a_secret_cut_by_the_response_bound_leaves_no_part_of_it() {
    const SECRET: &str = "tok-77f1c2e9a0b3d845";
    let body = format!("{}{SECRET}tail", "a".repeat(990));
    let server = loopback::serve(vec![vec![
        head("200 OK", &format!("content-length: {}\r\n", body.len())),
        Step::Send(body.into_bytes()),
    ]]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let policy = policy(PermissionMode::Auto, &[&granted], &[]);
    policy
        .secrets
        .register("API_TOKEN", SECRET, None, "test")
        .unwrap();
    let tools = host().loadout().with_policy(policy);
    let f = Fixture::new();
    // The bound falls inside the secret.
    let got = answer(&f, &tools, json!({"url": server.url, "max": 1000}));
    let body = got["body"].as_str().unwrap();
    assert_eq!(
        body,
        "a".repeat(990),
        "the part of the secret before the cut is dropped"
    );
    let (_, _, recorded) = records(&f).remove(0);
    assert!(!recorded.contains("tok-"), "{recorded}");
}

#[test]
fn a_streamed_body_is_read_in_chunks_redacted_across_them_and_recorded_once_at_its_end() {
    const SECRET: &str = "tok-77e1a0c4b95d2f38";
    let body = format!("begin {SECRET} middle {} end", "z".repeat(3000));
    // The secret is split across the server's chunks and the plugin's reads.
    let server = loopback::serve(vec![loopback::sse_in_pieces(body.as_bytes(), 9)]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let policy = policy(PermissionMode::Auto, &[&granted], &[]);
    policy
        .secrets
        .register("STREAM_TOKEN", SECRET, None, "test")
        .unwrap();
    let tools = host().loadout().with_policy(policy);
    let f = Fixture::new();
    let got = answer(
        &f,
        &tools,
        json!({"url": server.url, "stream": true, "chunk": 5}),
    );
    let expected = body.replace(SECRET, "⟦secret:STREAM_TOKEN⟧");
    assert_eq!(got["body"], expected.as_str());
    assert_eq!(got["status"], 200);
    assert_eq!(got["end"], "complete");
    assert!(got["chunks"].as_u64().unwrap() > 100, "{}", got["chunks"]);
    let recorded = records(&f);
    assert_eq!(recorded.len(), 1, "one completion: {recorded:?}");
    let (input, evidence, output) = &recorded[0];
    assert_eq!(input["streamed"], true);
    assert_eq!(evidence["streamed"], true);
    assert_eq!(evidence["end"], "complete");
    assert_eq!(evidence["body_bytes"], expected.len());
    assert_eq!(output, &expected);
}

#[test]
fn a_stream_left_open_or_dropped_is_recorded_as_abandoned_with_what_was_read() {
    let body = "y".repeat(20_000);
    let conversation = || {
        vec![
            head("200 OK", &format!("content-length: {}\r\n", body.len())),
            Step::Send(body.clone().into_bytes()),
        ]
    };
    let server = loopback::serve(vec![conversation(), conversation()]);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[&granted], &[]));
    let f = Fixture::new();
    for dropped in [false, true] {
        let got = answer(
            &f,
            &tools,
            json!({"url": server.url, "stream": true, "chunk": 50, "read": 100, "drop": dropped}),
        );
        assert_eq!(got["body"].as_str().unwrap().len(), 100);
        assert_eq!(got["end"], Value::Null, "the body is still arriving");
    }
    let recorded = records(&f);
    assert_eq!(recorded.len(), 2, "{recorded:?}");
    for (_, evidence, output) in recorded {
        assert_eq!(evidence["end"], "abandoned");
        assert_eq!(evidence["body_bytes"], 100);
        assert_eq!(output, "y".repeat(100));
    }
    assert_eq!(
        f.effects(),
        vec![("net.fetch".to_owned(), EffectOutcome::Applied); 2]
    );
}

#[test]
fn at_most_eight_streams_are_open_in_a_call_and_an_ungranted_one_is_refused_and_recorded() {
    let conversations = (0..8)
        .map(|_| loopback::json_response("200 OK", "{}"))
        .collect();
    let server = loopback::serve(conversations);
    let granted = format!("127.0.0.1:{}", port_of(&server.url));
    let tools = host()
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[&granted], &[]));
    let f = Fixture::new();
    let got = answer(&f, &tools, json!({"url": server.url, "open": 9}));
    assert_eq!(got["opened"], 8);
    assert_eq!(got["error"]["error"], "invalid");
    let message = got["error"]["message"].as_str().unwrap();
    assert!(message.contains("8 response streams"), "{message}");
    // The eight left open are recorded when the call ends, the ninth never was.
    assert_eq!(records(&f).len(), 8);

    let f = Fixture::new();
    let ungranted = json!({"url": "http://127.0.0.1:9/", "stream": true});
    let got = answer(&f, &tools, ungranted);
    assert_eq!(got["error"], "denied", "{got}");
    assert_eq!(
        f.effects(),
        vec![("net.fetch".to_owned(), EffectOutcome::NotApplied)]
    );
}
