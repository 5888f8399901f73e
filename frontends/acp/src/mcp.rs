//! The MCP servers an editor passes in `session/new`, `session/load` and `session/resume`
//! (ACP: Session Setup — MCP servers), given to the session's runner for the bundled MCP
//! client, which connects them as it connects configured ones: a stdio server is a program
//! kept across calls inside the sandbox, an HTTP server is reached through the network
//! facility (`mcpCapabilities.http`). SSE, deprecated in MCP, is not offered: such a server is
//! skipped with a warning on stderr, as is one whose entry cannot work.

use std::collections::BTreeMap;

use agent_client_protocol_schema::v1::McpServer;
use smith_app::Runner;
use smith_app::mcp::{MAX_NAME, Server, valid_name};

/// The name a server is offered under: the editor's, each character a server name cannot
/// hold written as `-`, cut to [`MAX_NAME`] bytes (`GitHub MCP` is `GitHub-MCP`); none when
/// nothing usable is left.
pub(crate) fn server_name(given: &str) -> Option<String> {
    let mut name = String::new();
    for c in given.trim().chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '-' };
        if !(c == '-' && (name.is_empty() || name.ends_with('-'))) {
            name.push(c);
        }
    }
    name.truncate(MAX_NAME);
    let name = name.trim_end_matches('-').to_owned();
    valid_name(&name).then_some(name)
}

/// `given` as the runner's servers by name, and a warning for each one skipped.
pub(crate) fn servers(given: &[McpServer]) -> (BTreeMap<String, Server>, Vec<String>) {
    let mut out = BTreeMap::new();
    let mut warnings = Vec::new();
    for s in given {
        let (name, server) = match s {
            McpServer::Stdio(s) => (
                &s.name,
                Server {
                    command: s.command.display().to_string(),
                    args: s.args.clone(),
                    env: s
                        .env
                        .iter()
                        .map(|v| (v.name.clone(), v.value.clone()))
                        .collect(),
                    ..Server::default()
                },
            ),
            McpServer::Http(s) => (
                &s.name,
                Server {
                    url: Some(s.url.clone()),
                    headers: s
                        .headers
                        .iter()
                        .map(|h| (h.name.clone(), h.value.clone()))
                        .collect(),
                    ..Server::default()
                },
            ),
            McpServer::Sse(s) => {
                warnings.push(format!(
                    "warning: MCP server {:?} is not connected: it speaks SSE, which MCP deprecated and Smith does not offer (initialize says mcpCapabilities.sse: false); use its Streamable HTTP endpoint",
                    s.name
                ));
                continue;
            }
            _ => {
                warnings.push(
                    "warning: an MCP server of a transport Smith does not know was not connected"
                        .to_owned(),
                );
                continue;
            }
        };
        let Some(offered) = server_name(name) else {
            warnings.push(format!(
                "warning: MCP server {name:?} is not connected: no server name can be made of it (letters, digits and `-`; not add, list, get, remove or serve)"
            ));
            continue;
        };
        if out
            .keys()
            .any(|k: &String| k.eq_ignore_ascii_case(&offered))
        {
            warnings.push(format!(
                "warning: MCP server {name:?} is not connected: another server the editor passed is named {offered:?} too (or so but for case)"
            ));
            continue;
        }
        if let Err(e) = smith_app::mcp::check(&offered, &server) {
            warnings.push(format!(
                "warning: MCP server {name:?} is not connected: {e}"
            ));
            continue;
        }
        out.insert(offered, server);
    }
    (out, warnings)
}

/// Give `runner` the servers of `given`, each skipped one said on stderr by `diagnose`: also
/// one named like a server added or configured but for case.
pub(crate) fn declare(runner: &mut Runner, given: &[McpServer], diagnose: impl Fn(&str)) {
    let (mut servers, mut warnings) = servers(given);
    let known: Vec<String> = smith_app::mcp::known(runner.app())
        .map(|k| k.into_keys().collect())
        .unwrap_or_default();
    servers.retain(
        |name, _| match smith_app::mcp::distinct(std::iter::once(name), known.iter()) {
            Ok(()) => true,
            Err(why) => {
                warnings.push(format!("warning: {why}; the editor's is not connected"));
                false
            }
        },
    );
    for warning in &warnings {
        diagnose(warning);
    }
    if servers.is_empty() {
        return;
    }
    if let Err(e) = runner.declare_mcp_servers(servers) {
        // Each was checked above; a failure here is a defect, said rather than hidden.
        diagnose(&format!(
            "warning: the MCP servers the editor passed are not connected: {e}"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_editors_names_become_server_names() {
        for (given, want) in [
            ("github", Some("github")),
            ("GitHub MCP", Some("GitHub-MCP")),
            ("  a__b  ", Some("a-b")),
            ("ünïcode", Some("n-code")),
            ("---", None),
            ("list", None),
            ("", None),
        ] {
            assert_eq!(server_name(given).as_deref(), want, "{given:?}");
        }
        assert_eq!(server_name(&"x".repeat(40)).unwrap().len(), MAX_NAME);
    }
}
