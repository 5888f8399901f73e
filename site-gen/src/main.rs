//! `smith-site-gen OUT_DIR`: render the embedded docs corpus to a static site in `OUT_DIR`
//! and check its links. Run through `cargo xtask site`.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: smith-site-gen OUT_DIR");
        return ExitCode::from(2);
    };
    let corpus = match smith_docs::Corpus::embedded() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("smith-site-gen: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = smith_site_gen::generate(&corpus, &out) {
        eprintln!(
            "smith-site-gen: cannot write the site to {}: {e}",
            out.display()
        );
        return ExitCode::FAILURE;
    }
    let broken = smith_site_gen::check_links(&out);
    if !broken.is_empty() {
        for b in &broken {
            eprintln!("smith-site-gen: broken link: {b}");
        }
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {} pages to {}; every local link resolves",
        corpus.documents().len() + 2,
        out.display()
    );
    ExitCode::SUCCESS
}
