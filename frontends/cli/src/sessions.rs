//! `smith sessions`: read-only inspection of recorded sessions.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use smith::{ContentBlock, SessionId};
use smith_store::{CommitReader, Entry, Record};

use crate::cli::{SessionsArgs, SessionsCommand};
use crate::exit::{self, CliError};
use crate::paths;

/// Largest page of `get`.
const MAX_LIMIT: usize = 1000;

/// Streams output; a closed pipe turns into a quiet stop.
struct Out {
    out: io::StdoutLock<'static>,
    closed: bool,
}

impl Out {
    fn new() -> Self {
        Self {
            out: io::stdout().lock(),
            closed: false,
        }
    }

    /// Write `text`; `Ok(false)` once the reader went away.
    fn line(&mut self, text: &str) -> Result<bool, CliError> {
        if self.closed {
            return Ok(false);
        }
        let text = smith_render_plain::printable(text);
        match self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
        {
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

    fn json(&mut self, value: &Value) -> Result<bool, CliError> {
        self.line(&value.to_string())
    }

    fn finish(&mut self) {
        let _ = self.out.flush();
    }
}

pub(crate) fn run(args: SessionsArgs) -> Result<u8, CliError> {
    let dir = paths::sessions_dir()?;
    let mut out = Out::new();
    let status = match args.command {
        SessionsCommand::List { json } => list(&dir, json, &mut out),
        SessionsCommand::Grep { pattern, json } => grep(&dir, &pattern, json, &mut out),
        SessionsCommand::Get {
            id,
            json,
            limit,
            cursor,
        } => get(&dir, &id, json, limit, cursor, &mut out),
        SessionsCommand::Verify { id } => verify(&dir, &id, &mut out),
    };
    out.finish();
    status
}

/// Every session file in `dir`, oldest first.
fn sessions(dir: &Path) -> Vec<(SessionId, PathBuf)> {
    let suffix = format!(".{}", smith_store::format::FILE_EXTENSION);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<_> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = name.strip_suffix(&suffix)?.parse::<SessionId>().ok()?;
            Some((id, e.path()))
        })
        .collect();
    found.sort();
    found
}

fn damaged(e: &smith_store::Error) {
    exit::report(&format!("damaged session: {e}"));
}

fn list(dir: &Path, json: bool, out: &mut Out) -> Result<u8, CliError> {
    let mut status = exit::SUCCESS;
    for (id, path) in sessions(dir) {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        // Only the first committed change (the session_start entry) is read.
        let start = CommitReader::open(&path).and_then(|mut r| r.next_commit());
        let (version, cwd) = match start {
            Ok(Some(change)) => match change.first().map(|e| &e.record) {
                Some(Record::SessionStart(s)) => (Some(s.smith_version.clone()), s.cwd.clone()),
                _ => (None, None),
            },
            Ok(None) => (None, None),
            Err(e) => {
                damaged(&e);
                status = exit::DAMAGED;
                continue;
            }
        };
        let created = id.created_ms();
        let more = if json {
            out.json(&json!({
                "type": "session",
                "id": id.to_string(),
                "created_ms": created,
                "bytes": bytes,
                "smith_version": version,
                "cwd": cwd,
            }))?
        } else {
            out.line(&format!(
                "{id}  {}  {bytes:>9} B  {}",
                created.map_or_else(|| "-".to_owned(), |ms| format!("{} UTC", format_utc(ms))),
                cwd.as_deref().unwrap_or("-")
            ))?
        };
        if !more {
            break;
        }
    }
    Ok(status)
}

/// `YYYY-MM-DD HH:MM:SS` UTC for milliseconds since the epoch (civil-from-days, proleptic
/// Gregorian).
fn format_utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The searchable text of an entry, with the kind label of each part.
fn texts(record: &Record) -> Vec<String> {
    match record {
        Record::Message(m) => m
            .message
            .content
            .iter()
            .map(|b| match b {
                ContentBlock::Text { text } | ContentBlock::Thinking { text } => text.clone(),
                ContentBlock::ToolCall(c) => format!("{} {}", c.name, c.arguments),
            })
            .collect(),
        Record::ToolResult(r) => vec![r.result.output.clone()],
        Record::RunEnd(r) => r.error.iter().cloned().collect(),
        Record::SessionStart(_) | Record::ModelChange(_) | Record::Unknown { .. } => Vec::new(),
    }
}

fn kind_label(record: &Record) -> &'static str {
    match record {
        Record::Message(m) => m.message.role.as_str(),
        other => other.kind_name(),
    }
}

fn grep(dir: &Path, pattern: &str, json: bool, out: &mut Out) -> Result<u8, CliError> {
    let re = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            CliError::usage(format!(
                "`{pattern}` is not a valid pattern: {e}; see `smith sessions grep --help` for the syntax"
            ))
        })?;
    let mut status = exit::SUCCESS;
    'sessions: for (id, path) in sessions(dir) {
        let mut reader = match CommitReader::open(&path) {
            Ok(r) => r,
            Err(e) => {
                damaged(&e);
                status = exit::DAMAGED;
                continue;
            }
        };
        loop {
            let change = match reader.next_commit() {
                Ok(Some(change)) => change,
                Ok(None) => break,
                Err(e) => {
                    damaged(&e);
                    status = exit::DAMAGED;
                    break;
                }
            };
            for entry in change {
                for text in texts(&entry.record) {
                    for line in text.lines().filter(|l| re.is_match(l)) {
                        let kind = kind_label(&entry.record);
                        let more = if json {
                            out.json(&json!({
                                "type": "match",
                                "session": id.to_string(),
                                "entry": entry.id.0,
                                "kind": kind,
                                "line": line,
                            }))?
                        } else {
                            out.line(&format!("{id} #{} {kind}: {line}", entry.id))?
                        };
                        if !more {
                            break 'sessions;
                        }
                    }
                }
            }
        }
    }
    Ok(status)
}

fn record_json(record: &Record) -> Value {
    let value = match record {
        Record::SessionStart(r) => serde_json::to_value(r),
        Record::ModelChange(r) => serde_json::to_value(r),
        Record::Message(r) => serde_json::to_value(r),
        Record::ToolResult(r) => serde_json::to_value(r),
        Record::RunEnd(r) => serde_json::to_value(r),
        Record::Unknown { kind, body } => Ok(json!({"record_kind": kind, "bytes": body.len()})),
    };
    value.unwrap_or(Value::Null)
}

fn summary(entry: &Entry) -> String {
    let text = match &entry.record {
        Record::SessionStart(s) => format!(
            "smith {} in {}",
            s.smith_version,
            s.cwd.as_deref().unwrap_or("-")
        ),
        Record::ModelChange(m) => m.model.to_string(),
        Record::Message(m) => {
            let mut parts = vec![m.message.text()];
            for call in m.message.tool_calls() {
                parts.push(format!("[tool call {} {}]", call.name, call.id));
            }
            if let Some(stop) = m.stop_reason {
                parts.push(format!("({stop})"));
            }
            parts.join(" ")
        }
        Record::ToolResult(r) => format!(
            "{} {} {}: {}",
            r.result.name,
            r.result.call_id,
            if r.result.is_error { "failed" } else { "ok" },
            r.result.output
        ),
        Record::RunEnd(r) => format!(
            "{}{}",
            r.stop_reason,
            r.error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        ),
        Record::Unknown { kind, body } => format!("record kind {kind}, {} bytes", body.len()),
    };
    text.lines().collect::<Vec<_>>().join(" ⏎ ")
}

fn get(
    dir: &Path,
    wanted: &str,
    json: bool,
    limit: usize,
    cursor: Option<u64>,
    out: &mut Out,
) -> Result<u8, CliError> {
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(CliError::usage(format!(
            "--limit {limit} is out of range; give 1 to {MAX_LIMIT}"
        )));
    }
    let (path, id) = find(dir, wanted)?;
    let mut reader =
        CommitReader::open(&path).map_err(|e| CliError::new(exit::DAMAGED, e.to_string()))?;
    let after = cursor.unwrap_or(0);
    let mut page = Vec::new();
    let mut more = false;
    let mut last_seen = 0u64;
    'read: loop {
        let change = match reader.next_commit() {
            Ok(Some(change)) => change,
            Ok(None) => break,
            Err(e) => {
                // Print what was read before the damage, then report it.
                for entry in &page {
                    emit(out, &id, entry, json)?;
                }
                return Err(CliError::new(exit::DAMAGED, e.to_string()));
            }
        };
        for entry in change {
            last_seen = entry.id.0;
            if entry.id.0 <= after {
                continue;
            }
            if page.len() == limit {
                more = true;
                break 'read;
            }
            page.push(entry);
        }
    }
    if cursor.is_some_and(|c| c > last_seen) {
        return Err(CliError::usage(format!(
            "--cursor {after} is past the last entry ({last_seen}) of session {id}"
        )));
    }
    for entry in &page {
        if !emit(out, &id, entry, json)? {
            return Ok(exit::SUCCESS);
        }
    }
    let next = more.then(|| page.last().map_or(after, |e| e.id.0));
    if json {
        out.json(&json!({"type": "page", "session": id.to_string(), "returned": page.len(), "next_cursor": next}))?;
    } else if let Some(next) = next {
        out.line(&format!("(more with --cursor {next})"))?;
    }
    Ok(exit::SUCCESS)
}

fn emit(out: &mut Out, id: &SessionId, entry: &Entry, json: bool) -> Result<bool, CliError> {
    if json {
        out.json(&json!({
            "type": "entry",
            "session": id.to_string(),
            "id": entry.id.0,
            "parent": entry.parent.map(|p| p.0),
            "timestamp_ms": entry.timestamp_ms,
            "kind": entry.record.kind_name(),
            "record": record_json(&entry.record),
        }))
    } else {
        out.line(&format!(
            "#{:<5} {:<12} {}",
            entry.id,
            kind_label(&entry.record),
            summary(entry)
        ))
    }
}

/// The session `wanted` names (an id or a unique prefix).
fn find(dir: &Path, wanted: &str) -> Result<(PathBuf, SessionId), CliError> {
    paths::find_session(
        dir,
        wanted,
        "session id",
        "a run creates one: smith eval -m scripted/demo \"Hello\"",
    )
}

fn verify(dir: &Path, wanted: &str, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(dir, wanted)?;
    let outcome = smith_store::read_session(&path)
        .map_err(|e| CliError::new(exit::DAMAGED, e.to_string()))?;
    let tail = match &outcome.torn_tail {
        Some(t) => format!(
            "; {} unacknowledged byte(s) after the last complete change at offset {} ({}) — not published; the next writer cuts them",
            t.len, t.offset, t.reason
        ),
        None => String::new(),
    };
    out.line(&format!(
        "session {id}: intact — {} entries in {} committed changes{tail}",
        outcome.entries.len(),
        outcome.last_sequence
    ))?;
    Ok(exit::SUCCESS)
}
