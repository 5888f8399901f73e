//! The input's habits: the prompt history search (Alt+R) and the vi mode
//! (`tui.input-mode vim`), typed as a person types them.

use crate::common::Env;
use crate::pane::Pane;

#[test]
fn alt_r_finds_an_earlier_prompt_of_the_session_and_takes_it_into_the_draft() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    for prompt in ["fix the parser", "write tests"] {
        pane.type_text(prompt);
        pane.keys(&["Enter"]);
        pane.wait_for_text(&format!("› {prompt}"));
        pane.wait_for_text("∴ thinking");
        pane.wait_for_screen("the turn ended", |s| s.contains("scripted/demo · idle"));
    }
    crate::quit(&pane);
    pane.wait_for_text("resume this session with");

    // Continued in a new process, the session's prompts are searched.
    let pane = Pane::start(&env, &["--model", "scripted/demo", "--continue"], &[]);
    pane.wait_for_screen("the session's turns", |s| {
        s.matches("∴ thinking").count() == 2
    });
    pane.type_text("half typed");
    pane.keys(&["M-r"]);
    pane.wait_for_text("prompt search:");
    pane.type_text("PARS");
    let screen = pane.wait_for_screen("the match", |s| s.contains("1 of 1"));
    assert!(
        screen.contains("prompt search: PARS") && screen.contains("fix the parser"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_for_screen("the search closed", |s| !s.contains("prompt search:"));
    pane.keys(&["Enter"]);
    let screen = pane.wait_for_screen("the prompt sent again", |s| {
        s.matches("∴ thinking").count() == 3
    });
    assert_eq!(screen.matches("› fix the parser").count(), 2, "{screen}");
    // The draft the search replaced is kept: Up brings it back.
    pane.wait_for_text("scripted/demo · idle");
    pane.keys(&["Up", "Up"]);
    pane.wait_for_text("half typed");
    crate::quit(&pane);
}

#[test]
fn the_vi_mode_edits_the_draft_with_motions_and_shows_its_mode_in_the_status_line() {
    let env = Env::new();
    let pane = Pane::start(
        &env,
        &["--model", "scripted/demo", "-c", "tui.input-mode=vim"],
        &[],
    );
    pane.wait_for_text("-- INSERT -- · scripted/demo · idle");
    pane.type_text("hello wrld again");
    pane.keys(&["Escape"]);
    pane.wait_for_text("-- NORMAL -- · scripted/demo");
    // To the line's start, the next word, change it; then drop the last word and its space.
    pane.type_text("0wcw");
    pane.wait_for_text("-- INSERT --");
    pane.type_text("world");
    pane.keys(&["Escape"]);
    pane.wait_for_text("-- NORMAL --");
    pane.type_text("$bhD");
    pane.wait_for_screen("the edited draft", |s| {
        s.contains("› hello world") && !s.contains("again")
    });
    pane.keys(&["Enter"]);
    pane.wait_for_text("∴ thinking");
    let screen = pane.wait_for_screen("the turn ended and insert mode is back", |s| {
        s.contains("-- INSERT -- · scripted/demo · idle")
    });
    assert!(screen.contains("› hello world"), "{screen}");
    let users: Vec<String> = crate::messages(&env)
        .into_iter()
        .filter(|(r, _)| *r == smith::Role::User)
        .map(|(_, t)| t)
        .collect();
    assert_eq!(users, ["hello world"]);
    crate::quit(&pane);
}

/// An X server of its own (Xvfb, on the display it picked): killed when dropped, and every
/// clipboard owner of it (xclip) with it.
struct Display {
    server: std::process::Child,
    name: String,
}

impl Display {
    fn start() -> Self {
        use std::io::BufRead as _;
        let mut server = std::process::Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-nolisten",
                "tcp",
                "-screen",
                "0",
                "320x240x24",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb runs (Debian's xvfb; .ci/run installs it)");
        let mut line = String::new();
        std::io::BufReader::new(server.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let number = line.trim();
        assert!(
            !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()),
            "Xvfb named no display: {line:?}"
        );
        Self {
            server,
            name: format!(":{number}"),
        }
    }

    /// Put `bytes` on the clipboard as `target` (xclip serves it from the background).
    fn copy(&self, bytes: &[u8], target: &str) {
        use std::io::Write as _;
        let mut xclip = std::process::Command::new("xclip")
            .args(["-selection", "clipboard", "-t", target, "-i"])
            .env("DISPLAY", &self.name)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("xclip runs (Debian's xclip; .ci/run installs it)");
        xclip.stdin.take().unwrap().write_all(bytes).unwrap();
        // xclip forks its server and exits once it owns the selection.
        assert!(xclip.wait().unwrap().success());
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

#[test]
fn ctrl_v_pastes_the_clipboard_image_as_a_chip_refused_by_a_text_model_and_sent_to_one_that_sees() {
    let env = Env::new();
    // No display at all: said, nothing pasted.
    let pane = Pane::start(
        &env,
        &["--model", "scripted/demo"],
        &[("DISPLAY", ""), ("WAYLAND_DISPLAY", "")],
    );
    pane.wait_for_text("scripted/demo · idle");
    pane.keys(&["C-v"]);
    pane.wait_for_text("DISPLAY and WAYLAND_DISPLAY are unset");
    crate::quit(&pane);

    let display = Display::start();
    let vars = [("DISPLAY", display.name.as_str()), ("WAYLAND_DISPLAY", "")];
    display.copy(b"just words", "UTF8_STRING");
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &vars);
    pane.wait_for_text("scripted/demo · idle");
    pane.keys(&["C-v"]);
    pane.wait_for_text("the clipboard holds text, no image");

    // An image: a chip in the draft; a model without image input refuses it, nothing
    // written, and the draft keeps its text and its image.
    display.copy(&crate::common::PIXEL_PNG, "image/png");
    pane.type_text("what is ");
    pane.keys(&["C-v"]);
    pane.wait_for_text("[image · 1×1 PNG,");
    pane.type_text(" this?");
    pane.keys(&["Enter"]);
    pane.wait_for_text("cannot take the image of this input");
    let screen = pane.wait_for_screen("the draft back", |s| {
        s.contains("› what is [image · 1×1 PNG,") && s.contains("B] this?")
    });
    assert!(!screen.contains("You said"), "{screen}");
    crate::quit(&pane);
    assert!(
        crate::session_file(&env).is_none(),
        "nothing was written for the refused input"
    );

    // A model that takes images: the PNG goes with the prompt, recorded.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"openai-compatible/vision\" {\n    tools #true\n    image-input #true\n}\n",
    )
    .unwrap();
    let chat = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a pixel\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let server =
        smith_ai::loopback::serve(vec![smith_ai::loopback::sse_in_pieces(chat.as_bytes(), 64)]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let mut vars = vars.to_vec();
    vars.push(("OPENAI_COMPATIBLE_API_KEY", "sk-test-not-a-real-key-0000"));
    let pane = Pane::start(
        &env,
        &["--model", "openai-compatible/vision", "-c", &base],
        &vars,
    );
    pane.wait_for_text("openai-compatible/vision · idle");
    pane.type_text("what is this?");
    pane.keys(&["C-v"]);
    pane.wait_for_text("[image · 1×1 PNG,");
    pane.keys(&["Enter"]);
    pane.wait_for_text("a pixel");
    let sent = crate::common::request_body(&server.request().unwrap());
    let parts = sent["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .unwrap()["content"]
        .clone();
    let url = parts
        .as_array()
        .and_then(|p| p.iter().find(|p| p["type"] == "image_url"))
        .map(|p| p["image_url"]["url"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("no image part: {parts}"));
    assert!(url.starts_with("data:image/png;base64,"), "{url}");
    // The image's place in the text is marked, numbered as it goes with the message.
    let text = parts
        .as_array()
        .and_then(|p| p.iter().find(|p| p["type"] == "text"))
        .and_then(|p| p["text"].as_str())
        .unwrap_or_default();
    assert!(text.starts_with("what is this?[image 1]"), "{text}");
    crate::quit(&pane);
    let file = crate::session_file(&env).unwrap();
    let images: Vec<String> = smith_store::read_session(&file)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            smith_store::Record::Message(m) if m.message.role == smith::Role::User => Some(
                m.message
                    .images()
                    .map(|i| i.media_type.clone())
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(images, ["image/png"]);
}
