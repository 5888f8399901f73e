//! Where eval's prompt comes from: the argument, or standard input when there is no argument
//! and stdin is not a terminal (`-` still asks for it explicitly); `--stdin` appends piped
//! input to an argument prompt as a fenced block. Stdin is never read implicitly beside an
//! argument, so an inherited pipe that never closes cannot hang a run. `@path` mentions of an
//! argument prompt attach files ([`smith_app::prompt`]); a prompt read from stdin is taken
//! literally (piped text is often code, where `@` means something else).

use std::io::{self, IsTerminal, Read};
use std::path::Path;

use smith_app::prompt::{self, Bounds, Prompt};

use crate::command_error::CliError;

/// Largest prompt, in bytes, from the command line or stdin. Well under the session format's
/// 16 MiB frame bound, so an accepted prompt can always be recorded.
pub(super) const MAX_PROMPT_BYTES: usize = 8 * 1024 * 1024;

/// The prompt of one eval: the argument (`None` when absent), whether `--stdin` asked for the
/// piped block, and the working directory mentions resolve in.
pub(super) fn read(arg: Option<&str>, with_stdin: bool, cwd: &Path) -> Result<Prompt, CliError> {
    let bounds = Bounds::default();
    let stdin = io::stdin();
    let literal = Prompt::literal;
    let prompt = match arg {
        Some("-") if with_stdin => {
            return Err(CliError::usage(
                "`-` already reads the prompt from stdin, so --stdin has nothing to append; drop one of them",
            ));
        }
        Some("-") => literal(read_stdin(MAX_PROMPT_BYTES, "the prompt on stdin")?),
        None if with_stdin => {
            return Err(CliError::usage(
                "--stdin appends piped input to a prompt argument, and none was given; pass the prompt, e.g. `git diff | smith eval --stdin \"review this change\"`, or pipe the whole prompt without --stdin",
            ));
        }
        None if stdin.is_terminal() => {
            return Err(CliError::usage(
                "no prompt: pass it as an argument, e.g. `smith eval \"Hello\"`, or pipe it on stdin",
            ));
        }
        None => literal(read_stdin(MAX_PROMPT_BYTES, "the prompt on stdin")?),
        Some(text) => {
            if text.len() > MAX_PROMPT_BYTES {
                return Err(CliError::usage(format!(
                    "the prompt is longer than {MAX_PROMPT_BYTES} bytes; shorten it"
                )));
            }
            let piped = if with_stdin {
                if stdin.is_terminal() {
                    return Err(CliError::usage(
                        "--stdin appends piped input, but stdin is a terminal; pipe the input, e.g. `git diff | smith eval --stdin \"review this change\"`",
                    ));
                }
                Some(read_stdin(
                    bounds.piped_bytes,
                    "the input piped with --stdin",
                )?)
            } else {
                None
            };
            prompt::expand(text, cwd, piped.as_deref(), bounds)
                .map_err(|e| CliError::usage(e.to_string()))?
        }
    };
    if prompt.text.trim().is_empty() {
        return Err(CliError::usage(if arg.is_some_and(|a| a != "-") {
            "the prompt is empty; pass the prompt text, e.g. `smith eval -m scripted/demo \"Hello\"`"
        } else {
            "the prompt read from stdin is empty; pipe the prompt text into smith, e.g. `echo \"Hello\" | smith eval -m scripted/demo`"
        }));
    }
    Ok(prompt)
}

/// All of stdin as UTF-8, refused past `max` bytes (`what` names it in the error).
fn read_stdin(max: usize, what: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::usage(format!("cannot read {what}: {e}")))?;
    if bytes.len() > max {
        return Err(CliError::usage(format!(
            "{what} is longer than {max} bytes; shorten it"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::usage(format!(
            "{what} is not valid UTF-8 (invalid byte at offset {}); pass UTF-8 text",
            e.utf8_error().valid_up_to()
        ))
    })
}
