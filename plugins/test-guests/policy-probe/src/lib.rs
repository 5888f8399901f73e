//! A policy handler for the host's tests (role `hooks`): its answers follow words in the
//! arguments of the call an event is about —
//! - `veto` denies the call before it runs; `veto-effect` denies each of its effects;
//! - `trap` traps at the call; `trap-effect` traps at each effect;
//! - `probe-ask` asks at the call (choices `yes` and `no`; `yes` allows);
//! - `note` adds a note to the result;
//! - `loop` spins at the call until its deadline;
//! - after the call, `count-branch`, `count-session`, `count-project` and `count-user`
//!   increment a counter in the state slot of that scope and note its value; `state-big`
//!   writes a value over its slot's bound, `state-undeclared` reads an undeclared slot and
//!   `remember-outside` asks the host to remember a rule outside an answer, each noting the
//!   error it got;
//!
//! It passes otherwise.

use smith_plugin_sdk::policy::{Choice, Guest, PolicyEvent, Question, Verdict};
use smith_plugin_sdk::{export_policy_plugin, state_get, state_set};

struct Probe;

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
