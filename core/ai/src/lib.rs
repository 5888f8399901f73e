//! Smith's model layer.
//!
//! It owns the model [`catalog`] (the bundled offline snapshot, plugin contributions and the
//! user's `models.kdl`), [`routing`] (aliases and groups), the [`http`] engine every provider's transport goes through, provider resolution
//! ([`resolve`]) and the [`scripted`] provider, which
//! replays a script of provider rounds behind the same [`smith::Provider`] boundary every
//! provider uses, so Smith runs offline with no key. The agent loop has no special path for it.
//!
//! This crate never prints and holds no vendor wire format.

pub mod catalog;
pub mod credentials;
pub mod http;
#[cfg(feature = "loopback")]
pub mod loopback;
mod resolve;
pub mod routing;
pub mod scripted;

pub use resolve::{PROVIDERS, ResolveError, resolve};
