//! The MCP servers the user added, for the bundled `mcp-client` plugin: kept in its `user`
//! state (slot `servers`, version 1: `{NAME: {"command", "args", "env", "cwd",
//! "timeout_ms", "call_timeout_ms", "url", "headers"}}`), which the plugin reads at its
//! discovery and calls; and what it listed from each (slot `listed`: per added server a digest
//! of the entry its tools were listed with, each tool's MCP name, or why the last listing
//! failed; slot `declared`: the same per declared server, by `NAME@DIGEST`). The plugin owns
//! the format; this module is how `smith mcp add`, `list`, `get` and `remove` read and change
//! it, atomically. The servers declared in configuration or by an editor: [`declared`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use smith::{ScopedState, StateKey, StateScope, StateValue};

use crate::paths::Paths;

/// The plugin that owns the servers' state.
pub const OWNER: &str = "mcp-client";

mod declared;
pub use declared::{Declared, INPUT, declared, distinct, from_editor, give, widenings};

/// The version of the `servers` and `listed` slots (the plugin's manifest declares it).
const SLOT_VERSION: u32 = 1;

/// Names that are `smith mcp` subcommands, refused as server names.
pub const RESERVED: [&str; 5] = ["add", "list", "get", "remove", "serve"];

/// The longest server name (a tool is offered as `mcp__NAME__TOOL`, at most 64 bytes).
pub const MAX_NAME: usize = 32;

/// One server: a program spoken to over its standard input and output (`command`), or a
/// Streamable HTTP endpoint (`url`) — exactly one of the two.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct Server {
    /// The program: a path, or a name looked up in `PATH`; empty for an HTTP server.
    #[serde(default)]
    pub command: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables set for it on top of the baseline environment (no credentials are passed
    /// otherwise).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Its working directory, relative to the session's; none: the session's.
    #[serde(default)]
    pub cwd: Option<String>,
    /// How long it may take to answer `initialize` or `tools/list`, in milliseconds (none:
    /// 30 000; at most [`MAX_TIMEOUT_MS`]).
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// How long it may stay silent during a tool call (its progress counts), in milliseconds
    /// (none: 300 000; at most [`MAX_CALL_TIMEOUT_MS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_ms: Option<u64>,
    /// The Streamable HTTP endpoint: an absolute `http` or `https` URL; none for a program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Headers sent with every request to `url`, recorded in the session with each request
    /// (a secret goes through the user's `plugins.mcp-client.net.credentials` instead).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
}

/// Headers the MCP client sets itself, refused in a server's `headers` and for its secret
/// (besides those the host sets, [`reserved_header`]).
pub const CLIENT_HEADERS: [&str; 4] = [
    "content-type",
    "accept",
    "mcp-session-id",
    "mcp-protocol-version",
];

/// Whether header `name` is set by the MCP client or the host itself, so a server's entry may
/// not give it (nor send a secret in it).
pub fn reserved_header(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CLIENT_HEADERS.contains(&name.as_str())
        || smith_host::net::HOST_SET_HEADERS.contains(&name.as_str())
}

/// Where an HTTP server is: `host:port` as a `plugins.ID.net.allow` pattern names it (an IPv6
/// address in brackets), from `url`.
///
/// # Errors
/// What keeps `url` from naming a server Smith can reach, in words naming the part: not
/// `http`/`https`, user information, no host, a host that is not ASCII or ends in a dot, a
/// port out of range, whitespace, a fragment.
pub fn host_port(url: &str) -> Result<String, String> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Err("is not an absolute URL (it has no `http://` or `https://`)".to_owned());
    };
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        other => {
            return Err(format!(
                "uses `{other}`; an MCP server's URL is http or https"
            ));
        }
    };
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("holds whitespace or a control character; percent-encode it".to_owned());
    }
    if url.contains('#') {
        return Err("holds a fragment (`#…`), which is never sent; leave it out".to_owned());
    }
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    if authority.contains('@') {
        return Err(
            "holds user information (`user@`); give credentials with --secret instead".to_owned(),
        );
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6
            .split_once(']')
            .ok_or("has an IPv6 address in `[` without `]`")?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or("has something after `]` that is not `:PORT`")?,
            ),
        };
        (format!("[{host}]"), port)
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_owned(), Some(port)),
            None => (authority.to_owned(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("has no host".to_owned());
    }
    // An IPv6 address is written as the host will compare it (RFC 5952: `[::1]`); one that
    // maps an IPv4 address is written as that address.
    let host = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => {
            let addr: std::net::Ipv6Addr = v6
                .parse()
                .map_err(|_| format!("has `[{v6}]`, which is not an IPv6 address"))?;
            if let Some(v4) = addr.to_ipv4_mapped() {
                return Err(format!(
                    "has `[{v6}]`, an IPv4 address in IPv6 form; write it as {v4}"
                ));
            }
            format!("[{addr}]")
        }
        None => host,
    };
    if !host.is_ascii() {
        return Err(format!(
            "has the host `{host}`, which is not ASCII; write an internationalized name in its `xn--` form"
        ));
    }
    if host.ends_with('.') {
        return Err(format!(
            "has the host `{host}`, ending in a dot; leave the dot out"
        ));
    }
    if !host.starts_with('[')
        && (host.len() > 253
            || !host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'))
    {
        return Err(format!(
            "has the host `{host}`; a host is a name of letters, digits, `-` and `.` (at most 253), or an address"
        ));
    }
    let port = match port {
        Some(p) => p
            .parse::<u16>()
            .ok()
            .filter(|n| *n != 0 && p.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| format!("has the port `{p}`, not a number from 1 to 65535"))?,
        None => default,
    };
    let pattern = format!("{}:{port}", host.to_ascii_lowercase());
    // What the user's network rules will hold must read back as a pattern.
    pattern
        .parse::<smith_host::net::HostPattern>()
        .map_err(|e| format!("has a host Smith cannot allow: {}", e.why))?;
    Ok(pattern)
}

/// The longest `timeout_ms`: 10 minutes.
pub const MAX_TIMEOUT_MS: u64 = 600_000;

/// The longest `call_timeout_ms`: an hour.
pub const MAX_CALL_TIMEOUT_MS: u64 = 3_600_000;

/// The most servers that run at once in a session (the host keeps at most 8 programs per
/// plugin); more may be added, and those beyond fail to start while 8 run.
pub const MAX_RUNNING: usize = 8;

/// What the plugin last listed from one server.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct Listed {
    /// The configuration its tools were listed with (empty: list again).
    #[serde(default)]
    pub fingerprint: String,
    /// Each offered tool's MCP name, by the name Smith offers it under.
    #[serde(default)]
    pub tools: BTreeMap<String, String>,
    /// Why the last listing failed.
    #[serde(default)]
    pub error: Option<String>,
}

/// A digest of `server`'s entry (FNV-1a, 64 bits, hex, of its JSON) — what the plugin records
/// a listing with ([`Listed::fingerprint`]), so no variable or header value is kept with it.
pub fn fingerprint(server: &Server) -> String {
    let text = serde_json::to_string(server).unwrap_or_default();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// What the plugin last listed: the added servers' listings by name (slot `listed`), and
/// the declared servers' by `NAME@FINGERPRINT` (slot `declared`).
#[derive(Clone, Debug, Default)]
pub struct Listings {
    added: BTreeMap<String, Listed>,
    declared: BTreeMap<String, Listed>,
}

impl Listings {
    /// The listing of server `name` with entry `server`, declared or added.
    pub fn of(&self, name: &str, server: &Server, declared: bool) -> Option<&Listed> {
        if declared {
            self.declared
                .get(&format!("{name}@{}", fingerprint(server)))
        } else {
            self.added.get(name)
        }
    }
}

/// What a server's tools are known as, from what the plugin last listed (`smith mcp list`,
/// `/mcp`, `/status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerState<'a> {
    /// Listed with its present entry.
    Listed(&'a Listed),
    /// The last listing failed, and why.
    Failed(&'a str),
    /// Never listed, or its entry changed since.
    Unlisted,
}

impl<'a> ServerState<'a> {
    /// The state of `server` given what was last listed from it (none: never).
    pub fn of(server: &Server, listed: Option<&'a Listed>) -> Self {
        match listed {
            Some(l) if l.error.is_some() => Self::Failed(l.error.as_deref().unwrap_or_default()),
            Some(l) if l.fingerprint == fingerprint(server) => Self::Listed(l),
            _ => Self::Unlisted,
        }
    }

    /// In words: `3 tools`, `failed: WHY`, or when its tools will be listed.
    pub fn words(&self) -> String {
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

    /// Its tools, `(name offered as, MCP name)`; none unless listed.
    pub fn tools(&self) -> Vec<(&'a str, &'a str)> {
        match self {
            Self::Listed(l) => l
                .tools
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Its name in JSON records: `listed`, `failed`, `unlisted`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Listed(_) => "listed",
            Self::Failed(_) => "failed",
            Self::Unlisted => "unlisted",
        }
    }
}

/// Why the servers could not be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// No data home: nothing can be kept.
    #[error("no data home is set, so no MCP server can be kept")]
    NoHome,
    /// A name that cannot name a server.
    #[error(
        "`{0}` cannot name an MCP server: a name is 1 to {MAX_NAME} letters, digits and `-`, starting with a letter or digit, and not one of add, list, get, remove, serve"
    )]
    BadName(String),
    /// A server of that name exists.
    #[error("an MCP server named `{0}` is already added")]
    Exists(String),
    /// No server of that name.
    #[error("no MCP server is named `{0}`")]
    Unknown(String),
    /// The entry is malformed.
    #[error("MCP server `{name}`: {why}")]
    BadEntry {
        /// The server's name.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// The state file could not be read or written.
    #[error("the MCP servers' state: {0}")]
    State(#[from] smith::StateError),
    /// A server the configuration declares cannot be used.
    #[error("{0}")]
    Configured(String),
    /// The server is declared in the configuration, not added.
    #[error(
        "MCP server `{name}` is declared in the configuration ({origin}), not added with smith mcp add; change it there"
    )]
    Declared {
        /// The server's name.
        name: String,
        /// Where it is declared (`FILE:LINE`).
        origin: String,
    },
}

/// Reconnect server `name` for the session `resident` holds (none: no session's program to
/// stop): its kept program stopped, what it listed forgotten, so the next turn lists its tools
/// afresh — starting it again — and a server that failed is tried again. What was done, in
/// words.
///
/// # Errors
/// [`McpError::Unknown`] for a server nobody added or declared; the state's failure.
pub fn reconnect(
    app: &crate::App,
    resident: Option<&smith::Resident>,
    name: &str,
) -> Result<String, McpError> {
    let all = known(app)?;
    let (server, _) = all
        .get(name)
        .ok_or_else(|| McpError::Unknown(name.to_owned()))?;
    let store = Servers::new(&app.paths)?;
    let _held = store.lock(|| {})?;
    store.forget(name)?;
    let stopped = match (&server.url, resident) {
        (None, Some(resident)) => {
            smith_host::process::stop_kept_program(resident, OWNER, &format!("mcp-{name}"))
        }
        _ => None,
    };
    let done = match (stopped, &server.url, resident) {
        (Some(how), _, _) => format!("its program was stopped ({how})"),
        (None, None, Some(_)) => "its program was not running".to_owned(),
        (None, None, None) => {
            "no session open here keeps its program (one another process runs goes on)".to_owned()
        }
        (None, Some(_), _) => "it is reached over HTTP, with no program to stop".to_owned(),
    };
    Ok(format!(
        "MCP server `{name}` reconnected: {done}; its tools are listed afresh at the next turn"
    ))
}

/// The servers a session in `app`'s configuration uses, by name: those added with
/// `smith mcp add` (origin none), replaced by those the configuration declares (origin
/// `FILE:LINE`).
///
/// # Errors
/// [`McpError::State`] or [`McpError::BadEntry`] when the added ones cannot be read;
/// [`McpError::Configured`] for a declared one that cannot be used.
pub fn known(app: &crate::App) -> Result<BTreeMap<String, (Server, Option<String>)>, McpError> {
    let mut all: BTreeMap<String, (Server, Option<String>)> = Servers::new(&app.paths)?
        .list()?
        .into_iter()
        .map(|(name, server)| (name, (server, None)))
        .collect();
    let declared = declared(&app.settings).map_err(|e| McpError::Configured(e.to_string()))?;
    distinct(declared.keys(), all.keys()).map_err(McpError::Configured)?;
    for (name, d) in declared {
        all.insert(name, (d.server, Some(d.origin)));
    }
    Ok(all)
}

/// Whether `name` may name a server.
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !RESERVED.contains(&name)
}

/// The user's MCP servers in the data home of `paths`.
pub struct Servers {
    files: crate::state::StateFiles,
    /// The file whose lock serializes changes (`smith mcp add` run in parallel).
    lock: std::path::PathBuf,
}

impl Servers {
    /// The servers kept under `paths`' data home.
    ///
    /// # Errors
    /// [`McpError::NoHome`].
    pub fn new(paths: &Paths) -> Result<Self, McpError> {
        let root = paths.state().ok_or(McpError::NoHome)?;
        // User state does not depend on the project.
        Ok(Self {
            files: crate::state::StateFiles::new(&root, Path::new("/")),
            lock: root.join("mcp-servers.lock"),
        })
    }

    /// Hold the servers for a change: an exclusive lock, kept until the file returned is
    /// dropped, so changes made at once (several `smith mcp add` in parallel) are made one
    /// after another instead of losing each other. `waiting` is called first when another
    /// process holds it (then this waits for it).
    ///
    /// # Errors
    /// [`McpError::State`] when the lock file cannot be opened or locked.
    pub fn lock(&self, waiting: impl FnOnce()) -> Result<std::fs::File, McpError> {
        let fail = |e: std::io::Error| {
            McpError::State(smith::StateError::Storage {
                scope: "user",
                source: format!("{}: {e}", self.lock.display()).into(),
            })
        };
        if let Some(dir) = self.lock.parent() {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock)
            .map_err(fail)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                waiting();
                file.lock().map_err(fail)?;
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(fail(e)),
        }
        Ok(file)
    }

    fn key(name: &str) -> StateKey {
        StateKey {
            owner: OWNER.to_owned(),
            name: name.to_owned(),
            scope: StateScope::User,
        }
    }

    fn read<T: serde::de::DeserializeOwned + Default>(&self, slot: &str) -> Result<T, McpError> {
        Ok(match self.files.get(&Self::key(slot))? {
            Some(v) if v.version == SLOT_VERSION => {
                serde_json::from_value(v.value).map_err(|e| McpError::BadEntry {
                    name: format!("(state `{slot}`)"),
                    why: format!("it is not what the mcp-client plugin writes: {e}"),
                })?
            }
            _ => T::default(),
        })
    }

    /// The servers, by name.
    ///
    /// # Errors
    /// [`McpError::State`] or [`McpError::BadEntry`] when the file cannot be read.
    pub fn list(&self) -> Result<BTreeMap<String, Server>, McpError> {
        self.read("servers")
    }

    /// What the plugin last listed from each server added, by name.
    ///
    /// # Errors
    /// As [`Servers::list`].
    pub fn listed(&self) -> Result<BTreeMap<String, Listed>, McpError> {
        self.read("listed")
    }

    /// What the plugin last listed, added and declared servers alike.
    ///
    /// # Errors
    /// As [`Servers::list`].
    pub fn listings(&self) -> Result<Listings, McpError> {
        #[derive(Deserialize, Default)]
        struct Kept {
            #[serde(default)]
            listed: Listed,
        }
        let declared: BTreeMap<String, Kept> = self.read("declared")?;
        Ok(Listings {
            added: self.listed()?,
            declared: declared.into_iter().map(|(k, v)| (k, v.listed)).collect(),
        })
    }

    fn write(&self, servers: &BTreeMap<String, Server>) -> Result<(), McpError> {
        let value = serde_json::to_value(servers).map_err(|e| McpError::BadEntry {
            name: String::new(),
            why: e.to_string(),
        })?;
        self.set("servers", value)
    }

    fn set(&self, slot: &str, value: serde_json::Value) -> Result<(), McpError> {
        self.files.set(
            &Self::key(slot),
            Some(StateValue {
                version: SLOT_VERSION,
                value,
            }),
            None,
        )?;
        Ok(())
    }

    /// Add `server` as `name`.
    ///
    /// # Errors
    /// [`McpError::BadName`], [`McpError::Exists`], [`McpError::BadEntry`] (an empty
    /// command, a variable name that is empty or holds `=` or NUL, a NUL anywhere), or the
    /// state's failure; nothing was written.
    pub fn add(&self, name: &str, server: Server) -> Result<(), McpError> {
        check(name, &server)?;
        let mut servers = self.list()?;
        if let Some(known) = servers.keys().find(|k| k.eq_ignore_ascii_case(name)) {
            return Err(McpError::Exists(known.clone()));
        }
        servers.insert(name.to_owned(), server);
        self.write(&servers)
    }

    /// Remove server `name`.
    ///
    /// # Errors
    /// [`McpError::Unknown`], or the state's failure.
    pub fn remove(&self, name: &str) -> Result<Server, McpError> {
        let mut servers = self.list()?;
        let removed = servers
            .remove(name)
            .ok_or_else(|| McpError::Unknown(name.to_owned()))?;
        self.write(&servers)?;
        // What was listed from it goes too, so a server added again under the name is listed
        // afresh (the plugin would drop it at its next discovery anyway).
        self.forget(name)?;
        Ok(removed)
    }

    /// Forget what was listed from server `name` — its listing and its cached tools — so the
    /// plugin lists it afresh at the next turn (of any process: the change of its state asks
    /// it again).
    ///
    /// # Errors
    /// The state's failure.
    pub fn forget(&self, name: &str) -> Result<(), McpError> {
        let mut listed = self.listed()?;
        if listed.remove(name).is_some() {
            self.set("listed", serde_json::to_value(&listed).unwrap_or_default())?;
        }
        let mut declared: BTreeMap<String, serde_json::Value> = self.read("declared")?;
        let before = declared.len();
        declared.retain(|key, _| key.rsplit_once('@').is_none_or(|(n, _)| n != name));
        if declared.len() != before {
            self.set(
                "declared",
                serde_json::to_value(&declared).unwrap_or_default(),
            )?;
        }
        let prefix = format!("mcp__{name}__");
        let cached: Vec<serde_json::Value> = self.read("tools")?;
        let kept: Vec<&serde_json::Value> = cached
            .iter()
            .filter(|t| !t["name"].as_str().is_some_and(|n| n.starts_with(&prefix)))
            .collect();
        if kept.len() != cached.len() {
            self.set("tools", serde_json::to_value(&kept).unwrap_or_default())?;
        }
        Ok(())
    }
}

/// Check server `name`'s entry as `smith mcp add` and the configuration give it.
///
/// # Errors
/// [`McpError::BadName`] or [`McpError::BadEntry`]: neither a command nor a url, or both; an
/// empty command; a variable name that is empty or holds `=`; a NUL anywhere; a timeout out
/// of range; a bad URL or header.
pub fn check(name: &str, server: &Server) -> Result<(), McpError> {
    if !valid_name(name) {
        return Err(McpError::BadName(name.to_owned()));
    }
    let bad = |why: &str| McpError::BadEntry {
        name: name.to_owned(),
        why: why.to_owned(),
    };
    match (&server.url, server.command.trim().is_empty()) {
        (None, true) => {
            return Err(bad(
                "it has neither a command (a program spoken to over stdio) nor a url (a Streamable HTTP endpoint)",
            ));
        }
        (Some(_), false) => {
            return Err(bad(
                "it has both a command and a url; a server is one or the other",
            ));
        }
        (Some(url), true) => check_http(name, url, server)?,
        (None, false) if !server.headers.is_empty() => {
            return Err(bad(
                "headers go with a url; a program is given variables (env) instead",
            ));
        }
        (None, false) => {}
    }
    let texts = std::iter::once(&server.command)
        .chain(&server.args)
        .chain(server.env.values())
        .chain(server.cwd.iter());
    if texts.into_iter().any(|t| t.contains('\0')) {
        return Err(bad("a NUL byte cannot be passed to a program"));
    }
    if let Some(key) = server.env.keys().find(|k| {
        k.is_empty()
            || k.chars()
                .any(|c| c == '=' || c.is_whitespace() || c.is_control())
    }) {
        return Err(McpError::BadEntry {
            name: name.to_owned(),
            why: format!("`{key}` cannot name an environment variable"),
        });
    }
    for (limit, given, what) in [
        (MAX_TIMEOUT_MS, server.timeout_ms, "its timeout"),
        (
            MAX_CALL_TIMEOUT_MS,
            server.call_timeout_ms,
            "its call timeout",
        ),
    ] {
        if given.is_some_and(|ms| !(1_000..=limit).contains(&ms)) {
            return Err(McpError::BadEntry {
                name: name.to_owned(),
                why: format!("{what} must be from 1 to {} seconds", limit / 1000),
            });
        }
    }
    Ok(())
}

/// Check the HTTP parts of server `name`'s entry.
fn check_http(name: &str, url: &str, server: &Server) -> Result<(), McpError> {
    let bad = |why: String| McpError::BadEntry {
        name: name.to_owned(),
        why,
    };
    if let Err(why) = host_port(url) {
        return Err(bad(format!("the URL `{url}` {why}")));
    }
    if !server.args.is_empty() || !server.env.is_empty() || server.cwd.is_some() {
        return Err(bad(
            "arguments, variables (env) and a working directory go with a program; an HTTP server has a url and headers"
                .to_owned(),
        ));
    }
    for (key, value) in &server.headers {
        let token = !key.is_empty()
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token {
            return Err(bad(format!("`{key}` cannot name an HTTP header")));
        }
        if reserved_header(key) {
            return Err(bad(format!(
                "header `{key}` is set by Smith itself and cannot be given"
            )));
        }
        if value.chars().any(|c| c.is_control() && c != '\t') {
            return Err(bad(format!(
                "header `{key}`'s value holds a line break or another control character"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for good in ["fs", "github-2", "A1"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "-x", "a_b", "a b", "list", "serve", &"x".repeat(33)] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn an_http_servers_host_is_named_as_a_net_pattern_names_it() {
        for (url, want) in [
            ("http://127.0.0.1:8000/mcp", Ok("127.0.0.1:8000")),
            ("https://MCP.example.com/mcp", Ok("mcp.example.com:443")),
            ("http://example.com", Ok("example.com:80")),
            ("http://[::1]:9/x?y", Ok("[::1]:9")),
            ("ftp://example.com/", Err("uses `ftp`")),
            ("http:///mcp", Err("has no host")),
            ("http://user@example.com/", Err("user information")),
            ("http://example.com:0/", Err("the port `0`")),
            ("http://example.com:99999/", Err("the port `99999`")),
            ("example.com/mcp", Err("not an absolute URL")),
            ("http://example.com./mcp", Err("ending in a dot")),
            ("https://exämple.com/mcp", Err("not ASCII")),
            ("http://a/x y", Err("whitespace")),
            ("http://a/x#top", Err("fragment")),
            ("http://*:8080/mcp", Err("a host is a name")),
            ("http://*.example.com/mcp", Err("a host is a name")),
            ("http://[0:0:0:0:0:0:0:1]:9/mcp", Ok("[::1]:9")),
            (
                "http://[::ffff:127.0.0.1]:9/mcp",
                Err("write it as 127.0.0.1"),
            ),
            ("http://127.0.0.1:+9/mcp", Err("the port `+9`")),
        ] {
            match (host_port(url), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{url}"),
                (Err(got), Err(want)) => assert!(got.contains(want), "{url}: {got}"),
                (got, want) => panic!("{url}: {got:?}, wanted {want:?}"),
            }
        }
    }
}
