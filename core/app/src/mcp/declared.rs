//! The MCP servers declared rather than added: in configuration (`mcp { server "NAME" { … } }`
//! in the user's file, or a trusted project's) and by an editor for one session (ACP's
//! `session/new`). They reach the `mcp-client` plugin as its input [`INPUT`] — a JSON object
//! `{NAME: {…the fields of [`Server`]…, "origin": "WHERE"}}` — which it reads beside the servers
//! `smith mcp add` keeps; a declared server replaces an added one of the same name, and an
//! editor's replaces a configured one. Nothing here is written anywhere: configuration stays
//! the source of truth, and an editor passes its servers again when it loads a session.

use std::collections::BTreeMap;

use serde::Serialize;
use smith_config::{Level, Value};

use super::{OWNER, Server, check, host_port};
use crate::registry::RegistryError;
use crate::settings::Settings;

/// The name of the input the `mcp-client` plugin reads the declared servers from (its
/// manifest's `input "mcp-servers"`).
pub const INPUT: &str = "mcp-servers";

/// One declared server and where it was declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Declared {
    /// Its entry, as `smith mcp add` would keep it.
    #[serde(flatten)]
    pub server: Server,
    /// Where it was declared: `FILE:LINE` of its `command` or `url` (else of another of its
    /// settings), or `the editor`.
    pub origin: String,
    /// Whether the user declared it — in their own configuration file, the environment or
    /// the command line — rather than a project or an editor: only then does the sandbox
    /// widening of its program (`mcp-NAME`) apply, so a project or an editor naming a server
    /// like one of the user's never inherits what the user let that one do.
    #[serde(skip)]
    pub user: bool,
}

/// The servers the configuration declares (`mcp.server.NAME.*`), by name, each checked as
/// `smith mcp add` checks an entry. An untrusted project's never reach here: its whole
/// configuration is skipped ([`crate::settings`]).
///
/// # Errors
/// [`RegistryError::McpServer`] naming the source (file and line) and the key of a server
/// with neither a `command` nor a `url` or both, a name that cannot name a server, two names
/// differing only in case, or a field `smith mcp add` would refuse.
pub fn declared(settings: &Settings) -> Result<BTreeMap<String, Declared>, RegistryError> {
    // A server is taken whole from the file that declares it with the highest precedence: a
    // trusted project declaring a server of the user's name replaces it, and inherits none of
    // its fields (its `env` may hold a token). The environment and the command line — the
    // user's own overrides — apply on top.
    let mut base: BTreeMap<&str, Level> = BTreeMap::new();
    for (key, value) in settings.resolved.iter() {
        if let Some((name, _)) = key
            .strip_prefix("mcp.server.")
            .and_then(|rest| rest.split_once('.'))
            && matches!(value.source.level, Level::User | Level::Project)
        {
            let level = base.entry(name).or_insert(value.source.level);
            *level = (*level).max(value.source.level);
        }
    }
    let mut out: BTreeMap<String, Declared> = BTreeMap::new();
    for (key, value) in settings.resolved.iter() {
        let Some((name, field)) = key
            .strip_prefix("mcp.server.")
            .and_then(|rest| rest.split_once('.'))
        else {
            continue;
        };
        let level = value.source.level;
        let from = base.get(name).copied();
        if matches!(level, Level::User | Level::Project) && from.is_some_and(|b| level < b) {
            continue;
        }
        let source = value.source.to_string();
        let bad = |why: String| RegistryError::McpServer {
            source_text: source.clone(),
            key: key.clone(),
            why,
        };
        if let Some(other) = out
            .keys()
            .find(|k| k.as_str() != name && k.eq_ignore_ascii_case(name))
        {
            return Err(bad(format!(
                "MCP servers `{other}` and `{name}` differ only in case, and their tools' names would collide; rename one"
            )));
        }
        let entry = out.entry(name.to_owned()).or_insert_with(|| Declared {
            server: Server::default(),
            origin: source.clone(),
            user: from != Some(Level::Project),
        });
        let server = &mut entry.server;
        let text = || match &value.value {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        let millis = || match &value.value {
            Value::Integer(n) => Some(n.unsigned_abs() * 1000),
            _ => None,
        };
        match field {
            "command" => server.command = text(),
            "args" => {
                server.args = smith_config::words_of(&value.value)
                    .ok_or_else(|| bad("the arguments are not a list of words".to_owned()))?;
            }
            "cwd" => server.cwd = Some(text()),
            "url" => server.url = Some(text()),
            "timeout" => server.timeout_ms = millis(),
            "call-timeout" => server.call_timeout_ms = millis(),
            // How its program's sandbox is widened: [`widenings`].
            "network" | "writable-roots" => {}
            _ => {
                // Each checked here, so a bad one is named by its own key and line.
                if let Some(var) = field.strip_prefix("env.") {
                    if var.chars().any(|c| c == '=' || c.is_control()) {
                        return Err(bad(format!("`{var}` cannot name an environment variable")));
                    }
                    server.env.insert(var.to_owned(), text());
                } else if let Some(header) = field.strip_prefix("headers.") {
                    let token = header
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-^_`|~".contains(&b));
                    if !token {
                        return Err(bad(format!("`{header}` cannot name an HTTP header")));
                    }
                    if super::reserved_header(header) {
                        return Err(bad(format!(
                            "header `{header}` is set by Smith itself and cannot be given"
                        )));
                    }
                    server.headers.insert(header.to_owned(), text());
                }
            }
        }
    }
    // Said where its `command` (or `url`) is, the line a person looks for.
    for (name, entry) in &mut out {
        if let Some(v) = ["command", "url"]
            .iter()
            .find_map(|f| settings.resolved.get(&format!("mcp.server.{name}.{f}")))
        {
            entry.origin = v.source.to_string();
        }
    }
    for (name, entry) in &out {
        check(name, &entry.server).map_err(|e| {
            let field = if entry.server.url.is_some() {
                "url"
            } else {
                "command"
            };
            let key = format!("mcp.server.{name}.{field}");
            RegistryError::McpServer {
                source_text: settings
                    .resolved
                    .get(&key)
                    .map_or_else(|| entry.origin.clone(), |v| v.source.to_string()),
                key,
                why: e.to_string(),
            }
        })?;
    }
    Ok(out)
}

/// Refuse a declared server whose name differs only in case from another one's — one of
/// `others` (the servers added, or added and configured): their tools' names would differ
/// only in case.
///
/// # Errors
/// The first such pair, in words naming both.
pub fn distinct<'a>(
    declared: impl IntoIterator<Item = &'a String>,
    others: impl IntoIterator<Item = &'a String> + Clone,
) -> Result<(), String> {
    for name in declared {
        if let Some(other) = others
            .clone()
            .into_iter()
            .find(|o| *o != name && o.eq_ignore_ascii_case(name))
        {
            return Err(format!(
                "MCP server `{name}` differs only in case from `{other}`, and their tools' names would collide; rename one"
            ));
        }
    }
    Ok(())
}

/// The servers an editor passed for its session, as declared ones (`origin`: `the editor`).
///
/// # Errors
/// The first entry `smith mcp add` would refuse, in words naming it.
pub fn from_editor(
    servers: BTreeMap<String, Server>,
) -> Result<BTreeMap<String, Declared>, super::McpError> {
    servers
        .into_iter()
        .map(|(name, server)| {
            check(&name, &server)?;
            Ok((
                name,
                Declared {
                    server,
                    origin: "the editor".to_owned(),
                    user: false,
                },
            ))
        })
        .collect()
}

/// Give the `mcp-client` plugin `servers` under `policy`, on top of those it is given already
/// (one of the same name replaced): its input [`INPUT`], and the host of each HTTP server
/// allowed to it — declaring a server's URL is the consent `smith mcp add --url` gives by
/// writing `plugins.mcp-client.net.allow`.
pub fn give(policy: &mut smith_host::Policy, servers: &BTreeMap<String, Declared>) {
    if servers.is_empty() {
        return;
    }
    let inputs = policy.inputs.entry(OWNER.to_owned()).or_default();
    let mut given = match inputs.remove(INPUT) {
        Some(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    for (name, declared) in servers {
        given.insert(
            name.clone(),
            serde_json::to_value(declared).unwrap_or_default(),
        );
    }
    inputs.insert(INPUT.to_owned(), serde_json::Value::Object(given));
    // A server a project or an editor declared runs as declared: never with the widening the
    // user gave a program of the same name.
    if let Some(programs) = policy.programs.get_mut(OWNER) {
        for (name, _) in servers.iter().filter(|(_, d)| !d.user) {
            programs.remove(&format!("mcp-{name}"));
        }
    }
    let allow = policy.net.allow.entry(OWNER.to_owned()).or_default();
    for url in servers.values().filter_map(|d| d.server.url.as_deref()) {
        if let Some(pattern) = host_port(url)
            .ok()
            .and_then(|p| p.parse::<smith_host::net::HostPattern>().ok())
            && !allow.contains(&pattern)
        {
            allow.push(pattern);
        }
    }
}

/// How the configuration widens the sandbox of declared server `NAME`'s program
/// (`mcp.server.NAME.network "allow"`, `.writable-roots "/a,/b"`), added to `programs` under
/// the plugin's kept program `mcp-NAME` (as `smith mcp add --network` would write it). A
/// project's never reach here ([`crate::settings`] drops them with a notice).
///
/// # Errors
/// [`RegistryError::SandboxPath`] for a writable root that is not absolute or not an
/// existing directory.
pub fn widenings(
    settings: &Settings,
    programs: &mut BTreeMap<String, BTreeMap<String, smith_host::sandbox::Widening>>,
) -> Result<(), RegistryError> {
    for (key, value) in settings.resolved.iter() {
        let Some((name, field)) = key
            .strip_prefix("mcp.server.")
            .and_then(|rest| rest.split_once('.'))
        else {
            continue;
        };
        let Value::String(text) = &value.value else {
            continue;
        };
        if field != "network" && field != "writable-roots" {
            continue;
        }
        let widening = programs
            .entry(OWNER.to_owned())
            .or_default()
            .entry(format!("mcp-{name}"))
            .or_default();
        match field {
            "network" => widening.network |= text == "allow",
            "writable-roots" => {
                for path in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    widening.writable_roots.push(crate::sandbox::writable_root(
                        std::path::Path::new(path),
                        &value.source.to_string(),
                        key,
                    )?);
                }
            }
            _ => {}
        }
    }
    Ok(())
}
