//! The product layer in a real terminal: the `/` palette over the registered commands, fuzzy
//! filtering, commands run from the palette and by their keys, a second plugin's clashing
//! binding reported and resolved (the first holder keeps it), the product plugin disabled
//! (only the built-in keys, Smith's own commands and the prompt commands remain), a theme from
//! configuration, and the user's Markdown prompt commands in the palette and run.

use smith_testkit::wait_until;

use crate::common::{Env, stderr};
use crate::pane::Pane;
use crate::quit;

/// Install the rival product plugin (test-guests/product-rival) into `env`'s Smith home, as a
/// user installs one they built.
fn install_rival(env: &Env) {
    let dir = env.root.path().join("rival");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("plugin.kdl"),
        smith_plugins::PRODUCT_RIVAL.manifest,
    )
    .unwrap();
    std::fs::write(
        dir.join("rival.wasm"),
        smith_plugins::PRODUCT_RIVAL.component,
    )
    .unwrap();
    let out = env.run(&[
        "plugins",
        "install",
        dir.to_str().unwrap(),
        "--component",
        dir.join("rival.wasm").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn slash_lists_the_commands_filters_them_and_runs_one_from_the_palette_and_by_its_key() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/");
    pane.wait_for_text("/model MODEL [THINKING]");
    let all = pane.screen();
    assert!(
        all.contains("/compact [FOCUS]") && all.contains("↑↓ choose"),
        "{all}"
    );
    // Fuzzy: `lyt` finds /layout and nothing unrelated.
    pane.type_text("lyt");
    pane.wait_for_text("/layout WHERE");
    wait_until("the palette to narrow", || {
        !pane.screen().contains("/model MODEL")
    });
    // Tab puts it in place; Enter runs it with its argument: the status line moves up.
    pane.keys(&["Tab"]);
    pane.wait_for_text("› /layout");
    pane.type_text("top");
    pane.keys(&["Enter"]);
    wait_until("the status line at the top", || {
        pane.screen()
            .lines()
            .next()
            .is_some_and(|l| l.contains("scripted/demo · idle"))
    });
    // By its key: Ctrl+P (the product plugin's binding) opens the palette; F1 (bound to the
    // help action a command also runs) opens the help with every command.
    pane.keys(&["C-p"]);
    pane.wait_for_text("↑↓ choose");
    pane.escape_until_gone("↑↓ choose");
    pane.keys(&["F1"]);
    pane.wait_for_text("Keys and commands");
    // The commands follow the keys: scroll to them.
    pane.keys(&["PageDown", "PageDown", "PageDown", "PageDown", "PageDown"]);
    pane.wait_for_text("/theme NAME");
    pane.escape_until_gone("Keys and commands");
    // A verb is carried out: with nothing to undo, the refusal says so.
    pane.type_text("/undo");
    pane.keys(&["Enter"]);
    pane.wait_for_text("has no change of the working tree to undo");
    // A mistyped command is not sent to the model; it says what it is near.
    pane.type_text("/compcat x");
    pane.keys(&["Enter"]);
    pane.wait_for_text("no command `/compcat` (did you mean /compact?)");
    quit(&pane);
    pane.assert_restored();
    // No command reached the model: no prompt was ever admitted, so no session was written.
    assert!(
        crate::session_file(&env).is_none(),
        "a command was sent as a prompt"
    );
}

#[test]
fn a_second_plugins_clashing_binding_is_reported_and_the_first_keeps_the_key() {
    let env = Env::new();
    install_rival(&env);
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.wait_for_text("Ctrl+S is not bound to /rival: plugin product binds it to steer");
    // The rival's own key runs its command: its handler's notice, then the verb it asked
    // for, carried out (nothing to undo here).
    pane.keys(&["C-y"]);
    pane.wait_for_text("rival says hi");
    pane.wait_for_text("has no change of the working tree to undo");
    // Ctrl+S stays the product plugin's steer: with nothing running, it sends the draft.
    pane.type_text("steered");
    pane.keys(&["C-s"]);
    pane.wait_for_text("› steered");
    pane.wait_for_text("You said:");
    quit(&pane);
    pane.assert_restored();
}

#[test]
fn with_the_product_plugin_disabled_only_the_built_in_keys_and_commands_remain() {
    let env = Env::new();
    let pane = Pane::start(
        &env,
        &["--model", "scripted/demo", "--disable-plugin", "product"],
        &[],
    );
    pane.wait_for_text("scripted/demo · idle");
    // F1 is the product plugin's: nothing opens. `/` lists Smith's own commands only.
    pane.keys(&["F1"]);
    pane.type_text("/");
    pane.wait_for_text("/plugin-enable PLUGIN");
    let s = pane.screen();
    assert!(
        !s.contains("Keys and commands") && !s.contains("/compact"),
        "{s}"
    );
    // Smith's own six and the two bundled prompt commands, which need no plugin.
    assert!(
        s.contains("/new") && s.contains("/quit") && s.contains("of 8"),
        "{s}"
    );
    // Typing, submit and the built-in scroll keys still work.
    pane.escape_until_gone("1 of 8");
    pane.type_text("still here");
    pane.keys(&["Enter"]);
    pane.wait_for_text("› still here");
    pane.wait_for_text("You said:");
    pane.keys(&["PageUp", "PageDown"]);
    quit(&pane);
    pane.assert_restored();
}

#[test]
fn a_theme_from_configuration_applies() {
    let env = Env::new();
    std::fs::create_dir_all(env.home()).unwrap();
    env.write(
        "home/config.kdl",
        "theme {\n    alarm {\n        base \"dark\"\n        status \"black on #ff0000 bold\"\n    }\n}\ntui { theme \"alarm\"; color \"truecolor\"; }\n",
    );
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    wait_until("the status line in the theme's red", || {
        pane.styled_screen()
            .lines()
            .any(|l| l.contains("scripted/demo") && l.contains("48;2;255;0;0"))
    });
    // /theme switches for this process: light's status line is not red.
    pane.type_text("/theme light");
    pane.keys(&["Enter"]);
    pane.wait_for_text("theme `light`");
    wait_until("the status line no longer red", || {
        pane.styled_screen()
            .lines()
            .any(|l| l.contains("scripted/demo") && !l.contains("48;2;255;0;0"))
    });
    quit(&pane);
    pane.assert_restored();
}

#[test]
fn slash_model_without_a_name_opens_the_model_picker_and_the_next_run_uses_the_choice() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/model");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MODEL of /model");
    pane.type_text("tool-c");
    pane.wait_for_text("1 of 1");
    pane.keys(&["Enter"]);
    pane.wait_for_text("scripted/tool-call · idle");
    pane.wait_for_text("model scripted/tool-call for the following runs");
    // The next run goes to the chosen model (its script reads README.md), and the session
    // records it.
    std::fs::write(env.root.path().join("README.md"), "# hello\n").unwrap();
    pane.type_text("Read it");
    pane.keys(&["Enter"]);
    pane.wait_for_text("read");
    pane.wait_for_text("scripted/tool-call · idle");
    quit(&pane);
    pane.assert_restored();
    let out = env.run(&["sessions", "list", "--json"]);
    let listed = crate::common::stdout(&out);
    assert!(
        listed.contains("\"last_model\":\"scripted/tool-call\""),
        "{listed}"
    );
}

#[test]
fn the_model_picker_marks_the_models_whose_provider_has_no_key() {
    let env = Env::new();
    let pane = Pane::start(
        &env,
        &["--model", "scripted/demo"],
        &[("ANTHROPIC_API_KEY", ""), ("OPENAI_API_KEY", "sk-test")],
    );
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/model");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MODEL of /model");
    pane.type_text("anthropic/claude-haiku-4");
    pane.wait_for_text("no key: set ANTHROPIC_API_KEY or run `smith auth set anthropic`");
    for _ in 0.."anthropic/claude-haiku-4".len() {
        pane.keys(&["BSpace"]);
    }
    // A provider with a key: its models are offered as usable, unmarked.
    pane.type_text("openai/gpt-4o");
    let screen = pane.wait_for_screen("only openai's models listed", |s| {
        s.contains("openai/gpt-4o") && !s.contains("anthropic/")
    });
    assert!(!screen.contains("no key"), "{screen}");
    pane.keys(&["Escape"]);
    quit(&pane);
}

#[test]
fn a_mistyped_command_stays_in_the_draft_and_theme_alone_offers_the_themes() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    // Mistyped: refused, saying what it is near, and the line is kept to be mended.
    pane.type_text("/compcat now");
    pane.keys(&["Enter"]);
    pane.wait_for_text("no command `/compcat`");
    pane.wait_for_text("› /compcat now");
    pane.keys(&["C-u"]);
    // `/theme` with no name: a picker of the themes; Enter uses the chosen one.
    pane.type_text("/theme");
    pane.keys(&["Enter"]);
    pane.wait_for_text("Themes");
    pane.wait_for_text("Colours for a light terminal background");
    pane.type_text("light");
    pane.keys(&["Enter"]);
    pane.wait_for_text("theme `light`");
    quit(&pane);
}

#[test]
fn with_catalog_refresh_on_the_model_picker_offers_what_a_local_server_lists() {
    let env = Env::new();
    let listing = r#"{"object":"list","data":[{"id":"granite-local.gguf","object":"model","owned_by":"llamacpp","meta":{"n_ctx_train":8192}}]}"#;
    let server =
        smith_ai::loopback::serve(vec![smith_ai::loopback::json_response("200 OK", listing)]);
    let base = format!("provider.openai-compatible.base-url={}/v1", server.url);
    let pane = Pane::start(
        &env,
        &[
            "--model",
            "scripted/demo",
            "-c",
            "catalog.refresh=true",
            "-c",
            &base,
        ],
        &[],
    );
    // Said once it arrives; the UI was usable before.
    pane.wait_for_text("catalog refresh: openai-compatible lists 1 model");
    let asked = String::from_utf8(server.request().unwrap()).unwrap();
    assert!(asked.starts_with("GET /v1/models"), "{asked}");
    pane.type_text("/model");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MODEL of /model");
    pane.type_text("granite");
    pane.wait_for_text("openai-compatible/granite-local.gguf");
    // Closed before Ctrl+C: an Esc and a Ctrl+C read together are one Alt+Ctrl+C.
    pane.escape_until_gone("MODEL of /model");
    quit(&pane);
    pane.assert_restored();
    // Kept for later commands.
    let out = env.run(&["models", "--json", "-c", &base]);
    assert!(
        crate::common::stdout(&out).contains("\"id\":\"granite-local.gguf\""),
        "{}",
        crate::common::stdout(&out)
    );
}

#[test]
fn a_markdown_prompt_command_is_in_the_palette_and_sends_its_text_with_the_arguments() {
    let env = Env::new();
    let commands = env.home().join("commands");
    std::fs::create_dir_all(&commands).unwrap();
    std::fs::write(
        commands.join("fix.md"),
        "---\ndescription: Fix an issue carefully\nargument-hint: ISSUE\n---\nFix issue $1 carefully.\n",
    )
    .unwrap();
    std::fs::write(
        commands.join("quick.md"),
        "---\nmodel: scripted/tool-call\n---\nQuick: $ARGUMENTS\n",
    )
    .unwrap();
    std::fs::write(commands.join("broken.md"), "---\nmodel\n---\nx\n").unwrap();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    // The broken file is named with its line.
    pane.wait_for_text("broken.md:2 is skipped");
    pane.type_text("/fi");
    pane.wait_for_text("/fix ISSUE");
    pane.wait_for_text("Fix an issue carefully");
    pane.keys(&["C-u"]);
    pane.type_text("/fix 42");
    pane.keys(&["Enter"]);
    // The text with the argument put in is the message; the model answers it.
    pane.wait_for_text("› Fix issue 42 carefully.");
    pane.wait_for_text("You said:");
    pane.wait_for_text("scripted/demo · idle");
    // A command naming its model runs its turn on it; the session's model stays after.
    pane.type_text("/quick look around");
    pane.keys(&["Enter"]);
    pane.wait_for_text("I have read the README");
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("and now");
    pane.keys(&["Enter"]);
    pane.wait_for_text("› and now");
    wait_until("the demo model to answer it", || {
        pane.screen()
            .matches("Hello from Smith's scripted provider")
            .count()
            == 2
    });
    quit(&pane);
    pane.assert_restored();
    assert_eq!(
        crate::user_texts(&env),
        ["Fix issue 42 carefully.", "Quick: look around", "and now"]
    );
    // Resumed with no model named: the session's own, not the command's.
    let pane = Pane::start(&env, &["--continue"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    quit(&pane);
    pane.assert_restored();
}

#[test]
fn cost_and_status_show_the_sessions_figures_in_the_transcript() {
    let env = Env::new();
    let pane = Pane::start(&env, &["--model", "scripted/demo"], &[]);
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("hello");
    pane.keys(&["Enter"]);
    pane.wait_for_text("You said:");
    pane.wait_for_text("scripted/demo · idle");
    pane.type_text("/cost");
    pane.keys(&["Enter"]);
    // What `sessions get --usage` says of the same file.
    pane.wait_for_text("cost: $0 · 1 response over 1 attempt · input 24 · output 31");
    pane.wait_for_text("scripted/demo: $0 · 1 response ·");
    pane.type_text("/status");
    pane.keys(&["Enter"]);
    pane.wait_for_text("model scripted/demo");
    pane.wait_for_text("permission mode: auto-edit · sandbox:");
    pane.wait_for_text("MCP servers: none added");
    pane.type_text("/mcp");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MCP servers: none added or declared. `smith mcp add NAME");
    // A server added while the view is open is shown with its state at the next ask.
    let added = env.run(&["mcp", "add", "probe", "--", "true", "--flag"]);
    assert!(added.status.success(), "{}", stderr(&added));
    pane.type_text("/mcp");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MCP servers (1):");
    pane.wait_for_text("probe stdio true · not listed yet");
    // Reconnected from the view: nothing of it runs in this session yet, and that is said.
    pane.type_text("/mcp reconnect probe");
    pane.keys(&["Enter"]);
    pane.wait_for_text("MCP server `probe` reconnected: its program was not running");
    pane.type_text("/mcp reconnect nothing");
    pane.keys(&["Enter"]);
    pane.wait_for_text("no MCP server is named `nothing`");
    quit(&pane);
    pane.assert_restored();
    // The same figures as `sessions get --usage` gives for the session file.
    let file = crate::session_file(&env).expect("the session");
    let id = file.file_stem().unwrap().to_str().unwrap();
    let usage = env.run(&["sessions", "get", id, "--usage"]);
    assert!(usage.status.success(), "{}", stderr(&usage));
    assert!(
        crate::common::stdout(&usage)
            .contains("usage: 1 responses over 1 attempts · input 24 · output 31"),
        "{}",
        crate::common::stdout(&usage)
    );
}
