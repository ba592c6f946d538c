//! The committed header is exactly what build.rs generates (cbindgen, pinned) from the crate's
//! source, and this library's ABI version is libevoharness's. Regenerate the header with
//!
//! ```sh
//! EVOHARNESS_BLESS=1 cargo test -p evoharness-train-c --test header
//! ```

use std::ffi::CStr;

include!("../../build-support/check_header.rs");

#[test]
fn the_committed_header_is_the_generated_one() {
    check_committed_header(
        include_str!(env!("EVOHARNESS_GENERATED_HEADER")),
        "evoharness_train.h",
    );
}

#[test]
fn the_abi_version_is_libevoharnesss() {
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(evoharness::evoharness_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}
