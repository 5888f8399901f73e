//! What the host's integration tests share: the compile cache, the bundled and hostile
//! plugins, and a fixture with a real working directory and a real session file.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod codecs;
pub mod policy;

use smith::{Cancel, SessionId, ToolCall, ToolContext, ToolOutput, ToolRegistry};
use smith_host::{CompileCache, Host, Limits, PluginSource};
use smith_store::{EffectOutcome, Record, SessionWriter, SharedWriter, read_session};

pub fn source(p: &'static smith_plugins::BundledPlugin) -> PluginSource<'static> {
    PluginSource::new(p.origin, p.manifest, p.component)
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

/// One completed effect as the session file holds it ([`Fixture::completed`]).
#[derive(Debug)]
pub struct Completed {
    pub effect: String,
    pub input: serde_json::Value,
    pub outcome: EffectOutcome,
    pub evidence: serde_json::Value,
    pub output: String,
}

pub struct Fixture {
    pub work: tempfile::TempDir,
    _sessions: tempfile::TempDir,
    pub session: PathBuf,
    pub writer: SharedWriter,
    /// What the fixture's session keeps running for its plugins between calls (dropped with
    /// the fixture, as an open session's is).
    pub resident: Arc<smith::Resident>,
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
            resident: Arc::default(),
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
            resident: Some(Arc::clone(&self.resident)),
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

    /// Every completed effect recorded so far, in order, with its intent's input and its
    /// completion's outcome, evidence and output (as text).
    pub fn completed(&self) -> Vec<Completed> {
        let entries = read_session(&self.session).unwrap().entries;
        entries
            .iter()
            .filter_map(|e| match &e.record {
                Record::EffectCompletion(c) => {
                    let intent = entries.iter().find(|i| Some(i.id) == e.pair)?;
                    let Record::EffectIntent(i) = &intent.record else {
                        return None;
                    };
                    Some(Completed {
                        effect: i.effect.clone(),
                        input: i.input.clone(),
                        outcome: c.outcome,
                        evidence: c.evidence.clone(),
                        output: String::from_utf8_lossy(&c.output).into_owned(),
                    })
                }
                _ => None,
            })
            .collect()
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

/// Live (non-zombie) processes whose command line contains `marker`.
pub fn survivors(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let state = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| {
                s.get(s.rfind(')')? + 2..)
                    .map(|r| r.chars().next().unwrap_or('?'))
            });
        if cmdline.contains(marker) && state.is_some_and(|s| s != 'Z' && s != 'X') {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// `survivors` after giving the kernel time to finish delivering SIGKILL (polled, with the
/// tests' one generous deadline: a loaded machine delays, it does not fail).
pub fn survivors_after_settling(marker: &str) -> Vec<String> {
    let until = Instant::now() + smith_testkit::DEADLINE;
    loop {
        let left = survivors(marker);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
