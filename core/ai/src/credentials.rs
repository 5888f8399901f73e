//! Renewable credentials: an access token with its expiry and a refresh token, renewed before
//! use through the OAuth 2.0 refresh-token grant (RFC 6749 §6) sent by the host HTTP engine
//! (spec: Providers, models, and authentication → Authentication — "expired renewable
//! credentials refresh before use").
//!
//! The exchange is the standard one, so it lives here rather than in a vendor plugin: a form
//! POST of `grant_type=refresh_token`, `refresh_token` and (when set) `client_id` to the token
//! endpoint, answered by JSON with `access_token`, optionally a new `refresh_token`, and
//! `expires_in` seconds (RFC 6749 §5.1). Which endpoint and client id a provider uses is its
//! plugin's or the user's configuration. Errors never contain token values.

use smith::Cancel;

use crate::http::{HttpRequest, Outcome, Transport};

/// How long before its expiry an access token is renewed, in seconds: a request that starts
/// with it must not carry a token that expires in flight.
pub const RENEW_MARGIN_SECS: i64 = 60;

/// The longest token accepted from a token endpoint, in bytes (real tokens are a few KiB).
pub const MAX_TOKEN_BYTES: usize = 16 * 1024;

/// A renewable credential as stored: the access token, when it expires (Unix seconds) and
/// the refresh token. `Debug` never shows the tokens.
#[derive(Clone, PartialEq, Eq)]
pub struct Renewable {
    /// The bearer token sent with requests.
    pub access: String,
    /// When `access` expires, in seconds since the Unix epoch (UTC).
    pub expires_at: i64,
    /// The token that obtains a new access token.
    pub refresh: String,
}

impl std::fmt::Debug for Renewable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renewable")
            .field("access", &"<redacted>")
            .field("expires_at", &self.expires_at)
            .field("refresh", &"<redacted>")
            .finish()
    }
}

impl Renewable {
    /// Whether the access token must be renewed before a request that starts at `now` (Unix
    /// seconds): it has expired or expires within [`RENEW_MARGIN_SECS`].
    pub fn needs_renewal(&self, now: i64) -> bool {
        self.expires_at <= now.saturating_add(RENEW_MARGIN_SECS)
    }
}

/// Where a provider's tokens are renewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenEndpoint {
    /// The token endpoint URL (`https://…`, or `http://` for a loopback test server).
    pub url: String,
    /// The OAuth client id sent with the grant, when the provider needs one.
    pub client_id: Option<String>,
}

/// Why a renewal failed. Messages name the endpoint and the reason, never a token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenewError {
    /// The token endpoint could not be reached.
    #[error("the token endpoint {url} could not be reached: {why}")]
    Unreachable {
        /// The endpoint.
        url: String,
        /// The transport failure.
        why: String,
    },
    /// The endpoint refused the refresh token (expired, revoked) or the request.
    #[error("the token endpoint {url} refused the renewal (HTTP {status}{detail})")]
    Refused {
        /// The endpoint.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The OAuth `error` code, when the body had one (`, invalid_grant`).
        detail: String,
    },
    /// The answer was not an RFC 6749 token response.
    #[error("the token endpoint {url} answered without a usable access token: {why}")]
    Malformed {
        /// The endpoint.
        url: String,
        /// What is missing.
        why: String,
    },
}

/// Renew `credential` at `endpoint` through `transport` at time `now` (Unix seconds): the new
/// access token, the new refresh token (or the old one when none is issued) and the new
/// expiry (`now` + `expires_in`; one hour when the answer omits it, RFC 6749 leaving that to
/// the server's documentation).
///
/// # Errors
/// A [`RenewError`]: unreachable endpoint, refusal (any non-2xx), or an answer without an
/// access token.
pub fn renew(
    transport: &dyn Transport,
    endpoint: &TokenEndpoint,
    credential: &Renewable,
    now: i64,
    cancel: &Cancel,
) -> Result<Renewable, RenewError> {
    let mut form = form_urlencoded(&[
        ("grant_type", "refresh_token"),
        ("refresh_token", &credential.refresh),
    ]);
    if let Some(id) = &endpoint.client_id {
        form.push('&');
        form.push_str(&form_urlencoded(&[("client_id", id)]));
    }
    let request = HttpRequest {
        method: "POST".to_owned(),
        url: endpoint.url.clone(),
        headers: vec![
            (
                "content-type".to_owned(),
                "application/x-www-form-urlencoded".to_owned(),
            ),
            ("accept".to_owned(), "application/json".to_owned()),
        ],
        body: form.into_bytes(),
    };
    let response = transport
        .send(request, cancel)
        .map_err(|e| RenewError::Unreachable {
            url: endpoint.url.clone(),
            why: e.to_string(),
        })?;
    let status = response.status;
    let (body, outcome) = response.body.read_all();
    let json: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
    if !(200..300).contains(&status) {
        let detail = json
            .as_ref()
            .and_then(|v| v.get("error"))
            .and_then(serde_json::Value::as_str)
            .filter(|e| e.len() <= 64 && e.chars().all(|c| c.is_ascii_graphic()))
            .map(|e| format!(", {e}"))
            .unwrap_or_default();
        return Err(RenewError::Refused {
            url: endpoint.url.clone(),
            status,
            detail,
        });
    }
    let malformed = |why: &str| RenewError::Malformed {
        url: endpoint.url.clone(),
        why: why.to_owned(),
    };
    if outcome != Outcome::Complete {
        return Err(malformed("the answer was cut off"));
    }
    let json = json.ok_or_else(|| malformed("the body is not JSON"))?;
    let usable = |name: &str, t: &str| -> Result<(), RenewError> {
        if t.is_empty() {
            Err(malformed(&format!("its {name} is empty")))
        } else if t.len() > MAX_TOKEN_BYTES {
            Err(malformed(&format!(
                "its {name} is {} bytes, over the {MAX_TOKEN_BYTES}-byte bound",
                t.len()
            )))
        } else if t.chars().any(|c| c.is_control() || c == ' ') {
            Err(malformed(&format!(
                "its {name} holds spaces or control characters, which no request header can carry"
            )))
        } else {
            Ok(())
        }
    };
    let access = json
        .get("access_token")
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| malformed("no access_token"))?;
    usable("access_token", access)?;
    let refresh = match json
        .get("refresh_token")
        .and_then(serde_json::Value::as_str)
    {
        Some(t) => {
            usable("refresh_token", t)?;
            t
        }
        None => &credential.refresh,
    };
    let expires_in = json
        .get("expires_in")
        .and_then(serde_json::Value::as_i64)
        .filter(|s| *s > 0)
        .unwrap_or(3600);
    Ok(Renewable {
        access: access.to_owned(),
        expires_at: now.saturating_add(expires_in),
        refresh: refresh.to_owned(),
    })
}

/// `application/x-www-form-urlencoded` pairs (WHATWG URL, "urlencoded serializing").
fn form_urlencoded(pairs: &[(&str, &str)]) -> String {
    fn encode(s: &str, out: &mut String) {
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                    out.push(char::from(b));
                }
                b' ' => out.push('+'),
                _ => out.push_str(&format!("%{b:02X}")),
            }
        }
    }
    let mut out = String::new();
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode(k, &mut out);
        out.push('=');
        encode(v, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::HttpEngine;
    use crate::loopback;

    fn stored() -> Renewable {
        Renewable {
            access: "at-old".into(),
            expires_at: 1_000,
            refresh: "rt-secret+/=".into(),
        }
    }

    #[test]
    fn an_expiring_token_needs_renewal_a_fresh_one_does_not() {
        assert!(stored().needs_renewal(1_000));
        assert!(stored().needs_renewal(1_000 - RENEW_MARGIN_SECS));
        assert!(!stored().needs_renewal(1_000 - RENEW_MARGIN_SECS - 1));
        assert!(!format!("{:?}", stored()).contains("rt-secret"));
    }

    #[test]
    fn renewal_posts_the_grant_and_reads_the_token_response() {
        let server = loopback::serve(vec![loopback::json_response(
            "200 OK",
            r#"{"access_token":"at-new","token_type":"Bearer","expires_in":600,"refresh_token":"rt-new"}"#,
        )]);
        let endpoint = TokenEndpoint {
            url: format!("{}/token", server.url),
            client_id: Some("smith cli".into()),
        };
        let got = renew(
            &HttpEngine::default(),
            &endpoint,
            &stored(),
            5_000,
            &Cancel::new(),
        )
        .unwrap();
        assert_eq!(got.access, "at-new");
        assert_eq!(got.refresh, "rt-new");
        assert_eq!(got.expires_at, 5_600);
        let raw = String::from_utf8(server.request().unwrap()).unwrap();
        assert!(raw.starts_with("POST /token"), "{raw}");
        assert!(raw.contains("application/x-www-form-urlencoded"), "{raw}");
        assert!(
            raw.ends_with(
                "grant_type=refresh_token&refresh_token=rt-secret%2B%2F%3D&client_id=smith+cli"
            ),
            "{raw}"
        );
    }

    #[test]
    fn refusals_and_bad_answers_are_typed_and_never_show_tokens() {
        let server = loopback::serve(vec![
            loopback::json_response("400 Bad Request", r#"{"error":"invalid_grant"}"#),
            loopback::json_response("200 OK", r#"{"token_type":"Bearer"}"#),
        ]);
        let endpoint = TokenEndpoint {
            url: server.url.clone(),
            client_id: None,
        };
        let engine = HttpEngine::default();
        let err = renew(&engine, &endpoint, &stored(), 0, &Cancel::new()).unwrap_err();
        assert!(matches!(err, RenewError::Refused { status: 400, .. }));
        assert!(err.to_string().contains("invalid_grant"));
        let err = renew(&engine, &endpoint, &stored(), 0, &Cancel::new()).unwrap_err();
        assert!(err.to_string().contains("no access_token"), "{err}");
        assert!(!err.to_string().contains("rt-secret"));
        // A kept refresh token when the server issues none.
        let server = loopback::serve(vec![loopback::json_response(
            "200 OK",
            r#"{"access_token":"at-2"}"#,
        )]);
        let endpoint = TokenEndpoint {
            url: server.url.clone(),
            client_id: None,
        };
        let got = renew(&engine, &endpoint, &stored(), 10, &Cancel::new()).unwrap();
        assert_eq!(
            (got.refresh.as_str(), got.expires_at),
            ("rt-secret+/=", 3_610)
        );
        // Oversized or header-breaking tokens are refused, naming the endpoint.
        let huge = format!(
            r#"{{"access_token":"{}"}}"#,
            "A".repeat(MAX_TOKEN_BYTES + 1)
        );
        let server = loopback::serve(vec![
            loopback::json_response("200 OK", &huge),
            loopback::json_response("200 OK", r#"{"access_token":"a\nb"}"#),
        ]);
        let endpoint = TokenEndpoint {
            url: server.url.clone(),
            client_id: None,
        };
        let err = renew(&engine, &endpoint, &stored(), 0, &Cancel::new()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("byte bound") && text.contains(&server.url),
            "{text}"
        );
        let err = renew(&engine, &endpoint, &stored(), 0, &Cancel::new()).unwrap_err();
        assert!(err.to_string().contains("control characters"), "{err}");
        let err = renew(
            &engine,
            &TokenEndpoint {
                url: "http://127.0.0.1:9/none".into(),
                client_id: None,
            },
            &stored(),
            0,
            &Cancel::new(),
        )
        .unwrap_err();
        assert!(matches!(err, RenewError::Unreachable { .. }), "{err}");
    }
}
