//! Generates the C header from this crate's source with cbindgen (pinned in the workspace's
//! Cargo.toml), into `OUT_DIR`. The committed `include/evoharness.h` must equal it:
//! `tests/header.rs` checks, and `EVOHARNESS_BLESS=1 cargo test -p evoharness-c --test header`
//! rewrites it. The generator is shared with `bindings/train-c`.

include!("../build-support/generate_header.rs");

fn main() {
    generate_header("evoharness.h");
}
