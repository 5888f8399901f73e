//! The HTTP engine against loopback servers that send raw HTTP/1.1 in pieces (no test reaches
//! the internet): every bound of the spec's network transport, each with its own outcome.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use smith::Cancel;
use smith_ai::http::{Bounds, HttpEngine, HttpRequest, Outcome, TransportError};
use smith_ai::loopback::{self, Server, Step, head};

fn serve(steps: Vec<Step>) -> Server {
    let mut server = loopback::serve(vec![steps]);
    server.url.push_str("/v1/test");
    server
}

fn chunk(data: &str) -> Step {
    Step::Send(format!("{:x}\r\n{data}\r\n", data.len()).into_bytes())
}

fn last_chunk() -> Step {
    Step::Send(b"0\r\n\r\n".to_vec())
}

fn post(url: &str, body: &[u8]) -> HttpRequest {
    HttpRequest {
        method: "POST".into(),
        url: url.to_owned(),
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("authorization".into(), "Bearer sk-canary-123".into()),
        ],
        body: body.to_vec(),
    }
}

fn engine(f: impl FnOnce(&mut Bounds)) -> HttpEngine {
    let mut bounds = Bounds::default();
    f(&mut bounds);
    HttpEngine::new(bounds)
}

#[test]
fn chunks_arrive_as_they_are_sent_and_the_body_completes() {
    let server = serve(vec![
        head(
            "200 OK",
            "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
        ),
        chunk("data: one\n\n"),
        Step::Wait,
        chunk("data: two\n\n"),
        last_chunk(),
    ]);
    let engine = HttpEngine::default();
    let mut response = engine
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    assert_eq!(response.status, 200);
    assert!(
        response
            .headers
            .iter()
            .any(|(k, v)| k == "content-type" && v == "text/event-stream")
    );
    // The first chunk is delivered while the server still holds the second.
    assert_eq!(response.body.next_chunk().unwrap(), b"data: one\n\n");
    server.go();
    let mut rest = Vec::new();
    while let Some(c) = response.body.next_chunk() {
        rest.extend(c);
    }
    assert_eq!(rest, b"data: two\n\n");
    assert_eq!(response.body.outcome(), Some(&Outcome::Complete));
    let request = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(
        request.starts_with("POST /v1/test HTTP/1.1\r\n"),
        "{request}"
    );
    assert!(request.ends_with("\r\n\r\n{}"), "{request}");
}

#[test]
fn a_non_2xx_status_is_a_response_with_its_body() {
    let body = r#"{"error":{"type":"rate_limit_error","message":"slow down"}}"#;
    let server = serve(vec![Step::Send(
        format!(
            "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 3\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )]);
    let response = HttpEngine::default()
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    assert_eq!(response.status, 429);
    assert!(
        response
            .headers
            .iter()
            .any(|(k, v)| k == "retry-after" && v == "3")
    );
    let (bytes, outcome) = response.body.read_all();
    assert_eq!(outcome, Outcome::Complete);
    assert_eq!(bytes, body.as_bytes());
}

#[test]
fn an_oversized_request_is_refused_before_anything_is_sent() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let engine = engine(|b| b.max_request_bytes = 1024);
    let err = engine
        .send(post(&url, &[b'x'; 1025]), &Cancel::new())
        .unwrap_err();
    assert!(matches!(
        err,
        TransportError::RequestTooLarge {
            bytes: 1025,
            limit: 1024
        }
    ));
    std::thread::sleep(Duration::from_millis(50));
    assert!(listener.accept().is_err(), "no connection was made");
}

#[test]
fn a_slow_head_times_out() {
    let server = serve(vec![Step::Wait]);
    let engine = engine(|b| b.head_timeout = Duration::from_millis(200));
    let err = engine
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap_err();
    assert!(matches!(err, TransportError::HeadTimeout { .. }), "{err:?}");
    assert!(err.to_string().contains("200ms"), "{err}");
    drop(server);
}

#[test]
fn a_stalled_body_ends_as_failed_after_the_gap_bound() {
    let server = serve(vec![
        head(
            "200 OK",
            "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
        ),
        chunk("data: partial"),
        Step::Wait,
    ]);
    let engine = engine(|b| b.gap_timeout = Duration::from_millis(200));
    let response = engine
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    let (bytes, outcome) = response.body.read_all();
    assert_eq!(bytes, b"data: partial");
    let Outcome::Failed(why) = outcome else {
        panic!("{outcome:?}")
    };
    assert!(why.contains("no body bytes arrived for 200ms"), "{why}");
    drop(server);
}

#[test]
fn an_oversized_response_is_truncated_at_the_bound() {
    let big = "x".repeat(4000);
    let server = serve(vec![
        head(
            "200 OK",
            "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
        ),
        chunk(&big),
        last_chunk(),
    ]);
    let engine = engine(|b| b.max_response_bytes = 1000);
    let response = engine
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    let (bytes, outcome) = response.body.read_all();
    assert_eq!(bytes.len(), 1000);
    assert_eq!(outcome, Outcome::Truncated { limit: 1000 });
}

#[test]
fn a_body_exactly_at_the_bound_is_complete() {
    let body = "y".repeat(1000);
    let server = serve(vec![Step::Send(
        format!("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n{body}").into_bytes(),
    )]);
    let engine = engine(|b| b.max_response_bytes = 1000);
    let response = engine
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    let (bytes, outcome) = response.body.read_all();
    assert_eq!((bytes.len(), outcome), (1000, Outcome::Complete));
}

#[test]
fn cancellation_mid_body_ends_it_at_once_without_waiting_for_a_timeout() {
    let server = serve(vec![
        head(
            "200 OK",
            "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
        ),
        chunk("data: first\n\n"),
        Step::Wait,
        chunk("data: second\n\n"),
        Step::Wait,
    ]);
    // Generous bounds: only cancellation can end this body quickly.
    let engine = engine(|b| b.gap_timeout = Duration::from_secs(60));
    let cancel = Cancel::new();
    let mut response = engine.send(post(&server.url, b"{}"), &cancel).unwrap();
    assert!(response.body.next_chunk().is_some());
    // Cancelled, then the server sends its next chunk: ordered by the test, not by a timer.
    cancel.cancel();
    server.go();
    let started = Instant::now();
    assert!(
        response.body.next_chunk().is_none(),
        "a chunk that arrived after cancellation is never delivered"
    );
    assert_eq!(response.body.outcome(), Some(&Outcome::Cancelled));
    // Far below the 60 s gap bound (a loose bound: this checks "not after a timeout").
    assert!(started.elapsed() < Duration::from_secs(30));
    drop(server);
}

#[test]
fn cancellation_before_the_head_returns_cancelled() {
    let server = serve(vec![Step::Wait]);
    let cancel = Cancel::new();
    cancel.cancel();
    let err = HttpEngine::default()
        .send(post(&server.url, b"{}"), &cancel)
        .unwrap_err();
    assert_eq!(err, TransportError::Cancelled);
    drop(server);
}

#[test]
fn a_body_shorter_than_its_declared_length_fails() {
    let server = serve(vec![Step::Send(
        b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly fifty bytes".to_vec(),
    )]);
    let response = HttpEngine::default()
        .send(post(&server.url, b"{}"), &Cancel::new())
        .unwrap();
    let (bytes, outcome) = response.body.read_all();
    assert_eq!(bytes, b"only fifty bytes");
    assert!(matches!(outcome, Outcome::Failed(_)), "{outcome:?}");
}

#[test]
fn an_unreachable_server_and_a_bad_header_say_what_to_fix_without_quoting_credentials() {
    // A port nothing listens on.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let err = HttpEngine::default()
        .send(
            post(&format!("http://127.0.0.1:{port}/"), b"{}"),
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(matches!(err, TransportError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("check the base URL"), "{err}");
    let mut request = post("http://127.0.0.1:1/", b"{}");
    request
        .headers
        .push(("x-api-key".into(), "sk-canary\n-123".into()));
    let err = HttpEngine::default()
        .send(request, &Cancel::new())
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("x-api-key") && !text.contains("canary"),
        "{text}"
    );
}

#[test]
fn a_guarded_engine_refuses_an_address_before_connecting_and_names_why() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&seen);
    let engine = HttpEngine::guarded(
        Bounds::default(),
        std::sync::Arc::new(move |host: &str, addr: std::net::SocketAddr| {
            log.lock().unwrap().push((host.to_owned(), addr));
            Err(format!(
                "{addr} is a loopback address `{host}` was not granted"
            ))
        }),
    );
    let err = engine
        .send(
            post(&format!("http://LocalHost:{port}/x"), b"{}"),
            &Cancel::new(),
        )
        .unwrap_err();
    assert!(matches!(err, TransportError::Refused { .. }), "{err:?}");
    assert!(err.to_string().contains("was not granted"), "{err}");
    // The check saw the host as written (lowercased) and a resolved address…
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty());
    assert!(
        seen.iter()
            .all(|(h, a)| h == "localhost" && a.port() == port)
    );
    // …and nothing connected.
    assert_eq!(
        listener.accept().map(|_| ()).unwrap_err().kind(),
        std::io::ErrorKind::WouldBlock
    );
    // An allowed address is connected to as by the plain engine.
    let server = serve(vec![head("204 No Content", "content-length: 0\r\n")]);
    let open = HttpEngine::guarded(Bounds::default(), std::sync::Arc::new(|_: &str, _| Ok(())));
    let response = open.send(post(&server.url, b"{}"), &Cancel::new()).unwrap();
    assert_eq!(response.status, 204);
}
