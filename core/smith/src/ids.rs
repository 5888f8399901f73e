//! Session and entry identities.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The stable identity of a session: a UUIDv7 (RFC 9562), so ids sort by creation time.
///
/// Displayed and parsed in the canonical lowercase hyphenated form
/// (`0193a1b2-…`, 36 characters); the session file is named after it (`<id>.smith`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(uuid::Uuid);

impl SessionId {
    /// A new id for a session created now (UUIDv7 from the system clock).
    pub fn new_now() -> Self {
        Self(uuid::Uuid::now_v7())
    }

    /// A new id for a session dated `ms` milliseconds since the Unix epoch (UTC): a UUIDv7
    /// with that timestamp and fresh random bits — for history carried over from another
    /// tool, which began then.
    pub fn new_at(ms: u64) -> Self {
        let ts = uuid::Timestamp::from_unix(
            uuid::NoContext,
            ms / 1000,
            u32::try_from(ms % 1000).unwrap_or(0) * 1_000_000,
        );
        Self(uuid::Uuid::new_v7(ts))
    }

    /// When the session was created: the id's UUIDv7 timestamp, milliseconds since the Unix
    /// epoch (`None` for an id that is not a UUIDv7).
    pub fn created_ms(&self) -> Option<u64> {
        let (secs, nanos) = self.0.get_timestamp()?.to_unix();
        Some(secs * 1000 + u64::from(nanos) / 1_000_000)
    }

    /// The 16 bytes of the id, big-endian as RFC 9562 lays them out.
    pub fn as_bytes(&self) -> &[u8; 16] {
        self.0.as_bytes()
    }

    /// Rebuild an id from the 16 bytes of [`SessionId::as_bytes`].
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Self(uuid::Uuid::from_bytes(bytes))
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// A text that is not a session id.
#[derive(Debug, thiserror::Error)]
#[error(
    "`{value}` is not a session id: expected a UUID such as 0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b"
)]
pub struct SessionIdError {
    /// The offending text.
    pub value: String,
}

impl FromStr for SessionId {
    type Err = SessionIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        uuid::Uuid::parse_str(s)
            .map(Self)
            .map_err(|_| SessionIdError {
                value: s.to_owned(),
            })
    }
}

/// The identity of one entry inside a session: a positive integer assigned in append order,
/// starting at 1. Stable for the life of the session; never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EntryId(pub u64);

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_id_round_trips_through_text_and_bytes() {
        let id = SessionId::new_now();
        let text = id.to_string();
        assert_eq!(text.len(), 36);
        assert_eq!(text.parse::<SessionId>().unwrap(), id);
        assert_eq!(SessionId::from_bytes(*id.as_bytes()), id);
    }

    #[test]
    fn session_ids_sort_by_creation() {
        let a = SessionId::new_now();
        let b = SessionId::new_now();
        assert!(a < b);
        assert!(a.to_string() < b.to_string());
    }

    #[test]
    fn bad_session_id_names_the_value() {
        let err = "nope".parse::<SessionId>().unwrap_err();
        assert!(err.to_string().contains("`nope`"));
    }
}
