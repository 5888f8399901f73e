//! Smith's bundled `bash` tool: runs one command line with `bash -c` through the SDK's
//! process facility — a supervised effect with a working directory, a timeout, bounded
//! output, cancellation, and the whole process group terminated when it ends.

use serde::Deserialize;
use smith_plugin_sdk::process::{self, EnvBase, ExitStatus, ProcessRequest};
use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, arguments, describe_process, export_tool_plugin,
    tool,
};

struct Shell;

/// The timeout when the model gives none, in seconds.
const DEFAULT_TIMEOUT_S: u64 = 120;
/// Bytes kept of each of stdout and stderr (first and last halves); the host's output bound
/// (50 KiB) applies to the whole result on top.
const OUTPUT_LIMIT: u32 = 32 * 1024;

#[derive(Deserialize)]
struct BashArgs {
    command: String,
    workdir: Option<String>,
    timeout_seconds: Option<u64>,
}

impl Guest for Shell {
    fn definitions() -> Vec<ToolDefinition> {
        vec![tool(
            "bash",
            "Run a command line with bash (`bash -c`) in the working directory (or `workdir` inside it), for building, testing and running the project's own commands. Not for reading, searching or editing files: use read, find, grep, write and edit. Stdin is empty; the environment is a baseline without credentials. Stops after `timeout_seconds` (default 120, at most 600); on timeout or cancellation the command and every process it started are terminated, and so are background processes left running when it exits. Returns stdout, then stderr, then the exit status; each stream keeps its first and last 16 KiB.",
            r#"{"type":"object","properties":{"command":{"type":"string","minLength":1,"description":"The command line, run by bash -c"},"workdir":{"type":"string","description":"Directory to run in, relative to the working directory"},"timeout_seconds":{"type":"integer","minimum":1,"maximum":600}},"required":["command"],"additionalProperties":false}"#,
        )]
    }

    fn call(name: String, args: String, _invocation: Invocation) -> ToolOutput {
        match name.as_str() {
            "bash" => bash(&args).unwrap_or_else(|e| e),
            other => ToolOutput::error(format!("the shell plugin has no tool `{other}`")),
        }
    }
}

fn bash(args: &str) -> Result<ToolOutput, ToolOutput> {
    let a: BashArgs = arguments(args)?;
    let timeout_s = a.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_S);
    let request = ProcessRequest {
        program: "bash".to_owned(),
        args: vec!["-c".to_owned(), a.command],
        cwd: a.workdir.unwrap_or_default(),
        env_base: EnvBase::Baseline,
        env: Vec::new(),
        timeout_ms: timeout_s.saturating_mul(1000),
        output_limit: OUTPUT_LIMIT,
    };
    let out = process::run(&request)
        .map_err(|e| ToolOutput::error(format!("bash: {}", describe_process(&e))))?;
    let mut text = clean(&out.stdout.text);
    if !out.stderr.text.is_empty() {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("[stderr]\n");
        text.push_str(&clean(&out.stderr.text));
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let status = match out.status {
        ExitStatus::Code(c) => format!("exit status {c}"),
        ExitStatus::Signal(s) => format!("ended by signal {s}"),
    };
    let seconds = out.duration_ms as f64 / 1000.0;
    let mut is_error = !matches!(out.status, ExitStatus::Code(0));
    let ending = if out.timed_out {
        is_error = true;
        let applied = out.timeout_ms as f64 / 1000.0;
        let capped = if out.timeout_ms < timeout_s.saturating_mul(1000) {
            format!(
                "; {timeout_s} s were asked for, but the user's process.max-timeout setting caps it"
            )
        } else {
            String::new()
        };
        format!(
            "[timed out after {applied} s{capped}: the command and its processes were terminated ({status})]"
        )
    } else if out.cancelled {
        is_error = true;
        format!(
            "[cancelled after {seconds:.1} s: the command and its processes were terminated ({status})]"
        )
    } else {
        format!("[{status} after {seconds:.1} s]")
    };
    text.push_str(&ending);
    if out.descendants_terminated {
        text.push_str(
            "\n[background processes still running when the command exited were terminated]",
        );
    }
    if out.output_abandoned {
        text.push_str("\n[a process outside the command's group kept its output open; later output was not captured]");
    }
    Ok(ToolOutput { text, is_error })
}

/// Terminal output made plain text for the model: ANSI escape sequences (colours, cursor
/// movement, titles) are removed, a carriage return ends a line, and other control characters
/// but tab are dropped.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then one final byte in @..~.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC: up to BEL or ESC \.
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

export_tool_plugin!(Shell);
