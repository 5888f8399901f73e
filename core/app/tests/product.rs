//! The product layer composed from real components — the bundled product plugin and a rival
//! whose contributions clash or are malformed — and real configuration files: what wins, what
//! is reported, and what a bad setting gets.

use smith_app::product::wit::{BindingTarget, Intent, KeyAction, Verb};
use smith_app::product::{CommandError, KeySpec, Origin, Outcome, ProductLayer};
use smith_config::{Level, Resolver, parse_file};
use smith_host::{CompileCache, Host, Limits, PluginSource};

fn source(p: &'static smith_plugins::BundledPlugin) -> PluginSource<'static> {
    PluginSource::new(p.origin, p.manifest, p.component)
}

fn bundled_product() -> &'static smith_plugins::BundledPlugin {
    smith_plugins::BUNDLED
        .iter()
        .find(|b| b.origin.starts_with("bundled:product/"))
        .expect("the product plugin is bundled")
}

/// The bundled product plugin, then the rival, loaded as the host loads them.
fn host(with_rival: bool) -> Host {
    let mut sources = vec![source(bundled_product())];
    if with_rival {
        sources.push(source(&smith_plugins::PRODUCT_RIVAL));
    }
    Host::load(&sources, &CompileCache::new(None), Limits::default()).expect("they load")
}

fn built_in() -> Vec<(KeySpec, KeyAction)> {
    [
        ("Enter", KeyAction::Submit),
        ("Ctrl+C", KeyAction::Interrupt),
    ]
    .iter()
    .map(|(k, a)| (KeySpec::parse(k).unwrap(), *a))
    .collect()
}

/// Settings from a configuration file's text.
fn settings(text: &str) -> smith_config::Resolved {
    let mut r = Resolver::with_defaults();
    let entries = parse_file(text, "/home/u/config.kdl").expect("the file parses");
    r.add_file(Level::User, "/home/u/config.kdl", &entries)
        .expect("the values are valid");
    r.resolve()
}

fn compose(
    with_rival: bool,
    config: &str,
) -> Result<ProductLayer, smith_app::product::ConfigError> {
    ProductLayer::compose(
        &host(with_rival).loadout(),
        &built_in(),
        &settings(config),
        Vec::new(),
    )
}

#[test]
fn the_bundled_layer_has_smiths_commands_first_then_the_plugins_keys_and_themes() {
    let layer = compose(false, "").unwrap();
    assert!(layer.notices.is_empty(), "{:?}", layer.notices);
    let names: Vec<&str> = layer.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        &names[..6],
        [
            "new",
            "attach",
            "plugins",
            "plugin-enable",
            "plugin-disable",
            "quit"
        ]
    );
    for name in [
        "model", "compact", "undo", "redo", "restore", "help", "theme",
    ] {
        let c = layer.command(name).unwrap_or_else(|| panic!("/{name}"));
        assert_eq!(c.plugin.as_deref(), Some("product"));
    }
    let steer = KeySpec::parse("Ctrl+S").unwrap();
    assert!(matches!(
        layer.binding(&steer),
        Some(BindingTarget::Key(KeyAction::Steer))
    ));
    let names: Vec<&str> = layer.themes.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["dark", "light", "none"]);
    assert_eq!(
        layer.theme.as_deref(),
        Some("dark"),
        "tui.theme defaults to dark"
    );
}

#[test]
fn the_light_theme_writes_no_text_in_the_colours_a_white_background_hides() {
    use smith_app::product::Colour;
    let layer = compose(false, "").unwrap();
    let light = layer.theme_named("light").unwrap();
    // ANSI 7 and 15 and the light greys of the 256 colours are near white.
    let faint = |c: &Colour| match c {
        Colour::Named(name) => {
            matches!(*name, "gray" | "white" | "dark-gray") || name.starts_with("light-")
        }
        Colour::Indexed(i) => matches!(i, 7 | 8 | 15 | 244..=255),
        Colour::Rgb(r, g, b) => u16::from(*r) + u16::from(*g) + u16::from(*b) > 3 * 160,
    };
    for (key, style) in &light.styles {
        if let (Some(fg), None) = (&style.fg, &style.bg) {
            assert!(
                !faint(fg),
                "light theme `{key}`: {fg:?} on white cannot be read"
            );
        }
    }
}

#[test]
fn a_second_plugins_clashes_are_reported_naming_the_winner_and_bad_contributions_skipped() {
    let layer = compose(true, "").unwrap();
    let notices = layer.notices.join("\n");
    for expected in [
        "plugin product-rival: command `/compact` is not registered: plugin product has it",
        "plugin product-rival: command `bad-model`: its arguments do not fit what it does",
        "command name `Bad Name` is not lowercase",
        "plugin product-rival: Ctrl+S is not bound to /rival: plugin product binds it to steer",
        "plugin product-rival: Enter is not bound to help: built in binds it to submit (built-in keys are not rebound)",
        "`Hyper+Q` is not a key",
        "Ctrl+B is bound to `/nobody`, which no enabled plugin offers",
        "plugin product-rival: theme `dark` is not registered: plugin product has it",
        "theme `broken`: `statusbar` is not a theme key",
    ] {
        assert!(
            notices.contains(expected),
            "missing {expected:?} in:\n{notices}"
        );
    }
    // The winners keep what they hold; the rival's fine contributions are in.
    let compact = layer.command("compact").unwrap();
    assert_eq!(compact.plugin.as_deref(), Some("product"));
    assert!(layer.command("rival").is_some());
    let ctrl_s = KeySpec::parse("Ctrl+S").unwrap();
    assert!(matches!(
        layer.binding(&ctrl_s),
        Some(BindingTarget::Key(KeyAction::Steer))
    ));
    let ctrl_y = KeySpec::parse("Ctrl+Y").unwrap();
    assert!(matches!(layer.binding(&ctrl_y), Some(BindingTarget::Command(c)) if c == "rival"));
    assert!(layer.theme_named("rival").is_some());
    assert_eq!(layer.theme_named("dark").unwrap().source, "plugin product");
}

#[test]
fn the_users_bindings_win_over_plugins_and_themes_come_from_configuration() {
    let layer = compose(
        true,
        r#"
keys {
    "Ctrl+S" "/rival"
    "Ctrl+Y" "none"
    "F5" "help"
}
theme {
    mine {
        base "light"
        status "black on #ff8800 bold"
    }
    dark {
        status "white on blue"
    }
}
tui { theme "mine"; layout "status-top"; }
"#,
    )
    .unwrap();
    let key = |k| KeySpec::parse(k).unwrap();
    let ctrl_s = layer
        .bindings
        .iter()
        .find(|b| b.key == key("Ctrl+S"))
        .unwrap();
    assert!(matches!(&ctrl_s.target, BindingTarget::Command(c) if c == "rival"));
    assert!(matches!(&ctrl_s.origin, Origin::Config(s) if s == "/home/u/config.kdl:3"));
    assert!(layer.binding(&key("Ctrl+Y")).is_none(), "`none` unbinds");
    assert!(matches!(
        layer.binding(&key("F5")),
        Some(BindingTarget::Key(KeyAction::Help))
    ));
    let mine = layer.theme_named("mine").unwrap();
    assert_eq!(
        smith_app::product::style_words(&mine.styles["status"]),
        "black on #ff8800 bold"
    );
    assert_eq!(
        mine.styles["user"],
        layer.theme_named("light").unwrap().styles["user"],
        "keys it does not set come from its base"
    );
    assert_eq!(
        smith_app::product::style_words(&layer.theme_named("dark").unwrap().styles["status"]),
        "white on blue",
        "a plugin's theme changed by configuration"
    );
    assert_eq!(layer.theme.as_deref(), Some("mine"));
    assert_eq!(layer.layout, smith_app::product::wit::Layout::StatusTop);
}

#[test]
fn bad_product_settings_name_their_file_line_and_key() {
    for (config, key, line, words) in [
        (
            "keys { \"Enter\" \"help\"; }",
            "keys.Enter",
            1,
            "built into the terminal UI",
        ),
        (
            "keys { \"Ctrl+Q\" \"bogus\"; }",
            "keys.Ctrl+Q",
            1,
            "not an action",
        ),
        (
            "keys { \"Hyper+Q\" \"help\"; }",
            "keys.Hyper+Q",
            1,
            "unknown modifier",
        ),
        (
            "\ntheme { mine { stauts \"red\"; }; }",
            "theme.mine.stauts",
            2,
            "did you mean status",
        ),
        (
            "theme { mine { status \"red blue\"; }; }",
            "theme.mine.status",
            1,
            "second foreground colour",
        ),
        (
            "theme { mine { base \"nope\"; }; }",
            "theme.mine.base",
            1,
            "no theme `nope`",
        ),
        (
            "tui { theme \"nope\"; }",
            "tui.theme",
            1,
            "known: dark, light, none",
        ),
    ] {
        let e = compose(false, config).expect_err(config);
        assert_eq!(e.key, key, "{config}");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("/home/u/config.kdl:{line}: setting `{key}`"))
                && text.contains(words),
            "{config}: {text}"
        );
    }
}

#[test]
fn a_users_theme_may_start_from_another_and_a_binding_to_a_missing_command_is_skipped() {
    let layer = compose(
        false,
        "keys { \"Ctrl+Q\" \"/compcat\"; }\ntheme {\n a { base \"b\"; user \"red\"; }\n b { base \"light\"; status \"black on yellow\"; }\n}\n",
    )
    .unwrap();
    let a = layer.theme_named("a").unwrap();
    let words = |k: &str| smith_app::product::style_words(&a.styles[k]);
    assert_eq!(words("user"), "red", "its own");
    assert_eq!(words("status"), "black on yellow", "from its base b");
    assert_eq!(
        a.styles["heading"],
        layer.theme_named("light").unwrap().styles["heading"],
        "from b's base, light"
    );
    let notices = layer.notices.join("\n");
    assert!(
        notices.contains("setting `keys.Ctrl+Q` binds `/compcat`, which no enabled plugin or prompt command registers (did you mean /compact?); the binding is skipped"),
        "{notices}"
    );
    // With the product plugin's commands gone (disabled), a binding to one is skipped, not
    // fatal: the UI still starts.
    let bare = ProductLayer::compose(
        &Host::load(&[], &CompileCache::new(None), Limits::default())
            .unwrap()
            .loadout(),
        &built_in(),
        &settings("keys { \"Ctrl+Y\" \"/compact\"; }"),
        Vec::new(),
    )
    .unwrap();
    assert!(
        bare.notices.iter().any(|n| n.contains("/compact")),
        "{:?}",
        bare.notices
    );
}

#[test]
fn command_lines_parse_against_their_declarations_and_come_to_their_outcomes() {
    let host = host(true);
    let loadout = host.loadout();
    let layer = ProductLayer::compose(&loadout, &built_in(), &settings(""), Vec::new()).unwrap();
    let outcome = |line: &str| {
        layer
            .parse_line(line)
            .unwrap()
            .outcome(&loadout, None)
            .unwrap()
    };
    assert!(matches!(
        outcome("/model opus high"),
        Outcome::Verb(Verb::SetModel((m, Some(t)))) if m == "opus" && t == "high"
    ));
    assert!(matches!(
        outcome("/undo --turn"),
        Outcome::Verb(Verb::Undo(true))
    ));
    assert!(matches!(
        outcome("/compact keep the API   design"),
        Outcome::Verb(Verb::Compact(Some(f))) if f == "keep the API   design"
    ));
    assert!(matches!(outcome("/help"), Outcome::Key(KeyAction::Help)));
    // A handler command runs in the plugin and comes back as intents.
    let Outcome::Intents(intents) = outcome("/rival loud") else {
        panic!("intents")
    };
    assert!(matches!(&intents[0], Intent::Notice((_, t)) if t == "rival says loud"));
    assert!(matches!(&intents[1], Intent::Run(Verb::Undo(false))));
    let Outcome::Intents(themed) = outcome("/theme light") else {
        panic!("intents")
    };
    assert!(matches!(&themed[0], Intent::SetTheme(t) if t == "light"));
    // Refusals name what is wrong.
    assert!(matches!(
        layer.parse_line("/modle x"),
        Err(CommandError::Unknown { near, .. }) if near.contains(&"model".to_owned())
    ));
    assert!(matches!(
        layer.parse_line("/model"),
        Err(CommandError::Missing { argument, .. }) if argument == "model"
    ));
    let e = layer
        .parse_line("/model opus loud")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not a thinking level") && e.contains("usage: /model MODEL [THINKING]"),
        "{e}"
    );
    let e = layer.parse_line("/undo --all").unwrap_err().to_string();
    assert!(e.contains("no flag `--all`"), "{e}");
    let e = layer.parse_line("/redo now").unwrap_err().to_string();
    assert!(e.contains("one argument too many"), "{e}");
    let e = layer
        .parse_line("/layout sideways")
        .unwrap()
        .outcome(&loadout, None)
        .unwrap_err();
    assert!(
        matches!(&e, smith_app::product::OutcomeError::Run { command, .. } if command == "layout"),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("not a layout") && e.contains("product"), "{e}");
    // Named arguments, as commands.run gives them.
    let args = serde_json::json!({"turn": true});
    let i = layer.parse_json("undo", args.as_object().unwrap()).unwrap();
    assert!(matches!(
        i.outcome(&loadout, None).unwrap(),
        Outcome::Verb(Verb::Undo(true))
    ));
    let args = serde_json::json!({"turn": "yes"});
    assert!(layer.parse_json("undo", args.as_object().unwrap()).is_err());
}

#[test]
fn prompt_commands_take_words_as_typed_bind_to_keys_and_replace_bundled_ones_quietly() {
    use smith_app::product::prompts::{PromptOrigin, discover, parse};
    let deploy = parse(
        "deploy",
        "Deploy $1 with $2, all: $ARGUMENTS",
        PromptOrigin::Bundled,
    )
    .unwrap();
    let layer = ProductLayer::compose(
        &host(false).loadout(),
        &built_in(),
        &settings("keys { \"Ctrl+Y\" \"/deploy\"; }"),
        vec![deploy],
    )
    .unwrap();
    assert!(layer.notices.is_empty(), "{:?}", layer.notices);
    // A key binds a prompt command like any other.
    assert!(matches!(
        layer.binding(&KeySpec::parse("Ctrl+Y").unwrap()),
        Some(BindingTarget::Command(name)) if name == "deploy"
    ));
    // `--prod` is a word of the text: the command declares no flags.
    let invocation = layer.parse_line("/deploy --prod #42 now").unwrap();
    match invocation.outcome_without_plugins().unwrap() {
        Outcome::Prompt { text, model } => {
            assert_eq!(text, "Deploy --prod with #42, all: --prod #42 now");
            assert_eq!(model, None);
        }
        other => panic!("{other:?}"),
    }
    // A flag of a command that declares flags is still a flag.
    assert!(layer.parse_line("/undo --nosuch").is_err());
    // A hint whose first word is not in brackets makes the text needed: run bare, the
    // command is refused (the palette puts it in place) rather than sent with holes.
    let mut fix = parse(
        "fix",
        "---\nargument-hint: ISSUE [AREA]\n---\nFix #$1 in $2",
        PromptOrigin::Bundled,
    )
    .unwrap();
    let mut layer = ProductLayer::built_in_only(&built_in());
    layer.add_prompts(vec![fix.clone()]);
    assert!(matches!(
        layer.parse_line("/fix"),
        Err(CommandError::Missing { .. })
    ));
    assert!(layer.parse_line("/fix 12").is_ok());
    fix.name = "look".into();
    fix.argument_hint = Some("[FOCUS]".into());
    layer.add_prompts(vec![fix]);
    assert!(layer.parse_line("/look").is_ok());

    // The user's init.md is /init, the bundled one giving way without a notice.
    let home = tempfile::tempdir().unwrap();
    let commands = home.path().join("commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(commands.join("init.md"), "My own init.").unwrap();
    let home_text = home.path().as_os_str().to_owned();
    let paths =
        smith_app::Paths::from_vars(|name| (name == "SMITH_HOME").then(|| home_text.clone()));
    let (found, notices) = discover(&paths, home.path());
    assert!(notices.is_empty(), "{notices:?}");
    let init: Vec<_> = found.iter().filter(|c| c.name == "init").collect();
    assert_eq!(init.len(), 1);
    assert_eq!(init[0].body, "My own init.");
    assert!(
        found
            .iter()
            .any(|c| c.name == "review" && c.origin == PromptOrigin::Bundled)
    );
}
