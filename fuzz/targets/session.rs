//! The `session` fuzz target: see [`smith_fuzz::session`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| smith_fuzz::session(data));
