//! Measures the docs search path for `cargo xtask bench`: opening the embedded corpus, opening
//! the index built at compile time, building the same index in RAM instead (the alternative
//! the build-time index was chosen over), and one query. Prints `name milliseconds` lines,
//! each the median of 50 runs.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::{Duration, Instant};

use smith_docs::{Corpus, SearchIndex};

fn median(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

fn time<T>(samples: &mut Vec<Duration>, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    samples.push(start.elapsed());
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut load, mut open, mut build, mut query) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..50 {
        let corpus = time(&mut load, Corpus::embedded)?;
        let index = time(&mut open, SearchIndex::embedded)?;
        time(&mut build, || SearchIndex::build(&corpus))?;
        let page = time(&mut query, || index.search("session file format", 10, None))?;
        assert!(!page.hits.is_empty());
    }
    println!("corpus_load {:.3}", median(load));
    println!("index_open_embedded {:.3}", median(open));
    println!("index_build_in_ram {:.3}", median(build));
    println!("query {:.3}", median(query));
    Ok(())
}
