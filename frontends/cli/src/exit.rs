//! Exit statuses (the table `smith --help` prints and `docs/exit-status.md` documents) and
//! the one way diagnostics reach stderr.

/// The run or command succeeded.
pub(crate) const SUCCESS: u8 = 0;
/// The run failed: provider, tool, stream or storage error.
pub(crate) const RUN_FAILED: u8 = 1;
/// Usage or configuration error; nothing was run.
pub(crate) const USAGE: u8 = 2;
/// Damaged or unreadable session data.
pub(crate) const DAMAGED: u8 = 3;
/// Mutation refused: the session is owned by another writer.
pub(crate) const REFUSED: u8 = 4;
/// Interrupted (Ctrl-C / SIGINT).
pub(crate) const INTERRUPTED: u8 = 130;

/// The exit-status table shown in `--help`.
pub(crate) const HELP: &str = "\
Exit status:
  0    success (also when stdout is closed early: the run stops quietly)
  1    the run failed (provider, stream or storage error) or stopped at its cost
       budget (run.max-cost)
  2    usage or configuration error; nothing was run
  3    damaged session data, or a session format version this Smith does not read
  4    mutation refused (the session is open for writing elsewhere)
  130  interrupted (Ctrl-C or SIGTERM); the session records what happened";

/// Write `smith: MESSAGE` to stderr, best effort (a closed or full stderr must not panic),
/// with control characters made visible so no escape sequence reaches the terminal.
pub(crate) fn report(message: &str) {
    use std::io::Write;
    let message = redact(message);
    let line = format!("smith: {}\n", smith_render_plain::printable(&message));
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(line.as_bytes());
    let _ = err.flush();
}

/// The secrets this process redacts from everything it writes itself (diagnostics, error
/// records), set once its secrets are known.
static REDACTOR: std::sync::OnceLock<smith_secrets::Shared> = std::sync::OnceLock::new();

/// Redact `redactor`'s secrets from every diagnostic and error record written from now on.
pub(crate) fn redact_with(redactor: smith_secrets::Shared) {
    let _ = REDACTOR.set(redactor);
}

/// `text` with the process's registered secrets replaced by their references.
pub(crate) fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    match REDACTOR.get() {
        Some(r) => std::borrow::Cow::Owned(r.current().redact(text).into_owned()),
        None => std::borrow::Cow::Borrowed(text),
    }
}
