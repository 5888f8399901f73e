//! From a selection to its route (spec: Providers, models, and authentication → Failover,
//! Dispatch identity): aliases and groups resolved offline (`models.kdl`), each physical model
//! checked for a catalog record, each provider's credential accounts in a fixed order (the
//! environment variable its plugin declares or `provider.ID.api-key-env` names, then the auth
//! file's key, then its named accounts, a renewable one renewed first), and each candidate
//! bound to its provider plugin and transport — the script player for `scripted` (its
//! built-in script, or a script file), else the HTTP engine with its base URL
//! (`provider.ID.base-url`, else the plugin's default). Key values are never part of a
//! message.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::Digest;
use smith::{ModelRef, Routing, Selection, ThinkingLevel};
use smith_agent::{Candidate, Route};
use smith_ai::routing::Target;
use smith_host::{Loadout, Manifest, ProviderSetup};

use crate::auth::{self, AuthError, Secret};
use crate::models::Models;
use crate::paths::Paths;
use crate::registry::Registry;
use crate::settings::{Notice, Settings};

/// What to route: the selection, the thinking level, and a script file for `scripted`.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// A model, alias or group.
    pub selection: Selection,
    /// The thinking level to ask for; `None` leaves it to each model's default.
    pub thinking: Option<ThinkingLevel>,
    /// A script the scripted provider plays instead of its built-in one.
    pub script: Option<PathBuf>,
}

/// Why a physical model of the selection cannot be used (the first attempt records these as
/// routing decisions when another candidate serves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassedOver {
    /// The scripted provider's plugin is disabled.
    ScriptedDisabled {
        /// The model.
        model: ModelRef,
    },
    /// No enabled plugin provides the model's provider.
    UnknownProvider {
        /// The model.
        model: ModelRef,
        /// The known providers.
        known: Vec<String>,
    },
    /// The catalog has no record of the model, so nothing is known of its limits.
    NotInCatalog {
        /// The model.
        model: ModelRef,
        /// The provider plugin (`id@version`).
        plugin: String,
        /// The user's `models.kdl`, where a record could be declared.
        models_file: Option<PathBuf>,
        /// Catalogued models whose names are closest to it (a likely typo), best first.
        suggestions: Vec<String>,
    },
    /// The model's record does not list the thinking level asked for.
    Unsupported(smith::CapabilityError),
    /// A renewable credential could not be renewed.
    Renewal(String),
}

impl std::fmt::Display for PassedOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ScriptedDisabled { model } => write!(
                f,
                "{model}: the scripted provider's plugin `scripted` is disabled (plugins.scripted.enabled is false); enable it to run scripted models"
            ),
            Self::UnknownProvider { model, known } => write!(
                f,
                "{model}: unknown provider `{}`; known providers: {}",
                model.provider,
                if known.is_empty() {
                    "none (every provider plugin is disabled)".to_owned()
                } else {
                    known.join(", ")
                }
            ),
            Self::NotInCatalog {
                model,
                plugin,
                models_file,
                suggestions,
            } => write!(
                f,
                "{model}: not in the model catalog (no bundled record, none in models.kdl, and plugin {plugin} declares nothing for models it does not list), so nothing is known of its limits, tools or prices and Smith sends it nothing; {}declare it in {}: model \"{model}\" {{ tools #true }}",
                did_you_mean(suggestions),
                models_file
                    .as_ref()
                    .map_or("models.kdl".to_owned(), |p| p.display().to_string())
            ),
            Self::Unsupported(e) => write!(f, "{e}"),
            Self::Renewal(why) => f.write_str(why),
        }
    }
}

/// `did you mean a, b or c? ` for `suggestions`, empty for none.
pub fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("did you mean {one}? If not, "),
        [init @ .., last] => format!("did you mean {} or {last}? If not, ", init.join(", ")),
    }
}

/// Why no route could be built. Nothing was sent.
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    /// The selection does not resolve (unknown name, cycles, ambiguity): every problem listed.
    #[error(transparent)]
    Resolve(#[from] smith_ai::routing::RouteError),
    /// A script file was given but a model of the route is not scripted.
    #[error(transparent)]
    ScriptNeedsScripted(smith_ai::ResolveError),
    /// No candidate remains; each physical model's reason is listed.
    #[error("{}", no_candidate(.selection, .reasons))]
    NoCandidate {
        /// The selection.
        selection: Selection,
        /// Why each physical model was passed over.
        reasons: Vec<PassedOver>,
    },
    /// A key variable holds a control character, which no request header can carry.
    #[error(
        "{variable} holds a control character (a newline?), which no request header can carry; set it to the key alone"
    )]
    ControlInKey {
        /// The variable.
        variable: String,
    },
    /// The auth file could not be read.
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// The scripted provider's script could not be loaded.
    #[error(transparent)]
    Script(smith_ai::ResolveError),
    /// The provider plugin could not be bound.
    #[error(transparent)]
    Bind(#[from] smith_host::ProviderSetupError),
    /// The plugin serving a model provides no provider (a defect of its manifest).
    #[error("plugin {0} provides no provider")]
    NotAProvider(String),
}

fn no_candidate(selection: &Selection, reasons: &[PassedOver]) -> String {
    match reasons {
        [one] => one.to_string(),
        _ => format!(
            "no model of `{selection}` can be used: {}",
            reasons
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// The physical models `selection` resolves to, in failover order (no plugin loaded).
///
/// # Errors
/// [`RouteError::Resolve`] listing every routing problem.
pub fn targets(models: &Models, selection: &Selection) -> Result<Vec<Target>, RouteError> {
    Ok(models.routes.resolve(&selection.to_string())?)
}

/// Check `selection` without loading a plugin — what a frontend can refuse before it takes the
/// terminal: it resolves (the aliases and groups of `models.kdl`), and one of its physical
/// models at least has a provider that an enabled plugin contributes (`known`, from the
/// registry's manifests). What only [`route`] can tell (catalog records plugins declare,
/// credentials, thinking levels) is not checked.
///
/// # Errors
/// [`RouteError::Resolve`] for a selection that does not resolve; [`RouteError::NoCandidate`]
/// when no physical model's provider is known, each listed as unknown (or the scripted
/// provider's plugin disabled).
pub fn precheck(
    models: &Models,
    known: &[String],
    selection: &Selection,
) -> Result<(), RouteError> {
    let targets = targets(models, selection)?;
    if targets.iter().any(|t| known.contains(&t.model.provider)) {
        return Ok(());
    }
    let reasons = targets
        .into_iter()
        .map(|t| {
            if t.model.provider == smith_ai::scripted::PROVIDER_ID {
                PassedOver::ScriptedDisabled { model: t.model }
            } else {
                PassedOver::UnknownProvider {
                    model: t.model,
                    known: known.to_vec(),
                }
            }
        })
        .collect();
    Err(RouteError::NoCandidate {
        selection: selection.clone(),
        reasons,
    })
}

/// What building a route needs.
pub struct RouteContext<'a> {
    /// The invocation's paths (the auth file).
    pub paths: &'a Paths,
    /// Its settings (`provider.ID.*`).
    pub settings: &'a Settings,
    /// Its registry (plugin components, for generations).
    pub registry: &'a Registry,
    /// The loaded plugins the candidates are bound to.
    pub loadout: &'a Loadout,
    /// The catalog and routing table.
    pub models: &'a Models,
    /// Replaces registered secrets in every request before its provider plugin encodes it.
    pub redactor: smith_secrets::Shared,
}

/// Build the route of `spec`. Renewal failures are returned as notices (they are also
/// recorded in the first attempt's routing decisions).
///
/// # Errors
/// [`RouteError`]: no candidate remains (each physical model's reason listed), a script was
/// given for a model that is not scripted, a key variable holds a control character, the
/// auth file cannot be read, or a provider cannot be bound.
pub fn route(
    cx: &RouteContext<'_>,
    spec: &RunSpec,
) -> Result<(Route<'static>, Vec<Notice>), RouteError> {
    let targets = targets(cx.models, &spec.selection)?;
    let scripted_id = smith_ai::scripted::PROVIDER_ID;
    if spec.script.is_some()
        && let Some(t) = targets.iter().find(|t| t.model.provider != scripted_id)
    {
        return Err(RouteError::ScriptNeedsScripted(
            smith_ai::ResolveError::ScriptNeedsScripted {
                model: t.model.clone(),
            },
        ));
    }
    let known = cx.registry.provider_ids();
    let mut passed_over: Vec<PassedOver> = Vec::new();
    let mut notices = Vec::new();
    let mut candidates = Vec::new();
    for target in targets {
        let model = &target.model;
        let id = model.provider.as_str();
        let Some(manifest) = cx.loadout.provider_manifest(id) else {
            passed_over.push(if id == scripted_id {
                PassedOver::ScriptedDisabled {
                    model: model.clone(),
                }
            } else {
                PassedOver::UnknownProvider {
                    model: model.clone(),
                    known: known.clone(),
                }
            });
            continue;
        };
        let Some(info) = cx.models.catalog.get(model) else {
            // The same provider's catalogued names, compared without the provider prefix they
            // all share.
            let known: Vec<&str> = cx
                .models
                .catalog
                .models()
                .filter(|m| m.model.provider == model.provider)
                .map(|m| m.model.model.as_str())
                .collect();
            passed_over.push(PassedOver::NotInCatalog {
                model: model.clone(),
                plugin: manifest.label(),
                models_file: cx.models.file.clone(),
                suggestions: smith_config::closest(&model.model, known)
                    .into_iter()
                    .map(|name| format!("{}/{name}", model.provider))
                    .collect(),
            });
            continue;
        };
        // A thinking level the record does not list is refused here, before any session is
        // written, rather than at dispatch.
        if let Some(level) = spec.thinking
            && let Err(e) = info.check_thinking(level)
        {
            passed_over.push(PassedOver::Unsupported(e));
            continue;
        }
        let generation = generation(cx.registry, manifest);
        let routing = Routing {
            source: target.source,
            path: target.path.clone(),
            position: 0,
            of: 0,
            skipped: Vec::new(),
        };
        for account in accounts(cx, manifest, &mut passed_over, &mut notices)? {
            let provider = bind(cx, spec.script.as_deref(), manifest, model, account.key)?;
            candidates.push(Candidate {
                model: model.clone(),
                account: account.label,
                credential: account.source,
                routing: routing.clone(),
                capabilities: Some(info.clone()),
                generation: generation.clone(),
                options: codec_options(cx, &model.provider),
                provider,
            });
        }
    }
    if candidates.is_empty() {
        return Err(RouteError::NoCandidate {
            selection: spec.selection.clone(),
            reasons: passed_over,
        });
    }
    // Models passed over here are routing decisions too: the first attempt records them.
    if let Some(first) = candidates.first_mut() {
        first.routing.skipped = passed_over.iter().map(ToString::to_string).collect();
    }
    let mut route = Route::new(spec.selection.clone(), spec.thinking, candidates);
    route.max_output = cx.settings.value("max-output").and_then(|v| match v {
        smith_config::Value::Integer(n) => u64::try_from(*n).ok(),
        _ => None,
    });
    Ok((route, notices))
}

/// `id@version#` and the first 12 hex digits of the SHA-256 of the plugin's component: the
/// generation that encodes and decodes the requests.
pub(crate) fn generation(registry: &Registry, manifest: &Manifest) -> String {
    let digest = registry
        .component(&manifest.id)
        .map(|bytes| {
            sha2::Sha256::digest(bytes)
                .iter()
                .take(6)
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        })
        .unwrap_or_default();
    format!("{}#{digest}", manifest.label())
}

/// One account of a provider's bucket: its label (never its secret), the secret sent, and
/// where that secret comes from in words (for an authentication failure's message).
struct Account {
    label: Option<String>,
    key: Option<String>,
    source: Option<String>,
}

/// The credential accounts of `manifest`'s provider, in order: the environment variable
/// (`env:VAR`), the auth file's key (`auth-file`), then the auth file's named accounts — a
/// renewable one renewed first when it has expired (one that cannot be renewed is passed
/// over, with why). A provider that takes no key, or has none set, gets one account-less
/// candidate (the plugin then refuses a required key before sending).
fn accounts(
    cx: &RouteContext<'_>,
    manifest: &Manifest,
    passed_over: &mut Vec<PassedOver>,
    notices: &mut Vec<Notice>,
) -> Result<Vec<Account>, RouteError> {
    let Some(declared) = manifest.provider.as_ref().and_then(|p| p.api_key.as_ref()) else {
        return Ok(vec![Account {
            label: None,
            key: None,
            source: None,
        }]);
    };
    let mut out = Vec::new();
    let mut unusable = false;
    let id = manifest.provider.as_ref().map_or("", |p| p.id.as_str());
    let variable = key_variable(cx.settings, id, &declared.env);
    if let Some(key) = std::env::var(&variable).ok().filter(|v| !v.is_empty()) {
        if key.chars().any(char::is_control) {
            return Err(RouteError::ControlInKey { variable });
        }
        out.push(Account {
            label: Some(format!("env:{variable}")),
            key: Some(key),
            source: Some(format!(
                "the key in the environment variable {variable} (correct it, or unset it to use the auth file's keys)"
            )),
        });
    }
    let auth_file = cx.paths.auth_file().ok();
    if let Some(path) = &auth_file {
        let setting = |name: &str| {
            cx.settings
                .string(&format!("provider.{id}.{name}"))
                .map(str::to_owned)
        };
        let endpoint = setting("token-url").map(|url| smith_ai::credentials::TokenEndpoint {
            url,
            client_id: setting("client-id"),
        });
        for (label, secret) in auth::accounts(path, id)? {
            let secret = match &secret {
                Secret::Renewable(r) if r.needs_renewal(auth::now()) => {
                    match auth::renew(path, id, &label, endpoint.as_ref()) {
                        Ok(renewed) => renewed,
                        Err(e) => {
                            passed_over.push(PassedOver::Renewal(e.to_string()));
                            notices.push(Notice::RenewalFailed(e));
                            unusable = true;
                            continue;
                        }
                    }
                }
                _ => secret,
            };
            let source = if label == auth::DEFAULT_ACCOUNT {
                format!(
                    "the key stored for {id} in the auth file {} (store a correct one)",
                    path.display()
                )
            } else {
                format!(
                    "account `{label}` of {id} in the auth file {} (store a correct one for that account)",
                    path.display()
                )
            };
            out.push(Account {
                label: Some(label),
                key: Some(secret.value().to_owned()),
                source: Some(source),
            });
        }
    }
    // No secret at all: one keyless candidate (the plugin refuses a required key before
    // sending). Secrets that could not be renewed: no candidate, and the reason is kept.
    if out.is_empty() && !unusable {
        out.push(Account {
            label: None,
            key: None,
            source: Some(format!(
                "none: no key is set in the environment variable {variable}{}",
                auth_file.map_or_else(String::new, |p| format!(
                    " or stored for {id} in the auth file {}",
                    p.display()
                ))
            )),
        });
    }
    Ok(out)
}

/// The environment variable provider `id`'s key is read from: `provider.ID.api-key-env` when
/// configured (explicit configuration), else the one its plugin declares.
pub fn key_variable(settings: &Settings, id: &str, declared: &str) -> String {
    match settings.string(&format!("provider.{id}.api-key-env")) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => declared.to_owned(),
    }
}

/// The codec options of provider `id` from the settings (`provider.ID.api`), sent with each
/// request as `options` and recorded with it. The scripted provider takes none.
fn codec_options(cx: &RouteContext<'_>, id: &str) -> BTreeMap<String, String> {
    let mut options = BTreeMap::new();
    if id != smith_ai::scripted::PROVIDER_ID
        && let Some(api) = cx.settings.string(&format!("provider.{id}.api"))
    {
        options.insert("api".to_owned(), api.to_owned());
    }
    options
}

/// The provider plugin of `manifest` bound to `api_key` and its transport.
fn bind(
    cx: &RouteContext<'_>,
    script: Option<&Path>,
    manifest: &Manifest,
    model: &ModelRef,
    api_key: Option<String>,
) -> Result<Box<dyn smith::Provider>, RouteError> {
    let id = model.provider.as_str();
    let setup = if id == smith_ai::scripted::PROVIDER_ID {
        // The scripted codec's transport plays the script: the built-in one the model names,
        // or the script file.
        let player = smith_ai::scripted::load(model, script).map_err(RouteError::Script)?;
        ProviderSetup {
            base_url: "script:".to_owned(),
            api_key: None,
            transport: Arc::new(smith_ai::scripted::ScriptTransport::new(player)),
            options: BTreeMap::new(),
            redactor: cx.redactor.clone(),
        }
    } else {
        let decl = manifest
            .provider
            .clone()
            .ok_or_else(|| RouteError::NotAProvider(manifest.label()))?;
        let setting = |name: &str| {
            cx.settings
                .string(&format!("provider.{id}.{name}"))
                .map(str::to_owned)
        };
        ProviderSetup {
            base_url: setting("base-url").unwrap_or(decl.base_url),
            api_key,
            transport: Arc::new(smith_ai::http::HttpEngine::default()),
            options: codec_options(cx, id),
            redactor: cx.redactor.clone(),
        }
    };
    Ok(cx
        .loadout
        .provider(id, setup)
        .map(|p| Box::new(p) as Box<dyn smith::Provider>)?)
}

/// No candidate of a route takes image input, and the input has images.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{selection}` cannot take the {} of this input: {}; choose a model whose catalog record has `image-input #true` (declare it in models.kdl if the model takes images), or leave the images out",
    if *images == 1 { "image".to_owned() } else { format!("{images} images") },
    reasons.join("; ")
)]
pub struct NoImageInput {
    /// The selection.
    pub selection: String,
    /// How many images the input has.
    pub images: usize,
    /// Each candidate's model and its image-input evidence.
    pub reasons: Vec<String>,
}

/// Refuse input with `images` images (when any) before anything is written, unless some
/// candidate of `route` advertises image input; the others are passed over at dispatch, with
/// the reason recorded (spec: Model capabilities — "Unsupported optional behavior degrades
/// predictably or fails before dispatch").
///
/// # Errors
/// [`NoImageInput`] naming each candidate's evidence.
pub fn check_image_input(route: &Route<'_>, images: usize) -> Result<(), NoImageInput> {
    if images == 0 {
        return Ok(());
    }
    let candidates = route.candidates();
    if candidates.iter().any(|c| {
        c.capabilities
            .as_ref()
            .is_some_and(|i| i.image_input == Some(true))
    }) {
        return Ok(());
    }
    let reasons = candidates
        .iter()
        .map(|c| match &c.capabilities {
            Some(info) => format!(
                "{}'s image input is {} (catalog source: {})",
                c.model,
                match info.image_input {
                    Some(false) => "not supported",
                    _ => "unknown",
                },
                info.source_of("image-input")
            ),
            None => format!("{} has no catalog record", c.model),
        })
        .collect();
    Err(NoImageInput {
        selection: route.selection.to_string(),
        images,
        reasons,
    })
}
