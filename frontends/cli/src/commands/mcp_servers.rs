//! `smith mcp add`, `list`, `get` and `remove`: the MCP servers Smith uses, through the
//! bundled `mcp-client` plugin (their tools offered as `mcp__NAME__TOOL`), kept in its user
//! state by `smith_app::mcp`.

use std::collections::BTreeMap;

use clap::Args;
use smith_app::mcp::{McpError, Server, ServerState, Servers};

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
from `smith secrets add` to that host (plugins.mcp-client.net.credentials): Smith sets it on
each request, and neither the plugin nor the session record sees its value. An HTTP server is
bounded by Smith's network bounds (an answer starts within 120 s, an event stream pauses at
most 300 s), not by --timeout. OAuth sign-in and the older HTTP+SSE transport are not
supported.

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
    /// Let the server's program reach the network although the sandbox denies it.
    #[arg(long)]
    pub(crate) network: bool,
    /// A directory the server's program may write beneath besides the project (repeatable).
    #[arg(long = "writable-root", value_name = "DIR")]
    pub(crate) writable_roots: Vec<String>,
    /// The Streamable HTTP endpoint of a server that is not a program.
    #[arg(
        long,
        value_name = "URL",
        conflicts_with_all = ["env", "cwd", "command", "network", "writable_roots", "timeout", "call_timeout"]
    )]
    pub(crate) url: Option<String>,
    /// A header sent with each request to --url (repeatable; kept in plain text with the
    /// server's entry, so give secrets with --secret).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub(crate) headers: Vec<String>,
    /// A registered secret (smith secrets add NAME) Smith sends to --url's host as
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
        McpError::Configured(_) => "; smith docs get mcp-client shows how servers are declared",
        McpError::Declared { .. } => "",
    };
    let status = match e {
        McpError::State(_) => exit::RUN_FAILED,
        _ => exit::USAGE,
    };
    CliError::new(status, format!("smith mcp: {e}{hint}"))
}

/// Said while another `smith mcp` change holds the servers.
fn waiting() {
    exit::report("waiting for another `smith mcp add` or `remove` to finish…");
}

fn servers(global: &Global) -> Result<Servers, CliError> {
    let app = global.app(&[])?;
    Servers::new(&app.paths).map_err(|e| refuse(&e))
}

/// Every server a session here uses, by name, with where it is declared (none: added).
fn known(global: &Global) -> Result<BTreeMap<String, (Server, Option<String>)>, CliError> {
    let app = global.app(&[])?;
    smith_app::mcp::known(&app).map_err(|e| refuse(&e))
}

/// Refuse to add server `name` with `smith mcp` when the configuration declares it, or one
/// whose name differs only in case (their tools' names would collide).
fn not_declared(global: &Global, name: &str) -> Result<(), CliError> {
    let known = known(global)?;
    match known
        .iter()
        .find(|(k, (_, origin))| origin.is_some() && k.eq_ignore_ascii_case(name))
    {
        Some((k, (_, Some(origin)))) if k == name => Err(refuse(&McpError::Declared {
            name: name.to_owned(),
            origin: origin.clone(),
        })),
        Some((k, (_, Some(origin)))) => Err(refuse(&McpError::Configured(format!(
            "MCP server `{name}` differs only in case from `{k}`, declared in {origin}, and their tools' names would collide; choose another name"
        )))),
        _ => Ok(()),
    }
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
        let key = key.trim();
        if headers.keys().any(|k: &String| k.eq_ignore_ascii_case(key)) {
            return Err(CliError::new(
                exit::USAGE,
                format!("smith mcp add: --header `{key}` is given twice; give each header once"),
            ));
        }
        headers.insert(key.to_owned(), value.trim().to_owned());
    }
    if let Some(first) = args.command.first()
        && ["http://", "https://"].iter().any(|scheme| {
            first
                .get(..scheme.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
        })
    {
        return Err(CliError::new(
            exit::USAGE,
            format!(
                "smith mcp add: the command `{}` is a URL; add an HTTP server with smith mcp add {} --url URL",
                smith_render_plain::printable(first),
                args.name
            ),
        ));
    }
    for key in headers.keys() {
        if smith_host::net::is_credential_header(key) {
            exit::report(&format!(
                "warning: --header `{key}` looks like a credential; its value is kept in plain text with the server's entry (the session records leave it out) — a secret belongs in the secret store: --secret NAME[@HEADER] (smith secrets add NAME)"
            ));
        }
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
    // What the configuration gains, checked before anything is written: an HTTP server's
    // grant, or a program's widened sandbox.
    let store = servers(global)?;
    not_declared(global, &args.name)?;
    let _held = store.lock(waiting).map_err(|e| refuse(&e))?;
    let edits = match &server.url {
        Some(url) => http_grant(global, url, args.secret.as_deref(), &server.headers)?,
        None if args.secret.is_some() => {
            return Err(CliError::new(
                exit::USAGE,
                "smith mcp add: --secret goes with --url; give a program its credentials with --env KEY=VALUE",
            ));
        }
        None => sandbox_edits(&args.name, args.network, &args.writable_roots)?,
    };
    let line = command_line(&server);
    let http = server.url.is_some();
    store.add(&args.name, server).map_err(|e| refuse(&e))?;
    let name = &args.name;
    let mut said = format!("added MCP server `{name}`: {line}\n");
    said.push_str(&write_edits(global, &edits, "add")?);
    let when = if http {
        "the next turn whose permission policy lets its requests be made"
    } else {
        "the next turn where programs may run (a trusted project, or --allow-process)"
    };
    said.push_str(&format!(
        "Its tools are offered as mcp__{name}__TOOL from {when}; `smith mcp list` shows its state.\n"
    ));
    let count = store
        .list()
        .map_or(0, |s| s.values().filter(|s| s.url.is_none()).count());
    if !http && count > smith_app::mcp::MAX_RUNNING {
        said.push_str(&format!(
            "Note: {count} programs are added as servers; at most {} run at once in a session, and a server started beyond them fails until the session ends.\n",
            smith_app::mcp::MAX_RUNNING
        ));
    }
    write_stdout(&said)
}

/// `smith mcp remove NAME`.
pub(crate) fn remove(name: &str, global: &Global) -> Result<u8, CliError> {
    let store = servers(global)?;
    let added = store.list().map_err(|e| refuse(&e))?.contains_key(name);
    // One only declared is the configuration's to change; one added and also declared is
    // removed, and the declared one goes on.
    // Read without the checks across servers: removing is how a clash is mended.
    let app = global.app(&[])?;
    let declared = smith_app::mcp::declared(&app.settings)
        .map_err(|e| refuse(&McpError::Configured(e.to_string())))?;
    let shadowing = match declared.get(name) {
        Some(d) if !added => {
            return Err(refuse(&McpError::Declared {
                name: name.to_owned(),
                origin: d.origin.clone(),
            }));
        }
        Some(d) => Some(d.origin.clone()),
        None => None,
    };
    let _held = store.lock(waiting).map_err(|e| refuse(&e))?;
    let removed = store.remove(name).map_err(|e| refuse(&e))?;
    let mut said = match shadowing {
        Some(origin) => format!(
            "removed the MCP server `{name}` you added; the one declared in {origin} is used, as it was\n"
        ),
        None => format!("removed MCP server `{name}`; its tools are no longer offered\n"),
    };
    let mut edits = Vec::new();
    if let Some(url) = &removed.url {
        let others = store.list().map_err(|e| refuse(&e))?;
        let others: Vec<&Server> = others.values().collect();
        edits.extend(http_release(global, url, &others)?);
    }
    // A server added again under the name does not inherit its widened sandbox: the
    // settings `smith mcp add` wrote are reset, whoever else declares the name.
    let (network, roots) = added_widening(global, name)?;
    let [network_key, roots_key] = sandbox_keys(name);
    if network {
        edits.push(Edit {
            key: network_key,
            value: "deny".to_owned(),
            how: How::Replace,
        });
    }
    if !roots.is_empty() {
        edits.push(Edit {
            key: roots_key,
            value: String::new(),
            how: How::Replace,
        });
    }
    said.push_str(&write_edits(global, &edits, "remove")?);
    write_stdout(&said)
}

/// `smith mcp list [--json]`.
pub(crate) fn list(json: bool, global: &Global) -> Result<u8, CliError> {
    let store = servers(global)?;
    let all = known(global)?;
    let listed = store.listings().map_err(|e| refuse(&e))?;
    let mut out = String::new();
    for (name, (server, origin)) in &all {
        let state = ServerState::of(server, listed.of(name, server, origin.is_some()));
        if json {
            out.push_str(&record(global, name, server, origin.as_deref(), &state)?.to_string());
            out.push('\n');
        } else {
            let widened = match widened_words(global, name)? {
                words if words.is_empty() => String::new(),
                words => format!("  [sandbox widened: {words}]"),
            };
            let origin = origin
                .as_ref()
                .map(|o| format!("  (declared in {o})"))
                .unwrap_or_default();
            out.push_str(&format!(
                "{name}  {}{widened}{origin}  — {}\n",
                command_line(server),
                state.words()
            ));
        }
    }
    if all.is_empty() && !json {
        out.push_str(
            "no MCP servers are added; add one with smith mcp add NAME -- COMMAND ARGS… or smith mcp add NAME --url URL, or declare one in the configuration (smith docs get mcp-client)\n",
        );
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// `smith mcp get NAME [--json]`.
pub(crate) fn get(name: &str, json: bool, global: &Global) -> Result<u8, CliError> {
    let store = servers(global)?;
    let all = known(global)?;
    let (server, origin) = all
        .get(name)
        .ok_or_else(|| refuse(&McpError::Unknown(name.to_owned())))?;
    let listed = store.listings().map_err(|e| refuse(&e))?;
    let state = ServerState::of(server, listed.of(name, server, origin.is_some()));
    if json {
        return write_stdout(&format!(
            "{}\n",
            record(global, name, server, origin.as_deref(), &state)?
        ));
    }
    let mut out = match &server.url {
        Some(url) => format!("{name}\n  url: {url}\n"),
        None => format!("{name}\n  command: {}\n", command_line(server)),
    };
    if let Some(origin) = origin {
        out.push_str(&format!("  declared in: {origin}\n"));
    }
    if let Some(secret) = secret_of(global, server)? {
        out.push_str(&format!(
            "  secret: {secret} (sent by Smith to its host; plugins.mcp-client.net.credentials)\n"
        ));
    }
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
    let widened = widened_words(global, name)?;
    if !widened.is_empty() {
        out.push_str(&format!("  sandbox widened: {widened}\n"));
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

/// How server `name`'s sandbox is widened, in words (`network allowed, writable /x`), or
/// nothing.
fn widened_words(global: &Global, name: &str) -> Result<String, CliError> {
    let (network, writable_roots) = widening(global, name)?;
    let words = smith_host::sandbox::Widening {
        network,
        writable_roots: writable_roots
            .iter()
            .map(std::path::PathBuf::from)
            .collect(),
    }
    .describe();
    Ok(words)
}

/// A server's JSON record: `name`, `transport` (`stdio`, `http`), `command`, `args`, `env`
/// (names only), `cwd`, `url`, `headers` (names only), `secret` (the name of the secret sent
/// to its host), `network` (its sandbox lets it reach the network), `writable_roots`,
/// `timeout_ms`, `call_timeout_ms`, `declared_in` (`FILE:LINE` of a configured server; null for
/// one added), `state` (`listed`, `failed`, `unlisted`), `error`, `tools`.
fn record(
    global: &Global,
    name: &str,
    server: &Server,
    origin: Option<&str>,
    state: &ServerState<'_>,
) -> Result<serde_json::Value, CliError> {
    let (network, writable_roots) = widening(global, name)?;
    let secret = secret_of(global, server)?;
    Ok(serde_json::json!({
        "declared_in": origin,
        "secret": secret,
        "network": network,
        "writable_roots": writable_roots,
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
        "error": match state { ServerState::Failed(why) => Some(*why), _ => None },
        "tools": state.tools().into_iter().map(|(t, _)| t).collect::<Vec<_>>(),
    }))
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

/// A change to the user's configuration file that `add` or `remove` makes.
struct Edit {
    key: String,
    value: String,
    how: How,
}

/// How an [`Edit`] changes its setting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum How {
    /// The value replaces the setting's.
    Replace,
    /// The value is added to the setting's comma-separated list, when not in it yet.
    Add,
    /// The value is taken out of the setting's comma-separated list.
    Take,
}

/// The grant HTTP server `url` needs: its host added to `plugins.mcp-client.net.allow`, and
/// `secret` (`NAME[@HEADER]`, a registered secret) bound to it in `.net.credentials` — one
/// secret per host.
fn http_grant(
    global: &Global,
    url: &str,
    secret: Option<&str>,
    headers: &BTreeMap<String, String>,
) -> Result<Vec<Edit>, CliError> {
    let usage = |why: String| CliError::new(exit::USAGE, format!("smith mcp add: {why}"));
    let host = smith_app::mcp::host_port(url).map_err(|why| {
        usage(format!(
            "--url `{}` {why}",
            smith_render_plain::printable(url)
        ))
    })?;
    let mut edits = vec![Edit {
        key: ALLOW.to_owned(),
        value: host.clone(),
        how: How::Add,
    }];
    let bound = bound_credential(global, &host)?;
    let Some(secret) = secret else {
        return Ok(edits);
    };
    let entry = format!("{host}={secret}");
    let credential = entry
        .parse::<smith_host::net::Credential>()
        .map_err(|e| usage(format!("--secret `{secret}`: {}", e.why)))?;
    if smith_app::mcp::reserved_header(&credential.header) {
        return Err(usage(format!(
            "--secret `{secret}`: header `{}` is set by Smith itself; name another (the default is Authorization)",
            credential.header
        )));
    }
    if let Some(given) = headers
        .keys()
        .find(|k| k.eq_ignore_ascii_case(&credential.header))
    {
        return Err(usage(format!(
            "--header `{given}` and --secret `{secret}` both set `{}`; the secret would replace the header — give one",
            credential.header
        )));
    }
    if !secret_known(global, &credential.secret)? {
        return Err(usage(format!(
            "--secret `{secret}`: no secret `{0}` is registered; add it first with `smith secrets add {0}` (its value is read from standard input), or name its variable in secrets.env",
            credential.secret
        )));
    }
    match bound {
        Some(other) if other != entry => {
            return Err(usage(format!(
                "{host} already gets a credential (`{other}` in plugins.mcp-client.net.credentials), which every server there is sent; remove that server first, or change the setting with smith config set"
            )));
        }
        Some(_) => {}
        None => edits.push(Edit {
            key: CREDENTIALS.to_owned(),
            value: entry,
            how: How::Add,
        }),
    }
    Ok(edits)
}

/// The setting listing the hosts the MCP client may reach.
const ALLOW: &str = "plugins.mcp-client.net.allow";

/// The setting binding secrets to those hosts.
const CREDENTIALS: &str = "plugins.mcp-client.net.credentials";

/// The comma-separated entries of string setting `key`.
fn entries(app: &smith_app::App, key: &str) -> Vec<String> {
    match app.settings.resolved.get(key).map(|v| &v.value) {
        Some(smith_config::Value::String(text)) => text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// The credential entry (`HOST=SECRET[@HEADER]`) bound to `host` exactly, if any.
fn bound_credential(global: &Global, host: &str) -> Result<Option<String>, CliError> {
    let app = global.app(&[])?;
    Ok(entries(&app, CREDENTIALS)
        .into_iter()
        .find(|e| e.rsplit_once('=').is_some_and(|(h, _)| h == host)))
}

/// The secret (`NAME[@HEADER]`) Smith sends to HTTP server `server`'s host, if any.
fn secret_of(global: &Global, server: &Server) -> Result<Option<String>, CliError> {
    let Some(host) = server
        .url
        .as_deref()
        .and_then(|u| smith_app::mcp::host_port(u).ok())
    else {
        return Ok(None);
    };
    Ok(
        bound_credential(global, &host)?
            .and_then(|e| e.rsplit_once('=').map(|(_, s)| s.to_owned())),
    )
}

/// Whether secret `name` is registered: in the user's store, or named in `secrets.env`.
fn secret_known(global: &Global, name: &str) -> Result<bool, CliError> {
    let app = global.app(&[])?;
    if entries(&app, "secrets.env").iter().any(|n| n == name) {
        return Ok(true);
    }
    let Some(path) = app.paths.secrets_file() else {
        return Ok(false);
    };
    let stored =
        smith_app::secrets::stored(&path).map_err(|e| crate::command_error::secrets(&e))?;
    Ok(stored.iter().any(|s| s.name == name))
}

/// What removing HTTP server `url` takes from the configuration: its host from the allow
/// list and the credential bound to it — unless another of `others` is on the same host.
fn http_release(global: &Global, url: &str, others: &[&Server]) -> Result<Vec<Edit>, CliError> {
    let Ok(host) = smith_app::mcp::host_port(url) else {
        return Ok(Vec::new());
    };
    let shared = others.iter().any(|o| {
        o.url
            .as_deref()
            .is_some_and(|u| smith_app::mcp::host_port(u).as_deref() == Ok(host.as_str()))
    });
    if shared {
        return Ok(Vec::new());
    }
    let mut edits = vec![Edit {
        key: ALLOW.to_owned(),
        value: host.clone(),
        how: How::Take,
    }];
    if let Some(entry) = bound_credential(global, &host)? {
        edits.push(Edit {
            key: CREDENTIALS.to_owned(),
            value: entry,
            how: How::Take,
        });
    }
    Ok(edits)
}

/// The configuration keys widening server `name`'s sandbox (its kept program `mcp-NAME`).
fn sandbox_keys(name: &str) -> [String; 2] {
    let program = format!("plugins.mcp-client.programs.mcp-{name}");
    [
        format!("{program}.network"),
        format!("{program}.writable-roots"),
    ]
}

/// The widening `--network` and `--writable-root` ask for server `name`: each root made
/// absolute (from the current directory) and checked to be a directory.
fn sandbox_edits(name: &str, network: bool, roots: &[String]) -> Result<Vec<Edit>, CliError> {
    let [network_key, roots_key] = sandbox_keys(name);
    let mut edits = Vec::new();
    if network {
        edits.push(Edit {
            key: network_key,
            value: "allow".to_owned(),
            how: How::Replace,
        });
    }
    let mut absolute = Vec::new();
    for root in roots {
        let real = std::path::Path::new(root)
            .canonicalize()
            .ok()
            .filter(|p| p.is_dir())
            .ok_or_else(|| {
                CliError::new(
                    exit::USAGE,
                    format!(
                        "smith mcp add: --writable-root `{}` is not an existing directory; create it first",
                        smith_render_plain::printable(root)
                    ),
                )
            })?;
        let text = real.display().to_string();
        if text.contains(',') {
            return Err(CliError::new(
                exit::USAGE,
                format!(
                    "smith mcp add: --writable-root `{text}` holds a comma, which the setting's list cannot hold"
                ),
            ));
        }
        absolute.push(text);
    }
    if !absolute.is_empty() {
        edits.push(Edit {
            key: roots_key,
            value: absolute.join(","),
            how: How::Replace,
        });
    }
    Ok(edits)
}

/// What `smith mcp add --network` and `--writable-root` wrote for server `name`
/// (`plugins.mcp-client.programs.mcp-NAME.*`): network, writable roots.
fn added_widening(global: &Global, name: &str) -> Result<(bool, Vec<String>), CliError> {
    let app = global.app(&[])?;
    let [network_key, roots_key] = sandbox_keys(name);
    let text = |key: &str| match app.settings.resolved.get(key).map(|v| &v.value) {
        Some(smith_config::Value::String(text)) => text.trim().to_owned(),
        _ => String::new(),
    };
    let roots = text(&roots_key)
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
        .collect();
    Ok((text(&network_key) == "allow", roots))
}

/// How server `name`'s sandbox is widened, from the settings: network, writable roots.
fn widening(global: &Global, name: &str) -> Result<(bool, Vec<String>), CliError> {
    let app = global.app(&[])?;
    // A project's server never gets the widening the user gave a program of its name.
    let declared = smith_app::mcp::declared(&app.settings).unwrap_or_default();
    if declared.get(name).is_some_and(|d| !d.user) {
        return Ok((false, Vec::new()));
    }
    let [network_key, roots_key] = sandbox_keys(name);
    let text = |key: &str| match app.settings.resolved.get(key).map(|v| &v.value) {
        Some(smith_config::Value::String(text)) => text.trim().to_owned(),
        _ => String::new(),
    };
    // A configured server's own `network` and `writable-roots` widen it too.
    let declared = |field: &str| text(&format!("mcp.server.{name}.{field}"));
    let roots = [text(&roots_key), declared("writable-roots")]
        .iter()
        .flat_map(|t| {
            t.split(',')
                .map(str::trim)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|r| !r.is_empty())
        .collect();
    Ok((
        text(&network_key) == "allow" || declared("network") == "allow",
        roots,
    ))
}

/// Write `edits` to the user's configuration file; what was written, in words.
fn write_edits(global: &Global, edits: &[Edit], doing: &str) -> Result<String, CliError> {
    if edits.is_empty() {
        return Ok(String::new());
    }
    let app = global.app(&[])?;
    let path = app
        .paths
        .require_user_config()
        .map_err(|e| crate::command_error::no_home(&e))?
        .to_owned();
    let mut said = String::new();
    for edit in edits {
        let mut list = entries(&app, &edit.key);
        let value = match edit.how {
            How::Replace => edit.value.clone(),
            How::Add if list.contains(&edit.value) => continue,
            How::Add => {
                list.push(edit.value.clone());
                list.join(",")
            }
            How::Take if !list.contains(&edit.value) => continue,
            How::Take => {
                list.retain(|e| *e != edit.value);
                list.join(",")
            }
        };
        let key = &edit.key;
        smith_config::set_in_file(&path, key, &value).map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!(
                    "smith mcp {doing}: {key} could not be written to {}: {e}; set it with smith config set {key} '{value}'",
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
