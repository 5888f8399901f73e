//! Provider plugins (the `provider-plugin` world): pure codecs between Smith's
//! provider-neutral request and events and a vendor's wire format, with the transport done
//! here through the one HTTP engine ([`smith_ai::http`]). The host adds the credential header
//! (the plugin never sees the key), runs the codec in one instance per response under the
//! plugin limits (each call with its own deadline), feeds the body's chunks to the decoder as
//! they arrive, and turns the body's outcome into the stream's end: a cut or failed body is an
//! explicit error, never a silent partial success (spec: Providers → Network transport; Agent
//! behavior — stream outcomes).

use std::collections::VecDeque;
use std::time::Instant;

use smith::{
    Cancel, EventStream, Provider, ProviderError, ProviderErrorKind, ProviderRequest, StopReason,
    StreamEvent,
};
use smith_ai::http::{HttpRequest, Outcome, Transport, TransportError};
use wasmtime::Store;
use wasmtime::component::{Linker, ResourceAny};

use crate::Error;
use crate::effects::CallState;
use crate::manifest::Manifest;
use crate::runtime::{Loadout, Runtime, State, Stopped};

/// Generated bindings of the `provider-plugin` world.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "provider-plugin",
    });
}

use bindings::{ProviderPlugin, ProviderPluginPre};

/// The most bytes of a non-2xx response body given to the codec's error decoder.
const ERROR_BODY_BYTES: usize = 64 * 1024;

/// A loaded provider plugin.
pub(crate) struct LoadedProvider {
    pub(crate) manifest: Manifest,
    pub(crate) origin: String,
    pub(crate) loaded: crate::generation::Lazy<crate::generation::Ready<Pre>>,
}

/// The provider world's pre-instantiated bindings.
pub(crate) type Pre = ProviderPluginPre<State>;

/// The linker of the provider world: WASI deny-by-default only (a codec has no imports).
pub(crate) fn linker(engine: &wasmtime::Engine) -> Result<Linker<State>, Error> {
    let mut linker: Linker<State> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| Error::Engine(format!("{e:#}")))?;
    Ok(linker)
}

/// Check `component` against the provider world.
pub(crate) fn pre(
    linkers: &crate::runtime::Linkers,
    component: &wasmtime::component::Component,
    origin: &str,
) -> Result<Pre, Error> {
    let bad = |reason: String| Error::Component {
        origin: origin.to_owned(),
        reason,
    };
    let instance_pre = linkers.provider.instantiate_pre(component).map_err(|e| {
        bad(format!(
            "it does not fit the `provider-plugin` world: {e:#}"
        ))
    })?;
    ProviderPluginPre::new(instance_pre).map_err(|e| {
        bad(format!(
            "it does not export the `provider-plugin` world: {e:#}"
        ))
    })
}

impl LoadedProvider {
    /// Its component, loaded on first use; a failure as a provider error naming it.
    pub(crate) fn ready(
        &self,
        runtime: &Runtime,
    ) -> Result<&crate::generation::Ready<Pre>, ProviderError> {
        let ready = self
            .loaded
            .get(|component| crate::generation::load_provider(runtime, component, &self.origin))
            .map_err(|why| {
                error(
                    ProviderErrorKind::Other,
                    format!(
                        "provider plugin {} cannot be loaded: {why}",
                        self.manifest.label()
                    ),
                )
            })?;
        self.loaded.count_instance();
        Ok(ready)
    }
}

/// How to reach one provider: where, with which key, through which transport.
#[derive(Clone)]
pub struct ProviderSetup {
    /// The base URL (configuration, or the plugin's default).
    pub base_url: String,
    /// The API key, when one was found. Never printed.
    pub api_key: Option<String>,
    /// The transport: the HTTP engine (with its bounds), or the script for `scripted`.
    pub transport: std::sync::Arc<dyn Transport>,
    /// Options for the codec from the user's configuration (e.g. `api` from
    /// `provider.openai.api`), sent with each request as `options`.
    pub options: std::collections::BTreeMap<String, String>,
    /// Replaces registered secrets (and their encodings) by their references in every string
    /// and object key of the request before the plugin encodes it (spec: "The secret proxy
    /// replaces registered secrets before remote dispatch"). Empty: nothing is replaced.
    pub redactor: smith_secrets::Shared,
}

/// A provider plugin bound to its transport: implements [`smith::Provider`].
pub struct PluginProvider {
    loadout: Loadout,
    index: usize,
    id: String,
    setup: ProviderSetup,
}

impl std::fmt::Debug for PluginProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginProvider")
            .field("id", &self.id)
            .field("base_url", &self.setup.base_url)
            .field("api_key", &self.setup.api_key.as_ref().map(|_| "(set)"))
            .finish_non_exhaustive()
    }
}

/// Why a provider could not be set up. Never includes a key.
#[derive(Debug, thiserror::Error)]
pub enum ProviderSetupError {
    /// No loaded plugin provides it.
    #[error("no provider plugin provides `{id}`; providers: {known}")]
    Unknown {
        /// The provider id asked for.
        id: String,
        /// The ids provided, comma-separated.
        known: String,
    },
    /// Its required key is not set.
    #[error(
        "provider `{id}` needs an API key: set the environment variable {env} (or put the key in the auth file), then retry"
    )]
    MissingKey {
        /// The provider.
        id: String,
        /// The variable.
        env: String,
    },
}

impl Loadout {
    /// The ids of the providers the pinned generation's plugins contribute, in load order.
    pub fn provider_ids(&self) -> Vec<String> {
        self.providers()
            .iter()
            .filter_map(|p| p.manifest.provider.as_ref().map(|d| d.id.clone()))
            .collect()
    }

    /// The manifest of the plugin providing `id`.
    pub fn provider_manifest(&self, id: &str) -> Option<&Manifest> {
        self.providers()
            .iter()
            .map(|p| &p.manifest)
            .find(|m| m.provider.as_ref().is_some_and(|d| d.id == id))
    }

    /// Provider `id` with `setup`.
    ///
    /// # Errors
    /// [`ProviderSetupError`]: no such provider, or its required key is missing.
    pub fn provider(
        &self,
        id: &str,
        setup: ProviderSetup,
    ) -> Result<PluginProvider, ProviderSetupError> {
        let Some(index) = self
            .providers()
            .iter()
            .position(|p| p.manifest.provider.as_ref().is_some_and(|d| d.id == id))
        else {
            return Err(ProviderSetupError::Unknown {
                id: id.to_owned(),
                known: self.provider_ids().join(", "),
            });
        };
        let decl = self.providers()[index].manifest.provider.as_ref();
        if let Some(key) = decl.and_then(|d| d.api_key.as_ref())
            && key.required
            && setup.api_key.is_none()
        {
            return Err(ProviderSetupError::MissingKey {
                id: id.to_owned(),
                env: key.env.clone(),
            });
        }
        Ok(PluginProvider {
            loadout: self.clone(),
            index,
            id: id.to_owned(),
            setup,
        })
    }
}

/// The refusal of a request of `bytes` over the transport's `bound`: the conversation does not
/// fit in one provider request (spec: Network transport — request bodies above 16 MiB are
/// rejected before send).
fn too_large(bytes: usize, bound: usize) -> ProviderError {
    let mib = |n: usize| n as f64 / f64::from(1 << 20);
    error(
        ProviderErrorKind::ContextOverflow,
        format!(
            "the request is {:.1} MiB, more than the {:.0} MiB a provider request may be, so nothing was encoded or sent; start a new session (or fork one from an earlier entry) to continue with less history",
            mib(bytes),
            mib(bound)
        ),
    )
}

fn error(kind: ProviderErrorKind, message: impl Into<String>) -> ProviderError {
    ProviderError::new(kind, message)
}

/// Parse the codec's events (JSON text each).
fn parse_events(label: &str, list: Vec<String>) -> Vec<StreamEvent> {
    let mut out = Vec::with_capacity(list.len());
    for text in list {
        match serde_json::from_str::<StreamEvent>(&text) {
            Ok(e) => out.push(e),
            Err(e) => {
                out.push(StreamEvent::Error(error(
                    ProviderErrorKind::Malformed,
                    format!("provider plugin {label} produced an event that is not a stream event ({e}); this is a plugin defect"),
                )));
                break;
            }
        }
    }
    out
}

impl PluginProvider {
    fn plugin(&self) -> &LoadedProvider {
        &self.loadout.providers()[self.index]
    }

    /// Restart the call deadline, then report a trap or overrun as a provider error.
    /// A trap in one sentence: what failed (the trap's own message, its root cause), the
    /// plugin and the next step; the wasm backtrace only when `SMITH_BACKTRACE` is set.
    fn trapped(&self, e: &wasmtime::Error) -> StreamEvent {
        match e.downcast_ref::<Stopped>() {
            Some(Stopped::Cancelled) => StreamEvent::Stop {
                reason: StopReason::Aborted,
            },
            Some(stopped) => StreamEvent::Error(error(
                ProviderErrorKind::Other,
                format!(
                    "provider plugin {} {stopped}",
                    self.plugin().manifest.label()
                ),
            )),
            None => {
                let detail = if std::env::var_os("SMITH_BACKTRACE").is_some() {
                    format!("{e:#}")
                } else {
                    let cause = e.root_cause().to_string();
                    cause.lines().next().unwrap_or_default().to_owned()
                };
                StreamEvent::Error(error(
                    ProviderErrorKind::Other,
                    format!(
                        "provider plugin {} failed ({detail}); nothing more was sent — retry, and if it fails again report it to the plugin's author (SMITH_BACKTRACE=1 shows where it failed)",
                        self.plugin().manifest.label()
                    ),
                ))
            }
        }
    }

    fn transport_error(e: &TransportError) -> ProviderError {
        let kind = match e {
            TransportError::RequestTooLarge { bytes, limit } => return too_large(*bytes, *limit),
            TransportError::BadRequest { .. } | TransportError::Refused { .. } => {
                ProviderErrorKind::InvalidRequest
            }
            TransportError::Connect { .. } | TransportError::HeadTimeout { .. } => {
                ProviderErrorKind::Transient
            }
            TransportError::Cancelled => ProviderErrorKind::Other,
        };
        error(kind, e.to_string())
    }
}

fn single(event: StreamEvent) -> EventStream<'static> {
    Box::new(std::iter::once(event))
}

/// `message` with every occurrence of `secret` replaced by `[redacted]`: servers may echo the
/// key they were sent (or part of it) in their error bodies, and those messages are printed
/// and recorded. Secrets shorter than 8 bytes are not matched (they would redact ordinary
/// words).
fn redact(message: String, secret: Option<&str>) -> String {
    match secret.filter(|s| s.len() >= 8) {
        Some(secret) if message.contains(secret) => message.replace(secret, "[redacted]"),
        _ => message,
    }
}

impl Provider for PluginProvider {
    fn id(&self) -> &str {
        &self.id
    }

    /// The plugin's response events, with the key redacted from every error message.
    fn stream<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<EventStream<'a>, ProviderError> {
        let key = self.setup.api_key.as_deref();
        match self.stream_events(request, cancel) {
            Ok(events) => Ok(Box::new(events.map(move |event| match event {
                StreamEvent::Error(mut e) => {
                    e.message = redact(e.message, key);
                    StreamEvent::Error(e)
                }
                other => other,
            }))),
            Err(mut e) => {
                e.message = redact(e.message, key);
                Err(e)
            }
        }
    }
}

impl PluginProvider {
    fn stream_events<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<EventStream<'a>, ProviderError> {
        let plugin = self.plugin();
        let label = plugin.manifest.label();
        let runtime: &Runtime = self.loadout.runtime();
        let mut call = CallState::inert(&label);
        call.cancel = cancel.clone();
        let ready = plugin.ready(runtime)?;
        let mut store = runtime.store_with_memory(
            ready.tier,
            call,
            runtime.limits().deadline,
            runtime.limits().provider_memory_bytes,
        );
        let json = crate::encode::request_json(
            request,
            &self.setup.redactor.current(),
            &self.setup.options,
        )?;
        // Bounded before any plugin runs: the encoded body is about as large as the request,
        // and the transport would refuse it anyway — after the plugin had spent its memory.
        let bound = self.setup.transport.max_request_bytes();
        if json.len() > bound {
            return Err(too_large(json.len(), bound));
        }
        let kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
        let instance: ProviderPlugin = match ready.pre.instantiate(&mut store) {
            Ok(i) => i,
            Err(e) => return Ok(single(self.trapped(&e))),
        };
        let codec = instance.smith_plugin_codec();
        let http = match codec.call_encode_request(&mut store, &json) {
            Ok(Ok(http)) => http,
            Ok(Err(why)) => {
                return Err(error(
                    ProviderErrorKind::InvalidRequest,
                    format!("provider plugin {label} cannot encode the request: {why}"),
                ));
            }
            Err(e) => return Ok(single(self.trapped(&e))),
        };
        let mut headers = http.headers;
        if let (Some(decl), Some(key)) = (
            plugin
                .manifest
                .provider
                .as_ref()
                .and_then(|d| d.api_key.as_ref()),
            &self.setup.api_key,
        ) {
            headers.retain(|(name, _)| !name.eq_ignore_ascii_case(&decl.header));
            headers.push((decl.header.clone(), format!("{}{key}", decl.prefix)));
        }
        drop(kernel);
        let url = format!("{}{}", self.setup.base_url.trim_end_matches('/'), http.path);
        // The exchange's start (connection, request, response head) is an io request.
        let io = smith_memory::ScopeGuard::open(smith_memory::Kind::IoRequest);
        let sent = self.setup.transport.send(
            HttpRequest {
                method: http.method,
                url,
                headers,
                body: http.body,
            },
            cancel,
        );
        drop(io);
        let response = match sent {
            Ok(r) => r,
            Err(TransportError::Cancelled) => {
                return Ok(single(StreamEvent::Stop {
                    reason: StopReason::Aborted,
                }));
            }
            Err(e) => return Ok(single(StreamEvent::Error(Self::transport_error(&e)))),
        };
        if !(200..300).contains(&response.status) {
            let mut body = Vec::new();
            let mut rest = response.body;
            let mut cut = false;
            while let Some(chunk) = rest.next_chunk() {
                body.extend_from_slice(&chunk);
                if body.len() >= ERROR_BODY_BYTES {
                    body.truncate(ERROR_BODY_BYTES);
                    cut = true;
                    break;
                }
            }
            // Redacted before the codec sees it: a server may echo the key, and a codec that
            // shortens the body for its message would cut a secret past the redactor's reach.
            let redactor = self.setup.redactor.current();
            let body = if cut || !matches!(rest.outcome(), Some(Outcome::Complete) | None) {
                redactor.redact_cut_bytes(&body)
            } else {
                redactor.redact_bytes(&body).into_owned()
            };
            store.data_mut().started = Instant::now();
            let decoded =
                crate::kernel_call(|| codec.call_decode_error(&mut store, response.status, &body));
            let event = match decoded {
                Ok(text) => match serde_json::from_str::<ProviderError>(&text) {
                    Ok(e) => StreamEvent::Error(e),
                    Err(_) => StreamEvent::Error(error(
                        ProviderErrorKind::Other,
                        format!("{} answered HTTP {}", self.id, response.status),
                    )),
                },
                Err(e) => self.trapped(&e),
            };
            return Ok(single(event));
        }
        store.data_mut().started = Instant::now();
        let decoder = match crate::kernel_call(|| codec.decoder().call_constructor(&mut store)) {
            Ok(d) => d,
            Err(e) => return Ok(single(self.trapped(&e))),
        };
        Ok(Box::new(PluginStream {
            provider: self,
            store,
            instance,
            decoder,
            body: response.body,
            pending: VecDeque::new(),
            finished: false,
            label,
        }))
    }
}

/// One response being decoded: the body's chunks go through the codec's decoder.
struct PluginStream<'a> {
    provider: &'a PluginProvider,
    store: Store<State>,
    instance: ProviderPlugin,
    decoder: ResourceAny,
    body: smith_ai::http::Body,
    pending: VecDeque<StreamEvent>,
    finished: bool,
    label: String,
}

impl PluginStream<'_> {
    fn decoded(&mut self, result: wasmtime::Result<Result<Vec<String>, String>>) {
        match result {
            Ok(Ok(list)) => self.pending.extend(parse_events(&self.label, list)),
            Ok(Err(why)) => {
                self.pending.push_back(StreamEvent::Error(error(
                    ProviderErrorKind::Malformed,
                    format!("the response could not be decoded: {why}"),
                )));
                self.finished = true;
            }
            Err(e) => {
                self.pending.push_back(self.provider.trapped(&e));
                self.finished = true;
            }
        }
    }
}

impl Iterator for PluginStream<'_> {
    type Item = StreamEvent;

    fn next(&mut self) -> Option<StreamEvent> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                if e.is_terminal() {
                    self.finished = true;
                    self.pending.clear();
                }
                return Some(e);
            }
            if self.finished {
                return None;
            }
            let codec = self.instance.smith_plugin_codec().decoder();
            self.store.data_mut().started = Instant::now();
            match self.body.next_chunk() {
                Some(bytes) => {
                    let result = crate::kernel_call(|| {
                        codec.call_push(&mut self.store, self.decoder, &bytes)
                    });
                    self.decoded(result);
                }
                None => {
                    self.finished = true;
                    match self.body.outcome().cloned().unwrap_or(Outcome::Complete) {
                        Outcome::Complete => {
                            let result = codec.call_finish(&mut self.store, self.decoder);
                            self.decoded(result);
                            // A decoder that ends without a terminal event is cut off.
                            if !self.pending.iter().any(StreamEvent::is_terminal) {
                                self.pending.push_back(StreamEvent::Error(error(
                                    ProviderErrorKind::Malformed,
                                    "the response ended without a terminal event; it was cut off — retry",
                                )));
                            }
                        }
                        Outcome::Cancelled => self.pending.push_back(StreamEvent::Stop {
                            reason: StopReason::Aborted,
                        }),
                        Outcome::Truncated { limit } => {
                            self.pending.push_back(StreamEvent::Error(error(
                                ProviderErrorKind::Malformed,
                                format!("the response passed the {limit}-byte limit and was cut; ask for a shorter answer"),
                            )));
                        }
                        Outcome::Failed(why) => self.pending.push_back(StreamEvent::Error(error(
                            ProviderErrorKind::Transient,
                            format!("{why}; retry"),
                        ))),
                    }
                    // Events decoded after the end are delivered by the loop above.
                    self.finished = self.pending.is_empty();
                }
            }
        }
    }
}
