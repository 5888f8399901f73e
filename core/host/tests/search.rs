//! The search facilities on generated trees (ignore files, hidden entries, symlinks, binary
//! files, a 100,000-file directory), and the bundled `find` and `grep` tools through the wasm
//! host with a real session as the effect journal.

mod common;

use std::path::Path;

use serde_json::json;
use smith_host::fsops::{ListedKind, Root};
use smith_host::search::{FindResult, GrepRequest, GrepResult, MAX_RESULTS, WalkOptions};
use smith_store::EffectOutcome;

use common::{Fixture, host};

fn write(root: &Path, path: &str, content: &[u8]) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// A small project: sources, an ignored build directory, a hidden directory, a `.ignore`, a
/// binary file, symlinks to a file and a directory outside the tree, and a nested git-style
/// ignore.
fn project(root: &Path, outside: &Path) {
    // A git repository, so `.gitignore` applies (as in ripgrep).
    std::fs::create_dir(root.join(".git")).unwrap();
    write(root, ".gitignore", b"target/\n*.tmp\n");
    write(root, "src/main.rs", b"fn main() {\n    needle();\n}\n");
    write(
        root,
        "src/lib.rs",
        b"pub fn needle() {}\n// NEEDLE in caps\n",
    );
    write(root, "src/nested/deep.rs", b"const X: &str = \"needle\";\n");
    write(root, "src/scratch.tmp", b"needle in a temp file\n");
    write(root, "target/debug/out.rs", b"needle in build output\n");
    write(root, ".hidden/secret.rs", b"needle hidden\n");
    write(root, "docs/.ignore", b"draft.md\n");
    write(root, "docs/draft.md", b"needle draft\n");
    write(root, "docs/guide.md", b"a needle in the guide\n");
    write(root, "data/blob.bin", b"needle\0\x01\x02binary");
    write(root, "README.md", b"# needle\n");
    write(outside, "escaped.rs", b"needle outside the root\n");
    std::os::unix::fs::symlink(outside, root.join("outside-dir")).unwrap();
    std::os::unix::fs::symlink(outside.join("escaped.rs"), root.join("src/link.rs")).unwrap();
}

fn grep(root: &Root, pattern: &str, options: WalkOptions) -> GrepResult {
    root.grep(
        &GrepRequest {
            path: ".",
            pattern,
            literal: false,
            case_insensitive: false,
            glob: None,
            limit: 0,
            options,
        },
        &|| false,
    )
    .unwrap()
}

fn paths(found: &FindResult) -> Vec<&str> {
    found.entries.iter().map(|f| f.path.as_str()).collect()
}

#[test]
fn grep_respects_ignore_files_skips_binaries_and_never_follows_symlinks() {
    let work = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(work.path(), outside.path());
    let root = Root::open(work.path()).unwrap();
    let found = grep(&root, "needle", WalkOptions::default());
    let lines: Vec<String> = found
        .matches
        .iter()
        .map(|m| format!("{}:{}:{}", m.path, m.line, m.text))
        .collect();
    assert_eq!(
        lines,
        [
            "README.md:1:# needle",
            "docs/guide.md:1:a needle in the guide",
            "src/lib.rs:1:pub fn needle() {}",
            "src/main.rs:2:    needle();",
            "src/nested/deep.rs:1:const X: &str = \"needle\";",
        ]
    );
    assert!(!found.truncated);
    assert_eq!(found.binary_files, ["data/blob.bin"]);
    assert_eq!(found.binary_count, 1);
    assert!(found.errors.is_empty(), "{:?}", found.errors);
    // Deterministic: the same tree gives the same answer.
    assert_eq!(grep(&root, "needle", WalkOptions::default()), found);

    // Without ignore files and with hidden entries, the rest is searched — still never
    // through a symlink, and never `.git`.
    write(work.path(), ".git/config", b"needle in git\n");
    write(work.path(), ".git/info/exclude", b"README.md\n");
    let excluded = grep(&root, "needle", WalkOptions::default());
    assert!(
        excluded.matches.iter().all(|m| m.path != "README.md"),
        "git's exclude file applies: {excluded:?}"
    );
    let all = grep(
        &root,
        "needle",
        WalkOptions {
            respect_ignore_files: false,
            include_hidden: true,
        },
    );
    let files: Vec<&str> = all.matches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(
        files,
        [
            ".hidden/secret.rs",
            "README.md",
            "docs/draft.md",
            "docs/guide.md",
            "src/lib.rs",
            "src/main.rs",
            "src/nested/deep.rs",
            "src/scratch.tmp",
            "target/debug/out.rs",
        ]
    );
    assert!(all.matches.iter().all(|m| !m.text.contains("outside")));
}

#[test]
fn grep_options_case_literal_glob_limit_and_a_single_file() {
    let work = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(work.path(), outside.path());
    let root = Root::open(work.path()).unwrap();
    let request = |pattern, literal, case_insensitive, glob, limit, path| GrepRequest {
        path,
        pattern,
        literal,
        case_insensitive,
        glob,
        limit,
        options: WalkOptions::default(),
    };
    let run = |r: GrepRequest<'_>| root.grep(&r, &|| false);
    let ci = run(request("needle in caps", false, true, None, 0, ".")).unwrap();
    assert_eq!(ci.matches.len(), 1);
    assert_eq!(ci.matches[0].path, "src/lib.rs");
    // As a literal, `needle()` is two lines; as a regular expression (an empty group) five.
    let lit = run(request("needle()", true, false, None, 0, ".")).unwrap();
    assert_eq!(lit.matches.len(), 2, "{lit:?}");
    let re = run(request("needle()", false, false, None, 0, ".")).unwrap();
    assert_eq!(re.matches.len(), 5, "{re:?}");
    let rs = run(request("needle", false, false, Some("*.rs"), 0, ".")).unwrap();
    assert!(rs.matches.iter().all(|m| m.path.ends_with(".rs")));
    assert_eq!(rs.matches.len(), 3);
    let nested = run(request(
        "needle",
        false,
        false,
        Some("nested/*.rs"),
        0,
        "src",
    ))
    .unwrap();
    assert_eq!(nested.matches.len(), 1);
    let two = run(request("needle", false, false, None, 2, ".")).unwrap();
    assert_eq!(two.matches.len(), 2);
    assert!(two.truncated);
    let one_file = run(request("needle", false, false, None, 0, "src/main.rs")).unwrap();
    assert_eq!(one_file.matches.len(), 1);
    assert_eq!(one_file.matches[0].path, "src/main.rs");
    // Bad input gets a typed error naming it.
    let bad = run(request("(unclosed", false, false, None, 0, ".")).unwrap_err();
    assert!(bad.to_string().contains("(unclosed"), "{bad}");
    let bad = run(request("x", false, false, Some("[z-a]"), 0, ".")).unwrap_err();
    assert!(bad.to_string().contains("glob"), "{bad}");
    let missing = run(request("x", false, false, None, 0, "nope")).unwrap_err();
    assert!(missing.to_string().contains("does not exist"), "{missing}");
    // A line longer than the searcher's memory bound skips its file, reported.
    let mut huge = vec![b'y'; smith_host::search::MAX_LINE_HEAP + 1024];
    huge.extend_from_slice(b"needle\n");
    write(work.path(), "huge.txt", &huge);
    let skipped = run(request("needle", false, false, Some("huge.txt"), 0, ".")).unwrap();
    assert!(skipped.matches.is_empty());
    assert!(
        skipped.errors.len() == 1
            && skipped.errors[0]
                .starts_with("huge.txt: not searched: a line is longer than 16 MiB"),
        "{skipped:?}"
    );
    // A long line shows a window around the match.
    write(
        work.path(),
        "wide.txt",
        format!("{}needle{}\n", "x".repeat(5000), "y".repeat(5000)).as_bytes(),
    );
    let wide = run(request("needle", false, false, Some("wide.txt"), 0, ".")).unwrap();
    let text = &wide.matches[0].text;
    assert!(
        text.contains("needle") && text.starts_with('…') && text.ends_with('…'),
        "{text}"
    );
    // Regular-expression errors quote the user's own pattern and say what to do.
    let bad = run(request("(unclosed", false, false, None, 0, "."))
        .unwrap_err()
        .to_string();
    assert!(
        bad.contains("`(unclosed`") && !bad.contains("(?:") && bad.contains("literal"),
        "{bad}"
    );
    let bad = run(request("a\\nb", false, false, None, 0, "."))
        .unwrap_err()
        .to_string();
    assert!(bad.contains("line break"), "{bad}");
    let bad = run(request("a{99999}{99999}", false, false, None, 0, "."))
        .unwrap_err()
        .to_string();
    assert!(bad.contains("simplify"), "{bad}");
    // A long line is cut.
    write(
        work.path(),
        "long.txt",
        format!("needle{}\n", "x".repeat(5000)).as_bytes(),
    );
    let long = run(request("needle", false, false, Some("long.txt"), 0, ".")).unwrap();
    assert!(long.matches[0].text.len() < 400 && long.matches[0].text.ends_with('…'));
}

#[test]
fn find_matches_names_or_paths_in_a_deterministic_order() {
    let work = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(work.path(), outside.path());
    let root = Root::open(work.path()).unwrap();
    let find = |path, pattern, options| root.find(path, pattern, 0, options, &|| false).unwrap();
    let rs = find(".", "*.rs", WalkOptions::default());
    assert_eq!(
        paths(&rs),
        [
            "src/lib.rs",
            "src/link.rs",
            "src/main.rs",
            "src/nested/deep.rs"
        ]
    );
    assert_eq!(rs.entries[1].kind, ListedKind::Symlink);
    assert_eq!(rs.entries[0].kind, ListedKind::File);
    assert_eq!(rs.entries[0].size, 37);
    let nested = find("src", "nested/*.rs", WalkOptions::default());
    assert_eq!(paths(&nested), ["src/nested/deep.rs"]);
    let dirs = find(".", "nest*", WalkOptions::default());
    assert_eq!(dirs.entries[0].kind, ListedKind::Directory);
    let everything = find(
        ".",
        "*.rs",
        WalkOptions {
            respect_ignore_files: false,
            include_hidden: true,
        },
    );
    assert_eq!(
        paths(&everything),
        [
            ".hidden/secret.rs",
            "src/lib.rs",
            "src/link.rs",
            "src/main.rs",
            "src/nested/deep.rs",
            "target/debug/out.rs",
        ]
    );
    // `./` is the same as nothing; a trailing `/` matches directories only.
    assert_eq!(
        paths(&find(".", "./src/*.rs", WalkOptions::default())),
        ["src/lib.rs", "src/link.rs", "src/main.rs"]
    );
    let only_dirs = find(".", "ne*/", WalkOptions::default());
    assert_eq!(paths(&only_dirs), ["src/nested"]);
    // A file is not a directory to look in.
    let err = root
        .find("src/main.rs", "*", 0, WalkOptions::default(), &|| false)
        .unwrap_err();
    assert!(err.to_string().contains("is a file"), "{err}");
    // The symlinked directory is listed but never entered.
    assert!(paths(&find(".", "escaped.rs", WalkOptions::default())).is_empty());
}

#[test]
fn names_that_are_not_utf8_are_reported_and_names_with_newlines_kept_whole() {
    use std::os::unix::ffi::OsStrExt;
    let work = tempfile::tempdir().unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"bad\xffname.txt");
    std::fs::write(work.path().join(odd), "needle\n").unwrap();
    std::fs::write(work.path().join("new\nline.txt"), "needle\n").unwrap();
    let root = Root::open(work.path()).unwrap();
    let found = grep(&root, "needle", WalkOptions::default());
    assert_eq!(found.matches.len(), 1);
    assert_eq!(found.matches[0].path, "new\nline.txt");
    assert!(
        found.errors.len() == 1 && found.errors[0].contains("not valid UTF-8"),
        "{:?}",
        found.errors
    );
    let listed = root
        .find(".", "*.txt", 0, WalkOptions::default(), &|| false)
        .unwrap();
    assert_eq!(paths(&listed), ["new\nline.txt"]);
    assert_eq!(listed.errors.len(), 1);
    // The tools show such a name JSON-quoted, so it reads as one path.
    let host = host();
    let f = Fixture::new();
    std::fs::write(f.root().join("new\nline.txt"), "needle\n").unwrap();
    let out = f.call(&host, "find", json!({"pattern": "*.txt"}));
    assert_eq!(out.output, "\"new\\nline.txt\"");
}

#[test]
fn searches_never_leave_the_root() {
    let work = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    project(work.path(), outside.path());
    let root = Root::open(work.path()).unwrap();
    let outside_path = outside.path().display().to_string();
    for path in [
        "..",
        "../..",
        "outside-dir",
        "src/../..",
        outside_path.as_str(),
        "/etc",
    ] {
        let found = root.find(path, "*", 0, WalkOptions::default(), &|| false);
        assert!(found.is_err(), "find {path}: {found:?}");
        let request = GrepRequest {
            path,
            pattern: "needle",
            literal: false,
            case_insensitive: false,
            glob: None,
            limit: 0,
            options: WalkOptions::default(),
        };
        assert!(root.grep(&request, &|| false).is_err(), "grep {path}");
    }
}

#[test]
fn a_100000_file_directory_gives_bounded_deterministic_results() {
    let work = tempfile::tempdir().unwrap();
    let big = work.path().join("big");
    std::fs::create_dir(&big).unwrap();
    for i in 0..100_000u32 {
        std::fs::write(big.join(format!("f{i:06}.txt")), b"common line\n").unwrap();
    }
    write(work.path(), "big/zz-last.txt", b"rare\n");
    let root = Root::open(work.path()).unwrap();
    let found = root
        .find(".", "*.txt", 0, WalkOptions::default(), &|| false)
        .unwrap();
    assert_eq!(found.entries.len(), 100);
    assert!(found.truncated);
    assert_eq!(found.entries[0].path, "big/f000000.txt");
    assert_eq!(found.entries[99].path, "big/f000099.txt");
    let most = root
        .find(".", "*.txt", 5000, WalkOptions::default(), &|| false)
        .unwrap();
    assert_eq!(most.entries.len(), MAX_RESULTS as usize);
    let request = |pattern| GrepRequest {
        path: "big",
        pattern,
        literal: true,
        case_insensitive: false,
        glob: None,
        limit: 50,
        options: WalkOptions::default(),
    };
    let common = root.grep(&request("common"), &|| false).unwrap();
    assert_eq!(common.matches.len(), 50);
    assert!(common.truncated);
    // The 51st file was searched to learn that more matches exist.
    assert_eq!(common.files_searched, 51);
    assert_eq!(common.matches[49].path, "big/f000049.txt");
    // A search that matches once must visit everything, and finds it.
    let rare = root.grep(&request("rare"), &|| false).unwrap();
    assert_eq!(rare.matches.len(), 1);
    assert_eq!(rare.files_searched, 100_001);
    assert!(!rare.truncated);
    // Cancellation stops a walk.
    let stopped = root.grep(&request("rare"), &|| true).unwrap_err();
    assert!(stopped.to_string().contains("cancelled"), "{stopped}");
}

#[test]
fn the_find_and_grep_tools_run_in_process_as_recorded_effects() {
    let host = host();
    let f = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    project(f.root(), outside.path());
    let out = f.call(&host, "grep", json!({"pattern": "needle", "glob": "*.rs"}));
    assert!(!out.is_error, "{}", out.output);
    assert_eq!(
        out.output,
        "src/lib.rs:1:pub fn needle() {}\nsrc/main.rs:2:    needle();\nsrc/nested/deep.rs:1:const X: &str = \"needle\";"
    );
    let out = f.call(&host, "grep", json!({"pattern": "needle", "limit": 1}));
    assert!(
        out.output.contains("[stopped at 1 matching lines"),
        "{}",
        out.output
    );
    let out = f.call(&host, "grep", json!({"pattern": "binary"}));
    assert!(
        out.output
            .contains("skipped 1 binary file(s): data/blob.bin"),
        "{}",
        out.output
    );
    let out = f.call(&host, "find", json!({"pattern": "*.rs", "path": "src"}));
    assert_eq!(
        out.output,
        "src/lib.rs\nsrc/link.rs@\nsrc/main.rs\nsrc/nested/deep.rs"
    );
    let out = f.call(&host, "find", json!({"pattern": "*", "path": ".."}));
    assert!(out.is_error, "{}", out.output);
    assert_eq!(
        f.effects(),
        [
            ("fs.grep".to_owned(), EffectOutcome::Applied),
            ("fs.grep".to_owned(), EffectOutcome::Applied),
            ("fs.grep".to_owned(), EffectOutcome::Applied),
            ("fs.find".to_owned(), EffectOutcome::Applied),
            ("fs.find".to_owned(), EffectOutcome::NotApplied),
        ]
    );
}
