//! The servers the user added (slot `servers`, written by `smith mcp add`), those declared
//! (input `mcp-servers`: configured, or passed by an editor), and what was listed from each
//! (slots `tools` and `listed`).

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How long a server may take to answer `initialize` or `tools/list`, unless its entry says.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// How long a server may stay silent during a tool call (its progress counts), unless its
/// entry says.
pub const DEFAULT_CALL_TIMEOUT_MS: u64 = 300_000;

/// One server: a program spoken to over stdio (`command`), or a Streamable HTTP endpoint
/// (`url`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Server {
    /// The program: a path, or a name looked up in `PATH`; empty for an HTTP server.
    #[serde(default)]
    pub command: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Variables set for it on top of the baseline environment.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Its working directory (relative to the invocation's); none: the invocation's.
    #[serde(default)]
    pub cwd: Option<String>,
    /// How long it may take to answer `initialize` or `tools/list`, in milliseconds.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// How long it may stay silent during a tool call, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_ms: Option<u64>,
    /// The Streamable HTTP endpoint (`https://host/mcp`); none for a program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Headers sent with every request to `url` (the host adds the user's credentials for
    /// its host itself; these are recorded as they are).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
}

impl Server {
    /// Its handshake and listing timeout.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS))
    }

    /// Its tool-call silence limit.
    pub fn call_timeout(&self) -> Duration {
        Duration::from_millis(self.call_timeout_ms.unwrap_or(DEFAULT_CALL_TIMEOUT_MS))
    }

    /// What its tools were listed with, as a digest (FNV-1a, 64 bits, hex, of its entry's
    /// JSON): a change means listing them again. A digest, so no variable or header value
    /// is kept with the listing; `smith mcp list` computes the same.
    pub fn fingerprint(&self) -> String {
        let text = smith_plugin_sdk::serde_json::to_string(self).unwrap_or_default();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{hash:016x}")
    }

    /// The key of a declared server's listing: `NAME@FINGERPRINT`, so sessions declaring
    /// servers of one name with different entries keep a listing each.
    pub fn declared_key(&self, name: &str) -> String {
        format!("{name}@{}", self.fingerprint())
    }
}

/// A cached tool, as the host reads it (`{"name", "description", "input_schema"}`).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Cached {
    pub name: String,
    pub description: String,
    pub input_schema: smith_plugin_sdk::serde_json::Value,
}

/// What was listed from one server.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Listed {
    /// The configuration it was listed with ([`Server::fingerprint`]).
    pub fingerprint: String,
    /// Each offered tool's MCP name, by the name Smith offers it under.
    pub tools: BTreeMap<String, String>,
    /// Why the last listing failed (then `fingerprint` is empty: it is listed again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A declared server's listing, kept in the `declared` slot under
/// [`Server::declared_key`]: what was listed, and its tools as Smith offers them — out of the
/// `tools` cache the host offers to every session, since another session may not declare it.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Kept {
    /// The listing.
    pub listed: Listed,
    /// Its tools.
    #[serde(default)]
    pub tools: Vec<Cached>,
}

/// The servers of this session: those the user added (by name, none replaced by a declared
/// one of the same name), and those declared — configured, or passed by an editor.
#[derive(Default)]
pub struct Session {
    /// The added servers a declared one does not replace.
    pub added: BTreeMap<String, Server>,
    /// The declared servers.
    pub declared: BTreeMap<String, Server>,
    /// The added servers a declared one replaces here: their listings are kept for the
    /// sessions that use them, but their tools are not offered here.
    pub replaced: BTreeMap<String, Server>,
}

impl Session {
    /// Server `name`, and whether it is declared.
    pub fn get(&self, name: &str) -> Option<(&Server, bool)> {
        self.declared
            .get(name)
            .map(|s| (s, true))
            .or_else(|| self.added.get(name).map(|s| (s, false)))
    }

    /// Every server, by name, with whether it is declared.
    pub fn all(&self) -> impl Iterator<Item = (&String, &Server, bool)> {
        self.added
            .iter()
            .map(|(n, s)| (n, s, false))
            .chain(self.declared.iter().map(|(n, s)| (n, s, true)))
    }
}

/// The servers of this session; none when nothing is readable.
pub fn servers() -> Session {
    read_servers().unwrap_or_default()
}

/// The servers of this session, or why the `servers` slot's value cannot be read.
pub fn read_servers() -> Result<Session, String> {
    let mut added: BTreeMap<String, Server> = match smith_plugin_sdk::state::get("servers") {
        Ok(Some(text)) => smith_plugin_sdk::serde_json::from_str(&text)
            .map_err(|e| format!("the `servers` state is not what smith mcp add writes: {e}"))?,
        Ok(None) | Err(_) => BTreeMap::new(),
    };
    // Smith checked each declared entry as `smith mcp add` checks one; the extra `origin`
    // field says where it was declared.
    let declared: BTreeMap<String, Server> = match smith_plugin_sdk::state::get(DECLARED) {
        Ok(Some(text)) => smith_plugin_sdk::serde_json::from_str(&text).unwrap_or_default(),
        Ok(None) | Err(_) => BTreeMap::new(),
    };
    let replaced = added
        .iter()
        .filter(|(name, _)| declared.contains_key(*name))
        .map(|(n, s)| (n.clone(), s.clone()))
        .collect();
    added.retain(|name, _| !declared.contains_key(name));
    Ok(Session {
        added,
        declared,
        replaced,
    })
}

/// The input the declared servers come in (the manifest's `input "mcp-servers"`).
pub const DECLARED: &str = "mcp-servers";

/// The most declared servers' listings kept in the `declared` slot (beyond those of the
/// session discovering, the others' are dropped past it), so sessions given different
/// servers do not list each other's again and again.
pub const MAX_KEPT_DECLARED: usize = 32;

/// The name Smith offers server `server`'s tool `tool` under: `mcp__SERVER__TOOL`, each
/// character a tool name cannot hold written as `_`.
pub fn tool_name(server: &str, tool: &str) -> String {
    let clean: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("mcp__{server}__{clean}")
}

/// The server of tool `name` (`mcp__SERVER__TOOL`; a server name holds no `__`).
pub fn server_of(name: &str) -> Option<&str> {
    name.strip_prefix("mcp__")?.split_once("__").map(|(s, _)| s)
}
