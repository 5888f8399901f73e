//! What a product handler's `runtime` questions are answered with (the WIT `runtime` import,
//! package 1.7.0): the session's usage by model from its file — the same accounting as
//! `sessions get --usage` — and the status lines every frontend can give (its plugins, the
//! MCP servers the user added). Each frontend builds a [`SessionQuery`] from what it knows of
//! the session the person is in.

use std::path::PathBuf;

use smith_host::{ModelUsage, RuntimeQuery, RuntimeStatus};

/// The session's usage by physical model, in the order each model was first used (children
/// none yet: subagents are not recorded in this session's file), from the session file at
/// `path`: every attempt, counted once; a response's usage and cost as its attempt recorded.
///
/// # Errors
/// The file cannot be opened or read (what the store says).
pub fn usage_by_model(path: &std::path::Path) -> Result<Vec<ModelUsage>, String> {
    let mut reader = smith_store::SessionReader::open(path).map_err(|e| e.to_string())?;
    let accounts = crate::inspect::usage_of(&mut reader).map_err(|e| e.to_string())?;
    let mut out: Vec<ModelUsage> = Vec::new();
    for a in &accounts.attempts {
        let model = a.model.to_string();
        let at = match out.iter().position(|u| u.model == model) {
            Some(at) => at,
            None => {
                out.push(ModelUsage {
                    model,
                    input_tokens: Some(0),
                    output_tokens: Some(0),
                    cache_read_tokens: Some(0),
                    cache_write_tokens: Some(0),
                    cost_usd: Some(0.0),
                    ..ModelUsage::default()
                });
                out.len() - 1
            }
        };
        let line = &mut out[at];
        line.attempts += 1;
        if a.message.is_none() {
            continue;
        }
        line.responses += 1;
        let add = |sum: &mut Option<u64>, n: Option<u64>| {
            *sum = sum.zip(n).map(|(s, n)| s + n);
        };
        match &a.usage {
            Some(u) => {
                add(&mut line.input_tokens, u.input);
                add(&mut line.output_tokens, u.output);
                add(&mut line.cache_read_tokens, u.cache_read);
                add(&mut line.cache_write_tokens, u.cache_write);
            }
            None => {
                line.input_tokens = None;
                line.output_tokens = None;
                line.cache_read_tokens = None;
                line.cache_write_tokens = None;
            }
        }
        line.cost_usd = line.cost_usd.zip(a.cost_usd).map(|(s, c)| s + c);
    }
    Ok(out)
}

/// The plugins as `/status` lists them: `ID VERSION (WORLD) STATE`, in load order.
pub fn plugin_lines(app: &crate::App) -> Vec<String> {
    app.registry
        .plugins()
        .iter()
        .map(|p| {
            format!(
                "{} {} ({}) {}",
                p.manifest.id,
                p.manifest.version,
                p.manifest.built_world(),
                app.registry.state_words(p)
            )
        })
        .collect()
}

/// The MCP servers the user added or configured, as `/status` and `/mcp` list them: `NAME
/// stdio COMMAND · STATE` or `NAME http URL · STATE` (with `(FILE:LINE)` after a configured
/// one's name), the state in [`crate::mcp::ServerState::words`]' words (`3 tools`, `failed:
/// WHY`, not listed yet); one line saying why when they cannot be read.
pub fn mcp_server_lines(app: &crate::App) -> Vec<String> {
    // What was listed is a courtesy: the servers are shown without it when it cannot be read.
    let listed = crate::mcp::Servers::new(&app.paths)
        .and_then(|store| store.listings())
        .unwrap_or_default();
    match crate::mcp::known(app) {
        Ok(servers) => servers
            .into_iter()
            .map(|(name, (s, origin))| {
                let state =
                    crate::mcp::ServerState::of(&s, listed.of(&name, &s, origin.is_some())).words();
                let name = match origin {
                    Some(origin) => format!("{name} ({origin})"),
                    None => name,
                };
                match &s.url {
                    Some(url) => format!("{name} http {url} · {state}"),
                    None => format!("{name} stdio {} · {state}", s.command),
                }
            })
            .collect(),
        Err(e) => vec![format!("(the servers cannot be read: {e})")],
    }
}

/// The permission mode and the sandbox a run in `cwd` starts with as the configuration and
/// the directory's trust say (before a session chose a mode of its own): `(mode, sandbox)`,
/// each `None` when it cannot be worked out (a bad setting, which the run itself reports).
pub fn configured_modes(
    app: &crate::App,
    cwd: &std::path::Path,
) -> (Option<String>, Option<String>) {
    let programs = app.settings.bool("process.allow", false)
        || matches!(app.trusted_project(cwd), Ok(Some(_)));
    let mode = crate::permissions::from_settings(&app.settings, programs)
        .ok()
        .map(|p| p.mode.name().to_owned());
    let sandbox = crate::sandbox::from_settings(&app.paths, &app.settings, cwd)
        .ok()
        .map(|s| s.describe());
    (mode, sandbox)
}

/// A frontend's answers for one command: the session file to account (none: no session
/// open), the status it knows, and how to reach the session's MCP servers.
#[derive(Clone, Debug, Default)]
pub struct SessionQuery {
    /// The session file, when one is open.
    pub path: Option<PathBuf>,
    /// Where it stands.
    pub status: RuntimeStatus,
    /// The app and the open session's resident state (its kept programs), for
    /// `reconnect-mcp-server`; none: the frontend cannot reconnect one.
    pub mcp: Option<McpReach>,
}

/// What reconnecting an MCP server needs: the app (its servers and their state) and the
/// resident state of the session the person is in (the programs it keeps; none when no
/// session of this process keeps any).
#[derive(Clone)]
pub struct McpReach {
    /// The app.
    pub app: std::sync::Arc<crate::App>,
    /// The open session's resident state.
    pub resident: Option<std::sync::Arc<smith::Resident>>,
}

impl std::fmt::Debug for McpReach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpReach")
            .field("resident", &self.resident.is_some())
            .finish_non_exhaustive()
    }
}

impl RuntimeQuery for SessionQuery {
    fn reconnect_mcp_server(&self, name: &str) -> Result<String, String> {
        let reach = self.mcp.as_ref().ok_or_else(|| {
            format!("MCP server `{name}` cannot be reconnected from here: no session is open")
        })?;
        crate::mcp::reconnect(&reach.app, reach.resident.as_deref(), name).map_err(|e| match e {
            crate::mcp::McpError::Unknown(_) => {
                format!("{e}: /mcp lists the servers added and declared")
            }
            other => other.to_string(),
        })
    }

    fn usage(&self) -> Result<Vec<ModelUsage>, String> {
        let path = self
            .path
            .as_ref()
            .ok_or("no session is open here (the usage is a session's)")?;
        usage_by_model(path)
    }

    /// What the frontend knows, and from the session file what it does not: the model the
    /// last attempt used and the context its request took (input and cache tokens).
    fn status(&self) -> RuntimeStatus {
        let mut status = self.status.clone();
        if (status.model.is_some() && status.context_tokens.is_some()) || self.path.is_none() {
            return status;
        }
        let accounts = self.path.as_deref().and_then(|path| {
            let mut reader = smith_store::SessionReader::open(path).ok()?;
            crate::inspect::usage_of(&mut reader).ok()
        });
        if let Some(accounts) = accounts {
            if status.model.is_none() {
                status.model = accounts.attempts.last().map(|a| a.selection.clone());
            }
            if status.context_tokens.is_none() {
                status.context_tokens = accounts.attempts.iter().rev().find_map(|a| {
                    let u = a.usage.as_ref()?;
                    Some(u.input? + u.cache_read.unwrap_or(0) + u.cache_write.unwrap_or(0))
                });
            }
        }
        status
    }
}
