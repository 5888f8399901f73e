//! `smith mcp add`, `list`, `get` and `remove`: the MCP servers Smith uses, through the
//! bundled `mcp-client` plugin (their tools offered as `mcp__NAME__TOOL`), kept in its user
//! state by `smith_app::mcp`.

use std::collections::BTreeMap;

use clap::Args;
use smith_app::mcp::{Listed, McpError, Server, Servers};

use crate::cli::Global;
use crate::command_error::CliError;
use crate::exit;
use crate::output::write_stdout;

pub(crate) const ADD_AFTER_HELP: &str = "\
A stdio server (`-- COMMAND ARGS…`) is a program Smith starts when a turn first needs its
tools, inside the sandbox like every program (so only where programs may run: a trusted
project, or --allow-process), and talks MCP with over its standard input and output. It gets
the baseline environment (no credentials) plus the variables given with --env.

A Streamable HTTP server (`--url URL`) is reached through Smith's network facility, each
request recorded in the session; adding it writes its host to your
plugins.mcp-client.net.allow (the client reaches no other host), and --secret binds a secret
from `smith secrets` to that host (plugins.mcp-client.net.credentials): Smith sets it on each
request, and neither the plugin nor the session record sees its value.

Either way its tools are listed once and cached; a changed entry is listed again.

Examples:
  smith mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .
  smith mcp add tracker --env TRACKER_TOKEN=… -- tracker-mcp --stdio
  smith mcp add docs --url https://mcp.example.com/mcp --secret DOCS_TOKEN

Exit status:
  0    added
  2    a bad name or entry, or a server of that name is already added";

/// Arguments of `smith mcp add`.
#[derive(Debug, Args)]
pub(crate) struct AddArgs {
    /// The server's name: 1 to 32 letters, digits and `-` (its tools are mcp__NAME__TOOL).
    pub(crate) name: String,
    /// A variable set for the server (repeatable); its value is never shown.
    #[arg(short, long = "env", value_name = "KEY=VALUE")]
    pub(crate) env: Vec<String>,
    /// The server's working directory, relative to the session's.
    #[arg(long, value_name = "DIR")]
    pub(crate) cwd: Option<String>,
    /// How long it may take to answer `initialize` and `tools/list` (default 30, at most
    /// 600).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) timeout: Option<u64>,
    /// How long it may stay silent during a tool call, its progress notifications counting
    /// as speech (default 300, at most 3600).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) call_timeout: Option<u64>,
    /// The Streamable HTTP endpoint of a server that is not a program.
    #[arg(long, value_name = "URL", conflicts_with_all = ["env", "cwd", "command"])]
    pub(crate) url: Option<String>,
    /// A header sent with each request to --url (repeatable; recorded in the session with
    /// each request, so give secrets with --secret).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub(crate) headers: Vec<String>,
    /// A registered secret (smith secrets set NAME) Smith sends to --url's host as
    /// `Authorization: Bearer …`, or in HEADER.
    #[arg(long, value_name = "NAME[@HEADER]")]
    pub(crate) secret: Option<String>,
    /// The program and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "url", value_name = "COMMAND")]
    pub(crate) command: Vec<String>,
}

/// The CLI's words for a core error: the message and the command that helps.
fn refuse(e: &McpError) -> CliError {
    let hint = match e {
        McpError::NoHome => "; set SMITH_HOME (or HOME) to a writable directory",
        McpError::Exists(_) => "; remove it first (smith mcp remove NAME), or choose another name",
        McpError::Unknown(_) => "; `smith mcp list` shows the servers added",
        McpError::State(_) => "; check the data home's state/user/mcp-client/ files",
        McpError::BadName(_) | McpError::BadEntry { .. } => "",
    };
    let status = match e {
        McpError::State(_) => exit::RUN_FAILED,
        _ => exit::USAGE,
    };
    CliError::new(status, format!("smith mcp: {e}{hint}"))
}

fn servers(global: &Global) -> Result<Servers, CliError> {
    let app = global.app(&[])?;
    Servers::new(&app.paths).map_err(|e| refuse(&e))
}

/// `smith mcp add NAME [--env K=V]… [--cwd DIR] [--timeout S] -- COMMAND ARGS…`.
pub(crate) fn add(args: AddArgs, global: &Global) -> Result<u8, CliError> {
    let mut env = BTreeMap::new();
    for pair in &args.env {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(CliError::new(
                exit::USAGE,
                format!("smith mcp add: --env `{}` is not KEY=VALUE", key_only(pair)),
            ));
        };
        if env.insert(key.to_owned(), value.to_owned()).is_some() {
            return Err(CliError::new(
                exit::USAGE,
                format!("smith mcp add: --env `{key}` is given twice; give each variable once"),
            ));
        }
    }
    let mut headers = BTreeMap::new();
    for line in &args.headers {
        let Some((key, value)) = line.split_once(':') else {
            return Err(CliError::new(
                exit::USAGE,
                format!(
                    "smith mcp add: --header `{}` is not `NAME: VALUE`",
                    smith_render_plain::printable(line)
                ),
            ));
        };
        headers.insert(key.trim().to_owned(), value.trim().to_owned());
    }
    let mut command = args.command.into_iter();
    let server = Server {
        command: command.next().unwrap_or_default(),
        args: command.collect(),
        env,
        cwd: args.cwd,
        timeout_ms: args.timeout.map(|s| s.saturating_mul(1000)),
        call_timeout_ms: args.call_timeout.map(|s| s.saturating_mul(1000)),
        url: args.url,
        headers,
    };
    // The grant an HTTP server needs, checked before anything is written.
    let grant = match &server.url {
        Some(url) => Some(http_grant(url, args.secret.as_deref())?),
        None if args.secret.is_some() => {
            return Err(CliError::new(
                exit::USAGE,
                "smith mcp add: --secret goes with --url; give a program its credentials with --env KEY=VALUE",
            ));
        }
        None => None,
    };
    let line = command_line(&server);
    servers(global)?
        .add(&args.name, server)
        .map_err(|e| refuse(&e))?;
    let name = &args.name;
    let mut said = format!("added MCP server `{name}`: {line}\n");
    if let Some(grant) = grant {
        said.push_str(&grant.write(global)?);
    }
    said.push_str(&format!(
        "Its tools are offered as mcp__{name}__TOOL from the next turn where programs may run (a trusted project, or --allow-process); `smith mcp list` shows its state.\n"
    ));
    let count = servers(global)?.list().map_or(0, |s| s.len());
    if count > smith_app::mcp::MAX_RUNNING {
        said.push_str(&format!(
            "Note: {count} servers are added; at most {} run at once in a session, and a server started beyond them fails until the session ends.\n",
            smith_app::mcp::MAX_RUNNING
        ));
    }
    write_stdout(&said)
}

/// `smith mcp remove NAME`.
pub(crate) fn remove(name: &str, global: &Global) -> Result<u8, CliError> {
    servers(global)?.remove(name).map_err(|e| refuse(&e))?;
    write_stdout(&format!(
        "removed MCP server `{name}`; its tools are no longer offered\n"
    ))
}

/// `smith mcp list [--json]`.
pub(crate) fn list(json: bool, global: &Global) -> Result<u8, CliError> {
    let store = servers(global)?;
    let all = store.list().map_err(|e| refuse(&e))?;
    let listed = store.listed().map_err(|e| refuse(&e))?;
    let mut out = String::new();
    for (name, server) in &all {
        let state = State::of(server, listed.get(name));
        if json {
            out.push_str(&record(name, server, &state).to_string());
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{name}  {}  — {}\n",
                command_line(server),
                state.words()
            ));
        }
    }
    if all.is_empty() && !json {
        out.push_str(
            "no MCP servers are added; add one with smith mcp add NAME -- COMMAND ARGS… or smith mcp add NAME --url URL\n",
        );
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// `smith mcp get NAME [--json]`.
pub(crate) fn get(name: &str, json: bool, global: &Global) -> Result<u8, CliError> {
    let store = servers(global)?;
    let all = store.list().map_err(|e| refuse(&e))?;
    let server = all
        .get(name)
        .ok_or_else(|| refuse(&McpError::Unknown(name.to_owned())))?;
    let listed = store.listed().map_err(|e| refuse(&e))?;
    let state = State::of(server, listed.get(name));
    if json {
        return write_stdout(&format!("{}\n", record(name, server, &state)));
    }
    let mut out = match &server.url {
        Some(url) => format!("{name}\n  url: {url}\n"),
        None => format!("{name}\n  command: {}\n", command_line(server)),
    };
    if !server.headers.is_empty() {
        let keys: Vec<&str> = server.headers.keys().map(String::as_str).collect();
        out.push_str(&format!(
            "  headers: {} (values not shown)\n",
            keys.join(", ")
        ));
    }
    if !server.env.is_empty() {
        let keys: Vec<&str> = server.env.keys().map(String::as_str).collect();
        out.push_str(&format!("  env: {} (values not shown)\n", keys.join(", ")));
    }
    if let Some(cwd) = &server.cwd {
        out.push_str(&format!("  cwd: {cwd}\n"));
    }
    if let Some(ms) = server.timeout_ms {
        out.push_str(&format!("  timeout: {} s\n", ms / 1000));
    }
    if let Some(ms) = server.call_timeout_ms {
        out.push_str(&format!("  call timeout: {} s\n", ms / 1000));
    }
    out.push_str(&format!("  state: {}\n", state.words()));
    for (tool, mcp) in state.tools() {
        out.push_str(&format!("  tool {tool} ({mcp})\n"));
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// What a server's tools are known as.
enum State<'a> {
    /// Listed with its present entry.
    Listed(&'a Listed),
    /// The last listing failed.
    Failed(&'a str),
    /// Never listed, or its entry changed since.
    Unlisted,
}

impl<'a> State<'a> {
    fn of(server: &Server, listed: Option<&'a Listed>) -> Self {
        match listed {
            Some(l) if l.error.is_some() => Self::Failed(l.error.as_deref().unwrap_or_default()),
            Some(l) if l.fingerprint == serde_json::to_string(server).unwrap_or_default() => {
                Self::Listed(l)
            }
            _ => Self::Unlisted,
        }
    }

    fn words(&self) -> String {
        match self {
            Self::Listed(l) if l.tools.len() == 1 => "1 tool".to_owned(),
            Self::Listed(l) => format!("{} tools", l.tools.len()),
            Self::Failed(why) => format!("failed: {why}"),
            Self::Unlisted => {
                "not listed yet: its tools are listed at the next turn where programs may run"
                    .to_owned()
            }
        }
    }

    fn tools(&self) -> Vec<(&'a str, &'a str)> {
        match self {
            Self::Listed(l) => l
                .tools
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Self::Listed(_) => "listed",
            Self::Failed(_) => "failed",
            Self::Unlisted => "unlisted",
        }
    }
}

/// A server's JSON record: `name`, `transport` (`stdio`, `http`), `command`, `args`, `env`
/// (names only), `cwd`, `url`, `headers` (names only), `timeout_ms`, `call_timeout_ms`,
/// `state` (`listed`, `failed`, `unlisted`), `error`, `tools`.
fn record(name: &str, server: &Server, state: &State<'_>) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "transport": if server.url.is_some() { "http" } else { "stdio" },
        "url": server.url,
        "headers": server.headers.keys().collect::<Vec<_>>(),
        "command": server.command,
        "args": server.args,
        "env": server.env.keys().collect::<Vec<_>>(),
        "cwd": server.cwd,
        "timeout_ms": server.timeout_ms,
        "call_timeout_ms": server.call_timeout_ms,
        "state": state.name(),
        "error": match state { State::Failed(why) => Some(*why), _ => None },
        "tools": state.tools().into_iter().map(|(t, _)| t).collect::<Vec<_>>(),
    })
}

/// The command line of `server`, each word quoted when it needs to be; an HTTP server's URL.
fn command_line(server: &Server) -> String {
    if let Some(url) = &server.url {
        return url.clone();
    }
    std::iter::once(&server.command)
        .chain(&server.args)
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=@+,".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name part of an `--env` argument, never its value.
fn key_only(pair: &str) -> &str {
    pair.split_once('=').map_or(pair, |(k, _)| k)
}

/// What adding an HTTP server changes in the user's configuration: its host added to
/// `plugins.mcp-client.net.allow`, and the secret bound to it in `.net.credentials`.
struct Grant {
    /// `host:port`.
    host: String,
    /// The credential entry (`host:port=SECRET[@HEADER]`), if a secret was given.
    credential: Option<String>,
}

/// The grant server `url` needs, with `secret` (`NAME[@HEADER]`) bound to its host.
fn http_grant(url: &str, secret: Option<&str>) -> Result<Grant, CliError> {
    let usage = |why: String| CliError::new(exit::USAGE, format!("smith mcp add: {why}"));
    let host = smith_app::mcp::host_port(url).ok_or_else(|| {
        usage(format!(
            "--url `{}` is not an absolute http or https URL with a host (such as https://example.com/mcp)",
            smith_render_plain::printable(url)
        ))
    })?;
    let credential = match secret {
        Some(secret) => {
            let entry = format!("{host}={secret}");
            entry
                .parse::<smith_host::net::Credential>()
                .map_err(|e| usage(format!("--secret `{secret}`: {}", e.why)))?;
            Some(entry)
        }
        None => None,
    };
    Ok(Grant { host, credential })
}

impl Grant {
    /// Write it to the user's configuration file; what was written, in words.
    fn write(&self, global: &Global) -> Result<String, CliError> {
        let app = global.app(&[])?;
        let path = app
            .paths
            .require_user_config()
            .map_err(|e| crate::command_error::no_home(&e))?
            .to_owned();
        let mut said = String::new();
        let mut entries = vec![("plugins.mcp-client.net.allow", self.host.clone())];
        entries.extend(
            self.credential
                .iter()
                .map(|c| ("plugins.mcp-client.net.credentials", c.clone())),
        );
        for (key, entry) in entries {
            let current = match app.settings.resolved.get(key).map(|v| &v.value) {
                Some(smith_config::Value::String(text)) => text.clone(),
                _ => String::new(),
            };
            let mut list: Vec<&str> = current
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
            if list.contains(&entry.as_str()) {
                continue;
            }
            list.push(&entry);
            let value = list.join(",");
            smith_config::set_in_file(&path, key, &value).map_err(|e| {
                CliError::new(
                    exit::RUN_FAILED,
                    format!(
                        "smith mcp add: the server was added, but {key} could not be written to {}: {e}; set it with smith config set {key} '{value}'",
                        path.display()
                    ),
                )
            })?;
            said.push_str(&format!(
                "{key} = \"{value}\"  # written to {}\n",
                path.display()
            ));
        }
        Ok(said)
    }
}
