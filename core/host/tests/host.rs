//! The plugin host with real components (the bundled file tools and the hostile test plugin),
//! real files and a real session file as the effect journal.

mod common;

use common::{Fixture, cache, host, host_with, source};

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use smith::{Cancel, EffectJournal, EntryId, JournalError, ToolCall, ToolContext, ToolRegistry};
use smith_host::{CompileCache, Host, Limits, PluginSource};
use smith_store::{EffectCompletion, EffectIntent, EffectOutcome, Record, read_session};

#[test]
fn the_file_tools_read_write_edit_and_list_recording_every_effect() {
    let host = host();
    let f = Fixture::new();
    let out = f.call(
        &host,
        "write",
        json!({"path": "src/lib.rs", "content": "fn a() {}\nfn b() {}\n"}),
    );
    assert!(!out.is_error, "{}", out.output);
    assert_eq!(
        std::fs::read_to_string(f.root().join("src/lib.rs")).unwrap(),
        "fn a() {}\nfn b() {}\n"
    );
    let out = f.call(&host, "read", json!({"path": "src/lib.rs", "offset": 2}));
    assert!(out.output.starts_with("fn b() {}\n"), "{}", out.output);
    assert!(out.output.contains("lines 2-2 of 2"), "{}", out.output);
    let sha = out.output.split("sha256 ").nth(1).unwrap()[..64].to_owned();
    let out = f.call(
        &host,
        "edit",
        json!({"path": "src/lib.rs", "edits": [{"old_text": "fn b", "new_text": "fn c"}], "expected_sha256": sha}),
    );
    assert!(!out.is_error, "{}", out.output);
    assert_eq!(
        std::fs::read_to_string(f.root().join("src/lib.rs")).unwrap(),
        "fn a() {}\nfn c() {}\n"
    );
    // What the edit did, as a unified diff with line numbers and context.
    let diff = out.output.split_once('\n').unwrap().1;
    assert_eq!(diff, "@@ -1,2 +1,2 @@\n fn a() {}\n-fn b() {}\n+fn c() {}");
    let out = f.call(&host, "ls", json!({}));
    assert_eq!(out.output, "src/");
    assert_eq!(
        f.effects(),
        vec![
            ("fs.write".to_owned(), EffectOutcome::Applied),
            ("fs.read".to_owned(), EffectOutcome::Applied),
            // The edit reads the file it changes first (for its diff).
            ("fs.read".to_owned(), EffectOutcome::Applied),
            ("fs.edit".to_owned(), EffectOutcome::Applied),
            ("fs.list".to_owned(), EffectOutcome::Applied),
        ]
    );
    // The intent names the plugin generation; the completion holds the bounded output.
    let entries = read_session(&f.session).unwrap().entries;
    let Record::EffectIntent(i) = &entries[0].record else {
        panic!()
    };
    assert_eq!(i.plugin, "files@0.1.0#1");
    assert_eq!(i.input["content"], "fn a() {}\nfn b() {}\n");
}

#[test]
fn paths_never_escape_the_granted_root() {
    let host = host();
    let f = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "top secret").unwrap();
    std::os::unix::fs::symlink(outside.path(), f.root().join("link")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), f.root().join("secret-link"))
        .unwrap();
    let secret = outside.path().join("secret").display().to_string();
    for path in [
        "../secret",
        "a/../../secret",
        secret.as_str(),
        "link/secret",
        "secret-link",
        "/etc/passwd",
    ] {
        let out = f.call(&host, "read", json!({"path": path}));
        assert!(out.is_error, "{path}: {}", out.output);
        assert!(!out.output.contains("top secret"), "{path}");
        let out = f.call(&host, "write", json!({"path": path, "content": "pwned"}));
        assert!(out.is_error, "{path}: {}", out.output);
    }
    assert_eq!(
        std::fs::read_to_string(outside.path().join("secret")).unwrap(),
        "top secret"
    );
    assert!(
        f.effects()
            .iter()
            .all(|(_, o)| *o == EffectOutcome::NotApplied)
    );
    // Without a working directory nothing is granted.
    let call = ToolCall {
        id: "c".into(),
        name: "ls".into(),
        arguments: json!({}),
    };
    let ctx = ToolContext {
        cwd: None,
        ..f.context()
    };
    let out = host.call(&call, &ctx, &Cancel::new());
    assert!(
        out.is_error && out.output.contains("no working directory"),
        "{}",
        out.output
    );
}

#[test]
fn edit_rejects_missing_ambiguous_overlapping_and_stale_input() {
    let host = host();
    let f = Fixture::new();
    std::fs::write(f.root().join("a.txt"), "one two two three\n").unwrap();
    for (edits, says) in [
        (json!([{"old_text": "four", "new_text": "4"}]), "not found"),
        (
            json!([{"old_text": "two", "new_text": "2"}]),
            "occurs 2 times",
        ),
        (
            json!([{"old_text": "one two two", "new_text": "x"}, {"old_text": "two two three", "new_text": "y"}]),
            "overlap",
        ),
    ] {
        let out = f.call(&host, "edit", json!({"path": "a.txt", "edits": edits}));
        assert!(
            out.is_error && out.output.contains(says),
            "{says}: {}",
            out.output
        );
    }
    let out = f.call(
        &host,
        "edit",
        json!({"path": "a.txt", "edits": [{"old_text": "one", "new_text": "1"}], "expected_sha256": "00".repeat(32)}),
    );
    assert!(
        out.is_error && out.output.contains("stale"),
        "{}",
        out.output
    );
    assert_eq!(
        std::fs::read_to_string(f.root().join("a.txt")).unwrap(),
        "one two two three\n"
    );
    // Binary files are refused by read.
    std::fs::write(f.root().join("b.bin"), [0u8, 1, 2, 3]).unwrap();
    let out = f.call(&host, "read", json!({"path": "b.bin"}));
    assert!(
        out.is_error && out.output.contains("not a text file"),
        "{}",
        out.output
    );
}

#[test]
fn an_infinite_loop_is_stopped_by_its_deadline_and_the_host_goes_on() {
    let host = host_with(Limits {
        deadline: Duration::from_millis(300),
        ..Limits::default()
    });
    let f = Fixture::new();
    let out = f.call(&host, "spin", json!({}));
    assert!(
        out.is_error && out.output.contains("deadline"),
        "{}",
        out.output
    );
    // The hostile plugin is out of service; the file tools still work.
    let out = f.call(&host, "shout", json!({}));
    assert!(
        out.is_error && out.output.contains("out of service"),
        "{}",
        out.output
    );
    let out = f.call(&host, "ls", json!({}));
    assert!(!out.is_error, "{}", out.output);
}

#[test]
fn a_memory_bomb_is_stopped_by_its_limit() {
    let host = host_with(Limits {
        memory_bytes: 32 << 20,
        ..Limits::default()
    });
    let f = Fixture::new();
    let out = f.call(&host, "bomb", json!({}));
    assert!(out.is_error, "{}", out.output);
    assert!(
        out.output.contains("memory") || out.output.contains("trapped"),
        "{}",
        out.output
    );
    assert!(!f.call(&host, "ls", json!({})).is_error);
}

#[test]
fn a_trapping_plugin_is_marked_failed_and_later_calls_say_so() {
    let host = host();
    let f = Fixture::new();
    let out = f.call(&host, "trap", json!({}));
    assert!(
        out.is_error && out.output.contains("trapped"),
        "{}",
        out.output
    );
    // The plugin, the call and the trap's one-line reason; no wasm backtrace.
    assert!(
        out.output.starts_with("tool `trap` of ")
            && out.output.contains(
                "the plugin trapped: wasm trap: wasm `unreachable` instruction executed;"
            ),
        "{}",
        out.output
    );
    assert!(
        !out.output.contains("backtrace") && !out.output.contains("0: "),
        "{}",
        out.output
    );
    let out = f.call(&host, "flood", json!({}));
    assert!(
        out.is_error && out.output.contains("out of service") && out.output.contains("restart"),
        "{}",
        out.output
    );
}

#[test]
fn oversized_output_is_cut_at_the_bound_with_a_marker() {
    let host = host();
    let f = Fixture::new();
    let out = f.call(&host, "flood", json!({}));
    assert!(!out.is_error);
    assert!(out.output.len() < 52 * 1024, "{}", out.output.len());
    assert!(
        out.output
            .ends_with("the tool produced more than the output bound]"),
        "{}",
        &out.output[out.output.len() - 120..]
    );
}

#[test]
fn plugin_stdout_never_reaches_the_host_stdout() {
    if std::env::var_os("SMITH_HOST_SHOUT_CHILD").is_some() {
        let host = host();
        let f = Fixture::new();
        let out = f.call(&host, "shout", json!({}));
        assert_eq!(out.output, "shouted");
        return;
    }
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "plugin_stdout_never_reaches_the_host_stdout",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SMITH_HOST_SHOUT_CHILD", "1")
        .output()
        .unwrap();
    assert!(
        child.status.success(),
        "{}",
        String::from_utf8_lossy(&child.stderr)
    );
    let all = [child.stdout, child.stderr].concat();
    let text = String::from_utf8_lossy(&all);
    assert!(text.contains("1 passed"), "the child ran the call: {text}");
    assert!(!text.contains("MUST-NOT-LEAK"), "{text}");
}

#[test]
fn cancellation_is_polled_and_an_ignoring_plugin_is_destroyed() {
    let host = host();
    let f = Fixture::new();
    let cancel = Cancel::new();
    // The plugin says when it polls; the cancel follows that progress message, mid-call.
    let (progress, said) = std::sync::mpsc::channel::<smith::ToolEvent>();
    let trigger = cancel.clone();
    let t = std::thread::spawn(move || {
        let Ok(smith::ToolEvent::Progress(first)) = said.recv() else {
            panic!("the plugin reports that it polls");
        };
        trigger.cancel();
        first
    });
    let call = ToolCall {
        id: "call_wait".into(),
        name: "wait-cancel".into(),
        arguments: json!({}),
    };
    let context = ToolContext {
        events: Some(progress),
        ..f.context()
    };
    let out = host.call(&call, &context, &cancel);
    drop(context);
    assert_eq!(t.join().unwrap(), "polling for cancellation");
    assert_eq!(out.output, "stopped");
    // Already cancelled: an effect is recorded as not applied and nothing is written.
    let out = f.call_with(
        &host,
        "fs-write",
        json!({"path": "x.txt", "content": "x"}),
        &cancel,
    );
    assert!(
        out.is_error && out.output.contains("cancelled"),
        "{}",
        out.output
    );
    assert!(!f.root().join("x.txt").exists());
    assert_eq!(
        f.effects(),
        vec![("fs.write".to_owned(), EffectOutcome::NotApplied)]
    );
    // A plugin that never polls is destroyed after the grace period, not marked failed.
    let out = f.call_with(&host, "spin", json!({}), &cancel);
    assert!(
        out.is_error && out.output.contains("cancelled"),
        "{}",
        out.output
    );
    let again = f.call(&host, "fs-read", json!({"path": "nothing"}));
    assert!(!again.output.contains("out of service"), "{}", again.output);
}

/// A journal whose intents cannot be recorded.
struct Broken;

impl EffectJournal for Broken {
    fn intent(&self, _: EffectIntent, _: Option<EntryId>) -> Result<EntryId, JournalError> {
        Err(JournalError::Storage("disk full".into()))
    }
    fn complete(&self, _: EntryId, _: EffectCompletion) -> Result<EntryId, JournalError> {
        Err(JournalError::Storage("disk full".into()))
    }
}

#[test]
fn an_intent_that_cannot_be_recorded_prevents_the_effect() {
    let host = host();
    let f = Fixture::new();
    let call = ToolCall {
        id: "c1".into(),
        name: "write".into(),
        arguments: json!({"path": "a.txt", "content": "x"}),
    };
    let ctx = ToolContext {
        journal: Arc::new(Broken),
        ..f.context()
    };
    let out = host.call(&call, &ctx, &Cancel::new());
    assert!(
        out.is_error && out.output.contains("intent could not be recorded"),
        "{}",
        out.output
    );
    assert!(!f.root().join("a.txt").exists());
}

#[test]
fn an_atomic_write_is_seen_whole_by_a_concurrent_reader() {
    let host = host();
    let f = Fixture::new();
    let a = "a".repeat(200_000);
    let b = "b".repeat(300_000);
    std::fs::write(f.root().join("big.txt"), &a).unwrap();
    let path = f.root().join("big.txt");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (stop, path, a, b) = (Arc::clone(&stop), path.clone(), a.clone(), b.clone());
        std::thread::spawn(move || {
            let mut seen = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let now = std::fs::read_to_string(&path).unwrap();
                assert!(now == a || now == b, "a torn read of {} bytes", now.len());
                seen += 1;
            }
            seen
        })
    };
    for i in 0..20 {
        let content = if i % 2 == 0 { &b } else { &a };
        let out = f.call(
            &host,
            "write",
            json!({"path": "big.txt", "content": content}),
        );
        assert!(!out.is_error, "{}", out.output);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
}

#[test]
fn a_manifest_that_disagrees_with_its_component_is_refused() {
    let files = &smith_plugins::BUNDLED[0];
    let wrong = files
        .manifest
        .replace("tool \"ls\"", "tool \"ls\"\n    tool \"rm\"");
    let err = Host::load(
        &[PluginSource::new("test", &wrong, files.component)],
        &cache(),
        Limits::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("must match"), "{err}");
    let err = Host::load(
        &[PluginSource::new("junk", files.manifest, b"not wasm")],
        &cache(),
        Limits::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("junk"), "{err}");
}

#[test]
fn arguments_that_do_not_match_the_schema_are_refused_before_anything_runs() {
    let host = host();
    let f = Fixture::new();
    for args in [
        json!({}),
        json!({"path": 7}),
        json!({"path": "a.txt", "content": "x", "mode": "append"}),
    ] {
        let out = f.call(&host, "write", args.clone());
        assert!(
            out.is_error && out.output.contains("input schema"),
            "{args}: {}",
            out.output
        );
    }
    assert!(f.effects().is_empty(), "no effect was even intended");
    assert!(!f.root().join("a.txt").exists());
    // A huge offending value is not echoed back whole.
    let out = f.call(
        &host,
        "write",
        json!({"path": ["x".repeat(100_000)], "content": ""}),
    );
    assert!(
        out.is_error && out.output.len() < 2_000,
        "{}",
        out.output.len()
    );
    // An integral float is an integer to JSON Schema, and reaches the plugin as one.
    std::fs::write(f.root().join("n.txt"), "1\n2\n3\n").unwrap();
    let out = f.call(
        &host,
        "read",
        json!({"path": "n.txt", "offset": 2.0, "limit": 1.0}),
    );
    assert!(
        !out.is_error && out.output.starts_with("2\n"),
        "{}",
        out.output
    );
}

/// A structured result is checked against the tool's declared output schema: a fitting one
/// is kept; none, not JSON, a mismatch, or one from a tool that declares no schema is the
/// reason there is none. The model's text is the same either way.
#[test]
fn structured_results_are_checked_against_the_output_schema() {
    let host = host();
    let f = Fixture::new();
    let out = f.call(&host, "structured", json!({"json": r#"{"n": 7}"#}));
    assert_eq!(out.output, "handed over");
    assert_eq!(out.structured, Some(Ok(json!({"n": 7}))));
    for (tool, args, says) in [
        ("structured", json!({}), "handed over no structured result"),
        ("structured", json!({"json": "{nope"}), "is not JSON"),
        (
            "structured",
            json!({"json": r#"{"n": "seven"}"#}),
            "does not match its output schema at `/n`",
        ),
        (
            "structured-undeclared",
            json!({"json": r#"{"n": 7}"#}),
            "declares no output schema",
        ),
    ] {
        let out = f.call(&host, tool, args.clone());
        assert!(!out.is_error, "{tool} {args}: {}", out.output);
        let why = out.structured.clone().unwrap().unwrap_err();
        assert!(why.contains(says), "{tool} {args}: {why}");
    }
    // A tool that declares no schema and gives nothing has no structured result.
    assert_eq!(f.call(&host, "progress", json!({})).structured, None);
}

#[test]
fn progress_is_relayed_while_the_call_runs() {
    let host = host();
    let f = Fixture::new();
    let (tx, rx) = std::sync::mpsc::channel();
    let call = ToolCall {
        id: "p".into(),
        name: "progress".into(),
        arguments: json!({}),
    };
    let ctx = ToolContext {
        events: Some(tx),
        ..f.context()
    };
    let out = host.call(&call, &ctx, &Cancel::new());
    assert_eq!(out.output, "done");
    drop(ctx);
    let got: Vec<String> = rx
        .iter()
        .map(|e| match e {
            smith::ToolEvent::Progress(text) => text,
            other => panic!("only progress was sent: {other:?}"),
        })
        .collect();
    assert_eq!(got[..2], ["step 1".to_owned(), "step 2".to_owned()]);
    assert!(
        got[2].len() < 520 && got[2].ends_with('…'),
        "{}",
        got[2].len()
    );
}

#[test]
fn a_reload_publishes_a_new_generation_atomically_and_pinned_loadouts_keep_theirs() {
    let host = host();
    let f = Fixture::new();
    let pinned = host.loadout();
    assert_eq!(pinned.generation(), 1);
    // A reload that fails leaves the current generation exactly as it was.
    let broken = PluginSource::new("broken", "plugin \"x\" { }", b"");
    assert!(host.reload(&[broken]).is_err());
    assert_eq!(host.loadout().generation(), 1);
    // A good reload (the file tools only) replaces it as a whole.
    assert_eq!(
        host.reload(&[source(&smith_plugins::BUNDLED[0])]).unwrap(),
        2
    );
    let now = host.loadout();
    assert_eq!(
        now.plugins(),
        vec![("files".to_owned(), "0.1.0".to_owned())]
    );
    assert!(!now.definitions().iter().any(|d| d.name == "spin"));
    // The pinned loadout still has the hostile tools; new calls record the new generation.
    assert!(pinned.definitions().iter().any(|d| d.name == "spin"));
    let call = ToolCall {
        id: "g".into(),
        name: "ls".into(),
        arguments: json!({}),
    };
    assert!(!now.call(&call, &f.context(), &Cancel::new()).is_error);
    let entries = read_session(&f.session).unwrap().entries;
    let Record::EffectIntent(i) = &entries[0].record else {
        panic!()
    };
    assert_eq!(i.plugin, "files@0.1.0#2");
}

/// The bundled `files` plugin as it was built against `smith:plugin@1.0.0` (the first stable
/// package) keeps loading and running in every later 1.x host: its `@1.0.0` imports resolve to
/// this host's definitions, and its effects are recorded as any plugin's. A manifest naming a
/// newer package than the host's, another major version or a pre-1.0 one is refused before
/// anything loads.
#[test]
fn a_plugin_built_against_package_1_0_0_loads_and_runs_in_every_1_x_host() {
    const FROZEN: &[u8] = include_bytes!("fixtures/files-wit-1.0.0.wasm");
    // Its manifest is the bundled one's, naming the package it was built against.
    let bundled = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("files"))
        .expect("the bundled file tools");
    let world = format!("tool-plugin@{}", smith_host::manifest::PACKAGE_VERSION);
    let manifest = bundled.manifest.replace(&world, "tool-plugin@1.0.0");
    let manifest = manifest.as_str();
    let sources = [PluginSource {
        origin: "test:files-wit-1.0.0",
        manifest,
        component: FROZEN,
        parsed: None,
        declared: None,
    }];
    let host = Host::load(&sources, &cache(), Limits::default()).unwrap();
    let f = Fixture::new();
    let out = f.call(
        &host,
        "write",
        json!({"path": "a.txt", "content": "frozen\n"}),
    );
    assert!(!out.is_error, "{}", out.output);
    let out = f.call(&host, "read", json!({"path": "a.txt"}));
    assert!(out.output.starts_with("frozen\n"), "{}", out.output);
    assert_eq!(
        f.effects(),
        vec![
            ("fs.write".to_owned(), EffectOutcome::Applied),
            ("fs.read".to_owned(), EffectOutcome::Applied),
        ]
    );
    let loadout = host.loadout();
    assert_eq!(loadout.manifests()[0].built_world(), "tool-plugin@1.0.0");
    for (version, loads) in [
        ("1.0.0", true),
        (smith_host::manifest::PACKAGE_VERSION, true),
        ("1.999.0", false),
        ("2.0.0", false),
        ("0.7.0", false),
        ("1.0", false),
    ] {
        let text = manifest.replace("tool-plugin@1.0.0", &format!("tool-plugin@{version}"));
        let parsed = smith_host::manifest::Manifest::parse(&text, "test:versions");
        assert_eq!(parsed.is_ok(), loads, "{version}: {parsed:?}");
        if let Err(e) = parsed {
            let text = e.to_string();
            assert!(
                text.contains(&format!("smith:plugin@{version}"))
                    && text.contains("loads plugins built against 1.0.0 up to"),
                "{text}"
            );
        }
    }
}

/// A real component built against `smith:plugin@0.1.0` (the queue policy as it was before the
/// 0.2.0 package) is refused naming the version it was built against, whatever its manifest
/// claims; a manifest naming a 0.1.0 world is refused the same way before anything loads.
#[test]
fn a_plugin_built_against_another_package_version_is_refused_naming_it() {
    const OLD: &[u8] = include_bytes!("fixtures/queue-wit-0.1.0.wasm");
    let current = "plugin \"queue\" {\n    version \"0.1.0\"\n    world \"handler-plugin@1.2.0\"\n    handler \"queue-policy\"\n}\n";
    let sources = [PluginSource::new("test:queue-wit-0.1.0", current, OLD)];
    let err = Host::load(&sources, &cache(), Limits::default()).unwrap_err();
    assert!(
        matches!(&err, smith_host::Error::Package { found, .. } if found == "0.1.0"),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("smith:plugin@0.1.0")
            && text.contains(&format!(
                "smith:plugin@{}",
                smith_host::manifest::PACKAGE_VERSION
            ))
            && text.contains("rebuild"),
        "{text}"
    );
    let old_manifest = current.replace("@1.2.0", "@0.1.0");
    let sources = [PluginSource::new(
        "test:queue-manifest-0.1.0",
        &old_manifest,
        OLD,
    )];
    let err = Host::load(&sources, &cache(), Limits::default()).unwrap_err();
    assert!(
        matches!(&err, smith_host::Error::Package { found, origin } if found == "0.1.0" && origin == "test:queue-manifest-0.1.0"),
        "{err:?}"
    );
}

#[test]
fn the_compile_cache_sweeps_what_dead_writers_left_and_says_when_it_cannot_write() {
    let queue = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("queue"))
        .expect("the bundled queue policy");
    let dir = tempfile::tempdir().unwrap();
    let leave_aged = |name: String, age: u64| {
        let path = dir.path().join(name);
        std::fs::write(&path, b"partial").unwrap();
        let modified = std::time::SystemTime::now() - std::time::Duration::from_secs(age);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        path
    };
    let leave = |name: String| leave_aged(name, 120);
    // A process that has exited: its pid names no process now.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let abandoned = leave(format!(".abc.cwasm.{dead}.tmp"));
    let live = leave(format!(".def.cwasm.{}.tmp", std::process::id()));
    // Two hours old under a live process id (reused, or another machine's): no writer takes
    // that long.
    let forgotten = leave_aged(format!(".ghi.sum.{}.tmp", std::process::id()), 7200);
    let cache = CompileCache::new(Some(dir.path().to_owned()));
    Host::load(&[common::source(queue)], &cache, Limits::default()).unwrap();
    assert!(
        !abandoned.exists(),
        "a dead writer's partial entry is removed"
    );
    assert!(live.exists(), "a live process's is kept");
    assert!(!forgotten.exists(), "one older than any write is removed");
    assert!(cache.write_failure().is_none());

    // A cache directory that cannot be created: plugins load, and the failure is said.
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, b"").unwrap();
    let cache = CompileCache::new(Some(blocker.join("cache")));
    let host = Host::load(&[common::source(queue)], &cache, Limits::default()).unwrap();
    let why = host.compile_cache_failure().expect("the failure is kept");
    assert!(why.contains("a-file"), "{why}");
}

#[test]
fn an_edit_answers_with_its_diff_numbered_as_the_file_now_is() {
    let host = host();
    let f = Fixture::new();
    let text: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    std::fs::write(f.root().join("n.txt"), &text).unwrap();
    let out = f.call(
        &host,
        "edit",
        json!({"path": "n.txt", "edits": [
            {"old_text": "line 15\n", "new_text": "fifteen\n"},
            {"old_text": "line 5\n", "new_text": "five\nand a half\n"},
        ]}),
    );
    assert!(!out.is_error, "{}", out.output);
    let diff = out.output.split_once('\n').unwrap().1;
    let want = [
        "@@ -2,7 +2,8 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+five",
        "+and a half",
        " line 6",
        " line 7",
        " line 8",
        // Below the first change the file has one line more: new numbers move by one.
        "@@ -12,7 +13,7 @@",
        " line 12",
        " line 13",
        " line 14",
        "-line 15",
        "+fifteen",
        " line 16",
        " line 17",
        " line 18",
    ]
    .join("\n");
    assert_eq!(diff, want);
}
