//! Catalog records from litellm's price table (`model_prices_and_context_window.json`, shipped
//! in the `litellm` package): the source of the bundled snapshot (`cargo xtask catalog`) and of
//! `smith models refresh`.
//!
//! Per model (litellm key → figure): `max_input_tokens` → context, `max_output_tokens` →
//! output, `supports_vision` → image input, `supports_function_calling` → tools,
//! `supports_prompt_caching` with `cache_read_input_token_cost` /
//! `cache_creation_input_token_cost` → cache read/write, the four `…_cost_per_token` figures →
//! prices (converted to US dollars per million tokens). Thinking levels: `supports_reasoning`
//! gives low, medium, high; `supports_minimal_reasoning_effort`,
//! `supports_xhigh_reasoning_effort` and `supports_max_reasoning_effort` add minimal, xhigh and
//! max; `off` is listed when `supports_none_reasoning_effort` is true, or — for Anthropic and
//! Google, whose APIs make thinking opt-in — unless `thinking_always_on` is true. A model
//! without `supports_reasoning` lists only `off`. Strict tool input has no litellm figure and
//! stays unknown. Only chat models of `anthropic`, `openai` and `gemini` (named `google/…`)
//! with a known context and input price are taken.

use serde_json::Value;
use smith::{CacheInfo, ModelInfo, ModelRef, Price, Source, ThinkingLevel};

/// The provider ids of litellm's `litellm_provider` values Smith serves.
const PROVIDERS: [(&str, &str); 3] = [
    ("anthropic", "anthropic"),
    ("openai", "openai"),
    ("gemini", "google"),
];

/// One usable entry of the table: Smith's model reference, the entry, and its deprecation
/// date (`YYYY-MM-DD`) when it has one.
pub struct Entry<'v> {
    /// `provider/model` as Smith names it.
    pub model: ModelRef,
    /// The table's entry.
    pub value: &'v Value,
    /// `deprecation_date`, when given.
    pub deprecated: Option<&'v str>,
}

/// The price table is not a JSON object of models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the price table is not a JSON object of models (found {found})")]
pub struct NotATable {
    /// What was found instead (`an array`, `a string`…).
    pub found: &'static str,
}

/// The usable entries of table `json`, in the table's order.
///
/// # Errors
/// [`NotATable`] when `json` is not a JSON object.
pub fn entries(json: &Value) -> Result<Vec<Entry<'_>>, NotATable> {
    let table = json.as_object().ok_or(NotATable {
        found: match json {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        },
    })?;
    let mut out = Vec::new();
    for (key, value) in table {
        if value.get("mode").and_then(Value::as_str) != Some("chat") {
            continue;
        }
        let Some(provider) = value
            .get("litellm_provider")
            .and_then(Value::as_str)
            .and_then(|p| PROVIDERS.iter().find(|(l, _)| *l == p))
            .map(|(_, s)| *s)
        else {
            continue;
        };
        let name = key.strip_prefix("gemini/").unwrap_or(key);
        if name.contains('/') || name.is_empty() {
            continue;
        }
        if value
            .get("max_input_tokens")
            .and_then(Value::as_u64)
            .is_none()
            || value
                .get("input_cost_per_token")
                .and_then(Value::as_f64)
                .is_none()
        {
            continue;
        }
        let Ok(model) = format!("{provider}/{name}").parse::<ModelRef>() else {
            continue;
        };
        out.push(Entry {
            model,
            value,
            deprecated: value.get("deprecation_date").and_then(Value::as_str),
        });
    }
    Ok(out)
}

/// The catalog record of `entry`, citing `source`.
pub fn record(entry: &Entry<'_>, source: &Source) -> ModelInfo {
    let v = entry.value;
    let flag = |k: &str| v.get(k).and_then(Value::as_bool);
    let num = |k: &str| v.get(k).and_then(Value::as_u64).filter(|n| *n > 0);
    let cost = |k: &str| {
        v.get(k)
            .and_then(Value::as_f64)
            .filter(|c| c.is_finite() && *c >= 0.0)
            .map(per_million)
    };
    let mut info = ModelInfo::unknown(entry.model.clone(), source.clone());
    info.context = num("max_input_tokens");
    info.output = num("max_output_tokens");
    info.image_input = flag("supports_vision");
    info.tools = flag("supports_function_calling");
    info.thinking = Some(levels(&entry.model.provider, v));
    if flag("supports_prompt_caching").is_some() {
        info.cache = Some(CacheInfo {
            read: cost("cache_read_input_token_cost").is_some(),
            write: cost("cache_creation_input_token_cost").is_some(),
        });
    }
    info.price = Some(Price {
        input: cost("input_cost_per_token"),
        output: cost("output_cost_per_token"),
        cache_read: cost("cache_read_input_token_cost"),
        cache_write: cost("cache_creation_input_token_cost"),
    });
    info
}

/// US dollars per token to per million tokens, at six significant digits (the table's
/// figures are decimal; this drops binary noise such as 2.9999999999999996).
fn per_million(per_token: f64) -> f64 {
    let x = per_token * 1e6;
    if x == 0.0 {
        return 0.0;
    }
    let digits = 6 - 1 - x.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

fn levels(provider: &str, v: &Value) -> Vec<ThinkingLevel> {
    let flag = |k: &str| v.get(k).and_then(Value::as_bool);
    if flag("supports_reasoning") != Some(true) {
        return vec![ThinkingLevel::Off];
    }
    let mut out = Vec::new();
    let off = match flag("supports_none_reasoning_effort") {
        Some(none) => none,
        None => provider != "openai" && flag("thinking_always_on") != Some(true),
    };
    if off {
        out.push(ThinkingLevel::Off);
    }
    if flag("supports_minimal_reasoning_effort") == Some(true) {
        out.push(ThinkingLevel::Minimal);
    }
    out.extend([
        ThinkingLevel::Low,
        ThinkingLevel::Medium,
        ThinkingLevel::High,
    ]);
    if flag("supports_xhigh_reasoning_effort") == Some(true) {
        out.push(ThinkingLevel::Xhigh);
    }
    if flag("supports_max_reasoning_effort") == Some(true) {
        out.push(ThinkingLevel::Max);
    }
    out
}

/// `records` as catalog KDL (the schema of [`crate::catalog`]), after `header` (the `source`
/// declaration and comments).
pub fn to_kdl(header: &str, records: &[ModelInfo]) -> String {
    let mut out = header.to_owned();
    for m in records {
        // Always quoted (Rust's escapes are KDL v2's: `\"`, `\\`, `\n`, `\u{…}`).
        let q = |s: &str| format!("{s:?}");
        let b = |x: bool| if x { "#true" } else { "#false" };
        let f = |x: f64| {
            let mut s = format!("{x:?}");
            if !s.contains('.') && !s.contains('e') {
                s.push_str(".0");
            }
            s
        };
        out.push_str(&format!(
            "\nmodel {} source={} {{\n",
            q(&m.model.to_string()),
            q(&m.provenance.source.id)
        ));
        if let Some(n) = m.context {
            out.push_str(&format!("    context {n}\n"));
        }
        if let Some(n) = m.output {
            out.push_str(&format!("    output {n}\n"));
        }
        if let Some(x) = m.image_input {
            out.push_str(&format!("    image-input {}\n", b(x)));
        }
        if let Some(x) = m.tools {
            out.push_str(&format!("    tools {}\n", b(x)));
        }
        if let Some(x) = m.strict_tools {
            out.push_str(&format!("    strict-tools {}\n", b(x)));
        }
        if let Some(levels) = &m.thinking {
            let names: Vec<String> = levels.iter().map(|l| q(l.as_str())).collect();
            out.push_str(&format!("    thinking {}\n", names.join(" ")));
        }
        if let Some(c) = m.cache {
            out.push_str(&format!(
                "    cache read={} write={}\n",
                b(c.read),
                b(c.write)
            ));
        }
        if let Some(p) = m.price {
            let parts: Vec<String> = [
                ("input", p.input),
                ("output", p.output),
                ("cache-read", p.cache_read),
                ("cache-write", p.cache_write),
            ]
            .iter()
            .filter_map(|(k, v)| v.map(|v| format!("{k}={}", f(v))))
            .collect();
            out.push_str(&format!("    price {}\n", parts.join(" ")));
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_map_as_documented() {
        let table = serde_json::json!({
            "claude-x": {"mode": "chat", "litellm_provider": "anthropic", "max_input_tokens": 200000,
                "max_output_tokens": 64000, "input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05,
                "cache_read_input_token_cost": 3e-07, "cache_creation_input_token_cost": 3.75e-06,
                "supports_prompt_caching": true, "supports_function_calling": true,
                "supports_vision": true, "supports_reasoning": true, "supports_max_reasoning_effort": true},
            "gpt-x": {"mode": "chat", "litellm_provider": "openai", "max_input_tokens": 1000,
                "input_cost_per_token": 1e-06, "supports_reasoning": true,
                "supports_minimal_reasoning_effort": true},
            "gemini/gemini-x": {"mode": "chat", "litellm_provider": "gemini", "max_input_tokens": 5,
                "input_cost_per_token": 0},
            "embed": {"mode": "embedding", "litellm_provider": "openai"},
            "bedrock/x": {"mode": "chat", "litellm_provider": "bedrock"},
            "no-price": {"mode": "chat", "litellm_provider": "openai", "max_input_tokens": 5}
        });
        let source = Source {
            id: "t".into(),
            title: "t".into(),
            date: Some("2026-11-30".into()),
        };
        let found = entries(&table).unwrap();
        let names: Vec<String> = found.iter().map(|e| e.model.to_string()).collect();
        assert_eq!(
            names,
            ["anthropic/claude-x", "openai/gpt-x", "google/gemini-x"]
        );
        let claude = record(&found[0], &source);
        assert_eq!(claude.price.unwrap().input, Some(3.0));
        assert_eq!(claude.price.unwrap().cache_write, Some(3.75));
        assert_eq!(
            claude.thinking.as_deref().unwrap(),
            [
                ThinkingLevel::Off,
                ThinkingLevel::Low,
                ThinkingLevel::Medium,
                ThinkingLevel::High,
                ThinkingLevel::Max
            ]
        );
        let gpt = record(&found[1], &source);
        assert_eq!(gpt.thinking.as_deref().unwrap()[0], ThinkingLevel::Minimal);
        assert_eq!(gpt.cache, None);
        assert_eq!(gpt.tools, None, "unknown stays unknown");
        assert_eq!(
            record(&found[2], &source).thinking.as_deref().unwrap(),
            [ThinkingLevel::Off]
        );
        // The KDL text reads back as the same records.
        let kdl = to_kdl(
            "source \"t\" date=\"2026-11-30\" {\n    title \"t\"\n}\n",
            &[claude.clone(), gpt.clone()],
        );
        let back = crate::catalog::parse(&kdl, "t", None).unwrap();
        assert_eq!(back.models, [claude, gpt]);
        assert!(entries(&serde_json::json!([1])).is_err());
    }
}
