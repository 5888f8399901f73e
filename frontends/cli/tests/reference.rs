//! The generated reference equals its declarations (spec SMH-SPEC-SPEC0001: Documentation and
//! help → Reference authority). `SMITH_BLESS=1` (what `cargo xtask docs` sets) rewrites the
//! checked-in copies instead of failing.

use std::path::PathBuf;

use smith_docs::reference::{bless, check_drift};

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs-corpus/docs/reference")
}

#[test]
fn checked_in_and_embedded_reference_match_the_declarations() {
    let docs = smith_cli::reference_docs();
    if std::env::var_os("SMITH_BLESS").is_some_and(|v| v == "1") {
        bless(&reference_dir(), &docs).unwrap();
        return;
    }
    if let Err(drifts) = check_drift(&reference_dir(), &docs) {
        let list: Vec<String> = drifts.iter().map(ToString::to_string).collect();
        panic!(
            "generated reference is stale — run `cargo xtask docs` and commit the result:\n  {}",
            list.join("\n  ")
        );
    }
    let corpus = smith_docs::Corpus::embedded().unwrap();
    for doc in &docs {
        let embedded = corpus.get(&doc.id).unwrap();
        // The same normalisation the corpus applies to every file it embeds.
        let fresh =
            smith_docs::Corpus::from_files([(format!("reference/{}", doc.file), doc.to_file())])
                .unwrap();
        let expected = &fresh.get(&doc.id).unwrap().body;
        assert!(
            &embedded.body == expected,
            "the binary embeds a stale `{}`; rebuild it (cargo build) after `cargo xtask docs`",
            doc.id
        );
    }
}

#[test]
fn every_command_and_option_is_in_the_reference() {
    let body = &smith_cli::reference_docs()[0].body;
    let mut root = smith_cli::command();
    root.build();
    let mut stack = vec![root];
    while let Some(cmd) = stack.pop() {
        let name = cmd.get_bin_name().unwrap_or(cmd.get_name()).to_owned();
        assert!(
            body.contains(&format!("## `{name}`")),
            "command `{name}` missing"
        );
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long().filter(|l| *l != "help" && *l != "version") {
                assert!(
                    body.contains(&format!("--{long}")),
                    "`{name} --{long}` missing"
                );
            }
        }
        stack.extend(
            cmd.get_subcommands()
                .filter(|s| s.get_name() != "help")
                .cloned(),
        );
    }
}
