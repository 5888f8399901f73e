//! The readable one-line view of an entry (`#ID  KIND  SUMMARY`), what `smith sessions get`
//! prints and the text view of `smith mcp`'s session resources show: the same record views as
//! the JSON form, for a person.

use smith_store::{Entry, Record as Stored};

use super::kind_label;

/// `entry` as one readable line: its id, its kind label and a summary of its record, line
/// breaks shown as ` ⏎ `.
pub fn entry_line(entry: &Entry) -> String {
    format!(
        "#{:<5} {:<12} {}",
        entry.id,
        kind_label(&entry.record),
        summary(entry)
    )
}

/// One readable line of `entry`'s record (line breaks shown as ` ⏎ `).
fn summary(entry: &Entry) -> String {
    let text = match &entry.record {
        Stored::SessionStart(s) => session_start(s),
        Stored::ModelChange(m) => m.model.to_string(),
        Stored::Message(m) => message(m),
        Stored::ToolResult(r) => format!(
            "{} {} {}: {}",
            r.result.name,
            r.result.call_id,
            if r.result.is_error { "failed" } else { "ok" },
            r.result.output
        ),
        Stored::RunEnd(r) => format!(
            "{}{}",
            r.stop_reason,
            r.error
                .as_ref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        ),
        Stored::EffectIntent(r) => format!(
            "{} {} {} (call {})",
            r.effect_id,
            r.effect,
            r.target.as_deref().unwrap_or("-"),
            r.call_id
        ),
        Stored::EffectCompletion(r) => format!(
            "{} {}: {}",
            r.effect_id,
            r.outcome.as_str(),
            String::from_utf8_lossy(&r.output)
        ),
        Stored::Submission(r) => submission(r),
        Stored::Abort(r) => r.reason.clone(),
        Stored::Withdrawal(r) => r.reason.clone(),
        Stored::ClientCall(r) => format!(
            "{} request {}: {} {}",
            r.frontend, r.request, r.tool, r.arguments
        ),
        Stored::SecretRegistration(r) => format!(
            "{} from {}{}",
            smith_secrets::reference(&r.name),
            r.source,
            r.label
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default()
        ),
        Stored::Checkpoint(r) => format!(
            "round {} {}; requires {}",
            r.round,
            r.phase,
            if r.requires.is_empty() {
                "no plugins".to_owned()
            } else {
                r.requires.join(", ")
            }
        ),
        Stored::Attempt(a) => attempt(a),
        Stored::AttemptFailed(f) => format!(
            "attempt {} failed: {}; {}",
            f.attempt,
            f.message,
            match f.next {
                smith::Next::Retry => "retried",
                smith::Next::Failover => "failed over",
                smith::Next::Stop => "stopped",
            }
        ),
        Stored::ContextEdit(e) => context_edit(e),
        Stored::RequestInput(r) => request_input(r),
        Stored::Request(r) => format!(
            "request of attempt {}: context to {}{}, sha256 {}",
            entry.pair.map_or_else(String::new, |p| p.to_string()),
            r.anchor
                .map_or_else(|| "none".to_owned(), |a| a.to_string()),
            r.compaction.map_or_else(String::new, |c| format!(
                " (its first {} items, then the compaction ask {})",
                c.items, c.ask
            )),
            short(&r.sha256)
        ),
        Stored::Compaction(c) => format!(
            "summary of the context before {}: {}",
            c.first_kept
                .map_or_else(|| "this entry".to_owned(), |k| format!("entry {k}")),
            c.summary
        ),
        Stored::EffectVerdict(v) => format!(
            "verdict on effect {}: {}{}",
            v.effect_id,
            v.outcome.as_str(),
            if v.note.is_empty() {
                String::new()
            } else {
                format!(" — {}", v.note)
            }
        ),
        Stored::State(s) => format!(
            "{} {} ({} v{}): {}",
            s.owner,
            s.name,
            s.scope.name(),
            s.version,
            s.value
                .as_ref()
                .map_or_else(|| "removed".to_owned(), ToString::to_string)
        ),
        Stored::Vcs(v) => vcs(v),
        Stored::Unknown {
            kind,
            body,
            projection,
        } => format!(
            "record kind {kind}, {} bytes{}",
            body.len(),
            if *projection {
                " (changes what the model sees)"
            } else {
                ""
            }
        ),
    };
    text.lines().collect::<Vec<_>>().join(" ⏎ ")
}

/// A `session_start`: where and by what it began, and an import's provenance.
fn session_start(s: &smith_store::SessionStart) -> String {
    let mut text = format!(
        "smith {} in {}",
        s.smith_version,
        s.cwd.as_deref().unwrap_or("-")
    );
    if let Some(i) = &s.imported {
        text.push_str(&format!(
            ", imported from {} ({}, sha256 {})",
            super::view::imported_from(i),
            i.source,
            short(&i.sha256)
        ));
        if !i.dropped.is_empty() {
            text.push_str(&format!("; not carried over: {}", i.dropped.join(", ")));
        }
    }
    text
}

/// A message: its text, images, tool calls and stop reason.
fn message(m: &smith_store::MessageRecord) -> String {
    let mut parts = vec![m.message.text()];
    for image in m.message.images() {
        parts.push(format!(
            "[image {} {} B]",
            image.media_type,
            image.decoded_len()
        ));
    }
    for call in m.message.tool_calls() {
        parts.push(format!("[tool call {} {}]", call.name, call.id));
    }
    if let Some(stop) = m.stop_reason {
        parts.push(format!("({stop})"));
    }
    parts.join(" ")
}

/// A submission: its model, key, queueing and owner, and its input.
fn submission(r: &smith_store::Submission) -> String {
    format!(
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
    )
}

/// A provider attempt: its round and number, selection and model, and why it was made.
fn attempt(a: &smith::Attempt) -> String {
    format!(
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
    )
}

/// A change of the working tree between two snapshots.
fn vcs(v: &smith_store::VcsRecord) -> String {
    let what = match v.op {
        smith_store::VcsOp::Batch => format!(
            "tool batch of round {} ({} calls)",
            v.round.unwrap_or(0),
            v.calls.len()
        ),
        smith_store::VcsOp::Undo | smith_store::VcsOp::Redo => format!(
            "{} of {}",
            if v.op == smith_store::VcsOp::Undo {
                "undo"
            } else {
                "redo"
            },
            v.steps
                .iter()
                .map(|s| format!("entry {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        smith_store::VcsOp::Restore => {
            format!("restore to {}", v.target.as_deref().unwrap_or("?"))
        }
    };
    format!(
        "working tree {} -> {}: {what}",
        short(&v.before),
        short(&v.after)
    )
}

/// The first 12 characters of an id or hash, for display (whatever the text holds).
fn short(id: &str) -> String {
    id.chars().take(12).collect()
}

/// A request input: an instruction or context piece, or the tool definitions.
fn request_input(r: &smith_store::RequestInput) -> String {
    match r {
        smith_store::RequestInput::Piece {
            handler,
            role,
            source,
            text,
        } => format!(
            "{} from {handler}{}: {} bytes",
            match role {
                smith::PieceRole::Instructions => "instructions",
                smith::PieceRole::Context => "context",
                smith::PieceRole::Compaction => "compaction ask",
            },
            source
                .as_ref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            text.len()
        ),
        smith_store::RequestInput::Tools(tools) => format!(
            "tools: {}",
            tools
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A context edit: each change it makes.
fn context_edit(e: &smith_store::ContextEdit) -> String {
    e.edits
        .iter()
        .map(|op| match &op.change {
            smith_store::EditChange::Omit => format!("omit {}", op.target),
            smith_store::EditChange::Replace(text) => {
                format!("replace {}: {text}", op.target)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
