//! The secret proxy through the built binary (issue "The secret proxy"): a registered secret in
//! a file the `read` tool returns (also as a JSON key and base64-encoded), in `bash` output
//! written in pieces, in an environment variable a command echoes, and inside a provider's
//! echoed error never appears — as plaintext, JSON-escaped, URL-encoded or in any of its base64
//! alignments — in the decoded session records, the bodies a loopback provider received, eval's
//! stdout and stderr (plain and `--json`), or `sessions get|grep|export`. A tool call that passes
//! the reference to `bash` gets the plaintext in the process; the record keeps the reference.
#![cfg(unix)]

mod common;

use base64::Engine as _;
use common::{Env, stderr, stdout};
use smith_ai::loopback;

/// A canary with characters JSON, URLs and base64 each treat specially.
const CANARY: &str = "Sk/canary+7f3a\"9b2c&4d5e=Q";
/// The reference the proxy shows instead.
const REFERENCE: &str = "⟦secret:CANARY⟧";

/// Every form of the canary that must not appear: plaintext, JSON-escaped, URL-encoded, and
/// for each byte alignment the base64 characters that depend on the canary alone (computed
/// here, independently of the proxy).
fn forms() -> Vec<String> {
    let json = serde_json::to_string(CANARY).unwrap();
    let url = percent_encoding::utf8_percent_encode(CANARY, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let mut out = vec![CANARY.to_owned(), json[1..json.len() - 1].to_owned(), url];
    for align in 0..3 {
        let mut bytes = vec![b'x'; align];
        bytes.extend_from_slice(CANARY.as_bytes());
        bytes.extend_from_slice(b"!!!");
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        // Strictly inside the characters the canary's bits alone decide.
        let start = (8 * align).div_ceil(6) + 1;
        let end = 8 * (align + CANARY.len()) / 6 - 1;
        out.push(encoded[start..end].to_owned());
    }
    out
}

/// Fail when `text` (from `place`) holds any form of the canary.
fn assert_clean(place: &str, text: &[u8]) {
    let text = String::from_utf8_lossy(text);
    for form in forms() {
        assert!(
            !text.contains(&form),
            "{place} holds the canary as `{form}`"
        );
    }
}

fn add_canary(env: &Env) {
    let mut child = env.spawn_with_stdin(
        &["secrets", "add", "CANARY", "--label", "the test canary"],
        &format!("{CANARY}\n"),
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "secrets add failed");
}

const KEY: &str = "sk-loopback-key-0123456789";

/// A script of `bash` and `read` calls whose outputs hold the canary, then an answer.
fn script() -> String {
    // The canary written by two printf calls (two writes of the process), from a variable the
    // configuration passes through, and restored from its reference.
    let bash = serde_json::json!({
        "command": format!(
            "printf %s '{}'; printf '%s\\n' '{}'; echo \"env: $CANARY_ENV\"; printf %s '{REFERENCE}' > restored.txt",
            &CANARY[..9],
            CANARY[9..].replace('\'', "'\\''"),
        )
    });
    format!(
        "round {{\n  tool-call id=\"r1\" name=\"read\" arguments=#\"{{\"path\": \"notes.txt\"}}\"#\n  tool-call id=\"b1\" name=\"bash\" arguments=#\"{bash}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
    )
}

fn notes() -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(format!("token={CANARY}\n"));
    format!(
        "line one\nTOKEN={CANARY}\n{}\nbase64: {b64}\n",
        serde_json::json!({ CANARY: "as a key" })
    )
}

#[test]
fn a_registered_secret_reaches_no_record_request_or_output_and_is_restored_only_locally() {
    let env = Env::new();
    add_canary(&env);
    env.write("notes.txt", &notes());
    let script_path = env.write("canary.kdl", &script());
    let run = |json: bool| {
        let mut args = vec![
            "eval",
            "-c",
            "process.allow=true",
            "-c",
            "process.pass-env=CANARY_ENV",
            "-m",
            "scripted/canary",
            "--script",
            script_path.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        args.push("Read notes.txt; the token is Sk/canary+7f3a\"9b2c&4d5e=Q");
        let mut cmd = env.command(&args);
        cmd.env("CANARY_ENV", CANARY);
        cmd.output().unwrap()
    };
    for json in [false, true] {
        let out = run(json);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_clean(&format!("eval stdout (json {json})"), &out.stdout);
        assert_clean(&format!("eval stderr (json {json})"), &out.stderr);
        assert!(
            stdout(&out).contains(REFERENCE) || stderr(&out).contains(REFERENCE),
            "the reference is shown instead"
        );
    }
    // The process got the plaintext; the records keep the reference.
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("restored.txt")).unwrap(),
        CANARY
    );
    for file in env.session_files() {
        let bodies = smith_testkit::decoded_bodies(&file);
        assert_clean(&format!("the records of {}", file.display()), &bodies);
        assert!(
            String::from_utf8_lossy(&bodies).contains(REFERENCE),
            "the records hold the reference"
        );
        let id = file.file_stem().unwrap().to_str().unwrap();
        for args in [
            vec!["sessions", "get", id, "--json", "--usage"],
            vec!["sessions", "get", id],
            vec!["sessions", "export", id],
            vec!["sessions", "grep", "TOKEN"],
        ] {
            let out = env.run(&args);
            assert_clean(&format!("`smith {}`", args.join(" ")), &out.stdout);
            assert_clean(&format!("`smith {}` stderr", args.join(" ")), &out.stderr);
        }
    }
    // `list` names it with its source and label, never its value.
    let out = env.run(&["secrets", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("CANARY") && stdout(&out).contains("the test canary"));
    assert_clean("`smith secrets list`", &out.stdout);
}

#[test]
fn a_provider_never_receives_a_secret_and_its_echoed_error_is_redacted() {
    let env = Env::new();
    add_canary(&env);
    // The vendor echoes the key it was sent, and the prompt it was given.
    let echo = format!(
        "{{\"error\":{{\"message\":\"Incorrect API key provided: {KEY}; prompt was: {}\"}}}}",
        CANARY.replace('"', "\\\"")
    );
    let server = loopback::serve(vec![loopback::json_response("401 Unauthorized", &echo)]);
    let mut cmd = env.command(&[
        "eval",
        "--json",
        "-c",
        &format!("provider.openai-compatible.base-url={}/v1", server.url),
        "-m",
        "openai-compatible/m",
        &format!("the token is {CANARY}"),
    ]);
    cmd.env("OPENAI_COMPATIBLE_API_KEY", KEY);
    let out = cmd.output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    let sent = server.request().expect("the request");
    let body_at = sent.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert_clean("the request body the provider received", &sent[body_at..]);
    assert!(
        String::from_utf8_lossy(&sent[body_at..]).contains(REFERENCE),
        "the provider got the reference"
    );
    for (place, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert_clean(place, text);
        assert!(
            !String::from_utf8_lossy(text).contains(KEY),
            "{place} holds the provider key"
        );
    }
    for file in env.session_files() {
        let bodies = smith_testkit::decoded_bodies(&file);
        assert_clean("the session records", &bodies);
        assert!(
            !String::from_utf8_lossy(&bodies).contains(KEY),
            "the session holds the provider key"
        );
    }
}

#[test]
fn secrets_too_short_or_badly_named_are_refused_and_removal_keeps_records_redacted() {
    let env = Env::new();
    let child = env.spawn_with_stdin(&["secrets", "add", "SHORT"], "1234567\n");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("8 to"), "{}", stderr(&out));
    let mut child = env.spawn_with_stdin(&["secrets", "add", "a b"], "12345678\n");
    assert_eq!(child.wait().unwrap().code(), Some(2));
    add_canary(&env);
    let out = env.run(&["eval", "-m", "scripted/demo", &format!("say {CANARY}")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_clean("eval stdout", &out.stdout);
    let out = env.run(&["secrets", "remove", "CANARY"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = env.run(&["secrets", "remove", "CANARY"]);
    assert_eq!(out.status.code(), Some(2), "removing it twice is an error");
    let file = env.session_files().remove(0);
    let bodies = smith_testkit::decoded_bodies(&file);
    assert_clean("the records after removal", &bodies);
    assert!(
        String::from_utf8_lossy(&bodies).contains("the test canary"),
        "its registration record stays"
    );
}

#[test]
fn variables_the_configuration_names_are_secrets_too() {
    let env = Env::new();
    let value = "ghp_configured0123456789";
    let mut cmd = env.command(&["-c", "secrets.env=EXTRA_TOKEN", "secrets", "list", "--json"]);
    cmd.env("EXTRA_TOKEN", value);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed = common::records(&out);
    let extra = listed
        .iter()
        .find(|r| r["name"] == "EXTRA_TOKEN")
        .expect("the variable is registered");
    assert_eq!(extra["source"], "env:EXTRA_TOKEN");
    assert!(!stdout(&out).contains(value), "list never shows a value");
    let mut cmd = env.command(&[
        "-c",
        "secrets.env=EXTRA_TOKEN",
        "eval",
        "-m",
        "scripted/demo",
        &format!("say {value}"),
    ]);
    cmd.env("EXTRA_TOKEN", value);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("⟦secret:EXTRA_TOKEN⟧"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains(value));
    // A name that is not a variable name is refused, naming where it came from.
    let out = env.run(&["-c", "secrets.env=NOT A NAME", "secrets", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("secrets.env"), "{}", stderr(&out));
}

#[test]
fn without_the_secret_policy_plugin_no_effect_receives_a_plaintext() {
    let env = Env::new();
    add_canary(&env);
    let bash = serde_json::json!({ "command": format!("printf %s '{REFERENCE}' > out.txt") });
    let script = env.write(
        "policy.kdl",
        &format!(
            "round {{\n  tool-call id=\"b1\" name=\"bash\" arguments=#\"{bash}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["eval", "-c", "process.allow=true"];
        args.extend_from_slice(extra);
        args.extend([
            "-m",
            "scripted/policy",
            "--script",
            script.to_str().unwrap(),
            "go",
        ]);
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap()
    };
    // The bundled policy lets a local process have it…
    assert_eq!(run(&[]), CANARY);
    // …and with the policy plugin disabled nothing is restored (deny by default).
    assert_eq!(run(&["--disable-plugin", "secret-policy"]), REFERENCE);
}

#[test]
fn add_takes_one_printable_line_says_when_it_replaces_and_names_never_collide() {
    let env = Env::new();
    let add = |args: &[&str], stdin: &str| {
        let mut full = vec!["secrets", "add"];
        full.extend_from_slice(args);
        env.spawn_with_stdin(&full, stdin)
            .wait_with_output()
            .unwrap()
    };
    let out = add(&["EMPTY"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nothing came on stdin"),
        "{}",
        stderr(&out)
    );
    let out = add(&["TWO"], "line one value\nline two value\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("one line"), "{}", stderr(&out));
    let out = add(&["CTRL", "--label", "a\u{1b}b"], "valuevalue\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("control character"),
        "{}",
        stderr(&out)
    );
    // Nothing refused was written, so the store still reads.
    let out = env.run(&["secrets", "list"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = add(&["TOKEN"], "first-value-0001\n");
    assert!(stdout(&out).starts_with("stored"), "{}", stdout(&out));
    let out = add(&["TOKEN"], "second-value-0002\n");
    assert!(stdout(&out).starts_with("replaced"), "{}", stdout(&out));
    // A variable named like a stored secret keeps its own registration.
    let mut cmd = env.command(&[
        "-c",
        "secrets.env=TOKEN",
        "eval",
        "-m",
        "scripted/demo",
        "say second-value-0002 and other-value-0003",
    ]);
    cmd.env("TOKEN", "other-value-0003");
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        !text.contains("second-value-0002") && !text.contains("other-value-0003"),
        "{text}"
    );
    assert!(
        text.contains("⟦secret:TOKEN⟧") && text.contains("⟦secret:TOKEN.2⟧"),
        "{text}"
    );
}
