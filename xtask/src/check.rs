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
    run(test)?;

    let mut doc = cargo();
    doc.args(["doc", "--workspace", "--no-deps", "--locked"])
        .env("RUSTDOCFLAGS", "-D warnings");
    run(doc)?;

    // The coverage-guided targets, briefly: what they find is a failure like any test's.
    crate::fuzz::run_targets(20)?;

    site()?;
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
    // The SDK's own tests (the SSE parser, the decoder shell) run natively, resolved by the
    // guest workspace's lock file.
    let mut test = cargo();
    test.args([
        "test",
        "--locked",
        "-p",
        "smith-plugin-sdk",
        "--manifest-path",
    ])
    .arg(plugins.join("guests/Cargo.toml"))
    .arg("--target-dir")
    .arg(target.join("sdk-native"));
    run(test)
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
/// Builds with `--workspace` so features resolve as in the test build and nothing is
/// compiled twice, then runs the generator binary directly.
pub(crate) fn site() -> Result<(), String> {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let mut build = cargo();
    build.args(["build", "--workspace", "--bins", "--locked"]);
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
        "--release",
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
    crate::fuzz::run_targets(seconds)
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
