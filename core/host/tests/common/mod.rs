//! What the host's integration tests share: the compile cache, the bundled and hostile
//! plugins, and a fixture with a real working directory and a real session file.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub mod codecs;
pub mod policy;

use smith::{Cancel, SessionId, ToolCall, ToolContext, ToolOutput, ToolRegistry};
use smith_host::{CompileCache, Host, Limits, PluginSource};
use smith_store::{EffectOutcome, Record, SessionWriter, SharedWriter, read_session};

pub fn source(p: &'static smith_plugins::BundledPlugin) -> PluginSource<'static> {
    PluginSource {
        origin: p.origin,
        manifest: p.manifest,
        component: p.component,
        parsed: None,
        declared: None,
    }
}

/// The compile cache shared by every test process (compiling takes seconds in debug builds).
pub fn cache() -> CompileCache {
    CompileCache::new(Some(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("smith-compile-cache"),
    ))
}

pub fn host_with(limits: Limits) -> Host {
    let sources: Vec<PluginSource<'static>> = smith_plugins::BUNDLED
        .iter()
        .chain([&smith_plugins::HOSTILE])
        .map(source)
        .collect();
    Host::load(&sources, &cache(), limits).unwrap()
}

pub fn host() -> Host {
    host_with(Limits {
        deadline: Duration::from_millis(1500),
        ..Limits::default()
    })
}

pub struct Fixture {
    pub work: tempfile::TempDir,
    _sessions: tempfile::TempDir,
    pub session: PathBuf,
    pub writer: SharedWriter,
}

impl Fixture {
    pub fn new() -> Self {
        let work = tempfile::tempdir().unwrap();
        let sessions = tempfile::tempdir().unwrap();
        let w = SessionWriter::create(sessions.path(), SessionId::new_now()).unwrap();
        let session = w.path().to_owned();
        Self {
            work,
            _sessions: sessions,
            session,
            writer: SharedWriter::new(w),
        }
    }

    pub fn root(&self) -> &Path {
        self.work.path()
    }

    pub fn context(&self) -> ToolContext {
        ToolContext {
            cwd: Some(self.root().to_owned()),
            journal: Arc::new(self.writer.clone()),
            cause: None,
            events: None,
            state: Some(Arc::new(self.writer.clone())),
        }
    }

    pub fn call(&self, host: &dyn ToolRegistry, name: &str, args: serde_json::Value) -> ToolOutput {
        self.call_with(host, name, args, &Cancel::new())
    }

    pub fn call_with(
        &self,
        host: &dyn ToolRegistry,
        name: &str,
        args: serde_json::Value,
        cancel: &Cancel,
    ) -> ToolOutput {
        let call = ToolCall {
            id: format!("call_{name}"),
            name: name.to_owned(),
            arguments: args,
        };
        host.call(&call, &self.context(), cancel)
    }

    /// (effect, outcome) of every completed effect recorded so far, in order.
    pub fn effects(&self) -> Vec<(String, EffectOutcome)> {
        let entries = read_session(&self.session).unwrap().entries;
        let mut out = Vec::new();
        for e in &entries {
            if let Record::EffectCompletion(c) = &e.record {
                let intent = entries.iter().find(|i| Some(i.id) == e.pair).unwrap();
                let Record::EffectIntent(i) = &intent.record else {
                    panic!("a completion pairs with its intent")
                };
                assert_eq!(i.effect_id, c.effect_id);
                out.push((i.effect.clone(), c.outcome));
            }
        }
        out
    }
}
