//! Parse the reviewed catalog (`catalog/models.kdl`) once, at build time, with the same parser
//! the runtime uses for user and plugin catalogs, and embed it as JSON: KDL parsing of the
//! whole snapshot takes milliseconds, far too long for every `smith eval`. A snapshot that
//! breaks the schema fails the build, naming its line.

#[allow(dead_code, unreachable_pub)]
#[path = "src/catalog/parse.rs"]
mod parse;

fn main() {
    println!("cargo::rerun-if-changed=catalog/models.kdl");
    println!("cargo::rerun-if-changed=src/catalog/parse.rs");
    let text = std::fs::read_to_string("catalog/models.kdl").expect("catalog/models.kdl exists");
    let layer = match parse::parse(&text, "catalog/models.kdl", None) {
        Ok(layer) => layer,
        Err(e) => panic!("the bundled catalog breaks the schema: {e}"),
    };
    let json = serde_json::to_string(&layer.models).expect("catalog records serialize");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set"));
    std::fs::write(out.join("catalog.json"), json).expect("OUT_DIR is writable");
}
