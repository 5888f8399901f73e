//! Values and their validation against an option's type.

use std::fmt;

use crate::schema::Type;

/// A resolved configuration value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    /// Text (also models and URLs).
    String(String),
    /// A boolean.
    Bool(bool),
    /// An integer.
    Integer(i64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::String(s) => f.write_str(s),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(n) => write!(f, "{n}"),
        }
    }
}

/// A value as a source gave it: typed (from KDL) or text (from the environment or a flag).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Raw {
    /// A KDL value.
    Kdl(kdl::KdlValue),
    /// Text to be read in the option's type.
    Text(String),
    /// Several KDL values on one node (`args "-y" "server"`): only a [`Type::Words`] option
    /// takes them.
    List(Vec<kdl::KdlValue>),
}

impl fmt::Display for Raw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Raw::Kdl(kdl::KdlValue::String(s)) | Raw::Text(s) => f.write_str(s),
            Raw::Kdl(v) => write!(f, "{v}"),
            Raw::List(values) => {
                // Each word quoted, as it was written (`"-y" "pkg"`).
                let shown: Vec<String> = values
                    .iter()
                    .map(|v| match v.as_string() {
                        Some(text) => serde_json::to_string(text).unwrap_or_default(),
                        None => v.to_string(),
                    })
                    .collect();
                f.write_str(&shown.join(" "))
            }
        }
    }
}

/// `raw` as an error may show it: a URL's user information (`user:password@`) is replaced by
/// `…@`, since it may be a credential.
pub(crate) fn shown(ty: Type, raw: &Raw) -> String {
    let text = raw.to_string();
    if ty != Type::Url {
        return text;
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return text;
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://…{}", &rest[at..]),
        None => text,
    }
}

/// `raw` as a [`Type::Words`] value: the JSON array text of its strings — several KDL
/// arguments, or one text that is a JSON array of strings, or one word.
fn words(raw: &Raw) -> Result<String, String> {
    let list: Vec<String> = match raw {
        Raw::List(values) => values
            .iter()
            .map(|v| v.as_string().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or("each word is a quoted string")?,
        Raw::Kdl(kdl::KdlValue::String(s)) | Raw::Text(s) => {
            match serde_json::from_str::<Vec<String>>(s) {
                Ok(list) if s.trim_start().starts_with('[') => list,
                _ => vec![s.clone()],
            }
        }
        Raw::Kdl(_) => return Err("expected quoted strings".into()),
    };
    if list.iter().any(|w| w.contains('\0')) {
        return Err("a word cannot hold a NUL character".into());
    }
    serde_json::to_string(&list).map_err(|e| e.to_string())
}

/// The words of a [`Type::Words`] value (the JSON array text the resolver keeps); none when it
/// is not one.
pub fn words_of(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::String(text) => serde_json::from_str(text).ok(),
        _ => None,
    }
}

/// Read `raw` as a value of `ty`, or say why it is not one.
pub(crate) fn check(ty: Type, raw: &Raw) -> Result<Value, String> {
    let text = match raw {
        Raw::Kdl(kdl::KdlValue::String(s)) | Raw::Text(s) => Some(s.as_str()),
        _ => None,
    };
    if let Raw::List(values) = raw
        && ty != Type::Words
    {
        return Err(format!(
            "it takes one value, not {}; quote it as one string",
            values.len()
        ));
    }
    match ty {
        Type::Words => words(raw).map(Value::String),
        Type::String => match text {
            Some(s) if s.chars().any(|c| c.is_control() && c != '\t') => {
                Err("control characters are not allowed".into())
            }
            Some(s) => Ok(Value::String(s.to_owned())),
            None => Err("expected a string".into()),
        },
        Type::Bool => match (raw, text) {
            (Raw::Kdl(kdl::KdlValue::Bool(b)), _) => Ok(Value::Bool(*b)),
            (Raw::Text(_), Some("true")) => Ok(Value::Bool(true)),
            (Raw::Text(_), Some("false")) => Ok(Value::Bool(false)),
            _ => Err("expected a boolean (true or false; in KDL #true or #false)".into()),
        },
        Type::Integer { min, max } => {
            let n = match (raw, text) {
                (Raw::Kdl(kdl::KdlValue::Integer(n)), _) => i64::try_from(*n).ok(),
                (Raw::Text(_), Some(t)) => t.trim().parse::<i64>().ok(),
                _ => None,
            };
            match n {
                Some(n) if (min..=max).contains(&n) => Ok(Value::Integer(n)),
                Some(n) => Err(format!("{n} is outside {min}..={max}")),
                None => Err(format!("expected an integer in {min}..={max}")),
            }
        }
        Type::Enum(words) => match text {
            Some(t) if words.contains(&t) => Ok(Value::String(t.to_owned())),
            _ => Err(format!("expected one of {}", words.join(", "))),
        },
        Type::Model => match text {
            Some(t) if t.chars().any(|c| c.is_whitespace() || c.is_control()) => {
                Err("a model reference has no white space or control characters".into())
            }
            Some(t) => match t.split_once('/') {
                Some((p, m)) if !p.is_empty() && !m.is_empty() => Ok(Value::String(t.to_owned())),
                // A name without `/` is an alias or group of models.kdl, resolved at run time.
                None if !t.is_empty() => Ok(Value::String(t.to_owned())),
                _ => Err(
                    "expected PROVIDER/MODEL with both parts non-empty, or an alias or group name"
                        .into(),
                ),
            },
            None => Err("expected a string PROVIDER/MODEL or an alias or group name".into()),
        },
        Type::Rules => {
            let text = text.ok_or("expected a string of comma-separated rules")?;
            if text.chars().any(|c| c.is_control()) {
                return Err("control characters are not allowed".into());
            }
            let pieces = crate::rules::pieces(text);
            if !text.trim().is_empty() && pieces.iter().any(|r| r.trim().is_empty()) {
                return Err(
                    "it holds an empty rule (a comma with nothing before or after it); remove it"
                        .into(),
                );
            }
            for rule in &crate::rules::split(text) {
                crate::rules::check(rule).map_err(|why| format!("rule `{rule}` {why}"))?;
            }
            Ok(Value::String(text.to_owned()))
        }
        Type::Dollars => {
            let amount = match (raw, text) {
                (Raw::Kdl(kdl::KdlValue::Float(f)), _) => Some(*f),
                #[allow(clippy::cast_precision_loss)] // a budget is far below 2^52 dollars
                (Raw::Kdl(kdl::KdlValue::Integer(n)), _) => Some(*n as f64),
                (Raw::Kdl(kdl::KdlValue::String(_)) | Raw::Text(_), Some(t)) => {
                    let t = t.trim();
                    t.strip_prefix('$').unwrap_or(t).parse::<f64>().ok()
                }
                _ => None,
            };
            match amount {
                Some(a) if a.is_finite() && a > 0.0 && a <= 1_000_000.0 => {
                    Ok(Value::String(a.to_string()))
                }
                Some(a) => Err(format!(
                    "{} is not a budget: give an amount of dollars greater than 0 and at most 1000000",
                    match raw {
                        Raw::Text(t) => t.trim().to_owned(),
                        Raw::Kdl(_) | Raw::List(_) => a.to_string(),
                    }
                )),
                None => {
                    Err("expected an amount of US dollars, a decimal number such as 0.50".into())
                }
            }
        }
        Type::Url => {
            let rest = text.and_then(|t| {
                t.strip_prefix("http://")
                    .or_else(|| t.strip_prefix("https://"))
            });
            let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
            match (text, host) {
                (Some(t), _) if t.chars().any(|c| c.is_whitespace() || c.is_control()) => {
                    Err("a URL has no white space or control characters".into())
                }
                (Some(_), Some(host)) if host.contains('@') => Err(
                    "a URL here carries no user name or password (they would be shown and logged); \
                     give the provider its key as a credential instead"
                        .into(),
                ),
                (Some(t), Some(host)) if !host.is_empty() && !host.starts_with(':') => {
                    Ok(Value::String(t.to_owned()))
                }
                _ => Err("expected an http:// or https:// URL with a host".into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kdl(s: &str) -> kdl::KdlValue {
        kdl::KdlValue::String(s.to_owned())
    }

    #[test]
    fn words_come_as_several_arguments_or_as_json_text_and_other_types_take_one() {
        let several = Raw::List(vec![kdl("-y"), kdl("a b")]);
        let value = check(Type::Words, &several).unwrap();
        assert_eq!(words_of(&value).unwrap(), ["-y", "a b"]);
        // From `smith config set`, `-c` or a file's one string: a JSON array, else one word.
        let text = Raw::Text(r#"["-y","pkg"]"#.to_owned());
        assert_eq!(
            words_of(&check(Type::Words, &text).unwrap()).unwrap(),
            ["-y", "pkg"]
        );
        let one = Raw::Kdl(kdl("serve"));
        assert_eq!(
            words_of(&check(Type::Words, &one).unwrap()).unwrap(),
            ["serve"]
        );
        assert!(check(Type::Words, &Raw::List(vec![kdl::KdlValue::Integer(1)])).is_err());
        assert!(check(Type::Words, &Raw::List(vec![kdl("a\0b")])).is_err());
        let e = check(Type::String, &several).unwrap_err();
        assert!(e.contains("one value, not 2"), "{e}");
    }
}
