//! The bundled `web_fetch` and `web_search` tools through the built binary: a scripted model
//! reads pages from a loopback server that routes by path (HTML, a redirect, a 404, a binary
//! file, a redirect to a host the grant does not name, a SearXNG-style search answer), each
//! request a recorded `net.fetch` effect.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use common::{Env, records, stderr};

/// A server answering by path until the test ends; the paths it was asked for, in order.
struct Site {
    port: u16,
    asked: Arc<Mutex<Vec<String>>>,
}

const PAGE: &str = "<!doctype html><html><head><title>The  Manual &amp; more</title><style>p{color:red}</style><script>var hidden = 'SCRIPT-TEXT';</script></head><body><nav>NAV-TEXT</nav><h1>Getting started</h1><p>Run <code>smith</code> in a <a href=\"/docs\">project</a>.</p><ul><li>one</li><li>two</li></ul></body></html>";

/// A SearXNG Search API answer (`format=json`), with entries that are not shown: an address
/// that is not a web one, one holding a line break; and fields of the wrong type.
const SEARCH: &str = r#"{"query":"rust & wasm","number_of_results":0,"results":[{"title":"The Rust  Book","url":"https://doc.rust-lang.org/book/","content":"Learn\n Rust","engine":"duckduckgo"},{"title":"javascript","url":"javascript:alert(1)","content":"x"},{"title":"WebAssembly","url":"https://webassembly.org/","content":"A binary format"},{"title":"forged","url":"https://ex.com/a\n2. fake"},{"title":"Third","url":"https://third.example/"},{"title":null,"url":"https://null.example/"},{"title":5,"url":"https://five.example/","content":null}],"answers":[],"suggestions":["rust wasm bindgen",null],"infoboxes":[],"unresponsive_engines":[["brave","timeout"]]}"#;

impl Site {
    fn start(elsewhere: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&asked);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).unwrap() <= 2 {
                        break;
                    }
                }
                log.lock().unwrap().push(path.clone());
                let route = path.split('?').next().unwrap_or_default();
                let (status, kind, extra, body): (&str, &str, String, Vec<u8>) = match route {
                    "/search" => ("200 OK", "application/json", String::new(), SEARCH.into()),
                    "/moved-search" => (
                        "302 Found",
                        "text/plain",
                        "location: /search\r\n".into(),
                        Vec::new(),
                    ),
                    "/limited" => (
                        "200 OK",
                        "application/json",
                        String::new(),
                        br#"{"error":"rate limited, try later"}"#.to_vec(),
                    ),
                    "/page" => (
                        "200 OK",
                        "text/html; charset=utf-8",
                        String::new(),
                        PAGE.into(),
                    ),
                    "/moved" => (
                        "302 Found",
                        "text/plain",
                        "location: /page\r\n".into(),
                        b"moved".to_vec(),
                    ),
                    "/away" => (
                        "301 Moved Permanently",
                        "text/plain",
                        format!("location: http://127.0.0.1:{elsewhere}/x\r\n"),
                        Vec::new(),
                    ),
                    "/logo.png" => (
                        "200 OK",
                        "image/png",
                        String::new(),
                        vec![0x89, b'P', b'N', b'G', 0, 0, 0, 13],
                    ),
                    "/latin1" => (
                        "200 OK",
                        "text/plain",
                        String::new(),
                        b"caf\xe9 ok".to_vec(),
                    ),
                    "/declared" => (
                        "200 OK",
                        "text/html; charset=iso-8859-1",
                        String::new(),
                        b"<p>caf\xe9 na\xefve \x80</p>".to_vec(),
                    ),
                    "/gzip" => (
                        "200 OK",
                        "text/html",
                        "content-encoding: gzip\r\n".into(),
                        vec![0x1f, 0x8b, 8, 0, 0, 0],
                    ),
                    "/deep" => {
                        let mut page = "<div>".repeat(20_000);
                        page.push_str("DEEP-TEXT");
                        ("200 OK", "text/html", String::new(), page.into_bytes())
                    }
                    // A page built in the browser: 2.8 MB of data in a script, then no text;
                    // and the same data before the page's text (a framework's page).
                    "/spa" | "/late" => {
                        let mut page = String::from("<html><head><script id=data>");
                        page.push_str(&"{\"k\":1}".repeat(400_000));
                        page.push_str("</script></head><body><div id=root>");
                        if route == "/late" {
                            page.push_str("<h1>Pricing</h1>");
                        }
                        page.push_str("</div></body></html>");
                        ("200 OK", "text/html", String::new(), page.into_bytes())
                    }
                    "/attributes" | "/many" => {
                        // Past the plugin's bound of 500 attributes in a tag, and at it, all
                        // double-quoted: the tokenizer path whose stack grows per attribute (a
                        // guest trapped at 5,000).
                        let count = if route == "/many" { 500 } else { 100_000 };
                        let mut page = String::from("<p ");
                        for i in 0..count {
                            page.push_str(&format!("a{i}=\"x\" "));
                        }
                        page.push_str("><b>WIDE-TEXT</b></p>");
                        ("200 OK", "text/html", String::new(), page.into_bytes())
                    }
                    _ => (
                        "404 Not Found",
                        "text/html",
                        String::new(),
                        b"<h1>No such page</h1>".to_vec(),
                    ),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Self { port, asked }
    }
}

/// `smith eval --json` playing `script` in `auto` mode with `flags`, from `dir`.
fn eval(
    env: &Env,
    script: &std::path::Path,
    flags: &[&str],
    dir: &std::path::Path,
) -> std::process::Output {
    let mut args = vec![
        "eval",
        "--json",
        "-m",
        "scripted/t",
        "--script",
        script.to_str().unwrap(),
        "--permission-mode",
        "auto",
    ];
    args.extend_from_slice(flags);
    args.push("go");
    env.command(&args).current_dir(dir).output().unwrap()
}

#[test]
fn the_model_reads_pages_as_markdown_and_what_it_cannot_read_is_said() {
    // A port nothing is granted: the redirect to it is refused before connecting.
    let elsewhere = TcpListener::bind("127.0.0.1:0").unwrap();
    elsewhere.set_nonblocking(true).unwrap();
    let site = Site::start(elsewhere.local_addr().unwrap().port());
    let base = format!("http://127.0.0.1:{}", site.port);
    let env = Env::new();
    let call = |id: &str, args: serde_json::Value| {
        format!(
            "  tool-call id=\"{id}\" name=\"web_fetch\" arguments=#\"{}\"#\n",
            args
        )
    };
    let script = env.write(
        "web.kdl",
        &format!(
            "round {{\n{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n",
            call("page", serde_json::json!({"url": format!("{base}/page")})),
            call("moved", serde_json::json!({"url": format!("{base}/moved"), "offset": 10, "length": 20})),
            call("missing", serde_json::json!({"url": format!("{base}/missing")})),
            call("binary", serde_json::json!({"url": format!("{base}/logo.png")})),
            call("away", serde_json::json!({"url": format!("{base}/away")})),
            call("latin1", serde_json::json!({"url": format!("{base}/latin1")})),
            call("scheme", serde_json::json!({"url": "ftp://127.0.0.1/x"})),
            call("declared", serde_json::json!({"url": format!("{base}/declared")})),
            call("gzip", serde_json::json!({"url": format!("{base}/gzip")})),
            call("deep", serde_json::json!({"url": format!("{base}/deep")})),
            call("attributes", serde_json::json!({"url": format!("{base}/attributes")})),
            call("many", serde_json::json!({"url": format!("{base}/many")})),
            call("spa", serde_json::json!({"url": format!("{base}/spa")})),
            call("late", serde_json::json!({"url": format!("{base}/late")})),
            // After pages built to defeat a parser, the tool still works.
            call("again", serde_json::json!({"url": format!("{base}/page"), "raw": true, "length": 50})),
        ),
    );
    let allow = format!("plugins.web.net.allow=127.0.0.1:{}", site.port);
    let out = eval(&env, &script, &["-c", &allow], env.root.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let results = outputs(&out);
    let (failed, page) = &results["page"];
    assert!(!failed, "{page}");
    assert!(page.contains(&format!("URL: {base}/page")), "{page}");
    assert!(page.contains("Title: The Manual & more"), "{page}");
    assert!(page.contains("Content-Type: text/html"), "{page}");
    assert!(page.contains("# Getting started"), "{page}");
    assert!(page.contains("[project](/docs)"), "{page}");
    assert!(page.contains("one") && page.contains("two"), "{page}");
    assert!(
        !page.contains("SCRIPT-TEXT") && !page.contains("color:red"),
        "{page}"
    );
    assert!(!page.contains("NAV-TEXT"), "{page}");
    // The redirect followed (a second request), the window cut where asked, the rest offered.
    let (failed, moved) = &results["moved"];
    assert!(!failed, "{moved}");
    assert!(moved.contains(&format!("URL: {base}/page")), "{moved}");
    assert!(moved.contains("Characters 10–30 of"), "{moved}");
    assert!(moved.contains("\"offset\": 30"), "{moved}");
    let (failed, missing) = &results["missing"];
    assert!(
        *failed && missing.contains("status 404") && missing.contains("No such page"),
        "{missing}"
    );
    let (failed, binary) = &results["binary"];
    assert!(
        *failed && binary.contains("image/png") && binary.contains("does not read"),
        "{binary}"
    );
    let (failed, away) = &results["away"];
    assert!(
        *failed && away.contains("not allowed") && away.contains("plugins.web.net.allow"),
        "{away}"
    );
    let (failed, latin1) = &results["latin1"];
    assert!(
        !*failed && latin1.contains("caf� ok") && latin1.contains("not valid UTF-8"),
        "{latin1}"
    );
    let (failed, declared) = &results["declared"];
    assert!(!*failed && declared.contains("café naïve €"), "{declared}");
    let (failed, gzip) = &results["gzip"];
    assert!(*failed && gzip.contains("`gzip`-encoded"), "{gzip}");
    // 20,000 nested elements convert as any page (the converter keeps no tree).
    let (failed, deep) = &results["deep"];
    assert!(
        !*failed && deep.contains("DEEP-TEXT") && !deep.contains("Note:"),
        "{deep}"
    );
    // A tag of more attributes than the tokenizer's stack in the guest holds: its text only.
    let (failed, wide) = &results["attributes"];
    assert!(
        !*failed
            && wide.contains("WIDE-TEXT")
            && !wide.contains("**WIDE-TEXT**")
            && wide.contains("more than 500 attributes"),
        "{wide}"
    );
    // A 2.8 MB script is skipped whole: the text after it is read, and no text is explained.
    let (failed, spa) = &results["spa"];
    assert!(
        !*failed && spa.contains("Characters 0–0 of 0") && spa.contains("built by JavaScript"),
        "{spa}"
    );
    let (failed, late) = &results["late"];
    assert!(
        !*failed && late.contains("# Pricing") && !late.contains("Note:"),
        "{late}"
    );
    let (failed, many) = &results["many"];
    assert!(
        !*failed && many.contains("**WIDE-TEXT**") && !many.contains("Note:"),
        "{many}"
    );
    let (failed, again) = &results["again"];
    assert!(!*failed && again.contains("<!doctype html>"), "{again}");
    assert!(
        again.contains("\"raw\": true"),
        "the next window keeps raw: {again}"
    );
    let (failed, scheme) = &results["scheme"];
    assert!(*failed && scheme.contains("scheme `ftp`"), "{scheme}");
    assert_eq!(
        elsewhere.accept().map(|_| ()).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock,
        "the ungranted host saw no connection"
    );
    let asked = site.asked.lock().unwrap().clone();
    for path in [
        "/page",
        "/moved",
        "/missing",
        "/logo.png",
        "/away",
        "/latin1",
    ] {
        assert!(
            asked.iter().any(|p| p == path),
            "{path} not asked: {asked:?}"
        );
    }
    // Every request is a recorded effect in the session.
    let session = std::fs::read(&env.session_files()[0]).unwrap();
    let text = String::from_utf8_lossy(&session);
    assert!(text.matches("net.fetch").count() >= 12, "one per request");
}

#[test]
fn a_trusted_projects_configuration_cannot_open_hosts_to_a_plugin() {
    let site = Site::start(1);
    let env = Env::new();
    let dir = env.root.path().join("p");
    std::fs::create_dir_all(dir.join(".smith")).unwrap();
    std::fs::write(
        dir.join(".smith/config.kdl"),
        format!(
            "plugins.web.net.allow \"127.0.0.1:{port}\"\nplugin.web.search-url \"http://127.0.0.1:{port}/search\"\n",
            port = site.port
        ),
    )
    .unwrap();
    // Trusted, so its configuration is read — all but the network rule.
    let trusted = env.command(&["trust"]).current_dir(&dir).output().unwrap();
    assert_eq!(trusted.status.code(), Some(0), "{}", stderr(&trusted));
    let args = serde_json::json!({"url": format!("http://127.0.0.1:{}/page", site.port)});
    let script = env.write(
        "one.kdl",
        &format!(
            "round {{\n  tool-call id=\"w\" name=\"web_fetch\" arguments=#\"{args}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let out = eval(&env, &script, &[], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let end = records(&out)
        .into_iter()
        .find(|r| r["type"] == "tool_end")
        .unwrap();
    let output = end["output"].as_str().unwrap();
    assert!(
        end["is_error"] == true && output.contains("plugins.web.net.allow"),
        "{output}"
    );
    assert!(site.asked.lock().unwrap().is_empty());
    let said = stderr(&out);
    assert!(
        said.contains("plugins.web.net.allow was ignored")
            && said.contains("never from a project's"),
        "{said}"
    );
    // Nor point a plugin at a server of its choosing: its search endpoint is ignored too.
    assert!(
        said.contains("plugin.web.search-url was ignored: a plugin's settings come from your own configuration"),
        "{said}"
    );
}

/// The outputs of a run's tool calls by call id: whether each failed, and its text.
fn outputs(out: &std::process::Output) -> std::collections::HashMap<String, (bool, String)> {
    common::tool_ends(out)
        .into_iter()
        .map(|(id, is_error, output)| (id, (is_error, output)))
        .collect()
}

#[test]
fn web_search_is_offered_only_once_an_endpoint_is_set_and_reads_its_results() {
    let site = Site::start(1);
    let env = Env::new();
    let search = serde_json::json!({"query": "rust & wasm", "limit": 2});
    let script = env.write(
        "search.kdl",
        &format!(
            "round {{\n  tool-call id=\"s\" name=\"web_search\" arguments=#\"{search}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"done\"\n  stop \"end_turn\"\n}}\n"
        ),
    );
    let allow = format!("plugins.web.net.allow=127.0.0.1:{}", site.port);

    // No endpoint: the model is not offered the tool, and a call of it is refused, naming the
    // setting.
    let listed = env.command(&["tools", "list"]).output().unwrap();
    let listing = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listing.contains("web_search")
            && listing.contains("not offered here: it needs the setting plugin.web.search-url"),
        "{listing}"
    );
    let out = eval(&env, &script, &["-c", &allow], env.root.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (failed, said) = &outputs(&out)["s"];
    assert!(
        *failed && said.contains("plugin.web.search-url") && said.contains("not run"),
        "{said}"
    );
    assert!(site.asked.lock().unwrap().is_empty());

    // An endpoint: the query goes to it, the results come back numbered; entries of the
    // wrong shape are skipped or shown plainly, never fatal.
    let endpoint = format!(
        "plugin.web.search-url=http://127.0.0.1:{}/search",
        site.port
    );
    let out = eval(
        &env,
        &script,
        &["-c", &allow, "-c", &endpoint],
        env.root.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (failed, results) = &outputs(&out)["s"];
    assert!(!failed, "{results}");
    assert!(
        results.contains("(page 1, 2 of 5 shown)")
            && results
                .contains("1. The Rust Book\n   https://doc.rust-lang.org/book/\n   Learn Rust")
            && results.contains("2. WebAssembly"),
        "{results}"
    );
    assert!(
        !results.contains("javascript:") && !results.contains("fake") && !results.contains("Third"),
        "{results}"
    );
    assert!(
        results.contains("Suggestions: rust wasm bindgen\n"),
        "{results}"
    );
    assert!(results.contains("did not answer: brave"), "{results}");
    assert!(
        results.contains("(more on this page:") && results.contains("\"limit\":5"),
        "{results}"
    );
    assert_eq!(
        site.asked.lock().unwrap().as_slice(),
        ["/search?q=rust+%26+wasm&format=json&pageno=1"]
    );

    // The endpoint's own q, format and pageno are replaced, its other parameters kept, and a
    // redirect followed.
    let moved = format!(
        "plugin.web.search-url=http://127.0.0.1:{}/moved-search?q=preset&lang=en&format=html",
        site.port
    );
    let out = eval(
        &env,
        &script,
        &["-c", &allow, "-c", &moved],
        env.root.path(),
    );
    let (failed, results) = &outputs(&out)["s"];
    assert!(!failed && results.contains("1. The Rust Book"), "{results}");
    let asked = site.asked.lock().unwrap().clone();
    assert_eq!(
        asked[asked.len() - 2..],
        [
            "/moved-search?lang=en&q=rust+%26+wasm&format=json&pageno=1",
            "/search"
        ]
    );

    // An endpoint that is not a JSON search API, or answers JSON of another shape, is said
    // to be one, with what it answered.
    for (path, said_what) in [
        ("/page?x=1", "did not answer with JSON"),
        ("/limited", "rate limited, try later"),
    ] {
        let wrong = format!("plugin.web.search-url=http://127.0.0.1:{}{path}", site.port);
        let out = eval(
            &env,
            &script,
            &["-c", &allow, "-c", &wrong],
            env.root.path(),
        );
        let (failed, said) = &outputs(&out)["s"];
        assert!(
            *failed && said.contains(said_what) && said.contains("plugin.web.search-url"),
            "{said}"
        );
    }
}
