//! The declarations of the methods that read what this installation offers: models, tools,
//! plugins, configuration and the docs corpus (`models.list`, `tools.list`, `plugins.list`,
//! `config.show`, `docs.*`).

use serde_json::json;

use super::code::*;
use super::{Method, object, p, string};

/// The catalog and docs methods, in the order the reference lists them.
pub(super) fn methods() -> Vec<Method> {
    vec![
        Method {
            name: "models.list",
            summary: "The models the installed provider plugins serve, with capabilities and provenance (as `smith models --json`).",
            params: vec![],
            result: "`models`.",
            result_schema: json!({"type": "object", "properties": {"models": {"type": "array"}}}),
            errors: &[CONFIG],
        },
        Method {
            name: "tools.list",
            summary: "The active plugins' tools as a run from the server's directory would offer them, with their schemas and why any is withheld (as `smith tools list --json`).",
            params: vec![],
            result: "`tools`.",
            result_schema: json!({"type": "object", "properties": {"tools": {"type": "array"}}}),
            errors: &[CONFIG],
        },
        Method {
            name: "plugins.list",
            summary: "The known plugins: id, version, origin, whether enabled and what disabled it.",
            params: vec![],
            result: "`plugins`.",
            result_schema: json!({"type": "object", "properties": {"plugins": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "config.show",
            summary: "The resolved settings, each with the level that set it.",
            params: vec![],
            result: "`settings`: `key`, `value`, `source`.",
            result_schema: json!({"type": "object", "properties": {"settings": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "docs.search",
            summary: "Search the built-in documentation corpus (offline).",
            params: vec![
                p("query", true, string(), "Search words."),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1, "maximum": 50}),
                    "At most this many hits (default 10).",
                ),
            ],
            result: "`hits`: `id`, `title`, `snippet`.",
            result_schema: json!({"type": "object", "properties": {"hits": {"type": "array"}}}),
            errors: &[],
        },
        Method {
            name: "docs.get",
            summary: "One document of the corpus, or a range of its lines.",
            params: vec![
                p(
                    "id",
                    true,
                    string(),
                    "The document id (from `docs.search`).",
                ),
                p(
                    "offset",
                    false,
                    json!({"type": "integer", "minimum": 1}),
                    "The first line (1-based; default 1).",
                ),
                p(
                    "limit",
                    false,
                    json!({"type": "integer", "minimum": 1}),
                    "At most this many lines (default: to the end).",
                ),
            ],
            result: "`id`, `title`, `text`, `offset` (its first line), `total` (the document's lines) and `more`.",
            result_schema: object(),
            errors: &[NOT_FOUND],
        },
    ]
}
