//! Provider requests as the catalog says, through the built binary against loopback servers
//! with the real provider plugins (spec: Providers, models, and authentication → Model
//! capabilities): each vendor is sent the dispatched model's catalog output limit or the
//! lower `max-output` setting, and each attempt records the limit and its source; a context
//! overflow is said with the model's window.

mod common;

use common::{Env, PIXEL_PNG, Vendor, records, request_body, stderr};
use smith_ai::loopback;

const CANARY: &str = "sk-canary-requests-91c2";

/// Run `eval --json` of `model` of vendor `v` against a loopback server playing `steps`.
fn eval_at(env: &Env, v: &Vendor, model: &str, url: &str, extra: &[&str]) -> std::process::Output {
    let base = format!("provider.{}.base-url={url}", v.id);
    let model = format!("{}/{model}", v.id);
    let mut args = vec!["eval", "--json", "-c", &base, "-m", &model];
    args.extend_from_slice(extra);
    args.push("hi");
    env.command(&args).env(v.key_var, CANARY).output().unwrap()
}

fn attempt(out: &std::process::Output) -> serde_json::Value {
    records(out)
        .into_iter()
        .find(|r| r["type"] == "attempt")
        .unwrap_or_else(|| panic!("no attempt record: {}", stderr(out)))["attempt"]
        .clone()
}

/// The output limit in a vendor's request body.
fn sent_limit(id: &str, sent: &serde_json::Value) -> Option<u64> {
    match id {
        "anthropic" => sent["max_tokens"].as_u64(),
        "openai" => sent["max_output_tokens"].as_u64(),
        "google" => sent["generationConfig"]["maxOutputTokens"].as_u64(),
        _ => sent["max_completion_tokens"].as_u64(),
    }
}

#[test]
fn each_vendor_is_sent_the_catalogs_output_limit_or_the_lower_setting() {
    for v in &common::VENDORS {
        let env = Env::new();
        let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
        let out = eval_at(&env, v, v.model, &server.url, &[]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", v.id, stderr(&out));
        let a = attempt(&out);
        let catalog = a["capabilities"]["output"]
            .as_u64()
            .unwrap_or_else(|| panic!("{}: the catalog knows the limit: {a}", v.id));
        assert!(catalog > 8192, "{}: {catalog}", v.id);
        assert_eq!(
            a["output_limit"],
            serde_json::json!({"tokens": catalog, "source": "catalog"}),
            "{}",
            v.id
        );
        let sent = request_body(&server.request().unwrap());
        assert_eq!(sent_limit(v.id, &sent), Some(catalog), "{}: {sent}", v.id);

        // A lower setting wins, and is said; a higher one does not.
        for (setting, tokens, source) in [
            ("max-output=1000", 1000, "setting"),
            ("max-output=99000000", catalog, "catalog"),
        ] {
            let server =
                loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
            let out = eval_at(&env, v, v.model, &server.url, &["-c", setting]);
            assert_eq!(out.status.code(), Some(0), "{}: {}", v.id, stderr(&out));
            assert_eq!(
                attempt(&out)["output_limit"],
                serde_json::json!({"tokens": tokens, "source": source}),
                "{} {setting}",
                v.id
            );
            let sent = request_body(&server.request().unwrap());
            assert_eq!(sent_limit(v.id, &sent), Some(tokens), "{} {setting}", v.id);
        }
    }
}

#[test]
fn a_model_with_no_known_limit_gets_the_providers_default_and_the_attempt_says_so() {
    let env = Env::new();
    let chat = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(chat.as_bytes(), 64)]);
    let local = Vendor {
        id: "openai-compatible",
        model: "",
        key_var: "OPENAI_COMPATIBLE_API_KEY",
        text_stream: chat,
        request_line: "",
    };
    let out = eval_at(
        &env,
        &local,
        "my-local-model",
        &format!("{}/v1", server.url),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        attempt(&out)["output_limit"],
        serde_json::json!({"tokens": null, "source": "provider-default"})
    );
    let sent = request_body(&server.request().unwrap());
    assert_eq!(sent_limit("openai-compatible", &sent), None, "{sent}");
}

#[test]
fn a_context_overflow_names_the_models_window() {
    let env = Env::new();
    let v = &common::VENDORS[0];
    let body = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../core/host/tests/fixtures/overflow/anthropic.json"),
    )
    .unwrap();
    let server = loopback::serve(vec![loopback::json_response("400 Bad Request", &body)]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let a = attempt(&out);
    let window = a["capabilities"]["context"].as_u64().unwrap();
    let end = records(&out).pop().unwrap();
    let error = end["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("prompt is too long")
            && error.contains(&format!("context window is {window} tokens"))
            && error.contains("start a new session"),
        "{end}"
    );
    assert!(!error.contains(CANARY));
}

/// An Anthropic stream whose one content block is a call of the `ls` tool.
const ANTHROPIC_LS_CALL: &str = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":30,\"cache_creation_input_tokens\":2000,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"ls\",\"input\":{}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":5}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

/// The JSON paths of every `cache_control` in an Anthropic request body.
fn breakpoints(sent: &serde_json::Value) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(last) = sent["tools"].as_array().and_then(|t| t.last())
        && !last["cache_control"].is_null()
    {
        found.push("tools[-1]".to_owned());
    }
    for (i, t) in sent["tools"].as_array().into_iter().flatten().enumerate() {
        let last = sent["tools"].as_array().map_or(0, Vec::len) - 1;
        assert!(
            i == last || t["cache_control"].is_null(),
            "only the last tool"
        );
    }
    if sent["system"][0]["cache_control"] == serde_json::json!({"type": "ephemeral"}) {
        found.push("system".to_owned());
    }
    for (m, message) in sent["messages"].as_array().unwrap().iter().enumerate() {
        for (b, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if !block["cache_control"].is_null() {
                found.push(format!("messages[{m}].content[{b}]"));
            }
        }
    }
    found
}

#[test]
fn anthropic_requests_mark_the_stable_prefix_and_the_next_round_reuses_it() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let v = &common::VENDORS[0];
    // Round 2 reads from the cache what round 1 wrote (the Messages API reports both cache
    // buckets in every usage).
    let reads = v.text_stream.replace(
        "\"input_tokens\":3,",
        "\"input_tokens\":3,\"cache_read_input_tokens\":2000,\"cache_creation_input_tokens\":0,",
    );
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(ANTHROPIC_LS_CALL.as_bytes(), 64),
        loopback::sse_in_pieces(reads.as_bytes(), 64),
    ]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Each bucket is priced once, at the attempt's catalog prices.
    let price = attempt(&out)["capabilities"]["price"].clone();
    let p = |k: &str| price[k].as_f64().unwrap() / 1e6;
    let expected = 33.0 * p("input")
        + 7.0 * p("output")
        + 2000.0 * p("cache_write")
        + 2000.0 * p("cache_read");
    let end = records(&out).pop().unwrap();
    let cost = end["cost_usd"].as_f64().unwrap();
    assert!(
        (cost - expected).abs() < 1e-12,
        "{cost} vs {expected}: {end}"
    );
    assert!(p("cache_read") < p("input") && p("cache_write") > p("input"));
    let first = request_body(&server.request().unwrap());
    let second = request_body(&server.request().unwrap());
    // Round 1: the tool definitions, the instructions (the bundled prompt plugin's) and the
    // prompt.
    assert_eq!(
        breakpoints(&first),
        ["tools[-1]", "system", "messages[0].content[0]"],
        "{first}"
    );
    // Round 2: the same three, so it reads what round 1 wrote, and the tool result, which the
    // next round will read; never more than the API's four.
    let second_points = breakpoints(&second);
    assert_eq!(
        second_points,
        [
            "tools[-1]",
            "system",
            "messages[0].content[0]",
            "messages[2].content[0]"
        ],
        "{second}"
    );
    assert_eq!(
        first["system"], second["system"],
        "unchanged instructions are byte-identical, so the cache holds"
    );
    assert_eq!(second["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(first["tools"], second["tools"]);
    assert_eq!(
        first["messages"][0], second["messages"][0],
        "the prefix is byte-identical"
    );

    // A model whose record does not advertise caching is sent no breakpoint.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"anthropic/claude-private\" {\n    tools #true\n    output 8000\n}\n",
    )
    .unwrap();
    let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
    let out = eval_at(&env, v, "claude-private", &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let sent = request_body(&server.request().unwrap());
    assert!(breakpoints(&sent).is_empty(), "{sent}");
}

#[test]
fn openai_requests_carry_a_prompt_cache_key_stable_across_the_session() {
    let env = Env::new();
    let v = &common::VENDORS[1];
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
        loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
    ]);
    let out = eval_at(&env, v, v.model, &server.url, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();
    let key = request_body(&server.request().unwrap())["prompt_cache_key"].clone();
    assert_eq!(key, session.as_str(), "the session id");
    let out = eval_at(&env, v, v.model, &server.url, &["--session", &session]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        request_body(&server.request().unwrap())["prompt_cache_key"],
        key
    );
}

#[test]
fn images_reach_a_model_that_takes_them_recorded_with_the_prompt() {
    let env = Env::new();
    let work = env.root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("shot.png"), PIXEL_PNG).unwrap();
    let mut gif = b"GIF89a".to_vec();
    gif.extend_from_slice(&[1, 0, 1, 0, 0, 0, 0, 0x3b]);
    let elsewhere = env.root.path().join("diagram.gif");
    std::fs::write(&elsewhere, &gif).unwrap();

    let v = &common::VENDORS[0];
    let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
    let base = format!("provider.anthropic.base-url={}", server.url);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-m",
            "anthropic/claude-haiku-4-5",
            "--image",
            elsewhere.to_str().unwrap(),
            "what differs between @shot.png and the diagram?",
        ])
        .current_dir(&work)
        .env(v.key_var, CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(attempt(&out)["capabilities"]["image_input"], true);
    let sent = request_body(&server.request().unwrap());
    let content = sent["messages"][0]["content"].as_array().unwrap();
    let images: Vec<&serde_json::Value> = content.iter().filter(|b| b["type"] == "image").collect();
    assert_eq!(images.len(), 2, "{sent}");
    assert_eq!(images[0]["source"]["media_type"], "image/png");
    assert_eq!(images[1]["source"]["media_type"], "image/gif");
    let text = content[0]["text"].as_str().unwrap();
    assert!(
        text.contains("`shot.png` (image/png, 70 bytes, sha256 ")
            && text.contains("attached as image 1")
            && text.contains("attached as image 2"),
        "{text}"
    );

    // The session holds the images in the user message and the files in the submission.
    let file = env.session_files().pop().unwrap();
    let session = smith_store::read_session(&file).unwrap();
    let mut saw_message = false;
    for entry in session.entries {
        match entry.record {
            smith_store::Record::Submission(s) => {
                let paths: Vec<&str> = s.attachments.iter().map(|a| a.path.as_str()).collect();
                assert_eq!(paths, ["shot.png", elsewhere.to_str().unwrap()]);
            }
            smith_store::Record::Message(m) if m.message.role == smith::Role::User => {
                let types: Vec<&str> = m.message.images().map(|i| i.media_type.as_str()).collect();
                assert_eq!(types, ["image/png", "image/gif"]);
                saw_message = true;
            }
            _ => {}
        }
    }
    assert!(saw_message);
}

#[test]
fn an_image_for_a_text_only_model_is_refused_before_anything_is_sent_or_passed_over_in_a_group() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let png = env.root.path().join("shot.png");
    std::fs::write(&png, PIXEL_PNG).unwrap();
    let png = png.to_str().unwrap();

    // Alone: refused while routing, nothing written.
    let out = env.run(&[
        "eval",
        "--json",
        "-m",
        "scripted/demo",
        "--image",
        png,
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let recs = records(&out);
    let message = recs[0]["message"].as_str().unwrap();
    assert!(
        recs[0]["type"] == "error"
            && message.contains("cannot take the image of this input")
            && message.contains("scripted/demo's image input is"),
        "{message}"
    );
    assert!(env.session_files().is_empty());

    // Not an image at all.
    let notes = env.write("notes.txt", "plain text");
    let out = env.run(&[
        "eval",
        "-m",
        "scripted/demo",
        "--image",
        notes.to_str().unwrap(),
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a PNG, JPEG, GIF or WebP image"),
        "{}",
        stderr(&out)
    );

    // In a group, the text-only model is passed over, on the record, before any byte is sent
    // to it.
    std::fs::write(
        env.home().join("models.kdl"),
        r#"
model "openai-compatible/text-only" {
    tools #true
    image-input #false
}
model "openai-compatible/vision" {
    tools #true
    image-input #true
}
group "looks" "openai-compatible/text-only" "openai-compatible/vision"
"#,
    )
    .unwrap();
    let chat = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"seen\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let server = loopback::serve(vec![loopback::sse_in_pieces(chat.as_bytes(), 64)]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let out = env
        .command(&[
            "eval", "--json", "-c", &base, "-m", "looks", "--image", png, "hi",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let a = attempt(&out);
    assert_eq!(a["model"], "openai-compatible/vision");
    let skipped = a["routing"]["skipped"][0].as_str().unwrap();
    assert!(
        skipped.starts_with("openai-compatible/text-only") && skipped.contains("image"),
        "{skipped}"
    );
    let sent = request_body(&server.request().unwrap());
    assert_eq!(sent["model"], "vision");
    assert_eq!(
        server.requests_now(),
        0,
        "one request, to the model that takes images"
    );

    // Continuing that session on the text-only model: its history holds the image, so the new
    // input is refused before anything is written.
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();
    let file = env.session_files().pop().unwrap();
    let entries = |file: &std::path::Path| smith_store::read_session(file).unwrap().entries;
    let before = entries(&file);
    let out = env
        .command(&[
            "eval",
            "--json",
            "-c",
            &base,
            "-m",
            "openai-compatible/text-only",
            "--session",
            &session,
            "and now?",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = records(&out).pop().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("cannot take this input, so nothing was written")
            && message.contains("its context has an image")
            && message.contains("a new session or a fork"),
        "{message}"
    );
    assert!(entries(&file) == before, "no entry was written");
    assert_eq!(server.requests_now(), 0);
}

/// Plain `eval`'s last line on stderr gives the turn's requests, tokens (cache reads and
/// writes among the input) and cost, the same the `--json` run's `run_end` carries.
#[test]
fn plain_eval_says_what_a_priced_turn_cost() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let v = &common::VENDORS[0];
    let cached = v.text_stream.replace(
        "\"input_tokens\":3,",
        "\"input_tokens\":3,\"cache_read_input_tokens\":2000,\"cache_creation_input_tokens\":1500,",
    );
    let server = loopback::serve(vec![
        loopback::sse_in_pieces(cached.as_bytes(), 64),
        loopback::sse_in_pieces(cached.as_bytes(), 64),
    ]);
    let end = records(&eval_at(&env, v, v.model, &server.url, &[]))
        .pop()
        .unwrap();
    let cost = end["cost_usd"].as_f64().unwrap();
    assert!(cost > 0.0, "{end}");
    let base = format!("provider.{}.base-url={}", v.id, server.url);
    let model = format!("{}/{}", v.id, v.model);
    let out = env
        .command(&["eval", "-c", &base, "-m", &model, "hi"])
        .env(v.key_var, CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stderr(&out);
    let line = said.lines().last().unwrap_or_default();
    let input = end["usage"]["input"].as_u64().unwrap() + 3500;
    let output = end["usage"]["output"].as_u64().unwrap();
    assert!(
        line.starts_with(&format!(
            "smith: turn: 1 request, {},{:03} input tokens (2,000 cache reads, 1,500 cache writes), {output} output tokens, $",
            input / 1000,
            input % 1000
        )),
        "{said}"
    );
    let shown: f64 = line.rsplit('$').next().unwrap().parse().unwrap();
    assert!((shown - cost).abs() < 0.00005, "{line} vs {cost}");
}

/// An Anthropic response calling a tool no plugin has (answered with an error result, so the
/// turn goes on to a second round), reporting `input` input tokens.
fn tool_use_stream(input: u64) -> String {
    format!(
        "event: message_start\ndata: {{\"type\":\"message_start\",\"message\":{{\"usage\":{{\"input_tokens\":{input},\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0,\"output_tokens\":1}}}}}}\n\n\
event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"nothing\",\"input\":{{}}}}}}\n\n\
event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"input_json_delta\",\"partial_json\":\"{{}}\"}}}}\n\n\
event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":0}}\n\n\
event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"tool_use\"}},\"usage\":{{\"output_tokens\":5}}}}\n\n\
event: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n"
    )
}

/// `run.max-cost` stops a turn before the request that would take it past the budget: the
/// first round's response cost $0.199 of a $0.20 budget (claude-haiku-4-5 at $1 per million
/// input tokens), so the second request — whose instructions alone cost more than the rest —
/// is never sent; the turn ends with stop reason `budget`, recorded in the session, said on
/// stderr with what it had cost, and plain `eval` exits 1.
#[test]
fn a_cost_budget_stops_the_turn_before_the_request_that_would_pass_it() {
    let v = &common::VENDORS[0];
    let stream = tool_use_stream(199_000);
    for json in [true, false] {
        let env = Env::new();
        std::fs::create_dir_all(env.home()).unwrap();
        let server = loopback::serve(vec![
            loopback::sse_in_pieces(stream.as_bytes(), 64),
            loopback::sse_in_pieces(v.text_stream.as_bytes(), 64),
        ]);
        let base = format!("provider.{}.base-url={}", v.id, server.url);
        let model = format!("{}/{}", v.id, v.model);
        let mut args = vec!["eval", "-c", &base, "-c", "run.max-cost=0.20", "-m", &model];
        if json {
            args.push("--json");
        }
        args.push("hi");
        let out = env.command(&args).env(v.key_var, CANARY).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(server.requests_now(), 1, "the second request is never sent");
        let said = stderr(&out);
        if json {
            let end = records(&out).pop().unwrap();
            assert_eq!(end["type"], "run_end", "{end}");
            assert_eq!(end["stop_reason"], "budget", "{end}");
            let cost = end["cost_usd"].as_f64().unwrap();
            assert!((cost - 0.199_025).abs() < 1e-9, "{end}");
        } else {
            assert!(
                said.contains("stopped at the budget of $0.20 (run.max-cost)")
                    && said.contains("this turn has cost $0.1990")
                    && said.contains("raise run.max-cost"),
                "{said}"
            );
        }
        // The session records the stop reason.
        let file = env.session_files().pop().unwrap();
        let ends: Vec<smith::StopReason> = smith_store::read_session(&file)
            .unwrap()
            .entries
            .iter()
            .filter_map(|e| match &e.record {
                smith_store::Record::RunEnd(end) => Some(end.stop_reason),
                _ => None,
            })
            .collect();
        assert_eq!(ends, [smith::StopReason::Budget]);
    }
}

/// A one-round turn whose response's output takes it past the budget (unknown before it
/// arrived) ends normally, with a warning that says so.
#[test]
fn a_response_that_takes_the_turn_past_its_budget_is_said() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let v = &common::VENDORS[0];
    let costly = v.text_stream.replace(
        "\"input_tokens\":3,",
        "\"input_tokens\":300000,\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0,",
    );
    let server = loopback::serve(vec![loopback::sse_in_pieces(costly.as_bytes(), 64)]);
    let base = format!("provider.{}.base-url={}", v.id, server.url);
    let model = format!("{}/{}", v.id, v.model);
    let out = env
        .command(&[
            "eval",
            "-c",
            &base,
            "-c",
            "run.max-cost=0.20",
            "-m",
            &model,
            "hi",
        ])
        .env(v.key_var, CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("this turn has cost $0.30001, past its budget of $0.20 (run.max-cost)"),
        "{said}"
    );
}

/// A budget the first request alone would pass sends nothing; a model without an input price
/// cannot be held to one and says so; a budget that is not an amount of dollars is a
/// configuration error naming the key.
#[test]
fn a_cost_budget_that_cannot_be_kept_sends_nothing_and_a_bad_one_is_refused() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    let v = &common::VENDORS[0];
    let server = loopback::serve(vec![loopback::sse_in_pieces(v.text_stream.as_bytes(), 64)]);
    let base = format!("provider.{}.base-url={}", v.id, server.url);
    let model = format!("{}/{}", v.id, v.model);
    let out = env
        .command(&[
            "eval",
            "-c",
            &base,
            "-c",
            "run.max-cost=0.000001",
            "-m",
            &model,
            "hi",
        ])
        .env(v.key_var, CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("would pass it"), "{}", stderr(&out));
    assert_eq!(server.requests_now(), 0);

    // A model without prices cannot be held to a budget: nothing is sent to it.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"openai-compatible/unpriced\" {\n    tools #true\n}\n",
    )
    .unwrap();
    let local = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let out = env
        .command(&[
            "eval",
            "-c",
            &local,
            "-c",
            "run.max-cost=5",
            "-m",
            "openai-compatible/unpriced",
            "hi",
        ])
        .env("OPENAI_COMPATIBLE_API_KEY", CANARY)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("cannot be kept")
            && said.contains("openai-compatible/unpriced has no input price"),
        "{said}"
    );
    assert_eq!(server.requests_now(), 0);

    for bad in ["-1", "abc", "0", "1e9", "NaN", "inf"] {
        let setting = format!("run.max-cost={bad}");
        let out = env
            .command(&["eval", "-c", &setting, "-m", "scripted/demo", "hi"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains("run.max-cost") && said.contains("dollars"),
            "{bad}: {said}"
        );
    }
}
