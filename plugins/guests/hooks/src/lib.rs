//! Smith's bundled hooks: the programs the user configured (`hooks.NAME.*`; the hooks guide)
//! run before and after the tool calls they match and at the end of a turn. The host decides
//! which hooks match (`matching-hooks`) and asks this plugin nothing when none does.
//!
//! - Before a call (`before-tool`): each matching hook runs in name order; the first that
//!   exits non-zero, times out or cannot start refuses the call, and what it wrote to its
//!   standard error (else its standard output) is the reason the model sees.
//! - After a call (`after-tool`): each matching hook runs; what it printed, and its exit
//!   status when not 0, is added to the call's result for the model.
//! - At the end of a turn (`turn-end`): each hook the turn matched runs; the person is told
//!   how each went (a warning for one that failed, with what it said); the model is not.
//!
//! Each program is run as `sh -c RUN` in the working directory, inside the OS sandbox, with
//! the baseline environment plus `SMITH_HOOK`, `SMITH_HOOK_EVENT`, `SMITH_FILE_PATHS`; for a
//! call `SMITH_TOOL`, `SMITH_TOOL_INPUT` (or `SMITH_TOOL_INPUT_CUT`) and, after it,
//! `SMITH_TOOL_OUTPUT` (`SMITH_TOOL_OUTPUT_CUT`) and `SMITH_TOOL_IS_ERROR`; at the turn's end
//! `SMITH_STOP_REASON`. The host records each run as an effect of the call (or the turn). A
//! call naming a path with a control character is refused before it (after it, and at the
//! turn's end, its hooks are skipped, saying so).

use smith_plugin_sdk::export_hooks_plugin;
use smith_plugin_sdk::hooks::{Guest, TurnEndEvent, TurnEndNote};
use smith_plugin_sdk::policy::{Hook, PolicyEvent, Verdict, matching_hooks};
use smith_plugin_sdk::process::{self, EnvBase, ExitStatus, ProcessRequest};

/// The most bytes of a call's arguments or output passed in one variable (the kernel's
/// bound for one is 128 KiB).
const MAX_VARIABLE_BYTES: usize = 64 * 1024;

/// The most bytes kept of each of a hook's output streams.
const OUTPUT_LIMIT: u32 = 16 * 1024;

/// The most bytes of a hook's output shown to the model.
const MAX_SHOWN_BYTES: usize = 4 * 1024;

struct Hooks;

/// What a hook runs for: a call, or the end of the turn.
struct Call<'a> {
    event: &'static str,
    /// The tool's name and the call's arguments (empty at the turn's end).
    tool: &'a str,
    arguments: &'a str,
    /// The call's output and whether it is an error (after the call only).
    output: Option<(&'a str, bool)>,
    /// Why the turn ended (at its end only).
    stop_reason: Option<&'a str>,
}

/// How one hook's program ended.
struct Ran {
    ok: bool,
    /// Why it did not succeed, as a clause (`exited with status 3`).
    status: String,
    /// What it said: its stderr, else its stdout (before a call); both (after it).
    said: String,
}

/// `text` cut to at most `max` bytes at a character boundary, saying so.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [{} bytes cut]", &text[..end], text.len() - end)
}

/// `text` with its middle cut so that at most `max` bytes remain, the first and last halves
/// kept at character boundaries (a formatter's or a checker's verdict is often its last line).
///
/// `written` is how many bytes the program wrote of what `text` holds: when the host kept
/// only part of a stream (its marker then stands inside `text`), the line saying what was cut
/// counts from it, not from `text`.
fn cut_middle(text: &str, max: usize, written: u64) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut head = max / 2;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - max / 2;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    let shown = head + (text.len() - tail);
    let cut = written.max(text.len() as u64).saturating_sub(shown as u64);
    format!(
        "{}\n[… {cut} of its {} bytes cut …]\n{}",
        &text[..head],
        written.max(text.len() as u64),
        &text[tail..]
    )
}

/// `text` if it fits in a variable, else its first [`MAX_VARIABLE_BYTES`] (at a character
/// boundary) and its whole length.
fn bounded(text: &str) -> (&str, Option<usize>) {
    if text.len() <= MAX_VARIABLE_BYTES {
        return (text, None);
    }
    let mut end = MAX_VARIABLE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], Some(text.len()))
}

fn run(hook: &Hook, call: &Call<'_>) -> Ran {
    let mut env = vec![
        ("SMITH_HOOK".to_owned(), hook.name.clone()),
        ("SMITH_HOOK_EVENT".to_owned(), call.event.to_owned()),
        ("SMITH_FILE_PATHS".to_owned(), hook.paths.join("\n")),
    ];
    if let Some(reason) = call.stop_reason {
        env.push(("SMITH_STOP_REASON".to_owned(), reason.to_owned()));
    } else {
        env.push(("SMITH_TOOL".to_owned(), call.tool.to_owned()));
        // Arguments cut short would no longer be JSON: too long, they are left out, saying so.
        match bounded(call.arguments) {
            (whole, None) => env.push(("SMITH_TOOL_INPUT".to_owned(), whole.to_owned())),
            (_, Some(total)) => env.push(("SMITH_TOOL_INPUT_CUT".to_owned(), total.to_string())),
        }
    }
    if let Some((output, is_error)) = call.output {
        let (kept, total) = bounded(output);
        env.push(("SMITH_TOOL_OUTPUT".to_owned(), kept.to_owned()));
        if let Some(total) = total {
            env.push(("SMITH_TOOL_OUTPUT_CUT".to_owned(), total.to_string()));
        }
        env.push(("SMITH_TOOL_IS_ERROR".to_owned(), is_error.to_string()));
    }
    let request = ProcessRequest {
        program: "sh".to_owned(),
        args: vec!["-c".to_owned(), hook.run.clone()],
        cwd: String::new(),
        env_base: EnvBase::Baseline,
        env,
        timeout_ms: hook.timeout_ms,
        output_limit: OUTPUT_LIMIT,
    };
    let out = match process::run(&request) {
        Ok(out) => out,
        Err(e) => {
            let why = match e {
                process::ProcessError::Denied(why)
                | process::ProcessError::NotFound(why)
                | process::ProcessError::Invalid(why)
                | process::ProcessError::Io(why) => why,
                process::ProcessError::Cancelled => "the work was cancelled".to_owned(),
            };
            return Ran {
                ok: false,
                status: "could not run".to_owned(),
                said: why,
            };
        }
    };
    let (stdout, stderr) = (out.stdout.text.trim(), out.stderr.text.trim());
    // Before a call, the reason for refusing it; after a call or the turn, everything said.
    let reason_only = call.output.is_none() && call.stop_reason.is_none();
    let (said, written) = match reason_only {
        true if !stderr.is_empty() => (stderr.to_owned(), out.stderr.total_bytes),
        true => (stdout.to_owned(), out.stdout.total_bytes),
        false => (
            [stdout, stderr]
                .iter()
                .filter(|t| !t.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("\n"),
            out.stdout.total_bytes + out.stderr.total_bytes,
        ),
    };
    let (ok, status) = match out.status {
        _ if out.timed_out => (
            false,
            format!(
                "did not finish within {} s and was ended",
                out.timeout_ms.div_ceil(1000)
            ),
        ),
        _ if out.cancelled => (false, "was ended: the work was cancelled".to_owned()),
        ExitStatus::Code(0) => (true, String::new()),
        ExitStatus::Code(127) => (
            false,
            "exited with status 127: its command was not found".to_owned(),
        ),
        ExitStatus::Code(code) => (false, format!("exited with status {code}")),
        ExitStatus::Signal(signal) => (false, format!("was ended by signal {signal}")),
    };
    Ran {
        ok,
        status,
        said: cut_middle(&said, MAX_SHOWN_BYTES, written),
    }
}

/// A path the call names that holds a control character (a line break would make one path
/// two in `SMITH_FILE_PATHS`), if any.
fn unsafe_path(hooks: &[Hook]) -> Option<&str> {
    hooks
        .first()?
        .paths
        .iter()
        .find(|p| p.chars().any(char::is_control))
        .map(String::as_str)
}

/// How a hook is named in what the model and the person read.
fn named(hook: &Hook) -> String {
    let source = if hook.source.is_empty() {
        String::new()
    } else {
        format!(", {}", hook.source)
    };
    format!("hook `{}` (`{}`{source})", hook.name, cut(&hook.run, 200))
}

impl Guest for Hooks {
    fn decide(event: PolicyEvent) -> Result<Verdict, String> {
        Ok(match event {
            PolicyEvent::BeforeTool(e) => {
                let call = Call {
                    event: "before-tool",
                    tool: &e.tool,
                    arguments: &e.arguments,
                    output: None,
                    stop_reason: None,
                };
                let hooks = matching_hooks();
                if let Some(path) = unsafe_path(&hooks) {
                    return Ok(Verdict::Deny(format!(
                        "the call names the path {path:?}, which holds a line break or another control character: hooks (`SMITH_FILE_PATHS`, one path per line) cannot be given it safely, so it is refused; use a plain file name"
                    )));
                }
                for hook in hooks {
                    let ran = run(&hook, &call);
                    if !ran.ok {
                        let said = if ran.said.is_empty() {
                            "it gave no reason".to_owned()
                        } else {
                            ran.said
                        };
                        return Ok(Verdict::Deny(format!(
                            "{} {}: {said}",
                            named(&hook),
                            ran.status
                        )));
                    }
                }
                Verdict::Pass
            }
            PolicyEvent::AfterTool(e) => {
                let call = Call {
                    event: "after-tool",
                    tool: &e.tool,
                    arguments: &e.arguments,
                    output: Some((&e.output, e.is_error)),
                    stop_reason: None,
                };
                let hooks = matching_hooks();
                if let Some(path) = unsafe_path(&hooks) {
                    return Ok(Verdict::Note(format!(
                        "the hooks for this call were not run: it names the path {path:?}, which holds a line break or another control character"
                    )));
                }
                let notes: Vec<String> = hooks
                    .iter()
                    .filter_map(|hook| {
                        let ran = run(hook, &call);
                        match (ran.ok, ran.said.is_empty()) {
                            (true, true) => None,
                            (true, false) => Some(format!("{}: {}", named(hook), ran.said)),
                            (false, _) => Some(format!(
                                "{} {}{}",
                                named(hook),
                                ran.status,
                                if ran.said.is_empty() {
                                    String::new()
                                } else {
                                    format!(": {}", ran.said)
                                }
                            )),
                        }
                    })
                    .collect();
                if notes.is_empty() {
                    Verdict::Pass
                } else {
                    Verdict::Note(notes.join("\n"))
                }
            }
            PolicyEvent::BeforeEffect(_) | PolicyEvent::Answered(_) => Verdict::Pass,
        })
    }

    fn turn_end(event: TurnEndEvent) -> Result<Vec<TurnEndNote>, String> {
        let call = Call {
            event: "turn-end",
            tool: "",
            arguments: "",
            output: None,
            stop_reason: Some(&event.stop_reason),
        };
        let hooks = matching_hooks();
        if let Some(path) = unsafe_path(&hooks) {
            return Ok(vec![TurnEndNote {
                failed: true,
                text: format!(
                    "the turn-end hooks were not run: the turn's calls name the path {path:?}, which holds a line break or another control character"
                ),
            }]);
        }
        Ok(hooks
            .iter()
            .map(|hook| {
                let ran = run(hook, &call);
                let text = match (ran.ok, ran.said.is_empty()) {
                    (true, true) => format!("{} ran at the turn's end", named(hook)),
                    (true, false) => format!("{}: {}", named(hook), ran.said),
                    (false, true) => format!("{} {}", named(hook), ran.status),
                    (false, false) => format!("{} {}: {}", named(hook), ran.status, ran.said),
                };
                TurnEndNote {
                    failed: !ran.ok,
                    text,
                }
            })
            .collect())
    }
}

export_hooks_plugin!(Hooks);
