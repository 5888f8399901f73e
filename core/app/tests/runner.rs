//! The session runner with real parts: the bundled plugins, the scripted provider, real
//! session files. A turn runs through it; every refusal is a typed error naming the value
//! it refuses, and a refused command writes nothing; `last` means the session most recently
//! written in the directory, else in the nearest directory above it in its project.

use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;

use smith::{Cancel, EntryId, StopReason};
use smith_app::runner::target::{self, Access, OpenError, Target};
use smith_app::runner::{CompactRequest, Submission};
use smith_app::{App, Command, Invocation, Paths, RunSpec, Runner, RunnerError};
use smith_store::{Record, SessionWriter};
use smith_ui_intents::Intent;

/// Paths rooted in `home`, the compile cache shared with the other test processes.
fn paths(home: &Path) -> Paths {
    let home: OsString = home.as_os_str().to_owned();
    let cache: OsString = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("smith-runner-cache")
        .into_os_string();
    Paths::from_vars(move |name| match name {
        "SMITH_HOME" => Some(home.clone()),
        "SMITH_CACHE_HOME" => Some(cache.clone()),
        _ => None,
    })
}

fn app(home: &Path) -> Arc<App> {
    Arc::new(App::load(paths(home), &Invocation::default()).unwrap())
}

fn spec(model: &str) -> RunSpec {
    RunSpec {
        selection: smith_testkit::selection(model),
        thinking: None,
        script: None,
    }
}

fn words(refusal: &smith_app::ProcessRefusal) -> String {
    refusal.to_string()
}

/// A home, a working directory holding a README.md, and the app of that home.
fn with_readme() -> (tempfile::TempDir, tempfile::TempDir, Arc<App>) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("README.md"), "# readme\n").unwrap();
    let app = app(home.path());
    (home, work, app)
}

/// A new session in `cwd` with one scripted tool-using turn run through the runner.
fn one_turn(app: &Arc<App>, cwd: &Path) -> Runner {
    let mut runner = target::open(Arc::clone(app), &Target::New, cwd, words)
        .unwrap()
        .runner;
    runner.prepare(spec("scripted/tool-call")).unwrap();
    let mut intents = Vec::new();
    let mut sink = |i: Intent| intents.push(i);
    let end = runner
        .submit(
            Submission {
                prompt: smith_app::prompt::Prompt::literal("read the readme".into()),
                ..Submission::default()
            },
            &mut sink,
            &Cancel::new(),
        )
        .unwrap();
    assert_eq!(end.stop_reason, StopReason::EndTurn);
    assert!(end.submission.is_some() && !end.deduplicated);
    assert!(
        intents
            .iter()
            .any(|i| matches!(i, Intent::ToolEnd { name, .. } if name == "read")),
        "the turn's intents left through the sink"
    );
    runner
}

/// The first entry of `kind` in the session at `path`.
fn first(path: &Path, kind: &str) -> EntryId {
    smith_store::read_session(path)
        .unwrap()
        .entries
        .iter()
        .find(|e| e.record.kind_name() == kind)
        .map(|e| e.id)
        .unwrap()
}

#[test]
fn refused_commands_name_what_they_refuse_and_write_nothing() {
    let (_home, work, app) = with_readme();
    let mut runner = one_turn(&app, work.path());
    let path = runner.path().to_owned();
    let before = std::fs::read(&path).unwrap();
    let mut quiet = |_: Intent| {};

    // A selection that would split the tool batch: the branch ending at the call's effect.
    let inside = first(&path, "effect_intent");
    let err = runner
        .apply(Command::Select(inside), &mut quiet, &Cancel::new())
        .unwrap_err();
    assert!(matches!(err, RunnerError::Refused(_)), "{err:?}");
    let said = err.to_string();
    assert!(
        said.contains("tool batch") && said.contains(&inside.to_string()),
        "{said}"
    );

    // An entry past the tip, as a selection and as a submission's destination.
    let err = runner
        .apply(Command::Select(EntryId(9_999)), &mut quiet, &Cancel::new())
        .unwrap_err();
    assert!(
        matches!(err, RunnerError::Refused(_)) && err.to_string().contains("9999"),
        "{err}"
    );
    let err = runner
        .submit(
            Submission {
                prompt: smith_app::prompt::Prompt::literal("again".into()),
                destination: Some(EntryId(9_999)),
                ..Submission::default()
            },
            &mut quiet,
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(err.to_string().contains("9999"), "{err}");

    // A deduplication key that is not one.
    let err = runner
        .submit(
            Submission {
                prompt: smith_app::prompt::Prompt::literal("again".into()),
                dedup_key: Some(String::new()),
                ..Submission::default()
            },
            &mut quiet,
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(matches!(err, RunnerError::Refused(_)), "{err:?}");

    // A plugin that does not exist.
    let err = runner
        .apply(
            Command::SetPlugin {
                id: "no-such-plugin".into(),
                enabled: false,
            },
            &mut quiet,
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(
        matches!(&err, RunnerError::Plugin(why) if why.id == "no-such-plugin"),
        "{err:?}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "no refusal wrote anything"
    );

    // The batch's last result is a branch point like any other: selecting it is recorded.
    let result = first(&path, "tool_result");
    let done = runner
        .apply(Command::Select(result), &mut quiet, &Cancel::new())
        .unwrap();
    assert!(matches!(done, smith_app::Done::Selected(e) if e == result));
    assert_eq!(runner.leaf(), Some(result));
    runner.close(false).unwrap();
    assert!(path.exists(), "a session something was admitted to is kept");
}

#[test]
fn nothing_asks_a_model_without_a_route_and_an_unused_new_session_is_removed() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let app = app(home.path());
    let opened = target::open(Arc::clone(&app), &Target::New, work.path(), words).unwrap();
    let mut runner = opened.runner;
    let path = runner.path().to_owned();
    let mut quiet = |_: Intent| {};
    let err = runner
        .submit(Submission::default(), &mut quiet, &Cancel::new())
        .unwrap_err();
    assert!(matches!(err, RunnerError::EmptyInput), "{err:?}");
    let err = runner
        .submit(
            Submission {
                prompt: smith_app::prompt::Prompt::literal("hello".into()),
                ..Submission::default()
            },
            &mut quiet,
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(matches!(err, RunnerError::Unprepared { .. }), "{err:?}");
    let err = runner
        .compact(CompactRequest::default(), &mut quiet, &Cancel::new())
        .unwrap_err();
    assert!(matches!(err, RunnerError::Unprepared { .. }), "{err:?}");
    // Queueing needs the queue policy a prepared route brings.
    let err = runner
        .inbox()
        .queue(smith_app::runner::QueueInput {
            model: &smith_testkit::selection("scripted/demo"),
            input: "later",
            delivery: smith::Delivery::FollowUp,
            dedup_key: None,
        })
        .unwrap_err();
    assert!(matches!(err, RunnerError::Refused(_)), "{err:?}");
    // A compaction with nothing to summarize says so, and records no summary.
    runner.prepare(spec("scripted/demo")).unwrap();
    let err = runner
        .compact(CompactRequest::default(), &mut quiet, &Cancel::new())
        .unwrap_err();
    assert!(matches!(err, RunnerError::NothingToCompact(_)), "{err:?}");
    runner.close(false).unwrap();
    assert!(
        !path.exists(),
        "a session this runner created and nothing was admitted to is removed"
    );
}

#[test]
fn a_session_another_process_writes_is_observed_never_taken() {
    let (_home, work, app) = with_readme();
    let runner = one_turn(&app, work.path());
    let (path, id) = (runner.path().to_owned(), runner.id());
    runner.close(false).unwrap();
    let (_writer, _) = SessionWriter::open(&path, id).unwrap();
    let before = std::fs::read(&path).unwrap();
    let wanted = Target::Find(id.to_string()[..13].to_owned());
    match target::open_or_observe(Arc::clone(&app), &wanted, work.path(), words).unwrap() {
        Access::Observer {
            path: p,
            id: i,
            notices,
        } => {
            assert_eq!((p, i), (path.clone(), id));
            assert!(
                notices.is_empty(),
                "opened where it was started: {notices:?}"
            );
        }
        Access::Writer(_) => panic!("another process writes it"),
    }
    let err = target::open(Arc::clone(&app), &wanted, work.path(), words).unwrap_err();
    assert!(matches!(err, OpenError::Store(_)), "{err:?}");
    let err = target::select_branch(&path, id, EntryId(1)).unwrap_err();
    assert!(matches!(err, RunnerError::Store(_)), "{err:?}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was written");
}

#[test]
fn last_is_this_directory_then_the_nearest_above_it_in_its_project() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir(project.path().join(".git")).unwrap();
    let sub = project.path().join("src");
    let deeper = sub.join("deep");
    std::fs::create_dir_all(&deeper).unwrap();
    let app = app(home.path());
    let new_in = |dir: &Path| {
        let runner = target::open(Arc::clone(&app), &Target::New, dir, words)
            .unwrap()
            .runner
            .created(false);
        let id = runner.id();
        runner.close(true).unwrap();
        id
    };
    let at_root = new_in(project.path());
    let in_sub = new_in(&sub);
    let latest = |dir: &Path| {
        target::resolve(&app, &Target::Latest, dir).map(|found| found.map(|(_, id)| id))
    };
    assert_eq!(latest(&sub).unwrap(), Some(in_sub), "this directory's");
    assert_eq!(
        latest(&deeper).unwrap(),
        Some(in_sub),
        "the nearest directory above that has one"
    );
    assert_eq!(latest(project.path()).unwrap(), Some(at_root));
    // Outside the project nothing above counts.
    let elsewhere = tempfile::tempdir().unwrap();
    let err = latest(elsewhere.path()).unwrap_err();
    assert!(
        matches!(&err, OpenError::NoLatest { cwd, .. } if cwd == elsewhere.path().to_str().unwrap()),
        "{err:?}"
    );
    assert!(
        !err.to_string().contains("--"),
        "no flag in a core error: {err}"
    );
}

#[test]
fn a_recorded_turn_is_one_the_runner_ran() {
    let (_home, work, app) = with_readme();
    let runner = one_turn(&app, work.path());
    let path = runner.path().to_owned();
    runner.close(false).unwrap();
    let session = smith_store::read_session(&path).unwrap();
    // Every record is redacted against the registered secrets, which the session records
    // before the turn's submission.
    let kinds: Vec<&str> = session
        .entries
        .iter()
        .map(|e| e.record.kind_name())
        .collect();
    let submission = kinds.iter().position(|k| *k == "submission").unwrap();
    assert!(
        kinds[..submission]
            .iter()
            .all(|k| matches!(*k, "session_start" | "secret_registration")),
        "{kinds:?}"
    );
    assert!(matches!(
        session.entries.last().map(|e| &e.record),
        Some(Record::RunEnd(_))
    ));
}

#[test]
fn a_fork_past_the_tip_names_the_entry_and_a_session_opened_elsewhere_says_so() {
    let (_home, work, app) = with_readme();
    let runner = one_turn(&app, work.path());
    let (path, id) = (runner.path().to_owned(), runner.id());
    runner.close(false).unwrap();
    let store = app.sessions().unwrap();
    let err = target::fork(&store, &path, id, Some(EntryId(9_999))).unwrap_err();
    assert!(
        matches!(err, OpenError::Fork { .. }) && err.to_string().contains("9999"),
        "{err}"
    );
    assert_eq!(store.list().unwrap().len(), 1, "no fork was left behind");
    let forked = target::fork(&store, &path, id, None).unwrap();
    assert_eq!(store.list().unwrap().len(), 2);
    // The fork keeps the source's start: opened from another directory, it says where its
    // tools now run.
    let elsewhere = tempfile::tempdir().unwrap();
    let wanted = Target::Existing {
        path: forked.path,
        id: forked.id,
    };
    let opened = target::open(Arc::clone(&app), &wanted, elsewhere.path(), words).unwrap();
    let said: Vec<String> = opened.notices.iter().map(ToString::to_string).collect();
    assert!(
        opened
            .notices
            .iter()
            .any(|n| matches!(n, target::OpenNotice::StartedElsewhere { .. })),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|s| s.contains(elsewhere.path().to_str().unwrap())),
        "{said:?}"
    );
    opened.runner.close(false).unwrap();
}

/// The host's count of what a run used: a turn without a tool call loads and instantiates no
/// tool plugin (only the handlers every turn asks and the provider); a turn that reads a file
/// loads the file tools alone, once per call.
#[test]
fn a_turn_without_a_tool_call_instantiates_no_tool_plugin_and_loads_only_what_it_asks() {
    let (_home, work, app) = with_readme();
    let mut runner = target::open(Arc::clone(&app), &Target::New, work.path(), words)
        .unwrap()
        .runner;
    let submit = |runner: &mut Runner, text: &str| {
        runner
            .submit(
                Submission {
                    prompt: smith_app::prompt::Prompt::literal(text.into()),
                    ..Submission::default()
                },
                &mut |_| {},
                &Cancel::new(),
            )
            .unwrap()
    };
    runner.prepare(spec("scripted/demo")).unwrap();
    submit(&mut runner, "hello");
    let usage = runner
        .prepare(spec("scripted/demo"))
        .unwrap()
        .plugin_usage();
    let of = |id: &str| usage.iter().find(|u| u.id == id).unwrap().clone();
    for tool_plugin in ["files", "shell", "docs", "product"] {
        let u = of(tool_plugin);
        assert!(u.tier.is_none() && u.instances == 0, "{usage:?}");
    }
    let scripted = of("scripted");
    assert!(
        scripted.tier.is_some() && scripted.instances >= 1,
        "{usage:?}"
    );
    assert!(of("prompt").instances >= 1, "{usage:?}");
    // Nothing was queued and no secret restored: the queue and secret policies, asked only
    // then, are not even loaded; nor are the permissions policy (no call) and compaction.
    for idle in ["queue", "secret-policy", "permissions", "compaction"] {
        let u = of(idle);
        assert!(u.tier.is_none() && u.instances == 0, "{idle}: {usage:?}");
    }

    runner.prepare(spec("scripted/tool-call")).unwrap();
    submit(&mut runner, "read the readme");
    let usage = runner
        .prepare(spec("scripted/tool-call"))
        .unwrap()
        .plugin_usage();
    let of = |id: &str| usage.iter().find(|u| u.id == id).unwrap().clone();
    assert_eq!(of("files").instances, 1, "{usage:?}");
    for untouched in ["shell", "docs", "product"] {
        let u = of(untouched);
        assert!(u.tier.is_none() && u.instances == 0, "{usage:?}");
    }
}

#[test]
fn a_sessions_permission_mode_is_recorded_and_holds_when_it_is_opened_again() {
    let (home, work, app) = with_readme();
    let mut runner = one_turn(&app, work.path());
    let mut quiet = |_: Intent| {};
    let done = runner
        .apply(
            Command::SetPermissionMode(Some(smith_app::PermissionMode::Plan)),
            &mut quiet,
            &Cancel::new(),
        )
        .unwrap();
    assert!(matches!(
        done,
        smith_app::Done::PermissionModeSet(smith_app::PermissionMode::Plan)
    ));
    let (path, id) = (runner.path().to_owned(), runner.id());
    runner.close(true).unwrap();
    let recorded = smith_store::read_session(&path)
        .unwrap()
        .entries
        .into_iter()
        .filter(|e| matches!(&e.record, Record::State(s) if s.owner == "smith"))
        .count();
    assert_eq!(recorded, 1, "the change is a record of the session");

    // Opened again: the session's mode, not the settings' default.
    let existing = || Target::Existing {
        path: path.clone(),
        id,
    };
    let again = target::open(Arc::clone(&app), &existing(), work.path(), words)
        .unwrap()
        .runner;
    assert_eq!(again.permission_mode(), smith_app::PermissionMode::Plan);
    again.close(true).unwrap();

    // A mode this invocation names itself (a flag) wins over the recorded one.
    let mut invocation = Invocation::default();
    invocation.set("--permission-mode", "permissions.mode", "ask");
    let flagged = Arc::new(App::load(paths(home.path()), &invocation).unwrap());
    let again = target::open(flagged, &existing(), work.path(), words)
        .unwrap()
        .runner;
    assert_ne!(again.permission_mode(), smith_app::PermissionMode::Plan);
    again.close(true).unwrap();
}
