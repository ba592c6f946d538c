//! Generates the C header from this crate's source with cbindgen (pinned in the workspace's
//! Cargo.toml), into `OUT_DIR`. The committed `include/evoharness_train.h` must equal it:
//! `tests/header.rs` checks, and `EVOHARNESS_BLESS=1 cargo test -p evoharness-train-c --test
//! header` rewrites it. It declares the suite's items only and includes `evoharness.h`
//! (bindings/c) for the rest. The generator is shared with `bindings/c`.

include!("../build-support/generate_header.rs");

fn main() {
    generate_header("evoharness_train.h");
}
