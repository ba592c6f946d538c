//! The committed header is exactly what build.rs generates (cbindgen, pinned) from the crate's
//! source. Regenerate it with
//!
//! ```sh
//! EVOHARNESS_BLESS=1 cargo test -p evoharness-c --test header
//! ```

use std::path::Path;

#[test]
fn the_committed_header_is_the_generated_one() {
    let generated = include_str!(env!("EVOHARNESS_GENERATED_HEADER"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/evoharness.h");
    if std::env::var_os("EVOHARNESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, generated).expect("writing include/evoharness.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "bindings/c/include/evoharness.h is stale (first difference at line {}); run \
             EVOHARNESS_BLESS=1 cargo test -p evoharness-c --test header and commit it",
            first + 1
        );
    }
}
