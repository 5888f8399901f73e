//! Encoding a provider-neutral request with a provider plugin's codec, exactly as dispatch
//! does, without sending it or adding credentials: what a recorded request looked like on the
//! wire (spec: Sessions → Effective request context — recorded inputs reconstruct each
//! request; plan B3, "provider byte-decoder replay retains its existing pure-codec contract").

use std::collections::BTreeMap;

use smith::{ProviderError, ProviderErrorKind, ProviderRequest};

use crate::effects::CallState;
use crate::runtime::Loadout;

/// An HTTP request as a provider plugin encoded it, before the host adds the credential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedRequest {
    /// `POST`, `GET`…
    pub method: String,
    /// The URL path and query, appended to the provider's base URL.
    pub path: String,
    /// The plugin's headers (never a credential: the host adds that at send time).
    pub headers: Vec<(String, String)>,
    /// The body bytes, exactly as sent.
    pub body: Vec<u8>,
}

/// The JSON text a provider plugin is given for `request`: its `ProviderRequest` JSON with
/// every registered secret replaced by its reference, and the codec `options` added as
/// `options` when there are any.
///
/// # Errors
/// [`ProviderErrorKind::InvalidRequest`] when the request cannot be encoded as JSON.
pub(crate) fn request_json(
    request: &ProviderRequest,
    redactor: &smith_secrets::Redactor,
    options: &BTreeMap<String, String>,
) -> Result<String, ProviderError> {
    let mut value = serde_json::to_value(request).map_err(|e| {
        ProviderError::new(
            ProviderErrorKind::InvalidRequest,
            format!("the request cannot be encoded: {e}"),
        )
    })?;
    redactor.redact_json(&mut value);
    if !options.is_empty()
        && let Some(map) = value.as_object_mut()
    {
        map.insert("options".into(), serde_json::json!(options));
    }
    Ok(value.to_string())
}

impl Loadout {
    /// Encode `request` with the codec of the provider plugin serving provider `id`, as
    /// dispatch would (secrets replaced against `redactor`, `options` added), in a fresh
    /// instance under the provider memory limit. Nothing is sent and no credential is read.
    ///
    /// # Errors
    /// [`ProviderErrorKind::InvalidRequest`]: no such provider plugin, or its codec refused
    /// the request; [`ProviderErrorKind::Other`]: the plugin trapped.
    pub fn encode_request(
        &self,
        id: &str,
        request: &ProviderRequest,
        options: &BTreeMap<String, String>,
        redactor: &smith_secrets::Redactor,
    ) -> Result<EncodedRequest, ProviderError> {
        let plugin = self
            .providers()
            .iter()
            .find(|p| p.manifest.provider.as_ref().is_some_and(|d| d.id == id))
            .ok_or_else(|| {
                ProviderError::new(
                    ProviderErrorKind::InvalidRequest,
                    format!("no loaded provider plugin provides `{id}`"),
                )
            })?;
        let label = plugin.manifest.label();
        let json = request_json(request, redactor, options)?;
        let runtime = self.runtime();
        let ready = plugin.ready(runtime)?;
        let mut store = runtime.store_with_memory(
            ready.tier,
            CallState::inert(&label),
            runtime.limits().deadline,
            runtime.limits().provider_memory_bytes,
        );
        let trapped = |e: wasmtime::Error| {
            ProviderError::new(
                ProviderErrorKind::Other,
                format!("provider plugin {label} trapped while encoding: {e:#}"),
            )
        };
        let _kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
        let instance = ready.pre.instantiate(&mut store).map_err(trapped)?;
        match instance
            .smith_plugin_codec()
            .call_encode_request(&mut store, &json)
        {
            Ok(Ok(http)) => Ok(EncodedRequest {
                method: http.method,
                path: http.path,
                headers: http.headers,
                body: http.body,
            }),
            Ok(Err(why)) => Err(ProviderError::new(
                ProviderErrorKind::InvalidRequest,
                format!("provider plugin {label} cannot encode the request: {why}"),
            )),
            Err(e) => Err(trapped(e)),
        }
    }
}
