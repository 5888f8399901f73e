//! The built `smith` in a real terminal: a tmux pane on a server of its own. The pane runs a
//! shell script that records the terminal's settings (`stty -g`) before and after smith,
//! waits for a line before starting it (so the test reads tmux's mode flags first), writes
//! smith's exit status, and then runs `cat -v`, which shows whatever a paste or a key sends
//! once smith is gone. Everything smith writes is logged by `pipe-pane`.

use std::path::{Path, PathBuf};
use std::process::Command;

use smith_testkit::wait_until;

use crate::common::Env;

/// tmux's mode flags of the pane: alternate screen, cursor shown, mouse reporting (any, SGR),
/// application keypad.
pub const FLAGS: &str =
    "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_sgr_flag} #{keypad_flag}";

/// One pane on one tmux server.
pub struct Pane {
    socket: String,
    pub dir: PathBuf,
    /// The flags before smith started.
    pub flags_before: String,
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether tmux is on this machine (`.ci/run` installs it).
pub fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

impl Pane {
    /// Start `smith ARGS` in a 100×30 pane, in `env`'s root, with `vars` set.
    pub fn start(env: &Env, args: &[&str], vars: &[(&str, &str)]) -> Self {
        assert!(
            have_tmux(),
            "these tests drive smith in tmux; install tmux (.ci/run does)"
        );
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let socket = format!("smith-test-{}-{n}", std::process::id());
        let dir = env.root.path().join(format!("pane{n}"));
        std::fs::create_dir_all(&dir).unwrap();
        let d = |name: &str| quote(&dir.join(name).display().to_string());
        let mut script = String::from("#!/bin/sh\n");
        for var in [
            "NO_COLOR",
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
            "SMITH_MODEL",
            "SMITH_MAX_ROUNDS",
            "SMITH_THINKING",
            "VISUAL",
            "EDITOR",
        ] {
            script.push_str(&format!("unset {var}\n"));
        }
        let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("smith-cache");
        for (k, v) in [
            ("SMITH_HOME", env.home().display().to_string()),
            ("TMPDIR", env.tmp().display().to_string()),
            ("SMITH_CACHE_HOME", cache.display().to_string()),
        ] {
            script.push_str(&format!("export {k}={}\n", quote(&v)));
        }
        for (k, v) in vars {
            script.push_str(&format!("export {k}={}\n", quote(v)));
        }
        let words: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_smith").to_owned())
            .chain(args.iter().map(|a| (*a).to_owned()))
            .map(|w| quote(&w))
            .collect();
        // Job control on (`set -m`), as in an interactive shell: smith runs in a process group
        // of its own in the foreground, so its Ctrl+Z stops it; a stopped smith is continued
        // (`fg`) when Enter is pressed after `stopped` shows.
        script.push_str(&format!(
            "cd {}\nstty -g > {}\nprintf 'ready\\n'\nread _\nset -m\n{}\ns=$?\nwhile [ $s -eq 148 ]; do printf 'stopped\\n'; read _; fg > /dev/null; s=$?; done\necho $s > {}\nstty -g > {}\nprintf 'after\\n'\nexec cat -v\n",
            quote(&env.root.path().display().to_string()),
            d("stty.before"),
            words.join(" "),
            d("status"),
            d("stty.after"),
        ));
        let run = dir.join("run.sh");
        std::fs::write(&run, script).unwrap();
        let mut pane = Self {
            socket,
            dir,
            flags_before: String::new(),
        };
        pane.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "100",
            "-y",
            "30",
            "-s",
            "main",
            &format!("sh {}", quote(&run.display().to_string())),
        ]);
        pane.wait_for_text("ready");
        pane.flags_before = pane.flags();
        let log = pane.dir.join("pty.log");
        pane.tmux(&[
            "pipe-pane",
            "-o",
            "-t",
            "main",
            &format!("cat >> {}", quote(&log.display().to_string())),
        ]);
        pane.keys(&["Enter"]);
        pane
    }

    /// Run `tmux ARGS` on this pane's server; its stdout.
    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen as text.
    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "main"])
    }

    /// The screen with its styles as escape sequences (`capture-pane -e`).
    pub fn styled_screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-e", "-t", "main"])
    }

    /// The mode flags now ([`FLAGS`]).
    pub fn flags(&self) -> String {
        self.tmux(&["display", "-p", "-t", "main", FLAGS])
            .trim()
            .to_owned()
    }

    /// Send keys (tmux key names, or literal text with `-l`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Press Esc and wait until the screen no longer shows `shown`. A key sent right after a
    /// bare Esc arrives in the same read and is parsed as Alt+key, so whatever follows an Esc
    /// waits for its effect first.
    pub fn escape_until_gone(&self, shown: &str) {
        self.keys(&["Escape"]);
        let mut last = String::new();
        let gone = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_until(&format!("Esc removing {shown:?}"), || {
                last = self.screen();
                !last.contains(shown)
            });
        }));
        if gone.is_err() {
            panic!("Esc did not remove {shown:?}; the screen shows:\n{last}");
        }
    }

    /// Type `text` literally.
    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", "main", "-l", text]);
    }

    /// Paste `text` as a terminal paste (bracketed when the program asked for it).
    pub fn paste(&self, text: &str) {
        let file = self.dir.join("paste.txt");
        std::fs::write(&file, text).unwrap();
        self.tmux(&["load-buffer", "-b", "p", file.to_str().unwrap()]);
        self.tmux(&["paste-buffer", "-p", "-d", "-b", "p", "-t", "main"]);
    }

    /// Wait until the screen shows `text`.
    pub fn wait_for_text(&self, text: &str) {
        self.wait_for_screen(&format!("{text:?}"), |screen| screen.contains(text));
    }

    /// Wait until a whole capture satisfies `settled`, and return that capture.
    ///
    /// A capture may be taken while the program is half way through drawing a frame (tmux
    /// answers between two writes), so a test that asserts on a whole frame waits for one in
    /// which every part it checks holds, instead of asserting on the first capture that
    /// shows one of them. Panics naming `what` with the last capture when none does.
    pub fn wait_for_screen(&self, what: &str, settled: impl Fn(&str) -> bool) -> String {
        let mut last = String::new();
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_until(&format!("the screen showing {what}"), || {
                last = self.screen();
                settled(&last)
            });
        }));
        if found.is_err() {
            panic!("the screen never showed {what}; it shows:\n{last}");
        }
        last
    }

    /// The process id of smith (the pane's shell's child).
    pub fn smith_pid(&self) -> i32 {
        let shell: i32 = self
            .tmux(&["display", "-p", "-t", "main", "#{pane_pid}"])
            .trim()
            .parse()
            .unwrap();
        let mut pid = None;
        wait_until("smith running under the pane's shell", || {
            pid = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
                .ok()
                .and_then(|c| c.split_whitespace().next().and_then(|p| p.parse().ok()));
            pid.is_some()
        });
        pid.unwrap()
    }

    /// Wait for smith to end; its exit status.
    pub fn exit_status(&self) -> i32 {
        let status = self.dir.join("status");
        wait_until("smith exiting", || {
            std::fs::read_to_string(&status).is_ok_and(|s| s.ends_with('\n'))
        });
        self.wait_for_text("after");
        std::fs::read_to_string(&status)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Everything smith wrote to the terminal.
    pub fn log(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("pty.log")).unwrap_or_default()
    }

    /// Check, after smith ended, that the terminal is as it was: the same `stty -g`, the
    /// same mode flags, bracketed paste off (a paste reaches `cat -v` with no markers) and
    /// every keyboard-enhancement push popped.
    pub fn assert_restored(&self) {
        let before = std::fs::read_to_string(self.dir.join("stty.before")).unwrap();
        let after = std::fs::read_to_string(self.dir.join("stty.after")).unwrap();
        assert_eq!(before, after, "stty -g differs after smith");
        assert_eq!(self.flags(), self.flags_before, "tmux mode flags ({FLAGS})");
        self.paste("pasted-after-exit");
        self.wait_for_text("pasted-after-exit");
        let screen = self.screen();
        assert!(
            !screen.contains("[200~") && !screen.contains("[201~"),
            "bracketed paste is still on:\n{screen}"
        );
        // The log is tmux's `pipe-pane` copy, written by a process of its own: what smith
        // wrote last may reach it a moment after smith is gone, so it is read until the
        // pushes are popped (or the testkit's deadline passes, which fails the test).
        let count =
            |log: &[u8], needle: &[u8]| log.windows(needle.len()).filter(|w| *w == needle).count();
        let balanced = |log: &[u8]| count(log, b"\x1b[>1u") == count(log, b"\x1b[<1u");
        smith_testkit::wait_until("the keyboard enhancement's pops reaching the log", || {
            balanced(&self.log())
        });
        let log = self.log();
        let count = |needle: &[u8]| count(&log, needle);
        assert_eq!(
            count(b"\x1b[>1u"),
            count(b"\x1b[<1u"),
            "keyboard-enhancement push/pop unbalanced"
        );
        assert_eq!(
            count(b"\x1b[?1049h"),
            count(b"\x1b[?1049l"),
            "alternate screen left"
        );
        assert_eq!(
            count(b"\x1b[?2004h"),
            count(b"\x1b[?2004l"),
            "bracketed paste off"
        );
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}
