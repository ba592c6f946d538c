//! The committed header is exactly what build.rs generates (cbindgen, pinned) from the crate's
//! source. Regenerate it with
//!
//! ```sh
//! EVOHARNESS_BLESS=1 cargo test -p evoharness-c --test header
//! ```

include!("../../build-support/check_header.rs");

#[test]
fn the_committed_header_is_the_generated_one() {
    check_committed_header(
        include_str!(env!("EVOHARNESS_GENERATED_HEADER")),
        "evoharness.h",
    );
}
