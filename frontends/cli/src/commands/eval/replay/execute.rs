//! `smith replay --execute`: the recorded tool calls run again (`smith_app::reexec`), and the
//! report — one line per effect, then the totals — on stdout (JSON lines with `--json`), and
//! as JSON lines in the file `--report` names.

use std::io::Write as _;
use std::path::Path;

use smith::SessionId;
use smith_app::App;
use smith_app::playback::{self, Options, ReplayError};
use smith_app::reexec::{self, EffectReport, ExecError, Summary, Verdict};

use super::ReplayArgs;
use crate::command_error::{self, CliError};
use crate::commands::plugins::process_refusal;
use crate::exit;

/// Where the report goes: stdout (plain or JSON lines) and, when asked, a file.
struct Out {
    json: bool,
    /// The first record, held until the report has something to say: a re-execution that
    /// cannot start writes nothing.
    header: Option<serde_json::Value>,
    file: Option<(std::path::PathBuf, std::io::BufWriter<std::fs::File>)>,
    failed: Option<String>,
}

impl Out {
    fn record(&mut self, record: &serde_json::Value, plain: &str) {
        if let Some(header) = self.header.take() {
            self.record(&header, "");
        }
        let mut stdout = std::io::stdout().lock();
        let shown = if self.json {
            writeln!(stdout, "{record}")
        } else {
            stdout.write_all(plain.as_bytes())
        };
        let _ = shown.and_then(|()| stdout.flush());
        if let Some((path, file)) = &mut self.file
            && self.failed.is_none()
            && let Err(e) = writeln!(file, "{record}")
        {
            self.failed = Some(format!(
                "cannot write the report to {}: {e}",
                path.display()
            ));
        }
    }
}

/// `value` (an object) as a record of type `kind`, the type first as in every other record.
fn typed(kind: &str, value: &impl serde::Serialize) -> serde_json::Value {
    let mut record = serde_json::Map::new();
    record.insert("type".to_owned(), kind.into());
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(value) {
        record.extend(fields);
    }
    serde_json::Value::Object(record)
}

/// `text` on one line of the terminal: control characters shown, line breaks as `\n`, so a
/// recorded name cannot forge a line of the report.
fn one_line(text: &str) -> String {
    smith_render_plain::printable(&text.replace('\n', "\\n").replace('\r', "\\r")).into_owned()
}

/// The plain line of one effect (and its diff, indented).
fn plain(r: &EffectReport) -> String {
    let target = r
        .target
        .as_deref()
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    let verdict = match &r.verdict {
        Verdict::Same => "same".to_owned(),
        Verdict::Different { .. } => "DIFFERENT".to_owned(),
        Verdict::NotReexecuted { why } => format!("not re-executed: {}", one_line(why)),
        Verdict::Unknown => format!(
            "unknown (recorded {}): never re-executed, whether it happened is not known",
            r.recorded
        ),
    };
    let mut line = format!(
        "turn {} {} {} {}{}: {verdict}",
        r.turn,
        one_line(&r.tool),
        one_line(&r.call_id),
        one_line(&r.effect),
        one_line(&target)
    );
    line.push('\n');
    if let Verdict::Different { diff } = &r.verdict {
        for l in diff.lines() {
            line.push_str("    ");
            line.push_str(&smith_render_plain::printable(l));
            line.push('\n');
        }
    }
    line
}

/// The totals in words.
fn totals(s: &Summary, calls: u32) -> String {
    format!(
        "re-executed {}/{} effects ({calls} call(s)): same {}, different {}, not re-executed {} (unknown {})\n",
        s.reexecuted, s.effects, s.same, s.different, s.not_reexecuted, s.unknown
    )
}

/// Run `smith replay --execute` for session `id` (its file `path`).
pub(super) fn run(
    app: &App,
    path: &Path,
    id: SessionId,
    options: &Options,
    args: &ReplayArgs,
    allow_process: bool,
) -> Result<u8, CliError> {
    let file = match &args.report {
        Some(p) => Some((
            p.clone(),
            std::io::BufWriter::new(std::fs::File::create(p).map_err(|e| {
                CliError::usage(format!(
                    "--report {}: cannot create the file ({e}); name a file in a writable directory",
                    p.display()
                ))
            })?),
        )),
        None => None,
    };
    let mut out = Out {
        json: args.json,
        header: None,
        file,
        failed: None,
    };
    let cancel = crate::interrupt::cancel();
    let exec = reexec::Options {
        turns: options.turns,
        leaf: options.leaf,
        dir: args.dir.clone(),
        allow_process,
    };
    let header = serde_json::json!({
        "type": "replay",
        "format": playback::FORMAT,
        "session": id.to_string(),
        "execute": true,
        "turns": options.turns.map(|(a, b)| [Some(a), (b != u32::MAX).then_some(b)]),
    });
    out.header = Some(header);
    let mut different = false;
    let executed = app.reexecute(path, &exec, &cancel, &process_refusal, &mut |r| {
        different |= matches!(r.verdict, Verdict::Different { .. });
        out.record(&typed("effect", r), &plain(r));
    });
    // Nothing ran: a report file holds no report.
    let report_path = out.file.as_ref().map(|(p, _)| p.clone());
    let failed_start = |e: CliError| {
        if let Some(p) = &report_path {
            let _ = std::fs::remove_file(p);
        }
        e
    };
    let executed = match executed {
        Ok(e) => e,
        Err(ExecError::Replay(ReplayError::Store(e))) => {
            return Err(failed_start(command_error::store(&e)));
        }
        Err(ExecError::Replay(e @ (ReplayError::Range { .. } | ReplayError::PastLast { .. }))) => {
            return Err(failed_start(CliError::usage(format!("--turns: {e}"))));
        }
        Err(ExecError::Replay(e @ ReplayError::Leaf { .. })) => {
            return Err(failed_start(CliError::usage(format!(
                "--branch: {e}; list them with `smith sessions get {id}`"
            ))));
        }
        Err(e @ ExecError::NoSnapshot) => {
            return Err(failed_start(CliError::usage(format!(
                "{e}; name a directory to run in with --in DIR (a copy of the project as it was)"
            ))));
        }
        Err(e @ ExecError::NotADirectory { .. }) => {
            return Err(failed_start(CliError::usage(format!(
                "--in: {e}; name an existing directory (a copy of the project as it was)"
            ))));
        }
        Err(e @ ExecError::Export { .. }) => {
            return Err(failed_start(CliError::new(
                exit::RUN_FAILED,
                format!("{e}; name a directory to run in with --in DIR instead"),
            )));
        }
        Err(e) => {
            return Err(failed_start(CliError::new(
                exit::RUN_FAILED,
                format!("{e}; run the replay without --execute to see what was recorded"),
            )));
        }
    };
    let mut summary = typed("summary", &executed.summary);
    summary["calls"] = executed.calls.into();
    summary["dir"] = executed.dir.to_string_lossy().into_owned().into();
    summary["snapshot"] = executed.snapshot.clone().into();
    summary["missing_plugins"] = executed.missing.clone().into();
    out.record(&summary, &totals(&executed.summary, executed.calls));
    if let Some((_, file)) = &mut out.file
        && out.failed.is_none()
        && let Err(e) = file.flush()
    {
        out.failed = Some(format!("cannot write the report: {e}"));
    }
    let s = executed.summary;
    if s.not_reexecuted > s.unknown {
        exit::report(&format!(
            "note: {} effect(s) were not re-executed, each with why above; only what was re-executed is compared",
            s.not_reexecuted - s.unknown
        ));
    }
    if !executed.missing.is_empty() {
        exit::report(&format!(
            "note: the session's effects were recorded by {}, which no enabled plugin is now (`smith plugins list` shows what is)",
            executed.missing.join(", ")
        ));
    }
    match &executed.snapshot {
        Some(s) => exit::report(&format!(
            "note: ran in a scratch copy of snapshot {s} (removed); the session was not touched"
        )),
        None => exit::report(&format!(
            "note: ran in {} as it was; the session was not touched",
            executed.dir.display()
        )),
    }
    if let Some(why) = out.failed {
        return Err(CliError::new(exit::RUN_FAILED, why));
    }
    if let Some(call) = executed.stopped {
        exit::report(&format!(
            "re-execution stopped before call {call} (interrupted)"
        ));
        return Ok(exit::INTERRUPTED);
    }
    Ok(if different {
        exit::RUN_FAILED
    } else {
        exit::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_name_cannot_forge_a_line_of_the_report() {
        let report = EffectReport {
            turn: 1,
            call_id: "c1".into(),
            tool: "write".into(),
            effect: "fs.write".into(),
            target: Some("x.txt: same\nturn 1 bash c9 process.run rm -rf ~".into()),
            recorded: "applied".into(),
            verdict: Verdict::Same,
        };
        let line = plain(&report);
        assert_eq!(line.lines().count(), 1, "{line}");
        assert!(line.contains("x.txt: same\\nturn 1 bash"), "{line}");
        let record = typed("effect", &report);
        assert_eq!(record.as_object().unwrap().keys().next().unwrap(), "type");
    }
}
