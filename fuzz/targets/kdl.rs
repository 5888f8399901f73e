//! The `kdl` fuzz target: see [`smith_fuzz::kdl`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| smith_fuzz::kdl(data));
