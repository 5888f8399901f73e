//! A session as one self-contained HTML page (`smith sessions export ID --html`): the selected
//! branch's conversation — prompts, answers, collapsible thinking, each tool call with its
//! result, the working-tree changes of each tool batch as diffs — with usage and cost, for
//! reading and sharing. The page loads nothing and runs nothing: its styles are inline, its
//! images `data:` URLs, and its Content-Security-Policy forbids everything else.
//!
//! Every text is passed through the caller's redaction before it is escaped, so a page shows
//! secrets as their references, as the session records them.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use smith::{ContentBlock, SessionId, ToolResult};
use smith_store::{Entry, Record, SessionReader, VcsOp, VcsRecord};

use super::format_utc;

/// The page's styles.
const STYLE: &str = include_str!("html.css");

/// Render session `id` at `path` as a page: its selected branch from the start, the usage
/// and cost of the whole session, and (with `vcs_store`, the data home's `vcs/`) the diff of
/// each tool batch that changed the working tree. `redact` is applied to every text first.
///
/// # Errors
/// The store's read errors.
pub fn render_html(
    path: &Path,
    id: SessionId,
    vcs_store: Option<&Path>,
    redact: &dyn Fn(&str) -> String,
) -> Result<String, smith_store::Error> {
    let mut reader = SessionReader::open(path)?;
    let accounts = super::usage_of(&mut reader)?;
    let mut ids = Vec::new();
    let mut at = reader.state().leaf_id();
    while let Some(entry) = at {
        ids.push(entry);
        at = reader.parent_of(entry)?;
    }
    ids.reverse();
    let mut branch = Vec::with_capacity(ids.len());
    for entry in ids {
        branch.push(reader.entry(entry)?);
    }
    let results: HashMap<String, ToolResult> = branch
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some((r.result.call_id.clone(), r.result.clone())),
            _ => None,
        })
        .collect();
    let page = Page {
        out: String::with_capacity(64 * 1024),
        redact,
        results,
        vcs_store,
        turn: 0,
        calls: HashSet::new(),
    };
    Ok(page.render(id, &branch, reader.state().last_id, &accounts))
}

struct Page<'a> {
    out: String,
    redact: &'a dyn Fn(&str) -> String,
    /// The branch's tool results by call id, shown with their calls.
    results: HashMap<String, ToolResult>,
    vcs_store: Option<&'a Path>,
    turn: u32,
    /// The calls shown so far, by id.
    calls: HashSet<String>,
}

impl Page<'_> {
    fn render(
        mut self,
        id: SessionId,
        branch: &[Entry],
        entries: u64,
        accounts: &smith_agent::Accounts,
    ) -> String {
        let title = branch
            .iter()
            .find_map(|e| match &e.record {
                Record::Submission(s) => super::view::title_of(&s.input),
                _ => None,
            })
            .unwrap_or_else(|| "Smith session".to_owned());
        let title = self.text(&title);
        let _ = write!(
            self.out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n<header>\n<h1>{title}</h1>\n"
        );
        self.header(id, branch, entries, accounts);
        self.out.push_str("</header>\n");
        for entry in branch {
            self.entry(entry);
        }
        self.out.push_str("</main>\n</body>\n</html>\n");
        self.out
    }

    fn header(
        &mut self,
        id: SessionId,
        branch: &[Entry],
        entries: u64,
        accounts: &smith_agent::Accounts,
    ) {
        let mut facts = vec![format!("session {id}")];
        if let Some(Record::SessionStart(s)) = branch.first().map(|e| &e.record) {
            if let Some(ms) = id.created_ms() {
                facts.push(format!("started {} UTC", format_utc(ms)));
            }
            if let Some(cwd) = &s.cwd {
                facts.push(format!("in {cwd}"));
            }
            facts.push(format!("Smith {}", s.smith_version));
            if let Some(i) = &s.imported {
                facts.push(format!("imported from {}", super::view::imported_from(i)));
            }
        }
        facts.push(format!(
            "selected branch: {} of {entries} entries",
            branch.len()
        ));
        let facts: Vec<String> = facts.iter().map(|f| self.text(f)).collect();
        let _ = writeln!(self.out, "<p class=\"meta\">{}</p>", facts.join(" · "));
        let total = &accounts.total;
        let cost = accounts
            .cost_usd
            .map_or_else(|| "unknown".to_owned(), |c| format!("${c:.4}"));
        let _ = writeln!(
            self.out,
            "<p class=\"usage\">usage over the whole session: {} · {} input · {} output · {} cache read · {} cache write tokens · cost {cost}</p>",
            responses(total.responses),
            figure(total.usage.input),
            figure(total.usage.output),
            figure(total.usage.cache_read),
            figure(total.usage.cache_write),
        );
    }

    fn entry(&mut self, entry: &Entry) {
        match &entry.record {
            Record::Submission(s) if s.delivery.is_none() && s.owner.is_none() => {
                self.turn += 1;
                let model = self.text(&s.model.to_string());
                let _ = writeln!(
                    self.out,
                    "<h2 id=\"turn-{n}\">Turn {n} <span class=\"model\">{model}</span> <span class=\"when\">{} UTC</span></h2>",
                    format_utc(u64::try_from(entry.timestamp_ms).unwrap_or(0)),
                    n = self.turn
                );
            }
            Record::Message(m) if m.message.role == smith::Role::User => {
                self.out
                    .push_str("<section class=\"user\">\n<div class=\"who\">You</div>\n");
                self.blocks(&m.message.content);
                self.out.push_str("</section>\n");
            }
            Record::Message(m) => {
                let who = m
                    .model
                    .as_ref()
                    .map_or_else(|| "Assistant".to_owned(), ToString::to_string);
                let who = self.text(&who);
                let _ = writeln!(
                    self.out,
                    "<section class=\"assistant\">\n<div class=\"who\">{who}</div>"
                );
                self.blocks(&m.message.content);
                if let Some(e) = &m.error {
                    let e = self.text(e);
                    let _ = writeln!(self.out, "<p class=\"error\">failed: {e}</p>");
                }
                if let Some(u) = &m.usage {
                    let _ = writeln!(
                        self.out,
                        "<p class=\"tokens\">{} input · {} output · {} cache read · {} cache write tokens{}</p>",
                        figure(u.input),
                        figure(u.output),
                        figure(u.cache_read),
                        figure(u.cache_write),
                        m.stop_reason
                            .map_or_else(String::new, |s| format!(" · {}", s.as_str()))
                    );
                }
                self.out.push_str("</section>\n");
            }
            Record::ToolResult(r) if !self.shown_with_call(&r.result.call_id) => {
                self.out.push_str("<section class=\"orphan\">\n");
                self.result(&r.result);
                self.out.push_str("</section>\n");
            }
            Record::Vcs(v) => self.vcs(v),
            Record::EffectCompletion(c) if c.outcome == smith::EffectOutcome::Unknown => {
                let id = self.text(&c.effect_id);
                let _ = writeln!(
                    self.out,
                    "<p class=\"error\">effect {id}: outcome unknown (the process ended before it completed; it was never run again)</p>"
                );
            }
            Record::EffectVerdict(v) => {
                let id = self.text(&v.effect_id);
                let note = if v.note.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", self.text(&v.note))
                };
                let _ = writeln!(
                    self.out,
                    "<p class=\"change\">effect {id} reconciled: {}{note}</p>",
                    v.outcome.as_str()
                );
            }
            Record::Compaction(c) => {
                let summary = self.text(&c.summary);
                let _ = writeln!(
                    self.out,
                    "<details class=\"compaction\"><summary>Earlier context compacted into a summary</summary><pre>{summary}</pre></details>"
                );
            }
            Record::RunEnd(r) => {
                let _ = writeln!(
                    self.out,
                    "<p class=\"end\">turn ended: {} · {} · {} input · {} output tokens{}</p>",
                    r.stop_reason.as_str(),
                    responses(r.usage.responses),
                    figure(r.usage.usage.input),
                    figure(r.usage.usage.output),
                    r.error
                        .as_deref()
                        .map_or_else(String::new, |e| format!(" · {}", self.text(e)))
                );
            }
            _ => {}
        }
    }

    /// Whether the call `call_id` was shown (its result is shown with it).
    fn shown_with_call(&self, call_id: &str) -> bool {
        self.calls.contains(call_id)
    }

    fn blocks(&mut self, blocks: &[ContentBlock]) {
        for block in blocks {
            match block {
                ContentBlock::Text { text } => {
                    let text = self.text(text);
                    let _ = writeln!(self.out, "<div class=\"text\">{text}</div>");
                }
                ContentBlock::Thinking { text, redacted, .. } => {
                    let body = if *redacted {
                        "(withheld by the provider)".to_owned()
                    } else {
                        self.text(text)
                    };
                    let _ = writeln!(
                        self.out,
                        "<details class=\"thinking\"><summary>Thinking</summary><div class=\"text\">{body}</div></details>"
                    );
                }
                ContentBlock::ToolCall(call) => {
                    self.calls.insert(call.id.clone());
                    let name = self.text(&call.name);
                    let arguments =
                        serde_json::to_string_pretty(&call.arguments).unwrap_or_default();
                    let arguments = self.text(&arguments);
                    let _ = writeln!(
                        self.out,
                        "<details class=\"tool\" id=\"call-{}\"><summary>Tool call <b>{name}</b></summary>\n<pre class=\"arguments\">{arguments}</pre>",
                        attr(&call.id)
                    );
                    match self.results.get(&call.id).cloned() {
                        Some(result) => self.result(&result),
                        None => self
                            .out
                            .push_str("<p class=\"pending\">no result on this branch</p>\n"),
                    }
                    self.out.push_str("</details>\n");
                }
                ContentBlock::Image(image) => {
                    let _ = writeln!(
                        self.out,
                        "<img alt=\"attached image\" src=\"data:{};base64,{}\">",
                        attr(&image.media_type),
                        attr(&image.data)
                    );
                }
            }
        }
    }

    fn result(&mut self, result: &ToolResult) {
        let class = if result.is_error {
            "result error"
        } else {
            "result"
        };
        let label = if result.is_error { "failed" } else { "result" };
        let name = self.text(&result.name);
        let body = self.diff_or_text(&result.output);
        let _ = writeln!(
            self.out,
            "<div class=\"{class}\"><div class=\"label\">{name} {label}</div><pre>{body}</pre></div>"
        );
    }

    fn vcs(&mut self, v: &VcsRecord) {
        if v.op != VcsOp::Batch {
            if let Some(words) = v.describe() {
                let words = self.text(&words);
                let _ = writeln!(self.out, "<p class=\"change\">{words}</p>");
            }
            return;
        }
        let diff = self.batch_diff(v);
        let _ = writeln!(
            self.out,
            "<details class=\"changes\"><summary>Changes to the working tree</summary><pre>{diff}</pre></details>"
        );
    }

    /// The unified diff of a batch, rendered, or why it cannot be shown.
    fn batch_diff(&self, v: &VcsRecord) -> String {
        let unavailable = |why: &str| {
            format!(
                "<span class=\"pending\">diff unavailable: {}</span>",
                self.text(why)
            )
        };
        let Some(store) = self.vcs_store else {
            return unavailable("no snapshot store");
        };
        let (Ok(before), Ok(after)) = (
            smith_vcs::SnapshotId::from_hex(&v.before),
            smith_vcs::SnapshotId::from_hex(&v.after),
        ) else {
            return unavailable("the record names no snapshots");
        };
        let root = Path::new(&v.root);
        match smith_vcs::Vcs::open(store, root, smith_vcs::Limits::default())
            .and_then(|vcs| vcs.diff(before, after))
        {
            Ok(diff) => self.diff_or_text(&diff.unified()),
            Err(e) => unavailable(&e.to_string()),
        }
    }

    /// `text` escaped, its lines of a unified diff marked as additions and deletions.
    fn diff_or_text(&self, text: &str) -> String {
        let text = (self.redact)(text);
        let is_diff = text.lines().any(|l| l.starts_with("@@ "));
        if !is_diff {
            return escape(&text);
        }
        let mut out = String::with_capacity(text.len() + text.len() / 4);
        for line in text.split_inclusive('\n') {
            let class = if line.starts_with("+++") || line.starts_with("---") {
                Some("file")
            } else if line.starts_with('+') {
                Some("add")
            } else if line.starts_with('-') {
                Some("del")
            } else if line.starts_with("@@") {
                Some("hunk")
            } else {
                None
            };
            match class {
                Some(c) => {
                    let _ = write!(out, "<span class=\"{c}\">{}</span>", escape(line));
                }
                None => out.push_str(&escape(line)),
            }
        }
        out
    }

    /// `text` redacted and escaped.
    fn text(&self, text: &str) -> String {
        escape(&(self.redact)(text))
    }
}

/// `1 response`, `2 responses`.
fn responses(n: u32) -> String {
    if n == 1 {
        "1 response".to_owned()
    } else {
        format!("{n} responses")
    }
}

/// A token figure, or `?` when unknown.
fn figure(n: Option<u64>) -> String {
    n.map_or_else(|| "?".to_owned(), |n| n.to_string())
}

/// `text` safe in HTML text and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters HTML does not allow are shown as their pictures (U+2400…).
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'));
            }
            '\u{7f}' => out.push('\u{2421}'),
            c => out.push(c),
        }
    }
    out
}

fn attr(text: &str) -> String {
    escape(text)
}
