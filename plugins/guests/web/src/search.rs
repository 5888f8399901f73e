//! `web_search`: a query in, a numbered list of results out, from the search endpoint the
//! user configured (`plugin.web.search-url`): a SearXNG instance or anything answering its
//! JSON API — `GET URL?q=QUERY&format=json&pageno=N` giving `{"results": [{"title", "url",
//! "content"}…], "suggestions": […], "unresponsive_engines": [[name, reason]…]}` (SearXNG's
//! Search API). No vendor is built in: without the setting the host does not offer the tool.

use serde::Deserialize;
use smith_plugin_sdk::ToolOutput;
use smith_plugin_sdk::net::{self, Request};
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

/// A search endpoint's answer, as much of it as is shown.
#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    results: Vec<Hit>,
    #[serde(default)]
    suggestions: Vec<String>,
    #[serde(default)]
    unresponsive_engines: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct Hit {
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    content: Option<String>,
}

/// `endpoint` with the query's parameters added after any it already has.
pub(crate) fn search_url(endpoint: &str, query: &str, page: u32) -> String {
    let params = form_urlencoded::Serializer::new(String::new())
        .append_pair("q", query)
        .append_pair("format", "json")
        .append_pair("pageno", &page.to_string())
        .finish();
    let base = endpoint.split_once('#').map_or(endpoint, |(base, _)| base);
    let joiner = if !base.contains('?') {
        "?"
    } else if base.ends_with('?') || base.ends_with('&') {
        ""
    } else {
        "&"
    };
    format!("{base}{joiner}{params}")
}

/// One line of text: whitespace runs made one space, cut to `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > max {
        line.chars().take(max).collect::<String>() + "…"
    } else {
        line
    }
}

/// Run a search.
pub(crate) fn run(args: Args) -> ToolOutput {
    let Some(endpoint) = smith_plugin_sdk::setting(SETTING) else {
        return ToolOutput::error(format!(
            "no search endpoint is configured: set plugin.web.{SETTING} to a SearXNG-style JSON endpoint's URL"
        ));
    };
    let query = args.query.trim();
    if query.is_empty() || query.chars().count() > MAX_QUERY {
        return ToolOutput::error(format!(
            "the query must have 1 to {MAX_QUERY} characters; this one has {}",
            query.chars().count()
        ));
    }
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let page = args.page.unwrap_or(1).max(1);
    let url = search_url(&endpoint, query, page);
    let response = match net::fetch(&Request {
        method: "GET".to_owned(),
        url: url.clone(),
        headers: vec![("accept".to_owned(), "application/json".to_owned())],
        body: Vec::new(),
        max_response_bytes: MAX_ANSWER,
    }) {
        Ok(response) => response,
        Err(e) => {
            return ToolOutput::error(format!(
                "the search endpoint (plugin.web.{SETTING} = {endpoint}) could not be asked: {}",
                crate::said(&e)
            ));
        }
    };
    if !(200..300).contains(&response.status) {
        let body = String::from_utf8_lossy(&response.body);
        return ToolOutput::error(format!(
            "the search endpoint {endpoint} answered {}: {}{}",
            response.status,
            one_line(&body, 300),
            if response.status == 403 {
                " (a SearXNG instance answers 403 when `json` is not among its search.formats)"
            } else {
                ""
            }
        ));
    }
    let answer: Answer = match serde_json::from_slice(&response.body) {
        Ok(answer) => answer,
        Err(e) => {
            return ToolOutput::error(format!(
                "the search endpoint {endpoint} did not answer with SearXNG's JSON ({e}); plugin.web.{SETTING} must name a JSON search API such as SearXNG's /search with `json` enabled in its search.formats"
            ));
        }
    };
    ToolOutput::ok(render(query, page, limit, &answer))
}

/// The results as the model reads them.
fn render(query: &str, page: u32, limit: usize, answer: &Answer) -> String {
    let hits: Vec<&Hit> = answer
        .results
        .iter()
        .filter(|h| h.url.starts_with("http://") || h.url.starts_with("https://"))
        .take(limit)
        .collect();
    let mut out = if hits.is_empty() {
        format!("No results for \"{query}\" (page {page}).\n")
    } else {
        format!(
            "Results for \"{query}\" (page {page}, {} shown):\n",
            hits.len()
        )
    };
    for (i, hit) in hits.iter().enumerate() {
        let title = match one_line(&hit.title, 200) {
            t if t.is_empty() => "(untitled)".to_owned(),
            t => t,
        };
        out.push_str(&format!("\n{}. {title}\n   {}\n", i + 1, hit.url));
        if let Some(snippet) = hit.content.as_deref().map(|c| one_line(c, MAX_SNIPPET))
            && !snippet.is_empty()
        {
            out.push_str(&format!("   {snippet}\n"));
        }
    }
    if !answer.suggestions.is_empty() {
        let shown: Vec<String> = answer
            .suggestions
            .iter()
            .take(5)
            .map(|s| one_line(s, 100))
            .collect();
        out.push_str(&format!("\nSuggestions: {}\n", shown.join("; ")));
    }
    let silent: Vec<String> = answer
        .unresponsive_engines
        .iter()
        .filter_map(|e| e.get(0).and_then(serde_json::Value::as_str))
        .map(|e| one_line(e, 50))
        .take(10)
        .collect();
    if !silent.is_empty() {
        out.push_str(&format!(
            "\nEngines that did not answer: {}\n",
            silent.join(", ")
        ));
    }
    if hits.len() == limit {
        out.push_str(&format!(
            "\n(more: {{\"query\": {}, \"page\": {}}})",
            serde_json::Value::String(query.to_owned()),
            page + 1
        ));
    }
    out
}
