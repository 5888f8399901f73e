//! Smith's bundled web tools: `web_fetch`, a URL in, readable text out; `web_search`
//! ([`search`]), offered only when the user configures a search endpoint.
//!
//! The page is fetched through the host's `net` facility (every request a recorded
//! `net.fetch` effect the permission policy decides per host; the host never follows a
//! redirect, so each hop here is a request of its own, checked against the grant again). HTML
//! is converted to Markdown inside the plugin ([`markdown`], without scripts, styles and other
//! non-content elements); text, JSON and XML are passed through; anything else is refused as
//! binary. The result is windowed: `offset` and `length` select a part of the converted text,
//! and the output says how to read on.

use serde::Deserialize;
use smith_plugin_sdk::net::{self, BodyEnd, Request};
use smith_plugin_sdk::{Guest, Invocation, ToolDefinition, ToolOutput, arguments, tool};

mod guard;
mod markdown;
mod search;

struct Web;

/// Characters of converted text a call shows when it gives no `length`.
const DEFAULT_LENGTH: usize = 20_000;

/// The most characters one call shows.
const MAX_LENGTH: usize = 100_000;

/// Redirects followed before giving up.
const MAX_REDIRECTS: usize = 5;

/// The most HTML converted to Markdown, in bytes (a page past it is converted up to here, and
/// said so): the host's bound on a response body, so every page arrives whole — a script of
/// megabytes in its head (a framework's data) leaves the text after it to be read. The
/// conversion takes ~10 ms a MB natively, its memory the page's and the output's.
const MAX_CONVERTED: usize = 8 << 20;

/// The longest title shown, in characters.
const MAX_TITLE: usize = 300;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    url: String,
    offset: Option<usize>,
    length: Option<usize>,
    raw: Option<bool>,
}

const SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "url": {"type": "string", "description": "The absolute http or https URL to read."},
    "offset": {"type": "integer", "minimum": 0, "description": "The first character of the converted text to show (default 0): from the previous call's `more` line."},
    "length": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "How many characters to show (default 20000)."},
    "raw": {"type": "boolean", "description": "Show an HTML page's source instead of its text as Markdown (default false)."}
  },
  "required": ["url"],
  "additionalProperties": false
}"#;

const DESCRIPTION: &str = "Read a web page or any text at an http(s) URL: HTML comes back as Markdown (scripts, styles and navigation left out), text and JSON as they are, with the page's title and final URL (redirects followed). Long pages come in windows: pass `offset` from the `more` line to read on. Binary files (images, PDFs, archives) are refused. Each request may ask the user first, per host.";

/// A header's value (names are lowercase).
fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// What the page is and its text, before windowing.
struct Page {
    url: String,
    content_type: String,
    title: Option<String>,
    text: String,
    notes: Vec<String>,
}

/// What `web_fetch` accepts.
const ACCEPT_PAGES: &str = "text/html, application/xhtml+xml, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5";

/// Fetch `url` asking for `accept`, at most `max` body bytes (0: the host's bound),
/// following redirects; the final URL and response, or a sentence for the model.
pub(crate) fn fetch(url: &str, accept: &str, max: u64) -> Result<(String, net::Response), String> {
    let mut current = url.to_owned();
    for _ in 0..=MAX_REDIRECTS {
        let response = net::fetch(&Request {
            method: "GET".to_owned(),
            url: current.clone(),
            headers: vec![("accept".to_owned(), accept.to_owned())],
            body: Vec::new(),
            max_response_bytes: max,
        })
        .map_err(|e| format!("{current}: {}", smith_plugin_sdk::describe_net(&e)))?;
        if !matches!(response.status, 301 | 302 | 303 | 307 | 308) {
            return Ok((current, response));
        }
        let Some(location) = header(&response.headers, "location") else {
            return Err(format!(
                "{current} answered {} (a redirect) without saying where to",
                response.status
            ));
        };
        current = resolve(&current, location);
    }
    Err(format!(
        "{url} redirected more than {MAX_REDIRECTS} times (last to {current}); give the final URL"
    ))
}

/// `location` (a redirect's target, absolute or relative) resolved against `base` (RFC 9110
/// §10.2.2, RFC 3986 §5). Dot segments are left for the host, which normalizes every URL it
/// is given.
fn resolve(base: &str, location: &str) -> String {
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = format!("{scheme}://{}", &rest[..authority_end]);
    let path = &rest[authority_end..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    if location.contains("://") {
        location.to_owned()
    } else if let Some(net_path) = location.strip_prefix("//") {
        format!("{scheme}://{net_path}")
    } else if location.starts_with('/') {
        format!("{origin}{location}")
    } else if location.starts_with('?') {
        format!("{origin}{path}{location}")
    } else {
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let dir = if dir.is_empty() { "/" } else { dir };
        format!("{origin}{dir}{location}")
    }
}

/// The text of an HTML `<title>`, if any.
fn title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let text = markdown::decode(&html[start..end]);
    let mut text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > MAX_TITLE {
        text = text.chars().take(MAX_TITLE).collect::<String>() + "…";
    }
    (!text.is_empty()).then_some(text)
}

/// The text of `html` without its tags, scripts and styles, for a page that is not converted.
fn text_of(html: &str) -> String {
    // ASCII lowercase keeps every byte offset (and so every character boundary).
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len() / 2);
    let mut at = 0;
    while let Some(found) = lower[at..].find('<') {
        let open = at + found;
        out.push_str(&html[at..open]);
        out.push(' ');
        let rest = &lower[open..];
        let skipped = if rest.starts_with("<script") {
            rest.find("</script").map(|e| e + "</script".len())
        } else if rest.starts_with("<style") {
            rest.find("</style").map(|e| e + "</style".len())
        } else {
            Some(0)
        };
        at = skipped
            .and_then(|e| rest[e..].find('>').map(|g| open + e + g + 1))
            .unwrap_or(html.len());
    }
    out.push_str(&html[at..]);
    let decoded = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The charset a `content-type` value or an HTML `<meta>` near the start names, lowercase.
fn charset(content_type: &str, head: &[u8]) -> Option<String> {
    let named = |text: &str| {
        let lower = text.to_ascii_lowercase();
        let at = lower.find("charset=")? + "charset=".len();
        let value: String = lower[at..]
            .trim_start_matches(['"', '\''])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        (!value.is_empty()).then_some(value)
    };
    named(content_type).or_else(|| named(&String::from_utf8_lossy(&head[..head.len().min(2048)])))
}

/// `bytes` decoded as windows-1252 (which browsers use for ISO-8859-1 and US-ASCII too).
fn windows_1252(bytes: &[u8]) -> String {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0x9f => HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

/// Whether a media type is read as text.
fn textual(media: &str) -> bool {
    media.starts_with("text/")
        || media.ends_with("+json")
        || media.ends_with("+xml")
        || matches!(
            media,
            "application/json"
                | "application/xml"
                | "application/javascript"
                | "application/x-javascript"
                | "application/ecmascript"
                | "application/x-sh"
                | "application/toml"
                | "application/yaml"
                | "application/x-yaml"
                | "application/sql"
                | "application/graphql"
        )
}

/// Read `url` as a page.
fn page(url: &str, raw: bool) -> Result<Page, String> {
    let (final_url, response) = fetch(url, ACCEPT_PAGES, 0)?;
    let content_type = header(&response.headers, "content-type")
        .unwrap_or_default()
        .to_owned();
    let media = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let body = &response.body;
    let mut notes = Vec::new();
    match &response.end {
        BodyEnd::Complete => {}
        BodyEnd::Truncated(limit) => notes.push(format!(
            "the page is larger than {limit} bytes; only its first {limit} were read"
        )),
        BodyEnd::Failed(why) => notes.push(format!(
            "the page broke off after {} bytes ({why}); what arrived is shown",
            body.len()
        )),
        BodyEnd::Cancelled => return Err("cancelled while the page arrived".to_owned()),
    }
    if !(200..300).contains(&response.status) {
        let text = String::from_utf8_lossy(&body[..body.len().min(2_000)]).into_owned();
        let shown = if media.contains("html") {
            markdown::convert(&text).text
        } else {
            text
        };
        return Err(format!(
            "{final_url} answered with status {}; nothing was read. The start of its answer:\n{}",
            response.status,
            shown.trim()
        ));
    }
    let sniffed_text = media.is_empty() && !body.iter().take(8_192).any(|b| *b == 0);
    if !(textual(&media) || sniffed_text) {
        return Err(format!(
            "{final_url} is `{}` ({} bytes), which web_fetch does not read: it reads HTML, text and JSON",
            if media.is_empty() { "binary" } else { &media },
            body.len()
        ));
    }
    if let Some(encoding) = header(&response.headers, "content-encoding")
        .map(str::trim)
        .filter(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity"))
    {
        return Err(format!(
            "{final_url} sent its body `{encoding}`-encoded although none was asked for; web_fetch reads only unencoded bodies"
        ));
    }
    let named = charset(&content_type, body);
    let decoded = match (named.as_deref(), std::str::from_utf8(body)) {
        (_, Ok(text)) => text.to_owned(),
        (
            Some(
                "iso-8859-1" | "latin1" | "latin-1" | "windows-1252" | "cp1252" | "us-ascii"
                | "ascii",
            ),
            Err(_),
        ) => windows_1252(body),
        (Some(other), Err(_)) if other != "utf-8" && other != "utf8" => {
            notes.push(format!(
                "the page is in `{other}`, which web_fetch does not decode; bytes that are not UTF-8 are shown as �"
            ));
            String::from_utf8_lossy(body).into_owned()
        }
        (_, Err(_)) => {
            notes.push("the page is not valid UTF-8; invalid bytes are shown as �".to_owned());
            String::from_utf8_lossy(body).into_owned()
        }
    };
    let html = media == "text/html" || media == "application/xhtml+xml";
    let (title, text) = if html && !raw {
        let mut source = decoded.as_str();
        if source.len() > MAX_CONVERTED {
            let mut cut = MAX_CONVERTED;
            while !source.is_char_boundary(cut) {
                cut -= 1;
            }
            source = &source[..cut];
            notes.push(format!(
                "the page's HTML is {} bytes; its first {MAX_CONVERTED} were converted (`raw` reads the whole source)",
                decoded.len()
            ));
        }
        let markdown = match guard::pathological(source) {
            Some(why) => {
                notes.push(format!(
                    "{why}, so its text is shown without Markdown structure"
                ));
                text_of(source)
            }
            None => {
                let converted = markdown::convert(source);
                if converted.full {
                    notes.push(format!(
                        "its Markdown passed {} bytes; the rest of the page was not converted (`raw` reads the whole source)",
                        markdown::MAX_OUTPUT
                    ));
                }
                if converted.text.is_empty() && !source.trim().is_empty() {
                    notes.push(
                        "the page has no text outside its scripts, styles and navigation: it is probably built by JavaScript in the browser (`raw` shows its source)".to_owned(),
                    );
                }
                converted.text
            }
        };
        (title(source), markdown)
    } else if html {
        (title(&decoded), decoded)
    } else {
        (None, decoded)
    };
    Ok(Page {
        url: final_url,
        content_type: if media.is_empty() {
            "unknown (read as text)".to_owned()
        } else {
            media
        },
        title,
        text,
        notes,
    })
}

/// The window of `text` from character `offset`, at most `length` characters, and where the
/// next window starts (none at the end).
fn window(text: &str, offset: usize, length: usize) -> (&str, usize, Option<usize>) {
    let total = text.chars().count();
    let byte = |chars: usize| {
        text.char_indices()
            .nth(chars)
            .map_or(text.len(), |(i, _)| i)
    };
    let start = offset.min(total);
    let mut end = (start + length).min(total);
    if end < total {
        // A window that does not reach the end ends on a line break in its last fifth, when
        // it has one: the next starts on a line of its own (a heading, a fence, an item), not
        // in the middle of a word.
        let shown = &text[byte(start)..byte(end)];
        if let Some(at) = shown.rfind('\n') {
            let kept = shown[..=at].chars().count();
            if kept >= length - length / 5 {
                end = start + kept;
            }
        }
    }
    let next = (end < total).then_some(end);
    (&text[byte(start)..byte(end)], total, next)
}

#[cfg(test)]
mod tests {
    use super::window;

    #[test]
    fn a_window_ends_on_a_line_break_near_its_end() {
        let text = "# Title\n\nA first paragraph.\n\n## Next\nmore text";
        // 30 characters would cut `## Next`; its last fifth holds the break before it.
        let (shown, total, next) = window(text, 0, 30);
        assert_eq!(shown, "# Title\n\nA first paragraph.\n\n");
        assert_eq!((total, next), (text.chars().count(), Some(29)));
        assert!(window(text, 29, 100).0.starts_with("## Next"));
        // No break near the end: cut where asked; the last window as it is.
        assert_eq!(window(text, 0, 12).0, "# Title\n\nA f");
        assert_eq!(window(text, 40, 100), ("e text", 46, None));
    }
}

fn run(args: Args) -> ToolOutput {
    let length = args.length.unwrap_or(DEFAULT_LENGTH).clamp(1, MAX_LENGTH);
    let offset = args.offset.unwrap_or(0);
    let raw = args.raw.unwrap_or(false);
    let page = match page(&args.url, raw) {
        Ok(page) => page,
        Err(why) => return ToolOutput::error(why),
    };
    let (shown, total, next) = window(&page.text, offset, length);
    let mut out = format!("URL: {}\n", page.url);
    if let Some(title) = &page.title {
        out.push_str(&format!("Title: {title}\n"));
    }
    out.push_str(&format!("Content-Type: {}\n", page.content_type));
    let end = offset.min(total) + shown.chars().count();
    out.push_str(&format!(
        "Characters {}–{end} of {total}\n",
        offset.min(total)
    ));
    for note in &page.notes {
        out.push_str(&format!("Note: {note}\n"));
    }
    out.push('\n');
    out.push_str(shown);
    if offset > total {
        out.push_str(&format!(
            "(the text has {total} characters; offset {offset} is past its end)"
        ));
    }
    if let Some(next) = next {
        out.push_str(&format!(
            "\n\n(more: {{\"url\": \"{}\", \"offset\": {next}{}}})",
            page.url,
            if raw { ", \"raw\": true" } else { "" }
        ));
    }
    ToolOutput::ok(out)
}

impl Guest for Web {
    fn definitions() -> Vec<ToolDefinition> {
        vec![
            tool("web_fetch", DESCRIPTION, SCHEMA),
            tool("web_search", search::DESCRIPTION, search::SCHEMA),
        ]
    }

    fn call(name: String, arguments_json: String, _invocation: Invocation) -> ToolOutput {
        if name == "web_search" {
            return match arguments(&arguments_json) {
                Ok(args) => search::run(args),
                Err(out) => out,
            };
        }
        match arguments(&arguments_json) {
            Ok(args) => run(args),
            Err(out) => out,
        }
    }
}

smith_plugin_sdk::export_tool_plugin!(Web);
