//! The generated reference equals its declarations (spec SMH-SPEC-SPEC0001: Documentation and
//! help → Reference authority). `SMITH_BLESS=1` (what `cargo xtask docs` sets) rewrites the
//! checked-in copies instead of failing.

use std::path::PathBuf;

use smith_docs::reference::{bless, bless_regions, check_drift, check_regions};

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs-corpus/docs/reference")
}

#[test]
fn checked_in_and_embedded_reference_match_the_declarations() {
    let docs = smith_cli::reference_docs();
    let regions = smith_cli::generated_regions();
    let docs_dir = reference_dir().join("..");
    if std::env::var_os("SMITH_BLESS").is_some_and(|v| v == "1") {
        bless(&reference_dir(), &docs).unwrap();
        bless_regions(&docs_dir, &regions).unwrap();
        return;
    }
    let drifts: Vec<_> = [
        check_drift(&reference_dir(), &docs),
        check_regions(&docs_dir, &regions),
    ]
    .into_iter()
    .filter_map(Result::err)
    .flatten()
    .collect();
    if !drifts.is_empty() {
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

/// Generated files that must equal their declarations: `(directory, [(file name, text)])`.
fn check_or_bless(dir: &std::path::Path, files: &[(String, String)], what: &str) {
    let bless = std::env::var_os("SMITH_BLESS").is_some_and(|v| v == "1");
    if bless {
        std::fs::create_dir_all(dir).unwrap();
        for entry in std::fs::read_dir(dir).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut stale = Vec::new();
    for (name, text) in files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(found) if found == *text => {}
            Ok(_) => stale.push(format!("{name} differs")),
            Err(_) => stale.push(format!("{name} is missing")),
        }
    }
    for entry in std::fs::read_dir(dir).into_iter().flatten() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !files.iter().any(|(n, _)| *n == name) {
            stale.push(format!("{name} is not generated any more"));
        }
    }
    assert!(
        stale.is_empty(),
        "the checked-in {what} in {} are stale — run `cargo xtask man` and commit the result:\n  {}",
        dir.display(),
        stale.join("\n  ")
    );
}

/// The manual page of `cmd` and of each of its subcommands, `(file name, roff)`, by name.
fn man_pages() -> Vec<(String, String)> {
    fn render(cmd: &clap::Command, out: &mut Vec<(String, String)>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            render(sub, out);
        }
        // The manual names the version alone: the commit in `--version` changes with every
        // commit, and the checked-in pages would with it.
        let man = clap_mangen::Man::new(cmd.clone().long_version(None::<&str>))
            .source(format!("smith {}", env!("CARGO_PKG_VERSION")))
            .manual("Smith Manual");
        let mut text = Vec::new();
        man.render(&mut text).unwrap();
        out.push((man.get_filename(), String::from_utf8(text).unwrap()));
    }
    let mut root = smith_cli::command().disable_help_subcommand(true);
    root.build();
    let mut pages = Vec::new();
    render(&root, &mut pages);
    pages.sort();
    pages
}

#[test]
fn the_man_pages_match_the_declarations_and_are_embedded() {
    let pages = man_pages();
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for expected in [
        "smith.1",
        "smith-eval.1",
        "smith-sessions-list.1",
        "smith-completions.1",
    ] {
        assert!(names.contains(&expected), "{names:?}");
    }
    let eval = &pages.iter().find(|(n, _)| n == "smith-eval.1").unwrap().1;
    assert!(
        eval.contains("\\-\\-continue") && eval.contains("\\-\\-stdin"),
        "{eval}"
    );
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs-corpus/man");
    check_or_bless(&dir, &pages, "manual pages");
    if std::env::var_os("SMITH_BLESS").is_none() {
        assert_eq!(
            smith_docs::man_pages().unwrap(),
            pages,
            "the binary embeds stale manual pages; rebuild it (cargo build) after `cargo xtask man`"
        );
    }
}

#[test]
fn the_completion_scripts_match_the_declarations() {
    use clap_complete::{Generator as _, Shell};
    let scripts: Vec<(String, String)> = [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ]
    .into_iter()
    .map(|shell| {
        (
            shell.file_name("smith"),
            smith_cli::completion_script(shell),
        )
    })
    .collect();
    let bash = &scripts[0].1;
    for word in [
        "eval",
        "sessions",
        "--continue",
        "--session-id",
        "completions",
    ] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist/completions");
    check_or_bless(&dir, &scripts, "completion scripts");
}

/// `last` has one meaning, said one way: the session most recently written among those started
/// in this directory, else in the nearest directory above it in its project. No help text,
/// guide or the README calls it "the latest session" (which reads as the latest started), and
/// every help that offers `last` says "most recently written".
#[test]
fn last_is_said_one_way_in_every_help_and_guide() {
    let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut root = smith_cli::command();
    root.build();
    let mut stack = vec![root];
    while let Some(mut cmd) = stack.pop() {
        let name = cmd.get_bin_name().unwrap_or(cmd.get_name()).to_owned();
        let help = flat(&cmd.render_long_help().to_string());
        assert!(
            !help.contains("latest session"),
            "`{name} --help` calls `last` the latest session: {help}"
        );
        if help.contains("`last`") {
            assert!(
                help.contains("most recently written"),
                "`{name} --help` offers `last` without saying what it means: {help}"
            );
        }
        stack.extend(
            cmd.get_subcommands()
                .filter(|s| s.get_name() != "help")
                .cloned(),
        );
    }
    let root_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root_dir.join("README.md")];
    let mut dirs = vec![root_dir.join("docs-corpus/docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    for file in files {
        let text = flat(&std::fs::read_to_string(&file).unwrap());
        for phrase in ["latest session", "latest one"] {
            assert!(
                !text.contains(phrase),
                "{} says \"{phrase}\"; say the session most recently written",
                file.display()
            );
        }
    }
}

/// The README's claims about the binary hold: its list of commands with `--help` names every
/// command the binary has, its layout promises nothing as "coming", and it says that
/// `agents-md` reads the user-level `AGENTS.md` as well as the project's.
#[test]
fn the_readme_names_every_command_and_promises_nothing_coming() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let list = flat
        .split("`--help` on every command (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("the README lists the commands with --help");
    let mut root = smith_cli::command();
    root.build();
    for cmd in root
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
    {
        assert!(
            list.contains(&format!("`{}`", cmd.get_name())),
            "the README's list of commands with --help omits `{}`: {list}",
            cmd.get_name()
        );
    }
    let layout = readme.split("## Layout").nth(1).expect("a Layout section");
    assert!(
        !layout.to_lowercase().contains("coming"),
        "the README's layout still promises something as coming"
    );
    assert!(
        flat.contains(
            "`agents-md` (your `AGENTS.md` files: the one in Smith's configuration directory"
        ),
        "the README says where agents-md reads from"
    );
}
