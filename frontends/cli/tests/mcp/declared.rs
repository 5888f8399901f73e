//! MCP servers declared in the configuration (`mcp { server "NAME" { … } }`) rather than
//! added: a stdio server (another Smith) in the user's file started and called, shown by
//! `smith mcp list` with where it is declared, not changed by `smith mcp remove`; a project's
//! servers used only once the project is trusted, its sandbox widening never; an HTTP server
//! (the Python SDK's, when `SMITH_MCP_PYTHON` names it) whose host is allowed by declaring it;
//! and entries that cannot work refused naming file, line and key.

use crate::as_client::{Client, tool_ends};
use crate::common::{records, stderr, stdout};

/// The user's configuration file, with `text` appended.
fn configure(client: &Client, text: &str) {
    let path = client.env.home().join("config.kdl");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut config = std::fs::read_to_string(&path).unwrap_or_default();
    config.push_str(text);
    std::fs::write(&path, config).unwrap();
}

/// A block declaring another Smith (its own home under the work directory, where its
/// sandbox may write) as server `name`.
fn inner_smith(client: &Client, name: &str) -> String {
    let home = client.work.join(".inner");
    format!(
        "mcp {{\n    server \"{name}\" {{\n        command \"{}\"\n        args \"mcp\"\n        env {{ SMITH_HOME \"{}\" }}\n        timeout 60\n    }}\n}}\n",
        env!("CARGO_BIN_EXE_smith"),
        home.display()
    )
}

#[cfg(unix)]
#[test]
fn a_server_declared_in_the_configuration_is_started_listed_and_called() {
    let client = Client::new();
    std::fs::write(
        client.work.join("notes.txt"),
        "hello from a declared server\n",
    )
    .unwrap();
    configure(&client, &inner_smith(&client, "inner"));
    let listed = client.mcp_list();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["name"], "inner");
    assert_eq!(listed[0]["state"], "unlisted");
    assert_eq!(listed[0]["args"], serde_json::json!(["mcp"]));
    let origin = listed[0]["declared_in"].as_str().unwrap();
    assert!(origin.ends_with("config.kdl:3"), "{origin}");

    let out = client.turn(&[("mcp__inner__read", serde_json::json!({"path": "notes.txt"}))]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .contains("hello from a declared server"),
        "{ends:?}"
    );
    // Its start and each exchange are the session's effects, as an added server's.
    let entries = client.entries();
    assert!(
        entries.contains("discover/1 process.start") && entries.contains("process.send mcp-inner"),
        "{entries}"
    );
    let listed = client.mcp_list();
    assert_eq!(listed[0]["state"], "listed", "{listed:?}");

    // `smith mcp` changes only the servers it added.
    let out = client.env.run(&["mcp", "remove", "inner"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("is declared in the configuration")
            && stderr(&out).contains("config.kdl:3"),
        "{}",
        stderr(&out)
    );
    let out = client.env.run(&["mcp", "add", "inner", "--", "true"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("change it there"), "{}", stderr(&out));

    // Taken out of the configuration, its tools are no longer offered — not even from what
    // a session declaring it listed.
    std::fs::write(client.env.home().join("config.kdl"), "").unwrap();
    assert!(client.mcp_list().is_empty());
    let mut tools = client.env.command(&["tools", "list"]);
    tools.current_dir(&client.work);
    let tools = stdout(&tools.output().unwrap());
    assert!(
        tools.contains("read") && !tools.contains("mcp__inner__"),
        "{tools}"
    );
    let out = client.turn(&[("mcp__inner__read", serde_json::json!({"path": "notes.txt"}))]);
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], true, "{ends:?}");
}

#[cfg(unix)]
#[test]
fn a_projects_servers_are_used_only_in_a_trusted_project_and_never_widen_the_sandbox() {
    let client = Client::new();
    std::fs::write(client.work.join("notes.txt"), "project server\n").unwrap();
    std::fs::create_dir(client.work.join(".smith")).unwrap();
    let mut block = inner_smith(&client, "proj");
    block = block.replace(
        "        timeout 60\n",
        "        timeout 60\n        network \"allow\"\n",
    );
    std::fs::write(client.work.join(".smith/config.kdl"), &block).unwrap();
    let read = ("mcp__proj__read", serde_json::json!({"path": "notes.txt"}));
    // Untrusted: the project's configuration is skipped, and that is said.
    let out = client.turn(std::slice::from_ref(&read));
    assert_eq!(tool_ends(&out)[0]["is_error"], true, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("the project is not trusted"),
        "{}",
        stderr(&out)
    );
    // Trusted: its server is started and called, but its `network` is ignored, with a notice.
    let mut trust = client.env.command(&["trust"]);
    trust.current_dir(&client.work);
    assert!(trust.output().unwrap().status.success());
    let out = client.turn(std::slice::from_ref(&read));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .contains("project server")
    );
    assert!(
        stderr(&out).contains("mcp.server.proj.network"),
        "{}",
        stderr(&out)
    );
    let mut list = client.env.command(&["mcp", "list", "--json"]);
    list.current_dir(&client.work);
    let listed = records(&list.output().unwrap());
    assert_eq!(listed[0]["network"], false, "{listed:?}");
    assert!(
        listed[0]["declared_in"]
            .as_str()
            .unwrap()
            .ends_with(".smith/config.kdl:3"),
        "{listed:?}"
    );
}

#[test]
fn declared_entries_that_cannot_work_are_refused_naming_file_line_and_key() {
    for (block, says) in [
        (
            "mcp {\n  server \"x\" {\n    cwd \"tools\"\n  }\n}\n",
            "config.kdl:3: mcp.server.x.command: MCP server `x`: it has neither a command",
        ),
        (
            "mcp {\n  server \"x\" {\n    command \"a\"\n    url \"http://127.0.0.1:9/mcp\"\n  }\n}\n",
            "mcp.server.x.url: MCP server `x`: it has both a command and a url",
        ),
        (
            "mcp {\n  server \"a_b\" {\n    command \"a\"\n  }\n}\n",
            "`a_b` cannot name an MCP server",
        ),
        (
            "mcp {\n  server \"list\" {\n    command \"a\"\n  }\n}\n",
            "`list` cannot name an MCP server",
        ),
        (
            "mcp {\n  server \"gh\" {\n    command \"a\"\n  }\n  server \"GH\" {\n    command \"b\"\n  }\n}\n",
            "differ only in case",
        ),
        (
            "mcp {\n  server \"x\" {\n    command \"a\"\n    headers { X-A \"1\" }\n  }\n}\n",
            "headers go with a url",
        ),
        (
            "mcp {\n  server \"x\" {\n    comand \"a\"\n  }\n}\n",
            "mcp.server.x.comand",
        ),
        (
            "mcp {\n  server \"x\" {\n    command \"a\" \"b\"\n  }\n}\n",
            "takes one value, not 2",
        ),
        (
            "mcp {\n  server \"x\" {\n    url \"ftp://example.com/\"\n  }\n}\n",
            "mcp.server.x.url",
        ),
        (
            "mcp {\n  server \"x\" {\n    url \"http://127.0.0.1:9/mcp\"\n    headers { Host \"evil\" }\n  }\n}\n",
            "config.kdl:4: mcp.server.x.headers.Host: header `Host` is set by Smith itself",
        ),
    ] {
        let client = Client::new();
        configure(&client, block);
        let out = client.env.run(&["mcp", "list"]);
        assert_eq!(out.status.code(), Some(2), "{block}: {}", stdout(&out));
        assert!(stderr(&out).contains(says), "{block}: {}", stderr(&out));
        // A run refuses it the same way, before any turn.
        let out = client.turn(&[]);
        assert_eq!(out.status.code(), Some(2), "{block}: {}", stdout(&out));
        assert!(stderr(&out).contains(says), "{block}: {}", stderr(&out));
    }
}

#[test]
fn declaring_an_http_server_allows_its_host_to_the_client_and_no_other() {
    let Some(python) = crate::over_http::python() else {
        return;
    };
    let client = Client::new();
    let served = crate::over_http::Served::start(&client, &python, "json", 0);
    configure(
        &client,
        &format!(
            "mcp {{\n    server \"weather\" {{\n        url \"{}\"\n        headers {{ X-Team \"core\" }}\n    }}\n}}\n",
            served.url()
        ),
    );
    let out = client.turn(&[("mcp__weather__weather", serde_json::json!({"city": "Oslo"}))]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    assert!(
        ends[0]["output"].as_str().unwrap().contains("Oslo"),
        "{ends:?}"
    );
    // Nothing was written to the configuration: declaring it was the consent.
    let config = std::fs::read_to_string(client.env.home().join("config.kdl")).unwrap();
    assert!(!config.contains("net.allow"), "{config}");
    let listed = client.mcp_list();
    assert_eq!(listed[0]["transport"], "http", "{listed:?}");
    assert_eq!(listed[0]["headers"], serde_json::json!(["X-Team"]));
}

#[test]
fn a_projects_server_replaces_the_users_whole_and_never_gets_its_widening() {
    let client = Client::new();
    configure(
        &client,
        "mcp {\n  server \"gh\" {\n    command \"gh-mcp\"\n    env { GH_TOKEN \"secret-value\" }\n    network \"allow\"\n  }\n}\n",
    );
    std::fs::create_dir(client.work.join(".smith")).unwrap();
    std::fs::write(
        client.work.join(".smith/config.kdl"),
        "mcp {\n  server \"gh\" {\n    command \"./project-tool\"\n  }\n}\n",
    )
    .unwrap();
    let get = |client: &Client| {
        let mut cmd = client.env.command(&["mcp", "get", "gh", "--json"]);
        cmd.current_dir(&client.work);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        records(&out).remove(0)
    };
    // Untrusted: the user's.
    let mine = get(&client);
    assert_eq!(mine["command"], "gh-mcp");
    assert_eq!(mine["env"], serde_json::json!(["GH_TOKEN"]));
    assert_eq!(mine["network"], true);
    let mut trust = client.env.command(&["trust"]);
    trust.current_dir(&client.work);
    assert!(trust.output().unwrap().status.success());
    // Trusted: the project's, whole — not the user's variable, not the user's network.
    let theirs = get(&client);
    assert_eq!(theirs["command"], "./project-tool", "{theirs}");
    assert_eq!(theirs["env"], serde_json::json!([]), "{theirs}");
    assert_eq!(theirs["network"], false, "{theirs}");
    assert!(
        theirs["declared_in"]
            .as_str()
            .unwrap()
            .ends_with(".smith/config.kdl:3"),
        "{theirs}"
    );
}

#[test]
fn a_declared_name_like_an_added_one_but_for_case_is_refused_and_remove_takes_only_the_added() {
    let client = Client::new();
    client.add("GH", &[], &["true"]);
    configure(
        &client,
        "mcp {\n  server \"gh\" {\n    command \"a\"\n  }\n}\n",
    );
    let out = client.env.run(&["mcp", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("`gh` differs only in case from `GH`"),
        "{}",
        stderr(&out)
    );
    let out = client.turn(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("differs only in case"),
        "{}",
        stderr(&out)
    );
    // The same name exactly: the declared one is used; removing takes the added one only.
    let out = client.env.run(&["mcp", "remove", "GH"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let config = client.env.home().join("config.kdl");
    let declared = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, "").unwrap();
    client.add("gh", &[], &["true"]);
    std::fs::write(&config, declared).unwrap();
    let listed = client.mcp_list();
    assert_eq!(listed[0]["command"], "a", "{listed:?}");
    let out = client.env.run(&["mcp", "remove", "gh"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("the one declared in") && stdout(&out).contains("is used"),
        "{}",
        stdout(&out)
    );
    let listed = client.mcp_list();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["command"], "a");
    let out = client.env.run(&["mcp", "remove", "gh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("change it there"), "{}", stderr(&out));
}

/// A project declaring a server of an added one's name uses its own there; elsewhere the
/// added one keeps its listing — sessions in both places do not make each other list again.
#[cfg(unix)]
#[test]
fn a_server_a_project_replaces_keeps_its_listing_for_the_sessions_elsewhere() {
    let client = Client::new();
    std::fs::write(client.work.join("notes.txt"), "elsewhere\n").unwrap();
    let home = client.work.join(".inner");
    let flags = ["--env".to_owned(), format!("SMITH_HOME={}", home.display())];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    client.add("inner", &flags, &[env!("CARGO_BIN_EXE_smith"), "mcp"]);
    let project = client.work.join("project");
    std::fs::create_dir_all(project.join(".smith")).unwrap();
    std::fs::write(project.join("notes.txt"), "in the project\n").unwrap();
    std::fs::write(
        project.join(".smith/config.kdl"),
        format!(
            "mcp {{\n  server \"inner\" {{\n    command \"{}\"\n    args \"mcp\"\n    env {{ SMITH_HOME \"{}\" }}\n  }}\n}}\n",
            env!("CARGO_BIN_EXE_smith"),
            project.join(".inner").display()
        ),
    )
    .unwrap();
    let mut trust = client.env.command(&["trust"]);
    trust.current_dir(&project);
    assert!(trust.output().unwrap().status.success());
    let script = client.script(
        "read.kdl",
        &[("mcp__inner__read", serde_json::json!({"path": "notes.txt"}))],
    );
    let turn = |dir: &std::path::Path| {
        let mut cmd = client.eval(&script);
        cmd.current_dir(dir);
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let mut get = client.env.command(&["sessions", "get", "last"]);
        get.current_dir(dir);
        (tool_ends(&out), stdout(&get.output().unwrap()))
    };
    let (ends, first) = turn(&client.work);
    assert!(
        ends[0]["output"].as_str().unwrap().contains("elsewhere"),
        "{ends:?}"
    );
    assert!(first.contains("discover/1 process.start"), "{first}");
    let (ends, _) = turn(&project);
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .contains("in the project"),
        "{ends:?}"
    );
    // Back outside: the added server's listing was kept, so nothing is listed again.
    let (ends, again) = turn(&client.work);
    assert!(
        ends[0]["output"].as_str().unwrap().contains("elsewhere"),
        "{ends:?}"
    );
    assert!(!again.contains("discover/"), "{again}");
}
