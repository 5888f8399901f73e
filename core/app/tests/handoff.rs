//! A secret a plugin hands over mid-run is recorded as a registration before the tool result
//! that carries it, and no record of the session holds its value: the agent, the real wasm
//! plugin and the session file together.

use smith::{Cancel, SessionId};
use smith_agent::{Agent, RunLimits, Session};
use smith_host::{CompileCache, Host, Limits, PluginSource, Policy};

const TOKEN: &str = "minted-token-5f1e2d3c4b5a6978";

const SCRIPT: &str = r##"
round {
    tool-call id="m1" name="mint" arguments=#"{}"#
    stop "tool_use"
}
round {
    text "Done."
    stop "end_turn"
}
"##;

#[test]
fn a_handed_over_secret_is_registered_before_the_result_and_never_recorded() {
    let work = tempfile::tempdir().unwrap();
    let sessions = tempfile::tempdir().unwrap();
    let cache = CompileCache::new(Some(
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("smith-compile-cache"),
    ));
    let p = &smith_plugins::SECRET_MAKER;
    let sources = [PluginSource::new(p.origin, p.manifest, p.component)];
    let host = Host::load(&sources, &cache, Limits::default()).unwrap();
    let secrets = smith_secrets::Shared::default();
    let tools = host.loadout().with_policy(Policy {
        secrets: secrets.clone(),
        ..Policy::default()
    });
    let mut session = Session::create(sessions.path(), SessionId::new_now(), None).unwrap();
    session.register_secrets(secrets.clone(), &[]).unwrap();
    let provider = smith_testkit::scripted(SCRIPT, Some(work.path()));
    let agent = Agent::new(&provider, &tools, RunLimits::default()).in_dir(work.path().to_owned());
    let model = smith_testkit::selection("scripted/t");
    let outcome = agent.run(
        &mut session,
        &model,
        "mint one",
        &mut |_| {},
        &Cancel::new(),
    );
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    let path = session.path().to_owned();
    session.close().unwrap();
    let kinds = smith_testkit::kinds(&path);
    let registration = kinds.iter().position(|k| *k == "secret_registration");
    let result = kinds.iter().position(|k| *k == "tool_result");
    assert!(
        registration.is_some() && registration < result,
        "the registration precedes the result: {kinds:?}"
    );
    let bodies = smith_testkit::decoded_bodies(&path);
    let text = String::from_utf8_lossy(&bodies);
    assert!(
        !text.contains(TOKEN),
        "a record holds the handed-over secret"
    );
    assert!(text.contains("⟦secret:MINTED⟧"));
    assert!(text.contains("plugin:secret-maker@0.1.0"));
}
