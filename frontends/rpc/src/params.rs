//! Parameters checked against their declaration before a handler runs: unknown names,
//! missing required ones and values of the wrong type get `-32602` naming the field and what
//! was expected; handlers then read them with the typed getters.

use serde_json::{Map, Value};
use smith_render_jsonrpc::ErrorObject;

use crate::decl::Method;

/// The named parameters of one call, checked against its method's declaration.
#[derive(Debug)]
pub(crate) struct Params(Map<String, Value>);

fn expected(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", names.join(", "));
    }
    let kinds: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return "any JSON value".to_owned(),
    };
    let mut text = kinds
        .iter()
        .map(|k| match *k {
            "integer" => "an integer",
            "string" => "a string",
            "boolean" => "true or false",
            "array" => "an array",
            "object" => "an object",
            "null" => "null",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(" or ");
    if let Some(min) = schema.get("minimum") {
        text.push_str(&format!(" ≥ {min}"));
    }
    if let Some(max) = schema.get("maximum") {
        text.push_str(&format!(" ≤ {max}"));
    }
    text
}

/// Where `value` first departs from `schema`: the path of the offending part (`field`,
/// `field[2]`, `field[0].text`) and what was expected there; `None` when it fits.
fn mismatch(schema: &Value, value: &Value, path: &str) -> Option<(String, String)> {
    let kind_fits = |kind: &str| match kind {
        "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    };
    let typed = match schema.get("type") {
        Some(Value::String(t)) => kind_fits(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(kind_fits),
        _ => true,
    };
    let here = || Some((path.to_owned(), expected(schema)));
    if !typed {
        return here();
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return if values.contains(value) { None } else { here() };
    }
    if let Some(n) = value.as_f64() {
        let below = schema
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m);
        let above = schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m);
        if below || above {
            return here();
        }
    }
    if let (Some(items), Some(values)) = (schema.get("items"), value.as_array()) {
        return values
            .iter()
            .enumerate()
            .find_map(|(i, v)| mismatch(items, v, &format!("{path}[{i}]")));
    }
    if let Some(object) = value.as_object() {
        let props = schema.get("properties");
        let required = schema.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                let what = props
                    .and_then(|p| p.get(name))
                    .map_or_else(|| "any JSON value".to_owned(), expected);
                return Some((
                    format!("{path}.{name}"),
                    format!("given: it is required ({what})"),
                ));
            }
        }
        for (name, v) in object {
            if let Some(s) = props.and_then(|p| p.get(name))
                && let Some(found) = mismatch(s, v, &format!("{path}.{name}"))
            {
                return Some(found);
            }
        }
    }
    None
}

impl Params {
    /// Check `params` against `method`'s declaration.
    pub(crate) fn check(method: &Method, params: Map<String, Value>) -> Result<Self, ErrorObject> {
        for name in params.keys() {
            if !method.params.iter().any(|p| p.name == name) {
                let known: Vec<&str> = method.params.iter().map(|p| p.name).collect();
                return Err(ErrorObject::invalid_params(
                    name,
                    &if known.is_empty() {
                        format!("absent: `{}` takes no parameters", method.name)
                    } else {
                        format!("absent: `{}` takes {}", method.name, known.join(", "))
                    },
                ));
            }
        }
        for p in &method.params {
            match params.get(p.name) {
                None if p.required => {
                    return Err(ErrorObject::invalid_params(
                        p.name,
                        &format!("given: it is required ({})", expected(&p.schema)),
                    ));
                }
                Some(v) => {
                    if let Some((field, what)) = mismatch(&p.schema, v, p.name) {
                        return Err(ErrorObject::invalid_params(&field, &what));
                    }
                }
                None => {}
            }
        }
        Ok(Self(params))
    }

    /// A string parameter (checked to be one when given).
    pub(crate) fn str(&self, name: &str) -> Option<&str> {
        self.0.get(name).and_then(Value::as_str)
    }

    /// A non-negative integer parameter.
    pub(crate) fn u64(&self, name: &str) -> Option<u64> {
        self.0.get(name).and_then(Value::as_u64)
    }

    /// A boolean parameter.
    pub(crate) fn bool(&self, name: &str) -> Option<bool> {
        self.0.get(name).and_then(Value::as_bool)
    }

    /// Any parameter's value.
    pub(crate) fn value(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decl::methods;

    fn check(method: &str, params: Value) -> Result<Params, ErrorObject> {
        let m = methods().into_iter().find(|m| m.name == method).unwrap();
        Params::check(&m, params.as_object().cloned().unwrap_or_default())
    }

    #[test]
    fn fields_are_named_with_what_was_expected() {
        let e = check("session.submit", serde_json::json!({"session": "x"})).unwrap_err();
        assert_eq!(e.data.unwrap()["field"], "input");
        let e = check(
            "session.submit",
            serde_json::json!({"session": 1, "input": "x"}),
        )
        .unwrap_err();
        assert!(
            e.message.contains("`session` must be a string"),
            "{}",
            e.message
        );
        let e = check(
            "session.entries",
            serde_json::json!({"session": "s", "limit": 0}),
        )
        .unwrap_err();
        assert!(e.message.contains("≥ 1"), "{}", e.message);
        let e = check("sessions.list", serde_json::json!({"colour": true})).unwrap_err();
        assert!(e.message.contains("colour"), "{}", e.message);
        let e = check(
            "session.edit",
            serde_json::json!({"session": "s", "replace": [{"entry": 2}]}),
        )
        .unwrap_err();
        assert_eq!(e.data.unwrap()["field"], "replace[0].text");
        assert!(
            check(
                "session.edit",
                serde_json::json!({"session": "s", "replace": [{"entry": 2, "text": "t"}]})
            )
            .is_ok()
        );
    }
}
