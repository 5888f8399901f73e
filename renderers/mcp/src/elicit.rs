//! Smith's questions as MCP form elicitations (MCP 2025-11-25 and 2025-06-18,
//! client/elicitation: `elicitation/create` with a flat `requestedSchema` of primitive
//! properties; the result's `action` is `accept` with `content`, `decline` or `cancel`).
//!
//! A yes/no question is one boolean property `confirm`, a choice one string property `choice`
//! whose `enum` lists the options (the untitled single-select of SEP-1330, which 2025-06-18
//! clients read too), a line of text one
//! string property `text`. A secret is never asked this way: form mode "MUST NOT" request
//! sensitive information.

use serde_json::{Value, json};
use smith::{Answer, Question};

/// The `elicitation/create` params that put `question` to the user, or why it cannot be
/// put (a secret). `mode` is left out: it is `form` by default in 2025-11-25 and unknown to
/// 2025-06-18.
///
/// # Errors
/// A sentence naming why form elicitation cannot carry the question.
pub fn request(question: &Question) -> Result<Value, String> {
    let property = match question {
        Question::Confirm { prompt, default } => {
            let mut p = json!({"type": "boolean", "title": "Confirm", "description": prompt});
            if let Some(d) = default {
                p["default"] = json!(d);
            }
            ("confirm", p)
        }
        Question::Select { prompt, options } => {
            let labels = labels(options);
            (
                "choice",
                json!({"type": "string", "title": "Choice", "description": prompt, "enum": labels}),
            )
        }
        Question::Input { secret: true, .. } => {
            return Err(
                "a secret cannot be asked through MCP: form elicitation must not request sensitive information"
                    .to_owned(),
            );
        }
        Question::Input { prompt, .. } => (
            "text",
            json!({"type": "string", "title": "Answer", "description": prompt}),
        ),
    };
    let (name, schema) = property;
    Ok(json!({
        "message": question.prompt(),
        "requestedSchema": {"type": "object", "properties": {name: schema}, "required": [name]},
    }))
}

/// The `enum` values of a choice: the options themselves when they are distinct, else each
/// prefixed with its number (`1. a`) so every value names one option.
fn labels(options: &[String]) -> Vec<String> {
    let distinct = options
        .iter()
        .enumerate()
        .all(|(i, o)| !options[..i].contains(o));
    if distinct {
        options.to_vec()
    } else {
        options
            .iter()
            .enumerate()
            .map(|(i, o)| format!("{}. {o}", i + 1))
            .collect()
    }
}

/// How the user answered an elicitation.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// An answer to the question.
    Answer(Answer),
    /// No answer; the sentence says why (declined, dismissed), for the record.
    Refused(String),
}

/// The reply in `result` (an `elicitation/create` result) to `question`.
///
/// # Errors
/// A sentence saying how the result does not answer the question (a missing or mistyped
/// property, an unknown action, a choice that is not one of the options).
pub fn reply(question: &Question, result: &Value) -> Result<Reply, String> {
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {}
        // A declined yes/no question is a no; a declined choice or text has no answer.
        Some("decline") => {
            return Ok(match question {
                Question::Confirm { .. } => Reply::Answer(Answer::Confirm(false)),
                _ => Reply::Refused("the user declined to answer in the MCP client".to_owned()),
            });
        }
        Some("cancel") => {
            return Ok(Reply::Refused(
                "the user dismissed the question in the MCP client".to_owned(),
            ));
        }
        Some(other) => {
            return Err(format!(
                "`action` must be accept, decline or cancel, not {other:?}"
            ));
        }
        None => {
            return Err(match result.get("action") {
                None => "`action` is missing: it must be accept, decline or cancel".to_owned(),
                Some(v) => {
                    format!("`action` must be the string accept, decline or cancel, not {v}")
                }
            });
        }
    }
    let content = result.get("content");
    let field = |name: &str| content.and_then(|c| c.get(name));
    let answer = match question {
        Question::Confirm { .. } => field("confirm")
            .and_then(Value::as_bool)
            .map(Answer::Confirm)
            .ok_or("`content.confirm` must be true or false")?,
        Question::Select { options, .. } => {
            let chosen = field("choice")
                .and_then(Value::as_str)
                .ok_or("`content.choice` must be a string: one of the options")?;
            let at = labels(options)
                .iter()
                .position(|l| l == chosen)
                .ok_or_else(|| format!("`content.choice` {chosen:?} is not one of the options"))?;
            Answer::Select(u32::try_from(at).map_err(|_| "too many options")?)
        }
        Question::Input { .. } => field("text")
            .and_then(Value::as_str)
            .map(|t| Answer::Text(t.to_owned()))
            .ok_or("`content.text` must be a string")?,
    };
    Ok(Reply::Answer(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_become_forms_and_replies_answers() {
        let confirm = Question::Confirm {
            prompt: "run `ls`?".into(),
            default: Some(false),
        };
        let r = request(&confirm).unwrap();
        assert_eq!(
            r["requestedSchema"]["properties"]["confirm"]["type"],
            "boolean"
        );
        assert_eq!(r["requestedSchema"]["required"], json!(["confirm"]));
        let yes = json!({"action": "accept", "content": {"confirm": true}});
        assert_eq!(
            reply(&confirm, &yes),
            Ok(Reply::Answer(Answer::Confirm(true)))
        );
        let no = json!({"action": "decline"});
        assert_eq!(
            reply(&confirm, &no),
            Ok(Reply::Answer(Answer::Confirm(false)))
        );
        assert!(
            reply(
                &confirm,
                &json!({"action": "accept", "content": {"confirm": "y"}})
            )
            .is_err()
        );
        assert!(reply(&confirm, &json!({"action": "maybe"})).is_err());

        let select = Question::Select {
            prompt: "which?".into(),
            options: vec!["a".into(), "a".into(), "b".into()],
        };
        let r = request(&select).unwrap();
        let labels = &r["requestedSchema"]["properties"]["choice"]["enum"];
        assert_eq!(labels, &json!(["1. a", "2. a", "3. b"]));
        let pick = json!({"action": "accept", "content": {"choice": "2. a"}});
        assert_eq!(reply(&select, &pick), Ok(Reply::Answer(Answer::Select(1))));
        assert!(
            reply(
                &select,
                &json!({"action": "accept", "content": {"choice": "c"}})
            )
            .is_err()
        );
        assert!(matches!(
            reply(&select, &json!({"action": "cancel"})),
            Ok(Reply::Refused(_))
        ));

        let secret = Question::Input {
            prompt: "token?".into(),
            secret: true,
        };
        assert!(request(&secret).is_err());
        let text = Question::Input {
            prompt: "name?".into(),
            secret: false,
        };
        let said = json!({"action": "accept", "content": {"text": "Ada"}});
        assert_eq!(
            reply(&text, &said),
            Ok(Reply::Answer(Answer::Text("Ada".into())))
        );
    }
}
