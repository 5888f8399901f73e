//! `/cost`, `/status` and `/mcp`: what the runtime says of the session (the `runtime` import,
//! package 1.7.0), as one notice each for the person.

use smith_plugin_sdk::product::runtime::{self, ModelUsage};
use smith_plugin_sdk::product::{Intent, Level};

/// A token count with thousands separators, or `?` when unknown.
fn count(n: Option<u64>) -> String {
    let Some(n) = n else {
        return "?".to_owned();
    };
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Dollars with the digits a small amount needs (`$0.0042`), or `?` when unknown.
fn dollars(d: Option<f64>) -> String {
    match d {
        None => "?".to_owned(),
        Some(d) if d <= 0.0 => "$0".to_owned(),
        Some(d) if d < 0.01 => format!("${d:.4}"),
        Some(d) => format!("${d:.2}"),
    }
}

/// `n` and `word`, plural unless `n` is 1: `1 response`, `2 responses`.
fn counted(n: u32, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn sum(lines: &[ModelUsage], f: impl Fn(&ModelUsage) -> Option<u64>) -> Option<u64> {
    lines.iter().map(f).sum()
}

/// `/cost`: the session's usage and cost, in total and by model (children apart).
pub(crate) fn cost() -> Result<Vec<Intent>, String> {
    let lines = runtime::usage().map_err(|why| format!("no usage to show: {why}"))?;
    if lines.is_empty() {
        return Ok(vec![Intent::Notice((
            Level::Info,
            "cost: nothing yet — this session has made no model request".to_owned(),
        ))]);
    }
    let total: Option<f64> = lines.iter().map(|l| l.cost_usd).sum();
    let responses: u32 = lines.iter().map(|l| l.responses).sum();
    let attempts: u32 = lines.iter().map(|l| l.attempts).sum();
    let mut text = format!(
        "cost: {} · {} over {} · input {} · output {} · cache read {} · cache write {}",
        dollars(total),
        counted(responses, "response"),
        counted(attempts, "attempt"),
        count(sum(&lines, |l| l.input_tokens)),
        count(sum(&lines, |l| l.output_tokens)),
        count(sum(&lines, |l| l.cache_read_tokens)),
        count(sum(&lines, |l| l.cache_write_tokens)),
    );
    for l in &lines {
        let who = match &l.child {
            Some(child) => format!("{} (child {child})", l.model),
            None => l.model.clone(),
        };
        text.push_str(&format!(
            "\n  {who}: {} · {} · input {} · output {} · cache read {} · cache write {}",
            dollars(l.cost_usd),
            counted(l.responses, "response"),
            count(l.input_tokens),
            count(l.output_tokens),
            count(l.cache_read_tokens),
            count(l.cache_write_tokens),
        ));
    }
    if total.is_none() {
        text.push_str(
            "\n  (? : a response reported no usage, or its model has no price in the catalog)",
        );
    }
    Ok(vec![Intent::Notice((Level::Info, text))])
}

/// `/status`: the session, its model and context use, the permission mode, the sandbox, the
/// plugins and the MCP servers.
pub(crate) fn status() -> Vec<Intent> {
    let s = runtime::status();
    let or = |v: Option<String>, none: &str| v.unwrap_or_else(|| none.to_owned());
    let context = match (s.context_tokens, s.context_window) {
        (Some(used), Some(window)) if window > 0 => format!(
            "{} of {} tokens ({}%)",
            count(Some(used)),
            count(Some(window)),
            used.saturating_mul(100) / window
        ),
        (Some(used), _) => format!("{} tokens (window unknown)", count(Some(used))),
        (None, _) => "not measured yet (no request made)".to_owned(),
    };
    let mut text = format!(
        "status: session {} · model {}\n  context: {context}\n  permission mode: {} · sandbox: {}",
        or(s.session, "none open"),
        or(s.model, "none chosen yet"),
        or(s.permission_mode, "?"),
        or(s.sandbox, "?"),
    );
    text.push_str(&format!("\n  plugins ({}):", s.plugins.len()));
    for p in &s.plugins {
        text.push_str(&format!("\n    {p}"));
    }
    if s.mcp_servers.is_empty() {
        text.push_str("\n  MCP servers: none added");
    } else {
        text.push_str(&format!("\n  MCP servers ({}):", s.mcp_servers.len()));
        for m in &s.mcp_servers {
            text.push_str(&format!("\n    {m}"));
        }
    }
    vec![Intent::Notice((Level::Info, text))]
}

/// `/memory`: the process's memory accounting — per scope kind, then each scope still live
/// (the table `SMITH_MEMORY_REPORT` writes at exit).
pub(crate) fn memory() -> Vec<Intent> {
    let table = runtime::memory();
    vec![Intent::Notice((
        Level::Info,
        format!(
            "memory, by scope (`smith docs get memory` explains it):\n{}",
            table.trim_end()
        ),
    ))]
}

/// `/mcp`: the MCP servers the user added, each with its transport, target and state (`smith
/// mcp list` says more, `smith mcp get NAME` all of one).
pub(crate) fn mcp() -> Vec<Intent> {
    let servers = runtime::status().mcp_servers;
    let text = if servers.is_empty() {
        "MCP servers: none added or declared. `smith mcp add NAME -- COMMAND ARGS…` adds a program, `smith mcp add NAME --url URL` a Streamable HTTP endpoint, and the configuration may declare them (`smith docs get mcp-client`)".to_owned()
    } else {
        let mut text = format!("MCP servers ({}):", servers.len());
        for line in &servers {
            text.push_str(&format!("\n  {line}"));
        }
        text.push_str(
            "\n  (`smith mcp get NAME` shows one with its tools; /mcp reconnect NAME restarts one)",
        );
        text
    };
    vec![Intent::Notice((Level::Info, text))]
}

/// `/mcp reconnect NAME`: the server's program stopped and its listing forgotten, so the next
/// turn lists it afresh (the runtime's `reconnect-mcp-server`).
pub(crate) fn reconnect(name: &str) -> Result<Vec<Intent>, String> {
    let done = runtime::reconnect_mcp_server(name)?;
    Ok(vec![Intent::Notice((Level::Info, done))])
}
