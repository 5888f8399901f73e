//! What a new user's mistakes get, with the built binary: a misspelt model gets a did-you-mean
//! from the catalog, a misspelt provider the known ids, a refused key names where it came from,
//! a broken or relative `SMITH_HOME` names the directory, `--json` gets an `error` record for
//! a run that never started, and `config check` refuses unknown providers and checks an
//! untrusted project's file without applying it.

mod common;

use common::{Env, records, stderr, stdout};
use smith_ai::loopback;

#[test]
fn a_misspelt_model_gets_a_did_you_mean_from_the_catalog() {
    let env = Env::new();
    let out = env.run(&["eval", "-m", "anthropic/claude-sonet-4-5", "hi"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("anthropic/claude-sonet-4-5: not in the model catalog")
            && err.contains("did you mean anthropic/claude-sonnet-4-5")
            && err.contains("declare it in"),
        "{err}"
    );
    assert!(env.session_files().is_empty());
}

#[test]
fn auth_set_with_a_misspelt_provider_names_the_known_ones() {
    let env = Env::new();
    let out = env.run(&["auth", "set", "antropic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown provider `antropic`; did you mean anthropic?")
            && stderr(&out).contains("providers with keys: anthropic, openai, google"),
        "{}",
        stderr(&out)
    );
    let out = env.run(&["auth", "set", "scripted"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("provider `scripted` takes no API key"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn auth_set_on_a_terminal_asks_with_echo_off() {
    let env = Env::new();
    let key = "sk-typed-3c1e7d";
    // `script` gives smith a pseudo-terminal; the key is typed into it.
    let mut child = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("{} auth set anthropic", env!("CARGO_BIN_EXE_smith")),
            "/dev/null",
        ])
        .env("SMITH_HOME", env.home())
        .env("TMPDIR", env.tmp())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Type only once the prompt is up (echo is off by then), as a person would.
    use std::io::{Read, Write};
    let screen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut pty_out = child.stdout.take().unwrap();
    let reader = {
        let screen = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 256];
            while let Ok(n) = pty_out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                screen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    smith_testkit::wait_until("the key prompt", || {
        String::from_utf8_lossy(&screen.lock().unwrap()).contains("(input hidden):")
    });
    // The prompt is written just before echo is turned off: type only once the terminal says
    // it is off (its settings read from the pseudo-terminal `script` gave smith).
    let script = child.id();
    smith_testkit::wait_until("echo turned off on smith's terminal", || {
        let Some(first) = std::fs::read_to_string(format!("/proc/{script}/task/{script}/children"))
            .ok()
            .and_then(|c| c.split_whitespace().next().map(str::to_owned))
        else {
            return false;
        };
        std::fs::File::open(format!("/proc/{first}/fd/0"))
            .ok()
            .and_then(|tty| nix::sys::termios::tcgetattr(&tty).ok())
            .is_some_and(|t| !t.local_flags.contains(nix::sys::termios::LocalFlags::ECHO))
    });
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{key}\n").as_bytes()).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let out = std::process::Output {
        status,
        stdout: screen.lock().unwrap().clone(),
        stderr: Vec::new(),
    };
    let screen = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{screen}");
    assert!(
        screen.contains("API key for anthropic (input hidden):"),
        "{screen}"
    );
    assert!(!screen.contains(key), "the key was echoed: {screen}");
    let stored = std::fs::read_to_string(env.home().join("auth.kdl")).unwrap();
    assert!(stored.contains(key));
}

fn unauthorized(env: &Env, extra_env: &[(&str, &str)]) -> String {
    let server = loopback::serve(vec![loopback::json_response(
        "401 Unauthorized",
        r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    )]);
    let mut cmd = env.command(&[
        "eval",
        "-c",
        &format!("provider.anthropic.base-url={}", server.url),
        "-m",
        "anthropic/claude-haiku-4-5",
        "hi",
    ]);
    cmd.env_remove("ANTHROPIC_API_KEY");
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stderr(&out)
}

#[test]
fn a_refused_key_names_where_it_came_from() {
    let env = Env::new();
    let err = unauthorized(&env, &[("ANTHROPIC_API_KEY", "sk-env-canary")]);
    assert!(
        err.contains("invalid x-api-key")
            && err.contains(
                "the credential was the key in the environment variable ANTHROPIC_API_KEY"
            ),
        "{err}"
    );
    assert!(!err.contains("sk-env-canary"));

    let env = Env::new();
    let path = env.write_auth(
        "provider \"anthropic\" {\n    account \"work\" { api-key \"sk-file-canary\" }\n}\n",
    );
    let err = unauthorized(&env, &[]);
    assert!(
        err.contains(&format!(
            "the credential was account `work` of anthropic in the auth file {}",
            path.display()
        )),
        "{err}"
    );
    assert!(!err.contains("sk-file-canary"));
}

#[test]
fn a_smith_home_that_is_not_a_directory_is_named_and_a_relative_one_is_resolved_and_said() {
    let env = Env::new();
    let file = env.write("not-a-dir", "x");
    for args in [
        &["eval", "-m", "scripted/demo", "hi"][..],
        &["sessions", "list"],
        &["sessions", "get", "last"],
        &["config", "show"],
        &["undo"],
    ] {
        let out = env.command(args).env("SMITH_HOME", &file).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "cannot read the directory {} (SMITH_HOME)",
                file.display()
            )) && stderr(&out).contains("set SMITH_HOME to a directory you can read and write"),
            "{args:?}: {}",
            stderr(&out)
        );
        for blamed in ["config.kdl", "auth", "store the keys"] {
            assert!(!stderr(&out).contains(blamed), "{args:?}: {}", stderr(&out));
        }
    }

    let out = env
        .command(&["eval", "-m", "scripted/demo", "hi"])
        .env("SMITH_HOME", "relhome")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let resolved = env.root.path().join("relhome");
    assert!(
        stderr(&out).contains(&format!(
            "SMITH_HOME is the relative path relhome, so it leads somewhere else from every directory; here it is {}",
            resolved.display()
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_dir(resolved.join("sessions"))
            .unwrap()
            .count(),
        1
    );
}

#[test]
fn usage_after_an_error_shows_what_is_optional_as_optional() {
    let env = Env::new();
    let out = env.run(&["eval", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("Usage: smith eval [OPTIONS] [PROMPT]"),
        "{err}"
    );
    assert!(!err.contains("--model <"), "{err}");
}

#[test]
fn json_gets_one_error_record_when_the_run_never_starts() {
    let env = Env::new();
    for (args, status, says) in [
        (
            &["eval", "--json", "-m", "nope/x", "hi"][..],
            2,
            "unknown provider `nope`",
        ),
        (
            &["eval", "--json", "--bogus", "hi"],
            2,
            "unexpected argument '--bogus'",
        ),
        (
            &["eval", "--json", "-m", "scripted/demo", "@missing.txt"],
            2,
            "`@missing.txt` names no file",
        ),
        (
            &[
                "eval",
                "--json",
                "-m",
                "scripted/demo",
                "--session",
                "ffff",
                "hi",
            ],
            2,
            "matches no session",
        ),
        (
            &[
                "eval",
                "--json",
                "--thinking",
                "high",
                "-m",
                "scripted/demo",
                "hi",
            ],
            2,
            "accepts: off",
        ),
        (
            &["eval", "--json=yes", "hi"],
            2,
            "unexpected value 'yes' for '--json'",
        ),
        (
            &[
                "-c",
                "provider.anthropic.api-key=sk-canary-77",
                "eval",
                "--json",
                "hi",
            ],
            2,
            "unknown setting `provider.anthropic.api-key`",
        ),
    ] {
        let out = env.run(args);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{args:?}: {}",
            stderr(&out)
        );
        let recs = records(&out);
        assert_eq!(recs.len(), 1, "{args:?}: {recs:?}");
        assert_eq!(recs[0]["type"], "error");
        assert_eq!(recs[0]["status"], status);
        let message = recs[0]["message"].as_str().unwrap();
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(
            stderr(&out).contains(says),
            "the diagnostic is on stderr too"
        );
        assert!(
            !message.contains("canary") && !stderr(&out).contains("canary"),
            "a value given to an unknown key is never repeated: {message}"
        );
    }
    assert!(env.session_files().is_empty());
}

#[test]
fn config_check_refuses_unknown_providers_and_checks_an_untrusted_project_without_applying_it() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "provider.local.base-url \"http://127.0.0.1:8080\"\n",
    )
    .unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("config.kdl:1")
            && err.contains(
                "`provider.local.base-url` names the provider `local`, which no plugin provides"
            )
            && err.contains("openai-compatible"),
        "{err}"
    );
    // A run refuses it too, before anything is written.
    let out = env.run(&["eval", "-m", "scripted/demo", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(env.session_files().is_empty());

    std::fs::write(
        env.home().join("config.kdl"),
        "provider.openai-compatible.base-url \"http://127.0.0.1:8080/v1\"\n",
    )
    .unwrap();
    let project = env.root.path().join("proj");
    std::fs::create_dir_all(project.join(".smith")).unwrap();
    std::fs::write(project.join(".smith/config.kdl"), "run.max-rounds 8\n").unwrap();
    let out = env
        .command(&["config", "check"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "config.kdl is valid (1 setting) but not applied: the project is not trusted"
        ) && stdout(&out).contains("smith trust"),
        "{}",
        stdout(&out)
    );
    std::fs::write(project.join(".smith/config.kdl"), "run.max-rounds 0\n").unwrap();
    let out = env
        .command(&["config", "check"])
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("run.max-rounds") && stderr(&out).contains("not applied yet"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn plugins_list_shows_each_providers_base_url_and_key_variable() {
    let env = Env::new();
    let text = stdout(&env.run(&[
        "-c",
        "provider.openai-compatible.base-url=http://127.0.0.1:9/v1",
        "plugins",
        "list",
    ]));
    assert!(
        text.contains("base URL https://api.anthropic.com (the default; provider.anthropic.base-url overrides it); key from ANTHROPIC_API_KEY or the auth file (`smith auth set anthropic`), required"),
        "{text}"
    );
    assert!(
        text.contains("base URL http://127.0.0.1:9/v1 (from flag -c provider.openai-compatible.base-url=http://127.0.0.1:9/v1)")
            && text.contains("OPENAI_COMPATIBLE_API_KEY or the auth file (`smith auth set openai-compatible`), optional"),
        "{text}"
    );
    assert!(
        text.contains("no network: its transport is `script:`"),
        "{text}"
    );
}

#[test]
fn config_check_reads_models_kdl_as_every_run_does() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let models = env.home().join("models.kdl");
    std::fs::write(
        &models,
        "model \"openai-compatible/x\" {\n    image-input \"yes\"\n}\n",
    )
    .unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("models.kdl:2") && stderr(&out).contains("#true or #false"),
        "{}",
        stderr(&out)
    );
    std::fs::write(
        &models,
        "model \"openai-compatible/x\" {\n    image-input #true\n}\n",
    )
    .unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("models.kdl read"), "{}", stdout(&out));
}

#[test]
fn a_compile_cache_that_cannot_be_written_is_a_warning_not_a_silent_cost() {
    let env = Env::new();
    let blocker = env.write("not-a-dir", "");
    let out = env
        .command(&["eval", "-m", "scripted/demo", "hi"])
        .env("SMITH_CACHE_HOME", blocker.join("cache"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: the compile cache cannot be written")
            && stderr(&out).contains("not-a-dir")
            && stderr(&out).contains("SMITH_CACHE_HOME"),
        "{}",
        stderr(&out)
    );
}

/// The cache entry names (`*.cwasm`) in `dir`.
fn cache_entries(dir: &std::path::Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".cwasm") && !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// A plugin compiled on its first use mid-turn (the file tools and the permission policy, at
/// the turn's `read`) whose
/// entry cannot be written is warned about too, naming the entry.
#[test]
fn a_cache_entry_that_cannot_be_written_mid_turn_is_a_warning_naming_it() {
    let env = Env::new();
    std::fs::write(env.root.path().join("README.md"), "# hi\n").unwrap();
    let cache = env.root.path().join("own-cache");
    let components = cache.join("components");
    let run = |model: &str| {
        env.command(&["eval", "-m", model, "go"])
            .env("SMITH_CACHE_HOME", &cache)
            .output()
            .unwrap()
    };
    let out = run("scripted/demo");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let before = cache_entries(&components);
    let out = run("scripted/tool-call");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let added: Vec<String> = cache_entries(&components)
        .difference(&before)
        .cloned()
        .collect();
    assert_eq!(
        added.len(),
        2,
        "the file tools' and the permission policy's entries alone: {added:?}"
    );
    // A directory where the entry goes: the entry cannot be written.
    let entry = components.join(&added[0]);
    std::fs::remove_file(&entry).unwrap();
    std::fs::create_dir(&entry).unwrap();
    let out = run("scripted/tool-call");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: the compile cache cannot be written")
            && stderr(&out).contains(&added[0]),
        "{}",
        stderr(&out)
    );
}
