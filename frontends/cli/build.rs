//! Link options for the `smith` binaries.
//!
//! On Linux with glibc the binaries pack their relative relocations (`-z
//! pack-relative-relocs`, DT_RELR: GNU ld 2.38, glibc 2.36): about 47,000 relocation records
//! of 24 bytes each become a bitmap of a few KiB, so the binary is about 1 MiB smaller and
//! the dynamic loader reads and processes that much less at every start. A linker or C
//! library older than those refuses the option or the binary; it is then the place to look.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
