//! Request preparation through real wasm components (SMH-SPEC-SPEC0001: Sessions → Effective
//! request context; Agent behavior → Plugin event boundary): the bundled `prompt` plugin's
//! instructions name the working directory and the tools, the bundled `agents-md` plugin
//! reads the `AGENTS.md` of each context directory in order, and a `context` handler's
//! `context.read` grant covers exactly the file names its manifest declares in the event's
//! directories — an undeclared name, a directory not among them, a symbolic link or an
//! oversized file is refused.

mod common;

use common::{cache, source};
use smith::{Cancel, Lifecycle, PieceRole, RequestEvent};
use smith_host::{Host, Limits, Policy, RequestScope};

fn loadout(
    plugins: &[&'static smith_plugins::BundledPlugin],
    dirs: &[&std::path::Path],
) -> smith_host::Loadout {
    let sources: Vec<_> = plugins.iter().map(|p| source(p)).collect();
    let host = Host::load(&sources, &cache(), Limits::default()).unwrap();
    host.loadout().with_policy(Policy {
        scope: RequestScope {
            cwd: dirs.last().map(|d| d.to_path_buf()),
            context_dirs: dirs.iter().map(|d| d.to_path_buf()).collect(),
            user_dir: dirs.first().map(|d| d.to_path_buf()),
            context_files: Vec::new(),
        },
        ..Policy::default()
    })
}

fn bundled(id: &str) -> &'static smith_plugins::BundledPlugin {
    smith_plugins::BUNDLED
        .iter()
        .find(|p| p.manifest.contains(&format!("plugin \"{id}\"")))
        .unwrap()
}

fn event(tools: &[&str]) -> RequestEvent {
    RequestEvent {
        round: 1,
        tools: tools.iter().map(|t| (*t).to_owned()).collect(),
    }
}

#[test]
fn the_bundled_plugins_give_the_instructions_and_each_agents_md_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let home = root.join("config");
    let project = root.join("project");
    let sub = project.join("sub");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(home.join("AGENTS.md"), "Mine: be brief.\n").unwrap();
    std::fs::write(project.join("AGENTS.md"), "Project: run make.\n").unwrap();
    // `sub` has none: it contributes nothing.
    let tools = loadout(
        &[bundled("prompt"), bundled("agents-md")],
        &[&home, &project, &sub],
    );
    let prepared = tools.prepare_request(&event(&["read", "bash", "docs"]), &Cancel::new());
    assert!(prepared.problems.is_empty(), "{:?}", prepared.problems);
    let roles: Vec<PieceRole> = prepared.pieces.iter().map(|p| p.role).collect();
    assert_eq!(
        roles,
        [
            PieceRole::Instructions,
            PieceRole::Context,
            PieceRole::Context
        ]
    );
    let base = &prepared.pieces[0];
    assert_eq!(base.handler, "prompt@0.1.0");
    assert!(
        base.text
            .contains(&format!("Working directory: {}", sub.display()))
    );
    assert!(
        base.text.contains("Available: read, bash, docs."),
        "{}",
        base.text
    );
    assert!(base.text.contains("the `docs` tool"), "{}", base.text);
    let sources: Vec<String> = prepared.pieces[1..]
        .iter()
        .map(|p| p.source.clone().unwrap())
        .collect();
    assert_eq!(
        sources,
        [
            home.join("AGENTS.md").display().to_string(),
            project.join("AGENTS.md").display().to_string()
        ]
    );
    assert!(prepared.pieces[1].text.ends_with("Mine: be brief."));
    assert!(prepared.pieces[1].text.contains("every project"));
    assert!(prepared.pieces[2].text.ends_with("Project: run make."));
    // The same event gives byte-identical instructions (recorded once).
    let again = tools.prepare_request(&event(&["read", "bash", "docs"]), &Cancel::new());
    assert_eq!(again, prepared);

    // A file over the bound is skipped with a notice naming it; the others stay. A file of
    // exactly the bound fits, heading and all.
    std::fs::write(project.join("AGENTS.md"), "x".repeat(70_000)).unwrap();
    std::fs::write(sub.join("AGENTS.md"), "y".repeat(64 * 1024)).unwrap();
    let prepared = tools.prepare_request(&event(&[]), &Cancel::new());
    assert_eq!(prepared.pieces.len(), 3, "{:?}", prepared.problems);
    assert!(prepared.pieces[1].text.ends_with("Mine: be brief."));
    assert!(prepared.pieces[2].text.ends_with(&"y".repeat(100)));
    assert_eq!(prepared.problems.len(), 1, "{:?}", prepared.problems);
    let notice = &prepared.problems[0];
    assert!(
        notice.contains("agents-md@0.1.0")
            && notice.contains(&project.join("AGENTS.md").display().to_string())
            && notice.contains("70000 bytes"),
        "{notice}"
    );
    // A byte-order mark is not passed on.
    std::fs::write(project.join("AGENTS.md"), "\u{feff}Project: run make.\n").unwrap();
    let prepared = tools.prepare_request(&event(&[]), &Cancel::new());
    assert!(prepared.pieces[2].text.contains("\n\nProject: run make."));
}

#[test]
fn a_claude_md_is_read_where_no_agents_md_is_and_context_files_chooses() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (home, project, sub) = (
        root.join("config"),
        root.join("project"),
        root.join("project/sub"),
    );
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&sub).unwrap();
    // The project was written for Claude Code; `sub` has both files, and a CLAUDE.md that is a
    // link to its AGENTS.md, as many projects keep them, in `home`.
    std::fs::write(project.join("CLAUDE.md"), "Claude: use pnpm.\n").unwrap();
    // An empty AGENTS.md beside it is a placeholder, not the directory's file.
    std::fs::write(project.join("AGENTS.md"), "\u{feff}\n").unwrap();
    std::fs::write(sub.join("AGENTS.md"), "Agents: sub rules.\n").unwrap();
    std::fs::write(sub.join("CLAUDE.md"), "Claude: sub rules.\n").unwrap();
    std::fs::write(home.join("AGENTS.md"), "Mine.\n").unwrap();
    std::os::unix::fs::symlink("AGENTS.md", home.join("CLAUDE.md")).unwrap();
    let read = |order: &[&str]| {
        let policy = Policy {
            scope: RequestScope {
                cwd: Some(sub.clone()),
                context_dirs: vec![home.clone(), project.clone(), sub.clone()],
                user_dir: Some(home.clone()),
                context_files: order.iter().map(|n| (*n).to_owned()).collect(),
            },
            ..Policy::default()
        };
        let tools = loadout(&[bundled("agents-md")], &[&home, &project, &sub]).with_policy(policy);
        let prepared = tools.prepare_request(&event(&[]), &Cancel::new());
        let sources: Vec<String> = prepared
            .pieces
            .iter()
            .map(|p| p.source.clone().unwrap())
            .collect();
        (sources, prepared)
    };
    let at = |dir: &std::path::Path, name: &str| dir.join(name).display().to_string();
    // The default: AGENTS.md, then CLAUDE.md — the first found per directory, once.
    let (sources, prepared) = read(&["AGENTS.md", "CLAUDE.md"]);
    assert_eq!(
        sources,
        [
            at(&home, "AGENTS.md"),
            at(&project, "CLAUDE.md"),
            at(&sub, "AGENTS.md")
        ]
    );
    assert!(prepared.pieces[1].text.ends_with("Claude: use pnpm."));
    // Unset, the handler's declared order is the same.
    assert_eq!(read(&[]).0, sources);
    // CLAUDE.md first: the project's Claude files win where both exist.
    let (sources, _) = read(&["CLAUDE.md", "AGENTS.md"]);
    assert_eq!(
        sources,
        [
            at(&home, "CLAUDE.md"),
            at(&project, "CLAUDE.md"),
            at(&sub, "CLAUDE.md")
        ]
    );
    // Only AGENTS.md: the Claude-only project contributes nothing; a name no handler
    // declares is passed over.
    let (sources, _) = read(&["GEMINI.md", "AGENTS.md"]);
    assert_eq!(sources, [at(&home, "AGENTS.md"), at(&sub, "AGENTS.md")]);
    // A CLAUDE.md that is not UTF-8 is skipped with a notice naming it; the others stay.
    std::fs::write(project.join("CLAUDE.md"), b"caf\xe9\n").unwrap();
    let (sources, prepared) = read(&["AGENTS.md", "CLAUDE.md"]);
    assert_eq!(sources, [at(&home, "AGENTS.md"), at(&sub, "AGENTS.md")]);
    assert!(
        prepared.problems.len() == 1
            && prepared.problems[0].contains(&at(&project, "CLAUDE.md"))
            && prepared.problems[0].contains("not UTF-8"),
        "{:?}",
        prepared.problems
    );
}

#[test]
fn a_context_grant_reads_only_the_declared_files_in_the_events_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let a = root.join("a");
    let linked = root.join("linked");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&linked).unwrap();
    std::fs::write(a.join("AGENTS.md"), "rules of a").unwrap();
    std::fs::write(a.join("passwd"), "secret").unwrap();
    std::fs::write(root.join("AGENTS.md"), "outside").unwrap();
    // A link out of the event's directories is refused; one to a file in them is followed.
    std::os::unix::fs::symlink(root.join("AGENTS.md"), linked.join("AGENTS.md")).unwrap();
    let aliased = root.join("aliased");
    std::fs::create_dir_all(&aliased).unwrap();
    std::fs::write(aliased.join("CLAUDE.md"), "the same rules").unwrap();
    std::os::unix::fs::symlink(aliased.join("CLAUDE.md"), aliased.join("AGENTS.md")).unwrap();
    // `a` is the user's directory here: a project's link into it is refused.
    let into_user = root.join("into-user");
    std::fs::create_dir_all(&into_user).unwrap();
    std::os::unix::fs::symlink(a.join("AGENTS.md"), into_user.join("AGENTS.md")).unwrap();
    let tools = loadout(
        &[&smith_plugins::CONTEXT_PROBE],
        &[&a, &linked, &aliased, &into_user],
    );
    let prepared = tools.prepare_request(&event(&[]), &Cancel::new());
    assert!(prepared.problems.is_empty(), "{:?}", prepared.problems);
    let seen: Vec<(String, String)> = prepared
        .pieces
        .iter()
        .map(|p| (p.source.clone().unwrap(), p.text.clone()))
        .collect();
    let of = |label: &str, dir: &std::path::Path| {
        let key = format!("{label} {}", dir.display());
        seen.iter()
            .find(|(s, _)| *s == key || s.starts_with(&format!("{key}/")))
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("no {key} in {seen:?}"))
    };
    assert_eq!(of("declared", &a), "ok: rules of a");
    assert!(
        of("undeclared", &a).contains("is not a context file"),
        "{seen:?}"
    );
    assert!(
        of("parent", &a).contains("not one of this event's directories"),
        "{seen:?}"
    );
    assert!(
        of("declared", &linked).contains("outside the directories"),
        "{seen:?}"
    );
    assert_eq!(of("declared", &aliased), "ok: the same rules");
    assert!(
        of("declared", &into_user).contains("outside the directories"),
        "{seen:?}"
    );
    // Nothing outside the grant was read.
    assert!(
        !seen
            .iter()
            .any(|(_, t)| t == "ok: secret" || t == "ok: outside"),
        "{seen:?}"
    );
}
