//! SIGINT, SIGTERM and SIGHUP for the commands that run work (eval, compact, replay, rpc,
//! mcp, sessions watch).
//!
//! One rule (see `smith_app::interrupts`): a process started with SIGINT ignored keeps
//! ignoring it for its whole run; otherwise [`install`] runs as the command starts, before
//! settings and plugins load, and a first SIGINT at any later moment cancels the process's one
//! [`Cancel`] and runs the action the command registered; a second one exits at once with
//! status 130. SIGTERM and SIGHUP are handled the same way whatever SIGINT's disposition. A command registers its action with [`on_interrupt`]; one registered after an
//! interrupt already arrived runs at once.
//!
//! For tests, `SMITH_TEST_SIGINT_AT=PHASE` raises SIGINT at a named start-up phase
//! ([`phase`]) and waits until the handler has seen it, so a test decides when the signal
//! arrives without a timer.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use smith::Cancel;

use crate::exit;

/// The environment variable naming the start-up phase at which a test raises SIGINT.
const TEST_PHASE_VAR: &str = "SMITH_TEST_SIGINT_AT";

/// What a command does on the first interrupt beyond cancelling [`cancel`].
type Action = Box<dyn Fn() + Send>;

struct Handler {
    /// Whether SIGINT is handled (not inherited ignored).
    sigint: bool,
    cancel: Cancel,
    presses: AtomicU32,
    action: Mutex<Option<Action>>,
}

static HANDLER: OnceLock<Option<Handler>> = OnceLock::new();

fn handler() -> Option<&'static Handler> {
    HANDLER.get().and_then(Option::as_ref)
}

/// Install the handler unless SIGINT was inherited ignored. Idempotent; call it first thing
/// in a command that runs work.
pub(crate) fn install() {
    HANDLER.get_or_init(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut wanted = vec![SIGTERM, SIGHUP];
        let sigint = !smith_app::interrupts::sigint_ignored();
        if sigint {
            wanted.push(SIGINT);
        }
        // Without a handler (one could not be registered) each signal keeps its default: it
        // ends the process, which is still an interrupt.
        let mut signals = signal_hook::iterator::Signals::new(wanted).ok()?;
        std::thread::spawn(move || {
            for _ in signals.forever() {
                // A signal that came before the handler was stored waits for it.
                if let Some(h) = HANDLER.wait() {
                    h.interrupted();
                }
            }
        });
        Some(Handler {
            sigint,
            cancel: Cancel::new(),
            presses: AtomicU32::new(0),
            action: Mutex::new(None),
        })
    });
    phase("start");
}

impl Handler {
    fn interrupted(&self) {
        if self.presses.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(i32::from(exit::INTERRUPTED));
        }
        self.cancel.cancel();
        if let Some(action) = self
            .action
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            action();
        }
    }
}

/// The process's cancellation token: cancelled by the first SIGINT, never when SIGINT is
/// ignored.
pub(crate) fn cancel() -> Cancel {
    handler().map_or_else(Cancel::new, |h| h.cancel.clone())
}

/// Register what the first interrupt does besides cancelling [`cancel`] (a server stops
/// serving). When one has already arrived it runs now.
pub(crate) fn on_interrupt(action: impl Fn() + Send + 'static) {
    let Some(h) = handler() else { return };
    let mut slot = h.action.lock().unwrap_or_else(|e| e.into_inner());
    if h.presses.load(Ordering::SeqCst) > 0 {
        action();
    }
    *slot = Some(Box::new(action));
}

/// A named start-up phase: `start` (the handler was just installed) and `ready` (settings
/// and plugins are loaded, nothing has run). With `SMITH_TEST_SIGINT_AT` naming it, raise
/// SIGINT and wait (up to a generous bound) until the handler has counted it.
pub(crate) fn phase(name: &str) {
    if std::env::var_os(TEST_PHASE_VAR).is_none_or(|p| p != name) {
        return;
    }
    let pid = rustix::process::getpid();
    let _ = rustix::process::kill_process(pid, rustix::process::Signal::INT);
    // An ignored SIGINT is never counted: nothing to wait for.
    let Some(h) = handler().filter(|h| h.sigint) else {
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while h.presses.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}
