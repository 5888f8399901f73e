//! `cargo xtask check` (the gate CI runs), `cargo xtask docs` and `cargo xtask site`.

use std::path::PathBuf;

use crate::{cargo, root, run};

/// fmt, clippy, tests (the reference drift test and the corpus/site link checks among them),
/// API docs, then the static site with its link check.
pub(crate) fn run_all() -> Result<(), String> {
    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    run(fmt)?;
    guests()?;

    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    run(clippy)?;

    let mut test = cargo();
    test.args(["test", "--workspace", "--locked"]);
    // The OpenRPC project's validator, when installed (`.ci/run` installs it; locally
    // `npm ci --prefix xtask/openrpc`): the `smith rpc` document test uses it.
    let validator = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openrpc");
    if validator.join("node_modules").is_dir()
        && std::env::var_os("SMITH_OPENRPC_VALIDATOR").is_none()
    {
        test.env("SMITH_OPENRPC_VALIDATOR", &validator);
    }
    // The MCP Python SDK, when installed (`.ci/run` installs it; locally `python3 -m venv
    // xtask/mcp/.venv && xtask/mcp/.venv/bin/pip install -r xtask/mcp/requirements.txt`):
    // the `smith mcp` client tests use it.
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/.venv/bin/python");
    if python.is_file() && std::env::var_os("SMITH_MCP_PYTHON").is_none() {
        test.env("SMITH_MCP_PYTHON", &python);
    }
    // The MCP TypeScript SDK and the Inspector, when installed (`npm ci --prefix
    // xtask/mcp/node`).
    let node = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/node");
    if node.join("node_modules").is_dir() && std::env::var_os("SMITH_MCP_NODE").is_none() {
        test.env("SMITH_MCP_NODE", &node);
    }
    // The ACP TypeScript SDK, when installed (`npm ci --prefix xtask/acp`).
    let acp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("acp");
    if acp.join("node_modules").is_dir() && std::env::var_os("SMITH_ACP_NODE").is_none() {
        test.env("SMITH_ACP_NODE", &acp);
    }
    run(test)?;

    let mut doc = cargo();
    doc.args(["doc", "--workspace", "--no-deps", "--locked"])
        .env("RUSTDOCFLAGS", "-D warnings");
    run(doc)?;

    example()?;
    packaging()?;

    // The coverage-guided targets, briefly: what they find is a failure like any test's.
    crate::fuzz::run_targets(crate::fuzz::Profile::Brief, 20)?;

    site(true)?;
    eprintln!("xtask: check passed");
    Ok(())
}

/// The guest side, which the main workspace does not build: formatting of the SDK and the
/// guest workspace, and clippy on the guests for `wasm32-wasip2` (in `<target>/guests`, the
/// directory `plugins/bundle`'s build script uses). The guests themselves are rebuilt from
/// source by that build script whenever they change, so the binary never embeds stale ones.
fn guests() -> Result<(), String> {
    let plugins = root().join("plugins");
    let mut fmt = cargo();
    // `--all` also covers the SDK, a path dependency of the guests.
    fmt.args(["fmt", "--all", "--check", "--manifest-path"])
        .arg(plugins.join("guests/Cargo.toml"));
    run(fmt)?;
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let mut clippy = cargo();
    clippy
        .args([
            "clippy",
            "--locked",
            "--target",
            "wasm32-wasip2",
            "--manifest-path",
        ])
        .arg(plugins.join("guests/Cargo.toml"))
        .arg("--target-dir")
        .arg(target.join("guests"))
        .args(["--", "-D", "warnings"]);
    run(clippy)?;
    // The SDK's own tests (the SSE parser, the decoder shell) and the web plugin's (its HTML to
    // Markdown conversion) run natively, resolved by the guest workspace's lock file.
    let mut test = cargo();
    test.args([
        "test",
        "--locked",
        "-p",
        "smith-plugin-sdk",
        "-p",
        "smith-web",
        "--manifest-path",
    ])
    .arg(plugins.join("guests/Cargo.toml"))
    .arg("--target-dir")
    .arg(target.join("sdk-native"));
    run(test)
}

/// The example plugin project (`examples/hello-plugin`), as a stranger would use it: copied
/// outside the checkout (its SDK path made absolute), formatted and linted, built for
/// `wasm32-wasip2` (sharing `<target>/guests`, so the SDK's dependencies are not built twice),
/// installed into a fresh Smith home with the built `smith`, and its tool run by `smith eval`
/// on its scripted model. Its copy of the WIT must be Smith's.
pub(crate) fn example() -> Result<(), String> {
    let root = root();
    let project = root.join("examples/hello-plugin");
    let wit =
        std::fs::read(root.join("plugins/wit/smith-plugin.wit")).map_err(|e| e.to_string())?;
    if std::fs::read(project.join("wit/smith-plugin.wit")).ok() != Some(wit) {
        return Err("examples/hello-plugin/wit/smith-plugin.wit differs from plugins/wit/smith-plugin.wit: copy it over (the example builds against the current package)".into());
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let scratch = target.join("example-check");
    let _ = std::fs::remove_dir_all(&scratch);
    let copy = scratch.join("hello-plugin");
    std::fs::create_dir_all(copy.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(copy.join("wit")).map_err(|e| e.to_string())?;
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "plugin.kdl",
        "script.kdl",
        "README.md",
        "src/lib.rs",
        "wit/smith-plugin.wit",
    ] {
        std::fs::copy(project.join(file), copy.join(file))
            .map_err(|e| format!("copying the example's {file}: {e}"))?;
    }
    let manifest = copy.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|e| e.to_string())?;
    let sdk = root.join("plugins/sdk");
    let patched = text.replace(
        "path = \"../../plugins/sdk\"",
        &format!("path = {:?}", sdk.display().to_string()),
    );
    if patched == text {
        return Err("examples/hello-plugin/Cargo.toml no longer names the SDK as `path = \"../../plugins/sdk\"`; update xtask's example check".into());
    }
    std::fs::write(&manifest, patched).map_err(|e| e.to_string())?;
    let mut fmt = cargo();
    fmt.args(["fmt", "--check", "--manifest-path"])
        .arg(&manifest);
    run(fmt)?;
    let guests = target.join("guests");
    // `cargo SUBCOMMAND` of the copy, for wasm32-wasip2, in the guests' target directory.
    let wasm = |subcommand: &str| {
        let mut cmd = cargo();
        cmd.args([
            subcommand,
            "--locked",
            "--release",
            "--target",
            "wasm32-wasip2",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&guests);
        cmd
    };
    let mut clippy = wasm("clippy");
    clippy.args(["--", "-D", "warnings"]);
    run(clippy)?;
    run(wasm("build"))?;
    let component = guests.join("wasm32-wasip2/release/smith_hello.wasm");
    let smith = target.join("debug/smith");
    let home = scratch.join("home");
    let mut install = std::process::Command::new(&smith);
    install
        .args(["plugins", "install"])
        .arg(&copy)
        .arg("--component")
        .arg(&component)
        .env("SMITH_HOME", &home);
    run(install)?;
    let out = std::process::Command::new(&smith)
        .args([
            "eval",
            "--model",
            "scripted/hello",
            "--script",
            "script.kdl",
            "--json",
            "Count the words of plugin.kdl",
        ])
        .current_dir(&copy)
        .env("SMITH_HOME", &home)
        .output()
        .map_err(|e| format!("running {}: {e}", smith.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let counted = std::fs::read_to_string(copy.join("plugin.kdl")).map_err(|e| e.to_string())?;
    let words = counted.split_whitespace().count();
    if !out.status.success() || !stdout.contains(&format!("{words} words")) {
        return Err(format!(
            "the example plugin's tool did not run in smith eval (status {}; expected \"{words} words\" in its output):\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!("xtask: the example plugin builds outside the checkout, installs and its tool runs");
    Ok(())
}

/// The packaging of a release (issue 73), on the debug binary the tests built (no release
/// build in CI): archived as `cargo xtask dist` archives, its checksum written, then the
/// archive's checksum, layout and unpacked `smith --version` verified.
fn packaging() -> Result<(), String> {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let dir = target.join("dist-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let host = crate::dist::host()?;
    let binary = target.join("debug").join("smith");
    if !crate::dist::made_for(&host) {
        eprintln!("xtask: no archive is made for {host}, so the packaging is not checked here");
        return Ok(());
    }
    let archive = crate::dist::archive(&binary, &host, &dir, crate::dist::Compression::Fast)?;
    crate::dist::verify(&dir)?;
    eprintln!("xtask: {} packaged and verified", archive.display());
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// `cargo xtask docs` (or `man`): rewrite everything generated from the declarations — the
/// reference documents, the guide's generated regions, the manual pages and the completion
/// scripts.
pub(crate) fn bless_reference() -> Result<(), String> {
    let mut test = cargo();
    test.args(["test", "--locked", "-p", "smith-cli", "--test", "reference"])
        .env("SMITH_BLESS", "1");
    run(test)?;
    eprintln!(
        "xtask: regenerated docs-corpus/docs/reference/, the guides' generated regions, docs-corpus/man/ and dist/completions/; review and commit the changes"
    );
    Ok(())
}

/// `cargo xtask site`: render the static site into `target/site` and check its links.
///
/// Builds the workspace's binaries, then runs the generator binary directly. `after_tests`
/// (the gate, after `cargo test --workspace`) adds `--tests`, so features resolve as in the
/// test build (dev-dependencies enable some, such as `smith-ai`'s `loopback`) and nothing is
/// compiled twice: without it, a cold CI rebuilt every crate above `smith-ai` (1 min 45 s).
pub(crate) fn site(after_tests: bool) -> Result<(), String> {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let mut build = cargo();
    build.args(["build", "--workspace", "--bins", "--locked"]);
    if after_tests {
        build.arg("--tests");
    }
    run(build)?;
    let mut generate = std::process::Command::new(
        target
            .join("debug")
            .join(format!("smith-site-gen{}", std::env::consts::EXE_SUFFIX)),
    );
    generate.arg(target.join("site"));
    run(generate)
}

/// `cargo xtask soak`: the SIGKILL durability loop with many more iterations than CI runs.
/// The mutation fuzzer of the session decoder, long: 20,000 iterations, a fresh seed (printed,
/// so a failure can be replayed with `SMITH_FUZZ_SEED`).
pub(crate) fn fuzz() -> Result<(), String> {
    let seconds: u64 = std::env::var("SMITH_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3600);
    let iterations = std::env::var("SMITH_FUZZ_ITERATIONS").unwrap_or_else(|_| "20000".into());
    let seed = std::env::var("SMITH_FUZZ_SEED").unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
            .to_string()
    });
    println!("xtask: fuzzing the session decoder: {iterations} iterations, SMITH_FUZZ_SEED={seed}");
    let mut test = cargo();
    test.args([
        "test",
        "--profile",
        "release-test",
        "--locked",
        "-p",
        "smith-store",
        "--test",
        "fuzz",
        "--",
        "--nocapture",
    ])
    .env("SMITH_FUZZ_ITERATIONS", iterations)
    .env("SMITH_FUZZ_SEED", seed);
    run(test)?;
    crate::fuzz::run_targets(crate::fuzz::Profile::Release, seconds)
}

pub(crate) fn soak() -> Result<(), String> {
    let mut test = cargo();
    test.args([
        "test",
        "--locked",
        "-p",
        "smith-cli",
        "--test",
        "durability",
        "--",
        "--nocapture",
    ])
    .env("SMITH_SOAK_ITERATIONS", "5000");
    run(test)
}
