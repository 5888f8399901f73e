//! The bundled plugins' declarations and loading on first use: what a build declares of its
//! plugins (`plugins/guests/DIR/tools.json`) is what their components define (the drift
//! check; `SMITH_BLESS=1` writes the files again), a host offers declared tools without
//! compiling anything, compiles a plugin on its first use only, and refuses a declaration its
//! component contradicts. And the compile cache's two tiers: baseline code first, optimized
//! code later, damaged entries never loaded.
#![allow(missing_docs)]

mod common;

use std::path::{Path, PathBuf};

use common::{Fixture, cache, source};
use serde_json::json;
use smith::ToolDefinition;
use smith_host::{CompileCache, Declared, Host, Limits, PluginSource};

/// The guest directory of a bundled plugin (`bundled:files/plugin.kdl` → `plugins/guests/files`).
fn guest_dir(origin: &str) -> PathBuf {
    let dir = origin
        .strip_prefix("bundled:")
        .and_then(|rest| rest.strip_suffix("/plugin.kdl"))
        .expect("a bundled origin");
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/guests")
        .join(dir)
}

fn declared(p: &'static smith_plugins::BundledPlugin) -> PluginSource<'static> {
    PluginSource {
        declared: Some(Declared {
            component: p.component,
            tools: p.tools,
        }),
        ..source(p)
    }
}

#[test]
fn every_bundled_plugin_declares_the_tools_its_component_defines() {
    let bless = std::env::var_os("SMITH_BLESS").is_some();
    let mut stale = Vec::new();
    for plugin in smith_plugins::BUNDLED {
        let host = Host::load(&[source(plugin)], &cache(), Limits::default())
            .unwrap_or_else(|e| panic!("{}: {e}", plugin.origin));
        // Every tool, those a policy would withhold too.
        let defined: Vec<ToolDefinition> =
            host.loadout().tools().into_iter().map(|(_, d)| d).collect();
        let file = guest_dir(plugin.origin).join("tools.json");
        if bless {
            if defined.is_empty() {
                let _ = std::fs::remove_file(&file);
            } else {
                let text = serde_json::to_string_pretty(&defined).unwrap() + "\n";
                std::fs::write(&file, text).unwrap();
            }
            continue;
        }
        let declared: Vec<ToolDefinition> = serde_json::from_str(plugin.tools).unwrap();
        if declared != defined {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these declarations differ from what the components define: {stale:?}; run `SMITH_BLESS=1 cargo test -p smith-host --test bundled` and commit the files"
    );
}

#[test]
fn declared_tools_are_offered_without_compiling_and_a_call_loads_only_its_plugin() {
    let sources: Vec<_> = smith_plugins::BUNDLED.iter().map(declared).collect();
    // No cache directory: anything compiled would be compiled here, and counted below.
    let host = Host::load(&sources, &CompileCache::new(None), Limits::default()).unwrap();
    let loadout = host.loadout();
    assert!(
        loadout
            .usage()
            .iter()
            .all(|u| u.tier.is_none() && u.instances == 0)
    );
    let names: Vec<String> = loadout.tools().into_iter().map(|(_, d)| d.name).collect();
    for tool in ["read", "write", "edit", "bash", "docs"] {
        assert!(names.iter().any(|n| n == tool), "{tool} in {names:?}");
    }
    let f = Fixture::new();
    std::fs::write(f.root().join("a.txt"), "hello\n").unwrap();
    let out = f.call(&loadout, "read", json!({"path": "a.txt"}));
    assert!(
        !out.is_error && out.output.contains("hello"),
        "{}",
        out.output
    );
    let usage = loadout.usage();
    let loaded: Vec<(&str, u64)> = usage
        .iter()
        .filter(|u| u.tier.is_some())
        .map(|u| (u.id.as_str(), u.instances))
        .collect();
    // The permission policy decides before the call only: its manifest takes no after-tool
    // event, and leaves out effects that only read (the read's `fs.read`).
    assert_eq!(loaded, vec![("files", 1), ("permissions", 1)], "{usage:?}");
    // Arguments are still checked against the declared schema before anything runs.
    let out = f.call(&loadout, "read", json!({"path": 7}));
    assert!(
        out.is_error && out.output.contains("input schema"),
        "{}",
        out.output
    );
}

#[test]
fn a_declaration_its_component_contradicts_is_refused_at_first_use() {
    let files = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("files/"))
        .unwrap();
    let forged = files.tools.replacen("Read", "Reads and deletes", 1);
    assert_ne!(forged, files.tools);
    let forged: &'static str = Box::leak(forged.into_boxed_str());
    let mut wrong = declared(files);
    wrong.declared = Some(Declared {
        component: files.component,
        tools: forged,
    });
    let host = Host::load(&[wrong], &cache(), Limits::default()).unwrap();
    let f = Fixture::new();
    let out = f.call(&host.loadout(), "ls", json!({}));
    assert!(
        out.is_error
            && out.output.contains("cannot be loaded")
            && out.output.contains("other than those its build declared")
            && out.output.contains("nothing was run"),
        "{}",
        out.output
    );
    // A declaration whose tools are not the manifest's is refused when the host loads.
    let mut missing = declared(files);
    missing.declared = Some(Declared {
        component: files.component,
        tools: "[]",
    });
    let err = Host::load(&[missing], &cache(), Limits::default()).unwrap_err();
    assert!(err.to_string().contains("must match"), "{err}");
    // And one that is not JSON.
    let mut junk = declared(files);
    junk.declared = Some(Declared {
        component: files.component,
        tools: "{not json",
    });
    let err = Host::load(&[junk], &cache(), Limits::default()).unwrap_err();
    assert!(err.to_string().contains("not a JSON list"), "{err}");
}

/// The tiers of the loaded plugins' code.
fn tiers(host: &Host) -> Vec<smith_host::Tier> {
    host.loadout()
        .usage()
        .iter()
        .filter_map(|u| u.tier)
        .collect()
}

/// The cache entries of `dir`, by file name.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".cwasm") && !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_baseline_first_cache_runs_winch_code_then_finds_optimized_code_and_never_loads_damage() {
    let queue = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("queue"))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cache = CompileCache::new(Some(dir.path().to_owned())).baseline_first();
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Baseline]);
    // The optimized code is compiled in the background: a second entry appears, and then
    // its digest (written after it — an entry without one is never loaded).
    smith_testkit::wait_until("the optimized entry and its digest", || {
        let names = entries(dir.path());
        names.len() == 2
            && names
                .iter()
                .all(|n| dir.path().join(n.replace(".cwasm", ".sum")).exists())
    });
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Optimized]);
    // Entries whose digests are gone (a process ended between writing an artifact and its
    // digest): none is loaded; the plugin is compiled again (baseline first).
    for name in entries(dir.path()) {
        let sum = dir.path().join(name.replace(".cwasm", ".sum"));
        std::fs::remove_file(sum).unwrap();
    }
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Baseline]);
    assert!(
        entries(dir.path())
            .iter()
            .any(|n| dir.path().join(n.replace(".cwasm", ".sum")).is_file()),
        "the baseline entry was written again with its digest"
    );
    // Every entry damaged (truncated, or a flipped byte): none is loaded; the plugin is
    // compiled again (baseline first) and works.
    for (n, name) in entries(dir.path()).iter().enumerate() {
        let path = dir.path().join(name);
        let mut bytes = std::fs::read(&path).unwrap();
        if n % 2 == 0 {
            bytes.truncate(bytes.len() / 2);
        } else {
            let at = bytes.len() - 100;
            bytes[at] ^= 0xff;
        }
        std::fs::write(&path, bytes).unwrap();
    }
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Baseline]);
    // An entry filed under another component's key (the history handler's, whole and
    // verified for its own key) is not loaded either: the queue policy still loads and runs.
    let history = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.origin.contains("history"))
        .unwrap();
    let other = tempfile::tempdir().unwrap();
    let other_cache = CompileCache::new(Some(other.path().to_owned())).baseline_first();
    drop(Host::load(&[source(history)], &other_cache, Limits::default()).unwrap());
    // Over both of the queue's entries (which of the two names is the baseline's depends on
    // the components' digests), so the one the load reads is foreign.
    let foreign = std::fs::read(other.path().join(&entries(other.path())[0])).unwrap();
    let targets: Vec<_> = entries(dir.path())
        .iter()
        .map(|name| dir.path().join(name))
        .collect();
    for target in &targets {
        std::fs::write(target, &foreign).unwrap();
    }
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Baseline]);
    assert!(
        targets.iter().any(|t| std::fs::read(t).unwrap() != foreign),
        "the foreign entry was compiled over"
    );
    // An entry that is not a regular file (a FIFO would block a read) is passed over.
    for name in entries(dir.path()) {
        std::fs::remove_file(dir.path().join(&name)).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join(&name))
            .status()
            .unwrap();
        assert!(made.success());
    }
    let host = Host::load(&[source(queue)], &cache, Limits::default()).unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Baseline]);
    // A cache of the optimized tier only (the host's default) compiles with Cranelift.
    let plain = tempfile::tempdir().unwrap();
    let host = Host::load(
        &[source(queue)],
        &CompileCache::new(Some(plain.path().to_owned())),
        Limits::default(),
    )
    .unwrap();
    assert_eq!(tiers(&host), vec![smith_host::Tier::Optimized]);
    assert_eq!(entries(plain.path()).len(), 1);
}
