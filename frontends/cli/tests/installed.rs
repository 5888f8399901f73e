//! `smith plugins install` and `uninstall`: a plugin a user built, checked before anything is
//! written, recorded with its component's SHA-256, loaded by every later process while the
//! component keeps that digest; and the product settings `smith config check` verifies.
#![allow(unreachable_pub)]

mod common;

use common::{Env, stderr, stdout};

fn listed(env: &Env) -> Vec<serde_json::Value> {
    stdout(&env.run(&["plugins", "list", "--json"]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_installed_plugin_loads_while_its_component_is_the_one_recorded() {
    let env = Env::new();
    let rival = &smith_plugins::PRODUCT_RIVAL;
    let dir = env.plugin_project("rival", rival.manifest, rival.component);
    let out = env.run(&["plugins", "install", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("installed plugin product-rival 0.1.0 (product-plugin@1.9.0)")
            && text.contains("component SHA-256"),
        "{text}"
    );
    let plugins = listed(&env);
    let installed = plugins.iter().find(|p| p["id"] == "product-rival").unwrap();
    assert_eq!(installed["state"], "active");
    assert!(
        installed["origin"]
            .as_str()
            .unwrap()
            .starts_with("installed:")
    );
    // Its commands are offered: the palette's listing over JSON-RPC would show /rival.
    // A changed component is not loaded, and every command says so.
    let wasm = env.home().join("plugins/product-rival/plugin.wasm");
    let mut bytes = std::fs::read(&wasm).unwrap();
    bytes.push(0);
    std::fs::write(&wasm, bytes).unwrap();
    let out = env.run(&["plugins", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let warning = stderr(&out);
    assert!(
        warning.contains("installed plugin `product-rival` is not loaded: its component changed since it was installed"),
        "{warning}"
    );
    assert!(
        stdout(&out)
            .contains("product-rival  refused: installed plugin `product-rival` is not loaded"),
        "listed as refused, not active: {}",
        stdout(&out)
    );
    let refused = listed(&env);
    let record = refused.iter().find(|p| p["id"] == "product-rival").unwrap();
    assert_eq!(record["state"], "refused", "{record}");
    // A grant added to the installed manifest is a change to what was trusted, too.
    let out = env.run(&["plugins", "install", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kdl = env.home().join("plugins/product-rival/plugin.kdl");
    let widened = std::fs::read_to_string(&kdl).unwrap().replace(
        "world \"product-plugin@1.9.0\"",
        "world \"product-plugin@1.9.0\"\n    grant \"process.exec\"",
    );
    std::fs::write(&kdl, widened).unwrap();
    let out = env.run(&["plugins", "list", "--json"]);
    assert!(
        stderr(&out).contains(
            "its manifest (what it is granted and contributes) changed since it was installed"
        ),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("\"state\":\"refused\""),
        "{}",
        stdout(&out)
    );
    // Installing again trusts the new bytes (here: the original again).
    let out = env.run(&["plugins", "install", dir.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("replaced plugin product-rival"),
        "{}",
        stdout(&out)
    );
    assert!(listed(&env).iter().any(|p| p["id"] == "product-rival"));
    // Uninstalled, it is gone; twice, or a bundled plugin, is refused with the way out.
    let out = env.run(&["plugins", "uninstall", "product-rival"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!listed(&env).iter().any(|p| p["id"] == "product-rival"));
    assert!(!env.home().join("plugins/product-rival").exists());
    let again = env.run(&["plugins", "uninstall", "product-rival"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("no plugin `product-rival` is installed"));
    let bundled = env.run(&["plugins", "uninstall", "files"]);
    assert_eq!(bundled.status.code(), Some(2));
    assert!(
        stderr(&bundled).contains("--disable-plugin files"),
        "{}",
        stderr(&bundled)
    );
}

#[test]
fn a_plugin_that_is_not_installable_is_refused_and_nothing_is_written() {
    let env = Env::new();
    let rival = &smith_plugins::PRODUCT_RIVAL;
    let refused = |dir: &std::path::Path, words: &str| {
        let out = env.run(&["plugins", "install", dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{words}: {}", stderr(&out));
        assert!(stderr(&out).contains(words), "{words}: {}", stderr(&out));
        assert!(
            !env.home().join("plugins/installed.kdl").exists(),
            "nothing recorded"
        );
    };
    let empty = env.root.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(&empty, "cannot read the plugin manifest");
    let unbuilt = env.root.path().join("unbuilt");
    std::fs::create_dir_all(&unbuilt).unwrap();
    std::fs::write(unbuilt.join("plugin.kdl"), rival.manifest).unwrap();
    refused(
        &unbuilt,
        "build the plugin first (cargo build --target wasm32-wasip2 --release)",
    );
    let bundled_id = rival.manifest.replace("\"product-rival\"", "\"files\"");
    refused(
        &env.plugin_project("files", &bundled_id, rival.component),
        "`files` is a bundled plugin's id",
    );
    let provider = "plugin \"codec\" {\n    version \"0.1.0\"\n    world \"provider-plugin@1.9.0\"\n    provider \"codec\"\n    base-url \"https://example.invalid\"\n}\n";
    refused(
        &env.plugin_project("codec", provider, rival.component),
        "cannot be installed: installed plugins are",
    );
    // The manifest lists a tool the component does not define: it does not load.
    let lying = rival.manifest.replace(
        "world \"product-plugin@1.9.0\"",
        "world \"product-plugin@1.9.0\"\n    tool \"ghost\"",
    );
    refused(
        &env.plugin_project("lying", &lying, rival.component),
        "it does not load",
    );
}

#[test]
fn config_check_verifies_key_and_theme_settings_naming_file_line_and_key() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    std::fs::write(
        env.home().join("config.kdl"),
        "keys { \"Ctrl+Y\" \"/compact\"; }\ntheme {\n    mine {\n        stauts \"red\"\n    }\n}\n",
    )
    .unwrap();
    let out = env.run(&["config", "check"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let e = stderr(&out);
    assert!(
        e.contains("config.kdl:4: setting `theme.mine.stauts`")
            && e.contains("did you mean status"),
        "{e}"
    );
    std::fs::write(
        env.home().join("config.kdl"),
        "keys { \"Ctrl+Y\" \"/compact\"; }\ntheme { mine { status \"black on yellow\"; }; }\ntui { theme \"mine\"; }\n",
    )
    .unwrap();
    let out = env.run(&["config", "check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("the keys, themes, permission rules and hooks checked"),
        "{}",
        stdout(&out)
    );
}
