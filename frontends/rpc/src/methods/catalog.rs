//! The handlers that read what this installation offers: models, tools, plugins, the
//! configuration and the docs corpus.

use super::*;

pub(crate) fn models_json(server: &Server) -> Result<Value> {
    let models = server.app.models().map_err(|e| errors::config(&e))?;
    let records: Vec<Value> = smith_app::catalog::model_records(&models, &server.app)
        .iter()
        .map(smith_app::catalog::ModelRecord::to_json)
        .collect();
    Ok(json!({"models": records}))
}

pub(super) fn tools(server: &Server) -> Result<Value> {
    let tools =
        smith_app::catalog::tool_records(&server.app, Some(&server.cwd), &|r| r.to_string())
            .map_err(|e| errors::config(&e))?;
    Ok(json!({"tools": tools}))
}

pub(crate) fn plugins_json(server: &Server) -> Result<Value> {
    let process = server
        .app
        .policy(&server.cwd, &|r| r.to_string())
        .map_err(|e| errors::config(&e))?
        .process;
    let plugins: Vec<Value> = server
        .app
        .registry
        .plugins()
        .iter()
        .map(|k| smith_app::catalog::plugin_record(&server.app.registry, k, &process))
        .collect();
    Ok(json!({"plugins": plugins}))
}

pub(super) fn config(server: &Server) -> Value {
    let resolved = &server.app.settings.resolved;
    let settings: Vec<Value> = smith_app::catalog::setting_keys(resolved)
        .iter()
        .map(|k| smith_app::catalog::setting_record(k, resolved))
        .collect();
    json!({"settings": settings})
}

pub(super) fn docs() -> Result<std::sync::Arc<dyn smith_host::DocsSource>> {
    smith_app::docs::embedded().0.ok_or_else(|| {
        ErrorObject::new(code::NOT_FOUND, "this Smith has no documentation built in")
    })
}

pub(super) fn docs_search(p: &Params) -> Result<Value> {
    let hits = docs()?
        .search(
            p.str("query").unwrap_or_default(),
            p.u64("limit").unwrap_or(10) as u32,
        )
        .map_err(|e| ErrorObject {
            code: smith_render_jsonrpc::message::INVALID_PARAMS,
            message: format!("invalid params: {e}"),
            data: Some(json!({"field": "query"})),
        })?;
    let hits: Vec<Value> = hits
        .iter()
        .map(|h| json!({"id": h.id, "title": h.title, "section": h.section, "line": h.line, "snippet": h.snippet}))
        .collect();
    Ok(json!({"hits": hits}))
}

pub(super) fn docs_get(p: &Params) -> Result<Value> {
    let offset = p.u64("offset").unwrap_or(1).max(1) as u32;
    let limit = p
        .u64("limit")
        .unwrap_or(u64::from(u32::MAX))
        .min(u64::from(u32::MAX)) as u32;
    let page = docs()?
        .get(p.str("id").unwrap_or_default(), offset, limit)
        .map_err(|e| ErrorObject::new(code::NOT_FOUND, e))?;
    let shown = page.text.lines().count() as u32;
    Ok(json!({
        "id": page.id,
        "title": page.title,
        "text": page.text,
        "offset": page.offset,
        "total": page.total,
        "more": page.offset + shown <= page.total && page.offset.saturating_sub(1) + shown < page.total,
    }))
}
