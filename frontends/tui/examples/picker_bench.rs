//! Bench: the terminal UI's palette and pickers, headless (the real state, listing threads
//! and drawing, into a 100×40 buffer), in release. Figures: `/` → the palette's first paint
//! (the bundled commands); `/model ` → the model picker's first paint (the bundled
//! catalog's models with their details); the resume picker over 5,000 sessions on disk —
//! its first paint (the frame opening it, before any row), then its first rows (listed,
//! newest first, summarized through each file's index) — and every row read; the branches
//! picker over a 10,000-entry session → its tree. Run by `cargo xtask bench`; prints
//! `name value` lines.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use smith_app::paths::Paths;
use smith_app::{App, Invocation};
use smith_testkit::large::{Shape, large_session};
use smith_tui::headless::Headless;

const DEADLINE: Duration = Duration::from_secs(120);

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn app(home: &Path) -> Arc<App> {
    let home = home.to_owned();
    let paths = Paths::from_vars(|name| (name == "SMITH_HOME").then(|| home.clone().into()));
    Arc::new(App::load(paths, &Invocation::default()).expect("the app loads"))
}

fn main() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    let sessions = home.join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let cwd = "/work/project";
    // One small real session (a start, a submission, a turn), copied under 5,000 ids.
    let seed_dir = root.path().join("seed");
    std::fs::create_dir_all(&seed_dir).unwrap();
    let seed = large_session(
        &seed_dir,
        Shape {
            result_bytes: 64,
            file_bytes: 1,
            bulk_off_branch: false,
            compacted: false,
        },
        cwd,
    );
    let bytes = std::fs::read(&seed.path).unwrap();
    for _ in 0..5_000 {
        let id = smith::SessionId::new_now();
        std::fs::write(sessions.join(smith_store::file_name(&id)), &bytes).unwrap();
    }
    let app = app(&home);
    let big_dir = root.path().join("big");
    std::fs::create_dir_all(&big_dir).unwrap();
    let big = large_session(
        &big_dir,
        Shape {
            result_bytes: 200,
            file_bytes: 10_000 * 210,
            bulk_off_branch: false,
            compacted: false,
        },
        cwd,
    );

    // The palette: `/` → its first paint, median of 50.
    let mut ui = Headless::open(&seed.path, 100, 40).with_product(&app);
    ui.settle(DEADLINE).unwrap();
    let mut palette = Vec::new();
    for _ in 0..50 {
        let started = Instant::now();
        ui.type_text("/");
        palette.push(ms(started.elapsed()));
        assert!(ui.screen().contains("/model MODEL"), "{}", ui.screen());
        ui.escape();
    }
    println!("tui_palette_first_paint_ms {:.3}", median(palette));

    // The model picker: `/model ` → its first paint.
    let mut models = Vec::new();
    for _ in 0..50 {
        let started = Instant::now();
        ui.type_text("/model ");
        models.push(ms(started.elapsed()));
        assert!(ui.screen().contains("MODEL of /model"), "{}", ui.screen());
        ui.escape();
    }
    println!("tui_model_picker_first_paint_ms {:.3}", median(models));

    // The resume picker over 5,000 sessions: its first paint, its first rows, every row.
    let (mut paint, mut first, mut all) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        let started = Instant::now();
        ui.open_sessions(&app, Path::new(cwd));
        paint.push(ms(started.elapsed()));
        let (rows, _) = ui.picker_rows(DEADLINE).unwrap();
        first.push(ms(started.elapsed()));
        assert!(rows > 0 && ui.screen().contains("Sessions of this directory"));
        let mut more = true;
        while more {
            let (n, loading) = ui.picker_rows(DEADLINE).unwrap();
            more = loading;
            if !loading {
                assert_eq!(n, 5_000, "every session listed");
            }
        }
        all.push(ms(started.elapsed()));
        ui.escape();
    }
    println!("tui_picker_first_paint_ms {:.3}", median(paint));
    println!("tui_resume_5000_first_rows_ms {:.3}", median(first));
    println!("tui_resume_5000_all_rows_ms {:.3}", median(all));

    // The branches picker over a 10,000-entry session.
    let mut tree = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        ui.open_branches(&app, &big.path);
        let (rows, _) = ui.picker_rows(DEADLINE).unwrap();
        tree.push(ms(started.elapsed()));
        assert!(rows > 500, "{rows} messages");
        ui.escape();
    }
    println!("tui_branches_10k_ms {:.3}", median(tree));
}
