//! A policy handler for the host's tests (role `hooks`): its answers follow words in the
//! arguments of the call an event is about —
//! - `veto` denies the call before it runs; `veto-effect` denies each of its effects;
//! - `trap` traps at the call; `trap-effect` traps at each effect;
//! - `probe-ask` asks at the call (choices `yes` and `no`; `yes` allows);
//! - `note` adds a note to the result;
//! - `loop` spins at the call until its deadline;
//! - `hook-deny` runs `sh -c 'echo checked; echo "not on a Friday" >&2; exit 3'` before the
//!   call (the `process` import, 1.5.0) and denies it with the program's stderr;
//!   `hook-slow` runs `sleep 30` with a 200 ms timeout and denies saying it timed out;
//! - `hook-after` runs `sh -c 'echo formatted $SMITH_TOOL'` after the call and notes its
//!   output;
//! - after the call, `count-branch`, `count-session`, `count-project` and `count-user`
//!   increment a counter in the state slot of that scope and note its value; `state-big`
//!   writes a value over its slot's bound, `state-undeclared` reads an undeclared slot and
//!   `remember-outside` asks the host to remember a rule outside an answer, each noting the
//!   error it got;
//!
//! It passes otherwise.

use smith_plugin_sdk::bindings::smith::plugin::process::{self, EnvBase, ProcessRequest};
use smith_plugin_sdk::policy::{Choice, Guest, PolicyEvent, Question, Verdict};
use smith_plugin_sdk::{export_policy_plugin, state_get, state_set};

struct Probe;

/// Run `program` with `args` for the call to tool `tool`: its stdout, stderr and whether it
/// exited 0, or why it did not run.
fn run(
    program: &str,
    args: &[&str],
    tool: &str,
    timeout_ms: u64,
) -> Result<(String, String, bool), String> {
    let out = process::run(&ProcessRequest {
        program: program.to_owned(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        cwd: String::new(),
        env_base: EnvBase::Baseline,
        env: vec![("SMITH_TOOL".to_owned(), tool.to_owned())],
        timeout_ms,
        output_limit: 0,
    })
    .map_err(|e| format!("{e:?}"))?;
    let ok = !out.timed_out && matches!(out.status, process::ExitStatus::Code(0));
    let stderr = if out.timed_out {
        format!("timed out after {} ms", out.timeout_ms)
    } else {
        out.stderr.text
    };
    Ok((out.stdout.text, stderr, ok))
}

impl Guest for Probe {
    fn decide(event: PolicyEvent) -> Result<Verdict, String> {
        Ok(match event {
            PolicyEvent::BeforeTool(call) => {
                let args = call.arguments.as_str();
                if args.contains("trap") && !args.contains("trap-effect") {
                    panic!("the probe traps at the call, as asked");
                }
                if args.contains("loop") {
                    #[allow(clippy::empty_loop)]
                    loop {}
                }
                if args.contains("hook-deny") || args.contains("hook-slow") {
                    let slow = args.contains("hook-slow");
                    let ran = if slow {
                        run("sleep", &["30"], &call.tool, 200)
                    } else {
                        let script = "echo checked; echo 'not on a Friday' >&2; exit 3";
                        run("sh", &["-c", script], &call.tool, 0)
                    };
                    return Ok(match ran {
                        Ok((_, stderr, false)) => Verdict::Deny(stderr.trim().to_owned()),
                        Ok((_, _, true)) => Verdict::Pass,
                        Err(why) => Verdict::Deny(format!("the hook did not run: {why}")),
                    });
                }
                if args.contains("veto") && !args.contains("veto-effect") {
                    Verdict::Deny("the probe vetoes this call".to_owned())
                } else if args.contains("probe-ask") {
                    Verdict::Ask(Question {
                        id: "probe".to_owned(),
                        text: format!("Let {} run with {args}?", call.tool),
                        choices: vec![
                            Choice {
                                id: "yes".to_owned(),
                                label: "Yes".to_owned(),
                            },
                            Choice {
                                id: "no".to_owned(),
                                label: "No".to_owned(),
                            },
                        ],
                    })
                } else {
                    Verdict::Pass
                }
            }
            PolicyEvent::BeforeEffect(effect) => {
                if effect.target.contains("trap-effect") {
                    panic!("the probe traps at the effect, as asked");
                }
                if effect.target.contains("veto-effect") {
                    Verdict::Deny(format!(
                        "the probe vetoes {} of {}",
                        effect.effect, effect.target
                    ))
                } else {
                    Verdict::Pass
                }
            }
            PolicyEvent::AfterTool(result) => {
                let args = result.arguments.as_str();
                let mut notes = Vec::new();
                for scope in ["branch", "session", "project", "user"] {
                    if args.contains(&format!("count-{scope}")) {
                        notes.push(match state_get::<u64>(scope) {
                            Ok(n) => {
                                let next = n.unwrap_or(0) + 1;
                                match state_set(scope, &next) {
                                    Ok(()) => format!("{scope} count {next}"),
                                    Err(e) => format!("{scope} set failed: {e:?}"),
                                }
                            }
                            Err(e) => format!("{scope} get failed: {e:?}"),
                        });
                    }
                }
                if args.contains("state-big") {
                    notes.push(format!("big: {:?}", state_set("branch", &"x".repeat(100))));
                }
                if args.contains("state-undeclared") {
                    notes.push(format!("undeclared: {:?}", state_get::<u64>("nope")));
                }
                if args.contains("hook-after") {
                    notes.push(
                        match run("sh", &["-c", "echo formatted $SMITH_TOOL"], &result.tool, 0) {
                            Ok((stdout, _, _)) => stdout.trim().to_owned(),
                            Err(why) => format!("the hook did not run: {why}"),
                        },
                    );
                }
                if args.contains("remember-outside") {
                    notes.push(format!(
                        "remember: {:?}",
                        smith_plugin_sdk::policy::remember_allow(&["bash(ls)".to_owned()])
                    ));
                }
                if !notes.is_empty() {
                    Verdict::Note(notes.join("; "))
                } else if result.arguments.contains("note") {
                    Verdict::Note(format!(
                        "probe note: {} bytes of output",
                        result.output.len()
                    ))
                } else {
                    Verdict::Pass
                }
            }
            PolicyEvent::Answered(answer) => {
                if answer.choice == "yes" {
                    Verdict::Allow
                } else {
                    Verdict::Deny(format!("the person said {}", answer.choice))
                }
            }
        })
    }
}

export_policy_plugin!(Probe);
