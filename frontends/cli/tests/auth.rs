//! `smith auth`: keys stored from stdin in the auth file (0600, other providers' entries kept,
//! also under concurrent updates), status without a model request and without printing keys,
//! and eval using a stored key.

mod common;

use common::{Env, records, stderr, stdout};
use smith_ai::loopback;

const CANARY: &str = "sk-canary-auth-51c2";

/// Start `smith auth set PROVIDER` with `key` written to its stdin.
fn start_set(env: &Env, provider: &str, key: &str) -> std::process::Child {
    env.spawn_with_stdin(&["auth", "set", provider], &format!("{key}\n"))
}

fn set(env: &Env, provider: &str, key: &str) -> std::process::Output {
    start_set(env, provider, key).wait_with_output().unwrap()
}

#[test]
fn keys_are_stored_privately_and_concurrent_updates_keep_every_provider() {
    let env = Env::new();
    // Four writers at once, two providers each twice: every provider's entry survives.
    let handles = [
        ("anthropic", "a1"),
        ("openai", "o1"),
        ("google", "g1"),
        ("anthropic", CANARY),
    ];
    let children: Vec<_> = handles
        .iter()
        .map(|(provider, key)| start_set(&env, provider, key))
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let path = env.home().join("auth.kdl");
    let text = std::fs::read_to_string(&path).unwrap();
    for provider in ["anthropic", "openai", "google"] {
        assert!(text.contains(&format!("provider {provider}")), "{text}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let out = set(&env, "anthropic", CANARY);
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains(CANARY) && !stderr(&out).contains(CANARY));
    // Status names sources, never keys.
    let out = env
        .command(&["auth", "status", "--json"])
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("GEMINI_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains(CANARY));
    let status = records(&out);
    let anthropic = status
        .iter()
        .find(|r| r["provider"] == "anthropic")
        .unwrap();
    assert_eq!(anthropic["source"], "auth-file");
    let compatible = status
        .iter()
        .find(|r| r["provider"] == "openai-compatible")
        .unwrap();
    assert_eq!(compatible["source"], serde_json::Value::Null);
    assert_eq!(compatible["required"], false);
    // Bad input: an empty key, a provider without keys.
    assert_eq!(set(&env, "openai", "").status.code(), Some(2));
    let out = set(&env, "scripted", "x");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("takes no API key"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn eval_uses_a_stored_key_and_refuses_an_auth_file_others_can_read() {
    let env = Env::new();
    assert_eq!(set(&env, "anthropic", CANARY).status.code(), Some(0));
    let body = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"keyed\"}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(body.as_bytes(), 16)]);
    let out = env
        .command(&[
            "eval",
            "-c",
            &format!("provider.anthropic.base-url={}", server.url),
            "-m",
            "anthropic/claude-haiku-4-5",
            "hi",
        ])
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("keyed"));
    let request = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(
        request.contains(&format!("x-api-key: {CANARY}")),
        "{request}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = env.home().join("auth.kdl");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let out = env
            .command(&["eval", "-m", "anthropic/claude-haiku-4-5", "hi"])
            .env_remove("ANTHROPIC_API_KEY")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("chmod 600") && !stderr(&out).contains(CANARY),
            "{}",
            stderr(&out)
        );
        // Status still reports every provider, naming the refused file.
        let out = env
            .command(&["auth", "status"])
            .env_remove("ANTHROPIC_API_KEY")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("chmod 600") && stdout(&out).contains("openai"),
            "{}",
            stdout(&out)
        );
    }
    // A key variable holding a newline is refused before anything runs, naming it.
    let out = env
        .command(&["eval", "-m", "anthropic/claude-haiku-4-5", "hi"])
        .env("ANTHROPIC_API_KEY", "sk-a\nb")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ANTHROPIC_API_KEY holds a control character"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn named_accounts_join_the_bucket_and_status_lists_them_without_secrets() {
    let env = Env::new();
    assert_eq!(set(&env, "openai", "sk-main-1").status.code(), Some(0));
    let out = env.run_with_stdin(
        &["auth", "set", "openai", "--account", "work"],
        &format!("{CANARY}\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("(account work)"));
    // Setting the unnamed key again keeps the named account.
    assert_eq!(set(&env, "openai", "sk-main-2").status.code(), Some(0));
    let out = env
        .command(&["auth", "status", "--json"])
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let openai = records(&out)
        .into_iter()
        .find(|r| r["provider"] == "openai")
        .unwrap();
    assert_eq!(
        openai["accounts"],
        serde_json::json!([
            {"account": "auth-file", "kind": "key"},
            {"account": "work", "kind": "key"}
        ])
    );
    assert!(!stdout(&out).contains(CANARY) && !stdout(&out).contains("sk-main"));
    let text = std::fs::read_to_string(env.home().join("auth.kdl")).unwrap();
    assert!(text.contains("sk-main-2") && text.contains(CANARY) && !text.contains("sk-main-1"));
    // Reserved account names are refused before anything is written.
    let out = env
        .command(&["auth", "set", "openai", "--account", "env:X"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("reserved"), "{}", stderr(&out));
}
