//! `smith models --refresh` against loopback servers answering `GET /v1/models` as llama.cpp's
//! server and Ollama document it: the listed models join the catalog with their source and
//! time, a turn uses one by name without models.kdl, declarations win, and a failed refresh
//! keeps the previous answer and says why.

mod common;

use common::{Env, stderr, stdout};
use smith_ai::loopback::{self, Step, head};

const LLAMA_CPP: &str = r#"{"object":"list","data":[{"id":"qwen2.5-coder-7b-instruct-q4_k_m.gguf","object":"model","created":1733000000,"owned_by":"llamacpp","meta":{"vocab_type":2,"n_vocab":152064,"n_ctx_train":32768,"n_embd":3584,"n_params":7615616512,"size":4677120000}}]}"#;

const OLLAMA: &str = r#"{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1733000000,"owned_by":"library"},{"id":"qwen3:8b","object":"model","created":1733000001,"owned_by":"library"}]}"#;

const TEXT: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hello from the listed model\"},\"finish_reason\":null}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

fn base(url: &str) -> String {
    format!("provider.openai-compatible.base-url={url}/v1")
}

fn listed(env: &Env, url: &str) -> Vec<serde_json::Value> {
    let out = env.run(&["models", "--json", "-c", &base(url)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["provider"] == "openai-compatible" && r["uncatalogued_default"] == false)
        .collect()
}

#[test]
fn a_local_servers_models_are_listed_with_their_context_and_a_turn_uses_one_by_name() {
    let env = Env::new();
    let server = loopback::serve(vec![
        loopback::json_response("200 OK", LLAMA_CPP),
        loopback::sse_in_pieces(TEXT.as_bytes(), 9),
    ]);
    let out = env
        .command(&["models", "--refresh", "--json", "-c", &base(&server.url)])
        .env("OPENAI_COMPATIBLE_API_KEY", "sk-local-1234")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains(&format!(
            "openai-compatible: 1 model listed at {}/v1/models",
            server.url
        )),
        "{said}"
    );
    let sent = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(sent.starts_with("GET /v1/models HTTP/1.1"), "{sent}");
    assert!(
        sent.to_ascii_lowercase()
            .contains("authorization: bearer sk-local-1234"),
        "the listing is asked with the provider's key: {sent}"
    );
    assert!(!stdout(&out).contains("sk-local-1234"));
    let records = listed(&env, &server.url);
    assert_eq!(records.len(), 1, "{records:?}");
    let r = &records[0];
    assert_eq!(r["id"], "qwen2.5-coder-7b-instruct-q4_k_m.gguf");
    assert_eq!(r["context"], 32768);
    assert_eq!(r["tools"], true, "the plugin's contract still states tools");
    assert_eq!(r["provenance"]["source"]["id"], "refresh:openai-compatible");
    assert!(
        r["provenance"]["source"]["date"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    // The readable list says where it came from.
    let text = stdout(&env.run(&["models", "-c", &base(&server.url)]));
    assert!(
        text.contains("source refresh:openai-compatible ("),
        "{text}"
    );
    // A turn uses the listed model by name; no models.kdl exists.
    assert!(!env.home().join("models.kdl").exists());
    let out = env.run(&[
        "eval",
        "-c",
        &base(&server.url),
        "-m",
        "openai-compatible/qwen2.5-coder-7b-instruct-q4_k_m.gguf",
        "hi",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("hello from the listed model"));
    let sent = server.request_json().unwrap();
    assert_eq!(sent["model"], "qwen2.5-coder-7b-instruct-q4_k_m.gguf");
}

#[test]
fn a_failed_refresh_keeps_the_previous_answer_and_declarations_win() {
    let env = Env::new();
    let html = "<html>not a listing</html>";
    let server = loopback::serve(vec![
        loopback::json_response("200 OK", OLLAMA),
        vec![
            head(
                "200 OK",
                &format!(
                    "content-type: text/html\r\ncontent-length: {}\r\n",
                    html.len()
                ),
            ),
            Step::Send(html.as_bytes().to_vec()),
        ],
        loopback::json_response(
            "500 Internal Server Error",
            r#"{"error":"model store locked"}"#,
        ),
        loopback::json_response("200 OK", r#"{"data":[{"id":""}]}"#),
        loopback::json_response(
            "200 OK",
            r#"{"data":[{"id":"phi4:latest"},{"id":"gpt\u202e4"}]}"#,
        ),
    ]);
    let refresh = || env.run(&["models", "--refresh", "-c", &base(&server.url)]);
    let out = refresh();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ids = |records: Vec<serde_json::Value>| -> Vec<String> {
        records
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        ids(listed(&env, &server.url)),
        ["llama3.2:latest", "qwen3:8b"]
    );
    for said in [
        "did not answer with a model listing: it is not JSON",
        "answered 500 ({\"error\":\"model store locked\"})",
        "which is not a model name",
    ] {
        let out = refresh();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(said)
                && err.contains("openai-compatible@0.1.0")
                && err.contains(&format!("{}/v1/models", server.url))
                && err.contains("the models it listed before are kept"),
            "{err}"
        );
        assert_eq!(
            ids(listed(&env, &server.url)),
            ["llama3.2:latest", "qwen3:8b"]
        );
    }
    // Nothing listening: said, and kept.
    let out = env.run(&["models", "--refresh", "-c", &base("http://127.0.0.1:9")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("could not be read"),
        "{}",
        stderr(&out)
    );
    // The user's declaration wins over the listing, which it shows as replaced.
    std::fs::write(
        env.home().join("models.kdl"),
        "model \"openai-compatible/qwen3:8b\" {\n    context 4096\n    tools #true\n}\n",
    )
    .unwrap();
    let records = listed(&env, &server.url);
    let qwen = records.iter().find(|r| r["id"] == "qwen3:8b").unwrap();
    assert_eq!(qwen["context"], 4096);
    assert!(
        qwen["provenance"]["conflicts"]
            .to_string()
            .contains("refresh:openai-compatible"),
        "{qwen}"
    );
    // An entry that names no usable model is skipped, saying why; the rest are kept.
    let out = refresh();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("1 model listed") && err.contains("1 entry skipped: entry 2 has the id"),
        "{err}"
    );
    let now = ids(listed(&env, &server.url));
    assert!(now.contains(&"phi4:latest".to_owned()), "{now:?}");
}
