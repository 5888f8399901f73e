//! Catalog refresh (spec: Providers, models, and authentication → Catalogs): the models a
//! provider's server lists, kept as a snapshot per provider and added to the catalog below
//! every declared record.
//!
//! A provider plugin that can list declares where (`models-path "/models"` in its manifest:
//! `GET {base-url}/models`, answered in the OpenAI list format — llama.cpp's server, Ollama
//! and vLLM answer it). A refresh is asked for (`smith models --refresh`), never part of
//! starting: the catalog is built from the snapshots on disk, offline. Each refresh:
//!
//! - sends the request with the provider's key, exactly as a model request would, through
//!   the one HTTP engine, and stops at once when cancelled;
//! - reads the listing (bounded, [`MAX_LISTING_BYTES`]): each model's id, and its context
//!   window where the server states one (llama.cpp's `meta.n_ctx_train`, vLLM's
//!   `max_model_len`, `context_length`);
//! - replaces the provider's snapshot atomically, and only with newer work: a refresh that
//!   started before the snapshot on disk was written leaves it (a slower, older request
//!   never replaces a newer answer);
//! - on any failure keeps the previous snapshot and says why, naming the provider, the URL
//!   and the plugin.
//!
//! Listed models take the provider plugin's default record (what its contract states for any
//! model) with the listed context window, and name their source `refresh:PROVIDER` with the
//! time; the bundled catalog, the plugins' records and the user's `models.kdl` win over them,
//! and a replaced listing is shown as a conflict of the winner.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use smith::{Cancel, ModelInfo, ModelRef, Source};
use smith_ai::http::{HttpRequest, Outcome, Transport, TransportError};
use smith_host::manifest::Manifest;

use crate::paths::Paths;

/// The largest listing read, in bytes (a server listing thousands of models stays far below).
pub const MAX_LISTING_BYTES: usize = 4 << 20;

/// The most models one listing may hold.
pub const MAX_LISTED: usize = 10_000;

/// One model a server listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// Its id, as the server names it (what a request sends).
    pub id: String,
    /// Its context window in tokens, when the server states one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u64>,
}

/// What a provider's server listed at one refresh: the file kept per provider.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The provider id.
    pub provider: String,
    /// The plugin that declared the listing (`id@version`).
    pub plugin: String,
    /// The URL listed.
    pub url: String,
    /// When the refresh started, in Unix milliseconds (orders refreshes).
    pub started_ms: i64,
    /// When the listing arrived, RFC 3339 UTC.
    pub fetched_at: String,
    /// The models, in the server's order.
    pub models: Vec<Listed>,
    /// Why entries of the listing were skipped (none named a usable model).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

/// Why a refresh did not replace a provider's snapshot (the previous one is kept).
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    /// No data home to keep snapshots in.
    #[error("no data home to keep the refreshed catalog in: {0}")]
    NoHome(String),
    /// The server could not be reached, or the request was cancelled.
    #[error("{provider} (plugin {plugin}): the listing at {url} could not be read: {why}")]
    Transport {
        /// The provider.
        provider: String,
        /// Its plugin.
        plugin: String,
        /// The URL.
        url: String,
        /// What failed.
        why: String,
    },
    /// The server answered with an error status.
    #[error(
        "{provider} (plugin {plugin}): {url} answered {status}{}{}; check the provider's base URL and key",
        if body.is_empty() { String::new() } else { format!(" ({body})") },
        location.as_ref().map(|l| format!(", redirecting to {l} (set the base URL to where it leads)")).unwrap_or_default()
    )]
    Status {
        /// The provider.
        provider: String,
        /// Its plugin.
        plugin: String,
        /// The URL.
        url: String,
        /// The status.
        status: u16,
        /// The start of the body, redacted.
        body: String,
        /// Where a redirect leads.
        location: Option<String>,
    },
    /// The answer is not a model listing.
    #[error(
        "{provider} (plugin {plugin}): {url} did not answer with a model listing: {why}; a listing is JSON `{{\"data\": [{{\"id\": \"…\"}}]}}` (OpenAI's list format)"
    )]
    Listing {
        /// The provider.
        provider: String,
        /// Its plugin.
        plugin: String,
        /// The URL.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// A newer refresh already replaced the snapshot.
    #[error(
        "{provider}: a newer refresh replaced the snapshot while this one ran; the newer one is kept"
    )]
    Superseded {
        /// The provider.
        provider: String,
    },
    /// The snapshot could not be written.
    #[error("{provider}: the refreshed catalog could not be written to {}: {why}", path.display())]
    Write {
        /// The provider.
        provider: String,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        why: String,
    },
}

/// Where provider `id`'s snapshot is kept (`catalog/refreshed/ID.json` under the data home).
fn snapshot_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.json"))
}

/// The models of `body`, a listing in the OpenAI list format (`{"data": [{"id": …}]}`, or
/// `{"models": [{"name"|"model"|"id": …}]}` as Ollama's own API lists them), and why each
/// entry that names no usable model was skipped (no string id; an id that is empty, over 256
/// bytes, `*`, or holds a control, bidirectional or zero-width character).
///
/// # Errors
/// Why it is not a listing: not JSON, no list, too many entries, or entries of which none
/// names a usable model (the first one's reason).
pub fn parse_listing(body: &[u8]) -> Result<(Vec<Listed>, Vec<String>), String> {
    let value: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| format!("it is not JSON ({e})"))?;
    let entries = value
        .get("data")
        .or_else(|| value.get("models"))
        .and_then(serde_json::Value::as_array)
        .ok_or("it holds no `data` list")?;
    if entries.len() > MAX_LISTED {
        return Err(format!(
            "it lists {} models; at most {MAX_LISTED} are read",
            entries.len()
        ));
    }
    let mut out: Vec<Listed> = Vec::with_capacity(entries.len());
    let mut skipped: Vec<String> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let Some(id) = ["id", "model", "name"]
            .iter()
            .find_map(|k| entry.get(*k).and_then(serde_json::Value::as_str))
        else {
            skipped.push(format!("entry {} has no string `id`", i + 1));
            continue;
        };
        // Control, bidirectional and zero-width characters could make one name show as
        // another; `*` is the catalog's "any other model".
        let hidden = |c: char| {
            c.is_control()
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
        };
        if id.is_empty() || id.len() > 256 || id == "*" || id.chars().any(hidden) {
            skipped.push(format!(
                "entry {} has the id {:?}, which is not a model name (1 to 256 bytes, not `*`, no control, bidirectional or zero-width characters)",
                i + 1,
                id.chars().take(80).collect::<String>()
            ));
            continue;
        }
        let context = [
            entry.pointer("/meta/n_ctx_train"),
            entry.get("max_model_len"),
            entry.get("context_length"),
            entry.get("context_window"),
        ]
        .into_iter()
        .flatten()
        .find_map(serde_json::Value::as_u64)
        .filter(|n| *n > 0);
        if !out.iter().any(|l| l.id == id) {
            out.push(Listed {
                id: id.to_owned(),
                context,
            });
        }
    }
    if out.is_empty()
        && let Some(first) = skipped.first()
    {
        return Err(first.clone());
    }
    Ok((out, skipped))
}

/// The key `manifest`'s provider sends (the environment variable, else the auth file's first
/// stored key), with its header; `None` when it takes none or none is set.
fn credential(
    paths: &Paths,
    settings: &crate::Settings,
    manifest: &Manifest,
) -> Option<(String, String)> {
    let decl = manifest.provider.as_ref()?;
    let declared = decl.api_key.as_ref()?;
    let variable = crate::route::key_variable(settings, &decl.id, &declared.env);
    let key = std::env::var(&variable)
        .ok()
        .filter(|v| !v.is_empty() && !v.chars().any(char::is_control))
        .or_else(|| {
            let file = paths.auth_file().ok()?;
            let accounts = crate::auth::accounts(&file, &decl.id).ok()?;
            accounts
                .into_iter()
                .map(|(_, secret)| secret.value().to_owned())
                .next()
        })?;
    Some((declared.header.clone(), format!("{}{key}", declared.prefix)))
}

/// `path` under `base`, a base URL that may carry a query (`http://h/v1?key=k` and
/// `/models` give `http://h/v1/models?key=k`).
fn listing_url(base: &str, path: &str) -> String {
    let (head, query) = match base.split_once('?') {
        Some((head, query)) => (head, Some(query)),
        None => (base, None),
    };
    let mut url = format!("{}{path}", head.trim_end_matches('/'));
    if let Some(query) = query {
        url.push('?');
        url.push_str(query);
    }
    url
}

/// One provider's listing, ready to ask: everything a refresh needs from the configuration,
/// owned, so it can run on a thread of its own ([`listings`] makes them).
pub struct Listing {
    /// The provider id.
    pub provider: String,
    /// The plugin that declares the listing (`id@version`).
    pub plugin: String,
    /// The URL asked.
    pub url: String,
    headers: Vec<(String, String)>,
    dir: PathBuf,
    redactor: smith_secrets::Shared,
}

impl std::fmt::Debug for Listing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The headers hold the key: never shown.
        f.debug_struct("Listing")
            .field("provider", &self.provider)
            .field("plugin", &self.plugin)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// The listings of the enabled provider plugins that declare one (`models-path`), with the
/// configured base URL and key of each.
///
/// # Errors
/// [`RefreshError::NoHome`] when there is no data home to keep snapshots in.
pub fn listings(app: &crate::App) -> Result<Vec<Listing>, RefreshError> {
    let dir = app
        .paths
        .refreshed_catalog()
        .ok_or_else(|| RefreshError::NoHome("set SMITH_HOME or XDG_DATA_HOME".to_owned()))?;
    // What an error body could echo (a key) is redacted; nothing of it when the secrets
    // cannot be gathered.
    let redactor = app.secrets().map(|s| s.redactor).ok();
    let mut out = Vec::new();
    for manifest in app.registry.enabled() {
        let Some(decl) = manifest.provider.as_ref() else {
            continue;
        };
        let Some(path) = &decl.models_path else {
            continue;
        };
        let base = app
            .settings
            .string(&format!("provider.{}.base-url", decl.id))
            .map_or_else(|| decl.base_url.clone(), str::to_owned);
        let mut headers = vec![("accept".to_owned(), "application/json".to_owned())];
        headers.extend(credential(&app.paths, &app.settings, manifest));
        out.push(Listing {
            provider: decl.id.clone(),
            plugin: manifest.label(),
            url: listing_url(&base, path),
            headers,
            dir: dir.clone(),
            redactor: redactor.clone().unwrap_or_default(),
        });
    }
    Ok(out)
}

impl Listing {
    /// [`Listing::fetch`] through the one HTTP engine, as provider traffic goes.
    ///
    /// # Errors
    /// As [`Listing::fetch`].
    pub fn fetch_from_server(self, cancel: &Cancel) -> Result<Snapshot, RefreshError> {
        self.fetch(&smith_ai::http::HttpEngine::default(), cancel)
    }

    /// Ask the server through `transport` (stopping at once when `cancel` is set) and, when
    /// it answers with a listing and no newer refresh got there first, replace the provider's
    /// snapshot.
    ///
    /// # Errors
    /// [`RefreshError`]; the previous snapshot is kept.
    pub fn fetch(
        self,
        transport: &dyn Transport,
        cancel: &Cancel,
    ) -> Result<Snapshot, RefreshError> {
        let Self {
            provider,
            plugin,
            url,
            headers,
            dir,
            redactor,
        } = self;
        let started = now_ms();
        let request = HttpRequest {
            method: "GET".to_owned(),
            url: url.clone(),
            headers,
            body: Vec::new(),
        };
        let transport_error = |why: String| RefreshError::Transport {
            provider: provider.clone(),
            plugin: plugin.clone(),
            url: url.clone(),
            why,
        };
        let response = transport.send(request, cancel).map_err(|e| match e {
            TransportError::Cancelled => transport_error("the refresh was cancelled".to_owned()),
            other => transport_error(other.to_string()),
        })?;
        let status = response.status;
        let response_location = response
            .headers
            .iter()
            .find(|(k, _)| k == "location")
            .map(|(_, v)| v.clone());
        let mut body = Vec::new();
        let mut listing = response.body;
        while let Some(chunk) = listing.next_chunk() {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_LISTING_BYTES {
                return Err(RefreshError::Listing {
                    provider,
                    plugin,
                    url,
                    why: format!("it is larger than {MAX_LISTING_BYTES} bytes"),
                });
            }
        }
        match listing.outcome() {
            Some(Outcome::Complete) | None => {}
            Some(Outcome::Cancelled) => {
                return Err(transport_error("the refresh was cancelled".into()));
            }
            Some(Outcome::Truncated { limit }) => {
                return Err(transport_error(format!("the listing passed {limit} bytes")));
            }
            Some(Outcome::Failed(why)) => {
                return Err(transport_error(format!("the listing broke off: {why}")));
            }
        }
        if !(200..300).contains(&status) {
            // Redacted whole, then shortened (a cut first could split an echoed key).
            let redacted = redactor.current().redact_bytes(&body).into_owned();
            let shown: String = String::from_utf8_lossy(&redacted)
                .chars()
                .take(300)
                .collect();
            return Err(RefreshError::Status {
                provider,
                plugin,
                url,
                status,
                body: shown.trim().to_owned(),
                location: response_location,
            });
        }
        let (mut models, skipped) = parse_listing(&body).map_err(|why| RefreshError::Listing {
            provider: provider.clone(),
            plugin: plugin.clone(),
            url: url.clone(),
            why,
        })?;
        // A server that echoes a key as a model id gets the reference kept, never the key.
        let redactor = redactor.current();
        for listed in &mut models {
            if let std::borrow::Cow::Owned(id) = redactor.redact(&listed.id) {
                listed.id = id;
            }
        }
        let snapshot = Snapshot {
            provider: provider.clone(),
            plugin,
            url,
            started_ms: started,
            fetched_at: jiff::Timestamp::now()
                .round(jiff::Unit::Second)
                .unwrap_or_else(|_| jiff::Timestamp::now())
                .to_string(),
            models,
            skipped,
        };
        let file = snapshot_path(&dir, &provider);
        if !replaces(read_snapshot(&file).as_ref(), started) {
            return Err(RefreshError::Superseded { provider });
        }
        let text = serde_json::to_vec_pretty(&snapshot).map_err(|e| RefreshError::Write {
            provider: provider.clone(),
            path: file.clone(),
            why: e.to_string(),
        })?;
        crate::state::write_atomic(&file, &text).map_err(|e| RefreshError::Write {
            provider,
            path: file.clone(),
            why: e.to_string(),
        })?;
        Ok(snapshot)
    }
}

/// Whether a refresh that started at `started_ms` (Unix milliseconds) may replace `on_disk`:
/// only when that one started no later (a slower, older refresh never replaces a newer
/// answer).
fn replaces(on_disk: Option<&Snapshot>, started_ms: i64) -> bool {
    on_disk.is_none_or(|s| s.started_ms <= started_ms)
}

/// Now, in Unix milliseconds.
fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// A snapshot file, if it reads back (a damaged one is as good as none: the next refresh
/// replaces it).
fn read_snapshot(path: &Path) -> Option<Snapshot> {
    let text = std::fs::read(path).ok()?;
    if text.len() > 2 * MAX_LISTING_BYTES {
        return None;
    }
    serde_json::from_slice(&text).ok()
}

/// The catalog layer of the snapshots kept for the enabled providers that list models: each
/// listed model as its provider's default record with the listed context, sourced
/// `refresh:PROVIDER` at the snapshot's time. Skips what is missing or damaged.
pub(crate) fn layer(
    paths: &Paths,
    providers: &[&Manifest],
    defaults: &dyn Fn(&str) -> Option<ModelInfo>,
) -> smith_ai::catalog::Layer {
    let mut models = Vec::new();
    let Some(dir) = paths.refreshed_catalog() else {
        return smith_ai::catalog::Layer {
            models,
            defaults: Default::default(),
        };
    };
    for manifest in providers {
        let Some(decl) = manifest
            .provider
            .as_ref()
            .filter(|d| d.models_path.is_some())
        else {
            continue;
        };
        let Some(snapshot) = read_snapshot(&snapshot_path(&dir, &decl.id)) else {
            continue;
        };
        if snapshot.provider != decl.id {
            continue;
        }
        let source = Source {
            id: format!("refresh:{}", decl.id),
            title: format!(
                "what {} listed at {} (smith models --refresh)",
                snapshot.url, snapshot.fetched_at
            ),
            date: Some(snapshot.fetched_at.clone()),
        };
        for listed in &snapshot.models {
            let model = ModelRef {
                provider: decl.id.clone(),
                model: listed.id.clone(),
            };
            let mut info = defaults(&decl.id)
                .unwrap_or_else(|| ModelInfo::unknown(model.clone(), source.clone()));
            info.model = model;
            if let Some(context) = listed.context {
                info.context = Some(context);
                info.provenance
                    .figures
                    .insert("context".to_owned(), source.clone());
            }
            info.provenance.source = source.clone();
            models.push(info);
        }
    }
    smith_ai::catalog::Layer {
        models,
        defaults: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama_cpp_ollama_and_vllm_listings_read_with_their_context_windows() {
        let llama = br#"{"object":"list","data":[{"id":"qwen2.5-coder-7b.gguf","object":"model","owned_by":"llamacpp","meta":{"n_ctx_train":32768,"n_params":7615616512}}]}"#;
        assert_eq!(
            parse_listing(llama).unwrap().0,
            [Listed {
                id: "qwen2.5-coder-7b.gguf".into(),
                context: Some(32768)
            }]
        );
        let ollama = br#"{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1733000000,"owned_by":"library"},{"id":"qwen3:8b","object":"model","created":1,"owned_by":"library"}]}"#;
        let ids: Vec<_> = parse_listing(ollama)
            .unwrap()
            .0
            .into_iter()
            .map(|l| (l.id, l.context))
            .collect();
        assert_eq!(
            ids,
            [
                ("llama3.2:latest".to_owned(), None),
                ("qwen3:8b".to_owned(), None)
            ]
        );
        let vllm = br#"{"data":[{"id":"m","max_model_len":8192}]}"#;
        assert_eq!(parse_listing(vllm).unwrap().0[0].context, Some(8192));
        // Entries that name no usable model are skipped, saying why; the rest are kept.
        let mixed = br#"{"data":[{"id":"good"},{"id":""},{"name":5},{"id":"good"}]}"#;
        let (models, skipped) = parse_listing(mixed).unwrap();
        assert_eq!(models.len(), 1, "duplicates are one model");
        assert_eq!(skipped.len(), 2);
        assert!(
            skipped[0].contains("entry 2") && skipped[1].contains("entry 3"),
            "{skipped:?}"
        );
        assert_eq!(
            listing_url("http://h/v1/?key=k", "/models"),
            "http://h/v1/models?key=k"
        );
    }

    #[test]
    fn an_older_refresh_never_replaces_a_newer_answer() {
        let at = |started_ms| Snapshot {
            provider: "p".into(),
            plugin: "p@1".into(),
            url: "http://x/models".into(),
            started_ms,
            fetched_at: "2026-12-05T20:00:00Z".into(),
            models: Vec::new(),
            skipped: Vec::new(),
        };
        assert!(replaces(None, 5));
        assert!(replaces(Some(&at(5)), 5));
        assert!(replaces(Some(&at(4)), 5));
        assert!(!replaces(Some(&at(6)), 5));
    }

    #[test]
    fn what_is_not_a_listing_is_refused_saying_why() {
        for (body, said) in [
            (&b"<html>nope</html>"[..], "not JSON"),
            (br#"{"error":"x"}"#, "no `data` list"),
            (br#"{"data":[{"name":5}]}"#, "no string `id`"),
            (br#"{"data":[{"id":""}]}"#, "not a model name"),
            (br#"{"data":[{"id":"a\u0007b"}]}"#, "not a model name"),
            (br#"{"data":[{"id":"*"}]}"#, "not a model name"),
            (
                "{\"data\":[{\"id\":\"gpt\u{202e}4\"}]}".as_bytes(),
                "not a model name",
            ),
        ] {
            let why = parse_listing(body).unwrap_err();
            assert!(why.contains(said), "{why}");
        }
    }
}
