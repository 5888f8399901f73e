//! Bench: the release `smith` terminal UI on a pseudo-terminal (100×30), the bench playing the
//! terminal (it answers the start-up probe's device-attributes query, as every terminal
//! does). Figures: start → first frame (the input's placeholder drawn), median of 10; key
//! press → its character echoed while a stream delivers 100 deltas per second (the scripted
//! provider held at a gate between deltas, the bench releasing one every 10 ms), median of 40
//! keys; terminal bytes written per streamed delta and the full clears during the stream; a
//! 2,000-line bracketed paste → its chip drawn; opening a 100 MB session → its last turn
//! drawn, and the peak RSS after ten pages up. Run by `cargo xtask bench` after it builds
//! `smith` in release; prints `name value` lines.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod common;

use common::{median, ms, smith};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What the UI wrote, as it arrives.
#[derive(Default)]
struct Screen {
    bytes: Mutex<Vec<u8>>,
    grew: Condvar,
}

impl Screen {
    /// Wait until `needle` appears at or after byte `from`; when it did, and where it ends.
    fn wait_for(&self, from: usize, needle: &[u8]) -> (Instant, usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut bytes = self.bytes.lock().unwrap();
        loop {
            if let Some(at) = bytes[from.min(bytes.len())..]
                .windows(needle.len())
                .position(|w| w == needle)
            {
                return (Instant::now(), from + at + needle.len());
            }
            assert!(
                Instant::now() < deadline,
                "the UI never wrote {:?}; it wrote (the end): {:?}",
                String::from_utf8_lossy(needle),
                String::from_utf8_lossy(&bytes[bytes.len().saturating_sub(1500)..])
            );
            bytes = self
                .grew
                .wait_timeout(bytes, Duration::from_millis(50))
                .unwrap()
                .0;
        }
    }

    fn len(&self) -> usize {
        self.bytes.lock().unwrap().len()
    }
}

struct Ui {
    child: Child,
    master: std::fs::File,
    screen: Arc<Screen>,
}

impl Ui {
    fn start(home: &Path, args: &[&str]) -> (Self, Instant) {
        let size = nix::pty::Winsize {
            ws_row: 30,
            ws_col: 100,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = nix::pty::openpty(Some(&size), None).expect("a pseudo-terminal");
        let slave: OwnedFd = pty.slave;
        let started = Instant::now();
        // A session of its own (setsid), so the pseudo-terminal is the only terminal it has.
        let child = Command::new("setsid")
            .arg(smith())
            .args(args)
            .env("SMITH_HOME", home)
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR")
            .current_dir(home)
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave))
            .spawn()
            .expect("smith starts");
        let master = std::fs::File::from(pty.master);
        let screen = Arc::new(Screen::default());
        {
            let mut reader = master.try_clone().unwrap();
            let mut answer = master.try_clone().unwrap();
            let screen = Arc::clone(&screen);
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                while let Ok(n) = reader.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let chunk = &buf[..n];
                    // A terminal answers primary device attributes at once.
                    if chunk.windows(3).any(|w| w == b"\x1b[c") {
                        let _ = answer.write_all(b"\x1b[?62;22c");
                    }
                    screen.bytes.lock().unwrap().extend_from_slice(chunk);
                    screen.grew.notify_all();
                }
            });
        }
        (
            Self {
                child,
                master,
                screen,
            },
            started,
        )
    }

    fn send(&mut self, bytes: &[u8]) -> Instant {
        self.master.write_all(bytes).unwrap();
        self.master.flush().unwrap();
        Instant::now()
    }

    fn quit(mut self) {
        self.send(b"\x04");
        let _ = self.child.wait();
    }
}

const PLACEHOLDER: &[u8] = b"F1 for keys";

fn main() {
    // `TUI_BENCH_FIXTURE=DIR`: only build the 100 MB session under the home DIR and print its
    // id, to profile an attach by hand (`SMITH_HOME=DIR smith --session ID`).
    if let Some(dir) = std::env::var_os("TUI_BENCH_FIXTURE") {
        println!("{}", large_100_mb(Path::new(&dir)).0);
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let demo = ["--model", "scripted/demo"];
    // Warm the compile cache (first start compiles the bundled plugins).
    let (ui, _) = Ui::start(home.path(), &demo);
    ui.screen.wait_for(0, b"idle");
    ui.quit();

    let mut first = Vec::new();
    for _ in 0..10 {
        let (ui, started) = Ui::start(home.path(), &demo);
        let (at, _) = ui.screen.wait_for(0, PLACEHOLDER);
        first.push(ms(at - started));
        ui.screen.wait_for(0, b"idle");
        ui.quit();
    }
    println!("tui_first_frame_ms {:.3}", median(first));

    // A stream of 200 deltas, each held at a gate the bench releases every 10 ms.
    const DELTAS: usize = 200;
    let mut script = String::from("round {\n");
    for i in 0..DELTAS {
        script.push_str(&format!("  gate \"d{i}\"\n  text \"{} \"\n", "·".repeat(3)));
    }
    script.push_str("  stop \"end_turn\"\n}\n");
    let script_path = home.path().join("stream.kdl");
    std::fs::write(&script_path, script).unwrap();
    let (mut ui, _) = Ui::start(
        home.path(),
        &[
            "--model",
            "scripted/stream",
            "--script",
            script_path.to_str().unwrap(),
        ],
    );
    ui.screen.wait_for(0, b"idle");
    ui.send(b"go\r");
    let gate = |i: usize| home.path().join(format!("d{i}"));
    let wait_gate = |i: usize| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !gate(i).with_extension("waiting").exists() {
            assert!(Instant::now() < deadline, "gate d{i} never reached");
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    wait_gate(0);
    let stream_from = ui.screen.len();
    let mut echoes = Vec::new();
    let stream_start = Instant::now();
    for i in 0..DELTAS {
        std::fs::write(gate(i).with_extension("release"), "").unwrap();
        if i % 5 == 2 && echoes.len() < 40 {
            let from = ui.screen.len();
            let sent = ui.send(b"z");
            let (at, _) = ui.screen.wait_for(from, b"z");
            echoes.push(ms(at - sent));
        }
        let next = stream_start + Duration::from_millis(10 * (i as u64 + 1));
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        if i + 1 < DELTAS {
            wait_gate(i + 1);
        }
    }
    ui.screen.wait_for(stream_from, b"idle");
    let written = ui.screen.len() - stream_from;
    let clears = {
        let bytes = ui.screen.bytes.lock().unwrap();
        bytes[stream_from..]
            .windows(4)
            .filter(|w| *w == b"\x1b[2J")
            .count()
    };
    println!("tui_key_echo_streaming_ms {:.3}", median(echoes));
    println!("tui_bytes_per_delta {:.1}", written as f64 / DELTAS as f64);
    println!("tui_full_clears_while_streaming {clears}");
    // Clear the draft, then paste 2,000 lines.
    ui.send(b"\x15");
    let paste: String = (1..=2000).map(|i| format!("line {i}\n")).collect();
    let from = ui.screen.len();
    let mut bytes = b"\x1b[200~".to_vec();
    bytes.extend_from_slice(paste.as_bytes());
    bytes.extend_from_slice(b"\x1b[201~");
    let sent = ui.send(&bytes);
    let (at, _) = ui.screen.wait_for(from, b"[paste 1: 2000 lines,");
    println!("tui_paste_2000_lines_ms {:.3}", ms(at - sent));
    ui.send(b"\x15");
    ui.quit();
    attach_100_mb(home.path());
}

/// Peak RSS of live process `pid` so far (`VmHWM` of `/proc/PID/status`), in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

/// Open a 100 MB session (the large-session builder: 64 KiB tool results): spawn → its last
/// turn drawn, median of 5; and the peak RSS after the first screen and ten pages up.
fn attach_100_mb(home: &Path) {
    let (id, last) = large_100_mb(home);
    let mut firsts = Vec::new();
    let mut rss = 0;
    for run in 0..5 {
        let (mut ui, started) = Ui::start(home, &["--session", &id]);
        let (at, _) = ui.screen.wait_for(0, last.as_bytes());
        firsts.push(ms(at - started));
        if run == 0 {
            // Each page up redraws the transcript; only changed cells are written, so wait
            // for the frame's end (the cursor shown again) after each one.
            for _ in 0..10 {
                let from = ui.screen.len();
                ui.send(b"\x1b[5~");
                ui.screen.wait_for(from, b"\x1b[?25h");
            }
            rss = peak_rss_kib(ui.child.id());
        }
        ui.quit();
    }
    println!("tui_attach_100mb_first_screen_ms {:.3}", median(firsts));
    println!("tui_attach_100mb_peak_rss_kib {rss}");
}

/// Build a 100 MB session under `home` (the large-session builder: 64 KiB tool results);
/// its id and the text of its last turn.
fn large_100_mb(home: &Path) -> (String, String) {
    let sessions = home.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let large = smith_testkit::large::large_session(
        &sessions,
        smith_testkit::large::Shape {
            result_bytes: 64 << 10,
            file_bytes: 100 << 20,
            bulk_off_branch: false,
            compacted: false,
        },
        &home.display().to_string(),
    );
    (large.id.to_string(), format!("again ({})", large.turns - 1))
}
