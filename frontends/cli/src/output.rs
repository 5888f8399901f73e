//! Writing to stdout and stderr: whole outputs, streamed lines that end quietly at a closed
//! pipe, and the notices loading had to tell (stdout carries the command's data;
//! diagnostics go to stderr; control characters are made visible).

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::command_error::CliError;
use crate::exit;

/// Write `text` to stdout whole; a closed pipe ends quietly with status 0.
pub(crate) fn write_stdout(text: &str) -> Result<u8, CliError> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(exit::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(exit::SUCCESS),
        Err(e) => Err(CliError::new(
            exit::RUN_FAILED,
            format!("cannot write to stdout: {e}"),
        )),
    }
}

/// Report each notice on stderr: `warning:` for what will not work, `note:` for what was
/// skipped by design, with the command that changes it.
pub(crate) fn report_notices(notices: &[smith_app::Notice]) {
    for notice in notices {
        match notice {
            smith_app::Notice::UntrustedProject { project, .. } => exit::report(&format!(
                "note: {notice}; trust it with `smith trust {}`",
                shell_quote(&project.display().to_string())
            )),
            smith_app::Notice::RenewalFailed(e) => exit::report(&format!(
                "warning: {}",
                crate::command_error::auth_message(e)
            )),
            smith_app::Notice::UnknownPlugin { .. } => exit::report(&format!("note: {notice}")),
            smith_app::Notice::ContextFiles { .. } => exit::report(&format!(
                "warning: {notice} (`smith config set context.files AGENTS.md,CLAUDE.md`)"
            )),
            smith_app::Notice::UnknownPluginSetting { .. } => exit::report(&format!(
                "warning: {notice} (`smith plugins list` shows each plugin's settings)"
            )),
            smith_app::Notice::Plugin(_) => exit::report(&format!("warning: {notice}")),
            smith_app::Notice::ProjectSandbox { key, .. } => exit::report(&format!(
                "warning: {notice} (`smith config set {key} VALUE`)"
            )),
            smith_app::Notice::CacheUnwritable(_) => exit::report(&format!(
                "warning: {notice}; make the directory writable (removing anything in the way of that entry), or point SMITH_CACHE_HOME at one that is"
            )),
        }
    }
}

/// `text` quoted for a POSIX shell when it needs to be.
pub(crate) fn shell_quote(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Streams output line by line; a closed pipe turns into a quiet stop.
pub(crate) struct Out {
    out: io::StdoutLock<'static>,
    closed: bool,
    /// A write failure met inside a callback ([`Out::flow`]), for the caller to return.
    failed: Option<CliError>,
}

impl Out {
    pub(crate) fn new() -> Self {
        Self {
            out: io::stdout().lock(),
            closed: false,
            failed: None,
        }
    }

    /// Whether the reader went away.
    pub(crate) fn closed(&self) -> bool {
        self.closed
    }

    /// A write's result as the control flow of a reading callback: go on while the reader
    /// reads; stop at a closed pipe or a failure (kept for [`Out::take_failure`]).
    pub(crate) fn flow(&mut self, written: Result<bool, CliError>) -> ControlFlow<()> {
        match written {
            Ok(true) => ControlFlow::Continue(()),
            Ok(false) => ControlFlow::Break(()),
            Err(e) => {
                self.failed = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// The write failure a callback met, if any.
    pub(crate) fn take_failure(&mut self) -> Result<(), CliError> {
        self.failed.take().map_or(Ok(()), Err)
    }

    /// Write `text` and a newline, control characters made visible; `Ok(false)` once the
    /// reader went away.
    pub(crate) fn line(&mut self, text: &str) -> Result<bool, CliError> {
        let text = exit::redact(text);
        let text = smith_render_plain::printable(&text);
        Ok(self.raw(&text)? && self.raw("\n")?)
    }

    /// Write `text` as it is (a document already made safe, such as an HTML page); `Ok(false)`
    /// once the reader went away.
    pub(crate) fn raw(&mut self, text: &str) -> Result<bool, CliError> {
        if self.closed {
            return Ok(false);
        }
        match self.out.write_all(text.as_bytes()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(false)
            }
            Err(e) => Err(CliError::new(
                exit::RUN_FAILED,
                format!("cannot write to stdout: {e}"),
            )),
        }
    }

    /// Write `record` as one JSON line.
    pub(crate) fn json(&mut self, record: &impl serde::Serialize) -> Result<bool, CliError> {
        let text = serde_json::to_string(record).map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!("cannot encode a record as JSON: {e}"),
            )
        })?;
        // Lossless and safe for a terminal: serde_json escapes C0 controls; DEL and the C1
        // controls (which it leaves raw) are escaped too, so a record read back is the record
        // written (an export imported again gives the same bytes).
        let text = exit::redact(&text);
        let text = escape_c1(&text);
        Ok(self.raw(&text)? && self.raw("\n")?)
    }

    pub(crate) fn finish(&mut self) {
        let _ = self.out.flush();
    }
}

/// `json` with DEL and the C1 controls (U+0080–U+009F) written as `\u00XX` escapes; they occur
/// only inside JSON strings, where the escape means the same character.
fn escape_c1(json: &str) -> std::borrow::Cow<'_, str> {
    let needs = |c: char| c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c);
    if !json.chars().any(needs) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}
