//! The process facility with real programs (bash, sleep), and the bundled `bash` tool through
//! the wasm host with a real session as the effect journal.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use smith::{Cancel, ToolRegistry};
use smith_host::process::{ExitStatus, ProcessRequest, ProcessResult, run};
use smith_host::{Policy, ProcessPolicy};
use smith_store::{EffectOutcome, Record, read_session};

use common::{Fixture, host, survivors_after_settling};

fn bash(script: &str, dir: &Path) -> ProcessRequest {
    ProcessRequest {
        program: "bash".into(),
        args: vec!["-c".into(), script.into()],
        cwd: dir.to_owned(),
        env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
        timeout: Duration::from_secs(30),
        output_bytes: 1 << 20,
        confinement: None,
    }
}

fn run_bash(script: &str, dir: &Path) -> ProcessResult {
    run(&bash(script, dir), &|| false).unwrap()
}

#[test]
fn a_timeout_terminates_the_program_children_and_grandchildren() {
    let dir = tempfile::tempdir().unwrap();
    // A child and a grandchild (in a subshell), all sleeping far past the timeout; the
    // unusual durations mark them in the process table.
    let script = "(sleep 4101.1 & sleep 4101.2; wait) & sleep 4101.3; wait";
    let mut request = bash(script, dir.path());
    request.timeout = Duration::from_millis(300);
    let started = Instant::now();
    let out = run(&request, &|| false).unwrap();
    assert!(out.timed_out, "{out:?}");
    assert!(!out.cancelled);
    assert!(
        matches!(out.status, ExitStatus::Signal(_)),
        "{:?}",
        out.status
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(survivors_after_settling("4101."), Vec::<String>::new());
}

#[test]
fn cancellation_mid_run_terminates_the_group_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // The script says when it runs (a file it makes); cancellation is asked for from then on,
    // so the group is always cut mid-run, however loaded the machine.
    let ready = dir.path().join("ready");
    let out = run(
        &bash(
            "echo started; touch ready; sleep 4102.1 & sleep 4102.2",
            dir.path(),
        ),
        &|| ready.exists(),
    )
    .unwrap();
    assert!(out.cancelled && !out.timed_out, "{out:?}");
    assert_eq!(out.stdout.text, "started\n");
    assert_eq!(survivors_after_settling("4102."), Vec::<String>::new());
}

#[test]
fn output_written_right_before_exit_is_captured_whole() {
    let dir = tempfile::tempdir().unwrap();
    // 300,000 bytes then the exit, with nothing in between.
    let out = run_bash(
        "head -c 300000 /dev/zero | tr '\\0' x; printf END; exit 7",
        dir.path(),
    );
    assert_eq!(out.status, ExitStatus::Code(7));
    assert_eq!(out.stdout.total_bytes, 300_003);
    assert!(!out.stdout.truncated);
    assert_eq!(out.stdout.text.len(), 300_003);
    assert!(out.stdout.text.ends_with("xEND"));
    // A background child that writes just after the program exits is still heard.
    let out = run_bash("(sleep 0.1; echo late) & echo early", dir.path());
    assert_eq!(out.stdout.text, "early\nlate\n");
    assert!(!out.output_abandoned);
}

#[test]
fn descendants_left_running_after_exit_are_terminated() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_bash("sleep 4103.1 >/dev/null 2>&1 & echo left", dir.path());
    assert_eq!(out.status, ExitStatus::Code(0));
    assert_eq!(out.stdout.text, "left\n");
    assert!(out.descendants_terminated, "{out:?}");
    assert_eq!(survivors_after_settling("4103."), Vec::<String>::new());
    // A descendant holding only stderr past the drain window is terminated, and then both
    // streams count as read to their end (nothing abandoned).
    let out = run_bash("(exec sleep 4103.2 >/dev/null) & echo out", dir.path());
    assert_eq!(out.stdout.text, "out\n");
    assert!(
        out.descendants_terminated && !out.output_abandoned,
        "{out:?}"
    );
    assert_eq!(survivors_after_settling("4103."), Vec::<String>::new());
    // A program that leaves nothing behind reports nothing terminated.
    let out = run_bash("echo alone", dir.path());
    assert!(!out.descendants_terminated);
}

#[test]
fn exit_codes_signals_stderr_and_the_output_bound() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_bash("echo out; echo err >&2; exit 3", dir.path());
    assert_eq!(out.status, ExitStatus::Code(3));
    assert_eq!(
        (out.stdout.text.as_str(), out.stderr.text.as_str()),
        ("out\n", "err\n")
    );
    let out = run_bash("kill -9 $$", dir.path());
    assert_eq!(out.status, ExitStatus::Signal(9));
    let mut request = bash(
        "head -c 100000 /dev/zero | tr '\\0' a; echo; echo last",
        dir.path(),
    );
    request.output_bytes = 1000;
    let out = run(&request, &|| false).unwrap();
    assert!(out.stdout.truncated);
    assert_eq!(out.stdout.total_bytes, 100_006);
    assert!(out.stdout.text.contains("bytes cut"), "{}", out.stdout.text);
    assert!(
        out.stdout.text.ends_with("a\nlast\n"),
        "{}",
        out.stdout.text
    );
    assert!(out.stdout.text.len() < 1200);
    // The working directory is the one asked for.
    let out = run_bash("pwd", dir.path());
    assert_eq!(
        Path::new(out.stdout.text.trim()).canonicalize().unwrap(),
        dir.path().canonicalize().unwrap()
    );
}

#[test]
fn a_missing_program_is_a_spawn_failure() {
    let dir = tempfile::tempdir().unwrap();
    let mut request = bash("", dir.path());
    request.program = "smith-no-such-program-here".into();
    let err = run(&request, &|| false).unwrap_err();
    assert!(
        matches!(err, smith_host::process::SpawnFailure::NotFound(_)),
        "{err:?}"
    );
}

fn allowed() -> Policy {
    Policy {
        process: ProcessPolicy::Allowed("the test allows it".into()),
        // The facility itself is under test here; the OS sandbox has its own tests (the
        // binary's `sandbox` suite), since only the `smith` binary can be its launcher.
        sandbox: smith_host::sandbox::Sandbox::full_access(),
        ..Policy::default()
    }
}

#[test]
fn the_bash_tool_is_refused_unless_the_policy_allows_processes() {
    let host = host();
    let f = Fixture::new();
    let refused = host.loadout();
    let out = f.call(&refused, "bash", json!({"command": "touch made-it"}));
    assert!(out.is_error, "{}", out.output);
    // The refusal names the fix, in the terms of settings (a frontend adds its own hints).
    assert!(
        out.output.contains("trust the project") && out.output.contains("process.allow"),
        "{}",
        out.output
    );
    assert!(!f.root().join("made-it").exists());
    assert_eq!(
        f.effects(),
        [("process.run".to_owned(), EffectOutcome::NotApplied)]
    );

    let allowed = host.loadout().with_policy(allowed());
    let out = f.call(
        &allowed,
        "bash",
        json!({"command": "touch made-it; echo done; exit 2"}),
    );
    assert!(
        out.is_error,
        "a non-zero exit is an error result: {}",
        out.output
    );
    assert!(out.output.starts_with("done\n"), "{}", out.output);
    assert!(out.output.contains("exit status 2"), "{}", out.output);
    assert!(f.root().join("made-it").exists());
    // A program's mutation state is never claimed: unknown, with its exit status as evidence.
    assert_eq!(
        f.effects()[1],
        ("process.run".to_owned(), EffectOutcome::Unknown)
    );
    let entries = read_session(&f.session).unwrap().entries;
    let Some(Record::EffectCompletion(c)) = entries.last().map(|e| &e.record) else {
        panic!("the last entry is the completion")
    };
    assert_eq!(c.evidence["exit_code"], 2);
    assert_eq!(String::from_utf8_lossy(&c.output), "done\n");
}

#[test]
fn the_bash_tool_environment_is_a_baseline_without_the_hosts_other_variables() {
    let host = host();
    let f = Fixture::new();
    // Cargo sets CARGO_MANIFEST_DIR for this test process: a stand-in for a credential.
    assert!(std::env::var("CARGO_MANIFEST_DIR").is_ok());
    let tools = host.loadout().with_policy(allowed());
    let out = f.call(&tools, "bash", json!({"command": "env"}));
    assert!(!out.is_error, "{}", out.output);
    assert!(out.output.contains("PATH="), "{}", out.output);
    assert!(!out.output.contains("CARGO_MANIFEST_DIR"), "{}", out.output);
    let tools = host.loadout().with_policy(Policy {
        pass_env: vec!["CARGO_MANIFEST_DIR".into()],
        ..allowed()
    });
    let out = f.call(
        &tools,
        "bash",
        json!({"command": "echo $CARGO_MANIFEST_DIR"}),
    );
    assert!(
        out.output.contains(env!("CARGO_MANIFEST_DIR")),
        "{}",
        out.output
    );
}

#[test]
fn cancelling_a_bash_call_records_the_outcome_and_leaves_no_process() {
    let host = host();
    let f = Fixture::new();
    let tools = host.loadout().with_policy(allowed());
    let cancel = Cancel::new();
    // The command says when it runs (a file it makes in the working directory); the cancel
    // follows it, so the call is always cut mid-run.
    let ready = f.root().join("ready");
    let trigger = cancel.clone();
    let canceller = std::thread::spawn(move || {
        smith_testkit::wait_for(&ready);
        trigger.cancel();
    });
    let out = f.call_with(
        &tools,
        "bash",
        json!({"command": "echo begun; touch ready; sleep 4104.1 & sleep 4104.2"}),
        &cancel,
    );
    canceller.join().unwrap();
    assert!(
        out.is_error && out.output.contains("cancelled"),
        "{}",
        out.output
    );
    assert!(out.output.starts_with("begun\n"), "{}", out.output);
    assert_eq!(survivors_after_settling("4104."), Vec::<String>::new());
    let entries = read_session(&f.session).unwrap().entries;
    let Some(Record::EffectCompletion(c)) = entries.last().map(|e| &e.record) else {
        panic!("the last entry is the completion")
    };
    assert_eq!(c.outcome, EffectOutcome::Unknown);
    assert_eq!(c.evidence["cancelled"], true);
}

#[test]
fn a_long_process_does_not_count_against_the_plugins_cpu_deadline() {
    // The host in `common` gives plugins a 1.5 s deadline; the command takes longer.
    let host = host();
    let f = Fixture::new();
    let tools = host.loadout().with_policy(allowed());
    let out = f.call(&tools, "bash", json!({"command": "sleep 2; echo awake"}));
    assert!(!out.is_error, "{}", out.output);
    assert!(out.output.starts_with("awake\n"), "{}", out.output);
    // And the bash tool's own timeout applies.
    let out = f.call(
        &tools,
        "bash",
        json!({"command": "sleep 4105.1", "timeout_seconds": 1}),
    );
    assert!(
        out.is_error && out.output.contains("timed out after 1 s"),
        "{}",
        out.output
    );
    assert_eq!(survivors_after_settling("4105."), Vec::<String>::new());
    // A timeout above the user's cap is cut to the cap, and the result says so.
    let capped = host.loadout().with_policy(Policy {
        process_limits: smith_host::ProcessLimits {
            max_timeout: Duration::from_secs(1),
            ..smith_host::ProcessLimits::default()
        },
        ..allowed()
    });
    let out = f.call(
        &capped,
        "bash",
        json!({"command": "sleep 4105.2", "timeout_seconds": 600}),
    );
    assert!(
        out.output
            .contains("timed out after 1 s; 600 s were asked for")
            && out.output.contains("process.max-timeout"),
        "{}",
        out.output
    );
    let _ = tools.definitions();
}

#[test]
fn the_bash_tool_gives_the_model_plain_text_without_terminal_controls() {
    let host = host();
    let f = Fixture::new();
    let tools = host.loadout().with_policy(allowed());
    let out = f.call(
        &tools,
        "bash",
        json!({"command": r"printf 'a\033[31mred\033[0m\r\nb\007c\000d\033]0;title\007e\n'; printf 'é%.0s' $(seq 40000)"}),
    );
    assert!(!out.is_error, "{}", out.output);
    assert!(
        out.output.starts_with("ared\nbcde\n"),
        "{:?}",
        &out.output[..40]
    );
    assert!(
        !out.output.contains('\u{fffd}'),
        "a cut never splits a character"
    );
    assert!(out.output.contains("bytes cut"), "the long line was cut");
}

#[test]
fn a_running_program_s_newest_output_is_offered_while_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    // The program waits, after its first line, until the watcher has seen that line: it can
    // only finish if its output was offered while it ran.
    let go = dir.path().join("go");
    let mut request = bash(
        "echo first; echo oops >&2; while [ ! -e go ]; do sleep 0.01; done; echo second",
        dir.path(),
    );
    request.timeout = smith_testkit::DEADLINE;
    let mut previews = Vec::new();
    let out = smith_host::process::run_watched(&request, &|| false, &mut |preview: &str| {
        if preview.contains("first") && preview.contains("oops") {
            std::fs::write(&go, "").unwrap();
        }
        previews.push(preview.to_owned());
    })
    .unwrap();
    assert!(!out.timed_out, "the preview never came: {previews:?}");
    assert_eq!(out.stdout.text, "first\nsecond\n");
    // Both streams, each line whole (their order between two pipes is the readers').
    assert!(
        previews
            .iter()
            .any(|p| p.lines().count() == 2 && p.contains("first") && p.contains("oops")),
        "{previews:?}"
    );
    // Offered only when something new arrived: never the same preview twice in a row.
    assert!(previews.windows(2).all(|w| w[0] != w[1]), "{previews:?}");
}

/// A journal that records intents in the fixture's session but cannot record a completion,
/// as when the disk fills while a program runs.
struct CompletionFails(smith_store::SharedWriter);

impl smith::EffectJournal for CompletionFails {
    fn intent(
        &self,
        intent: smith_store::EffectIntent,
        cause: Option<smith::EntryId>,
    ) -> Result<smith::EntryId, smith::JournalError> {
        self.0.intent(intent, cause)
    }
    fn complete(
        &self,
        _: smith::EntryId,
        _: smith_store::EffectCompletion,
    ) -> Result<smith::EntryId, smith::JournalError> {
        Err(smith::JournalError::Storage(
            "no space left on device".into(),
        ))
    }
}

#[test]
fn a_program_that_ran_but_whose_completion_was_not_recorded_is_said_to_have_run() {
    let host = host();
    let f = Fixture::new();
    let tools = host.loadout().with_policy(allowed());
    let call = smith::ToolCall {
        id: "c1".into(),
        name: "bash".into(),
        arguments: json!({"command": "touch ran-it"}),
    };
    let ctx = smith::ToolContext {
        journal: std::sync::Arc::new(CompletionFails(f.writer.clone())),
        ..f.context()
    };
    let out = tools.call(&call, &ctx, &Cancel::new());
    assert!(f.root().join("ran-it").exists(), "the program ran");
    assert!(out.is_error, "{}", out.output);
    assert!(
        out.output.contains("was started and ran")
            && out
                .output
                .contains("its completion could not be recorded (")
            && out.output.contains("no space left on device"),
        "{}",
        out.output
    );
    assert!(!out.output.contains("could not start"), "{}", out.output);
}
