//! `smith sessions export ID --html`, rendered in headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromedriver`, installed by `.ci/run`): the page loads and runs
//! nothing, its thinking and tool calls are collapsed until opened, its text holds every
//! message and tool result of the session (a secret registered after the run shown as its
//! reference), the edit's diff is there, and a screenshot is taken.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use base64::Engine as _;
use common::{Env, records, stderr, stdout};
use serde_json::{Value, json};

const CANARY: &str = "canary-7f3a9c2e-0d41-4b8e";

/// A read of the notes, an edit, then an answer whose text needs escaping.
const SCRIPT: &str = r##"round {
  thinking "I should look at the notes first."
  tool-call id="c1" name="read" arguments=#"{"path": "notes.txt"}"#
  tool-call id="c2" name="edit" arguments=#"{"path": "a.txt", "edits": [{"old_text": "world", "new_text": "there"}]}"#
  stop "tool_use"
}
round {
  text "All done: <b>not bold</b> & unchanged."
  stop "end_turn"
}
"##;

/// Chromium and its driver, or `None` outside CI when they are not installed.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let found = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
    };
    match (found("chromium"), found("chromedriver")) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must install chromium and chromium-driver (.ci/run)"
            );
            None
        }
    }
}

/// A chromedriver on a loopback port, ended when dropped.
struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start(driver: &Path) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let d = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        smith_testkit::wait_until("chromedriver answering", || {
            ureq::get(format!("{}/status", d.base)).call().is_ok()
        });
        d
    }

    fn post(&self, path: &str, body: &Value) -> Value {
        let mut response = ureq::post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body.to_string())
            .unwrap_or_else(|e| panic!("POST {path}: {e}"));
        value(&response.body_mut().read_to_string().unwrap())
    }

    fn get(&self, path: &str) -> Value {
        let mut response = ureq::get(format!("{}{path}", self.base))
            .call()
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        value(&response.body_mut().read_to_string().unwrap())
    }
}

/// The `value` of a WebDriver answer.
fn value(body: &str) -> Value {
    serde_json::from_str::<Value>(body).unwrap()["value"].clone()
}

#[test]
fn the_page_renders_in_chromium_with_the_session_s_text_and_nothing_loaded() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let env = Env::new();
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), format!("the key is {CANARY}\n")).unwrap();
    std::fs::write(work.join("a.txt"), "hello\nworld\n").unwrap();
    let script = env.write("page.kdl", SCRIPT);
    let out = env
        .command(&[
            "eval",
            "-m",
            "scripted/page",
            "--script",
            script.to_str().unwrap(),
            "Read my notes & fix a.txt",
        ])
        .current_dir(&work)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Registered after the run: the session holds the plaintext, the page its reference.
    let mut child = env.spawn_with_stdin(&["secrets", "add", "CANARY"], &format!("{CANARY}\n"));
    assert!(child.wait().unwrap().success());
    let id = stdout(&env.run(&["sessions", "list", "--json"]))
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .next()
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = env.root.path().join("session.html");
    let written = env.run(&["sessions", "export", &id, "--html", page.to_str().unwrap()]);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains(CANARY) && html.contains("⟦secret:CANARY⟧"));
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    // The same page on stdout.
    let printed = env.run(&["sessions", "export", &id, "--html"]);
    assert_eq!(stdout(&printed), html);

    let driver = Driver::start(&chromedriver);
    let profile = env.root.path().join("chromium-profile");
    let session = driver.post(
        "/session",
        &json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--window-size=1200,1600",
                     format!("--user-data-dir={}", profile.display())]
        }}}}),
    );
    let sid = session["sessionId"].as_str().unwrap().to_owned();
    let at = |p: &str| format!("/session/{sid}{p}");
    let run =
        |script: &str| driver.post(&at("/execute/sync"), &json!({"script": script, "args": []}));
    driver.post(
        &at("/url"),
        &json!({"url": format!("file://{}", page.display())}),
    );

    // Nothing was loaded and nothing runs.
    assert_eq!(run("return document.scripts.length"), json!(0));
    assert_eq!(
        run("return performance.getEntriesByType('resource').length"),
        json!(0)
    );
    // Thinking and tool calls are collapsed until opened.
    let closed = run("return document.body.innerText")
        .as_str()
        .unwrap()
        .to_owned();
    assert!(closed.contains("Read my notes & fix a.txt"), "{closed}");
    assert!(
        !closed.contains("I should look at the notes first."),
        "{closed}"
    );
    assert_eq!(
        run("return document.querySelectorAll('details').length"),
        json!(4),
        "thinking, two tool calls, one batch of changes"
    );
    run("document.querySelectorAll('details').forEach(d => d.open = true); return 0");
    let text = run("return document.body.innerText")
        .as_str()
        .unwrap()
        .to_owned();

    // The page's text holds what the session holds: every message and tool result.
    let exported = records(&env.run(&["sessions", "export", &id]));
    let mut checked = 0;
    for r in &exported {
        let pieces: Vec<String> = match r["kind"].as_str().unwrap() {
            "message" => r["record"]["message"]["content"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_owned))
                .collect(),
            "tool_result" => vec![r["record"]["result"]["output"].as_str().unwrap().to_owned()],
            _ => continue,
        };
        for piece in pieces {
            let piece = piece.replace(CANARY, "⟦secret:CANARY⟧");
            for line in piece.lines().filter(|l| !l.trim().is_empty()) {
                assert!(
                    text.contains(line.trim()),
                    "the page lacks {line:?}:\n{text}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "{checked}");
    assert!(!text.contains(CANARY));
    assert!(
        text.contains("All done: <b>not bold</b> & unchanged."),
        "escaped, not markup"
    );
    assert!(
        text.contains("-world") && text.contains("+there"),
        "the edit's diff: {text}"
    );
    assert!(text.contains("Turn 1") && text.contains("usage over the whole session"));

    let shot = driver.get(&at("/screenshot"));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot.as_str().unwrap())
        .unwrap();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{}",
        png.len()
    );
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("session-page.png"),
        &png,
    )
    .unwrap();
    let _ = ureq::delete(format!("{}{}", driver.base, at(""))).call();
}
