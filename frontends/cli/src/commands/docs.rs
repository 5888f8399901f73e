//! `smith docs`: list, search and get documents of the embedded corpus.

use std::io::{self, IsTerminal};

use clap::{Args, Subcommand};
use serde_json::json;
use smith_docs::{Corpus, DocsError, Document, LineRange, SearchIndex};

use crate::command_error::CliError;
use crate::exit;
use crate::output::write_stdout;

pub(crate) const DOCS_AFTER_HELP: &str = "\
The documentation is built into this binary and needs no network, checkout or session.
Readable output is rendered markdown on a terminal and the markdown source when piped (or with
NO_COLOR); --json gives LF-delimited JSON records with the same content.

Exit status:
  0    success (also when stdout is closed early)
  2    unknown document id, bad line range, bad cursor or limit";

/// Arguments of `smith docs`.
#[derive(Debug, Args)]
pub(crate) struct DocsArgs {
    #[command(subcommand)]
    pub(crate) command: DocsCommand,
}

/// `smith docs` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum DocsCommand {
    /// List every document: id, kind and title, ordered by id.
    List {
        /// Emit one JSON record per document.
        #[arg(long)]
        json: bool,
    },
    /// Search the documentation; results are ranked by relevance, ties ordered by id.
    #[command(after_help = SEARCH_AFTER_HELP)]
    Search {
        /// Words to look for.
        #[arg(value_name = "QUERY", allow_hyphen_values = true)]
        query: String,
        /// Emit one JSON record per hit, then a `page` record.
        #[arg(long)]
        json: bool,
        /// Hits per page (1 to 100).
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: usize,
        /// Continue after the previous page (the cursor it printed).
        #[arg(long, value_name = "C")]
        cursor: Option<String>,
    },
    /// Print the manual page of `smith` or of one of its commands (roff: pipe it into
    /// `man -l -`), or list the pages with --list.
    Man {
        /// The command, e.g. `eval` or `sessions list` (or a page name as --list prints it,
        /// e.g. `smith-eval.1`); none: `smith` itself.
        #[arg(value_name = "COMMAND")]
        command: Vec<String>,
        /// List the page names instead.
        #[arg(long, conflicts_with = "command")]
        list: bool,
    },
    /// Print one document, or a window of its lines.
    Get {
        /// The document id (see `smith docs list`).
        #[arg(value_name = "ID")]
        id: String,
        /// Body lines A..B, 1-based and inclusive (`A..` runs to the end; `A` is one line).
        #[arg(long, value_name = "A..B")]
        lines: Option<String>,
        /// Emit the document as one JSON record.
        #[arg(long)]
        json: bool,
    },
}

const SEARCH_AFTER_HELP: &str = "\
Each document is searched section by section, and each matching document is shown once, at
the section that matches best, with the `smith docs get ID --lines A..B` that prints it.
Query syntax: words match their English stems in section headings (weighted ×3), document
titles and tags (×1.5) and section text; words that carry no meaning (the, a, how, do, I,
what, where…) are ignored, so a question works as a query, and words standing together in
the query rank sections where they stand together higher. \"a phrase\" matches words in
order; +word requires and -word excludes a word; title:word, heading:word, tags:word and
body:word search one field. Malformed syntax is read leniently, never an error. A query
nothing matches says so. When more results remain, the last line (or the JSON `page` record)
gives the --cursor for the next page.";

/// Most lines `smith docs get` prints without `--lines`; longer documents continue with
/// `--lines`.
const MAX_GET_LINES: usize = 2000;
/// Largest search page.
const MAX_LIMIT: usize = 100;

/// `smith docs …`.
pub(crate) fn run(args: DocsArgs) -> Result<u8, CliError> {
    let corpus = Corpus::embedded().map_err(|e| CliError::new(exit::RUN_FAILED, e.to_string()))?;
    let text = match args.command {
        DocsCommand::List { json } => list(&corpus, json),
        DocsCommand::Search {
            query,
            json,
            limit,
            cursor,
        } => search(&query, json, limit, cursor.as_deref())?,
        DocsCommand::Get { id, lines, json } => get(&corpus, &id, lines.as_deref(), json)?,
        DocsCommand::Man { command, list } => man(&command, list)?,
    };
    write_stdout(&text)
}

fn usage(e: DocsError) -> CliError {
    CliError::usage(e.to_string())
}

fn line(value: &serde_json::Value) -> String {
    let mut s = value.to_string();
    s.push('\n');
    s
}

fn list(corpus: &Corpus, json: bool) -> String {
    let docs = corpus.documents();
    let mut out = String::new();
    if json {
        for d in docs {
            out.push_str(&line(&json!({
                "type": "document",
                "id": d.id(),
                "title": d.front.title,
                "kind": d.front.kind,
                "tags": d.front.tags,
                "lines": d.line_count(),
            })));
        }
    } else {
        let width = docs.iter().map(|d| d.id().len()).max().unwrap_or(0);
        for d in docs {
            out.push_str(&format!(
                "{:<width$}  {:<9}  {}\n",
                d.id(),
                d.front.kind,
                d.front.title
            ));
        }
    }
    out
}

fn search(query: &str, json: bool, limit: usize, cursor: Option<&str>) -> Result<String, CliError> {
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(CliError::usage(format!(
            "--limit {limit} is out of range; give 1 to {MAX_LIMIT}"
        )));
    }
    if query.trim().is_empty() {
        return Err(CliError::usage(
            "the query is empty; give words to search for, e.g. `smith docs search \"session format\"`",
        ));
    }
    let index =
        SearchIndex::embedded().map_err(|e| CliError::new(exit::RUN_FAILED, e.to_string()))?;
    let page = index.search(query, limit, cursor).map_err(usage)?;
    let mut out = String::new();
    if json {
        for hit in &page.hits {
            let mut record = serde_json::to_value(hit).unwrap_or_default();
            if let Some(map) = record.as_object_mut() {
                map.insert("type".into(), json!("hit"));
            }
            out.push_str(&line(&record));
        }
        out.push_str(&line(&json!({
            "type": "page",
            "total": page.total,
            "returned": page.hits.len(),
            "next_cursor": page.next_cursor,
        })));
    } else {
        if page.hits.is_empty() {
            let shown: String = query.chars().take(80).collect();
            let more = if shown.len() < query.len() { "…" } else { "" };
            out.push_str(&format!(
                "no document matches `{}{more}`\n",
                smith_render_plain::printable(&shown)
            ));
        }
        for hit in &page.hits {
            let section = if hit.section == hit.title {
                String::new()
            } else {
                format!(" › {}", hit.section)
            };
            out.push_str(&format!(
                "{}  {}{section}  (smith docs get {} --lines {})\n",
                hit.id, hit.title, hit.id, hit.lines
            ));
            if !hit.snippet.is_empty() {
                out.push_str(&format!("    {}\n", hit.snippet));
            }
        }
        if let Some(next) = &page.next_cursor {
            let first = cursor
                .and_then(|c| smith_docs::Cursor::parse(c, query).ok())
                .map_or(0, |c| c.offset);
            out.push_str(&format!(
                "(results {}–{} of {}; more with --cursor {next})\n",
                first + 1,
                first + page.hits.len(),
                page.total
            ));
        }
    }
    Ok(out)
}

fn man(command: &[String], list: bool) -> Result<String, CliError> {
    let pages =
        smith_docs::man_pages().map_err(|e| CliError::new(exit::RUN_FAILED, e.to_string()))?;
    if list {
        return Ok(pages.iter().map(|(name, _)| format!("{name}\n")).collect());
    }
    // The command as words (`sessions list`, also given as one argument) or a page name as
    // `--list` prints it (`smith-sessions-list.1`).
    let words: Vec<&str> = command.iter().flat_map(|c| c.split_whitespace()).collect();
    let joined = words.join("-");
    let stem = joined.strip_suffix(".1").unwrap_or(&joined);
    let stem = match stem.strip_prefix("smith") {
        Some(rest) if rest.is_empty() || rest.starts_with('-') => rest.trim_start_matches('-'),
        _ => stem,
    };
    let name = if stem.is_empty() {
        "smith.1".to_owned()
    } else {
        format!("smith-{stem}.1")
    };
    pages
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| text)
        .ok_or_else(|| {
            CliError::usage(format!(
                "no manual page for `smith {}`; `smith docs man --list` lists them",
                command.join(" ")
            ))
        })
}

fn get(corpus: &Corpus, id: &str, lines: Option<&str>, json: bool) -> Result<String, CliError> {
    let doc = corpus.get(id).map_err(usage)?;
    let total = doc.line_count();
    let range = match lines {
        Some(text) => text
            .parse::<LineRange>()
            .map_err(|e| CliError::usage(format!("--lines: {e}")))?,
        None => LineRange {
            start: 1,
            end: Some(total.clamp(1, MAX_GET_LINES)),
        },
    };
    let text = if total == 0 {
        String::new()
    } else {
        doc.lines(range).map_err(usage)?
    };
    let end = range.end.unwrap_or(total).min(total);
    let next = (end < total).then(|| format!("{}..", end + 1));
    if json {
        return Ok(line(&json!({
            "type": "document",
            "id": doc.id(),
            "title": doc.front.title,
            "kind": doc.front.kind,
            "tags": doc.front.tags,
            "line_start": range.start,
            "line_end": end,
            "total_lines": total,
            "next_lines": next,
            "text": text,
            "links": links(corpus, doc),
        })));
    }
    let styled = io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    let mut out = if styled {
        let hint = |target: &str| {
            corpus
                .links(doc)
                .into_iter()
                .find(|l| l.target == target)
                .and_then(|l| l.resolved)
                .map_or_else(|| target.to_owned(), |id| format!("smith docs get {id}"))
        };
        let mut rendered = smith_docs::render_terminal(&text, &hint);
        rendered.push('\n');
        rendered
    } else {
        text
    };
    // Only a default window cut by the bound says how to continue; an explicit window is
    // exactly what was asked for.
    if let (Some(next), None) = (next, lines) {
        out.push_str(&format!(
            "(lines {}..{end} of {total}; continue with --lines {next})\n",
            range.start
        ));
    }
    Ok(out)
}

fn links(corpus: &Corpus, doc: &Document) -> Vec<serde_json::Value> {
    corpus
        .links(doc)
        .into_iter()
        .map(|l| json!({"target": l.target, "id": l.resolved, "external": l.external}))
        .collect()
}
