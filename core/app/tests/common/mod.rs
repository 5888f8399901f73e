//! What the composition root's integration tests share: the compile cache every test process
//! uses (compiling a component takes seconds in a debug build) and plugin sources from the
//! bundled plugins.
#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use smith_host::{CompileCache, PluginSource};

pub fn source(p: &'static smith_plugins::BundledPlugin) -> PluginSource<'static> {
    PluginSource::new(p.origin, p.manifest, p.component)
}

/// The compile cache shared by every test process.
pub fn cache() -> CompileCache {
    CompileCache::new(Some(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("smith-compile-cache"),
    ))
}
