// The build script of both C libraries (`bindings/c`, `bindings/train-c`) includes this file
// with `include!`: one header generator, not two copies. Each crate's `cbindgen.toml` gives the
// header its shape; cbindgen is pinned once, in the workspace's Cargo.toml, because its output
// depends on its version.

/// Generates the header `name` from the crate's source (`src/lib.rs`, with its
/// `cbindgen.toml`) into `OUT_DIR`, and tells the crate's tests where it is
/// (`EVOHARNESS_GENERATED_HEADER`), so that `tests/header.rs` can compare it with the committed
/// `include/<name>` (see `check_header.rs`).
fn generate_header(name: &str) {
    let dir =
        std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join(name);
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=../build-support/generate_header.rs");
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
