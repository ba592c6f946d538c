//! The committed header is exactly what build.rs generates (cbindgen, pinned) from the crate's
//! source, and this library's ABI version is libevoharness's. Regenerate the header with
//!
//! ```sh
//! EVOHARNESS_BLESS=1 cargo test -p evoharness-suite-c --test header
//! ```

use std::ffi::CStr;
use std::path::Path;

#[test]
fn the_committed_header_is_the_generated_one() {
    let generated = include_str!(env!("EVOHARNESS_GENERATED_HEADER"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/evoharness_suite.h");
    if std::env::var_os("EVOHARNESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, generated).expect("writing include/evoharness_suite.h");
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
            "bindings/suite-c/include/evoharness_suite.h is stale (first difference at line {}); \
             run EVOHARNESS_BLESS=1 cargo test -p evoharness-suite-c --test header and commit it",
            first + 1
        );
    }
}

#[test]
fn the_abi_version_is_libevoharnesss() {
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(evoharness::evoharness_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}
