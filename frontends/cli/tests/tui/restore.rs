//! Every way of leaving restores the terminal exactly: the quit key, a returned error, a
//! panic (the fault hook compiled only into debug builds), each signal, with the keyboard
//! enhancement pushed too.

use crate::common::Env;
use crate::pane::Pane;

fn started(env: &Env, vars: &[(&str, &str)], extra: &[&str]) -> Pane {
    let mut args = vec!["--model", "scripted/demo"];
    args.extend_from_slice(extra);
    let pane = Pane::start(env, &args, vars);
    pane.wait_for_text("scripted/demo · idle");
    // Modes are on while smith runs: the alternate screen at least.
    assert_ne!(pane.flags(), pane.flags_before, "smith set no mode");
    let mouse = if extra.contains(&"tui.mouse=off") {
        "0"
    } else {
        "1"
    };
    assert_eq!(
        pane.flags().split(' ').nth(2),
        Some(mouse),
        "mouse capture while smith runs ({extra:?}; flags {})",
        crate::pane::FLAGS
    );
    pane
}

#[test]
fn the_quit_key_restores_every_mode() {
    let env = Env::new();
    let pane = started(&env, &[], &["-c", "tui.keyboard-enhancement=on"]);
    pane.keys(&["C-d"]);
    assert_eq!(pane.exit_status(), 0);
    pane.assert_restored();
    let log = pane.log();
    assert!(
        log.windows(5).any(|w| w == b"\x1b[>1u"),
        "the keyboard enhancement was pushed (it is switched on)"
    );
}

/// The UI with the debug-only fault hook set to `kind` (`error` or `panic`), fired (F12).
#[cfg(debug_assertions)]
fn fault(env: &Env, kind: &str) -> Pane {
    let pane = started(
        env,
        &[("SMITH_TUI_FAULT", kind)],
        &["-c", "tui.keyboard-enhancement=on"],
    );
    pane.keys(&["F12"]);
    pane
}

#[cfg(debug_assertions)]
#[test]
fn a_returned_error_restores_every_mode() {
    let env = Env::new();
    let pane = fault(&env, "error");
    assert_eq!(pane.exit_status(), 1);
    pane.assert_restored();
    pane.wait_for_text("fault hook returned an error");
}

#[cfg(debug_assertions)]
#[test]
fn a_panic_restores_every_mode_and_its_message_is_readable() {
    let env = Env::new();
    let pane = fault(&env, "panic");
    assert_eq!(pane.exit_status(), 101);
    pane.wait_for_text("the fault hook panicked on purpose");
    pane.assert_restored();
}

fn signalled(signal: nix::sys::signal::Signal) {
    let env = Env::new();
    let pane = started(&env, &[], &["-c", "tui.keyboard-enhancement=on"]);
    let pid = nix::unistd::Pid::from_raw(pane.smith_pid());
    nix::sys::signal::kill(pid, signal).unwrap();
    assert_eq!(pane.exit_status(), 128 + signal as i32, "{signal}");
    pane.assert_restored();
}

#[test]
fn with_the_mouse_setting_off_the_terminal_keeps_the_mouse() {
    let env = Env::new();
    let pane = started(&env, &[], &["-c", "tui.mouse=off"]);
    pane.keys(&["C-d"]);
    assert_eq!(pane.exit_status(), 0);
    pane.assert_restored();
}

#[test]
fn sigint_restores_every_mode() {
    signalled(nix::sys::signal::Signal::SIGINT);
}

#[test]
fn sigterm_restores_every_mode() {
    signalled(nix::sys::signal::Signal::SIGTERM);
}

#[test]
fn sighup_restores_every_mode() {
    signalled(nix::sys::signal::Signal::SIGHUP);
}

#[test]
fn sigquit_restores_every_mode() {
    signalled(nix::sys::signal::Signal::SIGQUIT);
}
