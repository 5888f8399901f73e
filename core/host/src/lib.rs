//! Smith's wasm component plugin host (grown by the plugin-host issue).
//!
//! Will own the wasmtime component host: WIT bindings of `smith:plugin`, grants that deny by
//! default through exhaustive matches, one `Store` per plugin instance with memory limits and
//! epoch deadlines, the compile cache, and the durable effect boundary. Its one documented
//! `unsafe` exception — deserializing a precompiled component whose integrity was verified — will
//! live here, which is why this crate denies rather than forbids `unsafe_code`. Nothing is
//! implemented yet; no crate depends on it.
