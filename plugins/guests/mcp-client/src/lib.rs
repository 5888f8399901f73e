//! Smith's bundled MCP client (the `dynamic-tool-plugin` world): the tools of the MCP servers
//! the user added (`smith mcp add NAME -- COMMAND ARGS…`), offered as `mcp__SERVER__TOOL`.
//!
//! - `discover` (at a process's first turn, before the first request that could use the
//!   tools, and at a later turn when a server was added or removed, or said its tools
//!   changed): each
//!   server whose configuration changed since its tools were listed — or that was never
//!   listed — is started (a program kept across calls, inside the sandbox), greeted
//!   (`initialize`) and asked for its tools (`tools/list`, every page); what it lists is
//!   cached in the `tools` slot, so a later process offers the tools without starting it. A
//!   server that fails is reported once, with its standard error's last lines, and never
//!   blocks the others.
//! - `call`: the tool's server is reached (started and greeted when it is not running), asked
//!   `tools/call` with the call's id as progress token — its progress shown, a cancel passed
//!   on as `notifications/cancelled` — and its result read as text: text content, resource
//!   links and embedded text resources as they are, images and blobs named, structured
//!   content as JSON when nothing else says it.

mod config;
mod http;
mod rpc;

use std::collections::BTreeMap;

use smith_plugin_sdk::dynamic::{Discovery, Guest};
use smith_plugin_sdk::serde_json::{self, Value, json};
use smith_plugin_sdk::{Invocation, ToolDefinition, ToolOutput, state_get, state_set};

use config::{Cached, Kept, Listed, Server};
use rpc::{Conn, Failure, cut};

struct Client;

/// The most pages of `tools/list` read from one server.
const MAX_PAGES: usize = 20;

/// The most tools offered from one server.
const MAX_SERVER_TOOLS: usize = 128;

/// The longest tool description kept, in bytes.
const MAX_DESCRIPTION: usize = 2000;

/// The longest tool name a model provider takes (OpenAI's 64).
const MAX_TOOL_NAME: usize = 64;

impl Guest for Client {
    fn definitions() -> Vec<ToolDefinition> {
        Vec::new()
    }

    fn call(name: String, arguments: String, invocation: Invocation) -> ToolOutput {
        call(&name, &arguments, &invocation)
    }

    fn discover() -> Result<Discovery, String> {
        Ok(discover())
    }
}

smith_plugin_sdk::export_dynamic_tool_plugin!(Client);

fn listed_state() -> BTreeMap<String, Listed> {
    state_get("listed").ok().flatten().unwrap_or_default()
}

fn kept_state() -> BTreeMap<String, Kept> {
    state_get("declared").ok().flatten().unwrap_or_default()
}

/// What discovery keeps: the added servers' listings and their cached tools (the `tools`
/// slot the host offers until `discover` answers), and the declared servers' listings with
/// their tools (the `declared` slot, keyed by [`Server::declared_key`]).
struct Store {
    listed: BTreeMap<String, Listed>,
    cache: Vec<Cached>,
    kept: BTreeMap<String, Kept>,
}

impl Store {
    /// Record that server `name` could not be listed.
    fn failed(&mut self, name: &str, server: &Server, declared: bool, why: String) {
        let entry = Listed {
            error: Some(why),
            ..Listed::default()
        };
        if declared {
            self.kept.insert(
                server.declared_key(name),
                Kept {
                    listed: entry,
                    tools: Vec::new(),
                },
            );
        } else {
            self.listed.insert(name.to_owned(), entry);
        }
    }
}

fn discover() -> Discovery {
    let mut notices = Vec::new();
    let session = match config::read_servers() {
        Ok(session) => session,
        Err(why) => {
            notices.push(format!(
                "the MCP servers you added cannot be read ({why}); none is offered — smith mcp list says more"
            ));
            Default::default()
        }
    };
    let mut state = Store {
        listed: listed_state(),
        cache: state_get("tools").ok().flatten().unwrap_or_default(),
        kept: kept_state(),
    };
    let known = (state.listed.len(), state.cache.len(), state.kept.len());
    // A server removed goes with its listing; one a declared server replaces here keeps it
    // (another session uses it).
    let added =
        |name: &str| session.added.contains_key(name) || session.replaced.contains_key(name);
    state.listed.retain(|name, _| added(name));
    state
        .cache
        .retain(|t| config::server_of(&t.name).is_some_and(added));
    // Declared servers' listings another session may still use are kept, up to a bound.
    let mine: Vec<String> = session
        .declared
        .iter()
        .map(|(n, s)| s.declared_key(n))
        .collect();
    let mut others = state.kept.keys().filter(|k| !mine.contains(k)).count();
    state.kept.retain(|key, _| {
        if mine.contains(key) || others <= config::MAX_KEPT_DECLARED {
            return true;
        }
        others -= 1;
        false
    });
    let mut changed = known != (state.listed.len(), state.cache.len(), state.kept.len());
    // The servers to list are started together, then each is greeted and asked in turn:
    // they boot at once, so listing them all takes about as long as the slowest.
    let mut started = Vec::new();
    for (name, server, declared) in session.all() {
        let fresh = if declared {
            state
                .kept
                .get(&server.declared_key(name))
                .is_some_and(|k| k.listed.error.is_none())
        } else {
            state
                .listed
                .get(name)
                .is_some_and(|l| l.fingerprint == server.fingerprint())
        };
        if fresh {
            continue;
        }
        changed = true;
        if declared {
            state.kept.remove(&server.declared_key(name));
        } else {
            state
                .cache
                .retain(|t| config::server_of(&t.name) != Some(name));
            state.listed.remove(name);
        }
        match Conn::start(name, server) {
            Ok(conn) => started.push((name, server, declared, conn)),
            Err(failure) => {
                if let Some(why) = failed(&mut notices, name, &failure) {
                    state.failed(name, server, declared, why);
                }
            }
        }
    }
    let mut asked = Vec::new();
    for (name, server, declared, (mut conn, greeting)) in started {
        let sent = (if greeting { conn.greet(server) } else { Ok(()) })
            .and_then(|()| conn.send_request("tools/list", json!({}), &page_id(0)));
        match sent {
            Ok(()) => asked.push((name, server, declared, conn)),
            Err(failure) => {
                if let Some(why) = failed(&mut notices, name, &failure) {
                    state.failed(name, server, declared, why);
                }
            }
        }
    }
    for (name, server, declared, mut conn) in asked {
        match list(name, server, &mut conn) {
            Ok((tools, said)) => {
                notices.extend(said);
                let mut entry = Listed {
                    fingerprint: server.fingerprint(),
                    ..Listed::default()
                };
                let mut offered = Vec::new();
                for (tool, mcp) in tools {
                    entry.tools.insert(tool.name.clone(), mcp);
                    offered.push(tool);
                }
                if declared {
                    state.kept.insert(
                        server.declared_key(name),
                        Kept {
                            listed: entry,
                            tools: offered,
                        },
                    );
                } else {
                    state.cache.extend(offered);
                    state.listed.insert(name.clone(), entry);
                }
            }
            Err(failure) => {
                if let Some(why) = failed(&mut notices, name, &failure) {
                    state.failed(name, server, declared, why);
                }
            }
        }
    }
    if changed {
        keep(&mut state, &mine, &mut notices);
    }
    // The added servers' tools, then this session's declared servers' own.
    let declared_tools = session
        .declared
        .iter()
        .filter_map(|(n, s)| state.kept.get(&s.declared_key(n)))
        .flat_map(|k| k.tools.iter().cloned());
    Discovery {
        tools: state
            .cache
            .into_iter()
            // An added server a declared one replaces here is not offered here.
            .filter(|t| config::server_of(&t.name).is_some_and(|s| session.added.contains_key(s)))
            .chain(declared_tools)
            .map(|t| ToolDefinition {
                name: t.name,
                description: t.description,
                input_schema: t.input_schema.to_string(),
            })
            .collect(),
        notices,
    }
}

/// Write what discovery keeps, saying what could not be kept; `mine` are the keys of this
/// session's declared servers.
fn keep(state: &mut Store, mine: &[String], notices: &mut Vec<String>) {
    if let Err(e) = state_set("tools", &state.cache) {
        // Nothing claims a listing the cache does not hold: every server is listed again
        // by the next process.
        for entry in state.listed.values_mut() {
            entry.fingerprint.clear();
        }
        notices.push(format!(
            "the MCP servers' tools were not cached ({}); they are offered now and listed again by the next Smith process",
            state_error(&e)
        ));
    }
    if let Err(e) = state_set("listed", &state.listed) {
        notices.push(format!(
            "what the MCP servers listed was not kept ({}); they are listed again by the next Smith process",
            state_error(&e)
        ));
    }
    let mut kept = state_set("declared", &state.kept);
    if matches!(kept, Err(smith_plugin_sdk::state::StateError::TooLarge(_))) {
        // Other sessions' listings give way to this one's.
        state.kept.retain(|key, _| mine.contains(key));
        kept = state_set("declared", &state.kept);
    }
    if let Err(e) = kept {
        notices.push(format!(
            "what the declared MCP servers listed was not kept ({}); they are listed again by the next Smith process",
            state_error(&e)
        ));
    }
}

/// Say once that server `name` could not be listed: why, to record as its failure — none
/// when it is not a failure of the server (a cancelled listing, or one this session may
/// not make), which is listed again next time.
fn failed(notices: &mut Vec<String>, name: &str, failure: &Failure) -> Option<String> {
    match failure {
        Failure::Cancelled => return None,
        // Not the server's fault: it is listed at a turn where it may be reached.
        Failure::Denied(_) => {
            notices.push(format!(
                "MCP server `{name}` was not listed: this session may not reach it (a program needs a trusted project or --allow-process; a request, your permission); its tools are listed at a turn where it may"
            ));
            return None;
        }
        Failure::Other(_) => {}
    }
    let why = failure.text();
    notices.push(format!(
        "MCP server `{name}` did not list its tools: {why}; its tools are not offered (smith mcp get {name} shows its entry)"
    ));
    Some(why)
}

/// A state error in words.
fn state_error(e: &smith_plugin_sdk::state::StateError) -> String {
    use smith_plugin_sdk::state::StateError;
    match e {
        StateError::TooLarge(bytes) => format!(
            "they take {bytes} bytes, more than the cache holds; remove a server with many tools (smith mcp remove NAME)"
        ),
        StateError::Undeclared(name) => format!("the slot `{name}` is not declared"),
        StateError::Invalid(why) => format!("not JSON: {why}"),
        StateError::Unavailable(why) | StateError::Storage(why) => why.clone(),
    }
}

/// The id of `tools/list` request `page`.
fn page_id(page: usize) -> String {
    format!("smith-list-{page}")
}

/// A server's listing: each tool as Smith offers it with its MCP name, and a notice for each
/// tool it lists malformed.
type Listing = (Vec<(Cached, String)>, Vec<String>);

/// Server `name`'s tools, read from `conn`, which was sent the first page's request.
fn list(name: &str, server: &Server, conn: &mut Conn) -> Result<Listing, Failure> {
    let mut tools = Vec::new();
    let mut notices = Vec::new();
    let mut over = 0_usize;
    let mut cursors = Vec::new();
    let mut page = 0;
    loop {
        let result = conn.wait("tools/list", &page_id(page), Some(server.timeout()))?;
        for tool in result["tools"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            let Some(mcp) = tool["name"].as_str().filter(|n| !n.is_empty()) else {
                notices.push(format!(
                    "MCP server `{name}` listed a tool without a name; it was skipped"
                ));
                continue;
            };
            let offered = config::tool_name(name, mcp);
            if let Some((_, first)) = tools
                .iter()
                .find(|(t, _): &&(Cached, String)| t.name == offered)
            {
                // The same tool again (a page given twice) is not news; another tool whose
                // name is written the same way is skipped, so the tool offered under the name
                // is the one its description says.
                if first != mcp {
                    notices.push(format!(
                        "MCP server `{name}`: tool `{}` was skipped: its name is offered as `{offered}`, which `{}` already has; its other tools are offered",
                        cut(mcp, 80),
                        cut(first, 80)
                    ));
                }
                continue;
            }
            if offered.len() > MAX_TOOL_NAME {
                notices.push(format!(
                    "MCP server `{name}`: tool `{}` was skipped: as `{}` its name is over {MAX_TOOL_NAME} bytes, more than model providers take; its other tools are offered",
                    cut(mcp, 80),
                    cut(&offered, 80)
                ));
                continue;
            }
            if tools.len() == MAX_SERVER_TOOLS {
                over += 1;
                continue;
            }
            let schema = tool.get("inputSchema").cloned().unwrap_or(Value::Null);
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                notices.push(format!(
                    "MCP server `{name}`: tool `{}` was skipped: its input schema is not an object schema (`\"type\": \"object\"`); its other tools are offered",
                    cut(mcp, 80)
                ));
                continue;
            }
            let description = tool["description"]
                .as_str()
                .or_else(|| tool["title"].as_str())
                .unwrap_or_default();
            tools.push((
                Cached {
                    name: offered,
                    description: format!(
                        "{} (MCP server `{name}`)",
                        cut(description, MAX_DESCRIPTION)
                    ),
                    input_schema: schema,
                },
                mcp.to_owned(),
            ));
        }
        let Some(cursor) = result["nextCursor"].as_str() else {
            break;
        };
        if cursors.iter().any(|c| c == cursor) {
            notices.push(format!(
                "MCP server `{name}` gave the page cursor `{}` twice; its tools are read up to there",
                cut(cursor, 80)
            ));
            break;
        }
        cursors.push(cursor.to_owned());
        page += 1;
        if page == MAX_PAGES {
            notices.push(format!(
                "MCP server `{name}` lists its tools in more than {MAX_PAGES} pages; the first {MAX_PAGES} are offered"
            ));
            break;
        }
        conn.send_request("tools/list", json!({ "cursor": cursor }), &page_id(page))?;
    }
    if over > 0 {
        notices.push(format!(
            "MCP server `{name}` lists {} tools; the first {MAX_SERVER_TOOLS} are offered",
            MAX_SERVER_TOOLS + over
        ));
    }
    Ok((tools, notices))
}

fn call(name: &str, arguments: &str, invocation: &Invocation) -> ToolOutput {
    let Some(server_name) = config::server_of(name) else {
        return ToolOutput::error(format!(
            "`{name}` is not an MCP tool name (`mcp__SERVER__TOOL`); nothing was run"
        ));
    };
    let session = config::servers();
    let Some((server, declared)) = session.get(server_name) else {
        return ToolOutput::error(format!(
            "MCP server `{server_name}` is no longer configured (smith mcp list shows those that are); nothing was run"
        ));
    };
    let tools_of = |listed: Option<&Listed>| listed.and_then(|l| l.tools.get(name)).cloned();
    let mcp_name = if declared {
        tools_of(
            kept_state()
                .get(&server.declared_key(server_name))
                .map(|k| &k.listed),
        )
    } else {
        tools_of(listed_state().get(server_name))
    }
    .unwrap_or_else(|| name[format!("mcp__{server_name}__").len()..].to_owned());
    let mut conn = match Conn::open(server_name, server) {
        Ok(conn) => conn,
        Err(failure) => {
            return ToolOutput::error(format!(
                "MCP server `{server_name}` could not be reached: {}; nothing was run",
                failure.text()
            ));
        }
    };
    let arguments: Value = serde_json::from_str(arguments).unwrap_or_else(|_| json!({}));
    let params = json!({
        "name": mcp_name,
        "arguments": arguments,
        "_meta": {"progressToken": invocation.call_id},
    });
    let answer = conn.request(
        "tools/call",
        params,
        &invocation.call_id,
        Some(server.call_timeout()),
    );
    if conn.list_changed {
        // Listed again by the next turn's discovery, which the changed state asks for (the
        // tools offered now stay offered for the rest of this turn).
        if declared {
            let mut kept = kept_state();
            kept.remove(&server.declared_key(server_name));
            let _ = state_set("declared", &kept);
        } else {
            let mut listed = listed_state();
            listed.remove(server_name);
            let _ = state_set("listed", &listed);
            let mut cache: Vec<Cached> = state_get("tools").ok().flatten().unwrap_or_default();
            cache.retain(|t| config::server_of(&t.name) != Some(server_name));
            let _ = state_set("tools", &cache);
        }
    }
    match answer {
        Ok(result) => read_result(&result),
        Err(Failure::Cancelled) => ToolOutput::error(format!(
            "the call of `{mcp_name}` was cancelled; MCP server `{server_name}` was told (notifications/cancelled)"
        )),
        Err(Failure::Other(why) | Failure::Denied(why)) => ToolOutput::error(format!(
            "MCP server `{server_name}`: `{mcp_name}` failed: {why}"
        )),
    }
}

/// A `tools/call` result (MCP 2025-06-18, server/tools — tool result) as tool output.
fn read_result(result: &Value) -> ToolOutput {
    let mut parts = Vec::new();
    for item in result["content"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let part = match item["type"].as_str().unwrap_or_default() {
            "text" => item["text"].as_str().unwrap_or_default().to_owned(),
            "image" | "audio" => format!(
                "[{} ({}), {} bytes of base64, not shown]",
                item["type"].as_str().unwrap_or_default(),
                item["mimeType"].as_str().unwrap_or("unknown type"),
                item["data"].as_str().map_or(0, str::len)
            ),
            "resource_link" => format!(
                "[resource link: {} {}]",
                item["uri"].as_str().unwrap_or_default(),
                item["name"].as_str().unwrap_or_default()
            ),
            "resource" => {
                let resource = &item["resource"];
                match resource["text"].as_str() {
                    Some(text) => text.to_owned(),
                    None => format!(
                        "[resource {} ({}), not shown]",
                        resource["uri"].as_str().unwrap_or_default(),
                        resource["mimeType"].as_str().unwrap_or("binary")
                    ),
                }
            }
            other => format!("[content of type `{}`, not shown]", cut(other, 40)),
        };
        parts.push(part);
    }
    if parts.is_empty()
        && let Some(structured) = result.get("structuredContent")
    {
        parts.push(structured.to_string());
    }
    let text = if parts.is_empty() {
        "(the tool returned no content)".to_owned()
    } else {
        parts.join("\n")
    };
    if result["isError"].as_bool() == Some(true) {
        ToolOutput::error(text)
    } else {
        ToolOutput::ok(text)
    }
}
