//! JSON-RPC 2.0 messages (<https://www.jsonrpc.org/specification>): classifying an input line
//! as a request or notification, the error object and its standard codes, and the response
//! and notification objects written back.

use serde::Serialize;
use serde_json::{Map, Value};

/// Invalid JSON was received (JSON-RPC 2.0 §5.1).
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// Internal error.
pub const INTERNAL_ERROR: i64 = -32603;

/// A JSON-RPC error object: `code`, `message`, optional `data`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorObject {
    /// The error code (the standard ones above, or the server's own).
    pub code: i64,
    /// What happened, why, and what to do.
    pub message: String,
    /// Structured detail (the offending field, say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error with `code` and `message` and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An invalid-params error naming `field` and what was expected of it.
    pub fn invalid_params(field: &str, expected: &str) -> Self {
        Self {
            code: INVALID_PARAMS,
            message: format!("invalid params: `{field}` must be {expected}"),
            data: Some(serde_json::json!({"field": field, "expected": expected})),
        }
    }
}

/// A request (it has an `id` and needs a response) or a notification (no `id`, no response).
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The request id (a string or number, or `null`); `None` for a notification.
    pub id: Option<Value>,
    /// The method name.
    pub method: String,
    /// The parameters: an object, or `{}` when absent. Positional (array) parameters are
    /// refused by [`parse`]: every method names its parameters.
    pub params: Map<String, Value>,
}

/// Why a line is not a call; the response goes to `id` (`null` when none could be read).
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The id to answer (`null` when the line had no readable one); `None` for a
    /// well-formed notification, which is never answered, even with an error (JSON-RPC 2.0
    /// §4.1).
    pub id: Option<Value>,
    /// The error to answer with.
    pub error: ErrorObject,
}

/// A response from the peer to a request this side sent (JSON-RPC 2.0 §5): its `id`, and its
/// `result` or its `error` object.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The id of the request it answers.
    pub id: Value,
    /// The `result`, or the `error` object (its `code`, `message` and `data`).
    pub outcome: Result<Value, ErrorObject>,
}

/// One input line read by [`parse_message`]: a call (request or notification) or a response
/// to a request this side sent.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A request or notification.
    Call(Call),
    /// A response to one of this side's requests.
    Response(Response),
}

/// Read one input line as a call, for a server that sends no requests (a response is
/// refused).
///
/// # Errors
/// [`Refused`]: a parse error for a line that is not JSON, an invalid request for a JSON value
/// that is not one request object (batches are refused: send one request per line), or a
/// response.
pub fn parse(line: &[u8]) -> Result<Call, Box<Refused>> {
    match parse_message(line)? {
        Message::Call(call) => Ok(call),
        // Never answered (JSON-RPC 2.0 §5: no response to a response).
        Message::Response(_) => Err(Box::new(Refused {
            id: None,
            error: ErrorObject::new(
                INVALID_REQUEST,
                "invalid request: this server sends no requests, so it expects no responses",
            ),
        })),
    }
}

/// Read one input line as a call or, for a side that sends requests too, a response.
///
/// # Errors
/// As [`parse`]; a response whose `error` is not an error object (an integer `code` and a
/// string `message`) is refused with `id: None`: a response is never answered.
pub fn parse_message(line: &[u8]) -> Result<Message, Box<Refused>> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        Box::new(Refused {
            id: Some(Value::Null),
            error: ErrorObject::new(
                PARSE_ERROR,
                format!(
                    "parse error: the line is not JSON ({e}); send one JSON-RPC request object per line"
                ),
            ),
        })
    })?;
    let invalid = |id: Value, why: &str| {
        Box::new(Refused {
            id: Some(id),
            error: ErrorObject::new(INVALID_REQUEST, format!("invalid request: {why}")),
        })
    };
    let mut object = match value {
        Value::Object(o) => o,
        Value::Array(_) => {
            return Err(invalid(
                Value::Null,
                "batch requests are not supported; send one request object per line",
            ));
        }
        _ => return Err(invalid(Value::Null, "a request is a JSON object")),
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Null)) => Some(id),
        // An id the server could not echo exactly (a fraction, or beyond 64 bits) is refused.
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n)),
        Some(Value::Number(_)) => {
            return Err(invalid(
                Value::Null,
                "a numeric `id` must be an integer within 64 bits; use a string id for others",
            ));
        }
        Some(_) => {
            return Err(invalid(
                Value::Null,
                "`id` must be a string, a number or null",
            ));
        }
    };
    let answer_to = id.clone().unwrap_or(Value::Null);
    // A response (no method; a result or an error) is never answered, even when malformed.
    if !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"))
    {
        return response_of(answer_to, object).map(Message::Response);
    }
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid(answer_to, "`jsonrpc` must be \"2.0\""));
    }
    let method = match object.remove("method") {
        Some(Value::String(m)) => m,
        Some(_) => return Err(invalid(answer_to, "`method` must be a string")),
        None => return Err(invalid(answer_to, "`method` is missing")),
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p,
        Some(Value::Array(_)) => {
            return Err(Box::new(Refused {
                id,
                error: ErrorObject {
                    code: INVALID_PARAMS,
                    message:
                        "invalid params: parameters are given by name (an object), not by position"
                            .to_owned(),
                    data: Some(serde_json::json!({"field": "params", "expected": "an object"})),
                },
            }));
        }
        Some(_) => return Err(invalid(answer_to, "`params` must be an object")),
    };
    Ok(Message::Call(Call { id, method, params }))
}

/// The response `object` (its `id` taken out) answering `id`. A malformed one whose id can be
/// read still answers its request, as a failure saying what was wrong.
fn response_of(id: Value, mut object: Map<String, Value>) -> Result<Response, Box<Refused>> {
    if id.is_null() {
        return Err(Box::new(Refused {
            id: None,
            error: ErrorObject::new(
                INVALID_REQUEST,
                "invalid response: a response names the `id` of the request it answers",
            ),
        }));
    }
    let malformed = |id: Value, why: &str| {
        Ok(Response {
            id,
            outcome: Err(ErrorObject::new(
                INVALID_REQUEST,
                format!("invalid response: {why}"),
            )),
        })
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return malformed(id, "`jsonrpc` must be \"2.0\"");
    }
    if let Some(result) = object.remove("result") {
        return Ok(Response {
            id,
            outcome: Ok(result),
        });
    }
    let error = object.remove("error").unwrap_or_default();
    let code = error.get("code").and_then(Value::as_i64);
    let message = error.get("message").and_then(Value::as_str);
    match (code, message) {
        (Some(code), Some(message)) => Ok(Response {
            id,
            outcome: Err(ErrorObject {
                code,
                message: message.to_owned(),
                data: error.get("data").cloned(),
            }),
        }),
        _ => malformed(
            id,
            "`error` must be an object with an integer `code` and a string `message`",
        ),
    }
}

/// A success response to `id`.
pub fn response(id: &Value, result: Value) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response to `id`.
pub fn error_response(id: &Value, error: &ErrorObject) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error})
}

/// A notification of `method` with `params`.
pub fn notification(method: &str, params: Value) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "method": method, "params": params})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_refusals() {
        let call = parse(br#"{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":1}}"#).unwrap();
        assert_eq!(call.id, Some(Value::from(7)));
        assert_eq!(call.params["a"], 1);
        let note = parse(br#"{"jsonrpc":"2.0","method":"m"}"#).unwrap();
        assert_eq!(note.id, None);
        assert_eq!(parse(b"{nope").unwrap_err().error.code, PARSE_ERROR);
        assert_eq!(parse(b"[]").unwrap_err().error.code, INVALID_REQUEST);
        let r = parse(br#"{"jsonrpc":"1.0","id":"x","method":"m"}"#).unwrap_err();
        assert_eq!(
            (r.id, r.error.code),
            (Some(Value::from("x")), INVALID_REQUEST)
        );
        let r = parse(br#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#).unwrap_err();
        assert_eq!((r.id, r.error.code), (Some(Value::from(1)), INVALID_PARAMS));
        // A notification is never answered, not even with an error.
        let r = parse(br#"{"jsonrpc":"2.0","method":"m","params":[1]}"#).unwrap_err();
        assert_eq!((r.id, r.error.code), (None, INVALID_PARAMS));
        let r = parse(br#"{"jsonrpc":"2.0","id":{},"method":"m"}"#).unwrap_err();
        assert_eq!((r.id, r.error.code), (Some(Value::Null), INVALID_REQUEST));
        for id in ["7.5", "123456789012345678901234567890"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#);
            assert_eq!(
                parse(line.as_bytes()).unwrap_err().error.code,
                INVALID_REQUEST
            );
        }
    }

    #[test]
    fn responses_to_this_sides_requests() {
        let ok = parse_message(br#"{"jsonrpc":"2.0","id":"s-1","result":{"a":1}}"#).unwrap();
        assert_eq!(
            ok,
            Message::Response(Response {
                id: Value::from("s-1"),
                outcome: Ok(serde_json::json!({"a": 1})),
            })
        );
        let failed =
            parse_message(br#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}"#)
                .unwrap();
        let Message::Response(r) = failed else {
            panic!("{failed:?}")
        };
        assert_eq!(r.outcome.unwrap_err().code, -1);
        // A malformed response with a readable id still answers its request, as a failure.
        for line in [
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":"x","message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":"nope"}"#,
            r#"{"id":2,"result":{}}"#,
        ] {
            let Ok(Message::Response(r)) = parse_message(line.as_bytes()) else {
                panic!("{line}")
            };
            assert_eq!(r.outcome.unwrap_err().code, INVALID_REQUEST, "{line}");
        }
        // Without an id it is refused, and never answered.
        let r = parse_message(br#"{"jsonrpc":"2.0","result":1}"#).unwrap_err();
        assert_eq!(r.id, None);
        // A server that sends no requests refuses every response, unanswered.
        let r = parse(br#"{"jsonrpc":"2.0","id":3,"result":1}"#).unwrap_err();
        assert_eq!((r.id, r.error.code), (None, INVALID_REQUEST));
    }
}
