//! The terminal guard: the modes the UI sets, and their restoration on every exit path —
//! quit, a returned error, a panic (the hook), a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
//! and a lost terminal (DESIGN §10). Restoration runs at most once, whoever gets there
//! first, in the order that leaves no mode behind: keyboard enhancement popped, focus
//! reporting, bracketed paste and mouse modes off, the cursor shown, the alternate screen
//! left, and raw mode off last (the terminal's own settings, as saved, come back).

use std::io::Write;
use std::sync::Mutex;

use crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste,
    EnableFocusChange, EnableMouseCapture, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};

/// The modes set, so restoration undoes exactly those; `None` once restored (or never set).
static SET: Mutex<Option<Modes>> = Mutex::new(None);

#[derive(Clone, Copy, Debug)]
struct Modes {
    keyboard_enhancement: bool,
}

fn set_modes() -> std::sync::MutexGuard<'static, Option<Modes>> {
    SET.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Raw mode on: the first step, before the capability probe reads the terminal's answers.
///
/// # Errors
/// The terminal refused raw mode (stdin is not a terminal).
pub(crate) fn raw() -> std::io::Result<()> {
    crossterm::terminal::enable_raw_mode()?;
    let mut set = set_modes();
    if set.is_none() {
        *set = Some(Modes {
            keyboard_enhancement: false,
        });
    }
    Ok(())
}

/// The alternate screen, bracketed paste and focus reporting on, mouse reporting when
/// `mouse` (`tui.mouse`: the wheel scrolls the transcript; off leaves the terminal's own
/// selection), and the kitty keyboard flags pushed when `keyboard_enhancement`; raw mode
/// must be on ([`raw`]).
///
/// # Errors
/// Writing to the terminal failed (what was set is restored by [`restore`] all the same).
pub(crate) fn enter(keyboard_enhancement: bool, mouse: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout();
    execute!(
        out,
        EnterAlternateScreen,
        EnableBracketedPaste,
        EnableFocusChange
    )?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
    }
    if keyboard_enhancement {
        // Recorded before the push is written: a push cut short is popped all the same
        // (a pop with nothing pushed is ignored by terminals).
        if let Some(m) = set_modes().as_mut() {
            m.keyboard_enhancement = true;
        }
        execute!(
            out,
            PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
        )?;
    }
    Ok(())
}

/// Put every mode back (once; later calls do nothing). Errors are ignored: a lost terminal
/// takes its modes with it.
pub(crate) fn restore() {
    let Some(modes) = set_modes().take() else {
        return;
    };
    let mut out = std::io::stdout();
    if modes.keyboard_enhancement {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(
        out,
        DisableMouseCapture,
        DisableFocusChange,
        DisableBracketedPaste,
        cursor::Show,
        LeaveAlternateScreen
    );
    let _ = out.flush();
    let _ = crossterm::terminal::disable_raw_mode();
}

/// Leave the terminal to another program (the external editor) with the modes restored;
/// [`resume`] sets them again.
pub(crate) fn suspend() -> bool {
    let keyboard = set_modes().is_some_and(|m| m.keyboard_enhancement);
    restore();
    keyboard
}

/// Set the modes again after [`suspend`].
///
/// # Errors
/// As [`raw`] and [`enter`].
pub(crate) fn resume(keyboard_enhancement: bool, mouse: bool) -> std::io::Result<()> {
    raw()?;
    enter(keyboard_enhancement, mouse)
}

/// Restore the terminal before the panic message is printed (it would be lost on the
/// alternate screen, in raw mode), then report as before.
pub(crate) fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
