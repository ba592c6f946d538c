//! Generates the C header from this crate's source with cbindgen (pinned in Cargo.toml), into
//! `OUT_DIR`. The committed `include/evoharness_suite.h` must equal it: `tests/header.rs`
//! checks, and `EVOHARNESS_BLESS=1 cargo test -p evoharness-suite-c --test header` rewrites it.
//! It declares the suite's items only and includes `evoharness.h` (bindings/c) for the rest.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"))
        .join("evoharness_suite.h");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .unwrap_or_else(|e| panic!("cbindgen.toml: {e}"));
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .unwrap_or_else(|e| panic!("generating the header: {e}"))
        .write_to_file(&out);
    println!(
        "cargo:rustc-env=EVOHARNESS_GENERATED_HEADER={}",
        out.display()
    );
}
