//! The composition root with real files: settings from real configuration files, the registry
//! of the bundled plugins, routes that refuse before anything is sent, session stores on real
//! directories, and the inspection records read from real session files.

mod common;

use std::ffi::OsString;
use std::ops::ControlFlow;
use std::path::Path;

use smith::{EffectCompletion, EffectOutcome, SessionId};
use smith_app::inspect::{self, EntryView, Follow, FollowError, PageRequest, Pattern, Record};
use smith_app::{
    App, Error, FindError, Invocation, Notice, PassedOver, Paths, RegistryError, RouteError,
    RunSpec, SelectError, SessionStore, SettingsError,
};
use smith_config::ConfigError;
use smith_store::{Record as Stored, SessionWriter};

/// Paths rooted in `home` alone, whatever the test process's environment holds.
fn paths(home: &Path) -> Paths {
    let home: OsString = home.as_os_str().to_owned();
    Paths::from_vars(|name| (name == "SMITH_HOME").then(|| home.clone()))
}

fn invocation(settings: &[(&str, &str, &str)]) -> Invocation {
    let mut invocation = Invocation::default();
    for (origin, key, value) in settings {
        invocation.set(*origin, *key, *value);
    }
    invocation
}

#[test]
fn settings_carry_their_origin_and_files_are_read_at_their_level() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.kdl"),
        "model \"scripted/tool-call\"\n",
    )
    .unwrap();
    let app = App::load(paths(home.path()), &Invocation::default()).unwrap();
    assert_eq!(app.selection().unwrap().to_string(), "scripted/tool-call");
    let from_file = app.settings.resolved.get("model").unwrap();
    assert!(
        from_file.source.to_string().contains("config.kdl"),
        "{}",
        from_file.source
    );

    let app = App::load(
        paths(home.path()),
        &invocation(&[("rpc param model", "model", "scripted/demo")]),
    )
    .unwrap();
    let given = app.settings.resolved.get("model").unwrap();
    assert_eq!(given.value.to_string(), "scripted/demo");
    assert!(
        given.source.to_string().contains("rpc param model"),
        "{}",
        given.source
    );
    assert_eq!(
        given.overridden.len(),
        1,
        "the file's value is what it overrode"
    );
}

#[test]
fn no_model_and_a_malformed_one_are_typed_refusals_naming_no_flag() {
    let home = tempfile::tempdir().unwrap();
    let app = App::load(paths(home.path()), &Invocation::default()).unwrap();
    let none = app.selection().unwrap_err();
    assert!(matches!(none, SelectError::None));
    assert!(!none.to_string().contains("--"), "{none}");
    // A value that is no model is refused with the settings, naming where it came from.
    let err = App::load(
        paths(home.path()),
        &invocation(&[("given", "model", "not a model")]),
    )
    .unwrap_err();
    assert!(
        matches!(&err, Error::Settings(SettingsError::Config(ConfigError::Invalid { source_text, key, .. }))
            if source_text.contains("given") && key == "model"),
        "{err:?}"
    );
}

#[test]
fn an_unknown_plugin_is_an_error_when_given_and_a_notice_when_configured() {
    let home = tempfile::tempdir().unwrap();
    let err = App::load(
        paths(home.path()),
        &invocation(&[("given", "plugins.nosuch.enabled", "false")]),
    )
    .unwrap_err();
    assert!(
        matches!(&err, Error::Registry(RegistryError::UnknownPlugin { id, known, .. })
            if id == "nosuch" && known.iter().any(|k| k == "files")),
        "{err:?}"
    );
    std::fs::write(
        home.path().join("config.kdl"),
        "plugins {\n    nosuch {\n        enabled #false\n    }\n}\n",
    )
    .unwrap();
    let app = App::load(paths(home.path()), &Invocation::default()).unwrap();
    assert!(
        app.settings
            .notices
            .iter()
            .any(|n| matches!(n, Notice::UnknownPlugin { id, .. } if id == "nosuch")),
        "{:?}",
        app.settings.notices
    );
}

#[test]
fn an_untrusted_project_is_skipped_with_a_notice_naming_it() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join(".smith")).unwrap();
    std::fs::write(
        project.path().join(".smith/config.kdl"),
        "model \"scripted/edit\"\n",
    )
    .unwrap();
    let invocation = Invocation {
        cwd: Some(project.path().to_owned()),
        ..Invocation::default()
    };
    let app = App::load(paths(home.path()), &invocation).unwrap();
    assert!(app.settings.resolved.get("model").is_none());
    let canonical = project.path().canonicalize().unwrap();
    assert!(
        matches!(&app.settings.notices[..], [Notice::UntrustedProject { project, .. }] if *project == canonical),
        "{:?}",
        app.settings.notices
    );
}

#[test]
fn a_route_is_refused_before_anything_is_sent_with_each_reason() {
    let home = tempfile::tempdir().unwrap();
    // The scripted provider's plugin disabled: the model is passed over, with why.
    let app = App::load(
        paths(home.path()),
        &invocation(&[("given", "plugins.scripted.enabled", "false")]),
    )
    .unwrap();
    let spec = RunSpec {
        selection: "scripted/demo".parse().unwrap(),
        thinking: None,
        script: None,
    };
    let Err(Error::Route(RouteError::NoCandidate { reasons, .. })) = app.prepare(&spec) else {
        panic!("a disabled provider leaves no candidate")
    };
    assert!(matches!(
        &reasons[..],
        [PassedOver::ScriptedDisabled { .. }]
    ));
    assert!(!reasons[0].to_string().contains("--"), "{}", reasons[0]);

    // A script for a provider that plays none.
    let app = App::load(paths(home.path()), &Invocation::default()).unwrap();
    let spec = RunSpec {
        selection: "anthropic/claude-sonnet-4-5".parse().unwrap(),
        thinking: None,
        script: Some("x.kdl".into()),
    };
    assert!(matches!(
        app.prepare(&spec),
        Err(Error::Route(RouteError::ScriptNeedsScripted(_)))
    ));

    // A model no catalog knows.
    let spec = RunSpec {
        selection: "anthropic/no-such-model".parse().unwrap(),
        thinking: None,
        script: None,
    };
    let Err(Error::Route(RouteError::NoCandidate { reasons, .. })) = app.prepare(&spec) else {
        panic!("an uncatalogued model leaves no candidate")
    };
    assert!(
        matches!(&reasons[..], [PassedOver::NotInCatalog { models_file: Some(f), .. }] if f.ends_with("models.kdl"))
    );
}

#[test]
fn a_checked_selection_refuses_an_unknown_provider_without_loading_a_plugin() {
    let home = tempfile::tempdir().unwrap();
    let with = |model: &str, extra: &[(&'static str, &'static str, &'static str)]| {
        let mut settings: Vec<(&str, &str, &str)> = vec![("given", "model", model)];
        settings.extend_from_slice(extra);
        App::load(paths(home.path()), &invocation(&settings)).unwrap()
    };
    assert_eq!(
        with("scripted/demo", &[]).checked_selection().unwrap(),
        app_selection("scripted/demo")
    );
    let Err(Error::Route(RouteError::NoCandidate { reasons, .. })) =
        with("nope/none", &[]).checked_selection()
    else {
        panic!("an unknown provider is refused")
    };
    assert!(
        matches!(&reasons[..], [PassedOver::UnknownProvider { known, .. }] if known.iter().any(|k| k == "scripted")),
        "{reasons:?}"
    );
    let disabled = with(
        "scripted/demo",
        &[("given", "plugins.scripted.enabled", "false")],
    );
    assert!(matches!(
        disabled.checked_selection(),
        Err(Error::Route(RouteError::NoCandidate { reasons, .. }))
            if matches!(&reasons[..], [PassedOver::ScriptedDisabled { .. }])
    ));
    assert!(matches!(
        with("no-slash", &[]).checked_selection(),
        Err(Error::Select(_) | Error::Route(RouteError::Resolve(_)))
    ));
}

#[test]
fn a_prepared_scripted_route_has_one_candidate_with_its_generation() {
    let home = tempfile::tempdir().unwrap();
    let app = App::load(paths(home.path()), &Invocation::default()).unwrap();
    let spec = RunSpec {
        selection: app_selection("scripted/demo"),
        thinking: None,
        script: None,
    };
    let prepared = app.prepare(&spec).unwrap();
    let candidates = prepared.route.candidates();
    assert_eq!(candidates.len(), 1);
    assert_eq!(candidates[0].model.to_string(), "scripted/demo");
    assert!(
        candidates[0].generation.starts_with("scripted@"),
        "{}",
        candidates[0].generation
    );
    // Only the provider plugin the route uses is loaded, beside the tools and handlers.
    let providers: Vec<String> = prepared.tools.provider_ids();
    assert_eq!(providers, ["scripted"]);
    assert!(prepared.notices.is_empty());
}

fn app_selection(text: &str) -> smith::Selection {
    text.parse().unwrap()
}

#[test]
fn sessions_are_found_by_id_prefix_or_file_name_and_refused_by_reason() {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    let a = SessionWriter::create(dir.path(), SessionId::new_now()).unwrap();
    let b = SessionWriter::create(dir.path(), SessionId::new_now()).unwrap();
    let (ida, idb) = (a.id(), b.id());
    drop((a, b));
    let text = ida.to_string();
    assert_eq!(store.find(&text).unwrap().1, ida);
    assert_eq!(store.find(&format!("{text}.smith")).unwrap().1, ida);
    assert_eq!(store.find(&text.to_uppercase()).unwrap().1, ida);
    assert_eq!(store.find(&idb.to_string()[..30]).unwrap().1, idb);
    // A path works when it names a file in the sessions directory, and only then.
    let path = dir.path().join(format!("{text}.smith"));
    assert_eq!(store.find(path.to_str().unwrap()).unwrap().1, ida);
    let elsewhere = tempfile::tempdir().unwrap();
    let other = elsewhere.path().join(format!("{text}.smith"));
    std::fs::copy(&path, &other).unwrap();
    assert!(matches!(
        store.find(other.to_str().unwrap()),
        Err(FindError::Elsewhere { .. })
    ));
    assert!(matches!(store.find("zz"), Err(FindError::NotAnId { .. })));
    assert!(matches!(store.find("ffff"), Err(FindError::NoMatch { .. })));
    // Both ids begin with the same time-ordered digits.
    assert!(matches!(
        store.find(&text[..4]),
        Err(FindError::Ambiguous { count: 2, .. })
    ));
    let listed: Vec<SessionId> = store
        .list()
        .unwrap()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(listed, [ida, idb]);
    assert!(
        SessionStore::new(dir.path().join("none"))
            .list()
            .unwrap()
            .is_empty()
    );
}

/// A real session with a message, an effect completion with non-UTF-8 output and a record of
/// a kind this build does not know.
fn recorded_session(dir: &Path) -> (std::path::PathBuf, SessionId) {
    let store = SessionStore::new(dir);
    let session = store.create(Some("/work".into())).unwrap();
    let (path, id) = (session.path().to_owned(), session.id());
    session.close().unwrap();
    let (mut writer, _) = SessionWriter::open(&path, id).unwrap();
    writer
        .append(&[
            Stored::EffectCompletion(EffectCompletion {
                effect_id: "c1/1".into(),
                outcome: EffectOutcome::Applied,
                output: b"ok \xff".to_vec(),
                evidence: serde_json::json!({"sha256": "ab"}),
            }),
            Stored::Unknown {
                kind: 999,
                body: vec![0xa0],
                projection: false,
            },
        ])
        .unwrap();
    writer.close().unwrap();
    (path, id)
}

#[test]
fn inspection_records_serialize_type_first_in_the_sessions_json_shape() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = recorded_session(dir.path());
    let summary = inspect::summarize(id, &path).unwrap();
    assert_eq!(summary.cwd.as_deref(), Some("/work"));
    let line = serde_json::to_string(&Record::Session(summary)).unwrap();
    assert!(
        line.starts_with(&format!(
            "{{\"type\":\"session\",\"id\":\"{id}\",\"created_ms\":"
        )),
        "{line}"
    );

    let page = inspect::read_page(
        &path,
        id,
        PageRequest {
            limit: 10,
            cursor: None,
            branch: false,
        },
    )
    .unwrap();
    let lines: Vec<String> = page
        .entries
        .iter()
        .map(|e| serde_json::to_string(&Record::Entry(EntryView::new(id, e))).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with(&format!(
            "{{\"type\":\"entry\",\"session\":\"{id}\",\"id\":1,\"parent\":null,\"pair\":null,\"timestamp_ms\":"
        )),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with(
            r#""kind":"effect_completion","record":{"effect_id":"c1/1","outcome":"applied","output":"ok �","evidence":{"sha256":"ab"}}}"#
        ),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].ends_with(
            r#""kind":"unknown","record":{"record_kind":999,"bytes":1,"projection":false}}"#
        ),
        "{}",
        lines[2]
    );
}

#[test]
fn pages_refuse_what_the_session_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = recorded_session(dir.path());
    let page = |limit, cursor, branch| {
        inspect::read_page(
            &path,
            id,
            PageRequest {
                limit,
                cursor,
                branch,
            },
        )
    };
    assert!(matches!(
        page(0, None, false),
        Err(inspect::PageError::Limit { limit: 0 })
    ));
    assert!(matches!(
        page(10, Some(99), false),
        Err(inspect::PageError::Cursor { last: 3, .. })
    ));
    let first = page(2, None, false).unwrap();
    assert_eq!(first.next_cursor, Some(2));
    let rest = page(2, Some(2), false).unwrap();
    assert_eq!(rest.entries.len(), 1);
    assert_eq!(rest.next_cursor, None);
    // Along the branch: newest first.
    let branch = page(10, None, true).unwrap();
    let ids: Vec<u64> = branch.entries.iter().map(|e| e.id.0).collect();
    assert_eq!(ids, [3, 2, 1]);
}

#[test]
fn grep_matches_lines_of_each_entry_and_stops_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = recorded_session(dir.path());
    let pattern = Pattern::new("^ok").unwrap();
    let mut found = Vec::new();
    let outcome = inspect::grep_session(&path, id, &pattern, &mut |m| {
        found.push((m.entry.0, m.kind, m.line.to_owned()));
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(found, [(2, "effect_completion", "ok �".to_owned())]);
    assert!(!outcome.stopped && outcome.skipped.is_empty());
    let bad = Pattern::new(&format!("({}", "a".repeat(100))).unwrap_err();
    assert!(
        bad.shown.ends_with('…') && bad.shown.chars().count() == 81,
        "{}",
        bad.shown
    );
}

#[test]
fn following_gives_every_entry_once_from_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = recorded_session(dir.path());
    assert!(matches!(
        Follow::start(&path, id, Some(5)),
        Err(FollowError::Position { next: 4, .. })
    ));
    let mut follow = Follow::start(&path, id, Some(2)).unwrap();
    let mut seen = Vec::new();
    let polled = follow
        .poll(&mut |e| {
            seen.push(e.id.0);
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(seen, [2, 3]);
    assert!(polled.idle && polled.withheld.is_none());
    // Nothing new: nothing given again.
    follow
        .poll(&mut |e| {
            seen.push(e.id.0);
            ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(seen, [2, 3]);
    assert_eq!(follow.position(), 4);
}

#[test]
fn verification_counts_entries_and_finds_no_damage_in_an_intact_file() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = recorded_session(dir.path());
    let v = inspect::verify(&path).unwrap();
    assert_eq!(v.entries, 3);
    assert!(v.intact() && v.torn_tail.is_none() && !v.live_writer);
    assert_eq!(v.unacknowledged, 0);
}

/// A plugin enabled or disabled for the rest of the process (the terminal UI's plugin
/// commands) is loaded, listed and offered accordingly, over what the settings say; the
/// settings are unchanged.
#[test]
fn plugins_enabled_or_disabled_for_the_process_override_the_settings() {
    let home = tempfile::tempdir().unwrap();
    let app = App::load(
        paths(home.path()),
        &invocation(&[("--disable-plugin", "plugins.shell.enabled", "false")]),
    )
    .unwrap();
    let ids = |app: &App| -> Vec<String> { app.registry.enabled().map(|m| m.id.clone()).collect() };
    assert!(!ids(&app).contains(&"shell".to_owned()));
    assert!(ids(&app).contains(&"docs".to_owned()));
    // Disabled for the process: not enabled, not loaded, listed with who disabled it.
    assert_eq!(app.registry.set_enabled("docs", false), Ok(true));
    assert!(!ids(&app).contains(&"docs".to_owned()));
    let host = app.load_plugins(|_| true).unwrap();
    assert!(
        !host
            .loadout()
            .tools()
            .iter()
            .any(|(plugin, _)| plugin == "docs"),
        "the docs tool is not loaded"
    );
    let docs = app
        .registry
        .plugins()
        .iter()
        .find(|p| p.manifest.id == "docs")
        .unwrap();
    let record = smith_app::catalog::plugin_record(
        &app.registry,
        docs,
        &smith_host::ProcessPolicy::Refused("test".into()),
    );
    assert_eq!(record["state"], "disabled");
    assert_eq!(
        record["disabled_by"],
        smith_app::registry::DISABLED_FOR_PROCESS
    );
    let values = smith_app::product::ArgumentValues::of(&app);
    assert!(values.details["docs"].starts_with("disabled by this process"));
    // A plugin the settings disabled, enabled for the process; the setting stays.
    assert_eq!(app.registry.set_enabled("shell", true), Ok(false));
    assert!(ids(&app).contains(&"shell".to_owned()));
    assert_eq!(
        app.settings
            .resolved
            .get("plugins.shell.enabled")
            .unwrap()
            .value
            .to_string(),
        "false"
    );
    // An unknown id names the known ones.
    let unknown = app.registry.set_enabled("nosuch", true).unwrap_err();
    assert_eq!(unknown.id, "nosuch");
    assert!(unknown.known.iter().any(|k| k == "docs"), "{unknown}");
    let said = unknown.to_string();
    assert!(
        said.contains("no plugin `nosuch`") && said.contains("docs"),
        "{said}"
    );
}

/// The model picker's values mark the models whose provider has no usable key, saying how to
/// give one, and leave those of a provider with a key unmarked.
#[cfg(unix)]
#[test]
fn models_without_a_usable_key_are_marked_with_how_to_give_one() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let variable = "SMITH_TEST_KEY_NOBODY_SETS";
    let load = || {
        App::load(
            paths(home.path()),
            &invocation(&[("-c", "provider.anthropic.api-key-env", variable)]),
        )
        .unwrap()
    };
    let model = "anthropic/claude-haiku-4-5";
    let detail = |app: &App| smith_app::product::ArgumentValues::of(app).details[model].clone();
    let app = load();
    let said = detail(&app);
    assert!(
        said.starts_with(&format!(
            "no key: set {variable} or run `smith auth set anthropic` · "
        )),
        "{said}"
    );
    let file = app.paths.auth_file().unwrap();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "provider \"anthropic\" {\n    api-key \"sk-test\"\n}\n",
    )
    .unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let said = detail(&load());
    assert!(!said.contains("key"), "{said}");
    // Readable by others, the file is not used for requests: said, with the fix.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let said = detail(&load());
    assert!(
        said.starts_with("no usable key:") && said.contains("chmod 600"),
        "{said}"
    );
}

/// A provider that repeats tool call ids repeats effect ids (`c1/1` in two rounds): the
/// listing tells the two effects of unknown outcome apart by their intent (`c1/1@N`), the
/// bare id is refused as naming both, and a verdict given to one stays with it — completions
/// and verdicts are matched by what they pair with, not by id.
#[test]
fn repeated_effect_ids_are_told_apart_by_their_intent() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut writer = SessionWriter::create(dir.path(), id).unwrap();
    for round in 0..2 {
        let intent = writer
            .append(&[Stored::EffectIntent(smith::EffectIntent {
                effect_id: "c1/1".into(),
                call_id: "c1".into(),
                plugin: "shell@0.1.0#1".into(),
                tool: "bash".into(),
                effect: "process.run".into(),
                target: Some(format!("make round-{round}")),
                input: serde_json::json!({}),
            })])
            .unwrap()[0];
        writer
            .append_entries(&[smith_store::NewEntry {
                record: Stored::EffectCompletion(EffectCompletion {
                    effect_id: "c1/1".into(),
                    outcome: EffectOutcome::Unknown,
                    output: b"interrupted".to_vec(),
                    evidence: serde_json::Value::Null,
                }),
                pair: Some(intent),
            }])
            .unwrap();
    }
    let path = writer.path().to_owned();
    writer.close().unwrap();

    let listed = smith_app::verdicts::list(&path).unwrap().effects;
    let addresses: Vec<String> = listed.iter().map(|e| e.address.clone()).collect();
    assert_eq!(
        addresses,
        [
            format!("c1/1@{}", listed[0].intent.0),
            format!("c1/1@{}", listed[1].intent.0)
        ]
    );
    assert_ne!(listed[0].intent, listed[1].intent);

    let refused =
        smith_app::verdicts::reconcile(&path, id, "c1/1", EffectOutcome::Applied, "").unwrap_err();
    assert!(
        matches!(
            refused,
            smith_app::verdicts::ReconcileError::Ambiguous { .. }
        ) && refused.to_string().contains(&addresses[0])
            && refused.to_string().contains(&addresses[1]),
        "{refused}"
    );

    let done = smith_app::verdicts::reconcile(
        &path,
        id,
        &addresses[1],
        EffectOutcome::NotApplied,
        "checked round 1",
    )
    .unwrap();
    assert_eq!(done.effect.target.as_deref(), Some("make round-1"));
    let after = smith_app::verdicts::list(&path).unwrap().effects;
    assert!(after[0].verdict.is_none(), "{after:?}");
    assert_eq!(after[1].verdict.as_ref().unwrap().note, "checked round 1");
}
