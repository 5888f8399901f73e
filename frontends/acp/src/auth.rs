//! Authentication (ACP `authMethods` and `authenticate`): none is offered while the providers
//! of the model sessions start with have their keys (stored by `smith auth set`, or in their
//! environment variables); for one whose required key is missing, a terminal method runs
//! `smith auth set PROVIDER` — the key typed with echo off, stored in the auth file — and
//! `authenticate` with it checks that the key is there now.

use agent_client_protocol_schema::v1::{AuthMethod, AuthMethodTerminal, AuthenticateRequest};
use serde_json::{Map, Value, json};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::INVALID_PARAMS;

use crate::server::{Server, parse};

/// The id of the method that stores `provider`'s key.
fn method_id(provider: &str) -> String {
    format!("smith-auth-set-{provider}")
}

/// The providers of the starting model whose required key is missing, by id.
fn missing(server: &Server) -> Vec<String> {
    let app = &server.app;
    let Ok(selection) = app.selection() else {
        return Vec::new();
    };
    let Ok(models) = app.models() else {
        return Vec::new();
    };
    let Ok(targets) = smith_app::route::targets(&models, &selection) else {
        return Vec::new();
    };
    let Ok(path) = app.paths.auth_file() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, key) in app.registry.api_keys() {
        if !key.required || !targets.iter().any(|t| t.model.provider == id) {
            continue;
        }
        let variable = smith_app::route::key_variable(&app.settings, &id, &key.env);
        let stored = smith_app::auth::key_source(&path, &id, &variable).is_ok_and(|s| s.is_some())
            || smith_app::auth::accounts(&path, &id).is_ok_and(|a| !a.is_empty());
        if !stored && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The methods `initialize` offers: one terminal method per provider whose key is missing.
pub(crate) fn methods(server: &Server) -> Vec<AuthMethod> {
    missing(server)
        .into_iter()
        .map(|provider| {
            AuthMethod::Terminal(
                AuthMethodTerminal::new(method_id(&provider), format!("Store your {provider} API key"))
                    .description(format!(
                        "Runs `smith auth set {provider}`: the key is typed with echo off and kept in Smith's auth file"
                    ))
                    .args(vec!["auth".to_owned(), "set".to_owned(), provider]),
            )
        })
        .collect()
}

/// `authenticate`: for a method [`methods`] offered, answered once the key is there.
///
/// # Errors
/// Invalid params for another method id, or while the key is still missing.
pub(crate) fn authenticate(
    server: &Server,
    params: Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let request: AuthenticateRequest = parse("authenticate", params)?;
    let id = request.method_id.0.to_string();
    let provider = id.strip_prefix("smith-auth-set-").unwrap_or_default();
    if provider.is_empty()
        || !server
            .app
            .registry
            .api_keys()
            .iter()
            .any(|(p, _)| p == provider)
    {
        return Err(ErrorObject {
            code: INVALID_PARAMS,
            message: format!(
                "no authentication method {id:?}: `initialize` lists the ones offered (none while every key the model needs is stored); store a key with `smith auth set PROVIDER` in a terminal"
            ),
            data: Some(json!({"field": "methodId"})),
        });
    }
    if missing(server).iter().any(|p| p == provider) {
        return Err(ErrorObject {
            code: INVALID_PARAMS,
            message: format!(
                "no {provider} key is stored yet: run `smith auth set {provider}` in a terminal (the method's command) and type the key, then authenticate again"
            ),
            data: Some(json!({"field": "methodId"})),
        });
    }
    Ok(json!({}))
}
