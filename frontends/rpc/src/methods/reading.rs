//! The handlers that read an open session's committed file: its entries, a search through
//! them, its usage, a pending request's details and its receipts.

use super::*;

pub(super) fn entries(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let request = PageRequest {
        limit: p.u64("limit").unwrap_or(100) as usize,
        cursor: p.u64("cursor"),
        branch: p.bool("branch").unwrap_or(false),
    };
    let page = inspect::read_page(&o.path, o.id, request).map_err(|e| match e {
        inspect::PageError::Store(e) => errors::store(&e),
        other => {
            let field = if matches!(other, inspect::PageError::Limit { .. }) {
                "limit"
            } else {
                "cursor"
            };
            ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `{field}`: {other}"),
                data: Some(json!({"field": field})),
            }
        }
    })?;
    let entries: Vec<Value> = page
        .entries
        .iter()
        .map(|e| serde_json::to_value(EntryView::new(o.id, e)).unwrap_or_default())
        .collect();
    let view = PageView::new(o.id, page.entries.len(), page.next_cursor, &page.state);
    Ok(json!({"entries": entries, "page": view}))
}

pub(super) fn grep(server: &Arc<Server>, id: Option<Value>, p: &Params) -> Answer {
    let o = match server.opened(p) {
        Ok(o) => o,
        Err(e) => return now(Err(e)),
    };
    let pattern = match inspect::Pattern::new(p.str("pattern").unwrap_or_default()) {
        Ok(pattern) => pattern,
        Err(e) => {
            return now(Err(ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `pattern` {e}"),
                data: Some(json!({"field": "pattern"})),
            }));
        }
    };
    let limit = p.u64("limit").unwrap_or(100) as usize;
    let server2 = Arc::clone(server);
    server.spawn(move || {
        let mut matches = Vec::new();
        let mut more = false;
        let result = inspect::grep_session(&o.path, o.id, &pattern, &mut |m| {
            if matches.len() == limit {
                more = true;
                return ControlFlow::Break(());
            }
            matches.push(serde_json::to_value(m).unwrap_or_default());
            ControlFlow::Continue(())
        })
        .map(|_| json!({"matches": matches, "more": more}))
        .map_err(|e| errors::store(&e));
        server2.answer(id.as_ref(), result);
    });
    Answer::Later
}

pub(super) fn usage(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let mut reader = smith_store::SessionReader::open(&o.path).map_err(|e| errors::store(&e))?;
    let accounts = inspect::usage_of(&mut reader).map_err(|e| errors::store(&e))?;
    Ok(serde_json::to_value(UsageView {
        session: o.id,
        attempts: &accounts.attempts,
        total: &accounts.total,
        cost_usd: accounts.cost_usd,
        memory: &accounts.memory,
    })
    .unwrap_or_default())
}

pub(super) fn request(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let text = match p.value("attempt") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    let selector: inspect::AttemptSelector =
        text.parse()
            .map_err(|e: inspect::BadSelector| ErrorObject {
                code: smith_render_jsonrpc::message::INVALID_PARAMS,
                message: format!("invalid params: `attempt` {e}"),
                data: Some(json!({"field": "attempt"})),
            })?;
    let shown = inspect::read_request(&o.path, o.id, selector).map_err(|e| match e {
        inspect::RequestError::Store(e) => errors::store(&e),
        other => ErrorObject::new(code::NOT_FOUND, other.to_string()),
    })?;
    Ok(serde_json::to_value(shown.view()).unwrap_or_default())
}

pub(super) fn receipt(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let submission = EntryId(p.u64("submission").unwrap_or_default());
    let all = inspect::receipts(&o.path, o.id).map_err(|e| errors::store(&e))?;
    let r = all
        .into_iter()
        .find(|r| r.submission == submission)
        .ok_or_else(|| ErrorObject {
            code: code::NOT_FOUND,
            message: format!(
                "submission {submission} is not in session {}; `receipts.list` lists them",
                o.id
            ),
            data: Some(json!({"submission": submission})),
        })?;
    Ok(serde_json::to_value(r).unwrap_or_default())
}

pub(super) fn receipts(server: &Server, p: &Params) -> Result<Value> {
    let o = server.opened(p)?;
    let all = inspect::receipts(&o.path, o.id).map_err(|e| errors::store(&e))?;
    let views: Vec<Value> = all
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or_default())
        .collect();
    Ok(json!({"receipts": views}))
}
