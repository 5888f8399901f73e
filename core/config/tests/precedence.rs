//! The seven-level precedence and provenance (spec SMH-SPEC-SPEC0001: Plugin system and
//! configuration → Configuration).

use smith_config::{ConfigError, Level, Origin, Resolver, Value, parse_file};

/// Build a resolver where the first `levels` of the seven levels each set `run.max-rounds`
/// to their own level number (1 = product default keeps 64).
fn layered(levels: usize) -> Resolver {
    let mut r = Resolver::with_defaults();
    let plugin = |id: &str| Origin::Plugin { id: id.into() };
    if levels >= 2 {
        r.add_text(
            Level::PluginDefault,
            plugin("bundled"),
            "run.max-rounds",
            "2",
        )
        .unwrap();
    }
    if levels >= 3 {
        r.add_text(
            Level::PluginContribution,
            plugin("extra"),
            "run.max-rounds",
            "3",
        )
        .unwrap();
    }
    if levels >= 4 {
        let entries = parse_file("\n\nrun {\n  max-rounds 4\n}\n", "user.kdl").unwrap();
        r.add_file(Level::User, "user.kdl", &entries).unwrap();
    }
    if levels >= 5 {
        let entries = parse_file("run.max-rounds 5\n", "project.kdl").unwrap();
        r.add_file(Level::Project, "project.kdl", &entries).unwrap();
    }
    if levels >= 6 {
        r.add_env(|var| (var == "SMITH_MAX_ROUNDS").then(|| "6".to_owned()))
            .unwrap();
    }
    if levels >= 7 {
        r.add_override("run.max-rounds=7").unwrap();
    }
    r
}

#[test]
fn each_level_overrides_every_lower_one_and_reports_its_source() {
    let expected_sources = [
        "default",
        "plugin bundled (default)",
        "plugin extra",
        "user.kdl:4",
        "project.kdl:1",
        "environment SMITH_MAX_ROUNDS",
        "flag -c run.max-rounds=7",
    ];
    for levels in 1..=7 {
        let resolved = layered(levels).resolve();
        let v = resolved.get("run.max-rounds").unwrap();
        let want = if levels == 1 { 64 } else { levels as i64 };
        assert_eq!(v.value, Value::Integer(want), "with {levels} levels");
        assert_eq!(v.source.to_string(), expected_sources[levels - 1]);
        assert_eq!(
            v.overridden.len(),
            levels - 1,
            "every lower level is listed as overridden"
        );
    }
}

#[test]
fn order_of_adding_does_not_matter_only_levels_do() {
    let mut r = Resolver::default();
    r.add_override("model=scripted/flag").unwrap();
    let entries = parse_file("model \"scripted/user\"\n", "u.kdl").unwrap();
    r.add_file(Level::User, "u.kdl", &entries).unwrap();
    let resolved = r.resolve();
    assert_eq!(
        resolved.get("model").unwrap().value,
        Value::String("scripted/flag".into())
    );
}

#[test]
fn invalid_values_name_their_source_and_field() {
    let entries = parse_file("run {\n  max-rounds \"many\"\n}\n", "user.kdl").unwrap();
    let e = Resolver::default()
        .add_file(Level::User, "user.kdl", &entries)
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("user.kdl:2: `run.max-rounds` = `many` is invalid"),
        "{text}"
    );
    assert!(text.contains("for example: run.max-rounds 32"), "{text}");

    let e = Resolver::default()
        .add_env(|v| (v == "SMITH_MODEL").then(|| "nomodel/".into()))
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("environment SMITH_MODEL: `model`"),
        "{e}"
    );

    let e = Resolver::default()
        .add_override("provider.x.base-url=ftp://x")
        .unwrap_err();
    assert!(e.to_string().contains("http:// or https://"), "{e}");

    // User information in a URL is refused and never repeated.
    let e = Resolver::default()
        .add_override("provider.x.base-url=https://me:hunter2@proxy.example/v1")
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("no user name or password") && !text.contains("hunter2"),
        "{text}"
    );
    assert!(text.contains("https://…@proxy.example/v1"), "{text}");
}

#[test]
fn unknown_keys_follow_the_policy() {
    let e = Resolver::default()
        .add_override("modle=scripted/demo")
        .unwrap_err();
    assert!(matches!(e, ConfigError::Unknown { .. }));
    assert!(
        e.to_string().contains("`modle`") && e.to_string().contains("did you mean model"),
        "{e}"
    );
    // A key nobody declares never has its value repeated: it may be a misplaced secret.
    let e = Resolver::default()
        .add_override("provider.anthropic.api-key=sk-ant-canary-1234")
        .unwrap_err();
    assert!(matches!(e, ConfigError::Unknown { .. }));
    assert!(
        !e.to_string().contains("canary") && e.to_string().contains("provider.anthropic.api-key"),
        "{e}"
    );
    let e = Resolver::default().add_override("no-equals").unwrap_err();
    assert!(e.to_string().contains("KEY=VALUE"), "{e}");
    // The plugin namespace is preserved for the plugins that declare it.
    let mut r = Resolver::default();
    r.add_override("plugin.lint.level=strict").unwrap();
    assert_eq!(
        r.resolve().get("plugin.lint.level").unwrap().value,
        Value::String("strict".into())
    );
}

#[test]
fn later_entries_win_within_a_level() {
    let entries = parse_file("model \"a/one\"\nmodel \"a/two\"\n", "u.kdl").unwrap();
    let mut r = Resolver::default();
    r.add_file(Level::User, "u.kdl", &entries).unwrap();
    let resolved = r.resolve();
    let v = resolved.get("model").unwrap();
    assert_eq!(v.value, Value::String("a/two".into()));
    assert_eq!(v.source.to_string(), "u.kdl:2");
}

#[test]
fn plugins_declare_options_the_same_way_and_contribute_at_their_levels() {
    use smith_config::{PluginOption, Type};
    let mut r = Resolver::with_defaults();
    r.declare_plugin_option(PluginOption {
        plugin: "lint".into(),
        name: "max-warnings".into(),
        ty: Type::Integer { min: 0, max: 100 },
        default: Some("10".into()),
        doc: "How many warnings to show.".into(),
        example: "5".into(),
    })
    .unwrap();
    // The declared type now validates every layer's value for that key.
    let e = r.add_override("plugin.lint.max-warnings=lots").unwrap_err();
    assert!(
        e.to_string().contains("-c plugin.lint.max-warnings=5"),
        "{e}"
    );
    let resolved = r.resolve();
    let v = resolved.get("plugin.lint.max-warnings").unwrap();
    assert_eq!(v.value, Value::Integer(10));
    assert_eq!(v.source.to_string(), "plugin lint (default)");

    let mut r = Resolver::default();
    let bad = PluginOption {
        plugin: "lint".into(),
        name: "Bad Name".into(),
        ty: Type::Bool,
        default: None,
        doc: String::new(),
        example: "true".into(),
    };
    assert!(r.declare_plugin_option(bad).is_err());
}
