//! The HTTP engine on ureq with rustls and the webpki root certificates: see the parent
//! module for its bounds and guarantees.

use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::Duration;

use smith::Cancel;

use super::{
    Body, Bounds, HttpRequest, HttpResponse, Msg, Outcome, Transport, TransportError, Waited, wait,
};

/// Bytes read from the connection at a time.
const READ_SIZE: usize = 16 * 1024;

impl Transport for HttpEngine {
    fn send(&self, request: HttpRequest, cancel: &Cancel) -> Result<HttpResponse, TransportError> {
        HttpEngine::send(self, request, cancel)
    }

    fn max_request_bytes(&self) -> usize {
        self.bounds.max_request_bytes
    }
}

/// The HTTP engine: a connection pool and the bounds. Cheap to clone.
#[derive(Clone, Debug)]
pub struct HttpEngine {
    agent: ureq::Agent,
    bounds: Bounds,
}

/// Decides whether the engine may connect to an address a host name resolved to: given the
/// URL's host (as written in the URL, lowercase; an IP literal without brackets) and one
/// resolved address, `Ok` or why not. Checked for every address before any connection, so a
/// refused host sees no connection attempt, and the addresses checked are the ones connected
/// to (no second lookup a changed DNS answer could slip through).
pub type AddressCheck =
    std::sync::Arc<dyn Fn(&str, std::net::SocketAddr) -> Result<(), String> + Send + Sync>;

/// The resolver of a guarded engine: the system's lookup, then every address checked.
struct GuardedResolver {
    inner: ureq::unversioned::resolver::DefaultResolver,
    check: AddressCheck,
}

impl std::fmt::Debug for GuardedResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GuardedResolver")
    }
}

/// An address a guarded engine refused, carried through ureq's error as its source.
#[derive(Debug)]
struct AddressRefused(String);

impl std::fmt::Display for AddressRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AddressRefused {}

impl ureq::unversioned::resolver::Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let addrs = self.inner.resolve(uri, config, timeout)?;
        let host = uri
            .host()
            .unwrap_or_default()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        for addr in addrs.iter() {
            (self.check)(&host, *addr)
                .map_err(|why| ureq::Error::Other(Box::new(AddressRefused(why))))?;
        }
        Ok(addrs)
    }
}

impl Default for HttpEngine {
    fn default() -> Self {
        Self::new(Bounds::default())
    }
}

impl HttpEngine {
    /// An engine with `bounds`.
    pub fn new(bounds: Bounds) -> Self {
        Self {
            agent: Self::config(bounds).build().into(),
            bounds,
        }
    }

    /// An engine that connects only to addresses `check` allows (plugin network effects):
    /// every address a host resolves to is checked before any connection, and a refused one
    /// fails the request with [`TransportError::Refused`]. It ignores proxy variables
    /// (`HTTPS_PROXY`…): through a proxy the address connected to would be the proxy's, not
    /// the one checked.
    pub fn guarded(bounds: Bounds, check: AddressCheck) -> Self {
        let config = Self::config(bounds).proxy(None).build();
        let resolver = GuardedResolver {
            inner: ureq::unversioned::resolver::DefaultResolver::default(),
            check,
        };
        Self {
            agent: ureq::Agent::with_parts(
                config,
                ureq::unversioned::transport::DefaultConnector::default(),
                resolver,
            ),
            bounds,
        }
    }

    fn config(bounds: Bounds) -> ureq::config::ConfigBuilder<ureq::typestate::AgentScope> {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(bounds.head_timeout))
            .timeout_recv_response(Some(bounds.head_timeout))
            // Stalls are the caller's gap bound; this only ends an abandoned worker.
            .timeout_recv_body(Some(bounds.gap_timeout * 4))
            .max_redirects(0)
            .user_agent(concat!("smith/", env!("CARGO_PKG_VERSION")))
    }

    /// The engine's bounds.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// Send `request` and wait for the response head, observing `cancel`.
    ///
    /// # Errors
    /// [`TransportError`]: too large (nothing sent), malformed, unreachable, no head in time,
    /// or cancelled.
    pub fn send(
        &self,
        request: HttpRequest,
        cancel: &Cancel,
    ) -> Result<HttpResponse, TransportError> {
        if request.body.len() > self.bounds.max_request_bytes {
            return Err(TransportError::RequestTooLarge {
                bytes: request.body.len(),
                limit: self.bounds.max_request_bytes,
            });
        }
        let url = request.url.clone();
        let built = build(request)?;
        let (tx, rx) = sync_channel(self.bounds.channel_chunks.max(1));
        let agent = self.agent.clone();
        let (limit, head_timeout) = (self.bounds.max_response_bytes, self.bounds.head_timeout);
        let worker_url = url.clone();
        std::thread::Builder::new()
            .name("smith-http".into())
            .spawn(move || transfer(&agent, built, (&worker_url, head_timeout), limit, &tx))
            .map_err(|e| TransportError::Connect {
                url: url.clone(),
                why: format!("cannot start the transfer thread: {e}"),
            })?;
        match wait(&rx, cancel, self.bounds.head_timeout) {
            Waited::Msg(Msg::Head(Ok((status, headers)))) => Ok(HttpResponse {
                status,
                headers,
                body: Body {
                    rx,
                    cancel: cancel.clone(),
                    gap: self.bounds.gap_timeout,
                    outcome: None,
                },
            }),
            Waited::Msg(Msg::Head(Err(e))) => Err(e),
            Waited::Msg(_) | Waited::Gone => Err(TransportError::Connect {
                url,
                why: "the transfer ended without a response".into(),
            }),
            Waited::Cancelled => Err(TransportError::Cancelled),
            Waited::TimedOut => Err(TransportError::HeadTimeout {
                url,
                timeout: self.bounds.head_timeout,
            }),
        }
    }
}

fn build(request: HttpRequest) -> Result<ureq::http::Request<Vec<u8>>, TransportError> {
    let bad = |why: String| TransportError::BadRequest {
        url: request.url.clone(),
        why,
    };
    let method = ureq::http::Method::from_bytes(request.method.as_bytes())
        .map_err(|_| bad(format!("`{}` is not an HTTP method", request.method)))?;
    let mut builder = ureq::http::Request::builder()
        .method(method)
        .uri(request.url.as_str());
    for (name, value) in &request.headers {
        // Values are validated without quoting them: they may be credentials.
        ureq::http::HeaderValue::from_str(value).map_err(|_| {
            bad(format!(
                "the value of header `{name}` holds characters a header cannot"
            ))
        })?;
        builder = builder.header(name.as_str(), value.as_str());
    }
    builder
        .body(request.body.clone())
        .map_err(|e| bad(e.to_string()))
}

/// The worker: run the request, send the head, then the body's chunks and one end.
fn transfer(
    agent: &ureq::Agent,
    request: ureq::http::Request<Vec<u8>>,
    (url, head_timeout): (&str, Duration),
    limit: u64,
    tx: &SyncSender<Msg>,
) {
    use std::io::Read;
    let response = match agent.run(request) {
        Ok(response) => response,
        Err(e) => {
            let error = match e {
                ureq::Error::Timeout(_) => TransportError::HeadTimeout {
                    url: url.to_owned(),
                    timeout: head_timeout,
                },
                ureq::Error::BadUri(why) => TransportError::BadRequest {
                    url: url.to_owned(),
                    why,
                },
                ureq::Error::Other(source) if source.is::<AddressRefused>() => {
                    TransportError::Refused {
                        url: url.to_owned(),
                        why: source.to_string(),
                    }
                }
                other => TransportError::Connect {
                    url: url.to_owned(),
                    why: other.to_string(),
                },
            };
            let _ = tx.send(Msg::Head(Err(error)));
            return;
        }
    };
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    if tx.send(Msg::Head(Ok((status, headers)))).is_err() {
        return;
    }
    let mut reader = response.into_body().into_reader();
    let mut total: u64 = 0;
    let mut buf = vec![0u8; READ_SIZE];
    let end = loop {
        match reader.read(&mut buf) {
            Ok(0) => break Outcome::Complete,
            Ok(n) => {
                let room = limit - total;
                let take = (n as u64).min(room) as usize;
                total += take as u64;
                if take > 0 && tx.send(Msg::Chunk(buf[..take].to_vec())).is_err() {
                    return;
                }
                if take < n || total == limit && peek_more(&mut reader) {
                    break Outcome::Truncated { limit };
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Outcome::Failed(format!("the connection broke off: {e}")),
        }
    };
    let _ = tx.send(Msg::End(end));
}

/// Whether the body has more bytes after exactly reaching the limit.
fn peek_more(reader: &mut impl std::io::Read) -> bool {
    let mut one = [0u8; 1];
    matches!(reader.read(&mut one), Ok(n) if n > 0)
}
