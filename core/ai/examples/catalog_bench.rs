//! How long loading the bundled model catalog takes (every `smith eval` and `smith models`
//! does it): records embedded as JSON at build time, median of 50. Prints `name value` lines
//! for `cargo xtask bench`.
#![allow(clippy::print_stdout)]

fn main() {
    let mut times = Vec::new();
    let mut count = 0;
    for _ in 0..50 {
        let start = std::time::Instant::now();
        let catalog = smith_ai::catalog::Catalog::bundled().expect("the bundled catalog loads");
        times.push(start.elapsed());
        count = catalog.models().count();
    }
    times.sort();
    println!("catalog_load_ms {}", times[25].as_secs_f64() * 1000.0);
    println!("catalog_records {count}");
    // The same records parsed from their KDL text, as user and plugin catalogs are.
    let start = std::time::Instant::now();
    let layer = smith_ai::catalog::parse(smith_ai::catalog::BUNDLED, "bundled", None)
        .expect("the bundled catalog parses");
    println!(
        "catalog_kdl_parse_ms {}",
        start.elapsed().as_secs_f64() * 1000.0
    );
    assert_eq!(layer.models.len(), count);
}
