//! The scripted provider's codec: the same provider boundary as the vendors, with
//! the host's script player as the transport. A request is sent as the provider-neutral
//! request itself; the answer is JSON lines of stream events, one per line, which this decoder
//! checks and passes on. A body that ends without a terminal event was cut off.

use smith_plugin_sdk::decoder::{Resource, Stream};
use smith_plugin_sdk::export_provider_plugin;
use smith_plugin_sdk::provider::{
    Guest, HttpRequest, ProviderError, ProviderErrorKind, StreamEvent, error_json, parse_request,
};

struct Codec;

impl Guest for Codec {
    type Decoder = Resource<Lines>;

    fn encode_request(json: String) -> Result<HttpRequest, String> {
        // Checked here so a malformed request fails in the codec, as for any vendor.
        parse_request(&json)?;
        Ok(HttpRequest {
            method: "POST".into(),
            path: "/rounds/next".into(),
            headers: vec![("content-type".into(), "application/json".into())],
            body: json.into_bytes(),
        })
    }

    fn decode_error(status: u16, body: Vec<u8>) -> String {
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let kind: ProviderErrorKind = v
            .pointer("/error/kind")
            .cloned()
            .and_then(|k| serde_json::from_value(k).ok())
            .unwrap_or(ProviderErrorKind::Other);
        let message = v
            .pointer("/error/message")
            .and_then(serde_json::Value::as_str)
            .map_or_else(
                || format!("the script player answered {status}"),
                str::to_owned,
            );
        error_json(kind, message)
    }
}

#[derive(Default)]
struct Lines {
    pending: Vec<u8>,
    terminal: bool,
    failed: bool,
}

impl Lines {
    fn line(&mut self, line: &[u8], out: &mut Vec<StreamEvent>) {
        if self.failed || self.terminal || line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match serde_json::from_slice::<StreamEvent>(line) {
            Ok(event) => {
                self.terminal = event.is_terminal();
                out.push(event);
            }
            Err(e) => {
                self.failed = true;
                out.push(StreamEvent::Error(ProviderError::new(
                    ProviderErrorKind::Malformed,
                    format!("the script player wrote a line that is not a stream event ({e})"),
                )));
            }
        }
    }
}

impl Stream for Lines {
    fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::take(&mut self.pending);
                self.line(&line, &mut out);
            } else {
                self.pending.push(b);
            }
        }
        out
    }

    fn finish(&mut self) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        let line = std::mem::take(&mut self.pending);
        self.line(&line, &mut out);
        if !self.terminal && !self.failed {
            out.push(StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Malformed,
                "the scripted response ended before its terminal event",
            )));
        }
        out
    }
}

export_provider_plugin!(Codec);
