//! A loopback HTTP/1.1 server for tests (feature `loopback`): it accepts connections on
//! 127.0.0.1, reads each request whole, and answers with a script of raw byte writes and
//! waits, so tests can deliver a response in exact pieces — mid-line, mid-character — and
//! hold it open at a precise point. Never part of the smith binary.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// What the server does after reading a request.
#[derive(Clone, Debug)]
pub enum Step {
    /// Write these bytes and flush.
    Send(Vec<u8>),
    /// Wait until the test calls [`Server::go`] (or drops the server).
    Wait,
    /// Pause.
    Sleep(Duration),
}

/// A running server: its base URL, the requests it read, and its wait release.
#[derive(Debug)]
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    requests: Receiver<Vec<u8>>,
    go: Sender<()>,
}

impl Server {
    /// Release one [`Step::Wait`].
    pub fn go(&self) {
        let _ = self.go.send(());
    }

    /// The next request read (head and body, raw), waiting up to 10 s.
    pub fn request(&self) -> Option<Vec<u8>> {
        self.requests.recv_timeout(Duration::from_secs(10)).ok()
    }

    /// How many requests have arrived and not been taken by [`Server::request`], without
    /// waiting (the requests are taken).
    pub fn requests_now(&self) -> usize {
        self.requests.try_iter().count()
    }

    /// The next request's body, parsed as JSON.
    pub fn request_json(&self) -> Option<serde_json::Value> {
        let raw = self.request()?;
        let at = raw.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        serde_json::from_slice(&raw[at..]).ok()
    }
}

fn read_request(stream: &mut TcpStream) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).unwrap_or(0);
        if n == 0 {
            return got;
        }
        got.extend_from_slice(&buf[..n]);
        if let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&got[..end]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            while got.len() < end + 4 + length {
                let n = stream.read(&mut buf).unwrap_or(0);
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            return got;
        }
    }
}

/// Serve one connection per script in `responses`, in order: each reads a request, then plays
/// its steps and closes the connection.
///
/// # Panics
/// When no loopback port can be bound (a test environment defect).
pub fn serve(responses: Vec<Vec<Step>>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let url = format!("http://{}", listener.local_addr().expect("its address"));
    let (req_tx, requests) = channel();
    let (go, go_rx) = channel::<()>();
    std::thread::spawn(move || {
        for steps in responses {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            let request = read_request(&mut stream);
            let _ = req_tx.send(request);
            for step in steps {
                match step {
                    Step::Send(bytes) => {
                        if stream.write_all(&bytes).is_err() {
                            break;
                        }
                        let _ = stream.flush();
                    }
                    Step::Wait => {
                        if go_rx.recv().is_err() {
                            return;
                        }
                    }
                    Step::Sleep(d) => std::thread::sleep(d),
                }
            }
        }
    });
    Server { url, requests, go }
}

/// A response head with `status` (e.g. `200 OK`) and extra header lines (each ending CR LF).
/// It says `connection: close`, as the server does after every response: a client that kept
/// the connection for its next request would race the close (a reset instead of an answer).
pub fn head(status: &str, extra: &str) -> Step {
    Step::Send(format!("HTTP/1.1 {status}\r\nconnection: close\r\n{extra}\r\n").into_bytes())
}

/// A streamed (chunked) event-stream response of `body`, written in pieces of `piece` bytes
/// (splitting lines and characters wherever they fall), then its last chunk.
pub fn sse_in_pieces(body: &[u8], piece: usize) -> Vec<Step> {
    let mut steps = vec![head(
        "200 OK",
        "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n",
    )];
    for part in body.chunks(piece.max(1)) {
        let mut chunk = format!("{:x}\r\n", part.len()).into_bytes();
        chunk.extend_from_slice(part);
        chunk.extend_from_slice(b"\r\n");
        steps.push(Step::Send(chunk));
    }
    steps.push(Step::Send(b"0\r\n\r\n".to_vec()));
    steps
}

/// A complete response with `status`, a JSON content type and `body`.
pub fn json_response(status: &str, body: &str) -> Vec<Step> {
    vec![Step::Send(
        format!(
            "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )]
}
