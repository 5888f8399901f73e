//! `smith sessions`: read-only inspection of recorded sessions.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use smith::EntryId;
use smith::{ContentBlock, SessionId};
use smith_store::{CommitReader, Entry, Record, SessionReader, Skipped};

use crate::cli::{SessionsArgs, SessionsCommand};
use crate::exit::{self, CliError};
use crate::paths;

mod receipts;
mod watch;

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
            branch,
        } => get(
            &dir,
            &id,
            json,
            Page {
                limit,
                cursor,
                branch,
            },
            &mut out,
        ),
        SessionsCommand::Verify { id } => verify(&dir, &id, &mut out),
        SessionsCommand::Receipts { id, json } => receipts::receipts(&dir, &id, json, &mut out),
        SessionsCommand::Watch {
            id,
            from,
            json,
            until_idle,
        } => watch::watch(&dir, &id, from, json, until_idle, &mut out),
        SessionsCommand::Fork { id, at, json } => fork(&dir, &id, at, json, &mut out),
        SessionsCommand::Select { id, entry } => select(&dir, &id, entry, &mut out),
    };
    out.finish();
    status
}

/// Every session file in `dir`, oldest first. A missing directory has none; one that cannot
/// be read is an error.
fn sessions(dir: &Path) -> Result<Vec<(SessionId, PathBuf)>, CliError> {
    let suffix = format!(".{}", smith_store::format::FILE_EXTENSION);
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CliError::new(
                exit::RUN_FAILED,
                format!(
                    "cannot read the sessions directory {}: {e}; SMITH_HOME (or XDG_DATA_HOME) must lead to a readable directory",
                    dir.display()
                ),
            ));
        }
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
    Ok(found)
}

/// Report a session that could not be read, and the status it earns: 3 for damage or an
/// unknown version, 1 for an I/O failure (permissions, a directory in its place…).
fn unreadable(e: &smith_store::Error) -> u8 {
    let status = exit::store_status(e);
    if status == exit::DAMAGED {
        exit::report(&format!("damaged session: {e}"));
    } else {
        exit::report(&format!("cannot read session: {e}"));
    }
    status
}

/// The worse of two statuses (damage outranks an I/O failure, which outranks success).
fn worst(a: u8, b: u8) -> u8 {
    let rank = |s: u8| match s {
        exit::DAMAGED => 2,
        exit::SUCCESS => 0,
        _ => 1,
    };
    if rank(b) > rank(a) { b } else { a }
}

fn list(dir: &Path, json: bool, out: &mut Out) -> Result<u8, CliError> {
    let mut status = exit::SUCCESS;
    for (id, path) in sessions(dir)? {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        // Only the first committed change (the session_start entry) is read.
        let start = CommitReader::open(&path).and_then(|mut r| r.next_change());
        let (version, cwd) = match start {
            Ok(Some(change)) => match change.entries.first().map(|e| &e.record) {
                Some(Record::SessionStart(s)) => (Some(s.smith_version.clone()), s.cwd.clone()),
                _ => (None, None),
            },
            Ok(None) => (None, None),
            Err(e) => {
                status = worst(status, unreadable(&e));
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
                ContentBlock::Text { text } | ContentBlock::Thinking { text, .. } => text.clone(),
                ContentBlock::ToolCall(c) => format!("{} {}", c.name, c.arguments),
            })
            .collect(),
        Record::ToolResult(r) => vec![r.result.output.clone()],
        Record::RunEnd(r) => r.error.iter().cloned().collect(),
        Record::EffectIntent(r) => vec![format!(
            "{} {}",
            r.effect,
            r.target.as_deref().unwrap_or("")
        )],
        Record::EffectCompletion(r) => vec![String::from_utf8_lossy(&r.output).into_owned()],
        // Its input is the user message's text, matched there (queued input has no message
        // until it is delivered, so its own text counts); the key is its own.
        Record::Submission(r) => r
            .dedup_key
            .iter()
            .cloned()
            .chain(r.delivery.map(|_| r.input.clone()))
            .collect(),
        Record::Abort(r) => vec![r.reason.clone()],
        Record::Withdrawal(r) => vec![r.reason.clone()],
        Record::Checkpoint(r) => r.requires.clone(),
        Record::Attempt(a) => vec![format!("{} {}", a.selection, a.model)],
        Record::AttemptFailed(f) => vec![f.message.clone()],
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
            let shown: String = pattern.chars().take(80).collect();
            let more = if shown.len() < pattern.len() { "…" } else { "" };
            CliError::usage(format!(
                "`{shown}{more}` is not a valid pattern: {e}; see `smith sessions grep --help` for the syntax"
            ))
        })?;
    let mut status = exit::SUCCESS;
    'sessions: for (id, path) in sessions(dir)? {
        let mut reader = match CommitReader::open(&path) {
            Ok(r) => r,
            Err(e) => {
                status = worst(status, unreadable(&e));
                continue;
            }
        };
        loop {
            let change = match reader.next_change() {
                Ok(Some(change)) => change,
                Ok(None) => {
                    if report_skipped(&id, reader.skipped(), true) {
                        status = exit::DAMAGED;
                    }
                    break;
                }
                Err(e) => {
                    status = worst(status, unreadable(&e));
                    break;
                }
            };
            for entry in change.entries {
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
        Record::EffectIntent(r) => serde_json::to_value(r),
        Record::EffectCompletion(r) => Ok(json!({
            "effect_id": r.effect_id,
            "outcome": r.outcome,
            "output": String::from_utf8_lossy(&r.output),
            "evidence": r.evidence,
        })),
        Record::Submission(r) => serde_json::to_value(r),
        Record::Abort(r) => serde_json::to_value(r),
        Record::Withdrawal(r) => serde_json::to_value(r),
        Record::Checkpoint(r) => serde_json::to_value(r),
        Record::Attempt(r) => serde_json::to_value(r),
        Record::AttemptFailed(r) => serde_json::to_value(r),
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
        Record::EffectIntent(r) => format!(
            "{} {} {} (call {})",
            r.effect_id,
            r.effect,
            r.target.as_deref().unwrap_or("-"),
            r.call_id
        ),
        Record::EffectCompletion(r) => format!(
            "{} {}: {}",
            r.effect_id,
            r.outcome.as_str(),
            String::from_utf8_lossy(&r.output)
        ),
        Record::Submission(r) => format!(
            "{}{}{}{}: {}",
            r.model,
            r.dedup_key
                .as_ref()
                .map(|k| format!(" key {k}"))
                .unwrap_or_default(),
            r.delivery
                .map(|d| format!(" queued ({})", d.as_str()))
                .unwrap_or_default(),
            r.owner
                .map(|o| format!(" owned by {o}"))
                .unwrap_or_default(),
            r.input
        ),
        Record::Abort(r) => r.reason.clone(),
        Record::Withdrawal(r) => r.reason.clone(),
        Record::Checkpoint(r) => format!(
            "round {} {}; requires {}",
            r.round,
            r.phase,
            if r.requires.is_empty() {
                "no plugins".to_owned()
            } else {
                r.requires.join(", ")
            }
        ),
        Record::Attempt(a) => format!(
            "round {} attempt {}: {} → {}{}{}{}",
            a.round,
            a.number,
            a.selection,
            a.model,
            a.account
                .as_ref()
                .map(|x| format!(" (account {x})"))
                .unwrap_or_default(),
            a.thinking
                .map(|t| format!(" thinking {t}"))
                .unwrap_or_default(),
            match a.after {
                Some(smith::Next::Retry) => " (retry)",
                Some(smith::Next::Failover) => " (failover)",
                _ => "",
            }
        ),
        Record::AttemptFailed(f) => format!(
            "attempt {} failed: {}; {}",
            f.attempt,
            f.message,
            match f.next {
                smith::Next::Retry => "retried",
                smith::Next::Failover => "failed over",
                smith::Next::Stop => "stopped",
            }
        ),
        Record::Unknown { kind, body } => format!("record kind {kind}, {} bytes", body.len()),
    };
    text.lines().collect::<Vec<_>>().join(" ⏎ ")
}

/// Paging of `get`.
struct Page {
    limit: usize,
    cursor: Option<u64>,
    branch: bool,
}

/// Name the damaged changes a read skipped on stderr (suggesting `verify` when asked); whether
/// there were any.
fn report_skipped(id: &SessionId, skipped: &[Skipped], suggest_verify: bool) -> bool {
    for s in skipped {
        let ids = s
            .entries
            .map(|(a, b)| format!(" (entries {a}..={b} withheld)"))
            .unwrap_or_default();
        let hint = if suggest_verify {
            format!("; run `smith sessions verify {id}`")
        } else {
            String::new()
        };
        exit::report(&format!(
            "damaged session {id}: skipped {} bytes at byte {}{ids}: {} at byte {}{hint}",
            s.len, s.offset, s.reason, s.damage_at
        ));
    }
    !skipped.is_empty()
}

fn get(dir: &Path, wanted: &str, json: bool, page: Page, out: &mut Out) -> Result<u8, CliError> {
    let Page {
        limit,
        cursor,
        branch,
    } = page;
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(CliError::usage(format!(
            "--limit {limit} is out of range; give 1 to {MAX_LIMIT}"
        )));
    }
    let (path, id) = find(dir, wanted)?;
    let store = |e: smith_store::Error| CliError::new(exit::store_status(&e), e.to_string());
    // The full scan: inspection recognizes the same commit boundaries and damage as verify.
    let mut reader = SessionReader::open_verified(&path).map_err(store)?;
    let state = reader.state();
    if cursor.is_some_and(|c| c == 0 || c > state.last_id) {
        return Err(CliError::usage(format!(
            "--cursor {} is not an entry of session {id} (its entries are 1..={})",
            cursor.unwrap_or(0),
            state.last_id
        )));
    }
    let mut status = exit::SUCCESS;
    // One entry more than the page shows tells whether there is a next page.
    let entries = if branch {
        let start = match cursor {
            Some(c) => {
                // The cursor must be on the selected branch: walk down to it (ids only
                // decrease toward the root), reading metadata only.
                let mut at = state.leaf_id();
                while let Some(e) = at.filter(|e| e.0 > c) {
                    at = reader.parent_of(e).map_err(store)?;
                }
                if at != Some(EntryId(c)) {
                    return Err(CliError::usage(format!(
                        "--cursor {c} is not on the selected branch of session {id}; use a cursor a --branch page printed"
                    )));
                }
                reader.parent_of(EntryId(c)).map_err(store)?
            }
            None => state.leaf_id(),
        };
        let mut found = Vec::new();
        let mut at = start;
        while let Some(e) = at.filter(|_| found.len() <= limit) {
            if reader.withheld(e.0) {
                exit::report(&format!(
                    "damaged session {id}: the selected branch continues into entry {}, which lies in a damaged change; `smith sessions verify {id}` has the details",
                    e.0
                ));
                status = exit::DAMAGED;
                break;
            }
            let entry = reader.entry(e).map_err(store)?;
            at = entry.parent;
            found.push(entry);
        }
        found
    } else {
        reader
            .range(EntryId(cursor.unwrap_or(0) + 1), limit + 1)
            .map_err(store)?
    };
    let more = entries.len() > limit;
    let shown = &entries[..entries.len().min(limit)];
    for entry in shown {
        if !emit(out, &id, entry, json)? {
            return Ok(exit::SUCCESS);
        }
    }
    let next = more.then(|| shown.last().map_or(0, |e| e.id.0));
    // Usage and cost over the whole session (not only this page), per attempt and in total.
    let mut all = Vec::new();
    let mut from = 1;
    loop {
        let batch = reader.range(EntryId(from), 512).map_err(store)?;
        let Some(last) = batch.last().map(|e| e.id.0) else {
            break;
        };
        // Only what accounting reads is kept: attempts, failures, and responses without
        // their content.
        all.extend(batch.into_iter().filter_map(|mut e| match &mut e.record {
            Record::Attempt(_) | Record::AttemptFailed(_) => Some(e),
            Record::Message(m) if m.model.is_some() => {
                m.message.content = Vec::new();
                Some(e)
            }
            _ => None,
        }));
        from = last + 1;
    }
    let accounts = smith_agent::account(&all);
    drop(all);
    if json {
        out.json(&json!({
            "type": "usage",
            "session": id.to_string(),
            "attempts": accounts.attempts,
            "total": accounts.total,
            "cost_usd": accounts.cost_usd,
        }))?;
    } else {
        let t = &accounts.total;
        let n = |x: Option<u64>| x.map_or("unknown".to_owned(), |x| x.to_string());
        out.line(&format!(
            "usage: {} responses over {} attempts · input {} · output {} · cache read {} · cache write {} · cost {}",
            t.responses,
            accounts.attempts.len(),
            n(t.usage.input),
            n(t.usage.output),
            n(t.usage.cache_read),
            n(t.usage.cache_write),
            accounts
                .cost_usd
                .map_or("unknown".to_owned(), |c| format!("${c:.6}"))
        ))?;
    }
    if json {
        out.json(&json!({
            "type": "page",
            "session": id.to_string(),
            "returned": shown.len(),
            "next_cursor": next,
            "leaf": state.leaf_id().map(|l| l.0),
            "last_id": state.last_id,
            "acknowledged_through_commit": state.durable_through,
            "last_commit": state.sequence,
        }))?;
    } else if let Some(next) = next {
        let flag = if branch { " --branch" } else { "" };
        out.line(&format!("(more with{flag} --cursor {next})"))?;
    }
    if let Some(t) = reader.torn_tail() {
        let what = if reader.live_writer() {
            "is still being written (pending, not shown)"
        } else {
            "were never acknowledged (a torn tail, not shown)"
        };
        exit::report(&format!(
            "note: session {id}: {} bytes at byte {} after the last complete change {what}",
            t.len, t.offset
        ));
    }
    if report_skipped(&id, reader.skipped(), true) {
        status = exit::DAMAGED;
    }
    Ok(status)
}

fn fork(
    dir: &Path,
    wanted: &str,
    at: Option<u64>,
    json: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let (path, id) = find(dir, wanted)?;
    if at == Some(0) {
        return Err(CliError::usage(
            "--at 0 names no entry; entries are numbered from 1 (the session's start)",
        ));
    }
    let forked =
        smith_store::fork(&path, dir, SessionId::new_now(), at.map(EntryId)).map_err(|e| {
            let status = match e {
                smith_store::Error::Encode { .. } => exit::USAGE,
                ref other => exit::store_status(other),
            };
            let hint = if status == exit::DAMAGED {
                "; pass --at with an entry before the damage (`smith sessions verify` names it)"
            } else {
                ""
            };
            CliError::new(status, format!("cannot fork session {id}: {e}{hint}"))
        })?;
    if json {
        out.json(&json!({
            "type": "fork",
            "source": id.to_string(),
            "session": forked.id.to_string(),
            "leaf": forked.leaf.map(|l| l.0),
            "entries": forked.entries,
        }))?;
    } else {
        out.line(&forked.id.to_string())?;
    }
    Ok(exit::SUCCESS)
}

fn select(dir: &Path, wanted: &str, entry: u64, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(dir, wanted)?;
    let fail = |e: smith_store::Error| {
        let status = match e {
            smith_store::Error::Encode { .. } => exit::USAGE,
            ref other => exit::store_status(other),
        };
        CliError::new(
            status,
            format!("cannot select entry {entry} in session {id}: {e}"),
        )
    };
    let (mut writer, recovery) = smith_store::SessionWriter::open(&path, id).map_err(fail)?;
    if let Some(t) = &recovery.truncated {
        exit::report(&format!(
            "note: recovered session {id}: cut {} unacknowledged byte(s) at byte {} ({})",
            t.len, t.offset, t.reason
        ));
    }
    writer.select(EntryId(entry)).map_err(fail)?;
    writer.close().map_err(fail)?;
    out.line(&format!("session {id}: selected entry {entry}"))?;
    Ok(exit::SUCCESS)
}

fn emit(out: &mut Out, id: &SessionId, entry: &Entry, json: bool) -> Result<bool, CliError> {
    if json {
        out.json(&json!({
            "type": "entry",
            "session": id.to_string(),
            "id": entry.id.0,
            "parent": entry.parent.map(|p| p.0),
            "pair": entry.pair.map(|p| p.0),
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
    let live = smith_store::writer_active(&path).unwrap_or(false);
    let fail = |e: smith_store::Error| CliError::new(exit::store_status(&e), e.to_string());
    let mut reader = CommitReader::open(&path).map_err(fail)?;
    let mut entries = 0u64;
    // Sequences of the changes that carry entries: acknowledgement matters for those.
    let mut with_entries = Vec::new();
    while let Some(change) = reader.next_change().map_err(fail)? {
        entries += change.entries.len() as u64;
        if !change.entries.is_empty() {
            with_entries.push(change.commit.sequence);
        }
    }
    let state = reader.state();
    let mut status = exit::SUCCESS;
    let tail = match reader.torn_tail() {
        Some(t) if live => format!(
            "; {} bytes after the last complete change at byte {} are a writer's change in progress",
            t.len, t.offset
        ),
        Some(t) => format!(
            "; {} unacknowledged bytes after the last complete change at byte {} ({}) — not published; the next writer cuts them",
            t.len, t.offset, t.reason
        ),
        None => String::new(),
    };
    let unacked = with_entries
        .iter()
        .filter(|&&seq| !state.acknowledged(seq))
        .count();
    let ack = if unacked > 0 {
        format!(
            "; the last {unacked} change(s) with entries are complete but not recorded as acknowledged (the next writer syncs and records them)"
        )
    } else {
        String::new()
    };
    if report_skipped(&id, reader.skipped(), false) {
        status = exit::DAMAGED;
    }
    for problem in reader.index_problems() {
        exit::report(&format!("damaged index in session {id}: {problem}"));
        status = exit::DAMAGED;
    }
    let verdict = if status == exit::SUCCESS {
        "intact"
    } else {
        "damaged"
    };
    out.line(&format!(
        "session {id}: {verdict} — {entries} entries in {} committed changes, leaf {}{ack}{tail}",
        state.sequence, state.leaf
    ))?;
    Ok(status)
}
