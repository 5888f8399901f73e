//! The `sse` fuzz target: see [`smith_fuzz::sse`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| smith_fuzz::sse(data));
