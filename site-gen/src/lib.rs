//! The static documentation site.
//!
//! [`generate`] renders every corpus document to `<id>.html` (ids with `/` become folders),
//! an `index.html` listing them by kind, and a `search.html` page whose plain JavaScript
//! searches `search-index.js` — a JSON index built here, loaded as a script so the site also
//! works from `file://`. [`check_links`] verifies that every local `href`/`src` of the site
//! names a file that exists.
//!
//! Never prints; errors are returned.

use std::fmt;
use std::path::{Path, PathBuf};

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};
use serde_json::json;
use smith_docs::{Corpus, Document};

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
code,pre{font:14px ui-monospace,monospace;background:#f4f4f6}pre{padding:.75rem;overflow-x:auto}
table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.25rem .5rem;vertical-align:top}
nav{margin-bottom:1.5rem;font-size:.9rem}nav a{margin-right:1rem}.kind{color:#666;font-size:.85rem}
#results li{margin-bottom:.75rem}";

const SEARCH_JS: &str = r#"// Plain JavaScript search over SMITH_INDEX (search-index.js). No build step.
(function () {
  "use strict";
  function words(text) { return text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u).filter(Boolean); }
  function score(doc, terms) {
    var title = doc.title.toLowerCase(), tags = doc.tags.join(" ").toLowerCase(), body = doc.text.toLowerCase();
    var total = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i], hits = 0, at = body.indexOf(t);
      while (at !== -1) { hits++; at = body.indexOf(t, at + t.length); }
      if (hits === 0 && title.indexOf(t) === -1 && tags.indexOf(t) === -1) { return 0; }
      total += hits + (title.indexOf(t) !== -1 ? 10 : 0) + (tags.indexOf(t) !== -1 ? 5 : 0);
    }
    return total;
  }
  function run() {
    var input = document.getElementById("q"), list = document.getElementById("results");
    var terms = words(input.value);
    list.innerHTML = "";
    if (terms.length === 0) { return; }
    var hits = SMITH_INDEX.map(function (d) { return { doc: d, score: score(d, terms) }; })
      .filter(function (h) { return h.score > 0; })
      .sort(function (a, b) { return b.score - a.score || (a.doc.id < b.doc.id ? -1 : 1); });
    if (hits.length === 0) { list.innerHTML = "<li>No document matches.</li>"; return; }
    hits.forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = h.doc.url; a.textContent = h.doc.title;
      var meta = document.createElement("span"); meta.className = "kind"; meta.textContent = " " + h.doc.kind + " · " + h.doc.id;
      li.appendChild(a); li.appendChild(meta); list.appendChild(li);
    });
  }
  document.getElementById("q").addEventListener("input", run);
  var params = new URLSearchParams(window.location.search);
  if (params.get("q")) { document.getElementById("q").value = params.get("q"); run(); }
})();
"#;

/// The page path of document `id`, relative to the site root (`reference/cli.html`).
fn page_path(id: &str) -> String {
    format!("{id}.html")
}

/// The path from page `from` (site-relative) to site-relative `to`.
fn relative(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn page(from: &str, title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\n<title>{} — Smith docs</title><link rel=\"stylesheet\" href=\"{}\"></head>\n<body><nav><a href=\"{}\">Smith documentation</a><a href=\"{}\">Search</a></nav>\n<main>\n{body}</main></body></html>\n",
        escape(title),
        relative(from, "style.css"),
        relative(from, "index.html"),
        relative(from, "search.html"),
    )
}

/// Render one document's body to HTML, rewriting corpus links to the target pages.
fn render_document(corpus: &Corpus, doc: &Document) -> String {
    let here = page_path(doc.id());
    let links = corpus.links(doc);
    let events = Parser::new_ext(&doc.body, Options::ENABLE_TABLES).map(|event| match event {
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let resolved = links
                .iter()
                .find(|l| l.target == dest_url.as_ref())
                .and_then(|l| l.resolved.as_deref());
            let dest_url = match resolved {
                Some(target) => {
                    let anchor = dest_url
                        .split_once('#')
                        .map(|(_, a)| format!("#{a}"))
                        .unwrap_or_default();
                    CowStr::from(format!("{}{anchor}", relative(&here, &page_path(target))))
                }
                None => dest_url,
            };
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            })
        }
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// Write the whole site for `corpus` into `out` (created if missing).
///
/// # Errors
/// The first I/O error.
pub fn generate(corpus: &Corpus, out: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("style.css"), STYLE)?;
    std::fs::write(out.join("search.js"), SEARCH_JS)?;
    let mut index_entries = Vec::new();
    for doc in corpus.documents() {
        let path = page_path(doc.id());
        let target = out.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let body = format!(
            "<p class=\"kind\">{} · <code>smith docs get {}</code></p>\n{}",
            escape(&doc.front.kind),
            escape(doc.id()),
            render_document(corpus, doc)
        );
        std::fs::write(&target, page(&path, &doc.front.title, &body))?;
        index_entries.push(json!({
            "id": doc.id(),
            "title": doc.front.title,
            "kind": doc.front.kind,
            "tags": doc.front.tags,
            "url": path,
            "text": doc.body,
        }));
    }
    let index = serde_json::to_string(&index_entries).map_err(std::io::Error::other)?;
    std::fs::write(
        out.join("search-index.js"),
        format!("var SMITH_INDEX = {index};\n"),
    )?;

    let mut list = String::from("<h1>Smith documentation</h1>\n");
    for kind in smith_docs::KINDS {
        let docs: Vec<_> = corpus
            .documents()
            .iter()
            .filter(|d| d.front.kind == *kind)
            .collect();
        if docs.is_empty() {
            continue;
        }
        list.push_str(&format!("<h2>{}s</h2>\n<ul>\n", escape(kind)));
        for d in docs {
            list.push_str(&format!(
                "<li><a href=\"{}\">{}</a> <code>{}</code></li>\n",
                page_path(d.id()),
                escape(&d.front.title),
                escape(d.id())
            ));
        }
        list.push_str("</ul>\n");
    }
    std::fs::write(
        out.join("index.html"),
        page("index.html", "Smith documentation", &list),
    )?;
    let search = "<h1>Search</h1>\n<input id=\"q\" type=\"search\" placeholder=\"Search the documentation\" autofocus>\n<ul id=\"results\"></ul>\n<script src=\"search-index.js\"></script><script src=\"search.js\"></script>\n";
    std::fs::write(
        out.join("search.html"),
        page("search.html", "Search", search),
    )?;
    Ok(())
}

/// A local link of the site that leads nowhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page holding the link.
    pub page: PathBuf,
    /// The `href` or `src` value.
    pub target: String,
}

impl fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} → {}", self.page.display(), self.target)
    }
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            html_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "html") {
            out.push(path);
        }
    }
}

/// Every local `href="…"`/`src="…"` in the site's pages whose file does not exist (external
/// `http(s):`/`mailto:` links and same-page `#anchors` are not checked).
pub fn check_links(site: &Path) -> Vec<BrokenLink> {
    let mut pages = Vec::new();
    html_files(site, &mut pages);
    pages.sort();
    let mut broken = Vec::new();
    for page in pages {
        let Ok(text) = std::fs::read_to_string(&page) else {
            continue;
        };
        let dir = page.parent().unwrap_or(site);
        for attr in ["href=\"", "src=\""] {
            for (at, _) in text.match_indices(attr) {
                let rest = &text[at + attr.len()..];
                let Some(end) = rest.find('"') else { continue };
                let target = &rest[..end];
                let external = ["http:", "https:", "mailto:"]
                    .iter()
                    .any(|s| target.starts_with(s));
                let file = target.split('#').next().unwrap_or("");
                if external || file.is_empty() {
                    continue;
                }
                if !dir.join(file).is_file() {
                    broken.push(BrokenLink {
                        page: page.clone(),
                        target: target.to_owned(),
                    });
                }
            }
        }
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_of_the_embedded_corpus_has_no_broken_link() {
        let corpus = Corpus::embedded().unwrap();
        let dir = tempfile::tempdir().unwrap();
        generate(&corpus, dir.path()).unwrap();
        assert_eq!(check_links(dir.path()), Vec::new());
        for doc in corpus.documents() {
            assert!(
                dir.path().join(page_path(doc.id())).is_file(),
                "{}",
                doc.id()
            );
        }
        let cli = std::fs::read_to_string(dir.path().join("eval.html")).unwrap();
        assert!(
            cli.contains("href=\"reference/cli.html\""),
            "corpus links become page links"
        );
        let nested = std::fs::read_to_string(dir.path().join("reference/cli.html")).unwrap();
        assert!(nested.contains("href=\"../style.css\""));
        let index = std::fs::read_to_string(dir.path().join("search-index.js")).unwrap();
        let json = index
            .trim()
            .strip_prefix("var SMITH_INDEX = ")
            .unwrap()
            .strip_suffix(';')
            .unwrap();
        let entries: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(entries.as_array().unwrap().len(), corpus.documents().len());
    }

    #[test]
    fn the_checker_finds_a_broken_link() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.html"),
            "<a href=\"b.html#x\">b</a><a href=\"https://x\">x</a><a href=\"#top\">t</a>",
        )
        .unwrap();
        let broken = check_links(dir.path());
        assert_eq!(broken.len(), 1);
        assert_eq!(broken[0].target, "b.html#x");
        std::fs::write(dir.path().join("b.html"), "").unwrap();
        assert!(check_links(dir.path()).is_empty());
    }
}
