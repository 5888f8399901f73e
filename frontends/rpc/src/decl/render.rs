//! The two documents rendered from the declarations: the OpenRPC document and the markdown
//! reference.

use serde_json::{Value, json};

use super::{PROTOCOL_VERSION, code, methods, notifications};

fn content_descriptor(name: &str, description: &str, schema: &Value, required: bool) -> Value {
    json!({"name": name, "description": description, "required": required, "schema": schema})
}

/// The OpenRPC document (`rpc.discover`'s result).
pub fn openrpc() -> Value {
    let methods: Vec<Value> = methods()
        .iter()
        .map(|m| {
            let params: Vec<Value> = m
                .params
                .iter()
                .map(|p| content_descriptor(p.name, p.description, &p.schema, p.required))
                .collect();
            let errors: Vec<Value> = m
                .errors
                .iter()
                .filter_map(|c| code::ALL.iter().find(|(k, _, _)| k == c))
                .map(|(c, _, meaning)| json!({"code": c, "message": meaning}))
                .collect();
            let mut method = json!({
                "name": m.name,
                "summary": first_sentence(m.summary),
                "description": m.summary,
                "paramStructure": "by-name",
                "params": params,
                "result": content_descriptor("result", m.result, &m.result_schema, true),
            });
            if !errors.is_empty() {
                method["errors"] = Value::from(errors);
            }
            method
        })
        .collect();
    let notifications: Vec<Value> = notifications()
        .iter()
        .map(|n| json!({"name": n.name, "description": n.summary, "params": n.schema}))
        .collect();
    let codes: Vec<Value> = code::ALL
        .iter()
        .map(|(c, name, meaning)| json!({"code": c, "name": name, "meaning": meaning}))
        .collect();
    json!({
        "openrpc": "1.3.2",
        "info": {
            "title": "Smith JSON-RPC",
            "version": PROTOCOL_VERSION,
            "description": "Smith's runtime over JSON-RPC 2.0 on stdin/stdout: one JSON value per LF-terminated line, U+2028/U+2029 escaped; see `smith docs get rpc`."
        },
        "methods": methods,
        "x-notifications": notifications,
        "x-error-codes": codes,
    })
}

fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |end| &text[..=end])
}

/// The generated method and notification reference (`docs/reference/rpc.md`).
pub fn reference_markdown() -> String {
    let mut out = String::from("# The smith rpc methods, notifications and error codes\n\n");
    out.push_str(&format!(
        "Protocol version {PROTOCOL_VERSION}, over stdin and stdout: one message per LF-terminated line (at most {} bytes), U+2028 and U+2029 escaped; batches are refused; parameters are given by name. The guide is [rpc](../rpc.md); `rpc.discover` returns the same declarations as an OpenRPC document.\n\n## Methods\n\n",
        smith_render_jsonrpc::MAX_LINE_BYTES
    ));
    for m in methods() {
        out.push_str(&format!("### `{}`\n\n{}\n\n", m.name, m.summary));
        if m.params.is_empty() {
            out.push_str("Parameters: none.\n\n");
        } else {
            out.push_str(
                "| parameter | required | schema | meaning |\n| --- | --- | --- | --- |\n",
            );
            for p in &m.params {
                out.push_str(&format!(
                    "| `{}` | {} | `{}` | {} |\n",
                    p.name,
                    if p.required { "yes" } else { "no" },
                    p.schema,
                    p.description
                ));
            }
            out.push('\n');
        }
        out.push_str(&format!("Result: {}\n\n", m.result));
        if !m.errors.is_empty() {
            let names: Vec<String> = m
                .errors
                .iter()
                .filter_map(|c| code::ALL.iter().find(|(k, _, _)| k == c))
                .map(|(c, name, _)| format!("`{c}` {name}"))
                .collect();
            out.push_str(&format!("Errors: {}.\n\n", names.join(", ")));
        }
    }
    out.push_str("## Notifications\n\n");
    for n in notifications() {
        out.push_str(&format!(
            "### `{}`\n\n{}\n\nParams: `{}`\n\n",
            n.name, n.summary, n.schema
        ));
    }
    out.push_str("## Error codes\n\nThe standard ones: -32700 parse error (the server goes on), -32600 invalid request, -32601 unknown method, -32602 invalid params (naming the field and what was expected), -32603 internal error. Smith's own:\n\n| code | name | meaning |\n| --- | --- | --- |\n");
    for (c, name, meaning) in code::ALL {
        out.push_str(&format!("| {c} | `{name}` | {meaning} |\n"));
    }
    out
}
