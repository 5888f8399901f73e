//! `web_search`: a query in, a numbered list of results out, from the search endpoint the
//! user configured (`plugin.web.search-url`): a SearXNG instance or anything answering its
//! JSON API — `GET URL?q=QUERY&format=json&pageno=N` giving `{"results": [{"title", "url",
//! "content"}…], "suggestions": […], "unresponsive_engines": [[name, reason]…]}` (SearXNG's
//! Search API). No vendor is built in: without the setting the host does not offer the tool.

use serde::Deserialize;
use smith_plugin_sdk::ToolOutput;
use smith_plugin_sdk::net::BodyEnd;
use smith_plugin_sdk::serde_json;

/// The setting naming the endpoint.
pub(crate) const SETTING: &str = "search-url";

/// Results shown when the call gives no `limit`, and the most it may ask for.
const DEFAULT_LIMIT: usize = 8;
const MAX_LIMIT: usize = 20;

/// The longest snippet shown per result, in characters.
const MAX_SNIPPET: usize = 400;

/// The longest query sent, in characters.
pub(crate) const MAX_QUERY: usize = 500;

/// The most bytes of an answer read (a results page is tens of KiB).
const MAX_ANSWER: u64 = 4 << 20;

pub(crate) const DESCRIPTION: &str = "Search the web through the search endpoint the user configured; gives numbered results with title, URL and a snippet. Read a result in full with web_fetch. Use `page` for more results.";

pub(crate) const SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": 500, "description": "What to search for."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many results to show (default 8)."},
    "page": {"type": "integer", "minimum": 1, "maximum": 10, "description": "Which page of results (default 1)."}
  },
  "required": ["query"],
  "additionalProperties": false
}"#;

/// The tool's arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Args {
    query: String,
    limit: Option<usize>,
    page: Option<u32>,
}

/// The last page the schema lets a call ask for.
const MAX_PAGE: u32 = 10;

/// The parameters the tool sets itself: an endpoint's own values of these are replaced.
const OWN: &[&str] = &["q", "format", "pageno"];

/// `endpoint` (its fragment dropped) with the query's parameters in place of any it has of
/// the same names; its other parameters kept, in order.
pub(crate) fn search_url(endpoint: &str, query: &str, page: u32) -> String {
    let base = endpoint.split_once('#').map_or(endpoint, |(base, _)| base);
    let (path, existing) = base.split_once('?').unwrap_or((base, ""));
    let mut params = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(existing.as_bytes()) {
        if !OWN.contains(&name.as_ref()) {
            params.append_pair(&name, &value);
        }
    }
    params
        .append_pair("q", query)
        .append_pair("format", "json")
        .append_pair("pageno", &page.to_string());
    format!("{path}?{}", params.finish())
}

/// Whether `c` is shown to the model: not a control character (line breaks, escapes) nor a
/// bidirectional override or isolate, which could make text read as something else.
fn shown(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// One line of text: whitespace runs made one space, hidden characters dropped, cut to `max`
/// characters.
fn one_line(text: &str, max: usize) -> String {
    let line = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| shown(*c))
        .collect::<String>();
    if line.chars().count() > max {
        line.chars().take(max).collect::<String>() + "…"
    } else {
        line
    }
}

/// One result as shown: its title, web address and snippet; `None` for an entry without
/// an http(s) address of one line (entries of other shapes are skipped, not fatal).
fn hit(entry: &serde_json::Value) -> Option<(String, String, String)> {
    let text = |key: &str| entry.get(key).and_then(serde_json::Value::as_str);
    let url = text("url")?;
    let web = url.starts_with("http://") || url.starts_with("https://");
    if !web || url.len() > 2048 || url.chars().any(|c| c.is_whitespace() || !shown(c)) {
        return None;
    }
    let title = match one_line(text("title").unwrap_or_default(), 200) {
        t if t.is_empty() => "(untitled)".to_owned(),
        t => t,
    };
    let snippet = one_line(text("content").unwrap_or_default(), MAX_SNIPPET);
    Some((title, url.to_owned(), snippet))
}

/// Run a search.
pub(crate) fn run(args: Args) -> ToolOutput {
    let endpoint = smith_plugin_sdk::setting(SETTING)
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    let Some(endpoint) = endpoint else {
        return ToolOutput::error(format!(
            "no search endpoint is configured: set plugin.web.{SETTING} to a SearXNG-style JSON endpoint's URL"
        ));
    };
    let authority = endpoint.split_once("://").map_or("", |(_, rest)| {
        &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())]
    });
    if authority.contains('@') {
        return ToolOutput::error(format!(
            "plugin.web.{SETTING} holds credentials in its URL, which would be recorded with every search; remove them and bind a secret to the host with plugins.web.net.credentials instead"
        ));
    }
    let query = args.query.trim();
    let length = query.chars().count();
    if length == 0 || length > MAX_QUERY {
        return ToolOutput::error(format!(
            "the query must have 1 to {MAX_QUERY} characters besides surrounding spaces; this one has {length}"
        ));
    }
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let page = args.page.unwrap_or(1).clamp(1, MAX_PAGE);
    let url = search_url(&endpoint, query, page);
    let setting = format!("plugin.web.{SETTING} (`{endpoint}`)");
    let (_, response) = match crate::fetch(&url, "application/json", MAX_ANSWER) {
        Ok(answer) => answer,
        Err(why) => return ToolOutput::error(format!("the search endpoint {setting}: {why}")),
    };
    if !(200..300).contains(&response.status) {
        let body = String::from_utf8_lossy(&response.body);
        return ToolOutput::error(format!(
            "the search endpoint {setting} answered {}: {}{}",
            response.status,
            one_line(&body, 300),
            if response.status == 403 {
                " (a SearXNG instance answers 403 when `json` is not among its search.formats)"
            } else {
                ""
            }
        ));
    }
    if let BodyEnd::Truncated(bound) = response.end {
        return ToolOutput::error(format!(
            "the search endpoint {setting} answered with more than {bound} bytes, the most web_search reads; a results page is far smaller — check that the setting names a search API"
        ));
    }
    let answer: serde_json::Value = match serde_json::from_slice(&response.body) {
        Ok(answer) => answer,
        Err(e) => {
            return ToolOutput::error(format!(
                "the search endpoint {setting} did not answer with JSON ({e}); the setting must name a JSON search API such as SearXNG's /search with `json` among its search.formats"
            ));
        }
    };
    let Some(results) = answer.get("results").and_then(serde_json::Value::as_array) else {
        return ToolOutput::error(format!(
            "the search endpoint {setting} answered JSON without a `results` list, so not as SearXNG's Search API does: {}",
            one_line(&answer.to_string(), 300)
        ));
    };
    ToolOutput::ok(render(query, page, limit, results, &answer))
}

/// The results as the model reads them.
fn render(
    query: &str,
    page: u32,
    limit: usize,
    results: &[serde_json::Value],
    answer: &serde_json::Value,
) -> String {
    let hits: Vec<_> = results.iter().filter_map(hit).collect();
    let shown_hits = &hits[..hits.len().min(limit)];
    let mut out = if shown_hits.is_empty() {
        format!("No results for \"{query}\" (page {page}).\n")
    } else {
        format!(
            "Results for \"{query}\" (page {page}, {} of {} shown):\n",
            shown_hits.len(),
            hits.len()
        )
    };
    for (i, (title, url, snippet)) in shown_hits.iter().enumerate() {
        out.push_str(&format!("\n{}. {title}\n   {url}\n", i + 1));
        if !snippet.is_empty() {
            out.push_str(&format!("   {snippet}\n"));
        }
    }
    let strings = |key: &str, max: usize, each: usize| -> Vec<String> {
        answer
            .get(key)
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| match v {
                serde_json::Value::String(s) => Some(s.as_str()),
                // SearXNG lists an engine that did not answer as [name, reason].
                serde_json::Value::Array(pair) => pair.first().and_then(serde_json::Value::as_str),
                _ => None,
            })
            .map(|s| one_line(s, each))
            .filter(|s| !s.is_empty())
            .take(max)
            .collect()
    };
    let suggestions = strings("suggestions", 5, 100);
    if !suggestions.is_empty() {
        out.push_str(&format!("\nSuggestions: {}\n", suggestions.join("; ")));
    }
    let silent = strings("unresponsive_engines", 10, 50);
    if !silent.is_empty() {
        out.push_str(&format!(
            "\nEngines that did not answer: {}\n",
            silent.join(", ")
        ));
    }
    let again = |page: u32, limit: Option<usize>| {
        let mut call = serde_json::json!({"query": query, "page": page});
        if let Some(limit) = limit {
            call["limit"] = serde_json::json!(limit);
        }
        call.to_string()
    };
    if hits.len() > shown_hits.len() {
        out.push_str(&format!(
            "\n(more on this page: {})",
            again(page, Some(hits.len().min(MAX_LIMIT)))
        ));
    } else if !hits.is_empty() && page < MAX_PAGE {
        out.push_str(&format!("\n(next page: {})", again(page + 1, None)));
    }
    out
}
